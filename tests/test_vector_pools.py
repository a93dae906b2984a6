"""Opponent pools on the vector env's batched core: a pool of several members (rule bots, cfr-lite,
exploiters, ppo snapshots) drawn per hand plays the same hands with the same results as on the
per-table backend (``backend="tables"``) from the same seed, and the pool hears the same hands."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from holdem_env.agents.ppo import PolicyConfig, PpoPolicy
from holdem_env.batched import Members
from holdem_env.env.vector import HoldemVectorEnv
from holdem_env.training.pool import OpponentPool


class _Listening(OpponentPool):
    """An OpponentPool that also keeps every payoff it is told, per member."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heard: dict[int, list[float]] = {}

    def record(self, member: int, payoff: float) -> None:
        super().record(member, payoff)
        self.heard.setdefault(member, []).append(round(float(payoff), 9))

    def record_many(self, member: int, payoffs: Any) -> None:
        for p in np.asarray(payoffs, dtype=np.float64).tolist():
            self.record(member, p)


def _pool(specs: list[str], snapshots: int = 0, players: int = 2) -> _Listening:
    pool = _Listening(specs, uniform_share=1.0, max_snapshots=max(snapshots, 1))  # uniform weights: they never move
    for k in range(snapshots):
        torch.manual_seed(k)
        pool.add_snapshot(f"snap{k}", PpoPolicy(PolicyConfig(num_players=players, hidden=(16,))))
    return pool


def _run(backend: str, specs: list[str], players: int, steps: int, snapshots: int = 0, **kw: Any) -> dict[str, Any]:
    pool = _pool(specs, snapshots, players)
    venv = HoldemVectorEnv(5, pool, num_players=players, backend=backend, **kw)
    assert venv.backend == backend, venv.backend_reason
    obs, infos = venv.reset(seed=21)
    rng = np.random.default_rng(4)
    out: dict[str, Any] = {"obs": [obs["observation"]], "mask": [obs["action_mask"]], "seat": [infos["seat"]],
                           "opponent": [infos["opponent"]], "rew": [], "term": [], "final": []}
    for _ in range(steps):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]], dtype=np.int64)
        obs, rew, term, _trunc, infos = venv.step(acts)
        out["obs"].append(obs["observation"])
        out["mask"].append(obs["action_mask"])
        out["seat"].append(infos["seat"])
        out["opponent"].append(infos["opponent"])
        out["rew"].append(rew)
        out["term"].append(term)
        if term.any():
            out["final"].append(np.where(term, infos["final_opponent"], -1))
    out["heard"] = {m: sorted(v) for m, v in pool.heard.items()}
    out["hands"] = venv.hands_played
    return out


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("obs", "mask", "seat", "opponent", "rew", "term", "final"):
        assert len(a[key]) == len(b[key]), key
        for i, (x, y) in enumerate(zip(a[key], b[key], strict=True)):
            assert np.array_equal(x, y), f"{key} differs at step {i}"
    assert a["hands"] == b["hands"] and a["heard"] == b["heard"]


MIXED = ["tag", "cfr-lite", "min-raiser", "shover", "check-raiser", "barreler", "calling-station"]


@pytest.mark.parametrize(("players", "steps"), [(2, 120), (6, 60)])
def test_a_mixed_pool_plays_the_same_hands_on_both_backends(players: int, steps: int) -> None:
    batched = _run("batched", MIXED, players, steps, action_mode="exact")
    tables = _run("tables", MIXED, players, steps, action_mode="exact")
    _same(batched, tables)
    members = np.concatenate(batched["opponent"])
    assert set(members.tolist()) == set(range(len(MIXED)))  # every member played
    assert sum(len(v) for v in batched["heard"].values()) == batched["hands"] > 5 * steps // players


def test_ppo_snapshots_and_exploiters_in_one_pool_on_both_backends() -> None:
    # discrete learner actions; the exploiters here raise to sizes the discrete set has (min-raise, all-in)
    specs = ["min-raiser", "shover"]
    batched = _run("batched", specs, 2, 100, snapshots=2, action_mode="discrete")
    tables = _run("tables", specs, 2, 100, snapshots=2, action_mode="discrete")
    _same(batched, tables)
    assert set(np.concatenate(batched["opponent"]).tolist()) == set(range(4))


def test_the_pool_gives_members_only_when_every_member_decides_in_batch() -> None:
    pool = OpponentPool(["tag", "min-raiser"])
    got = pool.batched_bot()
    assert isinstance(got, Members) and len(got.bots) == 2 and got.names == ["tag", "min-raiser"]
    assert pool.batched_bot().bots[0] is got.bots[0]  # built once
    assert OpponentPool(["tag"]).batched_bot().__class__.__name__ == "TagAgent"  # one member: the bot itself
    assert OpponentPool(["tag", "always-fold"]).batched_bot() is None  # always-fold has no decide
    venv = HoldemVectorEnv(2, OpponentPool(["tag", "always-fold"]), num_players=2)
    assert venv.backend == "tables" and "every member" in venv.backend_reason


def test_prioritised_weights_keep_working_on_the_batched_core() -> None:
    """With PFSP weights (which move as results come in) the batched run is deterministic, every
    finished hand reaches the pool under the member that played it, and the weights follow the results."""
    def run() -> tuple[list[float], dict[int, list[float]], int]:
        pool = _Listening(["calling-station", "min-raiser", "shover", "pot-bettor"], window=50, temperature=100.0, uniform_share=0.1)
        venv = HoldemVectorEnv(8, pool, num_players=2)
        assert venv.backend == "batched"
        venv.reset(seed=3)
        for _ in range(150):
            venv.step(np.ones(8, dtype=np.int64))  # the learner checks or calls
        return pool.weights(), pool.heard, venv.hands_played

    w1, heard1, hands = run()
    w2, heard2, _ = run()
    assert w1 == w2 and heard1 == heard2
    assert sum(len(v) for v in heard1.values()) == hands
    assert len(heard1) == 4
    results = {m: np.mean(v[-50:]) for m, v in heard1.items()}
    assert np.argmax(w1) == min(results, key=results.get)  # the weight goes where the learner does worst


def test_a_source_that_records_nothing_keeps_no_hand_log() -> None:
    class Quiet:  # sample, agent and batched_bot only
        def __init__(self) -> None:
            self.pool = OpponentPool(["min-raiser", "shover", "calling-station"])

        def sample(self, table: int, rng: np.random.Generator) -> int:
            return self.pool.sample(table, rng)

        def agent(self, member: int, table: int, seat: int) -> Any:
            return self.pool.agent(member, table, seat)

        def batched_bot(self) -> Any:
            return self.pool.batched_bot()

    venv = HoldemVectorEnv(4, Quiet(), num_players=2)
    assert venv.backend == "batched"
    venv.reset(seed=1)
    for _ in range(30):
        venv.step(np.ones(4, dtype=np.int64))
    assert venv.hands_played > 20 and venv._batched.bt.hand_log == []  # type: ignore[union-attr]
