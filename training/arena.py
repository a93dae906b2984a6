"""Head-to-head matches between agent specs: duplicate deals, worker processes, 95% intervals.

A match seats a *lineup* of agent specs (the specs given, repeated in order to fill the
table) and plays it in *groups*. In the duplicate format (the default) a group is one
deal played ``n`` times, the lineup rotated one seat each time, so every contestant
plays every seat with the same cards; the button stays on seat 0. Without duplicate, a
group is ``n`` fresh deals with the same rotation. Hands are played through the
PettingZoo environment :mod:`holdem_env.env.nlhe_v1`; legality comes from its mask.

Seeding: group ``g`` draws everything from ``numpy.random.SeedSequence(seed).spawn(G)[g]``:
its deck(s) and, per *seat*, a generator handed to the agent in that seat before every
hand (``set_rng``), identical across the group's rotations. So results do not depend on
the number of workers or on chunking, and two copies of the same deterministic-given-rng
agent break exactly even in duplicate heads-up.

Results per distinct spec: chips won per hand in milli-big-blinds (``mbb_per_hand``;
``bb/100 = mbb_per_hand / 10``) with a 95% half-width computed over duplicate groups
(each group's mean result per hand is one sample), and HUD statistics
(:mod:`holdem_env.training.stats`).

Agents should not carry state from hand to hand (beyond their ``rng``): a worker plays a
chunk of groups with one set of agent instances, so such state would depend on chunking.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.agents.base import AgentError, make_agent, parse_spec, resolve_spec
from holdem_env.agents.isolation import IsolatedAgent
from holdem_env.agents.sandbox import make_undumpable
from holdem_env.engine.cards import card_str, shuffled_deck
from holdem_env.engine.config import MAX_PLAYERS, MIN_PLAYERS, BettingStructure, TableConfig
from holdem_env.engine.errors import ConfigError, PHHError
from holdem_env.engine.validate import check_bool, check_int, is_int
from holdem_env.env import nlhe_v1
from holdem_env.formats.phh import record_to_phh
from holdem_env.training.stats import HudCounts, hud_counts_for_hand, mean_ci95
from holdem_env.training.workpool import WorkerPool

__all__ = ["ArenaConfig", "MatchResult", "run_match", "report_strength", "lineup_of", "format_table", "ON_ILLEGAL", "MAX_HANDS"]

ON_ILLEGAL = ("raise", "timeout")
#: Most hands in one match (the per-group results are kept for the interval: 8 bytes per seat per group).
MAX_HANDS = 10_000_000


@dataclass(frozen=True)
class ArenaConfig:
    """What to play. ``hands`` is rounded up to whole groups of ``players`` hands.

    ``workers``: processes (``None`` = ``os.cpu_count()``; 1 = in this process).
    ``on_illegal``: ``"raise"`` stops the match with :class:`holdem_env.agents.base.AgentError`;
    ``"timeout"`` turns an illegal action (or an exception in ``act``) into a timed-out
    turn (check if free, else fold), counted per agent. ``history_dir``: every hand as
    ``hand_<n>.phh`` (``.json`` hand records where PHH cannot express the game: pot-limit, or fixed-limit with a non-standard cap).
    ``isolate_agents``: every seat's agent runs in its own process and sees only its
    observation and info (:class:`holdem_env.agents.isolation.IsolatedAgent`); in-process
    agents (the default) are trusted code.
    """

    agents: tuple[str, ...]
    players: int | None = None
    hands: int = 1000
    seed: int = 0
    duplicate: bool = True
    workers: int | None = 1
    small_blind: int = 5
    big_blind: int = 10
    buy_in: int = 1000
    betting: str = "no-limit"
    action_mode: str = "discrete"
    on_illegal: str = "raise"
    history_dir: str | None = None
    isolate_agents: bool = False

    def __post_init__(self) -> None:
        agents = tuple(self.agents) if not isinstance(self.agents, str) else (self.agents,)
        object.__setattr__(self, "agents", agents)
        if not agents:
            raise ConfigError("agents", agents, "must name at least one agent spec")
        for spec in agents:
            parse_spec(spec)
        players = len(agents) if self.players is None else self.players
        if len(agents) == 1 and self.players is None:
            players = 2
        players = check_int("players", players, MIN_PLAYERS, MAX_PLAYERS)
        if len(agents) > players:
            raise ConfigError("agents", list(agents), f"{len(agents)} agents do not fit {players} seats (--players)")
        object.__setattr__(self, "players", players)
        hands_allowed = f"must be an integer in 1..{MAX_HANDS} (play several seeds for larger samples)"
        object.__setattr__(self, "hands", check_int("hands", self.hands, 1, MAX_HANDS, allowed=hands_allowed))
        object.__setattr__(self, "seed", check_int("seed", self.seed, 0, 2**128 - 1, allowed="must be an integer in 0..2**128-1"))
        workers_allowed = "must be a positive integer or None (all CPU cores)"
        object.__setattr__(self, "workers", check_int("workers", self.workers, 1, none_ok=True, allowed=workers_allowed))
        check_bool("isolate_agents", self.isolate_agents)
        if not self.isolate_agents:  # checked here, before any process starts (isolated: in the worker)
            for spec in agents:
                resolve_spec(spec)
        check_bool("duplicate", self.duplicate, allowed="must be True (duplicate groups) or False (fresh deals)")
        if self.history_dir is not None and not (isinstance(self.history_dir, str) and self.history_dir.strip()):
            raise ConfigError("history_dir", self.history_dir, "must be a folder path (a non-empty string) or None")
        if self.on_illegal not in ON_ILLEGAL:
            raise ConfigError("on_illegal", self.on_illegal, "must be 'raise' or 'timeout'")
        if self.action_mode not in ("discrete", "exact"):
            raise ConfigError("action_mode", self.action_mode, "must be 'discrete' or 'exact'")
        self.table_config()  # validates blinds, buy-in and betting

    def table_config(self) -> TableConfig:
        """The table the match is played on."""
        return TableConfig(
            num_players=self.players,  # type: ignore[arg-type]
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            buy_in=self.buy_in,
            betting=BettingStructure.parse(self.betting),
        )

    @property
    def groups(self) -> int:
        """Number of groups of ``players`` hands."""
        return math.ceil(self.hands / self.players)  # type: ignore[operator]

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (for ``--json``)."""
        out = asdict(self)
        out["agents"] = list(self.agents)
        out["hands_played"] = self.groups * self.players  # type: ignore[operator]
        return out


def lineup_of(agents: Sequence[str], players: int) -> list[str]:
    """The specs seated at a ``players``-seat table: ``agents`` repeated in order.

    >>> lineup_of(["tag", "random"], 6)
    ['tag', 'random', 'tag', 'random', 'tag', 'random']
    """
    return [agents[i % len(agents)] for i in range(players)]


@dataclass
class _GroupResult:
    net: list[int]  # chips per contestant
    hud: list[HudCounts]
    timeouts: list[int]
    records: list[Any] = field(default_factory=list)
    #: per contestant: the first error counted as timed-out turns in this group (``on_illegal="timeout"``)
    errors: list[str | None] = field(default_factory=list)


def match_env(cfg: ArenaConfig) -> nlhe_v1.raw_env:
    """The env a match of ``cfg`` is played on (rewards in chips): the arena's, and AIVAT's replays."""
    return nlhe_v1.raw_env(
        num_players=int(cfg.players),  # type: ignore[arg-type]
        small_blind=cfg.small_blind,
        big_blind=cfg.big_blind,
        buy_in=cfg.buy_in,
        betting=cfg.betting,
        action_mode=cfg.action_mode,
        reward_unit="chips",
        illegal_action="timeout" if cfg.on_illegal == "timeout" else "raise",
    )


def _group_seed(seed: int, group: int) -> np.random.SeedSequence:
    # Equal to SeedSequence(seed).spawn(G)[group] without spawning the others.
    return np.random.SeedSequence(seed, spawn_key=(group,))


class _Player:
    """One worker's environment and agents, playing groups."""

    def __init__(self, cfg: ArenaConfig, keep_records: bool) -> None:
        self.cfg = cfg
        self.n = int(cfg.players)  # type: ignore[arg-type]
        self.lineup = lineup_of(cfg.agents, self.n)
        self.env = match_env(cfg)
        if cfg.isolate_agents:
            self.agents: list[Any] = IsolatedAgent.start_many(self.lineup)
        else:
            self.agents = [make_agent(spec) for spec in self.lineup]
        self.keep_records = keep_records
        self.history = Path(cfg.history_dir) if cfg.history_dir else None

    def close(self) -> None:
        """Stop the worker processes of isolated agents (nothing to do for in-process ones)."""
        for agent in self.agents:
            close = getattr(agent, "close", None) if self.cfg.isolate_agents else None
            if close is not None:
                close()

    def play_group(self, group: int) -> _GroupResult:
        n = self.n
        children = _group_seed(self.cfg.seed, group).spawn(1 + n)
        deck_rng = np.random.default_rng(children[0])
        deck = shuffled_deck(deck_rng)
        out = _GroupResult(net=[0] * n, hud=[HudCounts() for _ in range(n)], timeouts=[0] * n, errors=[None] * n)
        for rotation in range(n):
            if rotation and not self.cfg.duplicate:
                deck = shuffled_deck(deck_rng)
            seat_of = {(s + rotation) % n: s for s in range(n)}  # contestant -> seat
            contestant_at = [(s + rotation) % n for s in range(n)]
            for s in range(n):
                self._hook(contestant_at[s], s, "set_rng", np.random.default_rng(children[1 + s]), out=out)
            hand_id = f"{group * n + rotation} (group {group}, rotation {rotation})"
            record = self._play_hand(deck, contestant_at, hand_id, out)
            for c in range(n):
                out.net[c] += int(record.payoffs[seat_of[c]])
            for s, counts in hud_counts_for_hand(record).items():
                out.hud[contestant_at[s]].merge(counts)
            if self.keep_records:
                out.records.append(record)
            if self.history is not None:
                self._write_history(record, contestant_at, group * n + rotation)
        return out

    def _write_history(self, record: Any, contestant_at: list[int], index: int) -> None:
        """``hand_<index>.phh`` (players named by spec); ``.json`` where PHH cannot express the game (pot-limit, non-standard fixed-limit caps)."""
        n = self.n
        names = [self.lineup[contestant_at[s]] for s in range(n)]
        order = [(record.button + k) % n for k in range(1, n + 1)]
        try:
            text = record_to_phh(record, players=[names[s] for s in order if record.dealt_in[s]])
        except PHHError:
            (self.history / f"hand_{index:07d}.json").write_text(record.to_json())  # type: ignore[operator]
            return
        (self.history / f"hand_{index:07d}.phh").write_text(text)  # type: ignore[operator]

    def _play_hand(self, deck: Sequence[int], contestant_at: list[int], hand_id: str, out: _GroupResult) -> Any:
        env = self.env
        # A seed on every reset starts a fresh table: each hand stands alone (deck and button given).
        env.reset(seed=self.cfg.seed, options={"deck": list(deck), "button": 0})
        for s in range(self.n):
            self._hook(contestant_at[s], s, "start_hand", env.infos[env.possible_agents[s]], out=out, hand_id=hand_id)
        while env.agents and not all(env.terminations.values()):
            name = env.agent_selection
            seat = env.agent_name_mapping[name]
            c = contestant_at[seat]
            agent = self.agents[c]
            observation = env.observe(name)
            info = env.infos[name]
            mask = observation["action_mask"]
            try:
                action = agent.act(observation, info)
                ok = is_int(action) and 0 <= action < len(mask) and mask[action]
                problem = None if ok else f"returned action {action!r}, which is not legal (legal ids: {np.flatnonzero(mask).tolist()})"
            except Exception as exc:
                if self.cfg.on_illegal == "raise":
                    raise AgentError(
                        f"agent {self.lineup[c]!r} (seat {seat}) raised {type(exc).__name__}: {exc} in hand {hand_id}",
                        agent=self.lineup[c], hand=hand_id, action=None,
                    ) from exc
                action, problem = None, f"raised {type(exc).__name__}: {exc}"
            if problem is not None:
                if self.cfg.on_illegal == "raise":
                    raise AgentError(
                        f"agent {self.lineup[c]!r} (seat {seat}) {problem} in hand {hand_id}",
                        agent=self.lineup[c], hand=hand_id, action=action,
                    )
                out.timeouts[c] += 1
                self._note(out, c, seat, problem, hand_id)
                action = self._timeout_id(mask, info)
            env.step(int(action))
        record = env.hand_record()
        payoffs = record.payoffs
        assert payoffs is not None, "the hand is over"
        for s in range(self.n):
            self._hook(contestant_at[s], s, "end_hand", {
                "seat": s,
                "payoff": int(payoffs[s]),
                "board": tuple(card_str(c) for c in record.board),
                "shown": {int(k): tuple(card_str(x) for x in v) for k, v in record.shown.items()},
            }, out=out, hand_id=hand_id)
        return record

    def _note(self, out: _GroupResult, c: int, seat: int, message: str, hand_id: str | None) -> None:
        """Keep the first error of contestant ``c`` in this group (it names the seat and hand)."""
        if out.errors and out.errors[c] is None:
            where = f" in hand {hand_id}" if hand_id else ""
            out.errors[c] = f"seat {seat}{where}: {message}"[:500]

    def _hook(self, c: int, seat: int, name: str, arg: Any, *, out: _GroupResult, hand_id: str | None = None) -> None:
        """Call contestant ``c``'s hook ``name`` if it has one. Under ``on_illegal="raise"`` an
        error stops the match naming the agent and seat; under ``"timeout"`` it is noted and the
        match goes on (an agent whose worker died then times out at each of its turns)."""
        hook = getattr(self.agents[c], name, None)
        if hook is None:
            return
        try:
            hook(arg)
        except Exception as exc:
            if self.cfg.on_illegal == "raise":
                where = f" in hand {hand_id}" if hand_id else ""
                raise AgentError(
                    f"agent {self.lineup[c]!r} (seat {seat}) failed in {name}{where}: {type(exc).__name__}: {exc}",
                    agent=self.lineup[c], hand=hand_id or "", action=None,
                ) from exc
            self._note(out, c, seat, f"{name} raised {type(exc).__name__}: {exc}", hand_id)

    @staticmethod
    def _timeout_id(mask: np.ndarray, info: Mapping[str, Any]) -> int:
        """An id the env (built with ``illegal_action="timeout"``) turns into a timed-out turn."""
        masked_out = np.flatnonzero(mask == 0)
        if masked_out.size:
            return int(masked_out[0])
        return 1 if info["legal"]["check"] else 0  # every id legal: check if free, else fold


#: This process's player for a match with isolated agents, kept across chunks (its agent
#: processes take a moment to start); one match at a time per process.
_ISOLATED: dict[tuple[ArenaConfig, bool], _Player] = {}


def _close_isolated() -> None:
    while _ISOLATED:
        _ISOLATED.popitem()[1].close()


def _play_chunk(cfg: ArenaConfig, groups: list[int], keep_records: bool) -> list[_GroupResult]:
    if not cfg.isolate_agents:
        player = _Player(cfg, keep_records)
        return [player.play_group(g) for g in groups]
    player = _ISOLATED.get((cfg, keep_records))  # type: ignore[assignment]
    if player is None:
        _close_isolated()
        player = _ISOLATED[(cfg, keep_records)] = _Player(cfg, keep_records)
    try:
        return [player.play_group(g) for g in groups]
    except BaseException:
        _close_isolated()
        raise


@dataclass
class MatchResult:
    """A finished match: per-spec rows, the config, and the raw per-group chips."""

    config: ArenaConfig
    #: ``(groups, players)`` chips won per contestant (lineup index) per group.
    group_net: np.ndarray
    rows: list[dict[str, Any]]
    records: list[Any] = field(default_factory=list)

    def to_json_dict(self) -> dict[str, Any]:
        """``{"results": [...], "config": {...}}`` as written by ``--json`` (an infinite
        interval, from a single group, is ``None``)."""
        rows = [
            {k: v for k, v in r.items() if k != "hud_counts"} | {"ci95": None if math.isinf(r["ci95"]) else r["ci95"]}
            for r in self.rows
        ]
        return {"results": rows, "config": self.config.to_dict()}


def _rows(
    cfg: ArenaConfig, group_net: np.ndarray, hud: list[HudCounts], timeouts: list[int], errors: list[str | None] | None = None
) -> list[dict[str, Any]]:
    n = int(cfg.players)  # type: ignore[arg-type]
    lineup = lineup_of(cfg.agents, n)
    specs = list(dict.fromkeys(lineup))
    rows = []
    for spec in specs:
        members = [c for c in range(n) if lineup[c] == spec]
        per_hand = group_net[:, members].sum(axis=1) / (len(members) * n)  # chips per hand per seat
        mbb = per_hand / cfg.big_blind * 1000.0
        mean, half = mean_ci95(mbb.tolist())
        counts = HudCounts()
        for c in members:
            counts.merge(hud[c])
        others = [s for s in specs if s != spec]
        if n == 2:
            opponent = others[0] if others else spec
        else:
            opponent = "field"
        stats = counts.summary()
        stats["timeouts"] = sum(timeouts[c] for c in members)
        first_error = next((errors[c] for c in members if errors and errors[c]), None)
        rows.append({
            "agent": spec,
            "opponent": opponent,
            "seats": len(members),
            "hands": int(group_net.shape[0] * n),
            "mbb_per_hand": mean,
            "ci95": half,
            "bb_per_100": mean / 10.0,
            "stats": stats,
            "hud_counts": counts.to_dict(),  # raw counters, so that matches can be pooled
            "first_error": first_error,  # the first error counted as timed-out turns: seat, hand, what
        })
    return rows


def run_match(
    config: ArenaConfig,
    *,
    progress: bool = False,
    callback: Callable[[int, list[dict[str, Any]]], None] | None = None,
    keep_records: bool = False,
) -> MatchResult:
    """Play the match described by ``config``.

    ``progress``: a tqdm bar with an ETA on stderr. ``callback(hands_done, rows)`` is
    called after each chunk of groups, in group order, with the running results.
    ``keep_records``: return every :class:`~holdem_env.engine.record.HandRecord` (in group order).
    Raises :class:`holdem_env.agents.base.AgentError` when an agent misbehaves and
    ``on_illegal="raise"``.
    """
    cfg = config
    n = int(cfg.players)  # type: ignore[arg-type]
    total = cfg.groups
    workers = cfg.workers or os.cpu_count() or 1
    if cfg.history_dir:
        Path(cfg.history_dir).mkdir(parents=True, exist_ok=True)
    if cfg.isolate_agents:
        make_undumpable()  # the seed and the decks are here: no worker may read this process (nor its pool's)
    chunk = max(1, min(64, math.ceil(total / (workers * 8))))
    n_chunks = math.ceil(total / chunk)
    workers = min(workers, n_chunks)

    def groups_of(i: int) -> list[int]:  # chunk i, made when it is sent (never all at once)
        return list(range(i * chunk, min((i + 1) * chunk, total)))

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=total * n, unit="hand", desc="holdem eval", dynamic_ncols=True)
    pending: dict[int, list[_GroupResult]] = {}  # finished chunks waiting for their turn
    group_net = np.zeros((total, n), dtype=np.int64)
    hud = [HudCounts() for _ in range(n)]
    timeouts = [0] * n
    errors: list[str | None] = [None] * n
    records: list[Any] = []
    done = 0  # chunks folded into the running totals, in order

    def fold_in() -> None:
        nonlocal done
        while done in pending:
            results = pending.pop(done)
            for g, res in zip(groups_of(done), results, strict=True):
                group_net[g] = res.net
                for c in range(n):
                    hud[c].merge(res.hud[c])
                    timeouts[c] += res.timeouts[c]
                    if errors[c] is None and res.errors:
                        errors[c] = res.errors[c]
                records.extend(res.records)
            done += 1
            if callback is not None:
                finished = min(done * chunk, total)
                callback(finished * n, _rows(cfg, group_net[:finished], hud, timeouts, errors))

    try:
        if workers == 1:
            for i in range(n_chunks):
                pending[i] = _play_chunk(cfg, groups_of(i), keep_records)
                if bar is not None:
                    bar.update(len(pending[i]) * n)
                fold_in()
        else:
            with WorkerPool(workers) as pool:
                tasks = ((cfg, groups_of(i), keep_records) for i in range(n_chunks))  # made when sent
                for i, results in enumerate(pool.imap(_play_chunk, tasks, window=4 * workers)):
                    pending[i] = results
                    if bar is not None:
                        bar.update(len(results) * n)
                    fold_in()
    finally:
        if bar is not None:
            bar.close()
        _close_isolated()  # pool workers' agent processes end with the pool
    return MatchResult(config=cfg, group_net=group_net, rows=_rows(cfg, group_net, hud, timeouts, errors), records=records)


def _fmt(value: float | None, pct: bool = True) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f}" if pct else f"{value:.2f}"


def format_table(result: MatchResult) -> str:
    """The results as a readable text table."""
    cfg = result.config
    # columns as wide as the longest spec (never cut: a spec names what was played)
    wa = max([24, *(len(row["agent"]) for row in result.rows)])
    wo = max([14, *(len(row["opponent"]) for row in result.rows)])
    lines = [
        f"holdem eval: {cfg.players} players, {cfg.groups * cfg.players} hands "  # type: ignore[operator]
        f"({'duplicate' if cfg.duplicate else 'plain'}, {cfg.groups} groups), seed {cfg.seed}, "
        f"blinds {cfg.small_blind}/{cfg.big_blind}, buy-in {cfg.buy_in}, {cfg.betting}, {cfg.action_mode} actions",
        "",
        f"{'agent':<{wa}} {'vs':<{wo}} {'hands':>8} {'mbb/hand':>10} {'±95%':>8} {'bb/100':>8}"
        f" {'VPIP':>5} {'PFR':>5} {'3bet':>5} {'AF':>5} {'WTSD':>5} {'W$SD':>5}",
    ]
    for row in result.rows:
        st = row["stats"]
        lines.append(
            f"{row['agent']:<{wa}} {row['opponent']:<{wo}} {row['hands']:>8} {row['mbb_per_hand']:>10.1f} "
            f"{row['ci95']:>8.1f} {row['bb_per_100']:>8.2f} {_fmt(st['vpip']):>5} {_fmt(st['pfr']):>5} "
            f"{_fmt(st['three_bet']):>5} {_fmt(st['af'], pct=False):>5} {_fmt(st['wtsd']):>5} {_fmt(st['wsd']):>5}"
        )
        if st.get("timeouts"):
            lines.append(f"  {row['agent']}: {st['timeouts']} illegal actions or errors counted as timed-out turns")
        if row.get("first_error"):
            lines.append(f"  {row['agent']}: first error: {row['first_error']}")
    return "\n".join(lines)


def report_strength(
    spec: str, hands: int, seed: int, *, opponents: tuple[str, ...] = ("tag", "random"), out: Callable[[str], Any] = print
) -> list[dict[str, Any]]:
    """Heads-up duplicate matches of ``spec`` against each of ``opponents``, printed a line each:
    mbb/hand with its 95% interval, VPIP and PFR, and a warning for a policy that plays under 5%
    of its hands (a training return can rise while a policy learns to fold everything). Returns
    ``spec``'s result rows. What the examples of ``examples/`` end with."""
    out(f"evaluating: {hands} duplicate hands against {', then '.join(opponents)}")
    rows = []
    for opponent in opponents:
        row = run_match(ArenaConfig(agents=(spec, opponent), players=2, hands=hands, seed=seed, workers=1)).rows[0]
        st = row["stats"]
        vpip, pfr = (f"{100 * x:.1f}%" if x is not None else "-" for x in (st["vpip"], st["pfr"]))
        out(f"vs {opponent:<6}: {row['mbb_per_hand']:+9.1f} ± {row['ci95']:.1f} mbb/hand ({row['hands']} hands), "
            f"VPIP {vpip}, PFR {pfr}")
        if st["vpip"] is not None and st["vpip"] < 0.05:
            out("  warning: VPIP under 5%: the policy folds nearly every hand, whatever its training return says")
        rows.append(row)
    return rows
