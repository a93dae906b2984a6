"""The abstract hold'em game that cfr-lite trains on, played in OUR engine.

A node is an engine :class:`~holdem_env.engine.state.HandState` plus the public *abstract
history*: one character per action (``f`` fold, ``c`` check/call, ``0``.. a pot-fraction
raise, ``a`` all-in), streets separated by ``/``. The engine decides everything about the
rules: which actions are legal (``legal_actions()``), when a street or the hand ends, the
pots and payoffs; chance is the engine's deck, shuffled from a seeded generator. The
abstraction only chooses *which* legal actions to offer (:mod:`holdem_env.agents.cfr_lite.actions`).

An information-set key is ``"<position>:<bucket>:<history>"`` where ``position`` is the
seat's distance clockwise from the button and ``bucket`` its card bucket on the current
street (:mod:`holdem_env.agents.cfr_lite.buckets`), e.g. ``"0:168:c/0"``. With the action
abstraction's ``summarize_preflop``, a key after the flop starts with the preflop summary
instead of the preflop actions (:func:`preflop_summary`), e.g. ``"3:4:3p115b35A/c0"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from holdem_env.engine.cards import shuffled_deck
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, HandOverError
from holdem_env.engine.state import HandState

from .actions import CALL, FOLD, AbstractMove, ActionAbstraction
from .buckets import CardAbstraction

__all__ = ["Node", "AbstractHoldem", "infoset_key", "preflop_summary", "raises_this_street", "apply_move"]


def infoset_key(position: int, bucket: int, history: str) -> str:
    """The information-set key of a seat (see the module docstring)."""
    return f"{position}:{bucket}:{history}"


def raises_this_street(history: str) -> int:
    """How many raises (pot fractions or all-in) the current street of ``history`` holds."""
    seg = history.rsplit("/", 1)[-1]
    return sum(1 for ch in seg if ch not in "fc")


def preflop_summary(players: int, pot: int, bet: int, aggressor: int, seat: int) -> str:
    """What a postflop key keeps of the preflop betting.

    ``players`` saw the flop, with ``pot`` chips in the middle after ``bet`` chips each (the
    largest preflop contribution): with equal starting stacks these fix every stack and so
    the actions a postflop history offers. Then ``A`` when ``seat`` made the last preflop
    raise, ``X`` when another seat did (``aggressor``), ``N`` when nobody raised.

    >>> preflop_summary(3, 115, 35, 2, 2), preflop_summary(3, 115, 35, 2, 4), preflop_summary(2, 20, 10, -1, 0)
    ('3p115b35A', '3p115b35X', '2p20b10N')
    """
    who = "N" if aggressor < 0 else ("A" if aggressor == seat else "X")
    return f"{players}p{pot}b{bet}{who}"


def apply_move(state: HandState, move: AbstractMove) -> None:
    """Play an abstract move in the engine (which re-checks its legality)."""
    if move.kind == "fold":
        state.fold()
    elif move.kind == "check":
        state.check()
    elif move.kind == "call":
        state.call()
    else:
        state.raise_to(move.amount)


@dataclass
class Node:
    """A position in the abstract game: the engine state, the abstract history, cached buckets.

    ``offered`` holds the moves a trainer last asked :meth:`AbstractHoldem.moves` for at this
    node, so that it can play one by its index without asking the engine again.
    ``aggressor`` is the seat that made the last preflop raise (``-1``: none yet);
    ``flop`` is ``(players, pot, bet)`` of :func:`preflop_summary`, set when the flop comes.
    """

    state: HandState
    history: str
    street: int
    buckets: dict[int, list[int]] = field(default_factory=dict)
    offered: list[AbstractMove] = field(default_factory=list)
    aggressor: int = -1
    flop: tuple[int, int, int] = (0, 0, 0)

    def copy(self) -> Node:
        """An independent copy (the engine state is copied; the bucket cache is shared)."""
        st = self.state.copy()
        return Node(st, self.history, self.street, self.buckets, self.offered, self.aggressor, self.flop)


class AbstractHoldem:
    """The abstract game over the engine for a given table and abstraction."""

    def __init__(self, table: TableConfig, actions: ActionAbstraction, cards: CardAbstraction) -> None:
        if not isinstance(table, TableConfig):
            raise ConfigError("table", table, "must be a holdem_env TableConfig")
        if table.betting.value != "no-limit":
            raise ConfigError("table.betting", table.betting.value, "cfr-lite plays no-limit only")
        self.table = table
        self.actions = actions
        self.cards = cards

    def new_hand(self, rng: np.random.Generator, button: int) -> Node:
        """Deal a hand from a deck shuffled by ``rng`` with the button at ``button``."""
        state = HandState(self.table, button=button, deck=shuffled_deck(rng))
        return Node(state, "", int(state.street))

    def moves(self, node: Node) -> list[AbstractMove]:
        """The abstract actions offered to the actor (mapped onto legal engine amounts)."""
        st = node.state
        return self.actions.moves(
            st.legal_actions(),
            pot=int(st.pot),
            current_bet=int(st.current_bet),
            raises_this_street=raises_this_street(node.history),
            preflop=node.street == 0,
        )

    def play(self, node: Node, move: AbstractMove) -> None:
        """Apply ``move`` to ``node`` in place (engine action, then the abstract history)."""
        actor = node.state.actor
        if actor is None:
            raise HandOverError(f"cfr-lite cannot play {move.kind} at history {node.history!r}: the hand is over")
        apply_move(node.state, move)
        self.record(node, move.index, actor)

    def record(self, node: Node, index: int, actor: int) -> None:
        """Append abstract action ``index`` of seat ``actor`` to the history (after the engine acted)."""
        if node.street == 0 and index not in (FOLD, CALL):  # a preflop raise
            node.aggressor = actor
        history = node.history + self.actions.code(index)
        st = node.state
        if not st.is_over:
            street = int(st.street)
            if street != node.street:
                if node.street == 0:
                    players = sum(not f for f, d in zip(st.folded, st.dealt_in, strict=True) if d)
                    node.flop = (players, int(st.pot), max(st.contributions))
                history += "/" * (street - node.street)
                node.street = street
        node.history = history

    def bucket(self, node: Node, seat: int) -> int:
        """Card bucket of ``seat`` on the node's street (computed once per street and hand)."""
        st = node.state
        board: Sequence[int] = st.board
        n = len(board)
        cached = node.buckets.get(n)
        if cached is None:
            holes = list(st.hole_cards)
            cached = self.cards.buckets_for_board(holes, tuple(board))
            node.buckets[n] = cached
        return cached[seat]

    def key(self, node: Node, seat: int, bucket: int | None = None) -> str:
        """Information-set key of ``seat`` at ``node`` (``bucket``: its card bucket, when known).

        With ``summarize_preflop`` the preflop actions of a postflop history are replaced by
        :func:`preflop_summary`.
        """
        st = node.state
        pos = (seat - int(st.button)) % self.table.num_players
        history = node.history
        if self.actions.summarize_preflop and node.street > 0:
            history = preflop_summary(*node.flop, node.aggressor, seat) + history[history.index("/") :]
        return infoset_key(pos, self.bucket(node, seat) if bucket is None else bucket, history)
