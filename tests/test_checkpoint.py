"""Checkpoints are validated field by field before a run resumes (issue 27); a run without one restarts."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import torch

from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError
from holdem_env.training.checkpoint import CheckpointError, validate_league_state, validate_ppo_checkpoint
from holdem_env.training.config import LeagueConfig, load_config

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def _tiny(tmp_path: Path) -> LeagueConfig:
    data = load_config(CONFIGS / "tiny.yaml").to_dict()
    data["logging"]["runs_dir"] = str(tmp_path / "runs")
    data["league"].update(rounds=3, eval_every=1)
    return LeagueConfig.from_dict(data)


@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[LeagueConfig, dict]:
    from holdem_env.training.league import run_league

    cfg = _tiny(tmp_path_factory.mktemp("league"))
    result = run_league(cfg, stop_after_round=2)
    state = json.loads((result.run_dir / "checkpoint" / "state.json").read_text())
    return cfg, state


def test_a_real_checkpoint_passes(stopped_run) -> None:
    _, state = stopped_run
    validate_league_state(state)
    assert state["round"] == 2 and len(state["history"]) == 2


def _h(state: dict, **changes) -> dict:
    out = copy.deepcopy(state)
    for path, value in changes.items():
        target = out
        *head, last = path.split("__")
        for k in head:
            target = target[int(k)] if isinstance(target, list) else target[k]
        target[int(last) if isinstance(target, list) else last] = value
    return out


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"round": -1}, r"'round' is -1: must be an integer >= 1"),
        ({"round": True}, r"'round' is True: must be an integer >= 1"),
        ({"round": 0}, r"'round' is 0"),
        ({"history": []}, r"lacks the evaluation of round 1"),
        ({"history__1__round": 7}, r"history\[1\].round' is 7: must be after .* at most the checkpoint's \(2\)"),
        ({"history__1__round": 1}, r"history\[1\].round' is 1: must be after the previous entry's round \(1\)"),
        ({"history__0__agents__0__mbb_per_hand": float("nan")}, r"mbb_per_hand' is nan: must be a finite number"),
        ({"history__0__pairs": {}}, r"history\[0\].pairs' is \{\}: must be a list"),
        ({"elapsed": -5.0}, r"'elapsed' is -5.0: must be >= 0"),
        ({"elapsed": "soon"}, r"'elapsed' is 'soon': must be a finite number"),
        ({"trainer_files__cfr": "../../etc/passwd"}, r"must be a file name in the checkpoint folder"),
    ],
)
def test_tampered_league_checkpoints_are_refused(stopped_run, changes: dict, message: str) -> None:
    _, state = stopped_run
    with pytest.raises(CheckpointError, match=message):
        validate_league_state(_h(state, **changes))


def test_resume_refuses_a_tampered_checkpoint_naming_the_field(stopped_run, tmp_path: Path) -> None:
    import shutil

    from holdem_env.training.league import run_dir_of, run_league

    cfg, state = stopped_run
    copy_cfg = LeagueConfig.from_dict({**cfg.to_dict(), "logging": {**cfg.to_dict()["logging"], "runs_dir": str(tmp_path)}})
    shutil.copytree(run_dir_of(cfg), run_dir_of(copy_cfg))
    for bad, field in (({"round": True}, "'round' is True"), ({"history": []}, "lacks the evaluation of round 1")):
        (run_dir_of(copy_cfg) / "checkpoint" / "state.json").write_text(json.dumps({**state, **bad}))
        with pytest.raises(ConfigError, match=f"is damaged .*{field}.*start it again with --overwrite"):
            run_league(copy_cfg, resume=True)


def test_a_run_that_died_before_its_first_checkpoint_starts_again_without_flags(tmp_path: Path, monkeypatch) -> None:
    import holdem_env.training.league as league

    cfg = _tiny(tmp_path)
    monkeypatch.setattr(league, "_write_checkpoint", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        league.run_league(cfg)
    run_dir = league.run_dir_of(cfg)
    assert run_dir.is_dir() and not (run_dir / "checkpoint" / "state.json").exists()
    with pytest.raises(ConfigError, match="no checkpoint to resume"):
        league.run_league(cfg, resume=True)
    monkeypatch.undo()
    result = league.run_league(cfg)  # was: "already exists: pass --resume"
    assert result.finished and result.rounds_done == 3


# -- ppo checkpoints ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ppo_state() -> dict:
    from holdem_env.training.ppo import PpoLearner, PpoSettings

    settings = PpoSettings(num_envs=4, num_steps=8, hidden=(16,), num_minibatches=2, update_epochs=2,
                           opponents=("random",), snapshot_every=1, max_snapshots=2)
    learner = PpoLearner(settings, TableConfig(num_players=2), seed=3)
    learner.train_round(2, 1)
    state = learner.state_dict()
    learner.close()
    return state


def test_a_real_ppo_checkpoint_passes(ppo_state: dict, tmp_path: Path) -> None:
    torch.save(ppo_state, tmp_path / "ck.pt")
    validate_ppo_checkpoint(torch.load(tmp_path / "ck.pt", weights_only=True))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.update(rounds_done=-1), r"'rounds_done' is -1: must be an integer >= 0"),
        (lambda s: s.update(iteration=True), r"'iteration' is True"),
        (lambda s: s.update(global_step=0), r"'global_step' is 0: must be at least iteration"),
        (lambda s: s["model"].__setitem__(next(iter(s["model"])), torch.tensor([float("nan")])), "must be finite"),
        (lambda s: s.update(model={}), "must be a non-empty mapping of tensors"),
        (lambda s: s["pool"].update(results=[[1, "x"]]), r"pool.results\[0\]' is \[1, 'x'\]"),
        (lambda s: s["pool"]["snapshots"].append({"name": 3}), r"pool.snapshots\[\d\]"),
        (lambda s: s.update(optimizer=[]), r"'optimizer' is \[\]: must be a mapping"),
        (lambda s: s.pop("settings"), r"'settings' is None: must be a mapping"),
    ],
)
def test_tampered_ppo_checkpoints_are_refused(ppo_state: dict, change, message: str) -> None:
    state = copy.deepcopy(ppo_state)
    change(state)
    with pytest.raises(CheckpointError, match=message):
        validate_ppo_checkpoint(state)
