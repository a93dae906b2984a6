"""PHH writing: hands (read ones, or played by the engine) as canonical PHH text.

:func:`dumps` writes a :class:`~holdem_env.formats.phh_model.PHHHand` as one TOML document,
:func:`dumps_all` several as a ``.phhs`` file, and :func:`from_record` turns an engine
:class:`~holdem_env.engine.record.HandRecord` into a hand (:func:`record_to_phh`: straight to
text). What is written reads back to the same hand (``tests/test_phh.py``).
"""

import datetime
import json
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from holdem_env.engine.actions import ActionKind
from holdem_env.engine.cards import card_str
from holdem_env.engine.errors import PHHError
from holdem_env.engine.record import ActionEvent, DealEvent, MuckEvent, ShowEvent
from holdem_env.formats.phh_model import (
    _FT_RAISE_CAP,
    _KNOWN_FIELDS,
    SUPPORTED_VARIANTS,
    PHHAction,
    PHHHand,
    _normalized,
)

__all__ = ["dumps", "dumps_all", "format_action", "from_record", "record_to_phh"]


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
