"""PPO with action masks for ``nlhe_v1`` (after CleanRL's ``ppo.py``): this package's overview and its public names.

Run it::

    python -m holdem_env.training.ppo --config configs/ppo_hu.yaml [--resume]

The pieces, in the order a run uses them (the module holding each in brackets; the
CleanRL-sized core, steps 5-7, reads top to bottom in :mod:`.algorithm`):

1. **Config** [:mod:`.config`] -- :class:`PpoSettings` (hyper-parameters, network, opponents, pool) and
   :class:`PpoRunConfig` (name, seed, table, rounds, where the policy goes), read from YAML
   and validated; every error names its key.
2. **Seeding** [:mod:`.learner`] -- ``torch.manual_seed(seed)`` before the network is built
   (in a forked generator: torch's global one is left as it was), during a round (and in the
   rollout workers) ``torch.use_deterministic_algorithms(True)`` and one torch thread (both
   restored after: :mod:`holdem_env.training.torch_settings`), and per round one numpy
   generator ``SeedSequence(seed, spawn_key=(round,))`` for the tables, the action draws and
   the minibatch order. A run is identical for a seed, and resuming from a round's
   checkpoint gives the identical policy (each round starts a fresh vector env).
3. **Env** -- :class:`holdem_env.env.vector.HoldemVectorEnv`: ``num_envs`` tables seen by the
   learner, which takes a uniformly drawn seat every hand; the other seats are played by
   the :class:`holdem_env.training.pool.OpponentPool` member drawn for that hand (fixed agents
   plus snapshots of the learner every ``snapshot_every`` iterations, sampled with priority
   to those it does worst against). A pool of one fixed member whose agent has a batched
   ``decide`` (``tag``, the style bots, ``random``, ``ppo``) and no snapshots runs every table on
   the vector env's compiled batched core, that agent deciding for all waiting tables at once
   (``HoldemVectorEnv.backend``).
4. **Network** -- :class:`holdem_env.agents.ppo.ActorCritic` over the scaled observation and
   the engineered features of :mod:`holdem_env.agents.features`; masked ids get logit -1e9.
5. **Rollout** [:mod:`.algorithm`, :mod:`.workers`] -- :func:`collect_rollout`: ``num_steps`` learner decisions per table, actions
   sampled from the masked policy, rewards (big blinds times ``reward_scale``) at hand ends,
   hands as episodes. In this process (:class:`LocalRollouts`) or, with ``num_workers: W``
   > 1, split over W rollout workers (:class:`RolloutWorkers`, each a :class:`RolloutSampler`:
   a local process, or a Ray actor when the learner has the league's Ray backend) that get
   the network and the pool every iteration and send back their rollouts and finished hands
   -- sampling on W cores. A run is the same for a seed and a number of workers; a different number of
   workers is a different (equally valid) run. ``overlap: true`` lets the workers sample
   the next rollout, with the network from before the update, while this process updates
   (one iteration of policy lag, as in asynchronous PPO variants: the clipped ratio is taken
   to the log-probabilities the actions were drawn with); also reproducible for a seed.
6. **Advantages** [:mod:`.algorithm`] -- :func:`compute_gae` (generalised advantage estimation, ``gamma``,
   ``gae_lambda``), returns = advantages + values.
7. **Update** [:mod:`.algorithm`] -- :func:`ppo_update`: ``update_epochs`` passes over shuffled minibatches of the
   clipped surrogate objective, value loss, entropy bonus, advantage normalisation per
   minibatch and gradient clipping at ``max_grad_norm``; with ``anchor`` and ``kl_coef`` a KL
   penalty towards the distilled anchor policy, with ``ent_coef_final`` an entropy schedule
   (population training: :mod:`holdem_env.training.population`, ``docs/population.md``).
8. **Logging** [:mod:`.learner`] -- TensorBoard scalars ``losses/policy_loss``, ``losses/value_loss``,
   ``losses/entropy``, ``losses/approx_kl``, ``losses/clipfrac``,
   ``losses/explained_variance``, ``charts/SPS`` (learner decisions per second of the
   round) and ``pool/<member>/mbb_per_hand`` (the rolling result against each member) and
   ``pool/<member>/weight``; the step is the learner's decision count.
9. **Checkpoint** [:mod:`.learner`, :mod:`.standalone`] -- after every round ``<run>/checkpoint.pt`` (network, optimiser, pool,
   counters) and the policy file ``<run>/policy.pt`` (and ``policy_out`` when set).

:class:`PpoLearner` holds steps 2-7 so that the league (``train: true`` for a ``ppo`` agent,
:mod:`.league`) can train one round at a time; :func:`run` is the stand-alone loop
(:mod:`.standalone`, whose ``main`` ``python -m`` runs).
"""


from __future__ import annotations

from .algorithm import Rollout, collect_rollout, compute_gae, ppo_loss, ppo_update
from .config import PpoRunConfig, PpoSettings, load_run_config
from .league import LeaguePpoLearner, LeaguePpoSettings
from .learner import PpoLearner, RoundStats
from .standalone import main, run
from .workers import LocalRollouts, RolloutSampler, RolloutWorkers

__all__ = [
    "PpoSettings",
    "PpoRunConfig",
    "PpoLearner",
    "LeaguePpoSettings",
    "LeaguePpoLearner",
    "RoundStats",
    "Rollout",
    "LocalRollouts",
    "RolloutSampler",
    "RolloutWorkers",
    "collect_rollout",
    "compute_gae",
    "ppo_loss",
    "ppo_update",
    "load_run_config",
    "run",
    "main",
]
