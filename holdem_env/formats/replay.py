"""Replay a PHH hand through the engine: seats, stacked deck, actions, finishing stacks.

The mapping from PHH to the engine: player ``pK`` sits in engine seat ``K - 1`` and the
button is seat ``n - 1`` (``pn``), so seat 0 is the small blind (heads-up: the big blind,
the button posting the small blind), exactly as PHH and PokerKit seat players. PHH has no
burn cards, so :func:`deck_order` builds a 52-card order consistent with the engine's
dealing (one card at a time from seat 0, burns before flop, turn and river) holding every
known card where the engine will deal it; unknown (``??``) and unused positions are filled
with the lowest unused cards, deterministically, except the unknown hole cards of a player
who mucks at showdown: those get the weakest hand left, so that the engine mucks that player
too and the result does not depend on the unseen cards. Then every action is applied through the
engine's own legality checks; the engine runs the board out and decides the showdown,
and shown cards are compared with the cards dealt.

>>> from holdem_env.formats.phh import loads
>>> hand = loads('''
... actions = ["d dh p1 AsKs", "d dh p2 ????", "p2 cbr 6", "p1 f"]
... starting_stacks = [100, 100]
... min_bet = 2
... blinds_or_straddles = [1, 2]
... antes = [0, 0]
... variant = "NT"
... ''')
>>> replay(hand).finishing_stacks
(98, 102)
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from holdem_env.engine.cards import DECK_SIZE, card_str
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import HoldemError, PHHError
from holdem_env.engine.evaluator import hand_strength
from holdem_env.engine.state import HandState
from holdem_env.formats.phh import PHHAction, PHHActionError, PHHHand

__all__ = ["ReplayResult", "table_config", "seat_antes", "deck_order", "replay"]

_STREET_NAMES = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of replaying one PHH hand.

    ``finishing_stacks`` are integer chips in ``p1 .. pn`` order (engine seat order);
    ``unknown`` lists why the result depends on cards the file does not give (empty when
    the result is fully determined by the file). ``repairs`` lists the missing actions
    that were filled in and ``notes`` the no-op checks that were accepted (see :func:`replay`).
    """

    hand: PHHHand
    state: HandState
    finishing_stacks: tuple[int, ...]
    unknown: tuple[str, ...]
    repairs: tuple[str, ...] = ()
    #: Deck positions holding cards the file names (the rest were filled in by :func:`deck_order`).
    known_positions: frozenset[int] = frozenset()
    #: Accepted no-op checks: a check by the last player with chips while everyone else is all-in.
    notes: tuple[str, ...] = ()

    def hole_cards_known(self, player: int) -> tuple[bool, bool]:
        """Whether each hole card of ``player`` (0-based) comes from the file."""
        n = self.hand.num_players
        return (player in self.known_positions, n + player in self.known_positions)

    @property
    def finishing_stacks_units(self) -> tuple[int | Decimal, ...]:
        """The finishing stacks in the file's units."""
        return tuple(self.hand.to_units(s) for s in self.finishing_stacks)

    def differences(self) -> tuple[Decimal, ...] | None:
        """Ours minus the file's ``finishing_stacks`` per player, in file units (None if absent)."""
        recorded = self.hand.finishing_stacks
        if recorded is None:
            return None
        return tuple(Decimal(ours) - theirs for ours, theirs in zip(self.finishing_stacks_units, recorded, strict=False))

    def matches(self) -> bool | None:
        """Whether every stack is within half a chip (in the file's smallest unit) of the file's.

        The tolerance absorbs logs that split odd chips fractionally (the Pluribus logs) while
        the engine awards whole chips by the rules. ``None`` when the file records no stacks.
        """
        diffs = self.differences()
        if diffs is None:
            return None
        tolerance = Decimal(1) / (2 * self.hand.scale)
        return all(abs(d) <= tolerance for d in diffs)


def table_config(hand: PHHHand) -> TableConfig:
    """The engine table for a PHH hand (blinds, betting structure; antes go per seat)."""
    try:
        return TableConfig(
            num_players=hand.num_players,
            small_blind=hand.small_blind,
            big_blind=hand.big_blind,
            buy_in=max(hand.starting_stacks),
            betting=hand.betting,
            # Records say what happened: a (dominated) fold when checking is free replays.
            allow_free_fold=True,
        )
    except HoldemError as exc:
        raise PHHError(f"the hand's table is not supported: {exc}") from None


def seat_antes(hand: PHHHand) -> tuple[int, ...]:
    """The ante each engine seat posts (the engine's ``antes=`` override)."""
    return hand.player_antes()


def _known_cards(hand: PHHHand) -> tuple[list[list[int | None]], list[int | None], dict[int, int]]:
    """Hole cards per player and the board from the actions; card -> first action index."""
    n = hand.num_players
    holes: list[list[int | None]] = [[None, None] for _ in range(n)]
    dealt: set[int] = set()
    board: list[int | None] = []
    first_seen: dict[int, int] = {}

    def claim(action: PHHAction, card: int | None) -> None:
        if card is None:
            return
        if card in first_seen:
            raise PHHActionError(
                action.index, action.text, f"card {card_str(card)} was already dealt (action {first_seen[card]})"
            )
        first_seen[card] = action.index

    for action in hand.actions:
        if action.kind == "dh":
            assert action.player is not None
            if action.player in dealt:
                raise PHHActionError(action.index, action.text, f"p{action.player + 1} was already dealt hole cards")
            dealt.add(action.player)
            for card in action.cards:
                claim(action, card)
            holes[action.player] = list(action.cards)
        elif action.kind == "db":
            if len(board) + len(action.cards) > 5:
                raise PHHActionError(action.index, action.text, f"the board would hold {len(board) + len(action.cards)} cards; at most 5")
            for card in action.cards:
                claim(action, card)
            board.extend(action.cards)
    # Shown cards reveal hole cards dealt face down (``????``).
    for action in hand.actions:
        if action.kind == "sm" and action.cards:
            assert action.player is not None
            hole = holes[action.player]
            for i, card in enumerate(action.cards):
                if hole[i] is None and card is not None:
                    claim(action, card)
                    hole[i] = card
    return holes, board, first_seen


def deck_order(hand: PHHHand) -> tuple[tuple[int, ...], frozenset[int]]:
    """A full deck order for the engine and the set of deck positions that are known cards.

    Positions: hole card ``r`` of seat ``s`` at ``r * n + s``; burn at ``2n``; flop
    ``2n+1..2n+3``; burn; turn ``2n+5``; burn; river ``2n+7``. Every other position holds
    the lowest card not named in the file, in ascending order.
    """
    n = hand.num_players
    holes, board, _ = _known_cards(hand)
    positions: list[int | None] = [None] * DECK_SIZE
    for s in range(n):
        for r in range(2):
            positions[r * n + s] = holes[s][r]
    board_positions = [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7]
    for pos, card in zip(board_positions, board, strict=False):
        positions[pos] = card
    known = frozenset(i for i, c in enumerate(positions) if c is not None)
    used = {c for c in positions if c is not None}
    if len(board) == 5 and None not in board:
        for s in _mucked_unknown(hand, holes):
            pair = _weakest_pair(board, used)  # type: ignore[arg-type]
            positions[s], positions[n + s] = pair
            used.update(pair)
    fillers = iter(c for c in range(DECK_SIZE) if c not in used)
    deck = tuple(c if c is not None else next(fillers) for c in positions)
    return deck, known


def _mucked_unknown(hand: PHHHand, holes: list[list[int | None]]) -> list[int]:
    """Players who muck at showdown (``sm`` without cards) and whose hole cards the file does not give."""
    mucked = {a.player for a in hand.actions if a.kind == "sm" and not a.shows and not any(a.cards)}
    return sorted(s for s in mucked if s is not None and holes[s] == [None, None])


def _weakest_pair(board: list[int], used: set[int]) -> tuple[int, int]:
    """The two unused cards that make the weakest hand with ``board``.

    A player who mucked at showdown won nothing (RULES.md: a hand is mucked only if it
    wins nothing and is worse than the best hand shown before it). The weakest hand left is
    never stronger than the real one, so with it the engine mucks that player as well and
    awards every pot as it was: the result does not depend on the unseen cards.
    """
    free = [c for c in range(DECK_SIZE) if c not in used]
    best: tuple[int, int, int] | None = None
    for i, a in enumerate(free):
        for b in free[i + 1 :]:
            value = hand_strength([a, b, *board])
            if best is None or value < best[0]:
                best = (value, a, b)
    assert best is not None, "fewer than two cards left for a mucked hand"
    return best[1], best[2]


def _street_name(state: HandState) -> str:
    street = int(state.street)
    return _STREET_NAMES[street] if street < len(_STREET_NAMES) else "showdown"


def replay(hand: PHHHand, *, repair: bool = True) -> ReplayResult:
    """Replay ``hand`` through the engine and return the finishing stacks.

    Some published files leave out actions (the WSOP sample omits a preflop fold).
    With ``repair`` (the default, as PokerKit's reader does) a player action that comes
    before its turn fills in each skipped player's action with check-if-free-else-fold,
    within the same betting round only, and lists it in ``ReplayResult.repairs``;
    ``repair=False`` refuses such files.

    Hand histories PokerKit writes sometimes give the last player with chips a check after
    everyone else still in the hand is all-in (typically right after a fold leaves them
    alone with chips): a decision our engine rightly skips, since nobody can bet against
    anybody any more (docs/RULES.md, "End of the hand"). With ``repair`` such a check is
    accepted as a no-op and listed in ``ReplayResult.notes``; ``repair=False`` refuses it.

    Raises :class:`~holdem_env.formats.phh.PHHActionError` (a :class:`PHHError`) naming the
    action index when an action is out of turn or illegal by the rules, a shown hand
    differs from the cards dealt, or the board is dealt at the wrong time; and
    :class:`PHHError` when the actions end before the hand is over.
    """
    n = hand.num_players
    config = table_config(hand)
    deck, known = deck_order(hand)
    try:
        state = HandState(
            config, button=n - 1, stacks=list(hand.starting_stacks), deck=deck, antes=list(seat_antes(hand))
        )
    except HoldemError as exc:
        raise PHHError(f"cannot start the hand: {exc}") from None

    board_in_file = 0
    repairs: list[str] = []
    notes: list[str] = []
    for action in hand.actions:
        if action.kind == "dh":
            continue
        if action.kind == "db":
            board_in_file += len(action.cards)
            engine_board = tuple(state.board)
            if len(engine_board) < board_in_file:
                if state.is_over:
                    raise PHHActionError(action.index, action.text, "board card dealt after the hand is over")
                raise PHHActionError(
                    action.index, action.text,
                    f"board card dealt before the {_street_name(state)} betting is over ({_to_act(state)} is to act)",
                )
            expected = engine_board[board_in_file - len(action.cards) : board_in_file]
            for got, want in zip(action.cards, expected, strict=True):
                assert got is None or got == want, "deck_order put the file's board where the engine deals it"
            continue
        seat = action.player
        assert seat is not None
        if action.kind == "sm":
            _check_show(state, action)
            continue
        if state.is_over:
            if action.kind == "cc" and _is_no_op_check(state, seat):
                why = f"p{seat + 1} checks while everyone else still in the hand is all-in (a decision the engine skips)"
                if not repair:
                    raise PHHActionError(action.index, action.text, f"the hand is already over: {why}")
                notes.append(f"action {action.index} {action.text!r}: accepted as a no-op: {why}")
                continue
            raise PHHActionError(action.index, action.text, "the hand is already over")
        if len(state.board) != board_in_file:
            raise PHHActionError(
                action.index, action.text,
                f"the engine has dealt {len(state.board)} board cards but the file only {board_in_file}: "
                f"a 'd db' action is missing before this action",
            )
        if state.actor != seat:
            _fill_missing(state, action, seat, repair, repairs)
        try:
            if action.kind == "f":
                state.fold()
            elif action.kind == "cc":
                if state.can_check():
                    state.check()
                else:
                    state.call()
            else:
                assert action.amount is not None
                state.raise_to(action.amount)
        except HoldemError as exc:
            raise PHHActionError(action.index, action.text, str(exc)) from None

    if not state.is_over:
        raise PHHError(
            f"the actions end before the hand is over: {_to_act(state)} is to act on the {_street_name(state)}"
        )
    final_stacks = state.final_stacks
    assert final_stacks is not None, "an ended hand has final stacks"
    final = tuple(int(s) for s in final_stacks)
    return ReplayResult(
        hand, state, final, _unknown_reasons(hand, state, known), tuple(repairs), known, tuple(notes)
    )


def _to_act(state: HandState) -> str:
    """``p<K>`` of the seat to act (PHH numbering), for messages."""
    return "nobody" if state.actor is None else f"p{state.actor + 1}"


def _is_no_op_check(state: HandState, seat: int) -> bool:
    """Whether a check by ``seat`` after the hand ended changes nothing: ``seat`` is still in the
    hand with chips behind and every other player still in it is all-in."""
    behind = [start - put_in for start, put_in in zip(state.starting_stacks, state.contributions, strict=True)]
    contenders = [s for s in range(len(behind)) if not state.folded[s]]
    if seat not in contenders or len(contenders) < 2 or behind[seat] <= 0:
        return False
    return all(behind[s] == 0 for s in contenders if s != seat)


def _fill_missing(state: HandState, action: PHHAction, seat: int, repair: bool, repairs: list[str]) -> None:
    """Make ``seat`` the actor by filling in skipped actions (check if free, else fold)."""
    assert state.actor is not None
    out_of_turn = f"it is p{state.actor + 1}'s turn to act on the {_street_name(state)}, not p{seat + 1}"
    if not repair or state.folded[seat] or state.stacks[seat] == 0:
        if state.folded[seat]:
            out_of_turn += f" (p{seat + 1} has folded)"
        elif state.stacks[seat] == 0:
            out_of_turn += f" (p{seat + 1} is all-in)"
        raise PHHActionError(action.index, action.text, out_of_turn)
    board = len(state.board)
    filled: list[str] = []
    while state.actor is not None and state.actor != seat:
        actor = state.actor
        if state.can_check():
            state.check()
            filled.append(f"p{actor + 1} checks")
        else:
            state.fold()
            filled.append(f"p{actor + 1} folds")
        if state.is_over or len(state.board) != board:
            raise PHHActionError(
                action.index, action.text,
                f"{out_of_turn} (filling in the skipped actions would end the betting round)",
            )
    repairs.append(f"before action {action.index} {action.text!r}: filled in {', '.join(filled)}")


def _check_show(state: HandState, action: PHHAction) -> None:
    seat = action.player
    assert seat is not None
    if not state.is_over:
        who = f"p{state.actor + 1} is still to act" if state.actor is not None else "betting is not over"
        raise PHHActionError(action.index, action.text, f"show/muck before the showdown ({who})")
    if state.folded[seat]:
        raise PHHActionError(action.index, action.text, f"p{seat + 1} folded and has no hand to show")
    if action.cards:
        hole = state.hole_cards[seat]
        assert hole is not None
        for got, had in zip(action.cards, hole, strict=False):
            if got is not None and got != had:
                shown = "".join("??" if c is None else card_str(c) for c in action.cards)
                raise PHHActionError(
                    action.index, action.text,
                    f"p{seat + 1} shows {shown} but was dealt {card_str(hole[0])}{card_str(hole[1])}",
                )


def _unknown_reasons(hand: PHHHand, state: HandState, known: frozenset[int]) -> tuple[str, ...]:
    n = hand.num_players
    contenders = [s for s in range(n) if not state.folded[s]]
    if len(contenders) < 2:
        return ()
    mucked = set(state.mucked)
    file_mucked = {a.player for a in hand.actions if a.kind == "sm" and not a.shows and not any(a.cards)}
    reasons = []
    for s in contenders:
        if s in mucked and s in file_mucked:
            continue  # mucked here as in the file: it won nothing, whatever its cards
        if s not in known or (n + s) not in known:
            reasons.append(f"p{s + 1}'s hole cards are unknown")
    board_positions = [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7][: len(state.board)]
    missing = sum(1 for pos in board_positions if pos not in known)
    if missing:
        reasons.append(f"{missing} board card(s) are not in the file")
    return tuple(reasons)

