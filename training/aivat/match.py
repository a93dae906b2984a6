"""AIVAT on a heads-up match kept with its records: every hand's terms summed per duplicate group, combined, and printed (``holdem eval --aivat``)."""

from __future__ import annotations

import contextlib
import math
import os
from typing import Any

import numpy as np

from holdem_env.agents.base import make_agent
from holdem_env.agents.ranges import supports_range_queries
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import check_int
from holdem_env.training.arena import _group_seed, lineup_of, match_env
from holdem_env.training.stats import mean_ci95
from holdem_env.training.workpool import WorkerPool

from .private import DealOdds, chance_corrections
from .public import range_showdown_value, showdown_stake
from .replay import _replay

#: With the range showdown term, the adjusted result is this share of ``showdown result
#: over the ranges - action terms`` plus the rest of ``realised result - chance terms -
#: action terms``: a fixed mix of two unbiased estimates is unbiased.
SHOWDOWN_WEIGHT = 0.5
#: The adjusted result is this share of the public estimate (range showdown - public
#: chance terms - public action terms) plus the rest of the private one.
PUBLIC_WEIGHT = 0.875


def _odds_seed(seed: int, group: int, rotation: int) -> np.random.SeedSequence:
    """The seed of a group's :class:`DealOdds` samples: a stream of the match seed that
    neither the deal nor any agent of the arena draws from (independent of the deck)."""
    return np.random.SeedSequence(seed, spawn_key=(group, 1000, rotation))


def _public_seed(seed: int, group: int, rotation: int) -> np.random.SeedSequence:
    """The seed of a hand's sampled flops for :func:`public_flop_term`: another stream of
    the match seed that neither the deal, the agents nor :class:`DealOdds` draw from."""
    return np.random.SeedSequence(seed, spawn_key=(group, 1001, rotation))


#: Duplicate groups replayed per task of :func:`luck_terms`: fixed, so that the agents a task
#: makes see the same groups in the same order for any number of workers (the terms are the
#: same to the bit whatever ``workers`` is, even for an agent that keeps state across hands).
REPLAY_CHUNK = 16

_KEYS = ("payoffs", "showdown", "chance", "action", "public_chance", "public_action")


def _terms_chunk(cfg: Any, first: int, records: list[Any], flags: tuple[bool, bool, bool, bool]) -> tuple[dict[str, np.ndarray], set[str]]:
    """:func:`luck_terms`' parts of the duplicate groups ``first, first + 1, ...`` whose hands
    are ``records`` (every seat order of each, in order): ``(parts, used)``, the parts shaped
    ``(groups, players)``. Makes its own contestants and replay table (a worker's task)."""
    actions, chance, showdown, public = flags
    n = int(cfg.players)
    groups = len(records) // n
    lineup = lineup_of(cfg.agents, n)
    replay: Any = None
    contestants = [make_agent(spec) for spec in lineup] if (actions or showdown) else []
    ranged = bool(contestants) and all(supports_range_queries(a) for a in contestants)
    public = public and showdown and ranged
    if (actions and any(supports_range_queries(a) for a in contestants)) or (showdown and ranged):
        replay = match_env(cfg)
    used: set[str] = set()
    parts = {key: np.zeros((groups, n)) for key in _KEYS}
    for i in range(groups):
        g = first + i
        children = _group_seed(cfg.seed, g).spawn(1 + n)
        odds_of: dict[tuple[tuple[int, ...], ...], DealOdds] = {}  # a duplicate group's seat orders share one
        for rotation in range(n):
            record = records[i * n + rotation]
            holes = tuple(tuple(int(c) for c in h) for h in record.hole_cards)
            if holes not in odds_of:
                odds_of[holes] = DealOdds(holes, np.random.default_rng(_odds_seed(cfg.seed, g, rotation)))
            odds = odds_of[holes]
            payoffs = np.array(record.payoffs, dtype=np.float64)
            expected = payoffs
            luck = chance_corrections(record, odds) if chance else np.zeros(n)
            used.update(["chance"] if chance else [])
            terms = np.zeros(n)
            public_chance = public_action = np.zeros(n)
            if replay is not None:
                at_seat = [contestants[(s + rotation) % n] for s in range(n)]
                rngs = [np.random.default_rng(children[1 + s]) for s in range(n)]
                stake = showdown_stake(record) if showdown and ranged else None
                terms, reach, public_chance, public_action = _replay(
                    record,
                    at_seat,
                    replay,
                    odds,
                    seed=cfg.seed,
                    rngs=rngs,
                    reaches=public or stake is not None,
                    flop_rng=np.random.default_rng(_public_seed(cfg.seed, g, rotation)),
                )
                if not public:
                    public_chance = public_action = np.zeros(n)
                if actions:
                    used.add("action")
                else:
                    terms = np.zeros(n)
                if stake is not None and reach is not None:
                    first_seat = range_showdown_value(record.board, reach[0], reach[1], stake)
                    expected = np.array([first_seat, -first_seat])
                    used.add("showdown")
            for seat in range(n):
                contestant = (seat + rotation) % n
                parts["payoffs"][i, contestant] += payoffs[seat]
                parts["showdown"][i, contestant] += expected[seat]
                parts["chance"][i, contestant] += luck[seat]
                parts["action"][i, contestant] += terms[seat]
                parts["public_chance"][i, contestant] += public_chance[seat]
                parts["public_action"][i, contestant] += public_action[seat]
    if public:
        used.add("public")
    if showdown and ranged:
        used.add("showdown")  # asked for and answerable, even if no hand reached a showdown
    if replay is not None:
        replay.close()
    return parts, used


def luck_terms(
    result: Any,
    *,
    actions: bool = True,
    chance: bool = True,
    showdown: bool = True,
    public: bool = True,
    workers: int | None = 1,
    progress: bool = False,
) -> dict[str, Any]:
    """The parts of every hand's luck-adjusted result of a heads-up match kept with its
    records, summed per duplicate group and contestant (chips, ``(groups, players)``
    arrays): ``"payoffs"`` the realised results; ``"showdown"`` the same with each showdown
    result replaced by its expectation over the players' ranges (:func:`range_showdown_value`;
    equal to ``"payoffs"`` where a hand ended in a fold, or where ``showdown`` is false or a
    contestant does not answer range queries); ``"chance"`` and ``"action"`` the corrections
    (zeros where not asked for); ``"public_chance"`` and ``"public_action"`` the public
    terms (:func:`public_chance_term`, :func:`public_action_term`; with ``public`` and
    ``showdown`` when both contestants answer range queries, zeros otherwise). ``"used"``:
    the set of the parts that took effect (``"public"`` for the two public ones). See
    :func:`luck_adjusted` for how they combine.

    The hands are replayed in tasks of :data:`REPLAY_CHUNK` groups, on ``workers`` processes
    (``None``: every CPU core; the result is the same for any number); ``progress``: a tqdm
    bar of the hands replayed on stderr.
    """
    cfg = result.config
    n = int(cfg.players)
    if n != 2:
        raise ConfigError("players", n, "--aivat needs a heads-up match (2 players)")
    check_int("workers", workers, 1, none_ok=True)
    groups = result.group_net.shape[0]
    if len(result.records) != groups * n:
        raise ConfigError("records", len(result.records), f"must hold every hand ({groups * n}): keep_records=True")
    flags = (bool(actions), bool(chance), bool(showdown), bool(public))
    starts = range(0, groups, REPLAY_CHUNK)
    tasks = ((cfg, g, result.records[g * n : min(g + REPLAY_CHUNK, groups) * n], flags) for g in starts)
    parts = {key: np.zeros((groups, n)) for key in _KEYS}
    used: set[str] = set()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=groups * n, unit="hand", desc="AIVAT replay", dynamic_ncols=True)
    workers = min(workers or os.cpu_count() or 1, max(1, len(starts)))
    with contextlib.ExitStack() as stack:
        if bar is not None:
            stack.callback(bar.close)
        if workers <= 1:
            done: Any = (_terms_chunk(*task) for task in tasks)
        else:
            done = stack.enter_context(WorkerPool(workers)).imap(_terms_chunk, tasks, window=4 * workers)
        for g, (chunk, chunk_used) in zip(starts, done, strict=True):
            rows = chunk["payoffs"].shape[0]
            for key in _KEYS:
                parts[key][g : g + rows] = chunk[key]
            used |= chunk_used
            if bar is not None:
                bar.update(rows * n)
    return {**parts, "used": used}


def luck_adjusted(
    result: Any,
    *,
    actions: bool = True,
    chance: bool = True,
    showdown: bool = True,
    showdown_weight: float = SHOWDOWN_WEIGHT,
    public: bool = True,
    public_weight: float = PUBLIC_WEIGHT,
    per_group: bool = False,
    terms: dict[str, Any] | None = None,
    workers: int | None = 1,
    progress: bool = False,
) -> dict[str, Any]:
    """Plain and luck-adjusted results of a heads-up match kept with its records.

    Returns ``{"rows": [{"agent", "mbb_per_hand", "ci95", "adjusted_mbb_per_hand",
    "adjusted_ci95"}, ...], "ci_ratio": plain / adjusted half-width, "variance_reduction":
    1 - adjusted variance / plain variance, "terms": the parts used joined by "+", e.g.
    "public+showdown+chance+action", "showdown_weight": the weight used (0 without the range
    showdown), "public_weight"}``,
    one sample per duplicate group as in the arena. ``showdown``:
    replace each showdown's result by its expectation over both players' ranges (when both
    answer range queries); ``chance``: subtract the chance terms (:func:`chance_corrections`);
    ``actions``: subtract the action terms (:func:`action_corrections`). With the range
    showdown the private estimate is ``w * (range showdown - action terms) + (1 - w) *
    (realised - chance terms - action terms)``, ``w = showdown_weight`` (in [0, 1]; 1: the
    range showdown replaces the realised result outright). ``public`` (with ``showdown``,
    when both answer range queries): the result is ``p * (range showdown - public chance
    terms - public action terms) + (1 - p) * private estimate``, ``p = public_weight`` (in
    [0, 1]; ``"public_weight"`` in the result, 0 without); at ``p = 1`` the chance and
    action terms take no part and are not listed in ``"terms"``. The hands are
    replayed with the match's agents, seeded as the arena seeded them. The card facts of
    each deal (:class:`DealOdds`) are shared by the seat orders of its group and drawn from
    a stream of the match seed that neither the deal nor the agents use, so the result is
    deterministic for a seed. ``per_group``: also return ``"adjusted_groups"``, each
    group's luck-adjusted mbb per hand for each contestant (the samples behind the adjusted
    intervals). ``terms``: :func:`luck_terms` of ``result`` computed with every part
    asked for here, to combine parts without replaying again. ``workers``, ``progress``: as
    :func:`luck_terms` (the replay's processes and progress bar). Raises :class:`ConfigError`
    unless the match is heads-up and has its records (``run_match(..., keep_records=True)``).
    """
    for name, value in (("showdown_weight", showdown_weight), ("public_weight", public_weight)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise ConfigError(name, value, "must be a number in [0, 1]")
    if terms is None:
        terms = luck_terms(
            result, actions=actions, chance=chance, showdown=showdown, public=public, workers=workers, progress=progress
        )
    cfg = result.config
    n = int(cfg.players)
    lineup = lineup_of(cfg.agents, n)
    asked = (("public", public and showdown), ("showdown", showdown), ("chance", chance), ("action", actions))
    used = {t for t, on in asked if on} & set(terms["used"])
    w = float(showdown_weight) if "showdown" in used else 0.0
    p = float(public_weight) if "public" in used else 0.0
    private = (
        w * terms["showdown"]
        + (1.0 - w) * (terms["payoffs"] - (terms["chance"] if "chance" in used else 0.0))
        - (terms["action"] if "action" in used else 0.0)
    )
    adjusted = (1.0 - p) * private
    if p > 0.0:
        adjusted = adjusted + p * (terms["showdown"] - terms["public_chance"] - terms["public_action"])
    if p == 1.0:
        used -= {"chance", "action"}  # weight 0: the private estimate takes no part
    rows = []
    ratios = []
    reductions = []
    for spec in dict.fromkeys(lineup):
        members = [c for c in range(n) if lineup[c] == spec]
        scale = 1000.0 / cfg.big_blind / (len(members) * n)
        plain = result.group_net[:, members].sum(axis=1) * scale
        luck = adjusted[:, members].sum(axis=1) * scale
        mean, half = mean_ci95(plain.tolist())
        adj_mean, adj_half = mean_ci95(luck.tolist())
        rows.append(
            {
                "agent": spec,
                "mbb_per_hand": mean,
                "ci95": half,
                "adjusted_mbb_per_hand": adj_mean,
                "adjusted_ci95": adj_half,
            }
        )
        if adj_half > 0 and math.isfinite(half):
            ratios.append(half / adj_half)
            reductions.append(1.0 - (adj_half / half) ** 2 if half > 0 else 0.0)
    out: dict[str, Any] = {
        "rows": rows,
        "ci_ratio": min(ratios) if ratios else math.nan,
        "variance_reduction": min(reductions) if reductions else math.nan,
        "terms": "+".join(t for t in ("public", "showdown", "chance", "action") if t in used) or "none",
        "showdown_weight": w,
        "public_weight": p,
    }
    if per_group:
        out["adjusted_groups"] = (adjusted * (1000.0 / cfg.big_blind / n)).tolist()
    return out


def format_luck_adjusted(adjusted: dict[str, Any]) -> str:
    """The lines ``holdem eval --aivat`` prints under the match table."""
    names = {"public": "public", "showdown": "range showdown", "chance": "chance", "action": "action"}
    used = [names[t] for t in str(adjusted.get("terms", "")).split("+") if t in names]
    terms = (" and ".join([", ".join(used[:-1]), used[-1]]) if len(used) > 1 else "".join(used)) or "no"
    lines = [f"luck-adjusted (AIVAT-style {terms} terms; unbiased, same expectation):"]
    for row in adjusted["rows"]:
        lines.append(
            f"  {row['agent']}: {row['adjusted_mbb_per_hand']:+,.1f} +- {row['adjusted_ci95']:,.1f} mbb/hand "
            f"(plain {row['mbb_per_hand']:+,.1f} +- {row['ci95']:,.1f})"
        )
    reduction = 100 * adjusted["variance_reduction"]
    lines.append(f"  95% interval {adjusted['ci_ratio']:.2f}x narrower; variance reduced by {reduction:.0f}%")
    return "\n".join(lines)
