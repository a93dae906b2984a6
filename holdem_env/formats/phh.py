"""Poker Hand History (PHH, uoftcprg/phh-std) files: read, validate and write hold'em hands.

A ``.phh`` file is one TOML document describing one hand; a ``.phhs`` file holds several
hands, each in its own TOML section (``[1]``, ``[2]``, ...). This module reads the two
hold'em variants ``NT`` (no-limit) and ``FT`` (fixed-limit) into a :class:`PHHHand`, a
validated value in integer chips (:mod:`holdem_env.formats.phh_model`), and writes hands back
as PHH text, including hands played by the engine (:func:`from_record`; the writer is
:mod:`holdem_env.formats.phh_writer`, re-exported here). Replaying a hand through the engine lives in
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

import tomllib
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from holdem_env.engine.cards import card_id
from holdem_env.engine.errors import CardError, PHHError, short_repr
from holdem_env.formats.phh_model import (
    _ALLOWED_ACTIONS,
    _KNOWN_FIELDS,
    _MAX_DECIMALS,
    _REQUIRED,
    _VARIANT_NAMES,
    ACTION_KINDS,
    MAX_ACTIONS,
    MAX_AMOUNT_DIGITS,
    MAX_HAND_BYTES,
    SUPPORTED_VARIANTS,
    PHHAction,
    PHHActionError,
    PHHHand,
    _normalized,
)
from holdem_env.formats.phh_writer import dumps, dumps_all, format_action, from_record, record_to_phh

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


