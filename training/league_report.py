"""The league's results: each round's aggregate, the final table ranked by the worst head-to-head
result, its text form and ``league.png``.

A mean over the league can be won by crushing one weak member (``random``) while losing to
every other agent; the worst head-to-head result cannot, so the table ranks by it and shows the
mean, the latest LBR, the HUD and the cross table beside it (:func:`format_league_table`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .config import LeagueConfig
from .stats import HudCounts

__all__ = ["LeagueResult", "choose_checkpoints", "format_league_table"]


@dataclass
class LeagueResult:
    """What a finished (or stopped) league run produced."""

    run_dir: Path
    rounds_done: int
    table: list[dict[str, Any]]
    pairs: list[dict[str, Any]]
    history: list[dict[str, Any]] = field(default_factory=list)
    lbr: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = True
    #: Each training agent's chosen checkpoint (:func:`choose_checkpoints`), by name.
    chosen: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json_dict(self) -> dict[str, Any]:
        """The content of ``league.json``."""
        return {
            "rounds": self.rounds_done, "table": self.table, "pairs": self.pairs, "history": self.history, "lbr": self.lbr,
            "chosen": self.chosen,
        }


def choose_checkpoints(
    config: LeagueConfig, history: Sequence[dict[str, Any]], lbr_history: Sequence[dict[str, Any]] = ()
) -> dict[str, dict[str, Any]]:
    """Each training agent's policy to keep, chosen from its evaluated rounds by robust criteria only:

    1. the exploiter gate: a round where no exploiter of ``league.exploiters`` beat it (interval
       wholly below zero) beats any round where one did;
    2. then exploitability, where ``lbr_history`` measured the round (``_log_lbr``'s rows): a round
       whose LBR is significantly above the agent's least exploitable measured round (its 95%
       interval wholly above that round's) is passed over for any round that is not;
    3. then the worst head-to-head result's lower 95% bound (``worst_mbb - worst_ci95``: the
       duplicate matches of ``league.eval_hands`` hands against every league member);
    4. then the later round.

    Never the learners' rolling pool estimates (a few hundred hands each, +-300-600 mbb/hand).
    Returns ``{agent: {"round", "gate_passed", "beaten_by", "worst_mbb", "worst_ci95", "worst_opponent",
    "lbr_mbb"}}`` (``lbr_mbb`` None where the round's LBR was not measured).

    >>> from holdem_env.training.config import LeagueConfig
    >>> cfg = LeagueConfig.from_dict({"name": "x", "agents": [{"name": "a", "spec": "random"},
    ...     {"name": "c", "spec": "cfr-lite", "train": True}], "league": {"exploiters": ["shover"]}})
    >>> row = lambda w, ci: {"agent": "c", "worst_mbb": w, "worst_ci95": ci, "worst_opponent": "a"}
    >>> hist = [{"round": 1, "agents": [row(900.0, 100.0)], "exploiters": [{"agent": "c", "exploiter": "shover", "beaten": True}]},
    ...         {"round": 2, "agents": [row(500.0, 450.0)], "exploiters": [{"agent": "c", "exploiter": "shover", "beaten": False}]},
    ...         {"round": 3, "agents": [row(400.0, 100.0)], "exploiters": [{"agent": "c", "exploiter": "shover", "beaten": False}]}]
    >>> choose_checkpoints(cfg, hist)["c"]["round"]  # round 1 failed the gate; round 3's bound (300) beats round 2's (50)
    3
    >>> lbr = [{"round": 2, "agent": "c", "lbr_mbb": 1500.0, "lbr_ci95": 300.0},
    ...        {"round": 3, "agent": "c", "lbr_mbb": 6000.0, "lbr_ci95": 800.0}]
    >>> choose_checkpoints(cfg, hist, lbr)["c"]["round"]  # round 3 is far more exploitable than round 2
    2
    """
    chosen: dict[str, dict[str, Any]] = {}
    for e in config.agents:
        if not e.train:
            continue
        lbr = {x["round"]: (float(x["lbr_mbb"]), float(x["lbr_ci95"])) for x in lbr_history if x["agent"] == e.name}
        ceiling = min((m + ci for m, ci in lbr.values()), default=float("inf"))  # the least exploitable round's upper bound
        best: tuple[Any, ...] | None = None
        for h in history:
            row = next((a for a in h["agents"] if a["agent"] == e.name), None)
            if row is None:
                continue
            beaten = sorted(g["exploiter"] for g in h.get("exploiters", []) if g["agent"] == e.name and g["beaten"])
            worst = row["worst_mbb"] if "worst_mbb" in row else row["mbb_per_hand"]
            ci = row["worst_ci95"] if "worst_ci95" in row else row["ci95"]
            measured = lbr.get(h["round"])
            not_worse = measured is None or measured[0] - measured[1] <= ceiling
            key = (not beaten, not_worse, worst - ci, h["round"])
            if best is None or key > best[0]:
                best = (key, {
                    "round": h["round"], "gate_passed": not beaten, "beaten_by": beaten, "worst_mbb": worst,
                    "worst_ci95": ci, "worst_opponent": row.get("worst_opponent", ""),
                    "lbr_mbb": None if measured is None else measured[0],
                })
        if best is not None:
            chosen[e.name] = best[1]
    return chosen


def _aggregate(config: LeagueConfig, round_no: int, pair_rows: list[tuple[str, str, list[dict[str, Any]]]]) -> dict[str, Any]:
    """One evaluation: per-pair results and per-agent means and HUD."""
    pairs = []
    per_agent: dict[str, list[float]] = {a.name: [] for a in config.agents}
    ci_agent: dict[str, list[float]] = {a.name: [] for a in config.agents}
    hud = {a.name: HudCounts() for a in config.agents}
    for a, b, rows in pair_rows:
        by_role = {r["role"]: r for r in rows}
        for me, other in ((a, b), (b, a)):
            r = by_role[me]
            pairs.append({"agent": me, "opponent": other, "mbb_per_hand": r["mbb_per_hand"], "ci95": r["ci95"], "hands": r["hands"]})
            per_agent[me].append(r["mbb_per_hand"])
            ci_agent[me].append(r["ci95"])
            if "hud_counts" in r:  # pooled counters: each statistic over all of the agent's chances
                hud[me].merge(HudCounts(**r["hud_counts"]))
    agents = []
    for e in config.agents:
        vals = per_agent[e.name]
        mean = float(np.mean(vals)) if vals else 0.0
        ci = float(math.sqrt(sum(c * c for c in ci_agent[e.name])) / len(vals)) if vals else 0.0
        h_out = hud[e.name].summary()
        mine = [p for p in pairs if p["agent"] == e.name and p["hands"] > 0]
        worst = min(mine, key=lambda p: (p["mbb_per_hand"], p["opponent"])) if mine else None
        agents.append({
            "agent": e.name,
            "spec": e.spec,
            "mbb_per_hand": mean,
            "ci95": ci,
            "worst_mbb": worst["mbb_per_hand"] if worst else 0.0,
            "worst_ci95": worst["ci95"] if worst else 0.0,
            "worst_opponent": worst["opponent"] if worst else "",
            "hud": h_out,
        })
    return {"round": round_no, "agents": agents, "pairs": pairs}


def format_league_table(result: LeagueResult) -> str:
    """The final league table as text: agents ranked by their worst head-to-head result, with the
    mean, the latest LBR and the HUD; then the cross table (row agent's result against each column)."""
    f = lambda v, pct=True: "-" if v is None else (f"{100 * v:.1f}" if pct else f"{v:.2f}")  # noqa: E731
    lines = [f"league table after {result.rounds_done} rounds ({result.run_dir}), ranked by the worst result", ""]
    lines.append(
        f"{'#':>2} {'agent':<16} {'worst':>9} {'±95%':>8} {'against':<16} {'mean':>9} {'LBR':>9} {'±95%':>7}"
        f" {'VPIP':>6} {'PFR':>6} {'AF':>6}"
    )
    for i, row in enumerate(result.table, 1):
        hud, lbr, lbr_ci = row["hud"], row.get("lbr_mbb"), row.get("lbr_ci95")
        lines.append(
            f"{i:>2} {row['agent']:<16} {row.get('worst_mbb', row['mbb_per_hand']):>9.1f} {row.get('worst_ci95', 0.0):>8.1f}"
            f" {row.get('worst_opponent', ''):<16} {row['mbb_per_hand']:>9.1f}"
            f" {'-' if lbr is None else f'{lbr:.0f}':>9} {'-' if lbr_ci is None else f'{lbr_ci:.0f}':>7}"
            f" {f(hud['vpip']):>6} {f(hud['pfr']):>6} {f(hud['af'], False):>6}"
        )
    names = [row["agent"] for row in result.table]
    cell = {(p["agent"], p["opponent"]): p for p in result.pairs}
    width = max([10, *(len(n) + 1 for n in names)])
    lines += ["", "cross table: mbb/hand of the row agent against the column agent (± 95%)", " " * 16 + "".join(f"{n:>{width}}" for n in names)]
    for a in names:
        found = [cell.get((a, b)) for b in names]
        means = ["-" if p is None else f"{p['mbb_per_hand']:+.0f}" for p in found]
        cis = ["" if p is None else f"±{p['ci95']:.0f}" for p in found]
        lines.append(f"{a:<16}" + "".join(f"{m:>{width}}" for m in means))
        lines.append(" " * 16 + "".join(f"{c:>{width}}" for c in cis))
    if result.chosen:
        lines += ["", "policies kept (exploiter gate first, then LBR where measured, then the worst head-to-head result's lower 95% bound):"]
        for name, c in result.chosen.items():
            gate = "gate passed" if c["gate_passed"] else "beaten by " + ", ".join(c["beaten_by"])
            lines.append(
                f"  {name:<16} round {c['round']}: {gate}; worst {c['worst_mbb']:+.1f} ± {c['worst_ci95']:.1f}"
                f" against {c['worst_opponent']}"
            )
    return "\n".join(lines)


def _plot(run_dir: Path, config: LeagueConfig, history: list[dict[str, Any]], lbr_history: Sequence[dict[str, Any]] = ()) -> None:
    """``league.png``: each agent's worst and mean result over the rounds, and a second panel with
    the LBR of the agents it was measured for (lower is better)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, ax_lbr) = plt.subplots(2, 1, figsize=(7, 7.4), sharex=True)
    xs = [h["round"] for h in history]
    for e in config.agents:
        rows = [next(a for a in h["agents"] if a["agent"] == e.name) for h in history]
        worst = np.array([r.get("worst_mbb", r["mbb_per_hand"]) for r in rows])
        ci = np.array([r.get("worst_ci95", r["ci95"]) for r in rows])
        (line,) = ax.plot(xs, worst, marker="o", label=f"{e.name} (worst)")
        ax.fill_between(xs, worst - ci, worst + ci, alpha=0.15, color=line.get_color())
        ax.plot(xs, [r["mbb_per_hand"] for r in rows], linestyle=":", color=line.get_color(), label=f"{e.name} (mean)")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_ylabel("mbb/hand: worst head-to-head, mean")
    ax.set_title(f"{config.name}: results over training")
    ax.legend(fontsize="small", ncol=2)
    measured = [e.name for e in config.agents if any(x["agent"] == e.name for x in lbr_history)]
    for name in measured:
        pts = [x for x in lbr_history if x["agent"] == name]
        ys = np.array([x["lbr_mbb"] for x in pts])
        ci = np.array([x["lbr_ci95"] for x in pts])
        rounds = [x["round"] for x in pts]
        ax_lbr.errorbar(rounds, ys, yerr=ci, marker="o", capsize=3, label=name)
    ax_lbr.set_ylabel("LBR mbb/hand (lower: harder to exploit)")
    if measured:
        ax_lbr.legend(fontsize="small")
    else:
        ax_lbr.text(0.5, 0.5, "LBR not measured (league.lbr_every: 0, or not heads-up)", ha="center", transform=ax_lbr.transAxes)
    ax_lbr.set_xlabel("league round")
    fig.tight_layout()
    tmp = run_dir / "league.png.tmp.png"
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    tmp.replace(run_dir / "league.png")


def _sorted_table(agents: Sequence[dict[str, Any]], lbr_history: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """The final table: each agent's row with its latest LBR (``lbr_mbb``/``lbr_ci95``, None where not
    measured), ranked by the worst head-to-head result (best first; ties by name).

    The worst result, not the mean: a mean over the league can be won by crushing one weak member
    (``random``) while losing to every other; the worst result cannot.
    """
    latest = {e["agent"]: e for e in lbr_history}  # in round order: the last one wins
    rows = []
    for a in agents:
        lbr = latest.get(a["agent"])
        rows.append({**a, "lbr_mbb": lbr["lbr_mbb"] if lbr else None, "lbr_ci95": lbr["lbr_ci95"] if lbr else None})
    return sorted(rows, key=lambda a: (-a.get("worst_mbb", a["mbb_per_hand"]), a["agent"]))
