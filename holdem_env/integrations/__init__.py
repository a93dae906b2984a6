"""Ready adapters between :class:`~holdem_env.env.gym_wrapper.HoldemGymEnv` and RL libraries (imported lazily).

==============================================  ===============================================================
module                                          what it gives
==============================================  ===============================================================
:mod:`holdem_env.integrations.rllib`            :class:`~holdem_env.integrations.rllib.RLlibHoldemEnv` (the
                                                observation keys and float32 mask RLlib's action-masking
                                                module wants), its module spec, TorchScript export
:mod:`holdem_env.integrations.tianshou`         :class:`~holdem_env.integrations.tianshou.TianshouHoldemEnv`
                                                (``{"obs", "mask"}``, Tianshou's single-agent masked path)
:mod:`holdem_env.integrations.sb3`              vector envs for Stable-Baselines3 / sb3-contrib's
                                                ``MaskablePPO`` with one opponent object per table
==============================================  ===============================================================

Each module imports its library only inside the functions that need it, so ``import
holdem_env.integrations.rllib`` works (and its wrappers run) without RLlib installed; the library is
needed only to train. This package may import :mod:`holdem_env.env` and :mod:`holdem_env.agents`,
never :mod:`holdem_env.training`.
"""
