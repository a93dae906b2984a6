"""The league's hook for a training ``ppo`` agent: its settings section and a learner trained one league round at a time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holdem_env.agents.ppo import PpoPolicy
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError

from ..population import Demonstrations, distill
from ..torch_settings import torch_settings
from .config import PpoSettings, _num
from .learner import PpoLearner, RoundStats

__all__ = ["LeaguePpoSettings", "LeaguePpoLearner"]


@dataclass(frozen=True)
class LeaguePpoSettings(PpoSettings):
    """The league config's ``ppo:`` section: :class:`PpoSettings` plus ``iterations_per_round``.

    In the league the pool's fixed members are ``opponents`` (default none) followed by every
    other league agent that does not train.

    ``start``: ``anchor`` (default) starts the first round from the anchor distilled (or warm
    started) into the network; ``scratch`` starts from the untrained network, distils the anchor
    into a separate frozen copy (the KL penalty's magnet) and teaches the learner the teacher's
    play round by round: before round ``r``'s PPO iterations, ``bc_epochs[r - 1]`` epochs of
    behaviour cloning on the anchor's demonstrations (none past the list's end), so learning
    from the teacher and from play go together instead of one after the other.
    """

    opponents: tuple[str, ...] = ()
    iterations_per_round: int = 10
    start: str = "anchor"
    bc_epochs: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        _num("ppo.iterations_per_round", self.iterations_per_round, 0, 10**9, integer=True)
        if self.start not in ("anchor", "scratch"):
            raise ConfigError("ppo.start", self.start, "must be anchor or scratch")
        if self.start == "scratch" and self.anchor is None:
            raise ConfigError("ppo.start", self.start, "scratch needs an anchor (e.g. anchor: tag) to learn from")
        bc = self.bc_epochs
        if isinstance(bc, (str, bytes)) or not isinstance(bc, (list, tuple)):
            raise ConfigError("ppo.bc_epochs", bc, "must be a list of epochs per round, e.g. [3, 3, 2]")
        for i, e in enumerate(bc):
            _num(f"ppo.bc_epochs[{i}]", e, 0, 10**6, integer=True)
        object.__setattr__(self, "bc_epochs", tuple(bc))
        if self.bc_epochs and self.start != "scratch":
            raise ConfigError("ppo.bc_epochs", list(self.bc_epochs), "needs start: scratch (an anchor start is distilled already)")

    def bc_epochs_at(self, round_no: int) -> int:
        """Epochs of behaviour cloning before round ``round_no``'s PPO iterations (1-based).

        >>> LeaguePpoSettings(anchor="tag", start="scratch", bc_epochs=(3, 1)).bc_epochs_at(2)
        1
        >>> LeaguePpoSettings(anchor="tag", start="scratch", bc_epochs=(3, 1)).bc_epochs_at(3)
        0
        """
        return self.bc_epochs[round_no - 1] if 1 <= round_no <= len(self.bc_epochs) else 0

    def to_dict(self) -> dict[str, Any]:
        """Plain form (YAML-ready)."""
        return {**super().to_dict(), "bc_epochs": list(self.bc_epochs)}


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
        self._demos: Demonstrations | None = None

    def _demonstrations(self) -> Demonstrations:
        """The anchor's demonstrations (collected once from the seed; again after a resume)."""
        if self._demos is None:
            self._demos = self.learner.anchor_demonstrations()
        return self._demos

    def _ensure_scratch_anchor(self) -> None:
        """``start: scratch``: distil the anchor into a frozen copy of the untrained network (the
        KL penalty's magnet), leaving the learner's own network untrained."""
        if self.settings.start == "scratch" and self.learner.anchor is None:
            self.learner.ensure_anchor(self._demonstrations(), keep_network=True)

    def behaviour_clone(self, round_no: int) -> dict[str, float] | None:
        """``start: scratch``: ``bc_epochs_at(round_no)`` epochs of behaviour cloning on the
        anchor's demonstrations (minibatch order from the seed and the round); None if none."""
        epochs = self.settings.bc_epochs_at(round_no)
        if not epochs:
            return None
        lr = self.learner
        with torch_settings(threads=1, deterministic=True):
            stats = distill(lr.model, PpoPolicy(lr.policy_config, lr.model), self._demonstrations(), epochs=epochs,
                            seed=lr.seed * 1009 + round_no,
                            reward_scale=self.settings.reward_scale)
        lr.model.eval()
        return stats

    def train_round(self, round_no: int, writer: Any = None) -> RoundStats | None:
        """``iterations_per_round`` PPO iterations (after the round's behaviour cloning with
        ``start: scratch``); scalars at step ``round_no``."""
        self._ensure_scratch_anchor()
        bc = self.behaviour_clone(round_no)
        if writer is not None and bc is not None:
            for k, v in bc.items():
                writer.add_scalar(f"losses/{self.tag_prefix}bc_{k}", v, round_no)
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
        first, as the first round would; with ``start: scratch`` the untrained network) to ``path``."""
        self._ensure_scratch_anchor()
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
