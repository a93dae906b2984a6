"""League configs and run folders at the edges: bad files, late validation, resume, leftovers (issue 14)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from holdem_env.engine.errors import ConfigError
from holdem_env.training.config import MAX_CONFIG_BYTES, LeagueConfig, load_config

CONFIGS = Path(__file__).resolve().parent.parent / "configs"

ALIAS_BOMB = "\n".join(
    ["name: bomb", "a: &a [x, x, x, x, x, x, x, x, x]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]
) + "\n"


@pytest.fixture(scope="module", autouse=True)
def _bucket_cache(tmp_path_factory: pytest.TempPathFactory):
    """Keep the card-abstraction cache of these tests out of ~/.cache."""
    old = os.environ.get("HOLDEM_ENV_CACHE")
    os.environ["HOLDEM_ENV_CACHE"] = str(tmp_path_factory.mktemp("bucket-cache"))
    yield
    if old is None:
        os.environ.pop("HOLDEM_ENV_CACHE", None)
    else:
        os.environ["HOLDEM_ENV_CACHE"] = old


# -- reading the YAML --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x00binary", "is not UTF-8 text"),
        (b"name: " + b"[" * 50_000 + b"]" * 50_000, "nested too deeply"),
        (ALIAS_BOMB.encode(), r"aliases are not supported in league configs \(found \*a at line 3\)"),
        (b"name: x\nagents: [" + b"random, " * (MAX_CONFIG_BYTES // 8) + b"]\n", "a league config is at most"),
    ],
)
def test_bad_config_files_are_config_errors(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "league.yaml"
    path.write_bytes(content)
    with pytest.raises(ConfigError, match=message) as exc:
        load_config(path)
    assert len(str(exc.value)) < 1000


def test_alias_bomb_is_small_and_would_expand(tmp_path: Path) -> None:
    assert len(ALIAS_BOMB) < 400  # 9**9 (387 million) leaves once expanded


def _data(**patch: object) -> dict:
    data = load_config(CONFIGS / "tiny.yaml").to_dict()
    data.update(patch)
    return data


@pytest.mark.parametrize("name", ["nl\n", "a/b", "..x\n", ""])
def test_run_name_must_be_a_plain_folder_name(name: str) -> None:
    with pytest.raises(ConfigError, match=r"name=.* is invalid: .*\(it names the run folder\)"):
        LeagueConfig.from_dict(_data(name=name))


@pytest.mark.parametrize(
    ("spec", "train", "message"),
    [
        ("tag(tightness=-1)", False, r"agents\[0\].spec='tag\(tightness=-1\)' is invalid: .*must be a positive number"),
        ("tag(nosuch=1)", False, "unexpected keyword argument 'nosuch'"),
        ("cfr-lite(threshold=1e999)", True, r"agent spec 'cfr-lite\(threshold=1e999\)': threshold=inf"),
        ("os:system(command='true')", False, "not an agent class"),
    ],
)
def test_agent_arguments_are_checked_when_the_config_loads(spec: str, train: bool, message: str) -> None:
    data = _data()
    data["agents"][0] = {"name": "x", "spec": spec, "train": train}
    with pytest.raises(ConfigError, match=message):
        LeagueConfig.from_dict(data)


@pytest.mark.parametrize("value", [-1, 9, 1.5, True, "3"])
def test_cfr_preflop_settings_are_checked_and_good_ones_reach_the_trainer(value: object) -> None:
    from holdem_env.training.league import _make_trainer

    data = _data()
    data["cfr"]["preflop_max_raises"] = value
    with pytest.raises(ConfigError, match=r"cfr.preflop_max_raises=.* is invalid: must be an integer in 0..8"):
        LeagueConfig.from_dict(data)
    data["cfr"]["preflop_max_raises"] = 3
    data["cfr"]["summarize_preflop"] = "yes"
    with pytest.raises(ConfigError, match=r"cfr.summarize_preflop='yes' is invalid"):
        LeagueConfig.from_dict(data)
    data["cfr"]["summarize_preflop"] = True
    actions = _make_trainer(LeagueConfig.from_dict(data)).game.actions
    assert actions.max_raises(True) == 3 and actions.max_raises(False) == data["cfr"]["max_raises_per_street"]
    assert actions.summarize_preflop


def test_ray_backend_without_ray_fails_before_the_run_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from holdem_env.training.league import run_league

    data = _data(backend={"kind": "ray", "workers": 1, "address": None})
    data["logging"]["runs_dir"] = str(tmp_path / "runs")
    monkeypatch.setitem(sys.modules, "ray", None)  # a machine without the optional extra
    with pytest.raises(ConfigError, match=r"backend.kind='ray' is invalid: needs the optional 'ray' package"):
        LeagueConfig.from_dict(data)
    monkeypatch.undo()
    pytest.importorskip("ray")
    cfg = LeagueConfig.from_dict(data)
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ConfigError, match="needs the optional 'ray' package"):
        run_league(cfg)
    assert not (tmp_path / "runs").exists()


# -- resume ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A tiny two-round league killed after round 1 (a pristine copy to clone per test)."""
    from holdem_env.training.league import run_league

    root = tmp_path_factory.mktemp("stopped")
    data = _data()
    data["league"]["rounds"] = 2
    data["logging"]["runs_dir"] = str(root / "runs")
    result = run_league(LeagueConfig.from_dict(data), stop_after_round=1)
    assert not result.finished
    return root / "runs" / "tiny", data


def _clone(stopped_run: tuple[Path, dict], dest: Path) -> Path:
    run_dir, _ = stopped_run
    shutil.copytree(run_dir, dest / "tiny")
    return dest / "tiny"


def test_resume_finds_a_moved_folder_spelled_relative_with_a_slash(stopped_run, tmp_path, monkeypatch) -> None:
    from holdem_env.training.league import run_league

    run_dir = _clone(stopped_run, tmp_path / "moved")
    (run_dir / "checkpoint" / "state.json.k2j3.tmp").write_text("{")  # a write killed half-way
    (run_dir / "policies" / "cfr" / "round_0002.npz.x81.tmp").write_bytes(b"PK")
    (run_dir / "league.json.z.tmp").write_text("")
    monkeypatch.chdir(tmp_path)
    data = dict(stopped_run[1], logging={"runs_dir": "moved/", "plot": True})
    result = run_league(LeagueConfig.from_dict(data), resume=True)
    assert result.finished and result.rounds_done == 2
    assert sorted(p.name for p in run_dir.rglob("*.tmp")) == []


def test_resume_names_the_key_that_differs(stopped_run, tmp_path) -> None:
    from holdem_env.training.league import run_league

    _clone(stopped_run, tmp_path)
    data = dict(stopped_run[1], logging={"runs_dir": str(tmp_path), "plot": True})
    data["table"] = dict(data["table"], buy_in=2000)
    message = r"table.buy_in=2000 is invalid: differs from the checkpointed run's value 1000"
    with pytest.raises(ConfigError, match=message):
        run_league(LeagueConfig.from_dict(data), resume=True)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("truncate-state", r"state.json'? is invalid: is damaged \(JSONDecodeError\)"),
        ("empty-state-fields", r"state.json'? is invalid: is damaged \(missing or mistyped fields\)"),
        ("garbage-table", r"\.npz'? is invalid: is damaged"),
    ],
)
def test_resume_from_a_damaged_checkpoint_is_a_clear_error(stopped_run, tmp_path, damage: str, message: str) -> None:
    from holdem_env.training.league import run_league

    run_dir = _clone(stopped_run, tmp_path)
    state = run_dir / "checkpoint" / "state.json"
    if damage == "truncate-state":
        state.write_bytes(state.read_bytes()[:40])
    elif damage == "empty-state-fields":
        state.write_text('{"round": "1"}')
    else:
        for table in (run_dir / "checkpoint").glob("*.npz"):
            table.write_bytes(b"PK\x03\x04 not really a zip file" * 10)
    before = sorted(p.relative_to(run_dir) for p in run_dir.rglob("*"))
    data = dict(stopped_run[1], logging={"runs_dir": str(tmp_path), "plot": True})
    with pytest.raises(ConfigError, match=message):
        run_league(LeagueConfig.from_dict(data), resume=True)
    assert sorted(p.relative_to(run_dir) for p in run_dir.rglob("*")) == before  # nothing written


def test_cli_train_reports_a_binary_config(tmp_path: Path, capsys) -> None:
    from holdem_env.cli import main

    path = tmp_path / "x.yaml"
    path.write_bytes(b"\xff\xfe\x00binary")
    assert main(["train", "--config", str(path)]) == 2
    assert "is not UTF-8 text" in capsys.readouterr().err


def test_isolated_league_builds_and_plays_agents_in_their_own_processes() -> None:
    from holdem_env.training.league_eval import _eval_job

    data = _data()
    data["league"]["isolate_agents"] = True
    data["agents"][0] = {"name": "x", "spec": "tag(tightness=-1)", "train": False}
    with pytest.raises(ConfigError, match=r"agents\[0\].spec=.* failed in its worker: AgentSpecError"):
        LeagueConfig.from_dict(data)
    job = {"agents": ("tag", "random"), "players": 2, "hands": 4, "seed": 1, "workers": 1}
    rows = _eval_job({**job, "isolate_agents": True})
    plain = _eval_job(job)
    assert [r["mbb_per_hand"] for r in rows] == [r["mbb_per_hand"] for r in plain]
