"""Poker Hand History (PHH, uoftcprg/phh-std) files: read, validate and write hold'em hands.

A ``.phh`` file is one TOML document describing one hand; a ``.phhs`` file holds several
hands, each in its own TOML section (``[1]``, ``[2]``, ...). This module reads the two
hold'em variants ``NT`` (no-limit) and ``FT`` (fixed-limit) into a :class:`PHHHand`, a
validated value in integer chips, and writes hands back as PHH text, including hands
played by the engine (:func:`from_record`). Replaying a hand through the engine lives in
:mod:`holdem_env.formats.replay`.

Conventions (those of PHH and PokerKit):

- Players are ``p1 .. pn`` in table order starting left of the button, so ``pn`` is the
  button. Heads-up ``p2`` is the button and posts the small blind, ``p1`` the big blind.
- ``blinds_or_straddles`` and ``antes`` are listed by blind position: index 0 is the
  small blind's, index 1 the big blind's. Heads-up that order is reversed relative to
  ``p1, p2`` (``p1`` posts ``blinds_or_straddles[1]``), exactly as PokerKit reads it.
- Amounts may be decimals (``0.5``); they are scaled to integer chips by
  :attr:`PHHHand.scale` (``10 ** decimals``) and reported back in the file's units
  with :meth:`PHHHand.to_units`.
- Unknown cards are written ``??``; they are ``None`` in :attr:`PHHAction.cards`.
- Limits: a hand's document is at most :data:`MAX_HAND_BYTES` of text with at most
  :data:`MAX_ACTIONS` actions, and amounts are below ``10**15`` file units; larger input is
  a :class:`~holdem_env.engine.errors.PHHError`. Large ``.phhs`` files are read hand by hand
  by :mod:`holdem_env.formats.phh_stream`.

Actions (``PHHAction.kind``): ``dh`` deal hole cards, ``db`` deal board cards, ``f``
fold, ``cc`` check or call, ``cbr`` bet or raise TO an amount, ``sm`` show (``sm CARDS``
or ``sm -``) or muck (bare ``sm``).

>>> hand = loads('''
... variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [0.5, 1]
... min_bet = 1
... starting_stacks = [100, 100]
... actions = ["d dh p1 AsKs", "d dh p2 ????", "p2 cbr 2.5", "p1 f"]
... ''')
>>> hand.scale, hand.blinds_or_straddles, hand.actions[2].amount
(10, (5, 10), 25)
>>> loads('variant = "PO"')
Traceback (most recent call last):
...
holdem_env.engine.errors.PHHError: variant='PO' is not supported: allowed 'NT' (no-limit hold'em), 'FT' (fixed-limit hold'em)
"""

from __future__ import annotations

import datetime
import json
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from holdem_env.engine.actions import ActionKind
from holdem_env.engine.cards import card_id, card_str
from holdem_env.engine.config import BettingStructure
from holdem_env.engine.errors import CardError, PHHError, short_repr
from holdem_env.engine.record import ActionEvent, DealEvent, MuckEvent, ShowEvent

__all__ = [
    "SUPPORTED_VARIANTS",
    "ACTION_KINDS",
    "MAX_HAND_BYTES",
    "MAX_ACTIONS",
    "MAX_AMOUNT_DIGITS",
    "PHHActionError",
    "PHHAction",
    "PHHHand",
    "loads",
    "loads_all",
    "loads_each",
    "read_text",
    "load_file",
    "dumps",
    "dumps_all",
    "format_action",
    "from_record",
    "record_to_phh",
]

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
        self.index = index
        self.action = action
        self.reason = reason
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


# --------------------------------------------------------------------------- reading


def loads(text: str, *, name: str | None = None) -> PHHHand:
    """Parse one ``.phh`` document (TOML) into a validated :class:`PHHHand`.

    Raises :class:`~holdem_env.engine.errors.PHHError` naming the field or action at fault,
    or when the text exceeds :data:`MAX_HAND_BYTES`.
    """
    if isinstance(text, str) and len(text) > MAX_HAND_BYTES:
        raise PHHError(f"the hand is {len(text)} characters long: a hand holds at most {MAX_HAND_BYTES}")
    return _hand_from_table(_parse_toml(text), name)


def loads_all(text: str) -> list[PHHHand]:
    """Parse a ``.phhs`` document: every top-level TOML section is one hand (named after it).

    A plain ``.phh`` document (top-level ``variant``) is accepted too and gives one hand.
    """
    doc = _parse_toml(text)
    if "variant" in doc:
        return [_hand_from_table(doc, None)]
    if not doc:
        raise PHHError("the document holds no hand: expected a 'variant' field or [sections] of hands")
    hands = []
    for key, value in doc.items():
        if not isinstance(value, dict):
            raise PHHError(
                f"top-level field {short_repr(key)} is outside any section and there is no 'variant': "
                f"a .phhs file holds only [sections], one hand each"
            )
        try:
            hands.append(_hand_from_table(value, key))
        except PHHError as exc:
            raise type(exc)(*_prefixed_args(exc, f"[{key}] ")) from None
    return hands


def loads_each(text: str) -> list[tuple[str | None, PHHHand | PHHError]]:
    """Like :func:`loads_all`, but one bad section does not hide the others.

    Returns ``(section name or None, hand or the PHHError for that section)`` per hand;
    a document that is not TOML (or holds no hand) still raises.
    """
    doc = _parse_toml(text)
    if "variant" in doc or not doc or not all(isinstance(v, dict) for v in doc.values()):
        return [(None, hand) for hand in loads_all(text)]
    out: list[tuple[str | None, PHHHand | PHHError]] = []
    for key, value in doc.items():
        try:
            out.append((key, _hand_from_table(value, key)))
        except PHHError as exc:
            out.append((key, exc))
    return out


def read_text(path: str | Path) -> str:
    """The text of a hand-history file; unreadable or non-UTF-8 files raise PHHError."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise PHHError(f"not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise PHHError(f"cannot read the file: {exc.strerror}") from None


def load_file(path: str | Path) -> list[PHHHand]:
    """Read a ``.phh`` or ``.phhs`` file (decided by its content) into its hands."""
    return loads_all(read_text(path))


def _prefixed_args(exc: PHHError, prefix: str) -> tuple[Any, ...]:
    if isinstance(exc, PHHActionError):
        return (exc.index, exc.action, exc.reason if not prefix else f"{exc.reason} (in {prefix.strip()})")
    return (prefix + str(exc),)


def _parse_toml(text: str) -> dict[str, Any]:
    if not isinstance(text, str):
        hint = " (decode bytes first, e.g. data.decode('utf-8'), or use load_file)" if isinstance(text, bytes) else ""
        raise PHHError(f"PHH text must be a str, got {type(text).__name__}{hint}")
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML: {exc}") from None
    except RecursionError:
        raise PHHError("not readable: the TOML is nested too deeply") from None
    except ValueError:  # Python's limit on integer digits
        raise PHHError("not valid TOML: a number has too many digits") from None


def _normalized(value: Decimal) -> int | Decimal:
    value = value.normalize()
    if value == value.to_integral_value():
        return int(value)
    return value


def _decimals(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def _too_large(dec: Decimal) -> bool:
    """Whether a finite amount reaches ``10 ** MAX_AMOUNT_DIGITS`` (checked without the decimal context)."""
    return not dec.is_zero() and dec.adjusted() >= MAX_AMOUNT_DIGITS


def _amount(field_name: str, value: Any) -> Decimal:
    """A non-negative number from the file as a Decimal (ints and TOML floats)."""
    shown = short_repr(value)
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise PHHError(f"{field_name}={shown} is invalid: must be a non-negative number")
    if isinstance(value, int) and value.bit_length() > 64:
        raise PHHError(f"{field_name}={shown} is invalid: amounts must be below 10**{MAX_AMOUNT_DIGITS}")
    dec = Decimal(value)
    if not dec.is_finite() or dec < 0:
        raise PHHError(f"{field_name}={shown} is invalid: must be a non-negative finite number")
    if _too_large(dec):
        raise PHHError(f"{field_name}={shown} is invalid: amounts must be below 10**{MAX_AMOUNT_DIGITS}")
    if _decimals(dec) > _MAX_DECIMALS:
        raise PHHError(f"{field_name}={shown} is invalid: at most {_MAX_DECIMALS} decimal places are supported")
    return dec


def _amount_list(field_name: str, value: Any, n: int | None) -> list[Decimal]:
    if not isinstance(value, list):
        raise PHHError(f"{field_name}={short_repr(value)} is invalid: must be a list of numbers, one per player")
    if n is not None and len(value) != n:
        raise PHHError(f"{field_name} has {len(value)} entries: must have {n}, one per player (starting_stacks)")
    return [_amount(f"{field_name}[{i}]", v) for i, v in enumerate(value)]


def _parse_cards(index: int, text: str, token: str) -> tuple[int | None, ...]:
    if len(token) % 2 or not token:
        raise PHHActionError(
            index, text, f"{short_repr(token)} is not a list of cards: expected pairs like 'AsKd' or '????'"
        )
    out: list[int | None] = []
    for i in range(0, len(token), 2):
        pair = token[i : i + 2]
        if pair == "??":
            out.append(None)
            continue
        try:
            out.append(card_id(pair))
        except CardError as exc:
            raise PHHActionError(index, text, str(exc)) from None
    return tuple(out)


def _parse_player(index: int, text: str, token: str, n: int) -> int:
    if len(token) < 2 or token[0] != "p" or not token[1:].isdigit():
        raise PHHActionError(index, text, f"{token!r} is not a player: expected p1..p{n}")
    k = int(token[1:])
    if not 1 <= k <= n:
        raise PHHActionError(index, text, f"player {token!r} does not exist: the hand has p1..p{n}")
    return k - 1


def _parse_action(index: int, raw: Any, n: int, amounts: list[tuple[int, str, Decimal]]) -> PHHAction:
    if not isinstance(raw, str):
        raise PHHActionError(index, str(raw), "every action must be a string such as 'p1 cc'")
    words = raw.split("#", 1)[0].split()
    text = raw
    if not words:
        raise PHHActionError(index, text, f"empty action; allowed: {_ALLOWED_ACTIONS}")
    if words[0] == "d":
        if len(words) == 4 and words[1] == "dh":
            player = _parse_player(index, text, words[2], n)
            cards = _parse_cards(index, text, words[3])
            if len(cards) != 2:
                raise PHHActionError(index, text, f"hold'em deals 2 hole cards, not {len(cards)}")
            return PHHAction(index, text, "dh", player, cards=cards)
        if len(words) == 3 and words[1] == "db":
            cards = _parse_cards(index, text, words[2])
            return PHHAction(index, text, "db", None, cards=cards)
        raise PHHActionError(index, text, "unknown dealer action; allowed: 'd dh pK CARDS', 'd db CARDS'")
    player = _parse_player(index, text, words[0], n)
    kind = words[1] if len(words) > 1 else ""
    if kind in ("f", "cc") and len(words) == 2:
        return PHHAction(index, text, kind, player)
    if kind == "cbr" and len(words) == 3:
        if len(words[2]) > 64:
            raise PHHActionError(index, text, f"{short_repr(words[2])} is not an amount: too long")
        try:
            dec = Decimal(words[2])
        except InvalidOperation:
            raise PHHActionError(index, text, f"{words[2]!r} is not an amount: expected a number such as 200 or 2.5") from None
        if not dec.is_finite() or dec <= 0:
            raise PHHActionError(index, text, f"bet/raise amount {words[2]!r} must be a positive number")
        if _too_large(dec):
            raise PHHActionError(index, text, f"bet/raise amount {words[2]!r} must be below 10**{MAX_AMOUNT_DIGITS}")
        if _decimals(dec) > _MAX_DECIMALS:
            raise PHHActionError(index, text, f"at most {_MAX_DECIMALS} decimal places are supported")
        amounts.append((index, text, dec))
        return PHHAction(index, text, "cbr", player, amount=0)  # scaled once the scale is known
    if kind == "sm" and len(words) == 2:
        return PHHAction(index, text, "sm", player, shows=False)
    if kind == "sm" and len(words) == 3:
        if words[2] == "-":
            return PHHAction(index, text, "sm", player, shows=True)
        cards = _parse_cards(index, text, words[2])
        if len(cards) != 2:
            raise PHHActionError(index, text, f"hold'em shows 2 hole cards, not {len(cards)}")
        return PHHAction(index, text, "sm", player, cards=cards, shows=True)
    if kind in ("sd", "pb"):
        raise PHHActionError(index, text, f"action {kind!r} belongs to draw/stud games, not hold'em")
    raise PHHActionError(index, text, f"unknown action; allowed: {_ALLOWED_ACTIONS}")


def _hand_from_table(doc: Mapping[str, Any], name: str | None) -> PHHHand:
    variant = doc.get("variant")
    if variant is None:
        raise PHHError("missing required field 'variant'; allowed: 'NT' (no-limit hold'em), 'FT' (fixed-limit hold'em)")
    if not isinstance(variant, str) or variant not in SUPPORTED_VARIANTS:
        allowed = ", ".join(f"{k!r} ({v})" for k, v in _VARIANT_NAMES.items())
        raise PHHError(f"variant={short_repr(variant)} is not supported: allowed {allowed}")
    for required in _REQUIRED[variant]:
        if required not in doc:
            raise PHHError(f"missing required field {required!r} for variant {variant!r}")
    if "straddles" in doc or "bring_in" in doc:
        bad = "straddles" if "straddles" in doc else "bring_in"
        raise PHHError(f"field {bad!r} is not supported: hold'em here has a small and a big blind only")

    stacks_dec = _amount_list("starting_stacks", doc["starting_stacks"], None)
    n = len(stacks_dec)
    if not 2 <= n <= 10:
        raise PHHError(f"starting_stacks has {n} players: 2..10 are supported")
    raw_antes = doc["antes"]
    if isinstance(raw_antes, (int, Decimal)) and not isinstance(raw_antes, bool):
        antes_dec = [_amount("antes", raw_antes)] * n
    else:
        antes_dec = _amount_list("antes", raw_antes, n)
    blinds_dec = _amount_list("blinds_or_straddles", doc["blinds_or_straddles"], n)
    for i, b in enumerate(blinds_dec[2:], start=2):
        if b != 0:
            raise PHHError(
                f"blinds_or_straddles[{i}]={_normalized(b)} is a straddle: not supported "
                f"(allowed: [small blind, big blind, 0, ...])"
            )
    bets: dict[str, Decimal] = {}
    for key in ("min_bet", "small_bet", "big_bet"):
        if key in _REQUIRED[variant]:
            bets[key] = _amount(key, doc[key])

    raw_actions = doc["actions"]
    if not isinstance(raw_actions, list):
        raise PHHError(f"actions={short_repr(raw_actions)} is invalid: must be a list of strings")
    if len(raw_actions) > MAX_ACTIONS:
        raise PHHError(f"actions has {len(raw_actions)} entries: a hand holds at most {MAX_ACTIONS}")
    cbr_amounts: list[tuple[int, str, Decimal]] = []
    actions = [_parse_action(i, a, n, cbr_amounts) for i, a in enumerate(raw_actions)]

    every = [*stacks_dec, *antes_dec, *blinds_dec, *bets.values(), *(a for _, _, a in cbr_amounts)]
    scale = 10 ** max((_decimals(v) for v in every), default=0)

    def chips(v: Decimal) -> int:
        return int(v * scale)

    stacks = tuple(chips(v) for v in stacks_dec)
    for i, s in enumerate(stacks):
        if s <= 0:
            raise PHHError(f"starting_stacks[{i}]={_normalized(stacks_dec[i])} is invalid: every player needs chips")
    blinds = tuple(chips(v) for v in blinds_dec)
    if blinds[1] <= 0:
        raise PHHError("blinds_or_straddles[1] (the big blind) must be positive")
    if blinds[0] > blinds[1]:
        raise PHHError(
            f"blinds_or_straddles={[_normalized(b) for b in blinds_dec]} is invalid: "
            f"the small blind (index 0) must not exceed the big blind (index 1)"
        )
    scaled_bets = {k: chips(v) for k, v in bets.items()}
    if variant == "NT" and scaled_bets["min_bet"] != blinds[1]:
        raise PHHError(
            f"min_bet={_normalized(bets['min_bet'])} is not supported: the engine's minimum bet "
            f"is the big blind ({_normalized(blinds_dec[1])})"
        )
    if variant == "FT":
        if scaled_bets["small_bet"] != blinds[1]:
            raise PHHError(
                f"small_bet={_normalized(bets['small_bet'])} is not supported: must equal the big blind "
                f"({_normalized(blinds_dec[1])})"
            )
        if scaled_bets["big_bet"] != 2 * blinds[1]:
            raise PHHError(
                f"big_bet={_normalized(bets['big_bet'])} is not supported: must be twice the small bet "
                f"({_normalized(2 * bets['small_bet'])})"
            )
    scaled_amounts = {i: chips(a) for i, _, a in cbr_amounts}
    actions = [
        PHHAction(a.index, a.text, a.kind, a.player, scaled_amounts[a.index]) if a.kind == "cbr" else a
        for a in actions
    ]

    finishing: tuple[Decimal, ...] | None = None
    if "finishing_stacks" in doc:
        finishing = tuple(_amount_list("finishing_stacks", doc["finishing_stacks"], n))
    players: tuple[str, ...] | None = None
    if "players" in doc:
        raw_players = doc["players"]
        if not isinstance(raw_players, list) or len(raw_players) != n or not all(isinstance(p, str) for p in raw_players):
            raise PHHError(f"players={short_repr(raw_players)} is invalid: must be a list of {n} names")
        players = tuple(raw_players)
    trimming = doc.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise PHHError(f"ante_trimming_status={short_repr(trimming)} is invalid: must be true or false")
    extra = {k: v for k, v in doc.items() if k not in _KNOWN_FIELDS}
    return PHHHand(
        variant=variant,
        antes=tuple(chips(v) for v in antes_dec),
        blinds_or_straddles=blinds,
        starting_stacks=stacks,
        actions=tuple(actions),
        min_bet=scaled_bets.get("min_bet"),
        small_bet=scaled_bets.get("small_bet"),
        big_bet=scaled_bets.get("big_bet"),
        scale=scale,
        ante_trimming_status=trimming,
        finishing_stacks=finishing,
        players=players,
        name=name,
        extra=extra,
    )


# --------------------------------------------------------------------------- writing


def format_action(action: PHHAction, scale: int = 1) -> str:
    """The canonical PHH text of an action (comments dropped, amounts in file units)."""
    cards = "".join("??" if c is None else card_str(c) for c in action.cards)
    if action.kind == "dh":
        return f"d dh p{action.player + 1} {cards}"  # type: ignore[operator]
    if action.kind == "db":
        return f"d db {cards}"
    who = f"p{action.player + 1}"  # type: ignore[operator]
    if action.kind == "cbr":
        assert action.amount is not None
        amount = action.amount if scale == 1 else _normalized(Decimal(action.amount) / scale)
        return f"{who} cbr {amount}"
    if action.kind == "sm":
        if not action.shows:
            return f"{who} sm"
        return f"{who} sm {cards}" if cards else f"{who} sm -"
    return f"{who} {action.kind}"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        norm = _normalized(value)
        if isinstance(norm, int):
            return str(norm)
        text = format(norm, "f")
        return text if "." in text else text + ".0"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise PHHError(f"cannot write {type(value).__name__} value {value!r} as TOML")


def _toml_key(key: str) -> str:
    if key and all(c.isalnum() or c in "_-" for c in key) and key.isascii():
        return key
    return json.dumps(key)


def dumps(hand: PHHHand) -> str:
    """Write a hand as ``.phh`` text (amounts in the hand's file units).

    ``loads(dumps(hand))`` gives back an equal hand (apart from comments in actions).
    """
    units = hand.to_units
    lines = [f"variant = {_toml_value(hand.variant)}"]
    lines.append(f"ante_trimming_status = {_toml_value(hand.ante_trimming_status)}")
    lines.append(f"antes = {_toml_value([units(a) for a in hand.antes])}")
    lines.append(f"blinds_or_straddles = {_toml_value([units(b) for b in hand.blinds_or_straddles])}")
    for key in ("min_bet", "small_bet", "big_bet"):
        value = getattr(hand, key)
        if value is not None:
            lines.append(f"{key} = {_toml_value(units(value))}")
    lines.append(f"starting_stacks = {_toml_value([units(s) for s in hand.starting_stacks])}")
    lines.append("actions = [")
    lines.extend(f"  {_toml_value(format_action(a, hand.scale))}," for a in hand.actions)
    lines.append("]")
    if hand.players is not None:
        lines.append(f"players = {_toml_value(list(hand.players))}")
    if hand.finishing_stacks is not None:
        lines.append(f"finishing_stacks = {_toml_value(list(hand.finishing_stacks))}")
    clash = sorted(k for k in hand.extra if k in _KNOWN_FIELDS or k in ("straddles", "bring_in"))
    if clash:
        raise PHHError(
            f"extra field(s) {', '.join(map(repr, clash))} would overwrite or contradict the hand's own "
            f"PHH fields; extra holds other metadata only (e.g. 'event', 'hand')"
        )
    for key, value in hand.extra.items():
        lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[PHHHand]) -> str:
    """Write hands as ``.phhs`` text: one section per hand, named by ``hand.name`` or 1, 2, ..."""
    parts = []
    used: set[str] = set()
    for i, hand in enumerate(hands, start=1):
        section = hand.name if hand.name is not None else str(i)
        if section in used:
            raise PHHError(f"two hands share the section name {section!r}: section names must be unique")
        used.add(section)
        parts.append(f"[{_toml_key(section)}]\n{dumps(hand)}")
    return "\n".join(parts)


def from_record(
    record: Any,
    *,
    players: Sequence[str] | None = None,
    name: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> PHHHand:
    """Convert an engine :class:`~holdem_env.engine.record.HandRecord` to a :class:`PHHHand`.

    Players are the seats dealt in, starting left of the button (``p1``) and ending with
    the button; ``seats`` (1-based engine seat numbers) and ``seat_count`` are recorded
    so the table can be rebuilt. A hand still running is written without
    ``finishing_stacks`` (its actions so far). Pot-limit hands have no PHH hold'em variant, nor
    fixed-limit tables with another cap than 4 bets a round (``raise_cap``, ``uncapped_heads_up``
    heads-up): they raise :class:`~holdem_env.engine.errors.PHHError`.
    """

    config = record.config
    variant = next((code for code, b in SUPPORTED_VARIANTS.items() if b == config.betting), None)
    if variant is None:
        raise PHHError(f"betting={config.betting.value!r} has no PHH hold'em variant: allowed no-limit (NT), fixed-limit (FT)")
    nseats = config.num_players
    seats = [(record.button + k) % nseats for k in range(1, nseats + 1)]
    seats = [s for s in seats if record.dealt_in[s]]
    n = len(seats)
    if n < 2:
        raise PHHError(f"the record has {n} player dealt in: a PHH hand needs at least 2")
    if variant == "FT" and (config.raise_cap != _FT_RAISE_CAP or (config.uncapped_heads_up and n == 2)):
        cap = "no cap heads-up" if config.raise_cap == _FT_RAISE_CAP else f"raise_cap={config.raise_cap}"
        raise PHHError(
            f"fixed-limit with {cap} has no PHH form: PHH's FT variant (and replay) caps a round at "
            f"{_FT_RAISE_CAP} bets"
        )
    pindex = {s: i for i, s in enumerate(seats)}

    # Forced bets in blind-position order: index 0 small blind, index 1 big blind.
    # The antes each seat owed (HandRecord.antes): a short stack posts what it has, here and in the replay.
    seat_antes = [int(record.antes[s]) for s in seats]
    antes = [seat_antes[1], seat_antes[0]] if n == 2 else seat_antes
    blinds = [config.small_blind, config.big_blind] + [0] * (n - 2)

    actions: list[PHHAction] = []

    def add(kind: str, player: int | None, **kw: Any) -> None:
        act = PHHAction(len(actions), "", kind, player, **kw)
        actions.append(PHHAction(act.index, format_action(act), kind, player, **kw))

    for s in seats:
        cards = record.hole_cards[s]
        add("dh", pindex[s], cards=tuple(cards) if cards is not None else (None, None))
    for ev in record.events:
        if isinstance(ev, ActionEvent):
            kind = ActionKind(ev.kind)
            if kind == ActionKind.FOLD:
                add("f", pindex[ev.seat])
            elif kind in (ActionKind.CHECK, ActionKind.CALL):
                add("cc", pindex[ev.seat])
            else:
                add("cbr", pindex[ev.seat], amount=int(ev.to))
        elif isinstance(ev, DealEvent):
            if ev.cards:
                add("db", None, cards=tuple(ev.cards))
        elif isinstance(ev, ShowEvent):
            add("sm", pindex[ev.seat], cards=tuple(ev.cards), shows=True)
        elif isinstance(ev, MuckEvent):
            add("sm", pindex[ev.seat], shows=False)

    meta: dict[str, Any] = {"seats": [s + 1 for s in seats], "seat_count": nseats}
    if record.seed is not None:
        # TOML integers are 64-bit; larger seeds are kept exactly as text.
        meta["seed"] = int(record.seed) if -(2**63) <= int(record.seed) < 2**63 else str(record.seed)
    meta.update(extra or {})
    return PHHHand(
        variant=variant,
        antes=tuple(antes),
        blinds_or_straddles=tuple(blinds),
        starting_stacks=tuple(int(record.starting_stacks[s]) for s in seats),
        actions=tuple(actions),
        min_bet=config.big_blind if variant == "NT" else None,
        small_bet=config.small_bet if variant == "FT" else None,
        big_bet=config.big_bet if variant == "FT" else None,
        scale=1,
        ante_trimming_status=len(set(antes)) == 1,
        finishing_stacks=(
            None if record.final_stacks is None else tuple(Decimal(int(record.final_stacks[s])) for s in seats)
        ),
        players=tuple(players) if players is not None else None,
        name=name,
        extra=meta,
    )


def record_to_phh(record: Any, **kwargs: Any) -> str:
    """``dumps(from_record(record, **kwargs))``: an engine hand as ``.phh`` text."""
    return dumps(from_record(record, **kwargs))
