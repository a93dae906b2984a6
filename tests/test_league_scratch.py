"""A league ppo learner with ``start: scratch``: round 0 is the untrained network, the anchor is a separate distilled copy, and each round's behaviour cloning moves the learner towards the teacher."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from holdem_env.agents.ppo import ActorCritic, PolicyConfig, PpoPolicy
from holdem_env.engine.errors import ConfigError
from holdem_env.training.config import LeagueConfig
from holdem_env.training.ppo import LeaguePpoSettings

PPO: dict[str, Any] = {
    "iterations_per_round": 1, "num_envs": 4, "num_steps": 8, "hidden": [16], "num_minibatches": 2,
    "update_epochs": 1, "anchor": "tag", "anchor_hands": 60, "anchor_epochs": 3, "anchor_opponents": ["random"],
    "kl_coef": 0.02, "start": "scratch", "bc_epochs": [2, 2],
}


def _config(tmp: Path, **ppo: Any) -> LeagueConfig:
    return LeagueConfig.from_dict({
        "name": "ppo-scratch",
        "seed": 5,
        "table": {"num_players": 2, "small_blind": 5, "big_blind": 10, "buy_in": 1000},
        "agents": [{"name": "random", "spec": "random"}, {"name": "bot", "spec": "ppo", "train": True}],
        "ppo": {**PPO, **ppo},
        "league": {"rounds": 2, "eval_every": 1, "eval_hands": 8, "lbr_every": 1, "lbr_hands": 4},
        "logging": {"runs_dir": str(tmp / "runs"), "plot": False},
        "backend": {"kind": "local", "workers": 1},
    })


def _learner(tmp: Path, **ppo: Any) -> Any:
    from holdem_env.training.league import _make_ppo_learner

    return _make_ppo_learner(_config(tmp, **ppo), "bot")


def _teacher_agreement(learner: Any) -> float:
    """Share of the anchor's demonstrations where the learner's most likely action is the teacher's."""
    lr = learner.learner
    demos = learner._demonstrations()
    x = torch.from_numpy(PpoPolicy(lr.policy_config, lr.model).encode(demos.observations))
    with torch.no_grad():
        logits, _ = lr.model(x, torch.from_numpy(demos.masks.astype(np.int64)))
    return float((logits.argmax(-1) == torch.from_numpy(demos.actions)).double().mean())


@pytest.mark.parametrize(
    ("key", "value", "word"),
    [("start", "warm", "anchor or scratch"), ("bc_epochs", 3, "list"), ("bc_epochs", [1, -1], "bc_epochs[1]"),
     ("bc_epochs", [1.5], "bc_epochs[0]"), ("bc_epochs", "12", "list")],
)
def test_bad_settings_are_named(key: str, value: Any, word: str) -> None:
    with pytest.raises(ConfigError) as exc:
        LeaguePpoSettings.from_dict({"anchor": "tag", "start": "scratch", key: value})
    assert f"ppo.{key}" in str(exc.value) and word in str(exc.value)


def test_scratch_needs_an_anchor_and_bc_needs_scratch() -> None:
    with pytest.raises(ConfigError, match="ppo.start"):
        LeaguePpoSettings.from_dict({"start": "scratch"})
    with pytest.raises(ConfigError, match="ppo.bc_epochs"):
        LeaguePpoSettings.from_dict({"anchor": "tag", "bc_epochs": [1]})


def test_settings_round_trip_through_the_league_yaml(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    again = LeagueConfig.from_dict(cfg.to_dict())
    assert again.ppo == cfg.ppo
    assert again.ppo.bc_epochs == (2, 2) and again.ppo.start == "scratch"
    assert "bc_epochs:\n  - 2\n  - 2" in cfg.to_yaml().replace("    -", "  -")


def test_round_zero_is_the_untrained_network_and_the_anchor_a_separate_copy(tmp_path: Path) -> None:
    learner = _learner(tmp_path)
    path = tmp_path / "start.pt"
    learner.save_start_policy(path, {"round": 0})
    saved = PpoPolicy.load(path).model.state_dict()
    with torch.random.fork_rng(devices=[]):  # the network the learner's seed builds, untouched
        torch.manual_seed(learner.learner.seed)
        fresh = ActorCritic(PolicyConfig(num_players=2, stack_bb=100.0, hidden=(16,)))
    for k, v in fresh.state_dict().items():
        assert torch.equal(saved[k], v), k
    anchor = learner.learner.anchor
    assert anchor is not None and not any(p.requires_grad for p in anchor.parameters())
    assert any(not torch.equal(anchor.state_dict()[k], v) for k, v in saved.items())  # distilled, apart
    learner.close()


def test_each_rounds_behaviour_cloning_moves_the_learner_towards_the_teacher(tmp_path: Path) -> None:
    learner = _learner(tmp_path, iterations_per_round=0, bc_epochs=[15, 15, 0])
    before = _teacher_agreement(learner)
    learner.train_round(1)
    after1 = _teacher_agreement(learner)
    learner.train_round(2)
    after2 = _teacher_agreement(learner)
    w = {k: v.clone() for k, v in learner.learner.model.state_dict().items()}
    assert learner.behaviour_clone(3) is None  # no epochs this round: the network is left alone
    learner.train_round(3)
    assert all(torch.equal(w[k], v) for k, v in learner.learner.model.state_dict().items())
    assert before < after1 <= after2
    assert before < 0.2 and after2 > 0.5  # an untrained network agrees by chance only; then mostly tag's choices
    learner.close()


def test_a_scratch_round_is_deterministic(tmp_path: Path) -> None:
    states = []
    for i in range(2):
        learner = _learner(tmp_path / str(i))
        learner.train_round(1)
        states.append(learner.learner.model.state_dict())
        learner.close()
    for k, v in states[0].items():
        assert torch.equal(states[1][k], v), k


def test_an_anchor_start_is_unchanged(tmp_path: Path) -> None:
    """The default start distils the teacher into the network itself (round 0 is the anchor)."""
    learner = _learner(tmp_path, start="anchor", bc_epochs=[])
    assert learner.behaviour_clone(1) is None
    path = tmp_path / "start.pt"
    learner.save_start_policy(path)
    saved = PpoPolicy.load(path).model.state_dict()
    anchor = learner.learner.anchor
    assert anchor is not None
    assert all(torch.equal(saved[k], v) for k, v in anchor.state_dict().items())
    learner.close()


def test_league_logs_the_rounds_behaviour_cloning_and_lbr_from_the_untrained_start(tmp_path: Path) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from holdem_env.training.league import run_league, scalar_names

    cfg = _config(tmp_path)
    result = run_league(cfg)
    ea = EventAccumulator(str(result.run_dir), size_guidance={"scalars": 0})
    ea.Reload()
    for tag in ("losses/bc_cross_entropy", "losses/bc_agreement", "losses/bc_value_loss"):
        assert tag in scalar_names(cfg)
        assert [e.step for e in ea.Scalars(tag)] == [1, 2], tag
    assert [e.step for e in ea.Scalars("eval/bot/lbr_mbb")] == [0, 1, 2]
