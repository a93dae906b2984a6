"""The league measures a ppo learner's LBR from round 0 (its starting policy, before any PPO iteration) and logs the AIVAT estimate beside the plain mean."""

from __future__ import annotations

import json
from pathlib import Path

import torch

from holdem_env.agents.ppo import PpoPolicy
from holdem_env.training.config import LeagueConfig


def _config(tmp: Path) -> LeagueConfig:
    return LeagueConfig.from_dict({
        "name": "ppo-lbr-start",
        "seed": 5,
        "table": {"num_players": 2, "small_blind": 5, "big_blind": 10, "buy_in": 1000},
        "agents": [{"name": "random", "spec": "random"}, {"name": "bot", "spec": "ppo", "train": True}],
        "ppo": {"iterations_per_round": 1, "num_envs": 4, "num_steps": 8, "hidden": [16], "num_minibatches": 2,
                "update_epochs": 1, "anchor": "tag", "anchor_hands": 40, "anchor_epochs": 1, "anchor_opponents": ["random"], "kl_coef": 0.02},
        "league": {"rounds": 2, "eval_every": 1, "eval_hands": 8, "lbr_every": 1, "lbr_hands": 4},
        "logging": {"runs_dir": str(tmp / "runs"), "plot": False},
        "backend": {"kind": "local", "workers": 1},
    })


def test_the_starting_policy_is_the_anchor(tmp_path: Path) -> None:
    from holdem_env.training.league import _make_ppo_learner

    cfg = _config(tmp_path)
    learner = _make_ppo_learner(cfg, "bot")
    path = tmp_path / "start.pt"
    learner.save_start_policy(path, {"round": 0})
    saved = PpoPolicy.load(path).model.state_dict()
    anchor = learner.learner.anchor
    assert anchor is not None  # distilled by save_start_policy, as the first round would
    for k, v in anchor.state_dict().items():
        assert torch.equal(saved[k], v), k
    learner.close()


def test_league_logs_lbr_from_round_zero_with_aivat_and_plain(tmp_path: Path) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from holdem_env.training.league import run_league, scalar_names

    cfg = _config(tmp_path)
    result = run_league(cfg)
    ea = EventAccumulator(str(result.run_dir), size_guidance={"scalars": 0})
    ea.Reload()
    for tag in ("eval/bot/lbr_mbb", "eval/bot/lbr_ci95", "eval/bot/lbr_plain_mbb", "eval/bot/lbr_plain_ci95"):
        assert tag in scalar_names(cfg)
        assert [e.step for e in ea.Scalars(tag)] == [0, 1, 2], tag
    assert [e.step for e in ea.Scalars("eval/random/lbr_mbb")] == [2]  # a fixed agent: once, after the last round
    data = json.loads((result.run_dir / "league.json").read_text())
    bot = [x for x in data["lbr"] if x["agent"] == "bot"]
    assert [x["round"] for x in bot] == [0, 1, 2]
    assert all({"lbr_plain_mbb", "lbr_plain_ci95", "hands"} <= set(x) for x in bot)
    row = next(r for r in data["table"] if r["agent"] == "bot")
    assert row["lbr_mbb"] == bot[-1]["lbr_mbb"]  # the table shows the latest round's, not round 0's
