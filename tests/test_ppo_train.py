"""The PPO trainer: GAE, the loss and update, the opponent pool, determinism, resume, a tiny run."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from holdem_env.agents.ppo import ActorCritic, PolicyConfig
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, HoldemError
from holdem_env.training.arena import ArenaConfig, run_match
from holdem_env.training.pool import OpponentPool
from holdem_env.training.ppo import (
    PpoLearner,
    PpoRunConfig,
    PpoSettings,
    compute_gae,
    load_run_config,
    main,
    ppo_loss,
    ppo_update,
)

TINY = {"num_envs": 4, "num_steps": 8, "hidden": (16,), "num_minibatches": 2, "update_epochs": 2}


# -- GAE ----------------------------------------------------------------------------------------
def test_gae_against_a_hand_computed_case() -> None:
    # One table, three steps; the hand ends at step 1, a new one starts at step 2.
    rewards = np.array([[0.0], [2.0], [0.0]])
    values = np.array([[1.0], [0.5], [0.25]])
    terminated = np.array([[False], [True], [False]])
    next_value = np.array([3.0])
    gamma, lam = 0.9, 0.8
    adv, ret = compute_gae(rewards, values, terminated, next_value, gamma, lam)
    d2 = 0.0 + 0.9 * 3.0 - 0.25  # 2.45: bootstraps from the value after the rollout
    d1 = 2.0 - 0.5  # 1.5: terminal, no bootstrap
    d0 = 0.0 + 0.9 * 0.5 - 1.0  # -0.55
    a2, a1 = d2, d1  # the episode boundary cuts the recursion
    a0 = d0 + 0.9 * 0.8 * a1
    np.testing.assert_allclose(adv.ravel(), [a0, a1, a2])
    np.testing.assert_allclose(ret.ravel(), [a0 + 1.0, a1 + 0.5, a2 + 0.25])


def test_gae_with_lambda_one_is_the_discounted_return() -> None:
    rewards = np.array([[1.0, 0.0], [0.0, 0.0], [3.0, 1.0]])
    values = np.zeros((3, 2))
    terminated = np.array([[False, True], [False, False], [True, False]])
    adv, ret = compute_gae(rewards, values, terminated, np.array([0.0, 5.0]), 0.5, 1.0)
    np.testing.assert_allclose(ret[:, 0], [1.0 + 0.25 * 3.0, 0.5 * 3.0, 3.0])
    np.testing.assert_allclose(ret[:, 1], [0.0, 0.5 * 1.0 + 0.25 * 5.0, 1.0 + 0.5 * 5.0])


# -- the loss and the update --------------------------------------------------------------------
def _fixed_batch(config: PolicyConfig, n: int = 64) -> dict[str, torch.Tensor]:
    g = np.random.default_rng(0)
    masks = (g.random((n, config.num_actions)) < 0.6).astype(np.int64)
    masks[:, 1] = 1
    actions = np.array([g.choice(np.flatnonzero(m)) for m in masks])
    return {
        "x": torch.from_numpy(g.normal(size=(n, config.input_size)).astype(np.float32)),
        "masks": torch.from_numpy(masks),
        "actions": torch.from_numpy(actions),
        "logprobs": torch.full((n,), float(np.log(0.2)), dtype=torch.float32),
        "advantages": torch.from_numpy(g.normal(size=n).astype(np.float32)),
        "returns": torch.from_numpy(g.normal(size=n).astype(np.float32)),
    }


def test_an_update_lowers_the_loss_on_a_fixed_batch() -> None:
    torch.manual_seed(0)
    settings = PpoSettings(**{**TINY, "update_epochs": 4, "learning_rate": 1e-3})
    config = PolicyConfig(hidden=(16,))
    model = ActorCritic(config)
    batch = _fixed_batch(config)
    before, parts = ppo_loss(model, batch, settings)
    assert parts["entropy"] > 0 and parts["clipfrac"] >= 0
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
    ppo_update(model, optimizer, batch, settings, np.random.default_rng(0))
    after, _ = ppo_loss(model, batch, settings)
    assert after.item() < before.item() - 0.01


def test_the_loss_is_zero_gradient_for_masked_ids() -> None:
    torch.manual_seed(1)
    config = PolicyConfig(hidden=(8,))
    model = ActorCritic(config)
    batch = _fixed_batch(config, 16)
    loss, _ = ppo_loss(model, batch, PpoSettings(**TINY))
    assert torch.isfinite(loss)
    loss.backward()
    assert all(torch.isfinite(p.grad).all() for p in model.parameters() if p.grad is not None)


# -- the pool -----------------------------------------------------------------------------------
def test_the_pool_prefers_the_members_the_learner_does_worst_against() -> None:
    pool = OpponentPool(["random", "tag", "random-type"], window=100, temperature=200.0, uniform_share=0.3)
    assert pool.weights() == pytest.approx([1 / 3] * 3)  # nothing known yet
    for _ in range(50):
        pool.record(0, 2.0)   # +2000 mbb/hand
        pool.record(1, -0.1)  # -100 mbb/hand
    w = pool.weights()
    assert w[1] == pytest.approx(w[2])  # an unplayed member counts as the worst seen: tied with tag
    assert w[2] > w[0]
    assert w[0] == pytest.approx(0.3 / 3 + 0.7 * np.exp(-2100 / 200) / (2 + np.exp(-2100 / 200)))
    draws = np.bincount([pool.sample(0, np.random.default_rng(i)) for i in range(3000)], minlength=3) / 3000
    np.testing.assert_allclose(draws, w, atol=0.03)
    assert pool.results() == {"random": 2000.0, "tag": pytest.approx(-100.0), "random-type": None}


def test_the_pool_keeps_the_newest_snapshots() -> None:
    config = PolicyConfig(hidden=(4,))
    from holdem_env.agents.ppo import PpoPolicy

    pool = OpponentPool(["random"], max_snapshots=2)
    for i in range(3):
        pool.add_snapshot(f"ppo@{i}", PpoPolicy(config))
        pool.record(len(pool.members) - 1, float(i))
    assert pool.members == ["random", "ppo@1", "ppo@2"]
    assert pool.results() == {"random": None, "ppo@1": 1000.0, "ppo@2": 2000.0}
    with pytest.raises(ConfigError, match="unique"):
        pool.add_snapshot("ppo@2", PpoPolicy(config))


# -- the learner --------------------------------------------------------------------------------
def _assert_resume_gives(
    expected: dict[str, torch.Tensor], settings: PpoSettings, table: TableConfig, checkpoint, iterations: int
) -> None:
    """A learner resumed from ``checkpoint`` (seed 3) and trained ``iterations`` in round 2 has the ``expected`` weights."""
    resumed = PpoLearner(settings, table, seed=3)
    resumed.load_checkpoint(checkpoint)
    try:
        resumed.train_round(iterations, 2)
    finally:
        resumed.close()
    got = _weights(resumed)
    assert all(torch.equal(expected[k], got[k]) for k in expected)


def _weights(learner: PpoLearner) -> dict[str, torch.Tensor]:
    return {k: v.clone() for k, v in learner.model.state_dict().items()}


def test_same_seed_same_policy_and_resume_is_identical(tmp_path) -> None:
    settings = PpoSettings(**TINY, opponents=("random",), snapshot_every=1, max_snapshots=2)
    table = TableConfig(num_players=2)
    straight = PpoLearner(settings, table, seed=3)
    straight.train_round(2, 1)
    straight.train_round(2, 2)
    first = PpoLearner(settings, table, seed=3)
    first.train_round(2, 1)
    first.save_checkpoint(tmp_path / "ck.pt")
    resumed = PpoLearner(settings, table, seed=3)
    resumed.load_checkpoint(tmp_path / "ck.pt")
    resumed.train_round(2, 2)
    a, b = _weights(straight), _weights(resumed)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert straight.pool.members == resumed.pool.members == ["random", "ppo@3", "ppo@4"]
    assert straight.pool.results() == resumed.pool.results()
    other = PpoLearner(settings, table, seed=4)
    other.train_round(2, 1)
    assert not torch.equal(_weights(other)["actor.0.weight"], _weights(first)["actor.0.weight"])


def test_rollout_workers_are_deterministic_and_every_hand_reaches_the_pool(tmp_path) -> None:
    """Two worker processes (``num_workers: 2``): the same seed gives the same policy twice,
    every table's decisions come back (one rollout column per table), the hands the workers
    played are recorded in the learner's pool, and a resume from a checkpoint gives the
    identical policy. One worker (the default) is a different run: its tables are seeded
    differently."""
    settings = PpoSettings(**{**TINY, "num_envs": 5}, opponents=("random",), snapshot_every=1, max_snapshots=1,
                           num_workers=2)
    table = TableConfig(num_players=2)
    runs = []
    for _ in range(2):
        learner = PpoLearner(settings, table, seed=3)
        try:
            stats = learner.train_round(2, 1)
            learner.save_checkpoint(tmp_path / "ck.pt")
            learner.train_round(1, 2)
        finally:
            learner.close()
        runs.append(learner)
        assert stats.decisions == 2 * 5 * 8 and learner.global_step == 3 * 5 * 8
        assert learner.pool.results()["random"] is not None
    a, b = _weights(runs[0]), _weights(runs[1])
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert runs[0].pool.state_dict()["results"] == runs[1].pool.state_dict()["results"]
    _assert_resume_gives(a, settings, table, tmp_path / "ck.pt", iterations=1)
    single = PpoLearner(PpoSettings(**{**TINY, "num_envs": 5}, opponents=("random",), snapshot_every=1,
                                    max_snapshots=1), table, seed=3)
    single.train_round(2, 1)
    single.train_round(1, 2)
    assert not torch.equal(_weights(single)["actor.0.weight"], a["actor.0.weight"])
    with pytest.raises(ConfigError, match="ppo.num_workers"):
        PpoSettings(**{**TINY, "num_envs": 4}, num_workers=5)


def test_a_learner_leaves_torchs_global_settings_alone_and_a_round_is_the_same_whatever_they_are() -> None:
    """Constructing and training a learner changes neither torch's thread count, its
    deterministic mode nor its global generator; a round computes with one thread and
    deterministic algorithms whatever the caller set, so the policy is the same."""
    from holdem_env.training.ppo import learner as learner_mod

    seen: list[tuple[int, bool]] = []
    real = learner_mod.ppo_update

    def spy(model, optimizer, batch, settings, rng):  # type: ignore[no-untyped-def]
        seen.append((torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()))
        return real(model, optimizer, batch, settings, rng)

    settings = PpoSettings(**TINY, opponents=("random",), snapshot_every=0)
    table = TableConfig(num_players=2)
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    results = []
    try:
        for user_threads, user_deterministic in ((2, False), (3, True)):
            torch.set_num_threads(user_threads)
            torch.use_deterministic_algorithms(user_deterministic)
            torch.manual_seed(1234)
            rng_state = torch.random.get_rng_state()
            learner = PpoLearner(settings, table, seed=3)
            assert torch.get_num_threads() == user_threads
            assert torch.are_deterministic_algorithms_enabled() is user_deterministic
            assert torch.equal(torch.random.get_rng_state(), rng_state)
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(learner_mod, "ppo_update", spy)
                learner.train_round(2, 1)
            assert torch.get_num_threads() == user_threads
            assert torch.are_deterministic_algorithms_enabled() is user_deterministic
            results.append(_weights(learner))
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)
    assert seen == [(1, True)] * 4
    assert results[0].keys() == results[1].keys()
    assert all(torch.equal(results[0][k], results[1][k]) for k in results[0])


def test_overlap_samples_with_the_network_from_before_the_update_and_is_reproducible(monkeypatch, tmp_path) -> None:
    """``overlap: true``: the workers draw iteration k's rollout (k >= 1) with the network as it
    was before update k - 1 (one iteration of policy lag; the log-probabilities stored with the
    actions are that network's, not the one being updated), the first with the initial one. The
    same seed gives the same policy twice, and a resume from a round's checkpoint the same
    policy. Without two workers it is refused."""
    from holdem_env.training.ppo import learner as ppo_mod

    seen: list[tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]] = []
    real = ppo_mod.ppo_update

    def spy(model, optimizer, batch, settings, rng):  # type: ignore[no-untyped-def]
        seen.append(({k: v.clone() for k, v in model.state_dict().items()}, batch))
        return real(model, optimizer, batch, settings, rng)

    monkeypatch.setattr(ppo_mod, "ppo_update", spy)
    settings = PpoSettings(**TINY, learning_rate=0.05, opponents=("random",), snapshot_every=0, num_workers=2,
                           overlap=True)
    table = TableConfig(num_players=2)
    learners = []
    for run in range(2):
        learner = PpoLearner(settings, table, seed=3)
        try:
            learner.train_round(3, 1)
            if run == 0:
                learner.save_checkpoint(tmp_path / "ck.pt")
            learner.train_round(2, 2)
        finally:
            learner.close()
        learners.append(learner)

    def logp(state: dict[str, torch.Tensor], batch: dict[str, torch.Tensor]) -> torch.Tensor:
        model = ActorCritic(learners[0].policy_config)
        model.load_state_dict(state)
        with torch.no_grad():
            logits, _ = model(batch["x"], batch["masks"])
        return torch.log_softmax(logits, -1).gather(1, batch["actions"][:, None]).squeeze(1)

    first_round = seen[:3]
    for k, (state, batch) in enumerate(first_round):
        drawn_with = first_round[max(k - 1, 0)][0]
        assert torch.allclose(logp(drawn_with, batch), batch["logprobs"], atol=1e-5)
        if k >= 1:  # the network being updated is another one
            assert not torch.allclose(logp(state, batch), batch["logprobs"], atol=1e-3)
    a, b = _weights(learners[0]), _weights(learners[1])
    assert all(torch.equal(a[k], b[k]) for k in a)
    _assert_resume_gives(a, settings, table, tmp_path / "ck.pt", iterations=2)
    with pytest.raises(ConfigError, match="ppo.overlap.*num_workers >= 2"):
        PpoSettings(**TINY, overlap=True)
    with pytest.raises(ConfigError, match="ppo.overlap"):
        PpoSettings(**TINY, num_workers=2, overlap="yes")  # type: ignore[arg-type]


def test_a_failing_rollout_worker_is_a_clear_error() -> None:
    """An opponent that raises inside a worker process: the learner raises HoldemError naming
    the worker and carrying the worker's traceback, and closes cleanly afterwards."""
    settings = PpoSettings(**TINY, opponents=("boomagent:ExplodingAgent",), num_workers=2)
    learner = PpoLearner(settings, TableConfig(num_players=2), seed=0)
    try:
        with pytest.raises(HoldemError, match=r"ppo rollout worker 0 failed:(.|\n)*boom: this agent always fails"):
            learner.train_round(1, 1)
    finally:
        learner.close()
    assert learner._workers is None


def test_resume_under_other_settings_is_refused(tmp_path) -> None:
    table = TableConfig(num_players=2)
    learner = PpoLearner(PpoSettings(**TINY, opponents=("random",)), table, seed=0)
    learner.save_checkpoint(tmp_path / "ck.pt")
    other = PpoLearner(PpoSettings(**{**TINY, "hidden": (8,)}, opponents=("random",)), table, seed=0)
    with pytest.raises(ConfigError, match="other ppo settings"):
        other.load_checkpoint(tmp_path / "ck.pt")


def test_six_max_round_runs_and_every_learner_action_was_legal() -> None:
    # The vector env raises IllegalActionError on any masked action: a finished round proves none was taken.
    learner = PpoLearner(PpoSettings(**TINY, opponents=("random", "tag")), TableConfig(num_players=6), seed=1)
    stats = learner.train_round(1, 1)
    assert stats.decisions == 4 * 8
    assert set(stats.pool) == {"random", "tag"}
    assert sum(stats.weights.values()) == pytest.approx(1.0)


@pytest.mark.slow
def test_a_tiny_run_beats_random(tmp_path) -> None:
    settings = PpoSettings(
        num_envs=16, num_steps=32, hidden=(32, 32), opponents=("random",), snapshot_every=0, learning_rate=1e-3
    )
    learner = PpoLearner(settings, TableConfig(num_players=2), seed=0)
    for r in range(1, 4):
        learner.train_round(3, r)
    path = learner.policy().save(tmp_path / "tiny.pt")
    spec = f"ppo(policy={str(path)!r})"
    result = run_match(ArenaConfig(agents=(spec, "random"), hands=400, seed=11))
    row = next(r for r in result.rows if r["agent"] == spec)
    assert row["mbb_per_hand"] - row["ci95"] > 0, row


# -- the stand-alone run ------------------------------------------------------------------------
def test_the_entry_point_trains_writes_and_resumes(tmp_path) -> None:
    cfg = tmp_path / "run.yaml"
    cfg.write_text(
        "name: smoke\nseed: 2\ntable: {num_players: 2}\nrounds: 1\niterations_per_round: 1\n"
        f"runs_dir: {tmp_path / 'runs'}\npolicy_out: {tmp_path / 'out.pt'}\n"
        "ppo: {num_envs: 2, num_steps: 4, hidden: [8], opponents: [random], num_minibatches: 1, update_epochs: 1}\n"
    )
    main(["--config", str(cfg)])
    run_dir = tmp_path / "runs" / "smoke"
    assert (run_dir / "policy.pt").is_file() and (tmp_path / "out.pt").is_file()
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    tags = set(EventAccumulator(str(run_dir)).Reload().Tags()["scalars"])
    assert {"losses/policy_loss", "losses/value_loss", "losses/entropy", "losses/approx_kl", "losses/clipfrac",
            "charts/SPS", "pool/random/weight"} <= tags
    with pytest.raises(ConfigError, match="already exists"):
        main(["--config", str(cfg)])
    cfg.write_text(cfg.read_text().replace("rounds: 1", "rounds: 2"))
    with pytest.raises(ConfigError, match="differs"):
        main(["--config", str(cfg), "--resume"])


def test_config_errors_name_the_key(tmp_path) -> None:
    with pytest.raises(ConfigError, match="ppo.num_envs"):
        PpoSettings(num_envs=0)
    with pytest.raises(ConfigError, match="ppo.clip_coef"):
        PpoSettings(clip_coef=0.0)
    with pytest.raises(ConfigError, match="ppo.hidden"):
        PpoSettings(hidden=())
    with pytest.raises(ConfigError, match="ppo.colour"):
        PpoSettings.from_dict({"colour": 1})
    with pytest.raises(ConfigError, match="opponents"):
        PpoLearner(PpoSettings(opponents=("nosuchbot",)), TableConfig(num_players=2), seed=0)
    with pytest.raises(ConfigError, match="table.betting"):
        PpoRunConfig(name="x", table=TableConfig(num_players=2, betting="pot-limit"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nrounds: 0\n")
    with pytest.raises(ConfigError, match="rounds"):
        load_run_config(bad)
