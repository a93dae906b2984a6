"""The ``ppo`` agent: a masked actor-critic network, its ``.pt`` policy files, batched play.

The network (:class:`ActorCritic`) reads one seat's ``nlhe_v1`` observation, rescaled by
:func:`holdem_env.agents.features.observation_scale`, optionally followed by the engineered
features of :mod:`holdem_env.agents.features`. Two tanh MLPs give the action logits and the
state value; masked action ids get a logit of ``-1e9``, so their probability is exactly 0 and
they are never sampled. The action space is the env's *discrete* mode with the policy's
``bet_sizes``.

A policy file (``.pt``, written by :meth:`PpoPolicy.save`) holds the weights, the network
config, the table size, the env id and observation length it was trained on, and free-form
metadata. :meth:`PpoPolicy.load` refuses (:class:`PolicyFileError`) a file of another format
version or another env id, and the agent refuses a table whose observation or action
count does not match.

``ppo`` with no argument plays the shipped heads-up policy (``agents/data/ppo_hu.pt``);
``ppo(policy="path.pt")`` plays another; ``ppo(greedy=True)`` plays the most likely action;
``ppo(temperature=T)`` samples from the sharpened (T < 1) or flattened (T > 1) policy
``softmax(logits / T)`` over the legal actions (:func:`temper`).
``ppo-6max`` (:class:`Ppo6MaxAgent`) plays the shipped 6-max policy (``agents/data/ppo_6max.pt``).
:meth:`PpoAgent.act_batch` decides for many tables in one network call (the vector env uses
it); each row draws from its own generator, so a row's action does not depend on the batch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn

from holdem_env.batched import encode
from holdem_env.engine.errors import ConfigError, HoldemError, short_repr
from holdem_env.engine.ranges import check_holdings, holding_indices
from holdem_env.engine.validate import check_bool, check_int, check_number, is_int
from holdem_env.env import _obs
from holdem_env.env.nlhe_v1 import DEFAULT_BET_SIZES, ENV_ID, SAME_OBSERVATIONS_AS
from holdem_env.fileutil import atomic_write_bytes
from holdem_env.safefiles import UnsafeFileError, check_zip

from .base import agent_rng, check_bet_sizes
from .features import NUM_FEATURES, encode_batch, equity_table, live_opponents, observation_scale
from .ppo_fast import probabilities_one, sample_row

if TYPE_CHECKING:
    from holdem_env.batched.views import BatchViews

__all__ = [
    "ActorCritic",
    "PolicyConfig",
    "PolicyFileError",
    "PpoPolicy",
    "PpoAgent",
    "Ppo6MaxAgent",
    "POLICY_FORMAT",
    "SHIPPED_POLICY",
    "SHIPPED_6MAX_POLICY",
    "masked_logits",
    "sample_actions",
    "sample_with_uniforms",
    "temper",
]

#: Version of the ``.pt`` layout; a file of another version is refused.
POLICY_FORMAT = 1
_DATA = Path(__file__).resolve().parent / "data"
#: The shipped heads-up policy (population training, stage 4: ``holdem train --config configs/ppo_hu_population_ft3.yaml``).
SHIPPED_POLICY = _DATA / "ppo_hu.pt"
#: The shipped 6-max policy (trained by ``holdem train --config configs/ppo_6max.yaml``).
SHIPPED_6MAX_POLICY = _DATA / "ppo_6max.pt"
_MASKED = -1e9
#: Largest network a policy file may describe (weights of actor and critic together), checked
#: from its config before any tensor is built; the shipped policy has about 60,000.
MAX_POLICY_PARAMETERS = 20_000_000
#: Largest policy file, uncompressed (checked from its zip headers before torch reads it).
MAX_POLICY_FILE_BYTES = 1 << 30


class PolicyFileError(HoldemError):
    """A ``.pt`` policy file is missing, malformed, or was made for another env or table."""


@dataclass(frozen=True)
class PolicyConfig:
    """What a policy network is built for: the table, the actions, the input and the layers."""

    num_players: int = 2
    bet_sizes: tuple[float, ...] = DEFAULT_BET_SIZES
    stack_bb: float = 100.0
    features: bool = True
    hidden: tuple[int, ...] = (128, 128)

    def __post_init__(self) -> None:
        object.__setattr__(self, "num_players", check_int("num_players", self.num_players, 2, 10))
        object.__setattr__(self, "bet_sizes", check_bet_sizes(self.bet_sizes))
        stack_bb = check_number("stack_bb", self.stack_bb, 0, lo_open=True, allowed="must be a positive number of big blinds")
        object.__setattr__(self, "stack_bb", stack_bb)
        check_bool("features", self.features, allowed="must be true or false")
        h = self.hidden
        if not isinstance(h, (list, tuple)) or not h or not all(is_int(x) and 1 <= x <= 4096 for x in h):
            raise ConfigError("hidden", h, "must be a non-empty list of layer widths in 1..4096")
        object.__setattr__(self, "hidden", tuple(int(x) for x in h))

    @property
    def obs_size(self) -> int:
        """Length of the env's observation vector at this table size."""
        return _obs.obs_size(self.num_players)

    @property
    def num_actions(self) -> int:
        """Discrete-mode action count: fold, check/call, min-raise, the pot fractions, all-in."""
        return 4 + len(self.bet_sizes)

    @property
    def input_size(self) -> int:
        """Length of the network input (observation, plus features when enabled)."""
        return self.obs_size + (NUM_FEATURES if self.features else 0)

    @classmethod
    def from_dict(cls, fields: Any) -> PolicyConfig:
        """The config :meth:`to_dict` wrote (lists back to tuples); unknown fields raise TypeError."""
        if not isinstance(fields, Mapping):
            raise ConfigError("config", fields, "must be a mapping of policy config fields")
        values: dict[str, Any] = {str(k): tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """Plain form, stored in policy files."""
        d = asdict(self)
        d["bet_sizes"] = list(self.bet_sizes)
        d["hidden"] = list(self.hidden)
        return d


def expected_shapes(config: PolicyConfig) -> dict[str, tuple[int, ...]]:
    """The ``state_dict`` entry shapes of ``ActorCritic(config)``, computed without building it.

    >>> sorted(expected_shapes(PolicyConfig(hidden=(4,))).items())[:2]
    [('actor.0.bias', (4,)), ('actor.0.weight', (4, 164))]
    """
    sizes = [config.input_size, *config.hidden]
    out: dict[str, tuple[int, ...]] = {}
    for net, width in (("actor", config.num_actions), ("critic", 1)):
        dims = [*sizes, width]
        for i, (a, b) in enumerate(zip(dims[:-1], dims[1:], strict=True)):
            out[f"{net}.{2 * i}.weight"] = (b, a)
            out[f"{net}.{2 * i}.bias"] = (b,)
    return out


def _check_weights(name: str, config: PolicyConfig, state: object) -> None:
    """Refuse (:class:`PolicyFileError`) weights that do not fit ``config``, are not floats, or are not finite."""
    shapes = expected_shapes(config)
    total = sum(int(np.prod(s)) for s in shapes.values())
    if total > MAX_POLICY_PARAMETERS:
        raise PolicyFileError(
            f"ppo policy file {name!r} describes a network of {total:,} parameters ({len(config.hidden)} hidden layers "
            f"of widths {list(config.hidden)}); the limit is {MAX_POLICY_PARAMETERS:,} (refused before building it)"
        )
    if not isinstance(state, Mapping):
        raise PolicyFileError(f"ppo policy file {name!r} has no weights (state_dict is {type(state).__name__})")
    if set(state) != set(shapes):
        missing, extra = sorted(set(shapes) - set(state)), sorted(map(str, set(state) - set(shapes)))
        raise PolicyFileError(
            f"ppo policy file {name!r}: weights do not fit its config (missing {missing[:4]}, unexpected {extra[:4]})"
        )
    for key, shape in shapes.items():
        t = state[key]
        if not isinstance(t, torch.Tensor) or not t.is_floating_point():
            raise PolicyFileError(f"ppo policy file {name!r}: weight {key!r} is not a float tensor")
        if tuple(t.shape) != shape:
            raise PolicyFileError(
                f"ppo policy file {name!r}: weight {key!r} has shape {tuple(t.shape)}; its config needs {shape}"
            )
        if not bool(torch.isfinite(t).all()):
            raise PolicyFileError(f"ppo policy file {name!r}: weight {key!r} holds NaN or infinite values")


def _mlp(sizes: Sequence[int], out: int, out_std: float) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:], strict=True):
        lin = nn.Linear(a, b)
        nn.init.orthogonal_(lin.weight, np.sqrt(2))
        nn.init.zeros_(lin.bias)
        layers += [lin, nn.Tanh()]
    head = nn.Linear(sizes[-1], out)
    nn.init.orthogonal_(head.weight, out_std)
    nn.init.zeros_(head.bias)
    layers.append(head)
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    """Separate actor and critic MLPs (CleanRL's layout: orthogonal init, small policy head)."""

    def __init__(self, config: PolicyConfig) -> None:
        super().__init__()
        self.config = config
        sizes = [config.input_size, *config.hidden]
        self.actor = _mlp(sizes, config.num_actions, 0.01)
        self.critic = _mlp(sizes, 1, 1.0)
        #: Counts the changes of the weights that :meth:`weights_changed` announced (and
        #: :meth:`load_state_dict` by itself); copies of the weights compare it to know they are current.
        self.weights_version = 0
        self.register_load_state_dict_post_hook(_weights_loaded)

    def weights_changed(self) -> None:
        """Announce that the weights were changed in place (an optimiser step, an edit under
        ``torch.no_grad()``): copies taken of them (:func:`holdem_env.agents.ppo_fast.actor_of`)
        are taken again at their next use. :meth:`load_state_dict` announces itself;
        :func:`holdem_env.training.ppo.ppo_update` calls this after each optimiser step."""
        self.weights_version += 1

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(masked logits (B, A), values (B,))`` for inputs ``x`` and 0/1 masks."""
        return masked_logits(self.actor(x), mask), self.critic(x).squeeze(-1)

    def value(self, x: torch.Tensor) -> torch.Tensor:
        """State values ``(B,)``."""
        return self.critic(x).squeeze(-1)


def _weights_loaded(module: ActorCritic, incompatible_keys: Any) -> None:
    """``load_state_dict``'s post-hook: the loaded weights are new weights."""
    module.weights_changed()


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every masked id (mask 0) set to -1e9: probability exactly 0 after softmax.

    >>> masked_logits(torch.zeros(1, 3), torch.tensor([[1, 0, 1]])).softmax(-1).tolist()
    [[0.5, 0.0, 0.5]]
    """
    return torch.where(mask.bool(), logits, torch.full_like(logits, _MASKED))


def sample_actions(probs: np.ndarray, masks: np.ndarray, rngs: Sequence[np.random.Generator]) -> np.ndarray:
    """One action per row: inverse-CDF sampling with one uniform draw from that row's generator.

    Each row's CDF is the running sum of its legal ids' probabilities divided by their total
    (the running sum's last entry); the answer is the first legal id whose CDF exceeds the
    draw. Masked ids are never returned (their probability is zeroed here too, whatever
    ``probs`` says); a row whose legal probabilities are all zero (or NaN) samples uniformly
    over its legal ids; a row whose mask allows nothing is an error. Vectorised over the rows;
    when every row has the same generator its draws are taken in one call (the same numbers,
    in row order, as one call per row).

    >>> import numpy as np
    >>> p = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
    >>> sample_actions(p, np.array([[0, 1, 1], [1, 0, 0]]), [np.random.default_rng(0)] * 2).tolist()
    [1, 0]
    """
    legal = np.asarray(masks) > 0
    if (legal.sum(axis=1) == 0).any():
        raise HoldemError("an action mask allows no action: the seat is not on turn")
    n = len(legal)
    if n and all(r is rngs[0] for r in rngs):
        u = rngs[0].random(n)
    else:
        u = np.array([r.random() for r in rngs], dtype=np.float64)
    return sample_with_uniforms(probs, legal, u)


def sample_with_uniforms(probs: np.ndarray, masks: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """:func:`sample_actions` with the rows' uniform draws given (``(B,)`` in [0, 1)): the same
    answer as :func:`sample_actions` whose generators draw those numbers."""
    legal = np.asarray(masks) > 0
    counts = legal.sum(axis=1)
    if (counts == 0).any():
        raise HoldemError("an action mask allows no action: the seat is not on turn")
    cdf = np.cumsum(np.where(legal, np.asarray(probs, dtype=np.float64), 0.0), axis=1)
    total = cdf[:, -1].copy()
    flat = ~(total > 0)
    if flat.any():  # every legal id underflowed: uniform over the legal ids
        cdf[flat] = np.cumsum(legal[flat], axis=1)
        total[flat] = counts[flat]
    cdf /= total[:, None]
    return _inverse_cdf(cdf, legal, counts, np.asarray(uniforms, dtype=np.float64).reshape(-1))


def _inverse_cdf(cdf: np.ndarray, legal: np.ndarray, counts: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The first legal id of each row whose normalised CDF exceeds ``u`` (the last legal id at most)."""
    k = np.minimum(((cdf <= u[:, None]) & legal).sum(axis=1), counts - 1)  # legal ids at or below the draw
    rank = np.cumsum(legal, axis=1)
    return np.argmax(legal & (rank == (k + 1)[:, None]), axis=1).astype(np.int64)


def temper(probs: np.ndarray, masks: np.ndarray, temperature: float) -> np.ndarray:
    """Rows of ``probs`` (``(B, A)`` or ``(A,)``, a masked softmax) at ``temperature``: each row
    ``softmax(logits / T)`` over its legal ids (mask > 0), computed from the probabilities as
    ``p ** (1 / T)`` renormalised (in logs, so no legal id underflows that would not anyway).
    Masked ids and ids of probability 0 stay exactly 0; ``T = 1`` returns ``probs`` unchanged.

    >>> temper(np.array([0.2, 0.8, 0.0]), np.array([1, 1, 1]), 0.5).round(4).tolist()
    [0.0588, 0.9412, 0.0]
    """
    if temperature == 1.0:
        return probs  # untouched, dtype included: T = 1 samples exactly as before the option existed
    p = np.asarray(probs, dtype=np.float64)
    live = (np.asarray(masks) > 0) & (p > 0)
    logp = np.where(live, np.log(np.where(live, p, 1.0)), -np.inf)
    top = logp.max(axis=-1, keepdims=True)
    out = np.where(live, np.exp((logp - np.where(np.isfinite(top), top, 0.0)) / temperature), 0.0)
    total = out.sum(axis=-1, keepdims=True)
    return np.divide(out, total, out=np.zeros_like(out), where=total > 0)


class PpoPolicy:
    """A network plus what it was trained on; saves and loads ``.pt`` policy files."""

    def __init__(
        self, config: PolicyConfig, model: ActorCritic | None = None, metadata: Mapping[str, Any] | None = None
    ) -> None:
        self.config = config
        self.model = model if model is not None else ActorCritic(config)
        self.model.eval()
        self.metadata: dict[str, Any] = dict(metadata or {})
        self.scale = observation_scale(config.num_players, config.stack_bb)

    # -- input -----------------------------------------------------------------------------
    def encode(self, observations: np.ndarray, equity: np.ndarray | None = None) -> np.ndarray:
        """Network input ``(B, input_size)`` of raw observation rows ``(B, obs_size)``
        (``equity``: the rows' equity feature when already known; see
        :func:`~holdem_env.agents.features.features_batch`)."""
        obs = np.asarray(observations, dtype=np.float32)
        if obs.ndim != 2 or obs.shape[1] != self.config.obs_size:
            raise HoldemError(
                f"this ppo policy was trained for {self.config.num_players} seats (observations of "
                f"{self.config.obs_size} entries); got observations of shape {obs.shape}"
            )
        return encode_batch(obs, self.scale, self.config.features, equity)

    @torch.no_grad()
    def probabilities(
        self, observations: np.ndarray, masks: np.ndarray, equity: np.ndarray | None = None
    ) -> np.ndarray:
        """Action probabilities ``(B, A)`` (float64; exactly 0 on masked ids); ``equity`` as in :meth:`encode`."""
        masks = np.asarray(masks)
        if masks.ndim != 2 or masks.shape[1] != self.config.num_actions:
            raise HoldemError(
                f"this ppo policy plays {self.config.num_actions} discrete actions (bet_sizes "
                f"{list(self.config.bet_sizes)}); the action masks have shape {masks.shape}: use the env's "
                f"discrete action mode with these bet sizes"
            )
        x = torch.from_numpy(self.encode(observations, equity))
        # The actor alone: the same logits as ``self.model(x, mask)[0]``, without the critic's pass.
        logits = masked_logits(self.model.actor(x), torch.from_numpy(masks.astype(np.int64)))
        return logits.double().softmax(-1).numpy()

    # -- files -----------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the policy file atomically; returns its path."""
        payload = {
            "format": POLICY_FORMAT,
            "kind": "holdem-ppo-policy",
            "env_id": ENV_ID,
            "obs_size": self.config.obs_size,
            "num_actions": self.config.num_actions,
            "config": self.config.to_dict(),
            "metadata": self.metadata,
            "state_dict": {k: v.detach().clone() for k, v in self.model.state_dict().items()},
        }
        p = Path(path)
        atomic_write_bytes(p, lambda fh: torch.save(payload, fh))
        return p

    @classmethod
    def load(cls, path: str | Path) -> PpoPolicy:
        """Read a policy file; :class:`PolicyFileError` names what is wrong with it."""
        p = Path(path)
        if not p.is_file():
            raise PolicyFileError(f"ppo policy file {str(p)!r} does not exist")
        try:
            check_zip(p, MAX_POLICY_FILE_BYTES)
            payload = torch.load(p, map_location="cpu", weights_only=True)
        except UnsafeFileError as exc:
            raise PolicyFileError(f"ppo policy file {str(p)!r} cannot be read: {exc}") from None
        except Exception as exc:
            raise PolicyFileError(f"ppo policy file {str(p)!r} cannot be read as a torch file: {exc}") from None
        if not isinstance(payload, dict) or payload.get("kind") != "holdem-ppo-policy":
            raise PolicyFileError(f"{str(p)!r} is not a holdem ppo policy file")
        if payload.get("format") != POLICY_FORMAT:
            raise PolicyFileError(
                f"ppo policy file {str(p)!r} has format {short_repr(payload.get('format'))}; "
                f"this version reads format {POLICY_FORMAT}"
            )
        if payload.get("env_id") not in SAME_OBSERVATIONS_AS:
            raise PolicyFileError(
                f"ppo policy file {str(p)!r} was trained on env {short_repr(payload.get('env_id'))}, but this package's "
                f"env is {ENV_ID!r}: observations may differ, retrain the policy"
            )
        raw = payload.get("config")
        if not isinstance(raw, dict):
            raise PolicyFileError(f"ppo policy file {str(p)!r} has no config (a dict of network settings)")
        try:
            config = PolicyConfig.from_dict(raw)
        except (TypeError, ValueError, ConfigError) as exc:
            raise PolicyFileError(f"ppo policy file {str(p)!r} has a bad config: {exc}") from None
        if payload.get("obs_size") != config.obs_size:
            raise PolicyFileError(
                f"ppo policy file {str(p)!r} expects observations of {short_repr(payload.get('obs_size'))} entries; "
                f"{ENV_ID} has {config.obs_size} at {config.num_players} seats: retrain the policy"
            )
        _check_weights(str(p), config, payload.get("state_dict"))
        metadata = payload.get("metadata", {})
        if not isinstance(metadata, dict):
            raise PolicyFileError(f"ppo policy file {str(p)!r}: metadata must be a dict, not {type(metadata).__name__}")
        model = ActorCritic(config)
        try:
            model.load_state_dict(payload["state_dict"])
        except (RuntimeError, KeyError) as exc:
            raise PolicyFileError(f"ppo policy file {str(p)!r}: weights do not fit its config: {exc}") from None
        return cls(config, model, metadata)


_CACHE: dict[str, PpoPolicy] = {}


def _load_cached(path: str | Path) -> PpoPolicy:
    p = Path(path).resolve()
    key = f"{p}:{p.stat().st_mtime_ns}" if p.is_file() else str(p)
    pol = _CACHE.get(key)
    if pol is None:
        pol = PpoPolicy.load(p)
        if len(_CACHE) >= 8:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = pol
    return pol


class PpoAgent:
    """Plays a :class:`PpoPolicy` (spec ``ppo``; see the module docstring).

    ``policy``: a ``.pt`` path, a :class:`PpoPolicy`, or ``None`` for the shipped heads-up
    policy. ``greedy``: play the most likely legal action instead of sampling.
    ``temperature``: sample from ``softmax(logits / temperature)`` over the legal actions
    (:func:`temper`; a positive finite number, default 1: the policy as trained; it cannot be
    combined with ``greedy``, the limit T -> 0). ``rng`` / ``seed``: the generator for sampling
    (the arena resets it via ``set_rng``).
    """

    def __init__(
        self,
        policy: str | Path | PpoPolicy | None = None,
        greedy: bool = False,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
        temperature: float = 1.0,
    ) -> None:
        self.greedy = check_bool("greedy", greedy)
        self.temperature = check_number("temperature", temperature, 0.0, lo_open=True,
                                        allowed="must be a finite number > 0 (1: the policy as trained)")
        if self.greedy and self.temperature != 1.0:
            raise ConfigError("temperature", temperature, "cannot be combined with greedy=True (greedy is the limit T -> 0)")
        self.rng = agent_rng(rng, seed)
        if isinstance(policy, PpoPolicy):
            self.policy = policy
        elif policy is None:
            shipped = self.shipped_policy
            if not shipped.is_file():
                raise PolicyFileError(
                    f"the shipped ppo policy {shipped.name} is not installed: pass ppo(policy='path.pt')"
                )
            self.policy = _load_cached(shipped)
        elif isinstance(policy, (str, Path)):
            self.policy = _load_cached(policy)
        else:
            raise ConfigError("policy", policy, "must be a .pt path, a PpoPolicy, or None (the shipped policy)")

    #: The policy file played when no ``policy`` is given.
    shipped_policy: Path = SHIPPED_POLICY

    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` from now on (the arena reseeds before every hand)."""
        self.rng = rng

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """A legal action id for the seat on turn (the numpy path of :mod:`holdem_env.agents.ppo_fast`)."""
        mask = np.asarray(observation["action_mask"])
        probs = probabilities_one(self.policy, observation["observation"], mask)
        if self.greedy:
            return int(np.where(mask > 0, probs + 1.0, -1.0).argmax())
        return sample_row(temper(probs, mask, self.temperature), mask, self.rng)

    def action_probabilities(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
    ) -> np.ndarray:
        """Range query (:mod:`holdem_env.agents.ranges`): for each row of ``holdings`` the policy's
        action probabilities had the seat held those two cards -- the observation with its
        hole-card one-hot replaced, the engineered features recomputed, all rows in one
        network call. The row of the seat's own holding is exactly what :meth:`act` samples
        from (a greedy agent: probability 1 on the action it plays; with a ``temperature``, the
        tempered probabilities).

        The equity feature comes from :func:`~holdem_env.agents.features.equity_table`
        (the same numbers ``act`` computes) when one opponent is live; otherwise the
        features are computed row by row as for ``act``.
        """
        hold = check_holdings(holdings)
        obs = np.asarray(observation["observation"], dtype=np.float32)
        mask = np.asarray(observation["action_mask"])
        rows = np.repeat(obs[None, :], len(hold), axis=0)
        rows[:, _obs.OFF_HOLE : _obs.OFF_HOLE + 52] = 0.0
        rows[np.arange(len(hold))[:, None], _obs.OFF_HOLE + hold] = 1.0
        equity = None
        if self.policy.config.features and len(hold) and live_opponents(obs[None, :])[0] == 1:
            board = np.flatnonzero(obs[_obs.OFF_BOARD : _obs.OFF_BOARD + 52] > 0.5)
            equity = equity_table(board)[holding_indices(hold)]
            equity = np.where(np.isnan(equity), 0.0, equity)  # a holding the board blocks: no real row
        masks = np.repeat(mask[None, :], len(hold), axis=0)
        probs = self.policy.probabilities(rows, masks, equity)
        if self.greedy:
            best = np.where(masks > 0, probs + 1.0, -1.0).argmax(axis=1)
            probs = np.zeros_like(probs)
            probs[np.arange(len(hold)), best] = 1.0
        return temper(probs, masks, self.temperature)

    #: :meth:`decide` reads one uniform per row (the draw :meth:`act` takes from its generator).
    uniforms_per_decision = 1

    def decide_rows(self, observations: np.ndarray, masks: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
        """Discrete action ids ``(B,)`` for observation rows and masks in one network call, row ``i``
        drawn with ``uniforms[i]`` (``(B,)`` or ``(B, 1)``): what :meth:`act` plays at that row when its
        generator draws that number (greedy: the most likely legal id)."""
        masks = np.asarray(masks)
        probs = self.policy.probabilities(observations, masks)
        if self.greedy:
            return np.where(masks > 0, probs + 1.0, -1.0).argmax(axis=1).astype(np.int64)
        probs = temper(probs, masks, self.temperature)
        u = np.asarray(uniforms, dtype=np.float64)
        if u.shape[0] != len(probs) or u.size != len(probs):
            raise HoldemError(f"uniforms must have one entry per row ({len(probs)}), got shape {u.shape}")
        return sample_with_uniforms(probs, masks, u.reshape(-1))

    def decide(self, views: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        """Exact action ids (the batched core's) for every row of ``views`` in one network call: the
        rows' ``nlhe_v1`` observations and discrete masks (this policy's bet sizes) written by
        :mod:`holdem_env.batched.encode`, :meth:`decide_rows` on them, each discrete id turned
        into its exact id."""
        cfg = self.policy.config
        if views.num_players != cfg.num_players:
            raise HoldemError(f"this ppo policy was trained for {cfg.num_players} seats; the views are of "
                              f"{views.num_players}-seat tables")
        obs = np.empty((views.rows, encode.observation_size(views.num_players)), dtype=np.float32)
        encode.encode_observations(views, obs)
        amounts = encode.discrete_amounts(views, cfg.bet_sizes)
        masks = np.empty((views.rows, cfg.num_actions), dtype=np.int8)
        encode.legal_masks(views, "discrete", masks, bet_sizes=cfg.bet_sizes, amounts=amounts)
        ids = self.decide_rows(obs, masks, uniforms)
        return encode.exact_actions(views, ids, "discrete", bet_sizes=cfg.bet_sizes, amounts=amounts)

    def act_batch(
        self, observations: np.ndarray, masks: np.ndarray, rngs: Sequence[np.random.Generator] | None = None
    ) -> np.ndarray:
        """Actions ``(B,)`` for observation rows ``(B, obs_size)`` and masks ``(B, A)`` in one network call.

        Row ``i`` samples with ``rngs[i]`` (default: the agent's generator for every row).
        """
        masks = np.asarray(masks)
        probs = self.policy.probabilities(observations, masks)
        if self.greedy:
            return np.where(masks > 0, probs + 1.0, -1.0).argmax(axis=1).astype(np.int64)
        if rngs is None:
            rngs = [self.rng] * len(probs)
        return sample_actions(temper(probs, masks, self.temperature), masks, rngs)


class Ppo6MaxAgent(PpoAgent):
    """Spec ``ppo-6max``: :class:`PpoAgent` playing the shipped 6-max policy by default
    (``agents/data/ppo_6max.pt``, trained by population training at six seats; see
    ``docs/population.md``). It plays 6-seat tables only; ``policy``, ``greedy``, ``temperature``,
    ``rng`` and ``seed`` as for ``ppo``.

    Shipped policies: round 100 of ``configs/ppo_6max.yaml``'s run (kept as
    ``benchmarks/policies/ppo_6max_r100.pt``), then (2026-12-04) the weight average of that run's
    rounds 100, 110, ..., 250 (the config's ``average_from``)."""

    shipped_policy = SHIPPED_6MAX_POLICY
