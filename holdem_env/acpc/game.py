"""The bridge between ACPC games and the engine: table mapping, stacked decks, ACPC hands on a HandState.

An ACPC position is an engine seat (position ``k`` = seat ``k``) and the button is seat
``n - 1``, which is where both put it: the reference's heads-up "reverse blinds" game
(``blind = 100 50``, ``firstPlayer = 2 1 1 1``) has the button post the small blind and act
first before the flop, as docs/RULES.md does; with 3+ players ``blind = SB BB 0 ...`` and
``firstPlayer = 3 1 1 1``. Definitions the engine cannot play the same way (other decks,
rounds, blind layouts or first players) are refused with an :class:`ACPCError` that says
what is supported. Rule differences that remain (docs/acpc.md): our no-limit minimum raise
after a short all-in is the last *full* increment and a short all-in does not reopen the
betting (the reference lets a raise-to ``2*X - previous bet`` through and always reopens); a
split pot's odd chip goes to the first winner left of the button (the reference logs halves).
Both differences only make the engine stricter, so every hand it deals is valid ACPC.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from holdem_env.acpc.protocol import ACPCError, GameDef, MatchState, format_action, format_value
from holdem_env.engine.actions import Action
from holdem_env.engine.cards import card_id, card_str
from holdem_env.engine.config import BettingStructure, TableConfig
from holdem_env.engine.errors import HoldemError
from holdem_env.engine.state import HandState

__all__ = ["table_for", "deck_for", "AcpcHand", "replay_matchstate"]

_BOARD_SLOTS = (1, 2, 3, 5, 7)  # flop, turn, river offsets after the 2n hole cards (burns between)


def _limit_buy_in(game: GameDef, bb: int) -> int:
    """Chips enough that nobody is ever all-in in a limit game (the reference's stacks are unbounded)."""
    bound = max(game.blind) + sum(s * (min(m, 64) + 1) for s, m in zip(game.raise_size, game.max_raises, strict=True))
    return max(bound, 200 * bb)


def table_for(game: GameDef) -> tuple[TableConfig, tuple[int, ...]]:
    """The engine table of an ACPC game and the starting stack of each position."""
    n = game.num_players
    if (game.num_rounds, game.num_suits, game.num_ranks, game.num_hole_cards) != (4, 4, 13, 2) or tuple(
        game.num_board_cards
    ) != (0, 3, 1, 1):
        raise ACPCError(
            "game definition: only Texas Hold'em is supported: numRounds 4, numSuits 4, numRanks 13, "
            "numHoleCards 2, numBoardCards 0 3 1 1"
        )
    if n == 2:
        bb, sb = game.blind
        want_blind: tuple[int, ...] = (bb, sb)
        want_first = (1, 0, 0, 0)
    else:
        sb, bb = game.blind[0], game.blind[1]
        want_blind, want_first = (sb, bb) + (0,) * (n - 2), (2 % n, 0, 0, 0)
    if tuple(game.blind) != want_blind or bb < 1 or sb > bb:
        layout = "'blind = BB SB' (the button posts the small blind)" if n == 2 else "'blind = SB BB 0 ...'"
        raise ACPCError(f"game definition: blind {' '.join(map(str, game.blind))} is not supported: use {layout}")
    if tuple(game.first_player) != want_first:
        raise ACPCError(
            "game definition: firstPlayer " + " ".join(str(p + 1) for p in game.first_player)
            + " is not supported: use " + " ".join(str(p + 1) for p in want_first)
        )
    if game.no_limit:
        if any(m != 255 for m in game.max_raises):
            raise ACPCError("game definition: maxRaises is not supported in no-limit (no raise cap)")
        if any(s >= 2**31 - 1 for s in game.stack):
            raise ACPCError("game definition: a no-limit game needs 'stack = ...' for every player")
        stacks = tuple(game.stack)
        return TableConfig(num_players=n, small_blind=sb, big_blind=bb, buy_in=max(stacks)), stacks
    if tuple(game.raise_size) != (bb, bb, 2 * bb, 2 * bb):
        raise ACPCError(f"game definition: raiseSize must be {bb} {bb} {2 * bb} {2 * bb} (small bet = big blind)")
    mr = tuple(game.max_raises)
    if all(m == 255 for m in mr):
        cap: int | None = None
    elif mr[1:] == (mr[1],) * 3 and mr[0] == mr[1] - 1 and mr[1] >= 2:
        cap = mr[1]
    else:
        raise ACPCError("game definition: maxRaises must be 'C-1 C C C' (a cap of C bets a round, blinds included)")
    if any(s < 2**31 - 1 for s in game.stack):
        stacks = tuple(game.stack)
    else:
        stacks = (_limit_buy_in(game, bb),) * n
    table = TableConfig(
        num_players=n, small_blind=sb, big_blind=bb, buy_in=max(stacks), betting=BettingStructure.FIXED_LIMIT,
        raise_cap=cap,
    )
    return table, stacks


def deck_for(n: int, hole: Sequence[Sequence[str]], board: Sequence[str]) -> tuple[int, ...]:
    """A 52-card order that deals ``hole[p]`` to seat ``p`` and ``board`` as flop/turn/river; the rest filled."""
    slots: list[int | None] = [None] * 52
    for seat, cards in enumerate(hole):
        for r, c in enumerate(cards):
            slots[r * n + seat] = card_id(c)
    for off, c in zip(_BOARD_SLOTS, board, strict=False):
        slots[2 * n + off] = card_id(c)
    used = {c for c in slots if c is not None}
    if len(used) != sum(c is not None for c in slots):
        raise ACPCError("cards: the same card appears twice")
    filler = iter(c for c in range(52) if c not in used)
    return tuple(c if c is not None else next(filler) for c in slots)


class AcpcHand:
    """One hand on the engine, with its ACPC betting string kept as actions happen."""

    def __init__(self, game: GameDef, table: TableConfig, stacks: Sequence[int], deck: Sequence[int], number: int) -> None:
        self.game = game
        self.number = number
        self.n = game.num_players
        self.hand = HandState(table, button=self.n - 1, stacks=list(stacks), deck=list(deck))
        self.rounds: list[list[str]] = [[]]

    @property
    def actor(self) -> int | None:
        return None if self.hand.is_over else self.hand.actor

    def _record(self, seat: int, street: int, kind: str, size: int) -> None:
        while len(self.rounds) <= street:
            self.rounds.append([])
        self.rounds[street].append(format_action(kind, size, self.game.no_limit))

    def apply(self, kind: str, size: int) -> None:
        """Play an ACPC action for the actor; raises :class:`ACPCError` (state unchanged) when illegal here."""
        hand = self.hand
        seat = hand.actor
        if seat is None:
            raise ACPCError("the hand is over: no action is expected")
        street = int(hand.street)
        legal = hand.legal_actions()
        try:
            action = self._engine_action(kind, size, seat, legal)
            hand.act(action)
        except HoldemError as exc:
            raise ACPCError(f"action {format_action(kind, size, self.game.no_limit)!r} is not legal here: {exc}") from None
        self._record(seat, street, kind, hand.contributions[seat] if kind == "r" else 0)

    def _engine_action(self, kind: str, size: int, seat: int, legal: Any) -> Action:
        hand = self.hand
        if kind == "f":
            action = Action.fold()
        elif kind == "c":
            action = Action.check() if legal.check else Action.call()
        elif self.game.no_limit:
            before = hand.contributions[seat] - hand.street_bet_of(seat)
            action = Action.raise_to(size - before)
        else:
            if legal.min_raise_to is None:
                raise ACPCError("a raise is not allowed here (the cap is reached or nobody can respond)")
            action = Action.raise_to(legal.min_raise_to)
        return action

    def timeout(self) -> str:
        """The rules' timeout action (check if free, else fold); returns it as ACPC text."""
        seat = self.hand.actor
        assert seat is not None
        street = int(self.hand.street)
        event = self.hand.timeout()
        kind = "f" if event.kind.value == "fold" else "c"
        self._record(seat, street, kind, 0)
        return kind

    @property
    def round(self) -> int:
        """The ACPC round reached: the last round whose board is out (a finished all-in shows all four)."""
        return {0: 0, 3: 1, 4: 2, 5: 3}[len(self.hand.board)]

    def betting(self) -> str:
        rounds = self.rounds + [[]] * (self.round + 1 - len(self.rounds))
        return "/".join("".join(r) for r in rounds[: self.round + 1])

    def _board(self) -> str:
        board = [card_str(c) for c in self.hand.board]
        parts = ["".join(board[:3]), "".join(board[3:4]), "".join(board[4:5])][: self.round]
        return "".join("/" + p for p in parts)

    def _hole(self, seat: int) -> str:
        cards = self.hand.hole_cards[seat]
        return "".join(card_str(c) for c in cards) if cards else ""

    def _showdown(self) -> bool:
        return self.hand.is_over and sum(not f for f in self.hand.folded) > 1

    def matchstate(self, position: int) -> str:
        """What ``position`` is told: its own cards, others' only at a showdown (and not folded)."""
        show = self._showdown()
        holes = [
            self._hole(p) if p == position or (show and not self.hand.folded[p]) else "" for p in range(self.n)
        ]
        return f"MATCHSTATE:{position}:{self.number}:{self.betting()}:{'|'.join(holes)}{self._board()}"

    def state_line(self, names: Sequence[str]) -> str:
        """The reference's log line: every hole card, the board reached, payoffs and names by position."""
        payoffs = self.hand.payoffs
        assert payoffs is not None, "the hand is over"
        holes = "|".join(self._hole(p) for p in range(self.n))
        values = "|".join(format_value(v) for v in payoffs)
        return f"STATE:{self.number}:{self.betting()}:{holes}{self._board()}:{values}:{'|'.join(names)}"


def replay_matchstate(game: GameDef, table: TableConfig, stacks: Sequence[int], state: MatchState) -> AcpcHand:
    """An engine hand that reached ``state``: known cards dealt, unknown ones filled, the betting replayed.

    Raises :class:`ACPCError` when an action in it is not legal under docs/RULES.md.
    """
    board = [c for r in state.board for c in r]
    deck = deck_for(game.num_players, state.hole, board)
    acpc = AcpcHand(game, table, stacks, deck, state.hand)
    for street, actions in enumerate(state.betting):
        for kind, size in actions:
            if acpc.hand.is_over:
                raise ACPCError(f"betting {state.betting!r}: action after the end of the hand")
            if int(acpc.hand.street) != street:
                raise ACPCError(f"betting: round {street} has an action while the engine is in round {int(acpc.hand.street)}")
            acpc.apply(kind, size)
    return acpc
