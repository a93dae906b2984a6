"""The update's fast paths (numpy's tanh in the network's forward pass, Adam's fused step) give the
update it replaced within float rounding: each tanh within one float32 ulp, the same gradients'
formula, and the same weights after whole updates as torch's own layers with the per-tensor Adam."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.agents.ppo import ActorCritic, PolicyConfig
from holdem_env.training.ppo import PpoSettings
from holdem_env.training.ppo.algorithm import _Tanh, fast_adam, policy_value, ppo_update


@pytest.fixture(autouse=True)
def one_thread():  # type: ignore[no-untyped-def]
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


class _Plain(torch.nn.Module):
    """The same network seen through a wrapper: ``policy_value`` calls it as it is (torch's tanh)."""

    def __init__(self, inner: ActorCritic) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.inner(x, mask)  # type: ignore[no-any-return]

    def weights_changed(self) -> None:
        self.inner.weights_changed()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-30.0, 30.0, width=32), min_size=1, max_size=300))
def test_numpy_tanh_is_within_one_ulp_of_torch(values: list[float]) -> None:
    x = torch.tensor(values, dtype=torch.float32)
    got, want = _Tanh.apply(x), torch.tanh(x)
    ulp = torch.from_numpy(np.spacing(np.abs(want.numpy())))
    assert bool(((got - want).abs() <= ulp).all())


def test_numpy_tanh_gradient() -> None:
    x = torch.randn(40, dtype=torch.float64, generator=torch.Generator().manual_seed(3), requires_grad=True)
    assert torch.autograd.gradcheck(_Tanh.apply, (x,))
    g = torch.randn(40, dtype=torch.float64)
    (ours,) = torch.autograd.grad(_Tanh.apply(x), x, g)
    (theirs,) = torch.autograd.grad(torch.tanh(x), x, g)
    torch.testing.assert_close(ours, theirs, rtol=1e-12, atol=1e-14)


def test_policy_value_is_the_networks_forward_pass() -> None:
    torch.manual_seed(0)
    model = ActorCritic(PolicyConfig(hidden=(64, 32)))
    x = torch.randn(200, model.config.input_size)
    mask = (torch.rand(200, model.config.num_actions) > 0.5).long()
    mask[:, 1] = 1
    logits, values = policy_value(model, x, mask)
    want_logits, want_values = model(x, mask)
    torch.testing.assert_close(logits, want_logits, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(values, want_values, rtol=1e-5, atol=1e-6)
    assert torch.equal(logits == -1e9, mask == 0)  # masked ids stay exactly masked
    # through a wrapper the model is called as it is: exactly torch's forward pass
    assert all(torch.equal(a, b) for a, b in zip(policy_value(_Plain(model), x, mask), (want_logits, want_values), strict=True))


def _batch(config: PolicyConfig, n: int) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(7)
    masks = (torch.rand(n, config.num_actions, generator=g) > 0.4).long()
    masks[:, 1] = 1
    return {
        "x": torch.randn(n, config.input_size, generator=g), "masks": masks,
        "actions": torch.multinomial(masks.float(), 1, generator=g).squeeze(1),
        "logprobs": -torch.rand(n, generator=g) - 0.5, "advantages": torch.randn(n, generator=g),
        "returns": torch.randn(n, generator=g),
    }


@pytest.mark.parametrize(("n", "minibatches", "epochs"), [(512, 4, 4), (300, 3, 2)])
def test_the_fast_update_equals_torchs_layers_and_adam(n: int, minibatches: int, epochs: int) -> None:
    torch.manual_seed(0)
    config = PolicyConfig(hidden=(64, 64))
    model = ActorCritic(config)
    twin = _Plain(copy.deepcopy(model))
    s = dataclasses.replace(PpoSettings(), num_minibatches=minibatches, update_epochs=epochs)
    batch = _batch(config, n)
    opt = fast_adam(model.parameters(), 1e-3)
    opt_twin = torch.optim.Adam(twin.parameters(), lr=1e-3, eps=1e-5, foreach=False, fused=False)
    start = {k: v.clone() for k, v in model.state_dict().items()}
    for round_no in range(2):
        new = ppo_update(model, opt, batch, s, np.random.default_rng(round_no))
        old = ppo_update(twin, opt_twin, batch, s, np.random.default_rng(round_no))
        for k in old:
            assert new[k] == pytest.approx(old[k], rel=1e-4, abs=1e-6), k
    moved = 0.0
    for (name, a), b in zip(model.state_dict().items(), twin.inner.state_dict().values(), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5, msg=name)
        moved = max(moved, float((a - start[name]).abs().max()))
    assert moved > 1e-3  # the updates did change the weights


def test_a_learner_resumed_from_a_checkpoint_keeps_the_fused_adam() -> None:
    from holdem_env.engine.config import TableConfig
    from holdem_env.training.ppo import PpoLearner

    s = PpoSettings(num_envs=2, num_steps=4, opponents=("random",), snapshot_every=0)
    learner = PpoLearner(s, TableConfig(num_players=2), 0)
    assert learner.optimizer.param_groups[0]["fused"] is True
    learner.train_round(1, 1)  # the optimiser has state (Adam's steps and moments)
    state = learner.state_dict()
    state["optimizer"]["param_groups"][0]["fused"] = None  # as an older checkpoint saved it
    other = PpoLearner(s, TableConfig(num_players=2), 0)
    other.load_state_dict(state)
    assert all(g["fused"] is True for g in other.optimizer.param_groups)
    other.train_round(1, 2)  # and it steps
    learner.load_state_dict(learner.state_dict())
    learner.train_round(1, 2)
    assert all(torch.equal(a, b) for a, b in zip(learner.model.state_dict().values(), other.model.state_dict().values(),
                                                  strict=True))
    learner.close()
    other.close()
