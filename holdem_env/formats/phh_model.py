"""The PHH data model: a validated hold'em hand (:class:`PHHHand`) and its actions, with the format's limits.

:mod:`holdem_env.formats.phh` reads PHH text into these values and
:mod:`holdem_env.formats.phh_writer` writes them back; both follow the conventions the
:mod:`~holdem_env.formats.phh` docstring lists (players ``p1 .. pn`` from left of the button,
amounts in integer chips scaled by :attr:`PHHHand.scale`).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from holdem_env.engine.config import BettingStructure
from holdem_env.engine.errors import PHHError, short_repr

# Public names are re-exported by holdem_env.formats.phh (its __all__), the module users import.

#: PHH variant code -> betting structure.
SUPPORTED_VARIANTS: dict[str, BettingStructure] = {
    "NT": BettingStructure.NO_LIMIT,
    "FT": BettingStructure.FIXED_LIMIT,
}
_VARIANT_NAMES = {"NT": "no-limit hold'em", "FT": "fixed-limit hold'em"}
_REQUIRED = {
    "NT": ("variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions"),
    "FT": ("variant", "antes", "blinds_or_straddles", "small_bet", "big_bet", "starting_stacks", "actions"),
}
#: Bets per betting round in PHH's fixed-limit hold'em (FT), as PokerKit and :func:`replay` play it.
_FT_RAISE_CAP = 4
#: Action codes this reader understands (the hold'em subset of PHH).
ACTION_KINDS = ("dh", "db", "f", "cc", "cbr", "sm")
_ALLOWED_ACTIONS = "'d dh pK CARDS', 'd db CARDS', 'pK f', 'pK cc', 'pK cbr AMOUNT', 'pK sm [CARDS|-]'"
#: Largest number of decimal places accepted in amounts (chips are 10**-8 of a unit at most).
_MAX_DECIMALS = 8
#: Amounts are below ``10 ** MAX_AMOUNT_DIGITS`` file units.
MAX_AMOUNT_DIGITS = 15
#: Most text one hand's TOML document may hold (a hold'em hand needs a few kilobytes).
MAX_HAND_BYTES = 1_000_000
#: Most entries in one hand's ``actions`` list.
MAX_ACTIONS = 10_000
_KNOWN_FIELDS = frozenset(
    {"variant", "ante_trimming_status", "antes", "blinds_or_straddles", "min_bet", "small_bet",
     "big_bet", "starting_stacks", "actions", "finishing_stacks", "players"}
)


class PHHActionError(PHHError):
    """An entry of ``actions`` is malformed or illegal; names the action's index and text."""

    def __init__(self, index: int, action: str, reason: str) -> None:
        self.index, self.action, self.reason = index, action, reason
        super().__init__(f"action {index} {short_repr(action)}: {reason}")


@dataclass(frozen=True)
class PHHAction:
    """One parsed entry of a hand's ``actions`` list (amounts in integer chips).

    ``player`` is the 0-based player index (``p1`` -> 0), ``None`` for the dealer's
    ``d db``; for ``d dh`` it is the player dealt to. ``amount`` is the raise-to total
    for ``cbr`` (else ``None``). ``cards`` holds card ids, ``None`` for an unknown ``??``.
    ``shows`` is meaningful for ``sm`` only: ``True`` shows, ``False`` mucks.
    """

    index: int
    text: str
    kind: str
    player: int | None
    amount: int | None = None
    cards: tuple[int | None, ...] = ()
    shows: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise PHHActionError(self.index, self.text, f"unknown action {self.kind!r}; allowed: {_ALLOWED_ACTIONS}")


@dataclass(frozen=True)
class PHHHand:
    """A validated hold'em hand history, amounts in integer chips (file units × ``scale``).

    Per-player tuples (``starting_stacks``, ``finishing_stacks``, ``players``) are in
    ``p1 .. pn`` order; ``antes`` and ``blinds_or_straddles`` are in PHH's blind-position
    order (see the module docstring). ``finishing_stacks`` stays in file units (it may
    hold fractional chips, e.g. the Pluribus logs' half chips). ``extra`` keeps every
    other field of the file (metadata such as ``event`` or ``hand``) for writing back.
    """

    variant: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    actions: tuple[PHHAction, ...]
    min_bet: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    scale: int = 1
    ante_trimming_status: bool = False
    finishing_stacks: tuple[Decimal, ...] | None = None
    players: tuple[str, ...] | None = None
    name: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def num_players(self) -> int:
        """Number of players ``n`` (``p1 .. pn``)."""
        return len(self.starting_stacks)

    @property
    def betting(self) -> BettingStructure:
        """The betting structure of the variant."""
        return SUPPORTED_VARIANTS[self.variant]

    @property
    def small_blind(self) -> int:
        """The small blind in chips (``blinds_or_straddles[0]``)."""
        return self.blinds_or_straddles[0]

    @property
    def big_blind(self) -> int:
        """The big blind in chips (``blinds_or_straddles[1]``)."""
        return self.blinds_or_straddles[1]

    def player_antes(self) -> tuple[int, ...]:
        """The ante each player ``p1 .. pn`` owes (heads-up the list is read reversed)."""
        if self.num_players == 2:
            return (self.antes[1], self.antes[0])
        return self.antes

    def player_blinds(self) -> tuple[int, ...]:
        """The blind each player ``p1 .. pn`` owes (heads-up ``p1`` posts the big blind)."""
        if self.num_players == 2:
            return (self.blinds_or_straddles[1], self.blinds_or_straddles[0])
        return self.blinds_or_straddles

    def to_units(self, chips: int) -> int | Decimal:
        """Convert integer chips back to the file's units (an ``int`` when ``scale == 1``)."""
        if self.scale == 1:
            return int(chips)
        return _normalized(Decimal(int(chips)) / self.scale)

    def label(self) -> str:
        """A short name for messages: the section name or ``hand`` field if any."""
        if self.name is not None:
            return f"[{self.name}]"
        if "hand" in self.extra:
            return f"hand {self.extra['hand']}"
        return "hand"





def _normalized(value: Decimal) -> int | Decimal:
    value = value.normalize()
    if value == value.to_integral_value():
        return int(value)
    return value
