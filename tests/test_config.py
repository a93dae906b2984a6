"""docs/RULES.md "Table": the configuration and its validation (ConfigError names the field)."""

from __future__ import annotations

import pytest

from holdem_env.engine.config import BettingStructure, TableConfig
from holdem_env.engine.errors import ConfigError


def test_free_play_defaults_six_players_blinds_5_10_buy_in_1000() -> None:
    cfg = TableConfig.preset("free-play")
    assert (cfg.num_players, cfg.small_blind, cfg.big_blind, cfg.buy_in) == (6, 5, 10, 1000)
    assert cfg.betting is BettingStructure.NO_LIMIT and cfg.ante == 0
    assert cfg == TableConfig()


def test_fifty_big_blind_preset_big_blind_is_one_fiftieth_of_buy_in() -> None:
    cfg = TableConfig.preset("50bb", num_players=2)
    assert cfg.buy_in == 50 * cfg.big_blind and cfg.num_players == 2


@pytest.mark.parametrize(
    ("kwargs", "field", "fragment"),
    [
        ({"num_players": 1}, "num_players", "must be an integer in 2..10"),
        ({"num_players": 11}, "num_players", "must be an integer in 2..10"),
        ({"big_blind": 0}, "big_blind", "must be an integer number of chips >= 1"),
        ({"small_blind": -1}, "small_blind", "must be an integer number of chips >= 0"),
        ({"small_blind": 20, "big_blind": 10}, "small_blind", "must be <= big_blind (10)"),
        ({"ante": -5}, "ante", "must be an integer number of chips >= 0"),
        ({"buy_in": 0}, "buy_in", "must be an integer number of chips >= 1"),
        ({"buy_in": 100.5}, "buy_in", "must be an integer number of chips"),
        ({"big_blind": True}, "big_blind", "must be an integer number of chips"),
        ({"betting": "spread-limit"}, "betting", "'no-limit', 'pot-limit', 'fixed-limit'"),
        ({"raise_cap": 0}, "raise_cap", "must be an integer >= 1"),
        ({"clock_seconds": 0}, "clock_seconds", "positive number of seconds"),
        ({"allow_free_fold": "yes"}, "allow_free_fold", "must be True or False"),
    ],
)
def test_out_of_range_config_is_a_config_error_naming_the_field(kwargs: dict, field: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        TableConfig(**kwargs)
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}=") and fragment in str(info.value)


def test_chips_are_integers_everywhere_floats_rejected_numpy_integers_accepted() -> None:
    import numpy as np

    with pytest.raises(ConfigError, match="integer number of chips"):
        TableConfig(small_blind=2.5)
    cfg = TableConfig(big_blind=np.int64(20), buy_in=np.int32(2000))
    assert type(cfg.big_blind) is int and type(cfg.buy_in) is int and cfg.big_blind == 20


def test_betting_structure_accepts_strings_and_enum() -> None:
    assert TableConfig(betting="pot_limit").betting is BettingStructure.POT_LIMIT
    assert TableConfig(betting=BettingStructure.FIXED_LIMIT).betting is BettingStructure.FIXED_LIMIT


def test_config_dict_round_trip_and_unknown_key_named() -> None:
    cfg = TableConfig(num_players=3, ante=2, betting="fixed-limit")
    assert TableConfig.from_dict(cfg.to_dict()) == cfg
    with pytest.raises(ConfigError, match="blinds=.*unknown table setting"):
        TableConfig.from_dict({"blinds": 5})
