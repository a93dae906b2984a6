"""Lower-variance head-to-head results: AIVAT-style control variates for heads-up hands.

AIVAT (Burch, Schmid, Moravcik, Morrill & Bowling, 2018) subtracts from each hand's
winnings, at every chance event, the value the event added beyond its expectation. With
both players' cards known after the hand, the value used here is the seat's share of a
pot of ``P`` chips:

- when the turn or river card is dealt, ``P * (equity after the card - equity before
  it)``, both equities exact (every run-out enumerated);
- when the flop is dealt, ``P * (lead on the flop - its mean over every flop)``, where the
  lead is 1, 1/2 or 0 as the seat's five cards beat, tie or lose to the other's (exact
  preflop equity would need 1.7 million run-outs per hand; the lead's mean needs 17,296
  flops).

The deal is uniform over the unseen cards and each term's mean over the deal is computed
exactly, so every correction has expectation zero whatever the players do: the corrected
result is an unbiased estimate of the same expected winnings with much of the board's
luck taken out. Duplicate deals already cancel most hole-card luck.

The *action terms* take out the players' own randomisation. At each decision of a player
that answers range queries (:mod:`holdem_env.agents.ranges`), with ``pi`` its action
probabilities for the holding it holds -- the distribution its ``act`` drew from -- the
acting seat's correction is ``V(a_taken) - sum_a pi(a) V(a)``, whose mean over ``a ~ pi``
is zero for any fixed ``V``. Here ``V(a)`` is the seat's share of the pot after action
``a`` at its current equity minus what it has put in: ``eq * pot' - put_in'`` (``-put_in``
after a fold), with ``eq`` the exact equity of the two known hands on the board (preflop:
the mean flop lead above). The other seat's correction is the negative. To get ``pi``
the hand is replayed through the env with fresh agents seeded as the arena seeded them,
each asked for its range answer and then to act; the replay must reproduce the recorded
hand exactly (:class:`ConfigError` otherwise), so ``pi`` is the distribution actually
sampled from.

:func:`chance_corrections` works on a finished :class:`~holdem_env.engine.record.HandRecord`;
:func:`action_corrections` also needs the hand's agents; :func:`luck_adjusted` re-scores a
heads-up :class:`~holdem_env.training.arena.MatchResult` kept with its records
(``holdem eval --aivat``).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from holdem_env.agents.base import make_agent
from holdem_env.agents.ranges import query_range, supports_range_queries
from holdem_env.engine.actions import Street
from holdem_env.engine.equity import exact_equity
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.record import ActionEvent, DealEvent, UncalledBetReturned
from holdem_env.training.arena import _group_seed, lineup_of, match_env
from holdem_env.training.stats import mean_ci95

__all__ = [
    "chance_corrections",
    "action_values",
    "action_corrections",
    "luck_adjusted",
    "format_luck_adjusted",
]


def chance_corrections(record: Any) -> np.ndarray:
    """Per-seat chip corrections of a finished heads-up hand (they sum to zero).

    ``payoffs - chance_corrections(record)`` is the luck-adjusted result. Hands that end
    before the turn get zeros. Raises :class:`ConfigError` for other than two players.
    """
    seats = [s for s, d in enumerate(record.dealt_in) if d]
    if len(seats) != 2:
        raise ConfigError("players", len(seats), "luck adjustment is for heads-up hands: exactly 2 dealt in")
    out = np.zeros(len(record.dealt_in))
    contributed = np.array(record.blinds, dtype=np.int64) + np.array(record.antes, dtype=np.int64)
    holes = [tuple(record.hole_cards[s]) for s in seats]
    board: list[int] = []
    for event in record.events:
        if isinstance(event, ActionEvent):
            contributed[event.seat] += event.amount
        elif isinstance(event, UncalledBetReturned):
            contributed[event.seat] -= event.amount
        elif isinstance(event, DealEvent):
            if event.street == Street.FLOP:
                pot = float(contributed.sum())
                ahead = _flop_lead(holes, tuple(event.cards))
                mean = _mean_flop_lead(holes)
                for k, s in enumerate(seats):
                    out[s] = out[s] + pot * ((ahead if k == 0 else 1.0 - ahead) - (mean if k == 0 else 1.0 - mean))
            elif event.street in (Street.TURN, Street.RIVER):
                before = exact_equity(holes, board)
                after = exact_equity(holes, board + list(event.cards))
                pot = float(contributed.sum())
                for k, s in enumerate(seats):
                    out[s] = out[s] + pot * (after[k] - before[k])
            board.extend(event.cards)
    return out


def _flop_lead(holes: list[tuple[int, ...]], flop: tuple[int, ...]) -> float:
    """1 if the first hand's five cards with the flop beat the second's, 0.5 on a tie, else 0."""
    cards = np.array([holes[0] + flop, holes[1] + flop], dtype=np.int64)
    a, b = evaluate_batch(cards)
    return 1.0 if a > b else 0.5 if a == b else 0.0


def _mean_flop_lead(holes: list[tuple[int, ...]]) -> float:
    """:func:`_flop_lead` averaged over every flop the two hands allow (exact)."""
    rest = [c for c in range(52) if c not in holes[0] and c not in holes[1]]
    flops = np.array(list(itertools.combinations(rest, 3)), dtype=np.int64)
    n = len(flops)
    a, b = (
        evaluate_batch(np.concatenate([np.broadcast_to(h, (n, 2)), flops], axis=1).astype(np.uint8), validate=False)
        for h in holes
    )
    return float(((a > b) + 0.5 * (a == b)).mean())


def action_values(env: Any, seat: int, equity: float, starting_stacks: Any) -> np.ndarray:
    """``V(a)`` of every action id at ``seat``'s decision on ``env`` (a raw ``nlhe_v1`` env,
    heads-up, the seat on turn), for a seat whose pot share is ``equity``: ``equity * pot'
    - put_in'`` after the action (``-put_in`` after a fold); 0 for masked ids.

    ``put_in`` is what the seat has put in this hand (``starting_stacks[seat]`` minus its
    stack), ``pot`` what both have; a call adds the amount to call, a bet or raise to
    ``r`` adds ``r`` minus the seat's chips already in on this street (the other seat's
    answer is not anticipated: measured on cfr-lite vs tag, assuming a call or only
    counting the pot share as it stands both cut the variance less).
    """
    name = env.possible_agents[seat]
    mask = np.asarray(env.observe(name)["action_mask"])
    view = env.infos[name]["view"]
    legal = env.infos[name]["legal"]
    put_in = np.asarray(starting_stacks, dtype=np.int64) - np.asarray(view["stacks"], dtype=np.int64)
    pot, mine = float(put_in.sum()), float(put_in[seat])
    out = np.zeros(len(mask))
    for a in np.flatnonzero(mask):
        if a == 0:
            out[a] = -mine
            continue
        if a == 1:
            add = float(legal["call"])
        else:
            add = float(env.action_amount(int(a))) - float(view["street_bets"][seat])
        out[a] = equity * (pot + add) - (mine + add)
    return out


def action_corrections(record: Any, agents: Any, env: Any, *, seed: int = 0, rngs: Any = None) -> np.ndarray:
    """Per-seat chip corrections (summing to zero) for the players' own randomisation in a
    finished heads-up hand; see the module docstring.

    ``agents[s]``: the agent that sat in seat ``s`` (fresh or reset: the hand is replayed,
    ``start_hand`` called, then each decision asked for a range answer and played with
    ``act``); ``env``: a raw ``nlhe_v1`` env of the match's table (it is reset with the
    record's deck and button, ``seed``); ``rngs[s]``: the generator seat ``s``'s agent
    drew from during the hand (``set_rng``), so that the replay acts exactly as the match
    did. Seats whose agent does not answer range queries get no terms.

    Raises :class:`ConfigError` if the replay does not reproduce the recorded actions.
    """
    seats = [s for s, d in enumerate(record.dealt_in) if d]
    if len(seats) != 2:
        raise ConfigError("players", len(seats), "luck adjustment is for heads-up hands: exactly 2 dealt in")
    holes = {s: tuple(record.hole_cards[s]) for s in seats}
    env.reset(seed=seed, options={"deck": list(record.deck), "button": int(record.button)})
    for s in seats:
        if rngs is not None and hasattr(agents[s], "set_rng"):
            agents[s].set_rng(rngs[s])
        hook = getattr(agents[s], "start_hand", None)
        if hook is not None:
            hook(env.infos[env.possible_agents[s]])
    out = np.zeros(len(record.dealt_in))
    equities: dict[tuple[int, ...], float] = {}
    preflop_lead: float | None = None
    while env.agents and not all(env.terminations.values()):
        name = env.agent_selection
        seat = env.agent_name_mapping[name]
        other = seats[1] if seat == seats[0] else seats[0]
        obs, info = env.observe(name), env.infos[name]
        agent = agents[seat]
        probs = None
        if supports_range_queries(agent):
            probs = query_range(agent, obs, info, np.array([sorted(holes[seat])], dtype=np.int64))[0]
        action = int(agent.act(obs, info))
        if probs is not None:
            board = tuple(record.board[: len(info["view"]["board"])])
            if not board:
                if preflop_lead is None:
                    preflop_lead = _mean_flop_lead([holes[seats[0]], holes[seats[1]]])
                eq = preflop_lead if seat == seats[0] else 1.0 - preflop_lead
            else:
                key = (seat, *board)
                if key not in equities:
                    equities[key] = float(exact_equity([holes[seat], holes[other]], list(board))[0])
                eq = equities[key]
            values = action_values(env, seat, eq, record.starting_stacks)
            term = values[action] - float(np.dot(probs, values))
            out[seat] += term
            out[other] -= term
        env.step(action)
    replayed = env.hand_record()
    if replayed.events != record.events or tuple(replayed.payoffs) != tuple(record.payoffs):
        raise ConfigError(
            "records", "a hand", "must replay exactly with the same agents and seeds (an agent acted differently)"
        )
    return out


def luck_adjusted(result: Any, *, actions: bool = True) -> dict[str, Any]:
    """Plain and luck-adjusted results of a heads-up match kept with its records.

    Returns ``{"rows": [{"agent", "mbb_per_hand", "ci95", "adjusted_mbb_per_hand",
    "adjusted_ci95"}, ...], "ci_ratio": plain / adjusted half-width, "variance_reduction":
    1 - adjusted variance / plain variance, "terms": "chance" or "chance+action"}``, one
    sample per duplicate group as in the arena. ``actions``: add the action terms
    (:func:`action_corrections`; the hands are replayed with the match's agents, seeded as
    the arena seeded them). Raises :class:`ConfigError` unless the match is heads-up and
    has its records (``run_match(..., keep_records=True)``).
    """
    cfg = result.config
    n = int(cfg.players)
    if n != 2:
        raise ConfigError("players", n, "--aivat needs a heads-up match (2 players)")
    groups = result.group_net.shape[0]
    if len(result.records) != groups * n:
        raise ConfigError("records", len(result.records), f"must hold every hand ({groups * n}): keep_records=True")
    lineup = lineup_of(cfg.agents, n)
    replay: Any = None
    contestants = [make_agent(spec) for spec in lineup] if actions else []
    if any(supports_range_queries(a) for a in contestants):
        replay = match_env(cfg)
    adjusted = np.zeros((groups, n))
    for g in range(groups):
        children = _group_seed(cfg.seed, g).spawn(1 + n)
        for rotation in range(n):
            record = result.records[g * n + rotation]
            corr = chance_corrections(record)
            if replay is not None:
                at_seat = [contestants[(s + rotation) % n] for s in range(n)]
                rngs = [np.random.default_rng(children[1 + s]) for s in range(n)]
                corr = corr + action_corrections(record, at_seat, replay, seed=cfg.seed, rngs=rngs)
            for seat in range(n):
                contestant = (seat + rotation) % n
                adjusted[g, contestant] += record.payoffs[seat] - corr[seat]
    rows = []
    ratios = []
    reductions = []
    for spec in dict.fromkeys(lineup):
        members = [c for c in range(n) if lineup[c] == spec]
        scale = 1000.0 / cfg.big_blind / (len(members) * n)
        plain = result.group_net[:, members].sum(axis=1) * scale
        luck = adjusted[:, members].sum(axis=1) * scale
        mean, half = mean_ci95(plain.tolist())
        adj_mean, adj_half = mean_ci95(luck.tolist())
        rows.append(
            {
                "agent": spec,
                "mbb_per_hand": mean,
                "ci95": half,
                "adjusted_mbb_per_hand": adj_mean,
                "adjusted_ci95": adj_half,
            }
        )
        if adj_half > 0 and math.isfinite(half):
            ratios.append(half / adj_half)
            reductions.append(1.0 - (adj_half / half) ** 2 if half > 0 else 0.0)
    return {
        "rows": rows,
        "ci_ratio": min(ratios) if ratios else math.nan,
        "variance_reduction": min(reductions) if reductions else math.nan,
        "terms": "chance+action" if replay is not None else "chance",
    }


def format_luck_adjusted(adjusted: dict[str, Any]) -> str:
    """The lines ``holdem eval --aivat`` prints under the match table."""
    terms = "chance and action terms" if adjusted.get("terms") == "chance+action" else "chance terms"
    lines = [f"luck-adjusted (AIVAT-style {terms}; unbiased, same expectation):"]
    for row in adjusted["rows"]:
        lines.append(
            f"  {row['agent']}: {row['adjusted_mbb_per_hand']:+,.1f} +- {row['adjusted_ci95']:,.1f} mbb/hand "
            f"(plain {row['mbb_per_hand']:+,.1f} +- {row['ci95']:,.1f})"
        )
    reduction = 100 * adjusted["variance_reduction"]
    lines.append(f"  95% interval {adjusted['ci_ratio']:.2f}x narrower; variance reduced by {reduction:.0f}%")
    return "\n".join(lines)
