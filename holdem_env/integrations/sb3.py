"""Stable-Baselines3 / sb3-contrib: vector envs of ``HoldemGymEnv`` with one opponent object per table.

SB3's own ``make_vec_env("holdem_env/Holdem-v1", n_envs=4)`` works (``render_mode="rgb_array"`` is
supported) and ``MaskablePPO`` finds the mask through ``action_masks()``. But ``env_kwargs`` are shared,
so an opponent passed there is one object for every table; :func:`make_sb3_vec_env` builds each table's
opponent from an agent spec instead (a pool cycles over the tables), seeds it, and adds SB3's
``Monitor`` so episode returns reach the logs::

    from sb3_contrib import MaskablePPO
    from holdem_env.integrations.sb3 import make_sb3_vec_env

    venv = make_sb3_vec_env(4, pool=("random", "tag"), seed=0)
    model = MaskablePPO("MultiInputPolicy", venv).learn(100_000)

:func:`action_mask_fn` is the mask function for sb3-contrib's ``ActionMasker`` wrapper, for stacks
of wrappers that hide ``action_masks()``.

>>> thunk = make_sb3_env("tag", seed=3, monitor=False)
>>> env = thunk()
>>> obs, info = env.reset(seed=0)
>>> action_mask_fn(env).dtype.name, env.spec.id
('bool', 'holdem_env/Holdem-v1')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

from holdem_env.engine.errors import ConfigError
from holdem_env.env.registration import GYMNASIUM_ID
from holdem_env.integrations._common import opponent_from_spec

__all__ = ["make_sb3_env", "make_sb3_vec_env", "action_mask_fn", "progress_callback"]


def action_mask_fn(env: gymnasium.Env) -> np.ndarray:
    """The learner's legal actions (bool) of a ``HoldemGymEnv`` under any wrappers."""
    return env.unwrapped.action_masks()  # type: ignore[attr-defined]


def make_sb3_env(opponent: str | None = "tag", seed: int = 0, monitor: bool = True, **kwargs: Any) -> Callable[[], Any]:
    """A thunk building one table through ``gymnasium.make`` (so ``env.spec`` is set, as SB3 expects): the
    learner against ``opponent`` (an agent spec; its generator from ``seed``), wrapped in SB3's ``Monitor``
    when ``monitor``. ``kwargs`` are ``HoldemGymEnv`` keywords (``num_players`` defaults to 2)."""

    def thunk() -> Any:
        env: Any = gymnasium.make(
            GYMNASIUM_ID, **{"num_players": 2, **kwargs, "opponents": opponent_from_spec(opponent, seed)}
        )
        if monitor:
            from stable_baselines3.common.monitor import Monitor

            env = Monitor(env)
        return env

    return thunk


def make_sb3_vec_env(
    n_envs: int,
    pool: Sequence[str | None] = ("tag",),
    seed: int = 0,
    subproc: bool = False,
    **kwargs: Any,
) -> Any:
    """``n_envs`` tables in SB3's ``DummyVecEnv`` (``SubprocVecEnv`` when ``subproc``), table ``i`` against
    ``pool[i % len(pool)]`` seeded ``seed + i``, then ``venv.seed(seed)`` (each table's first reset)."""
    if isinstance(n_envs, bool) or not isinstance(n_envs, int) or n_envs < 1:
        raise ConfigError("n_envs", n_envs, "must be an integer >= 1")
    if isinstance(pool, str) or not pool:
        raise ConfigError("pool", pool, "must be a non-empty list of agent specs such as ['random', 'tag']")
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    thunks = [make_sb3_env(pool[i % len(pool)], seed + i, **kwargs) for i in range(n_envs)]
    venv = SubprocVecEnv(thunks) if subproc else DummyVecEnv(thunks)
    venv.seed(seed)
    return venv


def progress_callback(every: int) -> Any:
    """An SB3 callback that prints a line every ``every`` steps and at the end: the steps done, and
    the hands finished in SB3's Monitor buffer with their mean result in big blinds."""
    from stable_baselines3.common.callbacks import BaseCallback  # late import: SB3 is an optional extra

    class Progress(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next = every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                self.next += every
                self._report()
            return True

        def _on_training_end(self) -> None:
            self._report()

        def _report(self) -> None:
            episodes = list(self.model.ep_info_buffer or ())
            mean = sum(e["r"] for e in episodes) / len(episodes) if episodes else float("nan")
            print(f"{self.num_timesteps:,} steps: last {len(episodes)} hands {mean:+.2f} bb/hand", flush=True)

    return Progress()
