"""Luck adjustment (holdem_env.training.aivat): every correction has mean zero, so the estimate is unbiased."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from holdem_env.engine.cards import parse_cards
from holdem_env.engine.equity import exact_equity
from holdem_env.engine.errors import ConfigError
from holdem_env.training.aivat import _flop_lead, _mean_flop_lead, chance_corrections, luck_adjusted
from holdem_env.training.arena import ArenaConfig, run_match
from holdem_env.training.stats import mean_ci95


def test_the_turn_term_has_mean_zero_over_every_turn_card() -> None:
    holes = [parse_cards("Ah Kh"), parse_cards("9c 9d")]
    flop = list(parse_cards("Qh 7h 2s"))
    before = exact_equity(holes, flop)
    rest = [c for c in range(52) if c not in flop and c not in holes[0] + holes[1]]
    after = np.mean([exact_equity(holes, flop + [c]) for c in rest], axis=0)
    assert np.allclose(after, before, atol=1e-12)


def test_the_flop_term_has_mean_zero_over_every_flop() -> None:
    holes = [parse_cards("Ah Kh"), parse_cards("9c 9d")]
    rest = [c for c in range(52) if c not in holes[0] + holes[1]]
    leads = [_flop_lead(holes, f) for f in itertools.combinations(rest, 3)]
    assert len(leads) == 17296
    assert _mean_flop_lead(holes) == pytest.approx(float(np.mean(leads)), abs=1e-12)
    assert _flop_lead(holes, parse_cards("Ac 5d 3s")) == 1.0  # a pair of aces beats nines
    assert _flop_lead(holes, parse_cards("9h 5d 3s")) == 0.0  # a set of nines


def test_corrections_sum_to_zero_and_vanish_without_a_flop() -> None:
    result = run_match(ArenaConfig(agents=("random", "tag"), players=2, hands=40, seed=2, workers=1), keep_records=True)
    saw_turn = 0
    for record in result.records:
        corr = chance_corrections(record)
        assert corr.sum() == pytest.approx(0.0, abs=1e-9)
        if not record.board:
            assert np.all(corr == 0.0)
        saw_turn += len(record.board) >= 4 and bool(np.any(corr != 0.0))
    assert saw_turn > 0


def test_adjusted_mean_agrees_with_plain_duplicate_within_the_interval() -> None:
    cfg = ArenaConfig(agents=("random", "tag"), players=2, hands=400, seed=11, workers=1)
    result = run_match(cfg, keep_records=True)
    out = luck_adjusted(result)
    row = out["rows"][0]
    # The per-group difference between the two estimates is the corrections' sum: mean zero.
    diffs = []
    for g in range(result.group_net.shape[0]):
        total = 0.0
        for rotation in range(2):
            record = result.records[2 * g + rotation]
            total += chance_corrections(record)[rotation]  # contestant 0 sits at seat `rotation`
        diffs.append(total * 1000.0 / result.config.big_blind / 2)
    mean, half = mean_ci95(diffs)
    assert abs(mean) <= half
    assert row["mbb_per_hand"] - row["adjusted_mbb_per_hand"] == pytest.approx(mean, abs=1e-6)
    assert abs(row["mbb_per_hand"] - row["adjusted_mbb_per_hand"]) <= row["ci95"]
    assert out["variance_reduction"] > 0.0  # random goes to showdown a lot: board luck is a large share


def test_only_heads_up_matches_with_records() -> None:
    result = run_match(ArenaConfig(agents=("random", "random", "random"), players=3, hands=3, seed=1, workers=1))
    with pytest.raises(ConfigError, match="heads-up"):
        luck_adjusted(result)
    result = run_match(ArenaConfig(agents=("random", "tag"), players=2, hands=4, seed=1, workers=1))
    with pytest.raises(ConfigError, match="keep_records=True"):
        luck_adjusted(result)
