"""The PPO learner: network, optimiser, opponent pool and counters, trained one round at a time, with checkpoints."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from holdem_env.agents.ppo import ActorCritic, PolicyConfig, PpoPolicy
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError
from holdem_env.env.vector import HoldemVectorEnv
from holdem_env.fileutil import atomic_write_bytes

from ..checkpoint import CheckpointError, validate_ppo_checkpoint
from ..pool import OpponentPool
from ..population import Demonstrations, SelfMixPool, collect_demonstrations, distill, warm_start
from ..torch_settings import torch_settings
from .algorithm import compute_gae, fast_adam, ppo_update
from .config import PpoSettings
from .workers import LocalRollouts, RolloutWorkers, rollouts

__all__ = ["RoundStats", "PpoLearner"]


@dataclass
class RoundStats:
    """What one round of training did (means over its iterations)."""

    iterations: int
    decisions: int
    seconds: float
    losses: dict[str, float]
    pool: dict[str, float | None]
    weights: dict[str, float]

    @property
    def sps(self) -> float:
        """Learner decisions per second."""
        return self.decisions / self.seconds if self.seconds > 0 else 0.0


class PpoLearner:
    """A PPO learner for one table size: network, optimiser, opponent pool, counters.

    ``extra_opponents``: ``(name, spec)`` members added to the pool after the settings'
    opponents (the league passes its other agents). ``backend``: where the rollout workers run
    when ``num_workers`` > 1 (a :mod:`holdem_env.training.backends` backend; default local
    processes). Call :meth:`train_round` repeatedly.
    """

    def __init__(
        self,
        settings: PpoSettings,
        table: TableConfig,
        seed: int,
        *,
        name: str = "ppo",
        extra_opponents: Sequence[tuple[str, str]] = (),
        backend: Any = None,
    ) -> None:
        if table.betting.value != "no-limit":
            raise ConfigError("table.betting", table.betting.value, "must be no-limit for the ppo learner")
        if settings.kl_coef > 0 and settings.anchor is None:
            raise ConfigError("ppo.kl_coef", settings.kl_coef, "needs an anchor (e.g. anchor: tag) to pull towards")
        self.settings, self.table, self.seed, self.name = settings, table, seed, name
        self.policy_config = PolicyConfig(
            num_players=table.num_players, stack_bb=table.buy_in / table.big_blind,
            features=settings.features, hidden=settings.hidden,
        )
        with torch.random.fork_rng(devices=[]):  # the network from the seed; torch's global generator left as it was
            torch.manual_seed(seed)
            self.model = ActorCritic(self.policy_config)
        self.optimizer = fast_adam(self.model.parameters(), settings.learning_rate)
        names = list(settings.opponents) + [n for n, _ in extra_opponents]
        specs = list(settings.opponents) + [s for _, s in extra_opponents]
        pool_kwargs: dict[str, Any] = {
            "names": names, "max_snapshots": settings.max_snapshots, "window": settings.pool_window,
            "temperature": settings.pool_temperature, "uniform_share": settings.pool_uniform_share,
        }
        if settings.self_mix:  # mixed members: a spec with copies of the live learner (plays this network)
            live = PpoPolicy(self.policy_config, self.model)
            self.pool: OpponentPool = SelfMixPool(specs, mixed=settings.self_mix, live=live, **pool_kwargs)
        else:
            self.pool = OpponentPool(specs, **pool_kwargs)
        self.iteration = 0
        self.global_step = 0
        self.rounds_done = 0
        self.extra_opponents = tuple(extra_opponents)
        self.backend = backend
        self._workers: RolloutWorkers | None = None
        #: The frozen anchor network (``anchor`` set): the teacher distilled before the first round.
        self.anchor: ActorCritic | None = None
        self.anchor_stats: dict[str, float] = {}

    def anchor_demonstrations(self) -> Demonstrations:
        """The anchor's demonstrations: ``anchor_hands`` of its hands against ``anchor_opponents`` (or
        the pool's fixed opponents), dealt from the learner's seed (the same every call)."""
        s = self.settings
        assert s.anchor is not None
        return collect_demonstrations(
            s.anchor, s.anchor_opponents or s.opponents, self.table, self.policy_config.bet_sizes, s.anchor_hands, self.seed
        )

    def ensure_anchor(self, demos: Demonstrations | None = None, keep_network: bool = False) -> None:
        """With ``anchor`` set and no anchor yet: distil the teacher into the network (behaviour
        cloning on :meth:`anchor_demonstrations`, or ``demos`` when given) -- or, when the teacher is a
        ppo policy with this network's shape, copy its weights
        (:func:`~holdem_env.training.population.warm_start`) -- and keep a frozen copy as the anchor
        the KL penalty pulls towards. ``keep_network``: distil into a copy of the network and keep
        that as the anchor, leaving the network itself as it is (a league's ``start: scratch``)."""
        s = self.settings
        if s.anchor is None or self.anchor is not None:
            return
        target = copy.deepcopy(self.model) if keep_network else self.model
        if not keep_network and warm_start(self.model, s.anchor, self.policy_config):  # continue from a ppo policy
            self.anchor_stats = {"agreement": 1.0}
        else:
            with torch_settings(threads=1, deterministic=True):
                self.anchor_stats = distill(target, PpoPolicy(self.policy_config, target),
                                            demos if demos is not None else self.anchor_demonstrations(),
                                            epochs=s.anchor_epochs, seed=self.seed, reward_scale=s.reward_scale)
        target.eval()
        self.anchor = target if keep_network else copy.deepcopy(self.model)
        for prm in self.anchor.parameters():
            prm.requires_grad_(False)

    def close(self) -> None:
        """Stop the rollout worker processes (``num_workers`` > 1); training again restarts them."""
        if self._workers is not None:
            self._workers.close()
            self._workers = None

    def policy(self, metadata: Mapping[str, Any] | None = None) -> PpoPolicy:
        """A frozen copy of the current network as a :class:`PpoPolicy`."""
        meta = {"learner": self.name, "iteration": self.iteration, "decisions": self.global_step, "seed": self.seed}
        return PpoPolicy(self.policy_config, copy.deepcopy(self.model), {**meta, **dict(metadata or {})})

    def _env(self, num_envs: int | None = None, opponents: Any = None) -> HoldemVectorEnv:
        t = self.table
        return HoldemVectorEnv(
            num_envs or self.settings.num_envs, opponents or self.pool, num_players=t.num_players,
            small_blind=t.small_blind,
            big_blind=t.big_blind, ante=t.ante, buy_in=t.buy_in, action_mode="discrete",
            bet_sizes=self.policy_config.bet_sizes, reward_unit="bb", final_obs=False,  # (never read: collect_rollout)
        )

    def train_round(self, iterations: int, round_no: int, writer: Any = None) -> RoundStats:
        """Run ``iterations`` PPO iterations on fresh tables seeded by (seed, ``round_no``).

        Torch computes with one thread and deterministic algorithms meanwhile (so a round is
        the same for a seed in any process); its settings are restored after.
        """
        with torch_settings(threads=1, deterministic=True):
            return self._train_round(iterations, round_no, writer)

    def _train_round(self, iterations: int, round_no: int, writer: Any) -> RoundStats:
        self.ensure_anchor()
        s = self.settings
        rng = np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(round_no,)))
        if s.num_workers > 1:
            if self._workers is None:
                self._workers = RolloutWorkers(self, self.backend)
            sampler: LocalRollouts | RolloutWorkers = self._workers
            self._workers.start_round(round_no)
        else:
            sampler = LocalRollouts(self, rng)
        t_start = time.perf_counter()
        all_stats: list[dict[str, float]] = []
        n, steps = s.num_envs, s.num_steps
        for ro in rollouts(sampler, iterations, s.overlap):  # 5. rollout (with ``overlap``, sampled ahead)
            self.global_step += steps * n
            # 6. advantages
            adv, returns = compute_gae(ro.rewards, ro.values, ro.terminated, ro.next_value, s.gamma, s.gae_lambda)
            # 7. update
            self.model.train()
            batch = {
                "x": torch.from_numpy(ro.xs.reshape(steps * n, -1)),
                "masks": torch.from_numpy(ro.masks.reshape(steps * n, -1).astype(np.int64)),
                "actions": torch.from_numpy(ro.actions.reshape(-1)),
                "logprobs": torch.from_numpy(ro.logprobs.reshape(-1)),
                "advantages": torch.from_numpy(adv.reshape(-1).astype(np.float32)),
                "returns": torch.from_numpy(returns.reshape(-1).astype(np.float32)),
            }
            if self.anchor is not None and s.kl_coef > 0:
                with torch.no_grad():
                    batch["anchor_logp"] = torch.log_softmax(self.anchor(batch["x"], batch["masks"])[0], dim=-1)
            step_settings = s if s.ent_coef_final is None else dataclasses.replace(s, ent_coef=s.ent_coef_at(self.iteration))
            stats = ppo_update(self.model, self.optimizer, batch, step_settings, rng)
            self.model.eval()
            var = float(np.var(returns))
            stats["explained_variance"] = float("nan") if var == 0 else 1.0 - float(np.var(returns - ro.values)) / var
            all_stats.append(stats)
            self.iteration += 1
            if s.snapshot_every and self.iteration % s.snapshot_every == 0:
                self.pool.add_snapshot(f"{self.name}@{self.iteration}", self.policy())
            if writer is not None:
                elapsed = time.perf_counter() - t_start
                for k, v in stats.items():
                    writer.add_scalar(f"losses/{k}", v, self.global_step)
                writer.add_scalar("charts/SPS", len(all_stats) * steps * n / elapsed if elapsed > 0 else 0.0,
                                  self.global_step)
                for (member, res), w in zip(self.pool.results().items(), self.pool.weights(), strict=True):
                    if res is not None:
                        writer.add_scalar(f"pool/{member}/mbb_per_hand", res, self.global_step)
                    writer.add_scalar(f"pool/{member}/weight", w, self.global_step)
        if isinstance(sampler, LocalRollouts):
            sampler.close()
        self.rounds_done = max(self.rounds_done, round_no)
        seconds = time.perf_counter() - t_start
        keys = all_stats[0].keys() if all_stats else ()
        return RoundStats(
            iterations=iterations, decisions=iterations * steps * n, seconds=seconds,
            losses={k: float(np.nanmean([st[k] for st in all_stats])) for k in keys},
            pool=self.pool.results(), weights=dict(zip(self.pool.members, self.pool.weights(), strict=True)),
        )

    # -- 9. checkpoints ---------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """Network, optimiser, pool and counters (what :meth:`load_state_dict` restores)."""
        return {
            "model": copy.deepcopy(self.model.state_dict()),
            "optimizer": copy.deepcopy(self.optimizer.state_dict()),
            "pool": self.pool.state_dict(),
            "iteration": self.iteration,
            "global_step": self.global_step,
            "rounds_done": self.rounds_done,
            "settings": self.settings.to_dict(),
            "policy_config": self.policy_config.to_dict(),
            **({"anchor": copy.deepcopy(self.anchor.state_dict())} if self.anchor is not None else {}),
        }

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Continue from :meth:`state_dict` output (of a learner with the same settings)."""
        # checkpoints from before ``overlap`` and the anchor keys existed
        new_keys = ("overlap", "anchor", "kl_coef", "ent_coef_final", "ent_decay_iterations", "self_mix")
        defaults = {k: v for k, v in PpoSettings().to_dict().items() if k.startswith(new_keys)}
        saved = {**defaults, **state["settings"]}
        if saved != self.settings.to_dict() or state["policy_config"] != self.policy_config.to_dict():
            raise ConfigError("ppo", self.name, "the checkpoint was written with other ppo settings or another table")
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        for group in self.optimizer.param_groups:  # a checkpoint from before fast_adam saved fused: None
            group["fused"], group["foreach"] = True, None
        self.pool.load_state_dict(state["pool"])
        if "anchor" in state:
            self.anchor = ActorCritic(self.policy_config)
            self.anchor.load_state_dict(state["anchor"])
            self.anchor.eval()
            for prm in self.anchor.parameters():
                prm.requires_grad_(False)
        self.iteration = int(state["iteration"])
        self.global_step = int(state["global_step"])
        self.rounds_done = int(state["rounds_done"])

    def save_checkpoint(self, path: str | Path) -> None:
        """Write :meth:`state_dict` atomically."""
        state = self.state_dict()
        atomic_write_bytes(path, lambda fh: torch.save(state, fh))

    def load_checkpoint(self, path: str | Path) -> None:
        """Read a file written by :meth:`save_checkpoint` (every field checked first:
        :func:`~holdem_env.training.checkpoint.validate_ppo_checkpoint`)."""
        self.load_state_dict(read_checkpoint(Path(path)))


def read_checkpoint(path: Path) -> dict[str, Any]:
    """A ppo ``checkpoint.pt`` as ``torch.load`` reads it, validated field by field; a damaged or
    tampered file is a :class:`ConfigError` naming the file and the first bad field."""
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
        validate_ppo_checkpoint(state)
    except CheckpointError as exc:
        raise ConfigError("resume", str(path), f"is not a valid checkpoint ({exc}): start the run again with --overwrite") from None
    except (OSError, RuntimeError, EOFError, ValueError, pickle.UnpicklingError) as exc:
        raise ConfigError("resume", str(path), f"is damaged ({type(exc).__name__}): start the run again with --overwrite") from None
    return state
