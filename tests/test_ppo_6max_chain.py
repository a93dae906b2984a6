"""The shipped ``ppo-6max``'s chain of configs: run F (``configs/ppo_6max_f.yaml``) wrote the kept
policy ``benchmarks/policies/ppo_6max_f75.pt``, and ``configs/ppo_6max.yaml`` continues it (a ppo
policy of the same network as anchor is continued, not distilled)."""

from __future__ import annotations

from pathlib import Path

import torch

from holdem_env.agents.ppo import PpoPolicy
from holdem_env.training.ppo.config import load_run_config
from holdem_env.training.ppo.learner import PpoLearner

ROOT = Path(__file__).resolve().parent.parent


def test_the_kept_round_is_what_run_f_writes_at_its_rounds() -> None:
    run_f = load_run_config(ROOT / "configs" / "ppo_6max_f.yaml")
    meta = PpoPolicy.load(ROOT / "benchmarks" / "policies" / "ppo_6max_f75.pt").metadata
    assert (meta["run"], meta["seed"], meta["round"]) == (run_f.name, run_f.seed, run_f.rounds)
    assert meta["iteration"] == run_f.rounds * run_f.iterations_per_round


def test_the_shipped_config_continues_the_kept_round(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)  # the anchor's path is relative to the repository root
    cfg = load_run_config(ROOT / "configs" / "ppo_6max.yaml")
    assert cfg.ppo.anchor == "ppo(policy='benchmarks/policies/ppo_6max_f75.pt')"
    learner = PpoLearner(cfg.ppo, cfg.table, cfg.seed, name=cfg.name)
    try:
        learner.ensure_anchor()
        assert learner.anchor_stats == {"agreement": 1.0}  # continued: no distillation ran
        kept = PpoPolicy.load(ROOT / "benchmarks" / "policies" / "ppo_6max_f75.pt").model.state_dict()
        for model in (learner.model, learner.anchor):  # round 0 and the KL anchor are the kept policy
            assert model is not None
            state = model.state_dict()
            assert state.keys() == kept.keys() and all(torch.equal(state[k], kept[k]) for k in kept)
    finally:
        learner.close()
