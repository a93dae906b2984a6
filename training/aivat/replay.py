"""AIVAT's replay of a recorded heads-up hand with its agents: the action terms, each seat's reach of every holding, and the public terms.

The replay must reproduce the recorded hand exactly (:class:`ConfigError` otherwise): the
agents are seeded as the arena seeded them, and each decision is asked for a range answer
(:mod:`holdem_env.agents.ranges`) before the agent acts.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from holdem_env.agents.ranges import query_range, supports_range_queries
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import NUM_HOLDINGS, blocked_by, holding_index

from .private import _HOLDINGS, DealOdds, _deals, _first_hand_sign, _heads_up_seats, action_values
from .public import public_action_term, public_chance_term, public_flop_term


def action_corrections(
    record: Any, agents: Any, env: Any, odds: DealOdds, *, seed: int = 0, rngs: Any = None
) -> np.ndarray:
    """Per-seat chip corrections (summing to zero) for the players' own randomisation in a
    finished heads-up hand; see the module docstring.

    ``agents[s]``: the agent that sat in seat ``s`` (fresh or reset: the hand is replayed,
    ``start_hand`` called, then each decision asked for a range answer and played with
    ``act``); ``env``: a raw ``nlhe_v1`` env of the match's table (it is reset with the
    record's deck and button, ``seed``); ``odds``: the :class:`DealOdds` of the hand's hole
    cards; ``rngs[s]``: the generator seat ``s``'s agent drew from during the hand
    (``set_rng``), so that the replay acts exactly as the match did. Seats whose agent does
    not answer range queries get no terms.

    Raises :class:`ConfigError` if the replay does not reproduce the recorded actions.
    """
    return _replay(record, agents, env, odds, seed=seed, rngs=rngs, reaches=False).action


class _Replayed(NamedTuple):
    """What :func:`_replay` finds: per-seat action terms; with ``reaches``, each seat's
    reach of every holding (``None`` otherwise) and the per-seat public chance and action
    terms (zeros otherwise)."""

    action: np.ndarray
    reach: np.ndarray | None
    public_chance: np.ndarray
    public_action: np.ndarray


def _replay(
    record: Any,
    agents: Any,
    env: Any,
    odds: DealOdds,
    *,
    seed: int,
    rngs: Any,
    reaches: bool,
    flop_rng: np.random.Generator | None = None,
) -> _Replayed:
    """:func:`action_corrections`, and with ``reaches`` (both seats' agents must answer
    range queries; ignored otherwise) every holding queried at each decision: each seat's
    reach of every holding, ``(players, 1326)``, the product over the seat's decisions of
    the probability its range answer gave the action it took (0 for holdings that share a
    card with the board as it stood), and the public terms (:func:`public_action_term` at
    each decision on the flop or later, :func:`public_chance_term` at the turn and the
    river, and with ``flop_rng``, a generator independent of the deck,
    :func:`public_flop_term` at the flop)."""
    seats = _heads_up_seats(record)
    sign = _first_hand_sign(record, odds, seats)
    holes = {s: tuple(record.hole_cards[s]) for s in seats}
    env.reset(seed=seed, options={"deck": list(record.deck), "button": int(record.button)})
    for s in seats:
        if rngs is not None and hasattr(agents[s], "set_rng"):
            agents[s].set_rng(rngs[s])
        hook = getattr(agents[s], "start_hand", None)
        if hook is not None:
            hook(env.infos[env.possible_agents[s]])
    players = len(record.dealt_in)
    out = np.zeros(players)
    public_chance = np.zeros(players)
    public_action = np.zeros(players)
    reach: np.ndarray | None = None
    if reaches and all(supports_range_queries(agents[s]) for s in seats):
        reach = np.ones((players, NUM_HOLDINGS))
    snapshots: list[tuple[int, np.ndarray]] = []  # (board length, reaches after a decision)
    while env.agents and not all(env.terminations.values()):
        name = env.agent_selection
        seat = env.agent_name_mapping[name]
        other = seats[1] if seat == seats[0] else seats[0]
        obs, info = env.observe(name), env.infos[name]
        agent = agents[seat]
        board = tuple(int(c) for c in record.board[: len(info["view"]["board"])])
        probs = None
        if reach is not None:
            live = np.flatnonzero(~blocked_by(list(board)))
            answers = np.zeros((NUM_HOLDINGS, len(obs["action_mask"])))
            answers[live] = query_range(agent, obs, info, _HOLDINGS[live])
            probs = answers[holding_index(*holes[seat])]
        elif supports_range_queries(agent):
            probs = query_range(agent, obs, info, np.array([sorted(holes[seat])], dtype=np.int64))[0]
        action = int(agent.act(obs, info))
        if probs is not None and np.count_nonzero(probs) > 1:
            first = odds.equity(board)
            mine_first = (seat == seats[0]) == (sign > 0)
            values = action_values(env, seat, first if mine_first else 1.0 - first, record.starting_stacks)
            term = values[action] - float(np.dot(probs, values))
            out[seat] += term
            out[other] -= term
        if reach is not None:
            term = public_action_term(env, seat, board, reach[seat], reach[other], answers, action, record.starting_stacks)
            public_action[seat] += term
            public_action[other] -= term
            reach[seat] *= answers[:, action]
            snapshots.append((len(board), reach.copy()))
        env.step(action)
    replayed = env.hand_record()
    if replayed.events != record.events or tuple(replayed.payoffs) != tuple(record.payoffs):
        raise ConfigError(
            "records", "a hand", "must replay exactly with the same agents and seeds (an agent acted differently)"
        )
    if reach is not None:
        for dealt, cards, contributed in _deals(record):
            before = np.ones((players, NUM_HOLDINGS))
            for length, snap in snapshots:
                if length <= len(dealt):
                    before = snap  # the reaches when the cards came
            pot = float(contributed[seats].sum())
            term = 0.0
            if len(dealt) in (3, 4) and len(cards) == 1:  # the turn or the river
                term = public_chance_term(dealt, cards[0], before[seats[0]], before[seats[1]], pot)
            elif not dealt and len(cards) == 3 and flop_rng is not None:
                term = public_flop_term(cards, before[seats[0]], before[seats[1]], pot, flop_rng)
            public_chance[seats[0]] += term
            public_chance[seats[1]] -= term
    return _Replayed(out, reach, public_chance, public_action)
