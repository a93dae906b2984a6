"""ppo in the league: ``train: true`` trains it round by round, scalars, policy files, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from holdem_env.engine.errors import ConfigError
from holdem_env.training.config import LeagueConfig


def _config(tmp: Path, rounds: int = 2) -> LeagueConfig:
    return LeagueConfig.from_dict({
        "name": "ppo-tiny",
        "seed": 4,
        "table": {"num_players": 2},
        "agents": [{"name": "random", "spec": "random"}, {"name": "bot", "spec": "ppo", "train": True}],
        "ppo": {"iterations_per_round": 2, "num_envs": 4, "num_steps": 8, "hidden": [16], "num_minibatches": 2,
                "update_epochs": 1, "snapshot_every": 2},
        "league": {"rounds": rounds, "eval_every": 1, "eval_hands": 40},
        "logging": {"runs_dir": str(tmp / "runs"), "plot": False},
        "backend": {"kind": "local", "workers": 1},
    })


def _scalars(run_dir: Path) -> dict[str, list[tuple[int, float]]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    ea = EventAccumulator(str(run_dir), size_guidance={"scalars": 0})
    ea.Reload()
    return {tag: [(e.step, e.value) for e in ea.Scalars(tag)] for tag in ea.Tags()["scalars"]}


def test_a_ppo_agent_trains_in_the_league_and_logs_its_scalars(tmp_path: Path) -> None:
    from holdem_env.training.league import run_league, scalar_names

    cfg = _config(tmp_path)
    assert [a.name for a in cfg.ppo_trainers] == ["bot"] and cfg.cfr_trainers == ()
    assert LeagueConfig.from_dict(cfg.to_dict()) == cfg
    result = run_league(cfg)
    run_dir = result.run_dir
    assert (run_dir / "policies" / "bot.pt").is_file()
    kept = f"round_{result.chosen['bot']['round']:04d}.pt"  # the chosen round's file stays beside the latest
    assert {p.name for p in (run_dir / "policies" / "bot").iterdir()} == {"round_0002.pt", kept}
    assert (run_dir / "policies" / "bot.pt").read_bytes() == (run_dir / "policies" / "bot" / kept).read_bytes()
    scalars = _scalars(run_dir)
    names = scalar_names(cfg)
    for tag in ("losses/policy_loss", "losses/value_loss", "losses/entropy", "losses/approx_kl", "losses/clipfrac",
                "charts/SPS", "pool/random/mbb_per_hand", "pool/random/weight"):
        assert tag in names and [s for s, _ in scalars[tag]] == [1, 2], tag
    missing = [n for n in names if n not in scalars and n.rsplit("/", 1)[-1] not in ("three_bet", "af", "wtsd", "wsd")]
    assert not missing
    data = json.loads((run_dir / "league.json").read_text())
    by = {(p["agent"], p["opponent"]): p["mbb_per_hand"] for p in data["pairs"]}
    assert by[("bot", "random")] == pytest.approx(-by[("random", "bot")])


def test_a_resumed_league_ends_with_the_same_table(tmp_path: Path) -> None:
    from holdem_env.training.league import run_league

    straight = run_league(_config(tmp_path / "a"))
    cfg = _config(tmp_path / "b")
    stopped = run_league(cfg, stop_after_round=1)
    assert not stopped.finished
    resumed = run_league(cfg, resume=True)
    assert resumed.table == straight.table and resumed.pairs == straight.pairs


def test_ppo_league_config_errors() -> None:
    base = {"name": "t", "agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "ppo", "train": True}]}
    with pytest.raises(ConfigError, match="ppo.num_envs"):
        LeagueConfig.from_dict({**base, "ppo": {"num_envs": 0}})
    with pytest.raises(ConfigError, match="ppo.iterations_per_round"):
        LeagueConfig.from_dict({**base, "ppo": {"iterations_per_round": -1}})
    with pytest.raises(ConfigError, match="ppo.colour"):
        LeagueConfig.from_dict({**base, "ppo": {"colour": 1}})
    policy_arg = {"name": "b", "spec": "ppo(policy='x.pt')", "train": True}
    with pytest.raises(ConfigError, match="drop the policy= argument"):
        LeagueConfig.from_dict({**base, "agents": [base["agents"][0], policy_arg]})
