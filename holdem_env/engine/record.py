"""Hand events and the hand record: what happened in a hand, JSON round trip and replay."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from holdem_env.engine.actions import ActionKind, Street
from holdem_env.engine.cards import card_id, card_str
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import HoldemError

__all__ = ["ActionEvent", "DealEvent", "Event", "HandRecord", "MuckEvent", "PotResult", "ShowEvent", "UncalledBetReturned"]


@dataclass(frozen=True, slots=True)
class ActionEvent:
    """A player's action. ``amount``: chips added by it; ``to``: the seat's street total after it."""

    seat: int
    street: Street
    kind: ActionKind
    amount: int
    to: int
    all_in: bool = False
    timeout: bool = False


@dataclass(frozen=True, slots=True)
class DealEvent:
    """Board cards dealt for ``street`` (flop, turn or river), after burning ``burn``."""

    street: Street
    cards: tuple[int, ...]
    burn: int | None = None


@dataclass(frozen=True, slots=True)
class UncalledBetReturned:
    """The unmatched part of the largest contribution went back to ``seat``."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class ShowEvent:
    """``seat`` showed its hole cards at showdown."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MuckEvent:
    """``seat`` mucked unseen at showdown."""

    seat: int


@dataclass(frozen=True, slots=True)
class PotResult:
    """A pot as awarded: ``shares[i]`` chips went to ``winners[i]`` (seats ascending)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]


Event = ActionEvent | DealEvent | UncalledBetReturned | ShowEvent | MuckEvent

# Engine-internal constructors for the per-action events, pots and showdown events. A frozen
# dataclass's generated __init__ sets every field through object.__setattr__; setting the slots
# directly builds the same object in about half the time. Positional, every field given, no validation.
_new = object.__new__
_ae_set = tuple(
    ActionEvent.__dict__[name].__set__ for name in ("seat", "street", "kind", "amount", "to", "all_in", "timeout")
)
_de_set = tuple(DealEvent.__dict__[name].__set__ for name in ("street", "cards", "burn"))
_pr_set = tuple(PotResult.__dict__[name].__set__ for name in ("amount", "eligible", "winners", "shares"))
_show_set = tuple(ShowEvent.__dict__[name].__set__ for name in ("seat", "cards"))
_seat_set = (MuckEvent.__dict__["seat"].__set__, UncalledBetReturned.__dict__["seat"].__set__)
_ub_amount_set = UncalledBetReturned.__dict__["amount"].__set__


def _action_event(
    seat: int, street: Street, kind: ActionKind, amount: int, to: int, all_in: bool, timeout: bool
) -> ActionEvent:
    ev = _new(ActionEvent)
    s0, s1, s2, s3, s4, s5, s6 = _ae_set
    s0(ev, seat)
    s1(ev, street)
    s2(ev, kind)
    s3(ev, amount)
    s4(ev, to)
    s5(ev, all_in)
    s6(ev, timeout)
    return ev


def _deal_event(street: Street, cards: tuple[int, ...], burn: int | None) -> DealEvent:
    ev = _new(DealEvent)
    s0, s1, s2 = _de_set
    s0(ev, street)
    s1(ev, cards)
    s2(ev, burn)
    return ev


def _pot_result(amount: int, eligible: tuple[int, ...], winners: tuple[int, ...], shares: tuple[int, ...]) -> PotResult:
    p = _new(PotResult)
    s0, s1, s2, s3 = _pr_set
    s0(p, amount)
    s1(p, eligible)
    s2(p, winners)
    s3(p, shares)
    return p


def _show_event(seat: int, cards: tuple[int, ...]) -> ShowEvent:
    ev = _new(ShowEvent)
    s0, s1 = _show_set
    s0(ev, seat)
    s1(ev, cards)
    return ev


def _muck_event(seat: int) -> MuckEvent:
    ev = _new(MuckEvent)
    _seat_set[0](ev, seat)
    return ev


def _uncalled_event(seat: int, amount: int) -> UncalledBetReturned:
    ev = _new(UncalledBetReturned)
    _seat_set[1](ev, seat)
    _ub_amount_set(ev, amount)
    return ev


def _cards_out(cards: tuple[int, ...] | None) -> str | None:
    return None if cards is None else "".join(card_str(c) for c in cards)


def _cards_in(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    return tuple(card_id(text[i : i + 2]) for i in range(0, len(text), 2))


def _event_to_dict(ev: Event) -> dict[str, Any]:
    if isinstance(ev, ActionEvent):
        return {
            "type": "action",
            "seat": ev.seat,
            "street": ev.street.name.lower(),
            "kind": ev.kind.value,
            "amount": ev.amount,
            "to": ev.to,
            "all_in": ev.all_in,
            "timeout": ev.timeout,
        }
    if isinstance(ev, DealEvent):
        return {
            "type": "deal",
            "street": ev.street.name.lower(),
            "cards": _cards_out(ev.cards),
            "burn": None if ev.burn is None else card_str(ev.burn),
        }
    if isinstance(ev, UncalledBetReturned):
        return {"type": "uncalled", "seat": ev.seat, "amount": ev.amount}
    if isinstance(ev, ShowEvent):
        return {"type": "show", "seat": ev.seat, "cards": _cards_out(ev.cards)}
    if isinstance(ev, MuckEvent):
        return {"type": "muck", "seat": ev.seat}
    raise TypeError(f"not a hand event: {ev!r}")  # pragma: no cover


def _street_in(name: Any) -> Street:
    if isinstance(name, str) and name.upper() in Street.__members__:
        return Street[name.upper()]
    allowed = ", ".join(s.name.lower() for s in Street)
    raise HoldemError(f"hand record has an event with street {name!r}; allowed: {allowed}")


def _kind_in(name: Any) -> ActionKind:
    try:
        return ActionKind(name)
    except ValueError:
        allowed = ", ".join(k.value for k in ActionKind)
        raise HoldemError(f"hand record has an action of kind {name!r}; allowed: {allowed}") from None


def _event_from_dict(d: dict[str, Any]) -> Event:
    kind = d.get("type")
    if kind == "action":
        return ActionEvent(
            d["seat"], _street_in(d["street"]), _kind_in(d["kind"]), d["amount"], d["to"], d["all_in"], d["timeout"]
        )
    if kind == "deal":
        burn = d.get("burn")
        return DealEvent(_street_in(d["street"]), _cards_in(d["cards"]) or (), None if burn is None else card_id(burn))
    if kind == "uncalled":
        return UncalledBetReturned(d["seat"], d["amount"])
    if kind == "show":
        return ShowEvent(d["seat"], _cards_in(d["cards"]) or ())
    if kind == "muck":
        return MuckEvent(d["seat"])
    raise HoldemError(f"unknown event type {kind!r} in hand record; allowed: action, deal, uncalled, show, muck")


@dataclass(frozen=True)
class HandRecord:
    """Everything needed to audit and replay one hand.

    ``antes`` are the antes each seat owed (replayed as per-seat overrides), ``blinds`` the
    chips each seat actually posted as a blind; ``deck`` is the full
    52-card order the hand was dealt from; ``final_stacks``/``payoffs`` are ``None`` while
    the hand is still running. :meth:`replay` rebuilds the hand from the deck and actions.
    """

    config: TableConfig
    button: int
    dealt_in: tuple[bool, ...]
    starting_stacks: tuple[int, ...]
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    deck: tuple[int, ...]
    seed: int | None
    hole_cards: tuple[tuple[int, ...] | None, ...]
    board: tuple[int, ...]
    events: tuple[Event, ...]
    pots: tuple[PotResult, ...]
    shown: dict[int, tuple[int, ...]]
    mucked: tuple[int, ...]
    final_stacks: tuple[int, ...] | None
    payoffs: tuple[int, ...] | None

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (cards as strings like ``"AsKd"``)."""
        return {
            "config": self.config.to_dict(),
            "button": self.button,
            "dealt_in": list(self.dealt_in),
            "starting_stacks": list(self.starting_stacks),
            "antes": list(self.antes),
            "blinds": list(self.blinds),
            "deck": _cards_out(self.deck),
            "seed": self.seed,
            "hole_cards": [_cards_out(h) for h in self.hole_cards],
            "board": _cards_out(self.board),
            "events": [_event_to_dict(e) for e in self.events],
            "pots": [
                {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners), "shares": list(p.shares)}
                for p in self.pots
            ],
            "shown": {str(s): _cards_out(c) for s, c in self.shown.items()},
            "mucked": list(self.mucked),
            "final_stacks": None if self.final_stacks is None else list(self.final_stacks),
            "payoffs": None if self.payoffs is None else list(self.payoffs),
        }

    def to_json(self, indent: int | None = None) -> str:
        """The record as a JSON string; :meth:`from_json` inverts it exactly."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandRecord:
        """Inverse of :meth:`to_dict`; a malformed record raises :class:`HoldemError`."""
        try:
            opt = lambda v: None if v is None else tuple(v)  # noqa: E731
            return cls(
                config=TableConfig.from_dict(d["config"]),
                button=d["button"],
                dealt_in=tuple(d["dealt_in"]),
                starting_stacks=tuple(d["starting_stacks"]),
                antes=tuple(d["antes"]),
                blinds=tuple(d["blinds"]),
                deck=_cards_in(d["deck"]) or (),
                seed=d["seed"],
                hole_cards=tuple(_cards_in(h) for h in d["hole_cards"]),
                board=_cards_in(d["board"]) or (),
                events=tuple(_event_from_dict(e) for e in d["events"]),
                pots=tuple(
                    PotResult(p["amount"], tuple(p["eligible"]), tuple(p["winners"]), tuple(p["shares"])) for p in d["pots"]
                ),
                shown={int(s): _cards_in(c) or () for s, c in d["shown"].items()},
                mucked=tuple(d["mucked"]),
                final_stacks=opt(d["final_stacks"]),
                payoffs=opt(d["payoffs"]),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise HoldemError(f"hand record is malformed: missing or bad field {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> HandRecord:
        """Parse a record written by :meth:`to_json`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise HoldemError(f"hand record is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise HoldemError("hand record JSON must be an object")
        return cls.from_dict(data)

    def replay(self) -> Any:
        """Deprecated: use :meth:`HandState.from_record(record) <holdem_env.engine.state.HandState.from_record>`."""
        warnings.warn(
            "HandRecord.replay() is deprecated; use HandState.from_record(record)", DeprecationWarning, stacklevel=2
        )
        if _replay_hook is None:
            raise HoldemError("HandRecord.replay() needs holdem_env.engine.state: use HandState.from_record(record)")
        return _replay_hook(self)


#: ``HandState.from_record``, installed by :mod:`holdem_env.engine.state` when it is imported (this
#: module never imports state, which imports it for its events), for the deprecated ``replay()``.
_replay_hook: Callable[[HandRecord], Any] | None = None
