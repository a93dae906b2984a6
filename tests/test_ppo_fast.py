"""The ppo agent's single-decision path: numpy forward pass and row features equal the batched torch path."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from holdem_env import nlhe_v1
from holdem_env.agents.features import encode_batch, encode_row, features_batch, features_row, observation_scale
from holdem_env.agents.ppo import PolicyConfig, PpoAgent, PpoPolicy, sample_actions
from holdem_env.agents.ppo_fast import NumpyActor, actor_of, probabilities_one, sample_row
from holdem_env.engine.errors import HoldemError
from holdem_env.env import loop


def _decisions(num_players: int, hands: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) of every decision of ``hands`` hands played mostly by calling (all streets seen)."""
    env = nlhe_v1.raw_env(num_players=num_players)
    rng = np.random.default_rng(seed)
    out = []
    for o, _info in loop.decisions(env, hands, seed=seed * 1000):
        out.append((o["observation"].copy(), o["action_mask"].copy()))
        legal = np.flatnonzero(o["action_mask"])
        call = 1 if o["action_mask"][1] else int(legal[0])
        env.step(call if rng.random() < 0.7 else int(rng.choice(legal)))
    return out


@pytest.fixture(scope="module")
def decisions() -> dict[int, list[tuple[np.ndarray, np.ndarray]]]:
    return {n: _decisions(n, 12, n) for n in (2, 3, 6)}


def test_the_decisions_reach_every_street(decisions: dict[int, list[tuple[np.ndarray, np.ndarray]]]) -> None:
    from holdem_env.env import _obs

    for rows in decisions.values():
        board_sizes = {int(o[_obs.OFF_BOARD : _obs.OFF_BOARD + 52].sum()) for o, _ in rows}
        assert board_sizes == {0, 3, 4, 5}


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_row_features_equal_batched_features_bit_for_bit(seats: int, decisions: dict) -> None:
    rows = decisions[seats]
    batch = np.stack([o for o, _ in rows])
    together = features_batch(batch)
    alone = np.stack([features_row(o) for o, _ in rows])
    np.testing.assert_array_equal(alone, together)
    scale = observation_scale(seats)
    np.testing.assert_array_equal(np.stack([encode_row(o, scale) for o, _ in rows]), encode_batch(batch, scale))
    np.testing.assert_array_equal(np.stack([encode_row(o, scale, False) for o, _ in rows]), batch * scale)
    # a row whose seat holds no cards (padding) has equity 0, like the batch
    blank = np.zeros_like(rows[0][0])
    np.testing.assert_array_equal(features_row(blank), features_batch(blank[None, :])[0])


def test_row_features_refuse_bad_shapes() -> None:
    with pytest.raises(HoldemError, match="one observation row"):
        features_row(np.zeros((1, 158), dtype=np.float32))
    with pytest.raises(HoldemError, match="expected 114"):
        features_row(np.zeros(100, dtype=np.float32))
    with pytest.raises(HoldemError, match="does not match the scale's 158"):
        encode_row(np.zeros(160, dtype=np.float32), observation_scale(2))


@pytest.mark.parametrize(
    ("seats", "hidden", "features"), [(2, (16,), True), (2, (64, 64), True), (3, (32, 8, 8), False), (6, (64, 64), True)]
)
def test_numpy_probabilities_equal_the_torch_network(seats: int, hidden: tuple[int, ...], features: bool, decisions: dict) -> None:
    torch.manual_seed(seats + len(hidden))
    policy = PpoPolicy(PolicyConfig(num_players=seats, hidden=hidden, features=features))
    # the small output head leaves the policy near-uniform: scale it up so the test sees real logits
    with torch.no_grad():
        policy.model.actor[-1].weight.mul_(1000.0)
    rows = decisions[seats]
    obs = np.stack([o for o, _ in rows])
    masks = np.stack([m for _, m in rows])
    ref = policy.probabilities(obs, masks)
    assert ref.max(axis=1).mean() > 0.5  # far from uniform
    ours = np.stack([probabilities_one(policy, o, m) for o, m in rows])
    np.testing.assert_allclose(ours, ref, rtol=0, atol=2e-5)
    assert np.all(ours[masks == 0] == 0.0)
    np.testing.assert_allclose(ours.sum(axis=1), 1.0, atol=1e-12)
    logits_t = policy.model.actor(torch.from_numpy(encode_batch(obs, policy.scale, features))).detach().numpy()
    logits_n = np.stack([actor_of(policy).logits(encode_row(o, policy.scale, features)) for o, _ in rows])
    np.testing.assert_allclose(logits_n, logits_t, rtol=1e-5, atol=1e-4)


def test_the_numpy_copy_follows_weight_changes(decisions: dict) -> None:
    torch.manual_seed(0)
    policy = PpoPolicy(PolicyConfig(hidden=(16,)))
    o, m = decisions[2][5]
    before = probabilities_one(policy, o, m)
    first_copy = actor_of(policy)
    assert actor_of(policy) is first_copy  # copied once while the weights stay put
    opt = torch.optim.SGD(policy.model.parameters(), lr=5.0)  # an optimiser step changes the weights in place
    x = torch.from_numpy(encode_batch(o[None, :], policy.scale))
    loss = -policy.model.actor(x)[0, int(np.flatnonzero(m)[-1])]
    loss.backward()
    opt.step()
    assert actor_of(policy) is first_copy  # a change is seen when announced, not by peeking at torch's internals
    policy.model.weights_changed()
    after = probabilities_one(policy, o, m)
    assert actor_of(policy) is not first_copy
    assert np.abs(after - before).max() > 1e-3
    np.testing.assert_allclose(after, policy.probabilities(o[None, :], m[None, :])[0], atol=2e-5)
    torch.manual_seed(9)
    policy.model = PpoPolicy(policy.config).model  # a replaced network is copied too
    np.testing.assert_allclose(probabilities_one(policy, o, m), policy.probabilities(o[None, :], m[None, :])[0], atol=2e-5)


def test_loading_weights_and_a_ppo_update_renew_the_numpy_copy(decisions: dict) -> None:
    """The public paths that change a network's weights -- ``load_state_dict`` and the
    learner's update (:func:`holdem_env.training.ppo.ppo_update`) -- renew its numpy copy."""
    from holdem_env.training.ppo import PpoSettings, ppo_update

    torch.manual_seed(0)
    policy = PpoPolicy(PolicyConfig(hidden=(16,)))
    o, m = decisions[2][5]
    first_copy = actor_of(policy)
    torch.manual_seed(1)
    other = PpoPolicy(policy.config)
    with torch.no_grad():
        other.model.actor[-1].weight.mul_(100.0)
    policy.model.load_state_dict(other.model.state_dict())
    assert actor_of(policy) is not first_copy
    np.testing.assert_allclose(probabilities_one(policy, o, m), other.probabilities(o[None, :], m[None, :])[0], atol=2e-5)
    loaded_copy = actor_of(policy)
    x = torch.from_numpy(encode_batch(np.stack([o] * 8), policy.scale))
    batch = {
        "x": x, "masks": torch.from_numpy(np.stack([m] * 8).astype(np.int64)),
        "actions": torch.full((8,), int(np.flatnonzero(m)[-1])), "logprobs": torch.zeros(8),
        "advantages": torch.linspace(1.0, 2.0, 8), "returns": torch.ones(8),
    }
    settings = PpoSettings(num_envs=8, num_steps=1, learning_rate=0.5, num_minibatches=1, update_epochs=1)
    ppo_update(policy.model, torch.optim.Adam(policy.model.parameters(), lr=0.5), batch, settings, np.random.default_rng(0))
    assert actor_of(policy) is not loaded_copy
    after = probabilities_one(policy, o, m)
    assert np.abs(after - other.probabilities(o[None, :], m[None, :])[0]).max() > 1e-3
    np.testing.assert_allclose(after, policy.probabilities(o[None, :], m[None, :])[0], atol=2e-5)


def test_probabilities_one_refuses_a_wrong_table_or_action_set(decisions: dict) -> None:
    policy = PpoPolicy(PolicyConfig(hidden=(8,)))
    o, m = decisions[6][0]
    with pytest.raises(HoldemError, match="trained for 2 seats"):
        probabilities_one(policy, o, m)
    with pytest.raises(HoldemError, match="plays 10 discrete actions"):
        probabilities_one(policy, decisions[2][0][0], m[:5])


def test_numpy_actor_refuses_another_layout() -> None:
    with pytest.raises(HoldemError, match="Linear layers with Tanh"):
        NumpyActor(torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Tanh()))


def test_sample_row_is_the_row_form_of_sample_actions() -> None:
    rng = np.random.default_rng(1)
    for k in range(300):
        probs = rng.dirichlet(np.ones(6) * 0.5)
        mask = (rng.random(6) < 0.6).astype(np.int8)
        mask[k % 6] = 1
        a = sample_row(probs, mask, np.random.default_rng(k))
        b = int(sample_actions(probs[None, :], mask[None, :], [np.random.default_rng(k)])[0])
        assert a == b and mask[a] == 1


def test_act_plays_the_numpy_path_and_act_batch_the_torch_path_alike(decisions: dict) -> None:
    torch.manual_seed(3)
    policy = PpoPolicy(PolicyConfig(hidden=(32,)))
    with torch.no_grad():
        policy.model.actor[-1].weight.mul_(100.0)
    rows = decisions[2][:40]
    agree = 0
    for i, (o, m) in enumerate(rows):
        single = PpoAgent(policy, rng=np.random.default_rng(i)).act({"observation": o, "action_mask": m}, {})
        batch = int(PpoAgent(policy).act_batch(o[None, :], m[None, :], [np.random.default_rng(i)])[0])
        agree += single == batch
        assert m[single] == 1
        greedy = PpoAgent(policy, greedy=True).act({"observation": o, "action_mask": m}, {})
        assert greedy == int(np.argmax(policy.probabilities(o[None, :], m[None, :])[0]))
    assert agree == len(rows)  # same draws; probabilities differ by float32 rounding at most
