"""ppo_update with its fixed costs cut (one gather per epoch, loss parts in the last epoch only) gives the
same weights and the same reported parts as the update it replaced (kept below as the reference)."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest
import torch

from holdem_env.agents.ppo import ActorCritic, PolicyConfig
from holdem_env.training.ppo import PpoSettings
from holdem_env.training.ppo.algorithm import ppo_loss, ppo_update


def _reference_update(model, optimizer, batch, settings, rng) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """ppo_update as it was before (main at 11db444): index each minibatch, every loss part every epoch."""
    n = batch["x"].shape[0]
    size = max(1, n // settings.num_minibatches)
    parts: dict[str, list[float]] = {}
    for _ in range(settings.update_epochs):
        parts = {}
        order = rng.permutation(n)
        for start in range(0, n, size):
            idx = torch.from_numpy(order[start : start + size])
            loss, stats = ppo_loss(model, {k: v[idx] for k, v in batch.items()}, settings)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), settings.max_grad_norm)
            optimizer.step()
            model.weights_changed()
            for k, v in stats.items():
                parts.setdefault(k, []).append(v)
    return {k: float(np.mean(v)) for k, v in parts.items()}


@pytest.fixture(autouse=True)
def one_thread():  # type: ignore[no-untyped-def]
    """One torch thread (tiny matrices; more threads only wait on each other on a shared machine)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _batch(config: PolicyConfig, n: int, anchor: ActorCritic | None) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(7)
    x = torch.randn(n, config.input_size, generator=g)
    masks = (torch.rand(n, config.num_actions, generator=g) > 0.4).long()
    masks[:, 1] = 1
    actions = torch.multinomial(masks.float(), 1, generator=g).squeeze(1)
    batch = {
        "x": x,
        "masks": masks,
        "actions": actions,
        "logprobs": -torch.rand(n, generator=g) - 0.5,
        "advantages": torch.randn(n, generator=g),
        "returns": torch.randn(n, generator=g),
    }
    if anchor is not None:
        with torch.no_grad():
            batch["anchor_logp"] = torch.log_softmax(anchor(x, masks)[0], dim=-1)
    return batch


@pytest.mark.parametrize(("kl_coef", "n", "minibatches", "epochs"), [(0.0, 512, 4, 4), (0.1, 300, 3, 2), (0.0, 64, 1, 1)])
def test_the_update_equals_the_one_it_replaced(kl_coef: float, n: int, minibatches: int, epochs: int) -> None:
    torch.manual_seed(0)
    config = PolicyConfig(hidden=(32, 32))
    model = ActorCritic(config)
    anchor = ActorCritic(config) if kl_coef > 0 else None
    settings = dataclasses.replace(PpoSettings(), kl_coef=kl_coef, num_minibatches=minibatches, update_epochs=epochs)
    batch = _batch(config, n, anchor)
    twin = copy.deepcopy(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-5)
    opt_twin = torch.optim.Adam(twin.parameters(), lr=1e-3, eps=1e-5)
    start = {k: v.clone() for k, v in model.state_dict().items()}
    for round_no in range(2):
        new = ppo_update(model, opt, batch, settings, np.random.default_rng(round_no))
        old = _reference_update(twin, opt_twin, batch, settings, np.random.default_rng(round_no))
        assert new.keys() == old.keys() and "approx_kl" in new and ("anchor_kl" in new) == (kl_coef > 0)
        for k in old:
            assert new[k] == pytest.approx(old[k], rel=1e-5, abs=1e-7), k
    moved = 0.0
    for (name, a), b in zip(model.state_dict().items(), twin.state_dict().values(), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6, msg=name)
        moved = max(moved, float((a - start[name]).abs().max()))
    assert moved > 1e-4  # the updates did change the weights


def test_ppo_loss_without_the_report_is_the_same_loss() -> None:
    torch.manual_seed(1)
    config = PolicyConfig(hidden=(16,))
    model = ActorCritic(config)
    anchor = ActorCritic(config)
    settings = dataclasses.replace(PpoSettings(), kl_coef=0.3)
    batch = _batch(config, 40, anchor)
    loss, parts = ppo_loss(model, batch, settings)
    quiet, none = ppo_loss(model, batch, settings, report=False)
    assert none == {} and set(parts) >= {"policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac", "anchor_kl"}
    assert quiet.item() == loss.item()
