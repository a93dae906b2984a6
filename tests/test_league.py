"""League training: config validation, end-to-end tiny run, TensorBoard scalars, resume after a kill."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from holdem_env.engine.errors import ConfigError
from holdem_env.training.config import LeagueConfig, load_config

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


@pytest.fixture(scope="module", autouse=True)
def _bucket_cache(tmp_path_factory: pytest.TempPathFactory):
    """Keep the card-abstraction cache of these tests out of ~/.cache."""
    import os

    old = os.environ.get("HOLDEM_ENV_CACHE")
    os.environ["HOLDEM_ENV_CACHE"] = str(tmp_path_factory.mktemp("bucket-cache"))
    yield
    if old is None:
        os.environ.pop("HOLDEM_ENV_CACHE", None)
    else:
        os.environ["HOLDEM_ENV_CACHE"] = old


def _tiny(tmp_path: Path, **league: int) -> LeagueConfig:
    cfg = load_config(CONFIGS / "tiny.yaml")
    data = cfg.to_dict()
    data["logging"]["runs_dir"] = str(tmp_path / "runs")
    data["league"].update(league)
    return LeagueConfig.from_dict(data)


# -- config validation -------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["tiny", "quickstart", "six_max"])
def test_shipped_configs_are_valid(name: str) -> None:
    cfg = load_config(CONFIGS / f"{name}.yaml")
    assert cfg.name == name
    assert {a.spec.split("(")[0] for a in cfg.agents} >= {"random", "tag", "cfr-lite"}
    assert LeagueConfig.from_dict(cfg.to_dict()) == cfg  # to_dict/from_dict round trip
    if name == "six_max":
        assert cfg.table.num_players == 6
    else:
        assert cfg.table.num_players == 2


def test_the_main_job_is_a_heads_up_league_of_four_with_cfr_lite_and_ppo_learning() -> None:
    cfg = load_config(CONFIGS / "quickstart.yaml")
    assert [(a.name, a.spec, a.train) for a in cfg.agents] == [
        ("random", "random", False), ("tag", "tag", False), ("cfr-lite", "cfr-lite", True), ("ppo", "ppo", True),
    ]
    assert [a.name for a in cfg.cfr_trainers] == ["cfr-lite"] and [a.name for a in cfg.ppo_trainers] == ["ppo"]
    assert cfg.table.num_players == 2 and cfg.cfr.iterations_per_round > 0 and cfg.ppo.iterations_per_round > 0
    assert cfg.logging.plot and cfg.league.eval_every == 1  # the plot shows every round
    assert cfg.backend.workers == 2  # sized for two cores


def _base() -> dict:
    return {"name": "t", "agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "tag"}]}


@pytest.mark.parametrize(
    "patch, field, fragment",
    [
        ({"rounds": 3}, "rounds", "unknown key; allowed: agents, backend"),
        ({"league": {"round": 3}}, "league.round", "unknown key; allowed: eval_every, eval_hands, exploiter_hands, exploiters, isolate_agents, lbr_every, lbr_hands, rounds"),
        ({"league": {"rounds": 0}}, "league.rounds", "must be an integer in 1..1000000"),
        ({"cfr": {"pot_fractions": [1.0, 0.5]}}, "cfr.pot_fractions", "strictly ascending"),
        ({"cfr": {"postflop_buckets": [8, 8]}}, "cfr.postflop_buckets", "three integers"),
        ({"cfr": {"averaging": "mean"}}, "cfr.averaging", "must be one of 'linear', 'uniform'"),
        ({"cfr": {"parallel_copies": 0}}, "cfr.parallel_copies", "must be an integer in 1..1024"),
        ({"table": {"num_players": 11}}, "table.num_players", "must be an integer in 2..10"),
        ({"table": {"seats": 2}}, "table.seats", "unknown table setting"),
        ({"backend": {"kind": "slurm"}}, "backend.kind", "'local' or 'ray'"),
        ({"logging": {"plot": "yes"}}, "logging.plot", "true or false"),
        ({"name": "bad name!"}, "name", "letters, digits"),
        ({"agents": [{"name": "a", "spec": "random"}]}, "agents", "at least two agents"),
        ({"agents": [{"name": "a", "spec": "random"}, {"name": "a", "spec": "tag"}]}, "agents", "unique"),
        ({"agents": [{"name": "a", "spec": "random", "train": True}, {"name": "b", "spec": "tag"}]}, "agents[0].train", "only cfr-lite"),
        ({"agents": [{"name": "a", "spec": "nosuchbot"}, {"name": "b", "spec": "tag"}]}, "agents[0].spec", "unknown agent 'nosuchbot'"),
        ({"agents": [{"name": "a", "spec": "random", "seat": 1}, {"name": "b", "spec": "tag"}]}, "agents[0].seat", "unknown key"),
        ({"agents": ["random", "tag(tightness=1.3)"]}, "agents[1]", "write {name: ..., spec: ...}"),
        ({"league": {"eval_hands": 3}}, "league.eval_hands", "must be at least 4: two duplicate groups"),
        (
            {"agents": [{"name": "c", "spec": "cfr-lite", "train": True}, "tag"], "table": {"num_players": 2, "betting": "pot-limit"}},
            "table.betting",
            "must be no-limit while cfr-lite agents train (c)",
        ),
        (
            {"agents": [{"name": "c", "spec": "cfr-lite(policy='x.npz')", "train": True}, {"name": "b", "spec": "tag"}]},
            "agents[0].spec",
            "drop the policy= argument",
        ),
    ],
)
def test_bad_config_names_the_key(patch: dict, field: str, fragment: str) -> None:
    data = {**_base(), **patch}
    with pytest.raises(ConfigError) as err:
        LeagueConfig.from_dict(data)
    assert err.value.field == field
    assert fragment in str(err.value)


def test_training_agent_plays_its_policy_with_its_own_spec_arguments(tmp_path: Path) -> None:
    from holdem_env.agents.base import make_agent, parse_spec
    from holdem_env.training.league_eval import _spec_for

    data = {**_base(), "agents": [{"name": "c", "spec": "cfr-lite(threshold=0.3)", "train": True}, "tag"]}
    entry = LeagueConfig.from_dict(data).agents[0]
    policy = tmp_path / "round_0001.npz"
    spec = parse_spec(_spec_for(entry, policy))
    assert spec.target == "holdem_env.agents.cfr_lite:CfrLiteAgent"
    assert spec.kwargs == {"threshold": 0.3, "policy": str(policy)}
    assert _spec_for(LeagueConfig.from_dict(data).agents[1], None) == "tag"
    assert make_agent(_spec_for(entry, None)).threshold == 0.3


def test_league_hud_pools_counters_over_matches() -> None:
    """A statistic over several matches is pooled counts over pooled chances, not a mean of ratios."""
    from holdem_env.training.league_report import _aggregate
    from holdem_env.training.stats import HudCounts

    agents = [{"name": "a", "spec": "random"}, {"name": "b", "spec": "tag"}, {"name": "c", "spec": "random-type"}]
    cfg = LeagueConfig.from_dict({**_base(), "agents": agents})

    def row(role: str, counts: HudCounts) -> dict:
        return {"role": role, "mbb_per_hand": 0.0, "ci95": 1.0, "hands": counts.hands,
                "stats": counts.summary(), "hud_counts": counts.to_dict()}

    vs_b = HudCounts(hands=100, vpip=50, three_bet_chances=10, three_bets=5, postflop_aggressive=9, postflop_calls=1)
    vs_c = HudCounts(hands=100, vpip=20, three_bet_chances=100, three_bets=10, postflop_aggressive=1, postflop_calls=9)
    other = HudCounts(hands=100)
    out = _aggregate(cfg, 1, [("a", "b", [row("a", vs_b), row("b", other)]), ("a", "c", [row("a", vs_c), row("c", other)])])
    hud_a = next(x for x in out["agents"] if x["agent"] == "a")["hud"]
    assert hud_a["vpip"] == pytest.approx(70 / 200)
    assert hud_a["three_bet"] == pytest.approx(15 / 110)  # a mean of the two ratios would be 0.30
    assert hud_a["af"] == pytest.approx(10 / 10)
    assert hud_a["wtsd"] is None  # never saw a flop: undefined, not zero
    assert set(hud_a) == {"vpip", "pfr", "three_bet", "af", "wtsd", "wsd"}


def test_load_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="must be an existing YAML file"):
        load_config(tmp_path / "nope.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n")
    with pytest.raises(ConfigError, match="is not valid YAML"):
        load_config(bad)


# -- end to end ----------------------------------------------------------------------------------
def _scalars(run_dir: Path) -> dict[str, list[tuple[int, float]]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    ea = EventAccumulator(str(run_dir), size_guidance={"scalars": 0, "tensors": 0})
    ea.Reload()
    # in step order: a run and its resume in one process within one second write event files whose names
    # differ only by tensorboard's per-process counter, which sorts as text (".9" after ".10")
    return {tag: sorted((e.step, e.value) for e in ea.Scalars(tag)) for tag in ea.Tags()["scalars"]}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory):
    from holdem_env.training.league import run_league

    tmp = tmp_path_factory.mktemp("full")
    cfg = _tiny(tmp)
    result = run_league(cfg)
    return cfg, result


def test_tiny_league_writes_documented_outputs(uninterrupted) -> None:
    from holdem_env.training.league import scalar_names

    cfg, result = uninterrupted
    run_dir = result.run_dir
    assert result.finished and result.rounds_done == 3
    assert (run_dir / "league.png").stat().st_size > 1000
    data = json.loads((run_dir / "league.json").read_text())
    assert [row["agent"] for row in data["table"]] == [row["agent"] for row in result.table]
    assert sorted(a["agent"] for a in data["table"]) == ["cfr", "random", "tag"]
    # zero-sum per pair: A vs B is minus B vs A
    by = {(p["agent"], p["opponent"]): p["mbb_per_hand"] for p in data["pairs"]}
    assert {p["hands"] for p in data["pairs"]} == {cfg.league.eval_hands}  # eval_hands counts hands, not deals
    for (a, b), v in by.items():
        assert by[(b, a)] == pytest.approx(-v)
    assert (run_dir / "policies" / "cfr.npz").is_file()
    scalars = _scalars(run_dir)
    missing = [n for n in scalar_names(cfg) if n not in scalars]
    # HUD ratios can be undefined (e.g. AF with no postflop calls) and are then not logged
    assert not [m for m in missing if m.rsplit("/", 1)[-1] not in ("three_bet", "af", "wtsd", "wsd")], missing
    assert [s for s, _ in scalars["eval/cfr/mbb_per_hand"]] == [1, 2, 3]
    assert [v for _, v in scalars["train/cfr/cfr_iterations"]] == [20, 40, 60]
    final = {row["agent"]: row["mbb_per_hand"] for row in result.table}
    assert scalars["eval/tag/mbb_per_hand"][-1][1] == pytest.approx(final["tag"], rel=1e-5)
    lo = scalars["eval/cfr_vs_random/ci95_low"][-1][1]
    hi = scalars["eval/cfr_vs_random/ci95_high"][-1][1]
    mid = scalars["eval/cfr_vs_random/mbb_per_hand"][-1][1]
    assert lo < mid < hi and math.isclose(hi - mid, mid - lo, rel_tol=1e-4)


def test_existing_run_folder_needs_resume_or_overwrite(uninterrupted) -> None:
    from holdem_env.training.league import run_league

    cfg, _ = uninterrupted
    with pytest.raises(ConfigError, match="pass --resume to continue it"):
        run_league(cfg)


def test_resume_after_kill_gives_same_table(uninterrupted, tmp_path: Path) -> None:
    from holdem_env.training.league import run_league

    _, full = uninterrupted
    cfg = _tiny(tmp_path)
    stopped = run_league(cfg, stop_after_round=1)
    assert not stopped.finished and stopped.rounds_done == 1
    assert not (stopped.run_dir / "league.json").exists()
    resumed = run_league(cfg, resume=True)
    assert resumed.table == full.table
    assert resumed.pairs == full.pairs
    assert resumed.history == full.history
    scalars = _scalars(resumed.run_dir)
    assert [s for s, _ in scalars["eval/cfr/mbb_per_hand"]] == [1, 2, 3]


def test_kill_between_logging_and_checkpoint_leaves_no_duplicate_steps(uninterrupted, tmp_path: Path, monkeypatch) -> None:
    import holdem_env.training.league as league

    _, full = uninterrupted
    cfg = _tiny(tmp_path)
    real = league._write_checkpoint

    def crash_on_round_2(run_dir, state, trainers):
        if state["round"] == 2:
            raise KeyboardInterrupt("simulated kill")
        real(run_dir, state, trainers)

    monkeypatch.setattr(league, "_write_checkpoint", crash_on_round_2)
    with pytest.raises(KeyboardInterrupt):
        league.run_league(cfg)
    monkeypatch.setattr(league, "_write_checkpoint", real)
    resumed = league.run_league(cfg, resume=True)
    assert resumed.table == full.table and resumed.history == full.history
    scalars = _scalars(resumed.run_dir)
    for tag in ("eval/cfr/mbb_per_hand", "train/cfr/cfr_iterations", "charts/elapsed_seconds"):
        assert [s for s, _ in scalars[tag]] == [1, 2, 3], tag
    assert [v for _, v in scalars["train/cfr/cfr_iterations"]] == [20, 40, 60]


def test_a_pair_of_agents_that_do_not_train_plays_one_match_repeated_every_round(uninterrupted) -> None:
    _, full = uninterrupted  # random and tag never train: their seeded match is the same in every round
    rows = [[p for p in h["pairs"] if (p["agent"], p["opponent"]) == ("random", "tag")] for h in full.history]
    assert len(rows) == 3 and rows[0][0]["hands"] == 40 and rows[0] == rows[1] == rows[2]
    learner = [[p["mbb_per_hand"] for p in h["pairs"] if (p["agent"], p["opponent"]) == ("cfr", "tag")] for h in full.history]
    assert len({v[0] for v in learner}) > 1  # a training agent's matches are dealt anew every round


def test_the_result_does_not_depend_on_the_number_of_workers(tmp_path: Path) -> None:
    from holdem_env.training.league import run_league

    def league(workers: int, copies: int) -> tuple:
        data = _tiny(tmp_path / f"w{workers}c{copies}", rounds=2).to_dict()
        data["agents"].append({"name": "bot", "spec": "ppo", "train": True})
        data["ppo"] = {"iterations_per_round": 1, "num_envs": 2, "num_steps": 4, "hidden": [8], "num_minibatches": 1,
                       "update_epochs": 1}
        data["cfr"]["parallel_copies"] = copies
        data["backend"] = {"kind": "local", "workers": workers, "address": None}
        r = run_league(LeagueConfig.from_dict(data))
        return r.history, r.pairs

    one = league(1, 2)
    assert league(2, 2) == one  # two copies sample on two workers, or one after the other here: same run
    assert league(1, 1) != one  # the number of copies is part of the algorithm


def test_resume_refuses_another_number_of_parallel_copies(uninterrupted) -> None:
    from holdem_env.training.league import run_league

    cfg, _ = uninterrupted
    data = cfg.to_dict()
    data["cfr"]["parallel_copies"] = 3
    with pytest.raises(ConfigError, match=r"cfr.parallel_copies=3 is invalid: differs from the checkpointed run's value 2"):
        run_league(LeagueConfig.from_dict(data), resume=True)


def test_resume_rejects_changed_config(uninterrupted) -> None:
    from holdem_env.training.league import run_league

    cfg, _ = uninterrupted
    data = cfg.to_dict()
    data["cfr"]["iterations_per_round"] = 21
    with pytest.raises(ConfigError, match=r"cfr.iterations_per_round=21 is invalid: differs from the checkpointed run's value 20"):
        run_league(LeagueConfig.from_dict(data), resume=True)


def test_cli_train_json(tmp_path: Path, capsys) -> None:
    from holdem_env.cli import main

    rc = main(["train", "--config", str(CONFIGS / "tiny.yaml"), "--runs-dir", str(tmp_path), "--rounds", "1", "--json", "--no-progress"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rounds"] == 1 and len(out["table"]) == 3
    rc = main(["train", "--config", str(tmp_path / "missing.yaml")])
    assert rc == 2
    assert "must be an existing YAML file" in capsys.readouterr().err


def test_local_backend_keeps_input_order() -> None:
    from holdem_env.training.backends import LocalBackend, make_backend

    backend = LocalBackend(workers=2)
    try:
        assert backend.map(math.sqrt, [16.0, 1.0, 9.0, 4.0]) == [4.0, 1.0, 3.0, 2.0]
    finally:
        backend.close()
    with pytest.raises(ConfigError, match="backend.kind"):
        make_backend("slurm")


def test_ray_backend_missing_is_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # Simulate a machine without the optional extra, whether or not ray is installed here.
    monkeypatch.setitem(sys.modules, "ray", None)
    from holdem_env.training.backends import RayBackend

    with pytest.raises(ConfigError, match="needs the optional 'ray' package"):
        RayBackend()


@pytest.mark.ray
def test_ray_backend_runs_a_league(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from holdem_env.training.league import run_league

    data = _tiny(tmp_path / "ray", rounds=1).to_dict()
    data["backend"] = {"kind": "ray", "workers": 2, "address": None}
    result = run_league(LeagueConfig.from_dict(data))
    assert result.finished and len(result.table) == 3
    # Ray only distributes the work: the local pool with as many workers plays the same run
    local_data = _tiny(tmp_path / "local", rounds=1).to_dict()
    local_data["backend"] = {"kind": "local", "workers": 2, "address": None}
    local = run_league(LeagueConfig.from_dict(local_data))
    assert result.table == local.table and result.pairs == local.pairs and result.history == local.history


def test_resume_refuses_fewer_rounds_than_the_checkpoint(uninterrupted) -> None:
    from holdem_env.training.league import run_league

    cfg, full = uninterrupted
    data = cfg.to_dict()
    data["league"]["rounds"] = 2
    before = (full.run_dir / "league.json").read_bytes()
    with pytest.raises(ConfigError, match="league.rounds=2 is invalid: must be at least 3"):
        run_league(LeagueConfig.from_dict(data), resume=True)
    assert (full.run_dir / "league.json").read_bytes() == before  # nothing rewritten


def test_a_finished_run_extended_on_resume_matches_the_longer_run(uninterrupted, tmp_path: Path) -> None:
    from holdem_env.training.league import run_league

    _, full = uninterrupted  # 3 rounds, evaluated every round
    short = run_league(_tiny(tmp_path, rounds=2))
    assert short.finished and short.rounds_done == 2
    extended = run_league(_tiny(tmp_path, rounds=3), resume=True)
    assert extended.rounds_done == 3
    assert extended.history == full.history and extended.table == full.table
    assert load_config(extended.run_dir / "config.yaml").league.rounds == 3
