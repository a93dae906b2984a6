"""Kuhn poker: three cards, one bet; the smallest poker game with a known equilibrium.

Rules: a deck of J, Q, K; each player antes 1 and gets one card. Player 0 passes or
bets 1; facing a bet a player folds (``p``) or calls (``b``). Showdown: higher card wins.

Information sets are named by the player's card and the action history, e.g. ``Qpb``
(player 0 holds Q, passed, player 1 bet). Actions: 0 = ``p`` (pass/check/fold),
1 = ``b`` (bet/call), so policies list probabilities in the order ``[p, b]``.
The first player's equilibrium value is −1/18.
"""

from __future__ import annotations

from collections.abc import Sequence

from holdem_env.training.cfr.game import CHANCE, ExtensiveFormGame, GameError

__all__ = ["KuhnPoker", "KUHN_GAME_VALUE", "CARD_NAMES", "PASS", "BET"]

#: Equilibrium value for player 0.
KUHN_GAME_VALUE = -1.0 / 18.0
CARD_NAMES = ("J", "Q", "K")
PASS = 0
BET = 1
_TERMINAL_HISTORIES = frozenset({"pp", "bp", "bb", "pbp", "pbb"})

KuhnState = tuple[tuple[int, ...], str]


class KuhnPoker(ExtensiveFormGame[KuhnState]):
    """Two-player Kuhn poker; a state is ``(dealt cards, history in p/b)``."""

    name = "kuhn"
    num_players = 2
    num_actions = 2
    action_names = ("p", "b")

    def initial_state(self) -> KuhnState:
        """No cards dealt, empty history."""
        return ((), "")

    def is_terminal(self, state: KuhnState) -> bool:
        """Over after pass-pass, a fold, or a call."""
        return state[1] in _TERMINAL_HISTORIES

    def current_player(self, state: KuhnState) -> int:
        """Chance while cards are missing, then players alternate starting with 0."""
        cards, history = state
        if len(cards) < 2:
            return CHANCE
        return len(history) % 2

    def chance_outcomes(self, state: KuhnState) -> Sequence[tuple[int, float]]:
        """Each card not yet dealt, equally likely."""
        cards = state[0]
        rest = [c for c in range(3) if c not in cards]
        return [(c, 1.0 / len(rest)) for c in rest]

    def legal_actions(self, state: KuhnState) -> Sequence[int]:
        """Always pass and bet."""
        return (PASS, BET)

    def apply(self, state: KuhnState, action: int) -> KuhnState:
        """Deal ``action`` as a card at chance nodes, else append ``p``/``b``."""
        cards, history = state
        if len(cards) < 2:
            if action in cards or not 0 <= action < 3:
                raise GameError(f"card {action} cannot be dealt: dealt {cards}, allowed 0..2 not dealt")
            return (cards + (action,), history)
        if action not in (PASS, BET) or history in _TERMINAL_HISTORIES:
            raise GameError(f"action {action} is illegal at history {history!r}: allowed 0 (p) or 1 (b)")
        return (cards, history + self.action_names[action])

    def infoset_key(self, state: KuhnState) -> str:
        """Card of the player to act followed by the history, e.g. ``Kpb``."""
        cards, history = state
        return CARD_NAMES[cards[len(history) % 2]] + history

    def utility(self, state: KuhnState, player: int) -> float:
        """Chips won by ``player``."""
        cards, history = state
        if history == "bp":
            u0 = 1.0
        elif history == "pbp":
            u0 = -1.0
        else:
            stake = 2.0 if history.endswith("bb") else 1.0
            u0 = stake if cards[0] > cards[1] else -stake
        return u0 if player == 0 else -u0
