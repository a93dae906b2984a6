"""The PPO core, after CleanRL's ``ppo.py``: a rollout, its advantages, the clipped loss and the update.

Read top to bottom: :func:`collect_rollout` steps the tables with actions drawn from the
masked policy (:class:`Rollout` holds what it saw), :func:`compute_gae` turns the rewards into
advantages and returns, :func:`ppo_loss` is the objective on one minibatch and
:func:`ppo_update` its ``update_epochs`` passes over shuffled minibatches.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol

import numpy as np
import torch

from holdem_env.agents.ppo import _MASKED, ActorCritic, PpoPolicy, masked_logits, sample_with_uniforms
from holdem_env.env.vector import HoldemVectorEnv

from . import _kernels
from ._encode import StepEncoder
from .config import PpoSettings

__all__ = [
    "Rollout", "PolicyValueModel", "collect_rollout", "compute_gae", "fast_adam", "policy_value", "ppo_loss", "ppo_update",
]


class PolicyValueModel(Protocol):
    """What :func:`ppo_loss` and :func:`ppo_update` need of a network: masked logits and values
    for a batch, its parameters, and ``weights_changed`` (:class:`ActorCritic`; the Kuhn poker
    test's tabular policy too)."""

    def __call__(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]: ...

    def parameters(self) -> Iterator[torch.nn.Parameter]: ...

    def weights_changed(self) -> None: ...


# -- the network's forward pass, with numpy's tanh -------------------------------------------------
class _Tanh(torch.autograd.Function):
    """``tanh`` by numpy (its vectorised kernel: ~8x faster than torch's on CPU here), within one
    float32 ulp of ``torch.tanh``; the backward pass is torch's own (``tanh_backward``: ``grad * (1 - y * y)``)."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
        y = torch.from_numpy(np.tanh(x.detach().numpy()))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> torch.Tensor:
        (y,) = ctx.saved_tensors
        return torch.ops.aten.tanh_backward(grad, y)


def _tanh(x: torch.Tensor) -> torch.Tensor:
    if x.device.type == "cpu" and x.dtype in (torch.float32, torch.float64) and x.is_contiguous():
        return _Tanh.apply(x)
    return torch.tanh(x)


def _mlp(seq: torch.nn.Sequential, x: torch.Tensor) -> torch.Tensor:
    for layer in seq:
        x = _tanh(x) if isinstance(layer, torch.nn.Tanh) else layer(x)
    return x


def _plain_mlp(seq: torch.nn.Module) -> bool:
    return isinstance(seq, torch.nn.Sequential) and all(isinstance(m, (torch.nn.Linear, torch.nn.Tanh)) for m in seq)


def policy_value(model: PolicyValueModel, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``model(x, mask)``: masked logits and values; for an :class:`ActorCritic` of linear and
    tanh layers (every network this trainer builds) its layers are run here with numpy's tanh
    (:class:`_Tanh`), the same values within float rounding (one float32 ulp per tanh) at a
    fraction of the cost; any other model is called as it is."""
    if isinstance(model, ActorCritic) and _plain_mlp(model.actor) and _plain_mlp(model.critic):
        return masked_logits(_mlp(model.actor, x), mask), _mlp(model.critic, x).squeeze(-1)
    return model(x, mask)


def fast_adam(params: Iterator[torch.nn.Parameter], lr: float, eps: float = 1e-5) -> torch.optim.Adam:
    """The trainer's Adam: ``torch.optim.Adam`` with its ``fused`` implementation (one compiled kernel
    for every tensor; CPU defaults to a Python loop over the tensors, about 2.7x the time per step here
    with the gradient clip, ``foreach`` 2.1x): the same update, within float rounding."""
    return torch.optim.Adam(params, lr=lr, eps=eps, fused=True)


# -- 5. rollout ----------------------------------------------------------------------------------
@dataclass
class Rollout:
    """``num_steps`` learner decisions at each of N tables: arrays ``(T, N, ...)``, and the value
    of the observation after the last step (``next_value``, ``(N,)``)."""

    xs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    logprobs: np.ndarray
    values: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    next_value: np.ndarray

    @staticmethod
    def empty(steps: int, n: int, input_size: int, num_actions: int) -> Rollout:
        """Arrays for ``steps`` decisions at ``n`` tables, to be filled (``next_value`` zeros)."""
        return Rollout(
            xs=np.empty((steps, n, input_size), dtype=np.float32),
            masks=np.empty((steps, n, num_actions), dtype=np.int8),
            actions=np.empty((steps, n), dtype=np.int64),
            logprobs=np.empty((steps, n), dtype=np.float32),
            values=np.empty((steps, n), dtype=np.float64),
            rewards=np.empty((steps, n), dtype=np.float64),
            terminated=np.empty((steps, n), dtype=bool),
            next_value=np.zeros(n, dtype=np.float64),
        )

    @staticmethod
    def join(parts: Sequence[Rollout]) -> Rollout:
        """The tables of several rollouts side by side (in order)."""
        arrays = [[getattr(p, f.name) for p in parts] for f in fields(Rollout)]
        return Rollout(*(np.concatenate(a, axis=min(1, a[0].ndim - 1)) for a in arrays))


class _StepForward:
    """The sampling's forward pass for a plain :class:`ActorCritic` (linear and tanh layers): each
    ``nn.Linear`` as the ``addmm`` that ``torch.nn.functional.linear`` runs for a 2-D input with a bias,
    into buffers kept between steps, and each ``tanh`` as numpy's in place (:class:`_Tanh`'s forward):
    the same values, bit for bit, as :func:`policy_value` and ``model.value``, without a module call,
    an autograd node or an allocation per layer. Built per rollout (the weights are read as they are then)."""

    def __init__(self, model: ActorCritic, rows: int) -> None:
        assert isinstance(model.actor, torch.nn.Sequential) and isinstance(model.critic, torch.nn.Sequential)  # (usable)
        self.actor = self._layers(model.actor, rows)
        self.critic = self._layers(model.critic, rows)

    @staticmethod
    def _layers(seq: torch.nn.Sequential, rows: int) -> list[tuple[torch.Tensor, torch.Tensor, torch.Tensor, np.ndarray | None]]:
        """Per linear layer: (bias, weight transposed, output buffer, the buffer's numpy view when a tanh follows)."""
        mods = list(seq)
        out = []
        for i, m in enumerate(mods):
            if isinstance(m, torch.nn.Linear):
                buf = torch.empty((rows, m.out_features), dtype=m.weight.dtype)
                tanh = i + 1 < len(mods) and isinstance(mods[i + 1], torch.nn.Tanh)
                out.append((m.bias.detach(), m.weight.detach().t(), buf, buf.numpy() if tanh else None))
        return out

    @staticmethod
    def usable(model: Any) -> bool:
        """Whether ``model`` is an :class:`ActorCritic` this forward pass runs exactly (float32 linear layers
        with biases, tanh between them, a linear layer last)."""
        if not (isinstance(model, ActorCritic) and _plain_mlp(model.actor) and _plain_mlp(model.critic)):
            return False
        for seq in (model.actor, model.critic):
            mods = list(seq)
            if not mods or not isinstance(mods[-1], torch.nn.Linear):
                return False
            for m in mods:
                if isinstance(m, torch.nn.Linear) and (m.bias is None or m.weight.dtype != torch.float32):
                    return False
        return True

    @staticmethod
    def run(layers: list[tuple[torch.Tensor, torch.Tensor, torch.Tensor, np.ndarray | None]], x: torch.Tensor,
            rows: int) -> torch.Tensor:
        for bias, wt, buf, view in layers:
            out = buf[:rows] if rows != buf.shape[0] else buf
            torch.addmm(bias, x, wt, out=out)
            if view is not None:
                v = view[:rows]
                np.tanh(v, out=v)
            x = out
        return x


def _draw(probs: np.ndarray, mask: np.ndarray, u: np.ndarray, cdf: np.ndarray) -> np.ndarray:
    """:func:`sample_with_uniforms` (compiled: :func:`._kernels.draw_rows`, the same ids)."""
    if not (_kernels.COMPILED and mask.dtype == np.int8 and mask.flags.c_contiguous and probs.shape == cdf.shape):
        return sample_with_uniforms(probs, mask, u)
    out = np.empty(len(probs), dtype=np.int64)
    if _kernels.draw_rows(probs, mask, u, cdf, out) >= 0:
        return sample_with_uniforms(probs, mask, u)  # (a row that allows nothing: its error)
    return out


def collect_rollout(
    model: ActorCritic, encoder: PpoPolicy, venv: HoldemVectorEnv, obs: dict[str, np.ndarray], steps: int,
    rng: np.random.Generator, reward_scale: float,
) -> tuple[Rollout, dict[str, np.ndarray]]:
    """Step ``venv`` ``steps`` times with actions drawn from ``model``'s masked policy (one
    uniform draw each from ``rng``); returns the rollout and the observations after it."""
    n = venv.num_envs
    cfg = encoder.config
    ro = Rollout.empty(steps, n, cfg.input_size, cfg.num_actions)
    fast = _StepForward(model, n) if _StepForward.usable(model) else None
    step_encoder = StepEncoder(encoder)
    rows = np.arange(n)
    masked = np.float32(_MASKED)
    cdf = np.empty((n, cfg.num_actions), dtype=np.float64)  # (scratch of _draw)
    with torch.no_grad():
        for step in range(steps):
            mask = obs["action_mask"]
            if fast is not None:
                step_encoder.encode(obs["observation"], ro.xs[step])
                xt = torch.from_numpy(ro.xs[step])
                logits32 = fast.run(fast.actor, xt, n).numpy()
                np.copyto(logits32, masked, where=mask == 0)  # masked_logits
                logp_all = torch.log_softmax(torch.from_numpy(logits32.astype(np.float64)), dim=-1).numpy()
                ro.values[step] = fast.run(fast.critic, xt, n).numpy()[:, 0]
            else:
                x = encoder.encode(obs["observation"])
                logits, value = policy_value(model, torch.from_numpy(x), torch.from_numpy(mask.astype(np.int64)))
                logp_all = torch.log_softmax(logits.double(), dim=-1).numpy()
                ro.xs[step] = x
                ro.values[step] = value.numpy()
            # sample_actions(..., [rng] * n): the same rng for every row draws its n uniforms in one call
            act = _draw(np.exp(logp_all), mask, rng.random(n), cdf)
            ro.masks[step], ro.actions[step] = mask, act
            ro.logprobs[step] = logp_all[rows, act]
            # (the env's own arrays: read before the next step, copied at the end)
            x_next, mask_next, reward, term = venv.step_arrays(act)
            obs = {"observation": x_next, "action_mask": mask_next}
            ro.rewards[step] = reward * reward_scale
            ro.terminated[step] = term
        obs = {k: np.array(v) for k, v in obs.items()}
        ro.next_value = model.value(torch.from_numpy(encoder.encode(obs["observation"]))).double().numpy()
    return ro, obs


# -- 6. advantages --------------------------------------------------------------------------------
def compute_gae(
    rewards: np.ndarray, values: np.ndarray, terminated: np.ndarray, next_value: np.ndarray, gamma: float, lam: float
) -> tuple[np.ndarray, np.ndarray]:
    """Generalised advantage estimates and returns for a ``(T, N)`` rollout.

    ``terminated[t]`` says that the transition of step ``t`` ended its episode (its reward
    is the last of the hand, and step ``t + 1`` starts a new one); ``next_value`` ``(N,)``
    is the value of the observation after the last step. Returns ``(advantages, returns)``.

    >>> import numpy as np
    >>> adv, ret = compute_gae(np.array([[0.0], [1.0]]), np.array([[0.5], [0.5]]),
    ...                        np.array([[False], [True]]), np.array([9.0]), gamma=1.0, lam=0.5)
    >>> adv.ravel().tolist(), ret.ravel().tolist()
    ([0.25, 0.5], [0.75, 1.0])
    """
    steps = rewards.shape[0]
    adv = np.zeros_like(values, dtype=np.float64)
    last = np.zeros(values.shape[1:], dtype=np.float64)
    for t in reversed(range(steps)):
        nonterminal = 1.0 - terminated[t].astype(np.float64)
        next_v = next_value if t == steps - 1 else values[t + 1]
        delta = rewards[t] + gamma * next_v * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv, adv + values


# -- 7. update ------------------------------------------------------------------------------------
def ppo_loss(
    model: PolicyValueModel, batch: Mapping[str, torch.Tensor], settings: PpoSettings, report: bool = True
) -> tuple[torch.Tensor, dict[str, float]]:
    """The PPO loss on one minibatch (clipped surrogate + ``vf_coef`` * value loss - ``ent_coef`` * entropy
    + ``kl_coef`` * KL(policy || anchor)).

    ``batch``: ``x`` (inputs), ``masks``, ``actions``, ``logprobs`` (at sampling), ``advantages``,
    ``returns``, and with ``kl_coef`` > 0 ``anchor_logp`` (the anchor policy's log-probabilities
    of every action, ``(B, A)``; masked ids any finite value). Returns the loss and its parts
    (``policy_loss``, ``value_loss``, ``entropy``, ``approx_kl``, ``clipfrac``, and ``anchor_kl``
    with an anchor). The KL term is exact (a sum over the legal actions), the magnet term of
    magnetic mirror descent (Sokota et al. 2023); see ``docs/population.md``. With ``report=False``
    the parts are not computed (an empty dict; the same loss without their extra work and syncs).
    """
    logits, values = policy_value(model, batch["x"], batch["masks"])
    logp_all = torch.log_softmax(logits, dim=-1)
    logp = logp_all.gather(1, batch["actions"][:, None]).squeeze(1)
    probs = logp_all.exp()
    entropy = -(probs * torch.where(probs > 0, logp_all, torch.zeros_like(logp_all))).sum(-1).mean()
    logratio = logp - batch["logprobs"]
    ratio = logratio.exp()
    adv = batch["advantages"]
    if settings.norm_adv and adv.numel() > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - settings.clip_coef, 1 + settings.clip_coef)).mean()
    v_loss = 0.5 * ((values - batch["returns"]) ** 2).mean()
    loss = pg_loss - settings.ent_coef * entropy + settings.vf_coef * v_loss
    extra: dict[str, float] = {}
    if settings.kl_coef > 0 and "anchor_logp" in batch:
        diff = torch.where(probs > 0, logp_all - batch["anchor_logp"], torch.zeros_like(logp_all))
        anchor_kl = (probs * diff).sum(-1).mean()
        loss = loss + settings.kl_coef * anchor_kl
        if report:
            extra["anchor_kl"] = anchor_kl.item()
    if not report:
        return loss, extra
    with torch.no_grad():
        approx_kl = ((ratio - 1) - logratio).mean().item()
        clipfrac = ((ratio - 1.0).abs() > settings.clip_coef).float().mean().item()
    return loss, {
        "policy_loss": pg_loss.item(), "value_loss": v_loss.item(), "entropy": entropy.item(),
        "approx_kl": approx_kl, "clipfrac": clipfrac, **extra,
    }


def ppo_update(
    model: PolicyValueModel,
    optimizer: torch.optim.Optimizer,
    batch: Mapping[str, torch.Tensor],
    settings: PpoSettings,
    rng: np.random.Generator,
) -> dict[str, float]:
    """``update_epochs`` passes of shuffled minibatches (order from ``rng``); mean loss parts of the last epoch.

    Each epoch gathers the batch once in its shuffled order and takes the minibatches as slices of
    it (the same rows in the same order as indexing each minibatch on its own); the loss parts are
    computed in the last epoch only, the one whose means are returned.
    """
    n = batch["x"].shape[0]
    size = max(1, n // settings.num_minibatches)
    parts: dict[str, list[float]] = {}
    for epoch in range(settings.update_epochs):
        report = epoch == settings.update_epochs - 1
        parts = {}
        order = torch.from_numpy(rng.permutation(n))
        shuffled = {k: v[order] for k, v in batch.items()}
        for start in range(0, n, size):
            loss, stats = ppo_loss(model, {k: v[start : start + size] for k, v in shuffled.items()}, settings, report)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), settings.max_grad_norm)
            optimizer.step()
            model.weights_changed()  # copies of the weights (agents.ppo_fast) are taken again
            for k, v in stats.items():
                parts.setdefault(k, []).append(v)
    return {k: float(np.mean(v)) for k, v in parts.items()}
