"""The PPO learner's configuration: its settings (``ppo:``) and a stand-alone run's YAML file, validated key by key."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from holdem_env.agents.base import AgentSpecError, parse_spec
from holdem_env.agents.ppo import PolicyConfig
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError

__all__ = ["PpoSettings", "PpoRunConfig", "load_run_config"]


def _num(key: str, v: object, lo: float, hi: float, integer: bool = False, lo_open: bool = False) -> Any:
    if (
        isinstance(v, bool)
        or not isinstance(v, (int, float))
        or (integer and not isinstance(v, int))
        or not math.isfinite(v)
        or not lo <= v <= hi
        or (lo_open and v == lo)
    ):
        kind = "an integer" if integer else "a number"
        bound = f"in ({lo}, {hi}]" if lo_open else f"in {lo}..{hi}"
        raise ConfigError(key, v, f"must be {kind} {bound}")
    return int(v) if integer else float(v)


_BOUNDS = "bounds"  # a numeric setting's field metadata: (lo, hi or hi(settings), integer, lo_open)


def _setting(default: float, lo: float, hi: float | Callable[[Any], float], integer: bool = False, lo_open: bool = False) -> Any:
    """A numeric setting's field: its default and the range ``__post_init__`` checks (``_num``'s terms;
    ``hi`` may be a function of the settings, called once the fields before it are checked)."""
    return field(default=default, metadata={_BOUNDS: (lo, hi, integer, lo_open)})


@dataclass(frozen=True)
class PpoSettings:
    """PPO hyper-parameters, the network, and the opponent pool (keys of the ``ppo:`` section)."""

    # 32 tables a process, as every shipped config: the batched core's fixed cost per step is shared by
    # fewer tables below that (BENCHMARKS.md, the trainer's sampling beside the starting commit)
    num_envs: int = _setting(32, 1, 4096, integer=True)
    num_steps: int = _setting(64, 1, 100_000, integer=True)
    learning_rate: float = _setting(3e-4, 0.0, 1.0, lo_open=True)
    gamma: float = _setting(1.0, 0.0, 1.0)
    gae_lambda: float = _setting(0.95, 0.0, 1.0)
    num_minibatches: int = _setting(4, 1, lambda s: s.num_envs * s.num_steps, integer=True)
    update_epochs: int = _setting(4, 1, 1000, integer=True)
    clip_coef: float = _setting(0.2, 0.0, 10.0, lo_open=True)
    ent_coef: float = _setting(0.01, 0.0, 10.0)
    vf_coef: float = _setting(0.5, 0.0, 100.0)
    max_grad_norm: float = _setting(0.5, 0.0, 1e6, lo_open=True)
    norm_adv: bool = True
    reward_scale: float = _setting(0.1, 0.0, 1e6, lo_open=True)
    hidden: tuple[int, ...] = (128, 128)
    features: bool = True
    opponents: tuple[str, ...] = ("random", "tag")
    snapshot_every: int = _setting(20, 0, 10**9, integer=True)
    max_snapshots: int = _setting(4, 0, 1000, integer=True)
    pool_window: int = _setting(2000, 1, 10**9, integer=True)
    pool_temperature: float = _setting(300.0, 0.0, 1e9, lo_open=True)
    pool_uniform_share: float = _setting(0.2, 0.0, 1.0)
    num_workers: int = _setting(1, 1, lambda s: min(64, s.num_envs), integer=True)
    overlap: bool = False
    anchor: str | None = None
    anchor_hands: int = _setting(10000, 1, 10**8, integer=True)
    anchor_epochs: int = _setting(10, 0, 10**6, integer=True)
    anchor_opponents: tuple[str, ...] = ()
    kl_coef: float = _setting(0.0, 0.0, 1e6)
    ent_coef_final: float | None = None
    ent_decay_iterations: int = _setting(0, 0, 10**9, integer=True)
    #: Specs of *mixed* pool members: ``"<spec>+self"`` seats the spec at the odd seats and the live
    #: learner at the even ones (:class:`holdem_env.training.population.SelfMixPool`); empty: none.
    self_mix: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        p = "ppo."
        for f in fields(self):
            if _BOUNDS in f.metadata:
                lo, hi, integer, lo_open = f.metadata[_BOUNDS]
                _num(p + f.name, getattr(self, f.name), lo, hi(self) if callable(hi) else hi, integer, lo_open)
        for flag in ("norm_adv", "overlap"):
            if not isinstance(getattr(self, flag), bool):
                raise ConfigError(p + flag, getattr(self, flag), "must be true or false")
        try:
            PolicyConfig(hidden=self.hidden, features=self.features)
        except ConfigError as exc:
            raise ConfigError(p + exc.field, exc.value, exc.allowed) from None
        object.__setattr__(self, "hidden", tuple(self.hidden))
        self._spec_list("opponents", "must be a list of agent specs, e.g. [random, tag]")
        if self.overlap and self.num_workers < 2:
            raise ConfigError(p + "overlap", self.overlap, "needs num_workers >= 2 (the workers sample while this process updates)")
        if self.anchor is not None:
            try:
                if not isinstance(self.anchor, str):
                    raise AgentSpecError("not a string")
                parse_spec(self.anchor)
            except AgentSpecError:
                raise ConfigError(p + "anchor", self.anchor, "must be an agent spec to distil, e.g. tag, or null") from None
        self._spec_list("anchor_opponents", "must be a list of agent specs (empty: the opponents)")
        self._spec_list("self_mix", "must be a list of agent specs, e.g. [tag] (each member seats it with copies of the learner)")
        for spec in self.self_mix:
            try:
                parse_spec(spec)
            except AgentSpecError as exc:
                raise ConfigError(p + "self_mix", spec, f"must be an agent spec ({exc})") from None
        if self.ent_coef_final is not None:
            _num(p + "ent_coef_final", self.ent_coef_final, 0.0, 10.0)

    def _spec_list(self, name: str, allowed: str) -> None:
        """Check that setting ``name`` is a list of strings (agent specs) and store it as a tuple."""
        value = getattr(self, name)
        if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(isinstance(x, str) for x in value):
            raise ConfigError("ppo." + name, value, allowed)
        object.__setattr__(self, name, tuple(value))

    def ent_coef_at(self, iteration: int) -> float:
        """The entropy coefficient at ``iteration`` (0-based): ``ent_coef`` moving linearly to
        ``ent_coef_final`` over ``ent_decay_iterations`` iterations, then constant.

        >>> PpoSettings(ent_coef=0.02, ent_coef_final=0.0, ent_decay_iterations=10).ent_coef_at(5)
        0.01
        """
        if self.ent_coef_final is None or self.ent_decay_iterations == 0:
            return self.ent_coef
        frac = min(1.0, iteration / self.ent_decay_iterations)
        return self.ent_coef + frac * (self.ent_coef_final - self.ent_coef)

    @property
    def batch_size(self) -> int:
        """Learner decisions per iteration (``num_envs * num_steps``)."""
        return self.num_envs * self.num_steps

    def to_dict(self) -> dict[str, Any]:
        """Plain form (YAML-ready)."""
        d = asdict(self)
        d["hidden"], d["opponents"] = list(self.hidden), list(self.opponents)
        d["anchor_opponents"] = list(self.anchor_opponents)
        d["self_mix"] = list(self.self_mix)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, section: str = "ppo") -> PpoSettings:
        """Build from a YAML mapping; an unknown key is a :class:`ConfigError` naming it."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise ConfigError(f"{section}.{key}", data[key], f"unknown key; allowed: {', '.join(sorted(known))}")
        return cls(**data)


@dataclass(frozen=True)
class PpoRunConfig:
    """A stand-alone training run (the YAML file of ``configs/ppo_hu.yaml``).

    ``average_from`` (0: off): the run's policy is the equal-weight mean of the networks after
    rounds ``average_from``, ``average_from + average_every``, ... up to ``rounds``
    (:mod:`.averaging`); ``<run>/policy.pt`` stays the live network.
    """

    name: str
    seed: int = 0
    table: TableConfig = field(default_factory=lambda: TableConfig(num_players=2))
    ppo: PpoSettings = field(default_factory=PpoSettings)
    rounds: int = 10
    iterations_per_round: int = 10
    runs_dir: str = "runs"
    policy_out: str | None = None
    average_from: int = 0
    average_every: int = 10

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip() or "/" in self.name:
            raise ConfigError("name", self.name, "must be a non-empty name without '/' (it names the run folder)")
        _num("seed", self.seed, 0, 2**63 - 1, integer=True)
        _num("rounds", self.rounds, 1, 10**9, integer=True)
        _num("iterations_per_round", self.iterations_per_round, 1, 10**9, integer=True)
        _num("average_from", self.average_from, 0, self.rounds, integer=True)
        _num("average_every", self.average_every, 1, 10**9, integer=True)
        if self.table.betting.value != "no-limit":
            raise ConfigError("table.betting", self.table.betting.value, "must be no-limit for the ppo learner")

    def to_dict(self) -> dict[str, Any]:
        """Plain form (YAML-ready), stored in checkpoints to refuse a resume under another config."""
        return {
            "name": self.name, "seed": self.seed, "table": self.table.to_dict(), "ppo": self.ppo.to_dict(),
            "rounds": self.rounds, "iterations_per_round": self.iterations_per_round,
            "runs_dir": self.runs_dir, "policy_out": self.policy_out,
            **({"average_from": self.average_from, "average_every": self.average_every} if self.average_from else {}),
        }


def load_run_config(path: str | Path) -> PpoRunConfig:
    """Read and validate a stand-alone run's YAML file (read as a league file is: a missing,
    oversized, binary or malformed file, duplicate keys and aliases are clear errors)."""
    from ..config import read_config_file  # late import: the league's config module imports this package's lazily

    p = Path(path)
    if not p.is_file():
        raise ConfigError("config", str(p), "must be an existing YAML file, e.g. configs/ppo_hu.yaml")
    data = read_config_file(p)
    if not isinstance(data, Mapping):
        raise ConfigError("config", str(p), "must be a YAML mapping with at least 'name'")
    known = {f.name for f in fields(PpoRunConfig)}
    for key in data:
        if key not in known:
            raise ConfigError(str(key), data[key], f"unknown key; allowed: {', '.join(sorted(known))}")
    try:
        table = TableConfig.from_dict(dict(data.get("table", {"num_players": 2})))
    except ConfigError as exc:
        raise ConfigError(f"table.{exc.field}", exc.value, exc.allowed) from None
    rest = {k: v for k, v in data.items() if k not in ("table", "ppo")}
    return PpoRunConfig(table=table, ppo=PpoSettings.from_dict(data.get("ppo")), **rest)
