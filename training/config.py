"""The league's typed configuration: loaded from YAML, validated, every error naming its key.

A config file looks like this (every section but ``name`` and ``agents`` is optional)::

    name: quickstart              # run folder: runs/<name>/
    seed: 0
    table: {num_players: 2, small_blind: 5, big_blind: 10, buy_in: 1000}
    agents:
      - {name: random, spec: random}
      - {name: tag, spec: tag}
      - {name: cfr, spec: cfr-lite, train: true}   # trains by self-play in the league
      - {name: bot, spec: ppo, train: true}        # trains by PPO against the league (see ppo:)
    cfr:                          # how every training cfr-lite agent is built and trained
      iterations_per_round: 2000
      pot_fractions: [0.5, 1.0]
      all_in: true
      max_raises_per_street: 2
      preflop_max_raises: null    # another cap preflop (null: max_raises_per_street there too)
      summarize_preflop: false    # true: postflop keys hold a preflop summary, not every action
      all_in_max_pot: 3.0         # offer all-in only up to 3 pots (null: always)
      preflop_buckets: 169
      postflop_buckets: [8, 8, 8]
      rollouts: 0
      bucket_spacing: 1.0         # >1: narrower buckets for strong hands
      averaging: linear           # linear | uniform
      parallel_copies: 2          # table copies sampling in parallel (the result depends on it, not on workers)
    ppo:                          # how every training ppo agent trains (holdem_env.training.ppo.LeaguePpoSettings)
      iterations_per_round: 10
      num_envs: 16
      num_steps: 64
    league:
      rounds: 5                   # each round: train, then (every eval_every rounds) evaluate
      eval_every: 1
      eval_hands: 1000            # hands per pair per evaluation (rounded up to whole duplicate groups)
      isolate_agents: false       # true: each agent plays in its own process (agents you do not trust)
      lbr_every: 0                # heads-up: LBR of every agent that answers range queries every N rounds (0: off)
      lbr_hands: 200              # hands per LBR measurement (fcpa, LBR betting from the turn)
      exploiters: [min-raiser]    # exploiter gate: each training agent plays these every evaluation
      exploiter_hands: 1000       # duplicate hands per training agent and exploiter
    logging:
      runs_dir: runs
      plot: true
    backend: {kind: local, workers: 2}

Nested keys are reported with dots (``cfr.pot_fractions``); unknown keys are errors.

A league YAML names agent specs, which import and run code (see
:mod:`holdem_env.agents.base`): load only configs you trust. Every spec is built once while
the config is validated, so a bad agent argument is reported before a run folder exists.
The file must be UTF-8 text of at most :data:`MAX_CONFIG_BYTES`; YAML aliases (``*name``)
are refused (they let a few hundred bytes expand to gigabytes).
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

import holdem_env.agents.cfr_lite  # noqa: F401  (registers the cfr-lite name)
from holdem_env.agents.base import AgentError, AgentSpecError, make_agent, parse_spec
from holdem_env.agents.isolation import IsolatedAgent
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import check_ascending, check_bool, check_choice, check_int, check_number, is_int

__all__ = [
    "AgentEntry",
    "CfrSettings",
    "LeagueSettings",
    "LoggingSettings",
    "BackendSettings",
    "LeagueConfig",
    "load_config",
    "read_config_file",
    "config_kind",
    "PPO_RUN_KEYS",
    "MAX_CONFIG_BYTES",
]

#: Largest league YAML file :func:`load_config` reads.
MAX_CONFIG_BYTES = 1_000_000

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")


def _int(key: str, v: object, lo: int, hi: int | None = None) -> int:
    return int(check_int(key, v, lo, hi))


def _bool(key: str, v: object) -> bool:
    return check_bool(key, v, allowed="must be true or false")


def _str(key: str, v: object) -> str:
    if not isinstance(v, str) or not v.strip():
        raise ConfigError(key, v, "must be a non-empty string")
    return v


def _check_keys(section: str, data: Mapping[str, Any], cls: type) -> None:
    if not isinstance(data, Mapping):
        raise ConfigError(section, data, "must be a mapping of settings")
    known = {f.name for f in fields(cls)}
    for key in data:
        if key not in known:
            where = f"{section}.{key}" if section else str(key)
            raise ConfigError(where, data[key], f"unknown key; allowed: {', '.join(sorted(known))}")


@dataclass(frozen=True)
class AgentEntry:
    """A league member: a unique ``name``, an agent ``spec`` string, whether it ``train``s."""

    name: str
    spec: str
    train: bool = False


@dataclass(frozen=True)
class CfrSettings:
    """Abstraction and training settings of the league's training cfr-lite agents."""

    iterations_per_round: int = 1000
    pot_fractions: tuple[float, ...] = (0.5, 1.0)
    all_in: bool = True
    max_raises_per_street: int = 2
    preflop_max_raises: int | None = None
    summarize_preflop: bool = False
    all_in_max_pot: float | None = None
    preflop_buckets: int = 169
    postflop_buckets: tuple[int, int, int] = (8, 8, 8)
    rollouts: int = 0
    bucket_sample_size: int = 2000
    bucket_spacing: float = 1.0
    averaging: str = "linear"
    #: Copies of the tables that sample in parallel between merges (on the backend's workers);
    #: the result depends on this number, never on ``backend.workers``.
    parallel_copies: int = 2

    def __post_init__(self) -> None:
        p = "cfr."
        _int(p + "iterations_per_round", self.iterations_per_round, 0, 10_000_000)
        fr = self.pot_fractions
        if not isinstance(fr, (list, tuple)):  # a YAML list (a mapping or a string is not)
            raise ConfigError(p + "pot_fractions", fr, "must be a list of at most 8 strictly ascending positive numbers, e.g. [0.5, 1.0]")
        object.__setattr__(self, "pot_fractions", check_ascending(p + "pot_fractions", fr, min_len=0, max_len=8))
        _bool(p + "all_in", self.all_in)
        _int(p + "max_raises_per_street", self.max_raises_per_street, 0, 8)
        if self.preflop_max_raises is not None:
            _int(p + "preflop_max_raises", self.preflop_max_raises, 0, 8)
        _bool(p + "summarize_preflop", self.summarize_preflop)
        allowed = "must be a positive number of pots, or null (always offer all-in)"
        m = check_number(p + "all_in_max_pot", self.all_in_max_pot, 0, lo_open=True, none_ok=True, allowed=allowed)
        object.__setattr__(self, "all_in_max_pot", m)
        _int(p + "preflop_buckets", self.preflop_buckets, 1, 169)
        pb = self.postflop_buckets
        if not isinstance(pb, (list, tuple)) or len(pb) != 3 or not all(is_int(b) and 1 <= b <= 1000 for b in pb):
            raise ConfigError(p + "postflop_buckets", pb, "must be three integers [flop, turn, river] in 1..1000")
        object.__setattr__(self, "postflop_buckets", tuple(int(b) for b in pb))
        _int(p + "rollouts", self.rollouts, 0, 64)
        _int(p + "bucket_sample_size", self.bucket_sample_size, 50, 1_000_000)
        allowed = "must be a number in 0.25..4 (1 = equal shares; >1 = finer strong buckets)"
        object.__setattr__(self, "bucket_spacing", check_number(p + "bucket_spacing", self.bucket_spacing, 0.25, 4.0, allowed=allowed))
        check_choice(p + "averaging", self.averaging, ("linear", "uniform"))
        _int(p + "parallel_copies", self.parallel_copies, 1, 1024)


@dataclass(frozen=True)
class LeagueSettings:
    """How long the league runs and how often every pair is evaluated."""

    rounds: int = 5
    eval_every: int = 1
    eval_hands: int = 1000
    #: Every agent plays its matches in its own process, seeing only its observation and info.
    isolate_agents: bool = False
    lbr_every: int = 0
    lbr_hands: int = 200
    #: Exploiter gate: agent specs each training agent plays, every evaluation round, for
    #: ``exploiter_hands`` duplicate hands (e.g. the bots of :mod:`holdem_env.agents.exploiters`).
    exploiters: tuple[str, ...] = ()
    exploiter_hands: int = 1000

    def __post_init__(self) -> None:
        _int("league.rounds", self.rounds, 1, 1_000_000)
        _int("league.eval_every", self.eval_every, 1, 1_000_000)
        _int("league.eval_hands", self.eval_hands, 1, 10_000_000)
        _bool("league.isolate_agents", self.isolate_agents)
        _int("league.lbr_every", self.lbr_every, 0, 1_000_000)
        _int("league.lbr_hands", self.lbr_hands, 2, 100_000_000)
        _int("league.exploiter_hands", self.exploiter_hands, 1, 10_000_000)
        specs = self.exploiters
        if isinstance(specs, (str, bytes)) or not isinstance(specs, (list, tuple)):
            raise ConfigError("league.exploiters", specs, "must be a list of agent specs (e.g. [min-raiser, shover])")
        for i, spec in enumerate(specs):
            if not isinstance(spec, str):
                raise ConfigError(f"league.exploiters[{i}]", spec, "must be an agent spec string")
            try:
                parse_spec(spec)
            except AgentSpecError as exc:
                raise ConfigError(f"league.exploiters[{i}]", spec, str(exc)) from None
        object.__setattr__(self, "exploiters", tuple(specs))


@dataclass(frozen=True)
class LoggingSettings:
    """Where the run folder goes, and whether to draw the PNG plot."""

    runs_dir: str = "runs"
    plot: bool = True

    def __post_init__(self) -> None:
        _str("logging.runs_dir", self.runs_dir)
        _bool("logging.plot", self.plot)


@dataclass(frozen=True)
class BackendSettings:
    """Where matches and CFR sampling run: ``local`` (process pool) or ``ray``."""

    kind: str = "local"
    workers: int = 2
    address: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("local", "ray"):
            raise ConfigError("backend.kind", self.kind, "must be 'local' or 'ray'")
        if self.kind == "ray" and importlib.util.find_spec("ray") is None:
            raise ConfigError(
                "backend.kind", "ray", "needs the optional 'ray' package: pip install 'holdem-env[ray]' (or use kind: local)"
            )
        _int("backend.workers", self.workers, 1, 1024)
        if self.address is not None:
            _str("backend.address", self.address)


@dataclass(frozen=True)
class LeagueConfig:
    """A whole league run (see the module docstring for the YAML layout)."""

    name: str
    agents: tuple[AgentEntry, ...]
    seed: int = 0
    table: TableConfig = field(default_factory=lambda: TableConfig(num_players=2))
    cfr: CfrSettings = field(default_factory=CfrSettings)
    league: LeagueSettings = field(default_factory=LeagueSettings)
    logging: LoggingSettings = field(default_factory=LoggingSettings)
    backend: BackendSettings = field(default_factory=BackendSettings)
    ppo: Any = None  # LeaguePpoSettings of the training ppo agents (None: defaults)

    def __post_init__(self) -> None:
        if self.ppo is None:
            object.__setattr__(self, "ppo", _ppo_settings({}))
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise ConfigError("name", self.name, "must be 1-64 characters: letters, digits, '_', '-', '.' (it names the run folder)")
        _int("seed", self.seed, 0, 2**63 - 1)
        if not isinstance(self.table, TableConfig):
            raise ConfigError("table", self.table, "must be a TableConfig")
        if len(self.agents) < 2:
            raise ConfigError("agents", [a.name for a in self.agents], "the league needs at least two agents")
        groups = 2 * self.table.num_players
        if self.league.eval_hands < groups:
            raise ConfigError(
                "league.eval_hands", self.league.eval_hands,
                f"must be at least {groups}: two duplicate groups of {self.table.num_players} hands, so that the 95% interval is finite",
            )
        if self.trainers and self.table.betting.value != "no-limit":
            raise ConfigError(
                "table.betting", self.table.betting.value, f"must be no-limit while cfr-lite agents train ({self.trainers[0].name})"
            )
        seen: set[str] = set()
        for a in self.agents:
            if a.name in seen:
                raise ConfigError("agents", a.name, "agent names must be unique")
            seen.add(a.name)

    @property
    def trainers(self) -> tuple[AgentEntry, ...]:
        """The agents that train in the league."""
        return tuple(a for a in self.agents if a.train)

    @property
    def cfr_trainers(self) -> tuple[AgentEntry, ...]:
        """The training cfr-lite agents."""
        return tuple(a for a in self.trainers if not _is_ppo(a.spec))

    @property
    def ppo_trainers(self) -> tuple[AgentEntry, ...]:
        """The training ppo agents."""
        return tuple(a for a in self.trainers if _is_ppo(a.spec))

    def to_dict(self) -> dict[str, Any]:
        """Plain form (YAML/JSON-ready) that :meth:`from_dict` reads back."""
        return {
            "name": self.name,
            "seed": self.seed,
            "table": self.table.to_dict(),
            "agents": [asdict(a) for a in self.agents],
            "cfr": {**asdict(self.cfr), "pot_fractions": list(self.cfr.pot_fractions), "postflop_buckets": list(self.cfr.postflop_buckets)},
            "league": {**asdict(self.league), "exploiters": list(self.league.exploiters)},
            "logging": asdict(self.logging),
            "backend": asdict(self.backend),
            **({"ppo": self.ppo.to_dict()} if self.ppo_trainers else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LeagueConfig:
        """Build and validate from a parsed YAML mapping; errors name the offending key."""
        _check_keys("", data, cls)
        if "name" not in data:
            raise ConfigError("name", None, "is required (it names the run folder runs/<name>/)")
        if "agents" not in data:
            raise ConfigError("agents", None, "is required: a list of {name, spec, train}")
        agents_raw = data["agents"]
        if not isinstance(agents_raw, list):
            raise ConfigError("agents", agents_raw, "must be a list of {name, spec, train}")
        agents: list[AgentEntry] = []
        to_build: list[tuple[str, str]] = []
        for i, entry in enumerate(agents_raw):
            key = f"agents[{i}]"
            if isinstance(entry, str):
                if not _NAME.fullmatch(entry):
                    raise ConfigError(
                        key, entry, "a bare spec is also the agent's name (letters, digits, '_', '-', '.'): "
                        "write {name: ..., spec: ...} for a spec with arguments or a module path"
                    )
                entry = {"name": entry, "spec": entry}
            _check_keys(key, entry, AgentEntry)
            name = entry.get("name", entry.get("spec"))
            if not isinstance(name, str) or not _NAME.fullmatch(name):
                raise ConfigError(key + ".name", name, "must be 1-64 characters: letters, digits, '_', '-', '.'")
            spec = _str(key + ".spec", entry.get("spec"))
            train = _bool(key + ".train", entry.get("train", False))
            if train and not (_is_cfr_lite(spec) or _is_ppo(spec)):
                raise ConfigError(
                    key + ".train", True, f"only cfr-lite and ppo agents can train in the league (spec is {spec!r})"
                )
            parsed = _check_spec(key + ".spec", spec)
            if train and parsed is not None and "policy" in parsed.kwargs:
                raise ConfigError(
                    key + ".spec", spec, "a training agent plays the policy it trains: drop the policy= argument"
                )
            to_build.append((key + ".spec", spec))
            agents.append(AgentEntry(name, spec, train))
        table_raw = data.get("table", {"num_players": 2})
        if not isinstance(table_raw, Mapping):
            raise ConfigError("table", table_raw, "must be a mapping of table settings")
        try:
            table = TableConfig.from_dict(dict(table_raw))
        except ConfigError as exc:
            raise ConfigError(f"table.{exc.field}", exc.value, exc.allowed) from None
        except TypeError as exc:
            raise ConfigError("table", table_raw, str(exc)) from None
        sections: dict[str, Any] = {}
        for key, sub in (("cfr", CfrSettings), ("league", LeagueSettings), ("logging", LoggingSettings), ("backend", BackendSettings)):
            raw = data.get(key, {}) or {}
            _check_keys(key, raw, sub)
            sections[key] = sub(**raw)
        for key, spec in to_build:
            _check_builds(key, spec, isolated=sections["league"].isolate_agents)
        sections["ppo"] = _ppo_settings(data.get("ppo", {}) or {})
        return cls(name=data["name"], agents=tuple(agents), seed=data.get("seed", 0), table=table, **sections)

    def to_yaml(self) -> str:
        """The config as YAML text (what is logged to TensorBoard)."""
        return yaml.safe_dump(self.to_dict(), sort_keys=False)


def _is_cfr_lite(spec: str) -> bool:
    head = spec.split("(", 1)[0].strip()
    return head == "cfr-lite" or head.endswith(":CfrLiteAgent")


def _is_ppo(spec: str) -> bool:
    head = spec.split("(", 1)[0].strip()
    return head == "ppo" or head.endswith(":PpoAgent")


def _ppo_settings(raw: Mapping[str, Any]) -> Any:
    """The ``ppo:`` section as :class:`holdem_env.training.ppo.LeaguePpoSettings` (imported only when used)."""
    # late import: training.ppo imports torch (seconds), which a config without a ppo section never needs
    from .ppo import LeaguePpoSettings

    if not isinstance(raw, Mapping):
        raise ConfigError("ppo", raw, "must be a mapping of ppo settings")
    return LeaguePpoSettings.from_dict(raw)


def _check_spec(key: str, spec: str) -> Any:
    """The parsed spec (an :class:`holdem_env.agents.base.AgentSpec`); a bad spec is a :class:`ConfigError` at ``key``."""
    try:
        return parse_spec(spec)
    except AgentSpecError as exc:
        raise ConfigError(key, spec, str(exc)) from None


def _check_builds(key: str, spec: str, *, isolated: bool) -> None:
    """Build the agent once (in its own process when ``isolated``), so that a bad argument
    stops a run before its folder exists."""
    try:
        if isolated:
            IsolatedAgent(spec).close()
        else:
            make_agent(spec)
    except (AgentSpecError, AgentError) as exc:
        raise ConfigError(key, spec, str(exc)) from None


#: Top-level keys of a stand-alone PPO run config (``holdem_env.training.ppo.PpoRunConfig``, e.g.
#: configs/ppo_hu.yaml) that a league config never has at its top level.
PPO_RUN_KEYS = frozenset({"rounds", "iterations_per_round", "runs_dir", "policy_out", "average_from", "average_every"})


def config_kind(data: Mapping[str, Any]) -> str:
    """``"league"`` or ``"ppo"`` (a stand-alone PPO run): which runner a parsed config file is for.

    A league config lists ``agents``; a PPO run config has none and has a top-level key of
    :data:`PPO_RUN_KEYS` (``rounds``, ...). Anything else is read as a league config, whose
    checks then name what is missing.

    >>> config_kind({"name": "x", "agents": ["random", "tag"]}), config_kind({"name": "x", "rounds": 3})
    ('league', 'ppo')
    """
    if "agents" not in data and any(key in PPO_RUN_KEYS for key in data):
        return "ppo"
    return "league"


def load_config(path: str | Path) -> LeagueConfig:
    """Read and validate a league YAML file; a missing, oversized, binary or malformed file is a
    :class:`ConfigError`, as are YAML aliases and nesting too deep to read."""
    data = read_config_file(path)
    try:
        return LeagueConfig.from_dict(data)
    except RecursionError:
        raise ConfigError("config", str(path), "is nested too deeply to read") from None


def read_config_file(path: str | Path) -> Mapping[str, Any]:
    """The mapping a YAML config file holds, or a :class:`ConfigError` for a missing, oversized,
    binary or malformed file, YAML aliases and nesting too deep to read (nothing validated yet)."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError("config", str(p), "must be an existing YAML file, e.g. configs/quickstart.yaml")
    if p.stat().st_size > MAX_CONFIG_BYTES:
        size = p.stat().st_size
        raise ConfigError("config", str(p), f"is {size} bytes: a league config is at most {MAX_CONFIG_BYTES}")
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError("config", str(p), f"is not UTF-8 text (byte {exc.start}): give a YAML file") from None
    try:
        data = yaml.load(text, Loader=_ConfigLoader)  # a SafeLoader without aliases
    except yaml.YAMLError as exc:
        raise ConfigError("config", str(p), f"is not valid YAML: {exc}") from None
    except RecursionError:
        raise ConfigError("config", str(p), "is nested too deeply to read") from None
    if not isinstance(data, Mapping):
        raise ConfigError("config", str(p), "must be a YAML mapping with at least 'name' and 'agents'")
    return data


class _ConfigLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses aliases (``*name``), the way to an expansion bomb, and
    duplicate keys (plain YAML keeps the last silently)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                line = key_node.start_mark.line + 1
                try:
                    if key in seen:
                        raise yaml.YAMLError(f"duplicate key {key!r} at lines {seen[key]} and {line}: give each key once")
                    seen[key] = line
                except TypeError:
                    continue  # an unhashable key: the base class says so
        return super().construct_mapping(node, deep)

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.YAMLError(
                f"aliases are not supported in league configs (found *{event.anchor} at line "
                f"{event.start_mark.line + 1}): write the value out"
            )
        return super().compose_node(parent, index)
