"""Lower-variance head-to-head results: AIVAT-style chance-node control variates for heads-up hands.

AIVAT (Burch, Schmid, Moravcik, Morrill & Bowling, 2018) subtracts from each hand's
winnings, at every chance event, the value the event added beyond its expectation. With
both players' cards known after the hand, the value used here is the seat's share of a
pot of ``P`` chips:

- when the turn or river card is dealt, ``P * (equity after the card - equity before
  it)``, both equities exact (every run-out enumerated);
- when the flop is dealt, ``P * (lead on the flop - its mean over every flop)``, where the
  lead is 1, 1/2 or 0 as the seat's five cards beat, tie or lose to the other's (exact
  preflop equity would need 1.7 million run-outs per hand; the lead's mean needs 17,296
  flops).

The deal is uniform over the unseen cards and each term's mean over the deal is computed
exactly, so every correction has expectation zero whatever the players do: the corrected
result is an unbiased estimate of the same expected winnings with much of the board's
luck taken out. Duplicate deals already cancel most hole-card luck. The action terms of
full AIVAT (the players' own randomisation, from their range answers) are not applied.

:func:`chance_corrections` works on a finished :class:`~holdem_env.engine.record.HandRecord`;
:func:`luck_adjusted` re-scores a heads-up :class:`~holdem_env.training.arena.MatchResult`
kept with its records (``holdem eval --aivat``).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from holdem_env.engine.actions import Street
from holdem_env.engine.equity import exact_equity
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.record import ActionEvent, DealEvent, UncalledBetReturned
from holdem_env.training.stats import mean_ci95

__all__ = ["chance_corrections", "luck_adjusted", "format_luck_adjusted"]


def chance_corrections(record: Any) -> np.ndarray:
    """Per-seat chip corrections of a finished heads-up hand (they sum to zero).

    ``payoffs - chance_corrections(record)`` is the luck-adjusted result. Hands that end
    before the turn get zeros. Raises :class:`ConfigError` for other than two players.
    """
    seats = [s for s, d in enumerate(record.dealt_in) if d]
    if len(seats) != 2:
        raise ConfigError("players", len(seats), "luck adjustment is for heads-up hands: exactly 2 dealt in")
    out = np.zeros(len(record.dealt_in))
    contributed = np.array(record.blinds, dtype=np.int64) + np.array(record.antes, dtype=np.int64)
    holes = [tuple(record.hole_cards[s]) for s in seats]
    board: list[int] = []
    for event in record.events:
        if isinstance(event, ActionEvent):
            contributed[event.seat] += event.amount
        elif isinstance(event, UncalledBetReturned):
            contributed[event.seat] -= event.amount
        elif isinstance(event, DealEvent):
            if event.street == Street.FLOP:
                pot = float(contributed.sum())
                ahead = _flop_lead(holes, tuple(event.cards))
                mean = _mean_flop_lead(holes)
                for k, s in enumerate(seats):
                    out[s] = out[s] + pot * ((ahead if k == 0 else 1.0 - ahead) - (mean if k == 0 else 1.0 - mean))
            elif event.street in (Street.TURN, Street.RIVER):
                before = exact_equity(holes, board)
                after = exact_equity(holes, board + list(event.cards))
                pot = float(contributed.sum())
                for k, s in enumerate(seats):
                    out[s] = out[s] + pot * (after[k] - before[k])
            board.extend(event.cards)
    return out


def _flop_lead(holes: list[tuple[int, ...]], flop: tuple[int, ...]) -> float:
    """1 if the first hand's five cards with the flop beat the second's, 0.5 on a tie, else 0."""
    cards = np.array([holes[0] + flop, holes[1] + flop], dtype=np.int64)
    a, b = evaluate_batch(cards)
    return 1.0 if a > b else 0.5 if a == b else 0.0


def _mean_flop_lead(holes: list[tuple[int, ...]]) -> float:
    """:func:`_flop_lead` averaged over every flop the two hands allow (exact)."""
    rest = [c for c in range(52) if c not in holes[0] and c not in holes[1]]
    flops = np.array(list(itertools.combinations(rest, 3)), dtype=np.int64)
    n = len(flops)
    a, b = (
        evaluate_batch(np.concatenate([np.broadcast_to(h, (n, 2)), flops], axis=1).astype(np.uint8), validate=False)
        for h in holes
    )
    return float(((a > b) + 0.5 * (a == b)).mean())


def luck_adjusted(result: Any) -> dict[str, Any]:
    """Plain and luck-adjusted results of a heads-up match kept with its records.

    Returns ``{"rows": [{"agent", "mbb_per_hand", "ci95", "adjusted_mbb_per_hand",
    "adjusted_ci95"}, ...], "ci_ratio": plain / adjusted half-width, "variance_reduction":
    1 - adjusted variance / plain variance}``, one sample per duplicate group as in the
    arena. Raises :class:`ConfigError` unless the match is heads-up and has its records
    (``run_match(..., keep_records=True)``).
    """
    cfg = result.config
    n = int(cfg.players)
    if n != 2:
        raise ConfigError("players", n, "--aivat needs a heads-up match (2 players)")
    groups = result.group_net.shape[0]
    if len(result.records) != groups * n:
        raise ConfigError("records", len(result.records), f"must hold every hand ({groups * n}): keep_records=True")
    adjusted = np.zeros((groups, n))
    for g in range(groups):
        for rotation in range(n):
            record = result.records[g * n + rotation]
            corr = chance_corrections(record)
            for seat in range(n):
                contestant = (seat + rotation) % n
                adjusted[g, contestant] += record.payoffs[seat] - corr[seat]
    from holdem_env.training.arena import lineup_of

    lineup = lineup_of(cfg.agents, n)
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
        rows.append({
            "agent": spec,
            "mbb_per_hand": mean,
            "ci95": half,
            "adjusted_mbb_per_hand": adj_mean,
            "adjusted_ci95": adj_half,
        })
        if adj_half > 0 and math.isfinite(half):
            ratios.append(half / adj_half)
            reductions.append(1.0 - (adj_half / half) ** 2 if half > 0 else 0.0)
    return {
        "rows": rows,
        "ci_ratio": min(ratios) if ratios else math.nan,
        "variance_reduction": min(reductions) if reductions else math.nan,
    }


def format_luck_adjusted(adjusted: dict[str, Any]) -> str:
    """The lines ``holdem eval --aivat`` prints under the match table."""
    lines = ["luck-adjusted (AIVAT-style chance terms; unbiased, same expectation):"]
    for row in adjusted["rows"]:
        lines.append(
            f"  {row['agent']}: {row['adjusted_mbb_per_hand']:+,.1f} +- {row['adjusted_ci95']:,.1f} mbb/hand "
            f"(plain {row['mbb_per_hand']:+,.1f} +- {row['ci95']:,.1f})"
        )
    reduction = 100 * adjusted["variance_reduction"]
    lines.append(f"  95% interval {adjusted['ci_ratio']:.2f}x narrower; variance reduced by {reduction:.0f}%")
    return "\n".join(lines)
