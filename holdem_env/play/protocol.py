"""The messages between the page and the play server, and the check of everything the page sends.

The page sends JSON objects over the WebSocket:

==========================================  =============================================
message                                     meaning
==========================================  =============================================
``{"type": "action", "action": "fold"}``    also ``"check"``, ``"call"``, ``"allin"``
``{"type": "action", "action": "raise",     raise (or bet) TO ``amount`` chips, this
"amount": 120}``                            street's total; a whole number
``{"type": "next"}``                        deal the next hand (after the last one ended)
``{"type": "sync"}``                        send the state again
==========================================  =============================================

An ``action`` may carry ``"hand": N``: it is refused if hand ``N`` is no longer being played
(a stale click from another tab), and ``"decision": D``, the number of the person's decision
it answers (the state's ``decision``): it is refused unless decision ``D`` is still open, so a
repeated or stale action is never applied to a later decision. A message may be at most
:data:`MAX_MESSAGE_BYTES` long and nest at most :data:`MAX_DEPTH` levels (objects and arrays). The server answers with ``{"type": "state", ...}``
(:meth:`holdem_env.play.session.PlaySession.view`, to every open tab after each change),
``{"type": "history", "hands": [[line, ...], ...]}`` (every hand's log, once on connect)
and ``{"type": "error", "message": "..."}`` (a refused message: nothing changed).

Fields of a state the page relies on beyond the table itself: ``decision`` (the number of
the person's open decision, else null: echo it in the action), ``clock_left`` and
``clock_paused`` (the clock pauses while no page is connected), ``seats[i].last_action``
(``"Call 20"``, ``"Raise to 60"``, ... this street), ``results.shown[seat]`` with ``cards``,
``hand`` (the hand in words, e.g. ``"two pair, kings and nines, ace kicker"``) and ``best``
(its five cards) for every player still in at a showdown, and ``session.chart`` (the
person's net result after each finished hand, 0 first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from holdem_env.engine.errors import HoldemError

__all__ = ["ProtocolError", "ClientMessage", "parse_message", "MAX_MESSAGE_BYTES", "MAX_DEPTH", "ACTIONS"]

#: Longest message accepted from the page.
MAX_MESSAGE_BYTES = 4096
#: Deepest nesting of JSON objects and arrays accepted (a message needs 1).
MAX_DEPTH = 4
#: The action words the page may send.
ACTIONS = ("fold", "check", "call", "raise", "allin")
_MAX_AMOUNT = 10**12


class ProtocolError(HoldemError):
    """A message from the page is malformed; the message says what was wrong and what is allowed."""


@dataclass(frozen=True)
class ClientMessage:
    """A checked message: ``type``, and for an action its ``action``, ``amount``, ``hand`` and ``decision``."""

    type: str
    action: str | None = None
    amount: int | None = None
    hand: int | None = None
    decision: int | None = None


def _depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text`` (brackets in strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _whole(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"{name} must be a whole number (JSON integer), got {type(value).__name__} {value!r}")
    if not lo <= value <= hi:
        raise ProtocolError(f"{name} {value} is out of range: must be in {lo}..{hi}")
    return value


def parse_message(text: str | bytes) -> ClientMessage:
    """Check one message from the page; raises :class:`ProtocolError` saying what is wrong.

    >>> parse_message('{"type": "action", "action": "raise", "amount": 40}')
    ClientMessage(type='action', action='raise', amount=40, hand=None, decision=None)
    >>> parse_message('{"type": "action", "action": "raise", "amount": "40"}')
    Traceback (most recent call last):
    ...
    holdem_env.play.protocol.ProtocolError: amount must be a whole number (JSON integer), got str '40'
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message must be UTF-8 JSON text") from None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"a message may be at most {MAX_MESSAGE_BYTES} bytes, got {len(text.encode('utf-8', 'surrogatepass'))}")
    depth = _depth(text)
    if depth > MAX_DEPTH:
        raise ProtocolError(f"a message may nest objects and arrays at most {MAX_DEPTH} deep, got {depth}")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (json.JSONDecodeError, ValueError) as exc:
        raise ProtocolError(f"a message must be a JSON object: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a message must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind in ("next", "sync"):
        extra = set(data) - {"type"}
        if extra:
            raise ProtocolError(f"{kind!r} takes no other fields, got {sorted(extra)}")
        return ClientMessage(type=kind)
    if kind != "action":
        raise ProtocolError(f"unknown message type {kind!r}: use 'action', 'next' or 'sync'")
    extra = set(data) - {"type", "action", "amount", "hand", "decision"}
    if extra:
        raise ProtocolError(f"unknown fields {sorted(extra)}: an action has 'action', 'amount', 'hand' and 'decision'")
    action = data.get("action")
    if action not in ACTIONS:
        raise ProtocolError(f"unknown action {action!r}: use one of {', '.join(ACTIONS)}")
    amount = None
    if action == "raise":
        if "amount" not in data:
            raise ProtocolError("a raise needs an 'amount': the total to raise to this street")
        amount = _whole("amount", data["amount"], 1, _MAX_AMOUNT)
    elif "amount" in data:
        raise ProtocolError(f"{action!r} takes no amount; only 'raise' does")
    hand = None if data.get("hand") is None else _whole("hand", data["hand"], 1, _MAX_AMOUNT)
    decision = None if data.get("decision") is None else _whole("decision", data["decision"], 1, _MAX_AMOUNT)
    return ClientMessage(type="action", action=action, amount=amount, hand=hand, decision=decision)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
