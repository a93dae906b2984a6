"""Match statistics: the 95% interval math and the HUD definitions on scripted hands."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from holdem_env.engine.errors import HoldemError
from holdem_env.training.arena import ArenaConfig, run_match
from holdem_env.training.stats import Z95, HudCounts, hud_counts_for_hand, mean_ci95


def test_ci95_matches_a_direct_computation_on_a_fixed_sample() -> None:
    sample = [120.0, -340.5, 55.0, 0.0, 980.0, -410.0, 75.25, -12.0, 300.0, -1000.0]
    n = len(sample)
    mean = sum(sample) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in sample) / (n - 1))
    got_mean, half = mean_ci95(sample)
    assert got_mean == pytest.approx(mean)
    assert half == pytest.approx(1.959963984540054 * sd / math.sqrt(n))
    assert half == pytest.approx(Z95 * np.std(sample, ddof=1) / np.sqrt(n))
    assert mean_ci95([5.0]) == (5.0, math.inf)
    with pytest.raises(HoldemError, match="at least one sample"):
        mean_ci95([])


def test_arena_interval_is_computed_over_duplicate_groups() -> None:
    result = run_match(ArenaConfig(agents=("tag", "random"), hands=40, seed=8))
    per_group = result.group_net[:, 0] / 2 / 10 * 1000  # contestant 0 = tag, 2 hands a group, bb 10
    mean, half = mean_ci95(per_group.tolist())
    row = result.rows[0]
    assert row["agent"] == "tag" and row["hands"] == 40
    assert row["mbb_per_hand"] == pytest.approx(mean)
    assert row["ci95"] == pytest.approx(half)
    assert row["bb_per_100"] == pytest.approx(mean / 10)
    assert result.group_net.shape == (20, 2)
    assert (result.group_net.sum(axis=1) == 0).all()


def _ev(seat: int, street: int, kind: str, timeout: bool = False) -> SimpleNamespace:
    return SimpleNamespace(seat=seat, street=street, kind=kind, to=0, all_in=False, timeout=timeout)


def _record(events, board_len: int, winners, dealt=(True, True, True, True)) -> SimpleNamespace:
    return SimpleNamespace(
        events=tuple(events),
        dealt_in=dealt,
        board=tuple(range(board_len)),
        pots=(SimpleNamespace(winners=tuple(winners)),),
    )


def test_hud_definitions_on_a_scripted_three_bet_pot() -> None:
    # Seat 3 opens, seat 0 three-bets, seat 1 folds, seat 2 (big blind) folds, seat 3 calls.
    # Flop: 0 bets, 3 calls. Turn: 0 bets, 3 raises, 0 calls. River: check, check. Seat 3 wins.
    events = [
        _ev(3, 0, "raise"), _ev(0, 0, "raise"), _ev(1, 0, "fold"), _ev(2, 0, "fold"), _ev(3, 0, "call"),
        SimpleNamespace(street=1, cards=(1, 2, 3), burn=0),  # a deal event: no seat, ignored
        _ev(0, 1, "bet"), _ev(3, 1, "call"),
        _ev(0, 2, "bet"), _ev(3, 2, "raise"), _ev(0, 2, "call"),
        _ev(0, 3, "check"), _ev(3, 3, "check"),
    ]
    counts = hud_counts_for_hand(_record(events, 5, winners=[3]))
    s0, s1, s2, s3 = (counts[i] for i in range(4))
    assert (s0.vpip, s0.pfr, s1.vpip, s2.vpip, s3.vpip, s3.pfr) == (1, 1, 0, 0, 1, 1)
    # A 3-bet chance is acting while facing exactly one raise: only seat 0 (1 and 2 faced
    # the 3-bet, seat 3 opened).
    assert (s0.three_bet_chances, s0.three_bets) == (1, 1)
    assert (s1.three_bet_chances, s2.three_bet_chances, s3.three_bet_chances) == (0, 0, 0)
    assert (s0.postflop_aggressive, s0.postflop_calls) == (2, 1)
    assert (s3.postflop_aggressive, s3.postflop_calls) == (1, 1)
    assert (s0.saw_flop, s0.showdowns, s0.showdowns_won) == (1, 1, 0)
    assert (s3.saw_flop, s3.showdowns, s3.showdowns_won) == (1, 1, 1)
    assert (s1.saw_flop, s1.showdowns) == (0, 0)
    total = HudCounts()
    for c in counts.values():
        total.merge(c)
    summary = total.summary()
    assert summary["vpip"] == pytest.approx(2 / 4)
    assert summary["three_bet"] == pytest.approx(1.0)
    assert summary["af"] == pytest.approx(3 / 2)
    assert summary["wtsd"] == pytest.approx(1.0)
    assert summary["wsd"] == pytest.approx(0.5)


def test_hud_no_showdown_when_everyone_folds_and_timeouts_are_counted() -> None:
    events = [_ev(2, 0, "raise"), _ev(0, 0, "fold", timeout=True), _ev(1, 0, "fold")]
    counts = hud_counts_for_hand(_record(events, 0, winners=[2], dealt=(True, True, True)))
    assert counts[2].pfr == 1 and counts[2].saw_flop == 0 and counts[2].showdowns == 0
    assert counts[0].timeouts == 1 and counts[0].vpip == 0
    assert HudCounts().summary()["af"] is None  # undefined, not zero


def test_big_blind_check_is_not_vpip_and_limp_is() -> None:
    events = [_ev(0, 0, "call"), _ev(1, 0, "check"), _ev(1, 1, "check"), _ev(0, 1, "bet"), _ev(1, 1, "fold")]
    counts = hud_counts_for_hand(_record(events, 3, winners=[0], dealt=(True, True)))
    assert (counts[0].vpip, counts[0].pfr, counts[1].vpip) == (1, 0, 0)
    assert counts[0].saw_flop == counts[1].saw_flop == 1
    assert counts[0].showdowns == 0
