"""The league's hook for a training ``ppo`` agent: its settings section and a learner trained one league round at a time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holdem_env.engine.config import TableConfig

from .config import PpoSettings, _num
from .learner import PpoLearner, RoundStats

__all__ = ["LeaguePpoSettings", "LeaguePpoLearner"]


@dataclass(frozen=True)
class LeaguePpoSettings(PpoSettings):
    """The league config's ``ppo:`` section: :class:`PpoSettings` plus ``iterations_per_round``.

    In the league the pool's fixed members are ``opponents`` (default none) followed by every
    other league agent that does not train.
    """

    opponents: tuple[str, ...] = ()
    iterations_per_round: int = 10

    def __post_init__(self) -> None:
        super().__post_init__()
        _num("ppo.iterations_per_round", self.iterations_per_round, 0, 10**9, integer=True)


class LeaguePpoLearner:
    """What the league calls for a ``ppo`` agent with ``train: true`` (see :mod:`holdem_env.training.league`).

    ``train_round(round_no, writer)`` trains one round and logs its scalars at step
    ``round_no``; ``save_policy(path)`` writes the policy file; ``save_checkpoint`` /
    ``load_checkpoint`` carry the learner across a resume.
    ``tag_prefix`` goes between the namespace and the scalar name (``""`` for the CleanRL
    names ``losses/policy_loss`` ...; the league passes ``"<agent>/"`` when several learn).
    """

    checkpoint_suffix = ".pt"
    policy_suffix = ".pt"

    def __init__(
        self,
        settings: LeaguePpoSettings,
        table: TableConfig,
        seed: int,
        name: str,
        league_opponents: Sequence[tuple[str, str]],
        tag_prefix: str = "",
    ) -> None:
        self.settings = settings
        self.learner = PpoLearner(settings, table, seed, name=name, extra_opponents=league_opponents)
        self.tag_prefix = tag_prefix

    def train_round(self, round_no: int, writer: Any = None) -> RoundStats | None:
        """``iterations_per_round`` PPO iterations; scalars at step ``round_no``."""
        if not self.settings.iterations_per_round:
            return None
        stats = self.learner.train_round(self.settings.iterations_per_round, round_no)
        if writer is not None:
            p = self.tag_prefix
            for k, v in stats.losses.items():
                writer.add_scalar(f"losses/{p}{k}", v, round_no)
            writer.add_scalar(f"charts/{p}SPS", stats.sps, round_no)
            for member, res in stats.pool.items():
                if res is not None:
                    writer.add_scalar(f"pool/{p}{member}/mbb_per_hand", res, round_no)
                writer.add_scalar(f"pool/{p}{member}/weight", stats.weights[member], round_no)
        return stats

    def save_start_policy(self, path: str | Path, metadata: Mapping[str, Any] | None = None) -> None:
        """Write the policy the first round starts from (the anchor distilled or warm-started
        first, as the first round would) to ``path``."""
        self.learner.ensure_anchor()
        self.save_policy(path, metadata)

    def use_backend(self, backend: Any) -> None:
        """Run the rollout workers (``num_workers`` > 1) as ``backend``'s actors (the league's
        backend: on a Ray cluster they sample there); workers already started are stopped first."""
        self.learner.close()
        self.learner.backend = backend

    def close(self) -> None:
        """Stop the learner's rollout worker processes (``num_workers`` > 1)."""
        self.learner.close()

    def save_policy(self, path: str | Path, metadata: Mapping[str, Any] | None = None) -> None:
        """Write the current policy file to ``path`` (played by ``ppo(policy=path)``)."""
        self.learner.policy(metadata).save(path)

    def save_checkpoint(self, path: str | Path) -> None:
        """The learner's state (network, optimiser, pool, counters)."""
        self.learner.save_checkpoint(path)

    def load_checkpoint(self, path: str | Path) -> None:
        """Continue from :meth:`save_checkpoint`."""
        self.learner.load_checkpoint(path)
