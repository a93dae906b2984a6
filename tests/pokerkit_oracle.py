"""A driver that replays one of our hands in PokerKit 0.7.7 (the differential-test oracle).

The oracle is given what our engine decided before any action (seats, button, stacks,
forced bets, hole cards, burns and board) and then the actions one at a time. It maps
our seats onto PokerKit's player indices, deals exactly our cards, answers "what is
legal now" in our terms and, at the end, returns the final stacks per seat.

Seat mapping. PokerKit numbers players from the small blind: index ``i`` is our seat
``(button + 1 + i) % n``, so the button is PokerKit's last player. Heads-up this still
holds: PokerKit reverses the blinds for two players (index 1, the button, posts the
small blind and acts first preflop; index 0 posts the big blind), which is docs/RULES.md.

Only what a test needs is here; the engine never imports this module.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

from pokerkit import Automation, Mode, NoLimitTexasHoldem, State

from holdem_env.engine.actions import LegalActions
from holdem_env.engine.cards import card_str

__all__ = [
    "OracleSetup",
    "PokerKitRefusedError",
    "PokerKitHand",
    "pk_index",
    "seat_of",
    "replay_actions",
]

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def pk_index(seat: int, button: int, num_players: int) -> int:
    """PokerKit's player index of our ``seat`` (0 = small blind, last = button)."""
    return (seat - button - 1) % num_players


def seat_of(index: int, button: int, num_players: int) -> int:
    """Our seat of PokerKit's player ``index`` (inverse of :func:`pk_index`)."""
    return (button + 1 + index) % num_players


class PokerKitRefusedError(Exception):
    """PokerKit refused an action that our engine allowed (the message carries PokerKit's reason)."""

    def __init__(self, seat: int, action: str, reason: str) -> None:
        super().__init__(f"PokerKit refused seat {seat} {action}: {reason}")
        self.seat, self.action, self.reason = seat, action, reason


@dataclass(frozen=True)
class OracleSetup:
    """Everything fixed before the first action, all per OUR seat.

    ``hole_cards[seat]`` is a pair of card ids; ``board`` the five board cards in dealing
    order (fewer is allowed when the hand may end early); ``burns`` the burnt cards in
    order (may be empty: PokerKit then burns an unknown card, which changes nothing).
    ``ante`` is posted before the blinds by every seat, or only by the big blind when
    ``big_blind_ante`` (then it is dead money in the main pot, as in our engine).
    """

    button: int
    starting_stacks: tuple[int, ...]
    small_blind: int
    big_blind: int
    ante: int
    hole_cards: tuple[tuple[int, int], ...]
    board: tuple[int, ...]
    burns: tuple[int, ...] = ()
    big_blind_ante: bool = False

    @property
    def num_players(self) -> int:
        """Number of seats (all of them dealt in)."""
        return len(self.starting_stacks)


@dataclass
class PokerKitHand:
    """One hand played in PokerKit, driven seat by seat in our terms."""

    setup: OracleSetup
    state: State = field(init=False)
    _board_pos: int = field(default=0, init=False)
    _burn_pos: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        s = self.setup
        n = s.num_players
        stacks = tuple(s.starting_stacks[seat_of(i, s.button, n)] for i in range(n))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            self.state = NoLimitTexasHoldem.create_state(
                _AUTOMATIONS,
                # Uniform antes are trimmed like bets, so they are ordinary contributions in the
                # pots; a big-blind ante is not trimmed and goes to the main pot as dead money.
                not s.big_blind_ante,
                # Index 1 is the big blind (heads-up PokerKit swaps antes as it swaps blinds).
                {1: s.ante} if s.big_blind_ante else s.ante,
                (s.small_blind, s.big_blind),
                s.big_blind,
                stacks,
                n,
                mode=Mode.TOURNAMENT,
            )
            for i in range(n):
                self.state.deal_hole("".join(card_str(c) for c in s.hole_cards[seat_of(i, s.button, n)]))
        self._advance()

    # -- seats -----------------------------------------------------------------------------

    def _seat(self, index: int) -> int:
        return seat_of(index, self.setup.button, self.setup.num_players)

    @property
    def actor(self) -> int | None:
        """Our seat of the player PokerKit expects to act, or ``None``."""
        idx = self.state.actor_index
        return None if idx is None else self._seat(idx)

    @property
    def is_over(self) -> bool:
        """Whether PokerKit considers the hand finished (chips pulled)."""
        return not self.state.status

    # -- legality --------------------------------------------------------------------------

    def legal(self) -> LegalActions:
        """What PokerKit lets the current actor do, in our vocabulary (the values all PokerKit's)."""
        st = self.state
        idx = st.actor_index
        if idx is None:
            raise PokerKitRefusedError(-1, "legal()", "PokerKit has nobody to act")
        owed = st.checking_or_calling_amount
        can_raise = st.can_complete_bet_or_raise_to()
        return LegalActions(
            seat=self._seat(idx),
            fold=st.can_fold(),
            check=owed == 0,
            call=owed or 0,
            min_raise_to=st.min_completion_betting_or_raising_to_amount if can_raise else None,
            max_raise_to=st.max_completion_betting_or_raising_to_amount if can_raise else None,
        )

    def allows_raise_to(self, amount: int) -> bool:
        """Whether PokerKit would accept a bet/raise to ``amount`` (street total) now."""
        return bool(self.state.can_complete_bet_or_raise_to(amount))

    # -- actions ---------------------------------------------------------------------------

    def act(self, seat: int, kind: str, to: int = 0) -> None:
        """Apply our action ``kind`` ("fold", "check", "call", "bet", "raise"; ``to`` = street total).

        Raises :class:`PokerKitRefusedError` if PokerKit disagrees on whose turn it is or on legality.
        """
        st = self.state
        label = f"{kind}" + (f" to {to}" if kind in ("bet", "raise") else "")
        if self.actor != seat:
            raise PokerKitRefusedError(seat, label, f"PokerKit expects seat {self.actor} to act")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                if kind == "fold":
                    st.fold()
                elif kind == "check":
                    if st.checking_or_calling_amount != 0:
                        raise ValueError(f"cannot check: {st.checking_or_calling_amount} owed")
                    st.check_or_call()
                elif kind == "call":
                    if not st.checking_or_calling_amount:
                        raise ValueError("nothing to call")
                    st.check_or_call()
                elif kind in ("bet", "raise"):
                    st.complete_bet_or_raise_to(to)
                else:
                    raise ValueError(f"unknown action kind {kind!r}")
        except (ValueError, UserWarning) as exc:
            raise PokerKitRefusedError(seat, label, str(exc)) from None
        self._advance()

    def _advance(self) -> None:
        """Deal burns and board cards when PokerKit wants them, and show every hand at showdown."""
        st = self.state
        s = self.setup
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            while st.status:
                if st.card_burning_status:
                    burn = card_str(s.burns[self._burn_pos]) if self._burn_pos < len(s.burns) else "??"
                    self._burn_pos += 1
                    st.burn_card(burn)
                elif st.can_deal_board():
                    count = st.board_dealing_count or 0
                    cards = s.board[self._board_pos : self._board_pos + count]
                    if len(cards) != count:
                        raise PokerKitRefusedError(-1, "deal board", f"needs {count} more board cards, setup has {len(cards)}")
                    self._board_pos += count
                    st.deal_board("".join(card_str(c) for c in cards))
                elif st.showdown_index is not None:
                    st.show_or_muck_hole_cards(True)
                else:
                    break

    # -- result ----------------------------------------------------------------------------

    def final_stacks(self) -> tuple[int, ...]:
        """Stacks per our seat once the hand is over."""
        if not self.is_over:
            raise PokerKitRefusedError(-1, "final_stacks()", f"hand not over (actor {self.actor})")
        n = self.setup.num_players
        out = [0] * n
        for i in range(n):
            out[self._seat(i)] = int(self.state.stacks[i])
        return tuple(out)


def replay_actions(setup: OracleSetup, actions: Sequence[tuple[int, str, int]]) -> tuple[int, ...]:
    """Play ``actions`` (seat, kind, street-total) in PokerKit and return the final stacks per seat."""
    hand = PokerKitHand(setup)
    for seat, kind, to in actions:
        hand.act(seat, kind, to)
    return hand.final_stacks()

