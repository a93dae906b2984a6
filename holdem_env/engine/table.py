"""A table that plays many hands: moves the button, resets stacks, and in bankroll mode keeps cash."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.engine.state import HandState, _check_seed, _int_list
from holdem_env.engine.validate import check_bool, is_int

__all__ = ["Table"]


class Table:
    """Deals hand after hand at one table.

    The first button is drawn from the generator among the seats dealt in; afterwards it
    moves one seat clockwise to the next seat dealt in. By default every hand starts with
    every seat at ``config.buy_in`` ("every hand is its own buy-in"). In bankroll mode
    (``config.bankroll``) each seat has ``cash`` (default: one buy-in each): a seat is dealt
    in only if its cash covers the buy-in, and its net result goes back to its cash when the
    hand ends.

    An unfinished hand blocks the next deal until it is finished or explicitly thrown away
    with :meth:`abandon_hand` (or ``start_hand(abandon=True)``), as a PettingZoo
    ``reset()`` in the middle of a hand does. An abandoned hand counts as never played: it
    has no result, bankroll cash is untouched, :attr:`hand` forgets it, and the button
    still moves on from the seat it had (it took its turn).

    >>> t = Table(TableConfig(num_players=3), seed=7)
    >>> hand = t.start_hand()
    >>> hand.starting_stacks
    (1000, 1000, 1000)
    >>> t.start_hand()
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.IllegalActionError: the current hand is not over; finish it or abandon it (abandon_hand()) before starting the next
    >>> t.button, t.abandon_hand(), t.hand is None, t.start_hand().button
    (2, True, True, 0)
    """

    __slots__ = ("config", "_rng", "_button", "_hand", "_cash", "_settled", "_hands")

    def __init__(
        self,
        config: TableConfig,
        *,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
        cash: Sequence[int] | None = None,
    ) -> None:
        if not isinstance(config, TableConfig):
            raise ConfigError("config", config, "must be a TableConfig")
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise ConfigError("rng", rng, "must be a numpy.random.Generator")
        _check_seed(seed)
        self.config = config
        self._rng = rng if rng is not None else np.random.default_rng(seed)
        self._button: int | None = None
        self._hand: HandState | None = None
        self._settled = True
        self._hands = 0
        n = config.num_players
        if cash is None:
            self._cash = [config.buy_in] * n
        else:
            if len(cash) != n or any(not is_int(c) or c < 0 for c in cash):
                raise ConfigError("cash", cash, f"must be {n} non-negative integers (one per seat)")
            self._cash = [int(c) for c in cash]

    @property
    def button(self) -> int | None:
        """The button of the current (or last) hand; ``None`` before the first hand."""
        return self._button

    @property
    def hand(self) -> HandState | None:
        """The current (or last) hand."""
        return self._hand

    @property
    def cash(self) -> tuple[int, ...]:
        """Bankroll mode: each seat's cash (a finished hand's result included)."""
        self._settle()
        return tuple(self._cash)

    @property
    def hands_played(self) -> int:
        """How many hands were started."""
        return self._hands

    def _settle(self) -> None:
        hand = self._hand
        if self._settled or hand is None or not hand.is_over:
            return
        if self.config.bankroll:
            payoffs = hand.payoffs
            assert payoffs is not None, "an ended hand has payoffs"
            for s, p in enumerate(payoffs):
                self._cash[s] += p
        self._settled = True

    def abandon_hand(self) -> bool:
        """Throw away the current hand if it is unfinished; return whether one was abandoned.

        The abandoned hand is discarded as if never played: no payoffs are applied (bankroll
        cash keeps its value from before the hand), :attr:`hand` becomes ``None`` and
        :attr:`hands_played` still counts it. The next hand's button moves on from the
        abandoned hand's button. A finished hand (or none) is left alone and ``False`` returned.
        """
        hand = self._hand
        if hand is None or hand.is_over:
            return False
        self._hand = None
        self._settled = True
        return True

    def start_hand(
        self,
        deck: Sequence[int | str] | None = None,
        button: int | None = None,
        stacks: Sequence[int] | None = None,
        *,
        abandon: bool = False,
    ) -> HandState:
        """Deal the next hand (optionally with a stacked deck, a given button or stacks).

        An unfinished current hand raises :class:`IllegalActionError`, unless ``abandon`` is
        true: then it is discarded first (see :meth:`abandon_hand`). Bad arguments raise
        before anything changes, so a failed call abandons nothing.
        """
        if self._hand is not None and not self._hand.is_over and not abandon:
            raise IllegalActionError(
                "the current hand is not over; finish it or abandon it (abandon_hand()) before starting the next"
            )
        check_bool("abandon", abandon)
        self._settle()
        cfg = self.config
        n = cfg.num_players
        default = stacks is None and not cfg.bankroll  # every seat at the buy-in: HandState's own default
        if stacks is not None:
            st = _int_list("stacks", stacks, n)
            dealt = [c > 0 for c in st]
            if sum(dealt) < 2:
                raise ConfigError("stacks", stacks, "at least two seats need chips to play a hand")
        elif cfg.bankroll:
            dealt = [c >= cfg.buy_in for c in self._cash]
            st = [cfg.buy_in if d else 0 for d in dealt]
        else:
            dealt = [True] * n
            st = [cfg.buy_in] * n
        players = [s for s in range(n) if dealt[s]]
        if len(players) < 2:
            raise IllegalActionError(
                f"only {len(players)} seat(s) can play (cash {self._cash}, buy-in {cfg.buy_in}); a hand needs two"
            )
        if button is None:
            if self._button is None:
                button = players[int(self._rng.integers(len(players)))]
            else:
                button = self._button
                for k in range(1, n + 1):  # the next seat that plays (one exists: two seats play)
                    if dealt[(button + k) % n]:
                        button = (button + k) % n
                        break
        if default:
            hand = HandState(cfg, button=button, deck=deck, rng=self._rng)
        else:
            hand = HandState(cfg, button=button, stacks=st, deck=deck, rng=self._rng, dealt_in=dealt)
        self._button = button
        self._hand = hand
        self._settled = False
        self._hands += 1
        return hand
