"""Single-decision inference for the ``ppo`` agent: the actor as a numpy forward pass.

Calling a small torch module for one observation costs far more than its arithmetic (module
dispatch, tensor wrapping, autograd bookkeeping). An agent deciding for one seat at a time
(the arena, the league's evaluation matches, the web table) therefore uses
:func:`probabilities_one`: the actor's weights are copied once into numpy arrays
(:class:`NumpyActor`), the input row is built by :func:`holdem_env.agents.features.encode_row`
(identical to the batched encoding), and the masked softmax is taken in float64 exactly as
:meth:`holdem_env.agents.ppo.PpoPolicy.probabilities` takes it. The probabilities agree with
the torch network's within float32 rounding (the two may sum a layer's products in another
order); :func:`sample_row` is the one-row form of :func:`holdem_env.agents.ppo.sample_actions`
(the same inverse-CDF draw).

The copied weights follow the network: the network's own count of its weight changes
(:attr:`holdem_env.agents.ppo.ActorCritic.weights_version`, raised by ``load_state_dict``, by
each optimiser step of :func:`holdem_env.training.ppo.ppo_update` and by
:meth:`~holdem_env.agents.ppo.ActorCritic.weights_changed`) is compared on each call, so a
policy whose network is trained further or replaced is copied again before its next decision. Batched play
(:meth:`holdem_env.agents.ppo.PpoAgent.act_batch`, the vector env, training) keeps the torch
path.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import numpy as np
from torch import nn

from holdem_env.engine.errors import HoldemError

from .features import encode_row

if TYPE_CHECKING:
    from .ppo import ActorCritic, PpoPolicy

__all__ = ["NumpyActor", "actor_of", "probabilities_one", "sample_row", "MASKED_LOGIT"]

#: The logit of a masked action id (as in :func:`holdem_env.agents.ppo.masked_logits`).
MASKED_LOGIT = -1e9


class NumpyActor:
    """The actor MLP of an :class:`~holdem_env.agents.ppo.ActorCritic` as float32 numpy arrays.

    ``actor``: an ``nn.Sequential`` of ``Linear`` layers with ``Tanh`` between them (the
    layout :class:`~holdem_env.agents.ppo.ActorCritic` builds); anything else is refused.

    >>> import torch
    >>> from torch import nn
    >>> net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 2))
    >>> a = NumpyActor(net)
    >>> x = np.array([0.5, -1.0], dtype=np.float32)
    >>> bool(np.allclose(a.logits(x), net(torch.from_numpy(x)).detach().numpy(), atol=1e-6))
    True
    >>> NumpyActor(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 2)))
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.HoldemError: the ppo actor must be Linear layers with Tanh between them; found ReLU
    """

    def __init__(self, actor: nn.Sequential) -> None:
        mods = list(actor)
        kinds = [type(m).__name__ for m in mods]
        expected = ["Linear" if i % 2 == 0 else "Tanh" for i in range(len(mods))]
        if not mods or len(mods) % 2 == 0 or kinds != expected:
            wrong = next((k for k, e in zip(kinds, expected, strict=True) if k != e), "an even layer count")
            raise HoldemError(f"the ppo actor must be Linear layers with Tanh between them; found {wrong}")
        self.layers: list[tuple[np.ndarray, np.ndarray]] = []
        for m in mods[::2]:
            assert isinstance(m, nn.Linear)
            w = m.weight.detach().to("cpu").numpy().astype(np.float32).T.copy()  # (in, out): x @ w
            b = m.bias.detach().to("cpu").numpy().astype(np.float32).copy()
            self.layers.append((w, b))
        self.input_size = self.layers[0][0].shape[0]
        self.output_size = self.layers[-1][0].shape[1]

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Float32 logits ``(A,)`` of one input row ``(input_size,)`` (or ``(B, A)`` of ``(B, input_size)``)."""
        h = np.asarray(x, dtype=np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w
            h += b
            if i < last:
                np.tanh(h, out=h)
        return h


class _Copy:
    """A policy's :class:`NumpyActor` and what it was copied from (network, actor module, weights version)."""

    __slots__ = ("model", "module", "version", "actor")

    def __init__(self, model: ActorCritic) -> None:
        self.model = model
        self.module = model.actor
        self.version = model.weights_version
        self.actor = NumpyActor(model.actor)

    def current(self, model: ActorCritic) -> bool:
        """Whether the copy still matches ``model``'s weights (same network and actor, no change announced since)."""
        return model is self.model and model.actor is self.module and model.weights_version == self.version


# One copy per policy, dropped with the policy; copied again when the network's parameters change.
_COPIES: weakref.WeakKeyDictionary[Any, _Copy] = weakref.WeakKeyDictionary()


def actor_of(policy: PpoPolicy) -> NumpyActor:
    """The :class:`NumpyActor` of ``policy``'s network, copied on first use and after each
    announced weight change (``ActorCritic.weights_version``) or a replaced network."""
    model = policy.model
    copy = _COPIES.get(policy)
    if copy is None or not copy.current(model):
        copy = _COPIES[policy] = _Copy(model)
    return copy.actor


def probabilities_one(policy: PpoPolicy, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Action probabilities ``(A,)`` (float64; exactly 0 on masked ids) for one observation row.

    The single-row twin of :meth:`~holdem_env.agents.ppo.PpoPolicy.probabilities`; a wrong
    observation or mask length is refused with the same messages.
    """
    cfg = policy.config
    mask = np.asarray(mask)
    if mask.ndim != 1 or mask.shape[0] != cfg.num_actions:
        raise HoldemError(
            f"this ppo policy plays {cfg.num_actions} discrete actions (bet_sizes {list(cfg.bet_sizes)}); the action "
            f"mask has shape {mask.shape}: use the env's discrete action mode with these bet sizes"
        )
    obs = np.asarray(observation, dtype=np.float32)
    if obs.ndim != 1 or obs.shape[0] != cfg.obs_size:
        raise HoldemError(
            f"this ppo policy was trained for {cfg.num_players} seats (observations of {cfg.obs_size} entries); "
            f"got an observation of shape {obs.shape}"
        )
    logits = actor_of(policy).logits(encode_row(obs, policy.scale, cfg.features)).astype(np.float64)
    logits[mask == 0] = np.float64(np.float32(MASKED_LOGIT))
    logits -= logits.max()
    np.exp(logits, out=logits)
    logits /= logits.sum()
    return logits


def sample_row(probs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    """One action id: inverse-CDF sampling with one uniform draw from ``rng``.

    The row form of :func:`holdem_env.agents.ppo.sample_actions` (the same draw and the same
    answer for the same row): masked ids are never returned; a mask that allows nothing is
    an error.

    >>> sample_row(np.array([0.5, 0.5, 0.0]), np.array([0, 1, 1]), np.random.default_rng(0))
    1
    >>> sample_row(np.array([1.0, 0.0]), np.array([0, 0]), np.random.default_rng(0))
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.HoldemError: an action mask allows no action: the seat is not on turn
    """
    legal = np.flatnonzero(np.asarray(mask) > 0)
    if legal.size == 0:
        raise HoldemError("an action mask allows no action: the seat is not on turn")
    cdf = np.cumsum(np.asarray(probs, dtype=np.float64)[legal])
    total = cdf[-1]
    if not total > 0:  # every legal id underflowed: uniform over the legal ids
        cdf, total = np.arange(1.0, legal.size + 1), float(legal.size)
    cdf = cdf / total
    return int(legal[min(int(np.searchsorted(cdf, rng.random(), side="right")), legal.size - 1)])
