"""Population training's own pieces: the anchor policy (a teacher distilled into the network by behaviour cloning) and PFSP weights.

The method (``docs/population.md``) trains PPO against a population that keeps finding its
weaknesses -- past snapshots, card-blind exploiters and fixed bots, sampled with
prioritised-fictitious-self-play weights (:func:`pfsp_weights`, the formula
:class:`holdem_env.training.pool.OpponentPool` samples its members by) -- while a KL penalty
holds the policy near an *anchor*: a sound rule-based bot (``tag``) distilled into the same
network by behaviour cloning (:func:`distill`). The anchor is also the starting point of the
run, so training begins from a policy LBR exploits about as much as the teacher, and PPO only
moves it where the population's results pay for the move (magnetic mirror descent's update,
Sokota et al. 2023, with the teacher as the magnet).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import torch

from holdem_env.agents.base import make_agent
from holdem_env.agents.ppo import ActorCritic, PolicyConfig, PpoAgent, PpoPolicy
from holdem_env.batched import Members
from holdem_env.batched.views import BatchViews
from holdem_env.engine.config import TableConfig
from holdem_env.env import nlhe_v1

from .pool import OpponentPool

__all__ = [
    "Demonstrations", "pfsp_weights", "collect_demonstrations", "distill", "warm_start", "SelfMixPool", "SeatSplit",
    "self_mix_name",
]


def pfsp_weights(results: Sequence[float | None], temperature: float, uniform_share: float) -> np.ndarray:
    """Prioritised fictitious self-play weights: ``exp(-result / temperature)`` normalised, mixed
    with a uniform share (a member without results counts as the worst one seen).

    ``results``: the learner's recent mean result against each member (any unit; ``temperature``
    in the same unit). The same formula as :meth:`holdem_env.training.pool.OpponentPool.weights`.

    >>> [round(float(w), 3) for w in pfsp_weights([100.0, -200.0, None], 100.0, 0.0)]
    [0.024, 0.488, 0.488]
    """
    known = [v for v in results if v is not None]
    worst = min(known) if known else 0.0
    scores = np.array([worst if v is None else v for v in results], dtype=np.float64)
    z = -(scores - scores.min()) / temperature
    prio = np.exp(z - z.max())
    prio /= prio.sum()
    w = (1.0 - uniform_share) * prio + uniform_share / len(prio)
    return w / w.sum()


@dataclass
class Demonstrations:
    """A teacher's decisions: raw observations ``(D, obs)``, masks ``(D, A)``, the actions it took
    ``(D,)`` and the payoff of the hand each belongs to, in big blinds ``(D,)``."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    payoffs: np.ndarray


def collect_demonstrations(
    teacher: str, opponents: Sequence[str], table: TableConfig, bet_sizes: Sequence[float], hands: int, seed: int
) -> Demonstrations:
    """Play ``hands`` hands of ``teacher`` against opponents drawn uniformly from ``opponents``
    (specs; hand ``h``'s opponent and seats from ``seed``), keeping the teacher's decisions.

    >>> d = collect_demonstrations("tag", ["random"], TableConfig(num_players=2), nlhe_v1.DEFAULT_BET_SIZES, 20, seed=1)
    >>> d.observations.shape[0] == d.masks.shape[0] == d.actions.shape[0] > 0
    True
    >>> bool(d.masks[np.arange(len(d.actions)), d.actions].all())
    True
    """
    if not opponents:
        raise ValueError("collect_demonstrations needs at least one opponent spec")
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(7,)))
    env = nlhe_v1.raw_env(
        num_players=table.num_players, small_blind=table.small_blind, big_blind=table.big_blind,
        ante=table.ante, buy_in=table.buy_in, action_mode="discrete", bet_sizes=tuple(bet_sizes), reward_unit="bb",
    )
    teach = make_agent(teacher)  # specs carry their own bet sizes when not the env's default
    opps = [make_agent(spec) for spec in opponents]
    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    acts: list[int] = []
    pays: list[float] = []
    for _ in range(hands):
        opp = opps[int(rng.integers(len(opps)))]
        me = int(rng.integers(table.num_players))
        for a in (teach, opp):
            if hasattr(a, "set_rng"):
                a.set_rng(np.random.default_rng(rng.integers(2**63)))
        env.reset(seed=int(rng.integers(2**31)))
        start = len(acts)
        while env.agents and not all(env.terminations.values()):
            name = env.agent_selection
            seat = env.agent_name_mapping[name]
            obs, info = env.observe(name), env.infos[name]
            action = int((teach if seat == me else opp).act(obs, info))
            if seat == me:
                obs_rows.append(np.asarray(obs["observation"], dtype=np.float32))
                mask_rows.append(np.asarray(obs["action_mask"], dtype=np.int8))
                acts.append(action)
            env.step(action)
        payoffs = env.hand_record().payoffs
        total = 0.0 if payoffs is None else float(payoffs[me]) / table.big_blind
        pays.extend([total] * (len(acts) - start))
    env.close()
    return Demonstrations(
        np.stack(obs_rows), np.stack(mask_rows), np.asarray(acts, dtype=np.int64), np.asarray(pays, dtype=np.float64)
    )


def distill(
    model: ActorCritic, encoder: PpoPolicy, demos: Demonstrations, *, epochs: int, seed: int,
    reward_scale: float, learning_rate: float = 1e-3, batch_size: int = 512,
) -> dict[str, float]:
    """Behaviour cloning: fit ``model``'s actor to the demonstrations' actions (cross-entropy over
    the legal ids) and its critic to the hands' payoffs times ``reward_scale`` (Monte Carlo returns,
    gamma 1); minibatch order from ``seed``. Returns the last epoch's mean losses and the share of
    decisions where the network's most likely action is the teacher's."""
    x = torch.from_numpy(encoder.encode(demos.observations))
    masks = torch.from_numpy(demos.masks.astype(np.int64))
    acts = torch.from_numpy(demos.actions)
    ret = torch.from_numpy((demos.payoffs * reward_scale).astype(np.float32))
    opt = torch.optim.Adam(model.parameters(), lr=learning_rate)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(11,)))
    n = len(acts)
    ce_sum = v_sum = 0.0
    model.train()
    for _ in range(epochs):
        order = torch.from_numpy(rng.permutation(n))
        ce_sum = v_sum = 0.0
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            logits, values = model(x[idx], masks[idx])
            ce = torch.nn.functional.cross_entropy(logits, acts[idx])
            v = 0.5 * ((values - ret[idx]) ** 2).mean()
            loss = ce + 0.5 * v
            opt.zero_grad()
            loss.backward()
            opt.step()
            ce_sum += ce.item() * len(idx)
            v_sum += v.item() * len(idx)
    model.weights_changed()
    model.eval()
    with torch.no_grad():
        logits, _ = model(x, masks)
        agree = float((logits.argmax(-1) == acts).double().mean())
    return {"cross_entropy": ce_sum / n, "value_loss": v_sum / n, "agreement": agree}


def warm_start(model: ActorCritic, teacher: str, config: PolicyConfig) -> bool:
    """When ``teacher`` is a spec that plays a ppo policy with the same network (``config``), copy
    its weights into ``model`` and return True (training continues from that policy, which is
    then the anchor); otherwise leave ``model`` alone and return False (the caller distils).

    >>> m = ActorCritic(PolicyConfig(num_players=2))
    >>> warm_start(m, "tag", PolicyConfig(num_players=2))
    False
    """
    policy = getattr(make_agent(teacher), "policy", None)
    if not isinstance(policy, PpoPolicy) or policy.config.to_dict() != config.to_dict():
        return False
    model.load_state_dict(policy.model.state_dict())
    model.weights_changed()
    return True


def self_mix_name(spec: str) -> str:
    """The pool member name of a ``self_mix`` entry: ``"<spec>+self"``."""
    return f"{spec}+self"


class SeatSplit:
    """A batched bot that plays ``even`` at the even seats (0, 2, 4, ...) and ``odd`` at the odd ones:
    each :meth:`decide` call splits the rows by ``views.seat`` and asks each bot once for its rows."""

    def __init__(self, even: Any, odd: Any) -> None:
        self.even, self.odd = even, odd
        self.uniforms_per_decision = max(int(getattr(b, "uniforms_per_decision", 1)) for b in (even, odd))

    def decide(self, views: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        """Exact action ids for every row: the even seats' rows from ``even``, the others' from ``odd``."""
        is_even = np.asarray(views.seat) % 2 == 0
        out: np.ndarray | None = None
        for rows, bot in ((is_even, self.even), (~is_even, self.odd)):
            if not rows.any():
                continue
            sub = BatchViews(**{
                f.name: (v[rows] if isinstance(v := getattr(views, f.name), np.ndarray) else v) for f in fields(BatchViews)
            })
            k = int(getattr(bot, "uniforms_per_decision", 1))
            ids = np.asarray(bot.decide(sub, np.ascontiguousarray(uniforms[rows][:, :k])))
            if out is None:
                out = np.zeros(views.rows, dtype=ids.dtype)
            out[rows] = ids
        return out if out is not None else np.zeros(0, dtype=np.int64)


class SelfMixPool(OpponentPool):
    """An :class:`~holdem_env.training.pool.OpponentPool` with *mixed* members as well: for each spec
    of ``mixed`` a member ``"<spec>+self"`` whose tables seat that spec at the odd seats and the
    live learner (``live``: a policy sharing the learner's network, so it plays the current
    weights) at the even seats, the arrangement of a two-spec evaluation at six seats (the two
    alternate round the table). The learner's own seat is drawn as usual, so it meets three of
    the spec and two copies of itself, or two and three. A mixed member is a fixed member for
    the pool's results, weights and checkpoints; every other member plays as in the plain pool.

    >>> from holdem_env.agents.ppo import ActorCritic, PolicyConfig, PpoPolicy
    >>> cfg = PolicyConfig(num_players=6)
    >>> pool = SelfMixPool(["tag"], mixed=["tag"], live=PpoPolicy(cfg, ActorCritic(cfg)))
    >>> pool.members
    ['tag', 'tag+self']
    >>> type(pool.agent(1, 0, 2)).__name__, type(pool.agent(1, 0, 3)).__name__
    ('PpoAgent', 'TagAgent')
    """

    def __init__(self, specs: Sequence[str], *, mixed: Sequence[str], live: PpoPolicy,
                 names: Sequence[str] | None = None, **kwargs: Any) -> None:
        names = list(names) if names is not None else list(specs)
        super().__init__(list(specs) + list(mixed), names=names + [self_mix_name(m) for m in mixed], **kwargs)
        self.mixed = frozenset(range(len(specs), len(specs) + len(mixed)))
        self.live = PpoAgent(live)

    def agent(self, member: int, table: int, seat: int) -> Any:
        """As the plain pool's, but a mixed member's even seats are the live learner."""
        if member in self.mixed and seat % 2 == 0:
            return self.live
        return super().agent(member, table, seat)

    def batched_bot(self) -> Any:
        """As the plain pool's, with each mixed member's bot a :class:`SeatSplit` (live learner, spec)."""
        bot = super().batched_bot()
        if bot is None:
            return None
        bots = list(bot.bots) if isinstance(bot, Members) else [bot]
        bots = [SeatSplit(self.live, b) if m in self.mixed else b for m, b in enumerate(bots)]
        return bots[0] if len(bots) == 1 else Members(bots, names=list(self.members))
