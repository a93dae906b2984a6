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
        if tag.endswith("lbr_mbb"):  # the learner every 2 rounds and after the last; fixed agents once, at the end
            assert [e.step for e in ea.Scalars(tag)] == ([2, 3] if tag.startswith("eval/cfr/") else [3])


def test_lbr_settings_are_validated() -> None:
    data = load_config(CONFIGS / "tiny.yaml").to_dict()
    data["league"]["lbr_every"] = -1
    with pytest.raises(ConfigError, match="league.lbr_every"):
        LeagueConfig.from_dict(data)


def test_the_table_ranks_by_the_worst_result_not_the_mean() -> None:
    """A hand-computed league of three: ``crusher`` wins +5,000 against random and loses -300 to
    tag (mean +2,350, the best mean); tag beats both (worst +100). Ranked by the mean, crusher
    would lead; ranked by the worst result, tag leads, crusher is second (-300), random last."""
    from types import SimpleNamespace

    from holdem_env.training.league_report import LeagueResult, _aggregate, _sorted_table, format_league_table

    config = SimpleNamespace(agents=[SimpleNamespace(name=n, spec=n) for n in ("crusher", "tag", "random")])

    def rows(a: str, b: str, a_result: float, ci: float = 50.0) -> tuple[str, str, list[dict]]:
        return a, b, [
            {"role": a, "mbb_per_hand": a_result, "ci95": ci, "hands": 1000},
            {"role": b, "mbb_per_hand": -a_result, "ci95": ci, "hands": 1000},
        ]

    evaluation = _aggregate(
        config, 1, [rows("crusher", "random", 5000.0), rows("crusher", "tag", -300.0), rows("tag", "random", 100.0)]  # type: ignore[arg-type]
    )
    by_name = {a["agent"]: a for a in evaluation["agents"]}
    assert by_name["crusher"]["mbb_per_hand"] == 2350.0
    assert (by_name["crusher"]["worst_mbb"], by_name["crusher"]["worst_opponent"]) == (-300.0, "tag")
    assert (by_name["tag"]["worst_mbb"], by_name["tag"]["worst_opponent"]) == (100.0, "random")
    lbr = [
        {"round": 1, "agent": "tag", "lbr_mbb": 3000.0, "lbr_ci95": 300.0},
        {"round": 2, "agent": "tag", "lbr_mbb": 2900.0, "lbr_ci95": 280.0},
    ]
    table = _sorted_table(evaluation["agents"], lbr)
    assert [r["agent"] for r in table] == ["tag", "crusher", "random"]
    assert table[0]["lbr_mbb"] == 2900.0 and table[1]["lbr_mbb"] is None  # the latest measurement
    text = format_league_table(LeagueResult(Path("runs/x"), 2, table, evaluation["pairs"], [evaluation], lbr))
    assert "ranked by the worst result" in text and "cross table" in text
    crusher_line = next(line for line in text.splitlines() if line.startswith("crusher "))
    assert crusher_line.split()[1:4] == ["-300", "-", "+5000"]  # against tag, itself, random (the ranking order)


def test_league_keeps_lbr_and_the_exploiter_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A training agent's LBR and its exploiter-gate results are logged, kept in ``league.json``
    and drawn; the final table carries the latest LBR."""
    import json

    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from holdem_env.training.league import run_league, scalar_names

    monkeypatch.setenv("HOLDEM_ENV_CACHE", str(tmp_path / "cache"))
    data = load_config(CONFIGS / "tiny.yaml").to_dict()
    data["logging"]["runs_dir"] = str(tmp_path / "runs")
    data["league"].update(rounds=2, eval_hands=4, lbr_every=1, lbr_hands=2, exploiters=["min-raiser", "shover"], exploiter_hands=4)
    cfg = LeagueConfig.from_dict(data)
    assert "exploit/cfr/shover/mbb_per_hand" in scalar_names(cfg)
    result = run_league(cfg)
    saved = json.loads((result.run_dir / "league.json").read_text())
    assert [(e["round"], e["agent"]) for e in saved["lbr"] if e["agent"] == "cfr"] == [(1, "cfr"), (2, "cfr")]
    gate = saved["history"][-1]["exploiters"]
    assert {(g["agent"], g["exploiter"]) for g in gate} == {("cfr", "min-raiser"), ("cfr", "shover")}
    row = next(r for r in saved["table"] if r["agent"] == "cfr")
    assert row["lbr_mbb"] == next(e["lbr_mbb"] for e in reversed(saved["lbr"]) if e["agent"] == "cfr")
    ea = EventAccumulator(str(result.run_dir), size_guidance={"scalars": 0})
    ea.Reload()
    assert [e.step for e in ea.Scalars("exploit/cfr/min-raiser/mbb_per_hand")] == [1, 2]
    assert (result.run_dir / "league.png").stat().st_size > 0


def test_exploiter_settings_are_validated() -> None:
    data = load_config(CONFIGS / "tiny.yaml").to_dict()
    data["league"]["exploiters"] = "min-raiser"
    with pytest.raises(ConfigError, match="league.exploiters"):
        LeagueConfig.from_dict(data)
    data["league"]["exploiters"] = ["nosuchbot"]
    with pytest.raises(ConfigError, match=r"league.exploiters\[0\]"):
        LeagueConfig.from_dict(data)
