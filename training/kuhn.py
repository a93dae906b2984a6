"""Kuhn poker for the known-value test of population training: the game, its exact exploitability, and the same PPO update trained on it.

Kuhn (1950): three cards (J, Q, K), one each, antes of 1; player 1 checks or bets 1; facing a
check, player 2 checks (showdown for 1) or bets; facing a bet, a player folds or calls
(showdown for 2). Its equilibria give player 1 a value of -1/18.

A policy is a table of ``P(bet or call)`` over the 12 information sets
(:data:`INFOSETS`: card x the four decision points). :func:`exploitability` is exact (each
player's best response found by enumerating its 64 pure strategies); it is 0 exactly at a
Nash equilibrium. :func:`train` runs the update of :mod:`holdem_env.training.ppo.algorithm`
(:func:`compute_gae`, :func:`ppo_update` with the anchor KL of :func:`ppo_loss`) with a
tabular policy, against a population of its own snapshots sampled with
:func:`holdem_env.training.population.pfsp_weights`, and a magnet (anchor) that moves to the
current policy every ``magnet_every`` iterations, as R-NaD moves its regularisation policy.

>>> round(value(nash(1 / 3)), 6) == round(-1 / 18, 6)
True
>>> exploitability(nash(0.2)) < 1e-12
True
>>> round(exploitability(np.full(12, 0.5)), 4)
0.4583
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import torch

from .population import pfsp_weights
from .ppo.algorithm import compute_gae, ppo_update
from .ppo.config import PpoSettings
from .torch_settings import torch_settings

__all__ = ["INFOSETS", "nash", "value", "exploitability", "TabularPolicy", "KuhnResult", "train"]

#: The decision points: 0 player 1 opens, 1 player 2 after a check, 2 player 2 facing a bet,
#: 3 player 1 facing a bet after checking. Information set id = card * 4 + point (cards 0 J, 1 Q, 2 K).
INFOSETS = [f"{'JQK'[c]}:{p}" for c in range(3) for p in ("open", "after-check", "facing-bet", "check-bet")]
_DEALS = list(itertools.permutations(range(3), 2))
_P1_SETS = [c * 4 + p for c in range(3) for p in (0, 3)]
_P2_SETS = [c * 4 + p for c in range(3) for p in (1, 2)]


def nash(alpha: float) -> np.ndarray:
    """Kuhn's equilibrium family (``0 <= alpha <= 1/3``) as a table of ``P(bet or call)``."""
    b = np.zeros(12)
    b[0 * 4 + 0], b[1 * 4 + 0], b[2 * 4 + 0] = alpha, 0.0, 3 * alpha
    b[0 * 4 + 3], b[1 * 4 + 3], b[2 * 4 + 3] = 0.0, alpha + 1 / 3, 1.0
    b[0 * 4 + 1], b[1 * 4 + 1], b[2 * 4 + 1] = 1 / 3, 0.0, 1.0
    b[0 * 4 + 2], b[1 * 4 + 2], b[2 * 4 + 2] = 0.0, 1 / 3, 1.0
    return b


def _deal_value(c1: int, c2: int, s1: np.ndarray, s2: np.ndarray) -> float:
    """Player 1's expected payoff for one deal; ``s1`` and ``s2`` are each player's bet tables."""
    win = 1.0 if c1 > c2 else -1.0
    b1, b2 = s1[c1 * 4 + 0], s2[c2 * 4 + 1]
    call2, call1 = s2[c2 * 4 + 2], s1[c1 * 4 + 3]
    after_bet = call2 * 2 * win + (1 - call2) * 1.0
    after_check = (1 - b2) * win + b2 * (call1 * 2 * win + (1 - call1) * -1.0)
    return float(b1 * after_bet + (1 - b1) * after_check)


def value(table: np.ndarray, other: np.ndarray | None = None) -> float:
    """Player 1's expected payoff when player 1 plays ``table`` and player 2 plays ``other`` (default: ``table``)."""
    s2 = table if other is None else other
    return sum(_deal_value(c1, c2, table, s2) for c1, c2 in _DEALS) / len(_DEALS)


def _best_response_value(table: np.ndarray, player: int) -> float:
    sets = _P1_SETS if player == 1 else _P2_SETS
    best = -np.inf
    for bits in itertools.product((0.0, 1.0), repeat=len(sets)):
        pure = table.copy()
        pure[sets] = bits
        v = value(pure, table) if player == 1 else -value(table, pure)
        best = max(best, v)
    return float(best)


def exploitability(table: np.ndarray) -> float:
    """Exact exploitability of the strategy profile ``table`` (both players' sets): the mean of
    the two best responses' gains, ``(max u1(BR, s2) + max u2(s1, BR)) / 2``; 0 exactly at a Nash
    equilibrium, in antes per hand."""
    table = np.asarray(table, dtype=np.float64)
    return 0.5 * (_best_response_value(table, 1) + _best_response_value(table, 2))


class TabularPolicy(torch.nn.Module):
    """Logits and values per information set: input one-hot rows ``(B, 12)``, two actions (pass, bet)."""

    def __init__(self) -> None:
        super().__init__()
        self.logits = torch.nn.Parameter(torch.zeros(12, 2))
        self.values = torch.nn.Parameter(torch.zeros(12))

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits (B, 2), values (B,))``; every action is always legal in Kuhn poker."""
        return x @ self.logits, x @ self.values

    def weights_changed(self) -> None:
        """Nothing keeps copies of these weights."""

    def bet_table(self) -> np.ndarray:
        """``P(bet or call)`` per information set."""
        with torch.no_grad():
            return self.logits.softmax(-1)[:, 1].double().numpy().copy()


@dataclass
class KuhnResult:
    """A run's exploitability after every ``check_every`` iterations and its final policy."""

    exploitability: list[float] = field(default_factory=list)
    final: np.ndarray = field(default_factory=lambda: np.zeros(12))
    #: The exploitability of the mean of the iterates' bet tables since the run's half (checked as above).
    average_exploitability: list[float] = field(default_factory=list)


def _play(
    rng: np.random.Generator, hands: int, learner: np.ndarray, opponents: list[np.ndarray], weights: np.ndarray,
) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """``hands`` hands of the learner (bet table ``learner``; its seat drawn per hand) against
    members of ``opponents`` drawn by ``weights``. Returns the learner's decisions as one stream
    (arrays ``(D, 1)``: one-hot information sets, actions, rewards at each hand's last decision,
    ``terminated``), and per hand the member and the learner's payoff."""
    cdf = np.cumsum(weights)
    member = np.minimum(np.searchsorted(cdf, rng.random(hands) * cdf[-1], side="right"), len(cdf) - 1)
    seat = rng.integers(2, size=hands)  # 0: the learner is player 1
    cards = np.argsort(rng.random((hands, 3)), axis=1)[:, :2]
    u = rng.random((hands, 3))
    opp = np.stack(opponents)[member]  # (H, 12)
    rows = np.arange(hands)

    def p_bet(player: int, point: int) -> np.ndarray:
        iset = cards[:, player] * 4 + point
        return np.where(seat == player, learner[iset], opp[rows, iset])

    b1 = u[:, 0] < p_bet(0, 0)
    b2 = u[:, 1] < np.where(b1, p_bet(1, 2), p_bet(1, 1))
    cb = ~b1 & b2
    call1 = u[:, 2] < p_bet(0, 3)
    win = np.where(cards[:, 0] > cards[:, 1], 1.0, -1.0)
    u1 = np.where(b1, np.where(b2, 2 * win, 1.0), np.where(b2, np.where(call1, 2 * win, -1.0), win))
    payoff = np.where(seat == 0, u1, -u1)
    # the learner's decisions, hand by hand: player 1 opens (and answers a check-bet); player 2 once
    iset_a = np.where(seat == 0, cards[:, 0] * 4, cards[:, 1] * 4 + np.where(b1, 2, 1))
    act_a = np.where(seat == 0, b1, b2).astype(np.int64)
    second = (seat == 0) & cb
    count = 1 + second.astype(np.int64)
    end = np.cumsum(count)
    first = end - count
    d = int(end[-1])
    isets = np.zeros(d, dtype=np.int64)
    acts = np.zeros(d, dtype=np.int64)
    isets[first], acts[first] = iset_a, act_a
    isets[first[second] + 1], acts[first[second] + 1] = cards[second, 0] * 4 + 3, call1[second]
    rewards = np.zeros(d)
    term = np.zeros(d, dtype=bool)
    rewards[end - 1], term[end - 1] = payoff, True
    xs = np.zeros((d, 12), dtype=np.float32)
    xs[np.arange(d), isets] = 1.0
    return ({"xs": xs[:, None], "actions": acts[:, None], "rewards": rewards[:, None], "terminated": term[:, None]},
            member, payoff)


def train(
    iterations: int = 300, *, seed: int = 0, kl_coef: float = 0.2, magnet_every: int = 10, snapshot_every: int = 10,
    max_snapshots: int = 4, latest_share: float = 0.5, hands: int = 1024,
    learning_rate: float = 1.0, check_every: int = 10, norm_adv: bool = False, num_minibatches: int = 1,
    update_epochs: int = 2,
) -> KuhnResult:
    """Population PPO on Kuhn poker. ``kl_coef``: the anchor KL (0: none); the anchor starts
    uniform and becomes the current policy every ``magnet_every`` iterations (0: never moves).
    Opponents: the latest policy (``latest_share`` of the hands) and up to ``max_snapshots``
    snapshots (every ``snapshot_every`` iterations; 0: none) sampled by PFSP weights of the last
    hands' results. Deterministic for a seed (numpy and torch generators seeded here)."""
    rng = np.random.default_rng(seed)
    settings = PpoSettings(
        num_envs=1, num_steps=4 * hands, learning_rate=min(learning_rate, 1.0), num_minibatches=num_minibatches, update_epochs=update_epochs,
        max_grad_norm=1e6,
        ent_coef=0.0, kl_coef=kl_coef, gae_lambda=1.0, reward_scale=1.0, norm_adv=norm_adv,
    )
    with torch.random.fork_rng(devices=[]), torch_settings(threads=1, deterministic=True):
        torch.manual_seed(seed)
        model = TabularPolicy()
        magnet = TabularPolicy()
        optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)  # steps that shrink with the gradient
        snapshots: list[np.ndarray] = []
        results: list[list[float]] = []
        out = KuhnResult()
        total, count = np.zeros(12), 0
        for it in range(1, iterations + 1):
            current = model.bet_table()
            members = [current, *snapshots]
            means = [float(np.mean(r)) if r else None for r in results]
            if snapshots:
                w_snap = pfsp_weights(means, temperature=0.1, uniform_share=0.2) * (1 - latest_share)
                weights = np.concatenate([[latest_share], w_snap])
            else:
                weights = np.ones(1)
            ro, member, payoff = _play(rng, hands, current, members, weights)
            for m in range(1, len(members)):  # each snapshot's results over its last 1,000 hands
                results[m - 1] = [*results[m - 1], *payoff[member == m].tolist()][-1000:]
            x = torch.from_numpy(ro["xs"].reshape(-1, 12))
            masks = torch.ones(x.shape[0], 2, dtype=torch.int64)
            with torch.no_grad():
                logits, values = model(x, masks)
                logp = torch.log_softmax(logits, -1)
            values_np = values.double().numpy().reshape(-1, 1)
            acts = torch.from_numpy(ro["actions"].reshape(-1))
            adv, ret = compute_gae(ro["rewards"], values_np, ro["terminated"], np.zeros(1), 1.0, 1.0)
            batch = {
                "x": x, "masks": masks, "actions": acts,
                "logprobs": logp.gather(1, acts[:, None]).squeeze(1),
                "advantages": torch.from_numpy(adv.reshape(-1).astype(np.float32)),
                "returns": torch.from_numpy(ret.reshape(-1).astype(np.float32)),
            }
            if kl_coef > 0:
                with torch.no_grad():
                    batch["anchor_logp"] = torch.log_softmax(magnet(x, masks)[0], -1)
            ppo_update(model, optimizer, batch, settings, rng)
            if kl_coef > 0 and magnet_every and it % magnet_every == 0:
                magnet.load_state_dict(model.state_dict())
            if snapshot_every and it % snapshot_every == 0 and max_snapshots:
                snapshots.append(model.bet_table())
                results.append([])
                if len(snapshots) > max_snapshots:
                    snapshots.pop(0)
                    results.pop(0)
            if it > iterations // 2:
                total += model.bet_table()
                count += 1
            if it % check_every == 0:
                out.exploitability.append(exploitability(model.bet_table()))
                if count:
                    out.average_exploitability.append(exploitability(total / count))
        out.final = model.bet_table()
    return out
