"""What the league plays to judge its agents: every pair's duplicate match, LBR, and the exploiter gate.

Each function runs the round's matches of :mod:`holdem_env.training.league` for one kind of
measurement, with seeds derived from the config's seed and the round (never from scheduling),
on the run's backend; the training agents play their policy file of that round.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.agents.base import make_agent, parse_spec
from holdem_env.agents.ranges import supports_range_queries
from holdem_env.training.arena import ArenaConfig, run_match
from holdem_env.training.lbr import LbrConfig, _play_deals, _summary
from holdem_env.training.torch_settings import torch_settings

from .config import LeagueConfig
from .league_report import _aggregate

__all__: list[str] = []

#: The league's LBR matches re-score each hand with AIVAT from this street on
#: (:mod:`holdem_env.training.aivat.lbr`): the logged ``lbr_mbb`` is that estimate (the same
#: expected value, a narrower interval), ``lbr_plain_mbb`` the plain mean of the same hands.
LBR_AIVAT = "flop"


def _seed(config: LeagueConfig, *key: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(config.seed, spawn_key=tuple(key))


def _int_seed(config: LeagueConfig, *key: int) -> int:
    return int(_seed(config, *key).generate_state(1, dtype=np.uint32)[0])


def _lbr_members(config: LeagueConfig) -> list[str]:
    """Agents whose LBR the league logs: heads-up, ``lbr_every`` > 0, and range queries answered."""
    if not config.league.lbr_every or config.table.num_players != 2:
        return []
    return [e.name for e in config.agents if supports_range_queries(make_agent(e.spec))]


def _lbr_job(job: tuple[LbrConfig, list[int]]) -> list[tuple[int, int, int, float, float]]:
    """One chunk of an LBR match's duplicate deals (:func:`holdem_env.training.lbr._play_deals`),
    torch on one thread as in ``holdem lbr``'s workers."""
    cfg, deals = job
    with torch_settings(threads=1):
        return _play_deals(cfg, deals)


def _lbr_chunks(deals: int, parts: int) -> list[list[int]]:
    """Deals ``0 .. deals-1`` split into at most ``parts`` consecutive chunks of nearly equal size.

    >>> _lbr_chunks(5, 2)
    [[0, 1], [2, 3, 4]]
    """
    parts = max(1, min(parts, deals))
    bounds = np.linspace(0, deals, parts + 1).round().astype(int)
    return [list(range(int(a), int(b))) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


def _log_lbr(
    config: LeagueConfig, round_no: int, run_dir: Path, trainers: dict[str, Any], writer: Any, backend: Any = None,
    starts: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """LBR of each member of :func:`_lbr_members`, playing its policy of this round: logged, and
    returned as ``[{"round", "agent", "lbr_mbb", "lbr_ci95", "lbr_plain_mbb", "lbr_plain_ci95",
    "hands"}, ...]`` (``lbr_mbb``: the AIVAT estimate, :data:`LBR_AIVAT`).

    ``starts``: training agents whose starting policy (``policies/<agent>/round_0000``, written
    before their first round) is measured too, as round 0, in the same map.

    Every member's deals are split into chunks played on ``backend``'s workers (all members in one
    map); the deals are seeded by (seed, deal) alone, so the result is :func:`run_lbr`'s to the
    bit whatever the number of workers."""
    members = set(_lbr_members(config))
    t = config.table
    cfgs: list[tuple[str, int, LbrConfig]] = []
    for i, e in enumerate(config.agents):
        rounds = [0] if e.name in starts and e.name in members else []
        if e.name in members and (e.train or round_no == config.league.rounds):
            rounds.append(round_no)  # an agent that does not train plays the same every round: measured after the last
        for rnd in rounds:
            cfg = LbrConfig(
                agent=_round_spec(e, trainers.get(e.name), run_dir, rnd),
                hands=config.league.lbr_hands,
                seed=_int_seed(config, 3, i, rnd),
                small_blind=t.small_blind,
                big_blind=t.big_blind,
                stack=t.buy_in,
                aivat=LBR_AIVAT,
            )
            cfgs.append((e.name, rnd, cfg))
    workers = getattr(backend, "workers", 1) if backend is not None else 1
    jobs = [(cfg, chunk) for _, _, cfg in cfgs for chunk in _lbr_chunks(cfg.deals, 2 * workers)]
    done = backend.map(_lbr_job, jobs) if backend is not None else [_lbr_job(j) for j in jobs]
    out = []
    for name, rnd, cfg in cfgs:
        rows = np.zeros((cfg.deals, 4))
        for (job_cfg, _), part in zip(jobs, done, strict=True):
            if job_cfg is cfg:
                for deal, *chips in part:
                    rows[deal] = chips
        plain, plain_half = _summary(cfg, rows)
        mean, half = _summary(cfg, rows[:, 2:])
        writer.add_scalar(f"eval/{name}/lbr_mbb", mean, rnd)
        writer.add_scalar(f"eval/{name}/lbr_ci95", half, rnd)
        writer.add_scalar(f"eval/{name}/lbr_plain_mbb", plain, rnd)
        writer.add_scalar(f"eval/{name}/lbr_plain_ci95", plain_half, rnd)
        out.append({
            "round": rnd, "agent": name, "lbr_mbb": mean, "lbr_ci95": half, "lbr_plain_mbb": plain,
            "lbr_plain_ci95": plain_half, "hands": 2 * cfg.deals,
        })
    return sorted(out, key=lambda x: x["round"])  # round 0 first: the table's "latest" is the last


def _ppo_spec(entry: Any, policy_path: Path) -> str:
    """The spec a training ppo agent plays: its policy file, with the entry's other arguments."""
    kwargs = {**parse_spec(entry.spec).kwargs, "policy": str(policy_path)}
    return "holdem_env.agents.ppo:PpoAgent(" + ", ".join(f"{k}={v!r}" for k, v in kwargs.items()) + ")"


def _spec_for(entry: Any, policy_path: Path | None) -> str:
    """The spec a league member plays: a training agent plays ``policy_path`` with its own keyword
    arguments (``cfr-lite(threshold=0.3)`` keeps its threshold)."""
    if policy_path is None:
        return entry.spec
    kwargs = {**parse_spec(entry.spec).kwargs, "policy": str(policy_path)}
    args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
    return f"holdem_env.agents.cfr_lite:CfrLiteAgent({args})"


def _round_spec(entry: Any, trainer: Any, run_dir: Path, round_no: int) -> str:
    """The spec ``entry`` plays in round ``round_no``: a training agent (``trainer`` not None) its
    policy file of that round (``.pt`` for ppo, ``.npz`` for cfr-lite), any other its own spec."""
    if trainer is None:
        return _spec_for(entry, None)
    suffix = getattr(trainer, "policy_suffix", ".npz")
    path = run_dir / "policies" / entry.name / f"round_{round_no:04d}{suffix}"
    return _ppo_spec(entry, path) if suffix == ".pt" else _spec_for(entry, path)


def _eval_job(job: dict[str, Any]) -> list[dict[str, Any]]:
    cfg = ArenaConfig(**job)
    return run_match(cfg).rows


def _evaluate(
    config: LeagueConfig,
    round_no: int,
    backend: Any,
    trainers: dict[str, Any],
    run_dir: Path,
    fixed_rows: dict[tuple[str, str], list[dict[str, Any]]],
) -> dict[str, Any]:
    """Every pair's duplicate match of round ``round_no``, aggregated (:func:`_aggregate`).

    A pair of agents that both do not train plays the same match in every round (its seed
    leaves the round out), so it is played once per session and its rows are kept in
    ``fixed_rows``; a resumed run plays it again and gets the same rows.
    """
    entries = list(config.agents)
    specs = {e.name: _round_spec(e, trainers.get(e.name), run_dir, round_no) for e in entries}
    t = config.table
    jobs: list[dict[str, Any]] = []
    pairs: list[tuple[str, str]] = []
    fixed: list[bool] = []  # neither agent trains
    for i, first in enumerate(entries):
        for j in range(i + 1, len(entries)):
            second = entries[j]
            pairs.append((first.name, second.name))
            fixed.append(not first.train and not second.train)
            jobs.append({
                "agents": (specs[first.name], specs[second.name]),
                "players": t.num_players,
                "hands": config.league.eval_hands,
                "seed": _int_seed(config, 2, i, j, 0 if fixed[-1] else round_no),
                "workers": 1,
                "small_blind": t.small_blind,
                "big_blind": t.big_blind,
                "buy_in": t.buy_in,
                "betting": t.betting.value,
                "isolate_agents": config.league.isolate_agents,
            })
    runnable = [k for k, job in enumerate(jobs) if job["agents"][0] != job["agents"][1] and pairs[k] not in fixed_rows]
    if len(runnable) == 1:
        jobs[runnable[0]]["workers"] = backend.workers  # one match: let the arena use every core
    outputs = backend.map(_eval_job, [jobs[k] for k in runnable])
    for k, rows in zip(runnable, outputs, strict=True):
        if fixed[k]:
            fixed_rows[pairs[k]] = copy.deepcopy(rows)
    rows_by_pair: list[tuple[str, str, list[dict[str, Any]]]] = []
    for k, (a, b) in enumerate(pairs):
        if k in runnable or pairs[k] in fixed_rows:
            rows = outputs[runnable.index(k)] if k in runnable else copy.deepcopy(fixed_rows[pairs[k]])
            sa, sb = jobs[k]["agents"]
            for row in rows:
                row["role"] = a if row["agent"] == sa else b
        else:  # identical specs: a duplicate match between copies breaks even by construction
            zero = {"mbb_per_hand": 0.0, "ci95": 0.0, "hands": 0, "stats": {}}
            rows = [{**zero, "role": a}, {**zero, "role": b}]
        rows_by_pair.append((a, b, rows))
    return _aggregate(config, round_no, rows_by_pair)


def _exploiter_gate(
    config: LeagueConfig, round_no: int, backend: Any, trainers: dict[str, Any], run_dir: Path
) -> list[dict[str, Any]]:
    """Each training agent's duplicate match against each of ``league.exploiters`` this round:
    ``[{"agent", "exploiter", "mbb_per_hand", "ci95", "beaten"}, ...]`` (``beaten``: the agent's
    interval lies wholly below zero)."""
    t = config.table
    jobs, keys = [], []
    for i, e in enumerate(config.agents):
        if not e.train:
            continue
        spec = _round_spec(e, trainers[e.name], run_dir, round_no)
        for j, exploiter in enumerate(config.league.exploiters):
            agents = (spec, exploiter) if t.num_players == 2 else (exploiter, *([spec] * (t.num_players - 1)))
            jobs.append({
                "agents": agents, "players": t.num_players, "hands": config.league.exploiter_hands,
                "seed": _int_seed(config, 4, i, j, round_no), "workers": 1, "small_blind": t.small_blind,
                "big_blind": t.big_blind, "buy_in": t.buy_in, "betting": t.betting.value,
                "isolate_agents": config.league.isolate_agents,
            })
            keys.append((e.name, exploiter, spec))
    out = []
    for (name, exploiter, spec), rows in zip(keys, backend.map(_eval_job, jobs), strict=True):
        row = next(r for r in rows if r["agent"] == spec)
        out.append({
            "agent": name, "exploiter": exploiter, "mbb_per_hand": row["mbb_per_hand"], "ci95": row["ci95"],
            "beaten": row["mbb_per_hand"] + row["ci95"] < 0,
        })
    return out
