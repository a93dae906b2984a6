"""The league keeps each learner's policy by robust criteria (exploiter gate, then LBR where measured,
then the worst head-to-head result's lower bound) and measures LBR on its workers with run_lbr's exact result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from holdem_env.training.config import LeagueConfig, load_config
from holdem_env.training.league_report import choose_checkpoints

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def _config(exploiters: tuple[str, ...] = ("shover",)) -> LeagueConfig:
    return LeagueConfig.from_dict({
        "name": "x",
        "agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "tag"}, {"name": "c", "spec": "cfr-lite", "train": True}],
        "league": {"exploiters": list(exploiters)},
    })


def _round(r: int, worst: float, ci: float, beaten: tuple[str, ...] = (), mean: float = 0.0) -> dict[str, Any]:
    row = {"agent": "c", "mbb_per_hand": mean, "ci95": 1.0, "worst_mbb": worst, "worst_ci95": ci, "worst_opponent": "b"}
    gate = [{"agent": "c", "exploiter": x, "mbb_per_hand": -1.0, "ci95": 0.5, "beaten": x in beaten} for x in ("shover", "min-raiser")]
    return {"round": r, "agents": [row, {**row, "agent": "a"}], "pairs": [], "exploiters": gate}


def test_the_gate_comes_first_then_the_lower_bound_then_the_later_round() -> None:
    cfg = _config(("shover", "min-raiser"))
    hist = [
        _round(1, 5000.0, 10.0, beaten=("shover",)),  # best head to head, but an exploiter beats it
        _round(2, 300.0, 50.0),                       # bound 250
        _round(3, 600.0, 500.0),                      # higher mean, wider interval: bound 100
        _round(4, 260.0, 10.0),                       # bound 250, later than round 2
    ]
    c = choose_checkpoints(cfg, hist)["c"]
    assert c["round"] == 4 and c["gate_passed"] and c["beaten_by"] == []
    assert (c["worst_mbb"], c["worst_ci95"], c["worst_opponent"]) == (260.0, 10.0, "b")
    assert set(choose_checkpoints(cfg, hist)) == {"c"}  # agents that do not train have no checkpoint


def _lbr(r: int, mbb: float, ci: float) -> dict[str, Any]:
    return {"round": r, "agent": "c", "lbr_mbb": mbb, "lbr_ci95": ci, "lbr_plain_mbb": mbb, "lbr_plain_ci95": ci, "hands": 1000}


def test_a_significantly_more_exploitable_round_is_passed_over() -> None:
    """The main job's trial C (an untrained start cloning tag round by round): round 1 has the best
    worst-result bound but LBR 6,735 +- 824 against round 4's 1,421 +- 363; rounds whose LBR interval lies
    wholly above the least exploitable round's are passed over, overlapping ones compete by the bound."""
    cfg = _config()
    hist = [_round(1, -90.0, 322.0), _round(2, -219.0, 350.0), _round(3, -100.0, 300.0), _round(4, -7.0, 483.0)]
    lbr = [_lbr(0, 9700.0, 2138.0), _lbr(1, 6735.0, 824.0), _lbr(2, 2659.0, 596.0), _lbr(3, 1788.0, 492.0), _lbr(4, 1421.0, 363.0)]
    assert choose_checkpoints(cfg, hist)["c"]["round"] == 3  # without LBR: bound -400 beats -412 and -490
    c = choose_checkpoints(cfg, hist, lbr)["c"]
    # the ceiling is round 4's upper bound 1,784; round 2's lower bound 2,063 is above it, round 3's 1,296 is not
    assert c["round"] == 3 and c["lbr_mbb"] == 1788.0
    # the gate still comes first: with round 3 and 4 beaten by an exploiter, the gated rounds win
    gated = [_round(1, -90.0, 322.0), _round(2, -219.0, 350.0), _round(3, -100.0, 300.0, beaten=("shover",)),
             _round(4, -7.0, 483.0, beaten=("shover",))]
    assert choose_checkpoints(cfg, gated, lbr)["c"]["round"] == 1
    # round 1 with the best bound: passed over for its LBR, kept where LBR did not measure it
    best_first = [_round(1, 0.0, 100.0)] + hist[1:]
    assert choose_checkpoints(cfg, best_first)["c"]["round"] == 1
    assert choose_checkpoints(cfg, best_first, lbr)["c"]["round"] == 3
    assert choose_checkpoints(cfg, best_first, lbr[:1] + lbr[2:])["c"]["round"] == 1


def test_the_rolling_mean_does_not_choose() -> None:
    """The mean over the league (crushing random) never decides; with every round beaten the
    least bad bound still wins and the report says who beat it."""
    cfg = _config(("shover", "min-raiser"))
    hist = [_round(1, -900.0, 100.0, beaten=("min-raiser",), mean=9000.0), _round(2, -200.0, 100.0, beaten=("shover", "min-raiser"))]
    c = choose_checkpoints(cfg, hist)["c"]
    assert c["round"] == 2 and not c["gate_passed"] and c["beaten_by"] == ["min-raiser", "shover"]


def test_a_league_keeps_the_chosen_round_as_its_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``policies/<agent>.npz`` is a copy of the chosen round's file (kept on disk beside the
    latest round's), and ``league.json`` and the printed table name that round."""
    import io

    from holdem_env.training.league import run_league

    monkeypatch.setenv("HOLDEM_ENV_CACHE", str(tmp_path / "cache"))
    data = load_config(CONFIGS / "tiny.yaml").to_dict()
    data["logging"].update(runs_dir=str(tmp_path / "runs"), plot=False)
    data["league"].update(rounds=3, eval_hands=40, exploiters=["shover"], exploiter_hands=20)
    cfg = LeagueConfig.from_dict(data)
    out = io.StringIO()
    result = run_league(cfg, out=out)
    saved = json.loads((result.run_dir / "league.json").read_text())
    expected = choose_checkpoints(cfg, saved["history"], saved["lbr"])
    assert saved["chosen"] == expected == result.chosen and set(expected) == {"cfr"}
    chosen_round = expected["cfr"]["round"]
    kept = result.run_dir / "policies" / "cfr" / f"round_{chosen_round:04d}.npz"
    assert kept.is_file()
    assert (result.run_dir / "policies" / "cfr.npz").read_bytes() == kept.read_bytes()
    assert {p.name for p in (result.run_dir / "policies" / "cfr").iterdir()} == {kept.name, "round_0003.npz"}
    assert f"  {'cfr':<16} round {chosen_round}: " in out.getvalue()


class _SerialBackend:
    """A backend that maps in this process but reports several workers (so jobs are chunked)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.calls: list[int] = []

    def map(self, fn: Any, items: Any) -> list[Any]:
        self.calls.append(len(items))
        return [fn(x) for x in items]


class _Writer:
    def __init__(self) -> None:
        self.scalars: dict[str, tuple[float, int]] = {}

    def add_scalar(self, tag: str, value: float, step: int) -> None:
        self.scalars[tag] = (value, step)


def test_lbr_on_the_workers_is_run_lbr_to_the_bit(tmp_path: Path) -> None:
    from holdem_env.training.lbr import LbrConfig, run_lbr
    from holdem_env.training.league_eval import LBR_AIVAT, _int_seed, _log_lbr

    data = load_config(CONFIGS / "tiny.yaml").to_dict()
    data["agents"] = [{"name": "r", "spec": "random"}, {"name": "t", "spec": "tag"}]
    data["league"].update(rounds=1, lbr_every=1, lbr_hands=14)
    cfg = LeagueConfig.from_dict(data)
    backend, writer = _SerialBackend(3), _Writer()
    got = _log_lbr(cfg, 1, tmp_path, {}, writer, backend)
    assert backend.calls == [12]  # 7 deals of each agent in 6 chunks
    t = cfg.table
    for i, name in enumerate(("r", "t")):
        ref = run_lbr(LbrConfig(agent=cfg.agents[i].spec, hands=14, seed=_int_seed(cfg, 3, i, 1),
                                small_blind=t.small_blind, big_blind=t.big_blind, stack=t.buy_in, aivat=LBR_AIVAT))
        row = next(g for g in got if g["agent"] == name)
        assert (row["lbr_mbb"], row["lbr_ci95"], row["hands"]) == (ref.aivat_mbb, ref.aivat_ci95, 14)
        assert (row["lbr_plain_mbb"], row["lbr_plain_ci95"]) == (ref.mbb_per_hand, ref.ci95)
        assert writer.scalars[f"eval/{name}/lbr_mbb"] == (ref.aivat_mbb, 1)
        assert writer.scalars[f"eval/{name}/lbr_plain_mbb"] == (ref.mbb_per_hand, 1)


def test_the_main_job_trains_ppo_by_the_population_method_and_measures_it_honestly() -> None:
    """``make train``'s ppo starts untrained and clones tag round by round (tag distilled apart is
    the KL anchor), plays a PFSP-weighted pool
    with exploiters in it, and the league measures every learner's LBR each round with an exploiter gate."""
    cfg = load_config(CONFIGS / "quickstart.yaml")
    p, lg = cfg.ppo, cfg.league
    assert p.anchor == "tag" and p.kl_coef > 0 and p.anchor_hands >= 10_000
    assert p.start == "scratch" and len(p.bc_epochs) == lg.rounds and all(p.bc_epochs)
    assert {"min-raiser", "calling-station"} <= set(p.opponents) and p.pool_uniform_share < 1.0
    assert lg.lbr_every == 1 and lg.lbr_hands >= 1000 and set(lg.exploiters) >= {"min-raiser", "calling-station"}
    assert lg.eval_hands >= 2500
