"""The league logs ``eval/<A>/lbr_mbb`` every ``lbr_every`` rounds for agents that answer range queries."""

from __future__ import annotations

from pathlib import Path

import pytest

from holdem_env.engine.errors import ConfigError
from holdem_env.training.config import LeagueConfig, load_config

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def test_league_logs_lbr_of_agents_that_answer_range_queries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from holdem_env.training.league import run_league, scalar_names

    monkeypatch.setenv("HOLDEM_ENV_CACHE", str(tmp_path / "cache"))
    data = load_config(CONFIGS / "tiny.yaml").to_dict()
    data["logging"]["runs_dir"] = str(tmp_path / "runs")
    data["logging"]["plot"] = False
    data["league"].update(rounds=3, eval_hands=4, lbr_every=2, lbr_hands=2)
    cfg = LeagueConfig.from_dict(data)
    expected = {f"eval/{a}/{s}" for a in ("random", "tag", "cfr") for s in ("lbr_mbb", "lbr_ci95")}
    assert expected <= set(scalar_names(cfg))
    result = run_league(cfg)
    ea = EventAccumulator(str(result.run_dir), size_guidance={"scalars": 0})
    ea.Reload()
    for tag in expected:
        if tag.endswith("lbr_mbb"):
            assert [e.step for e in ea.Scalars(tag)] == [2, 3]  # every 2 rounds, and after the last


def test_lbr_settings_are_validated() -> None:
    data = load_config(CONFIGS / "tiny.yaml").to_dict()
    data["league"]["lbr_every"] = -1
    with pytest.raises(ConfigError, match="league.lbr_every"):
        LeagueConfig.from_dict(data)
