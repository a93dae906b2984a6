"""``holdem train --config FILE`` reads every shipped config: league configs and the stand-alone PPO run."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from holdem_env.cli import main
from holdem_env.cli.train import load_train_config
from holdem_env.training.config import PPO_RUN_KEYS, LeagueConfig, config_kind
from holdem_env.training.ppo import PpoRunConfig, load_run_config

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))


def test_the_shipped_configs_are_of_both_kinds() -> None:
    kinds = {p.name: config_kind(yaml.safe_load(p.read_text())) for p in CONFIGS}
    assert kinds["ppo_hu.yaml"] == "ppo" and kinds["quickstart.yaml"] == "league", kinds
    assert set(kinds.values()) == {"league", "ppo"}


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_every_shipped_config_parses_and_validates_through_holdem_train(path: Path) -> None:
    config = load_train_config(path)
    data = yaml.safe_load(path.read_text())
    assert config.name == data["name"]
    if "agents" in data:
        assert isinstance(config, LeagueConfig) and len(config.agents) == len(data["agents"])
    else:
        assert isinstance(config, PpoRunConfig) and config == load_run_config(path)  # what training.ppo reads


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_holdem_train_hands_each_config_to_its_own_runner(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --rounds 0 is refused by the runner's own check, after the file was read and validated: no training.
    assert main(["train", "--config", str(path), "--rounds", "0", "--no-progress"]) == 2
    err = capsys.readouterr().err
    league = "agents" in yaml.safe_load(path.read_text())
    assert ("league.rounds=0 is invalid" if league else "holdem train: rounds=0 is invalid") in err, err
    assert "unknown key" not in err


def test_the_ppo_run_keys_are_ppo_run_fields_and_never_league_keys() -> None:
    ppo_fields = {f.name for f in dataclasses.fields(PpoRunConfig)}
    league_fields = {f.name for f in dataclasses.fields(LeagueConfig)}
    assert PPO_RUN_KEYS <= ppo_fields and not PPO_RUN_KEYS & league_fields


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ({"name": "x", "agents": ["random", "tag"]}, "league"),
        ({"name": "x", "agents": ["random", "tag"], "rounds": 3}, "league"),  # the league then names the bad key
        ({"name": "x", "rounds": 3, "ppo": {}}, "ppo"),
        ({"name": "x", "policy_out": "p.pt"}, "ppo"),
        ({"name": "x"}, "league"),  # neither: the league's checks say 'agents' is required
        ({}, "league"),
    ],
)
def test_config_kind(data: dict, kind: str) -> None:
    assert config_kind(data) == kind


def test_a_league_option_on_a_ppo_run_config_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--config", str(ROOT / "configs" / "ppo_hu.yaml"), "--workers", "2"]) == 2
    assert "workers=2 is invalid: applies to league configs only" in capsys.readouterr().err


def test_holdem_train_runs_a_tiny_ppo_run_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = {
        "name": "tiny_ppo",
        "seed": 3,
        "table": {"num_players": 2, "small_blind": 5, "big_blind": 10, "buy_in": 1000},
        "rounds": 1,
        "iterations_per_round": 1,
        "ppo": {"num_envs": 2, "num_steps": 8, "num_minibatches": 1, "update_epochs": 1, "hidden": [8], "opponents": ["random"]},
    }
    path = tmp_path / "tiny_ppo.yaml"
    path.write_text(yaml.safe_dump(config))
    args = ["train", "--config", str(path), "--runs-dir", str(tmp_path / "runs")]
    assert main(args) == 0, capsys.readouterr().err
    run_dir = tmp_path / "runs" / "tiny_ppo"
    assert (run_dir / "policy.pt").is_file() and (run_dir / "checkpoint.pt").is_file()
    assert "round 1/1" in capsys.readouterr().out
    assert main(args) == 2  # the run folder exists: refused, nothing overwritten
    assert "already exists" in capsys.readouterr().err
    assert main([*args, "--overwrite"]) == 0


@pytest.mark.parametrize(
    ("field", "value"), [("rounds_done", -1), ("rounds_done", True), ("global_step", "many"), ("pool", [])]
)
def test_a_tampered_ppo_checkpoint_is_refused_on_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: object
) -> None:
    """Every checkpoint field is checked before the run resumes: a tampered one is one line naming
    the file and the field, and nothing is trained."""
    import torch

    config = {
        "name": "tampered", "seed": 3, "table": {"num_players": 2}, "rounds": 2, "iterations_per_round": 1,
        "ppo": {"num_envs": 2, "num_steps": 8, "num_minibatches": 1, "update_epochs": 1, "hidden": [8], "opponents": ["random"]},
    }
    path = tmp_path / "tampered.yaml"
    path.write_text(yaml.safe_dump(config))
    args = ["train", "--config", str(path), "--runs-dir", str(tmp_path / "runs")]
    assert main([*args, "--rounds", "1"]) == 0, capsys.readouterr().err
    ck = tmp_path / "runs" / "tampered" / "checkpoint.pt"
    state = torch.load(ck, weights_only=True)
    state[field] = value
    torch.save(state, ck)
    capsys.readouterr()
    assert main([*args, "--resume"]) == 2
    err = capsys.readouterr().err
    assert "checkpoint.pt" in err and field in err and "Traceback" not in err, err


def test_a_ppo_run_that_died_before_its_first_checkpoint_starts_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run folder with logs but no checkpoint.pt (killed in its first round) is started again
    without --overwrite; one with a checkpoint is refused (pass --resume)."""
    config = {
        "name": "died", "seed": 3, "table": {"num_players": 2}, "rounds": 1, "iterations_per_round": 1,
        "ppo": {"num_envs": 2, "num_steps": 8, "num_minibatches": 1, "update_epochs": 1, "hidden": [8], "opponents": ["random"]},
    }
    path = tmp_path / "died.yaml"
    path.write_text(yaml.safe_dump(config))
    run_dir = tmp_path / "runs" / "died"
    run_dir.mkdir(parents=True)
    (run_dir / "config.yaml").write_text("left by a killed run\n")
    args = ["train", "--config", str(path), "--runs-dir", str(tmp_path / "runs")]
    assert main(args) == 0, capsys.readouterr().err
    assert (run_dir / "checkpoint.pt").is_file()
    assert main(args) == 2 and "already exists" in capsys.readouterr().err


def test_duplicate_keys_in_a_ppo_run_config_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text("name: dup\nrounds: 1\nrounds: 2\n")
    assert main(["train", "--config", str(path), "--runs-dir", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err
    assert "rounds" in err and "Traceback" not in err, err
