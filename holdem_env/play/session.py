"""A play session: one person against bots at one table, hand after hand, on the engine.

Every rule (who acts, legal actions, the minimum raise, pots, showdown, showing order,
winners) is decided by :class:`holdem_env.engine.state.HandState`; this module only
keeps the session (stacks carried from hand to hand, top-ups of broke players, the clock,
the hand log, the results) and builds what the person's seat may see
(:meth:`PlaySession.view`). Hidden cards never enter a view: other players' hole cards
appear only once the engine has shown them at showdown.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from holdem_env.agents.base import AgentError
from holdem_env.engine.actions import ActionKind, Street, pot_fraction_raise_to
from holdem_env.engine.cards import card_str
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, HandOverError, IllegalActionError
from holdem_env.engine.handname import HandDescription, describe_hand
from holdem_env.engine.pots import build_pots
from holdem_env.engine.record import (
    ActionEvent,
    DealEvent,
    HandRecord,
    MuckEvent,
    ShowEvent,
    UncalledBetReturned,
)
from holdem_env.engine.state import HandState
from holdem_env.engine.table import Table
from holdem_env.formats.phh import dumps_all, from_record
from holdem_env.play.bots import DEFAULT_OPPONENTS, BotSeats

__all__ = ["DEFAULT_OPPONENTS", "BOT_NAMES", "HUMAN_SEAT", "PlayConfig", "PlaySession", "redacted_record"]

#: Seat names of the bots: they say nothing about who plays how.
BOT_NAMES = ("Ada", "Bea", "Cal", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy")
#: The person always sits in seat 0 (drawn at the bottom of the table).
HUMAN_SEAT = 0
#: The session chart sends at most this many points (the latest).
_CHART_POINTS = 2000
#: The largest amount of chips the session accepts in an action (far above any stack).
MAX_CHIPS = 10**12


def _finite(name: str, value: Any, lo: float, hi: float) -> float:
    ok = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value) and lo <= value <= hi
    if not ok:
        raise ConfigError(name, value, f"must be a number of seconds in {lo:g}..{hi:g}")
    return float(value)


@dataclass(frozen=True)
class PlayConfig:
    """How a play table is set up.

    ``players``: seats (2..10), one of them the person. ``opponents``: one agent spec per
    bot seat (``players - 1`` of them); ``None`` takes :data:`DEFAULT_OPPONENTS` (repeated
    or cut to fit). ``clock``: seconds per decision of the person, ``0`` for no clock.
    ``bot_delay``: seconds a bot waits before acting, so a person can follow. ``seed``:
    seeds the deck, the seating of the bots and their generators.

    >>> PlayConfig().opponents
    ('tag(tightness=0.75)', 'lag', 'calling-station', 'tight-passive(play=0.24)', 'cfr-lite')
    >>> PlayConfig(players=3, opponents=("tag",))
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: opponents=('tag',) is invalid: must be 2 agent specs (one per bot seat)
    """

    players: int = 6
    opponents: tuple[str, ...] | None = None
    small_blind: int = 5
    big_blind: int = 10
    buy_in: int = 1000
    clock: float = 30.0
    bot_delay: float = 0.8
    seed: int | None = None

    def __post_init__(self) -> None:
        players = self.players
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
            raise ConfigError("players", players, "must be an integer in 2..10 (you and 1..9 bots)")
        table = self.table_config()  # checks players, blinds and buy-in
        n = table.num_players
        opponents = self.opponents
        if opponents is None:
            opponents = tuple(DEFAULT_OPPONENTS[i % len(DEFAULT_OPPONENTS)] for i in range(n - 1))
        if isinstance(opponents, str) or not all(isinstance(o, str) and o.strip() for o in opponents):
            raise ConfigError("opponents", self.opponents, "must be a sequence of agent spec strings")
        opponents = tuple(o.strip() for o in opponents)
        if len(opponents) != n - 1:
            raise ConfigError("opponents", opponents, f"must be {n - 1} agent specs (one per bot seat)")
        object.__setattr__(self, "opponents", opponents)
        object.__setattr__(self, "clock", _finite("clock", self.clock, 0.0, 3600.0))
        object.__setattr__(self, "bot_delay", _finite("bot_delay", self.bot_delay, 0.0, 60.0))
        seed = self.seed
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise ConfigError("seed", seed, "must be an integer >= 0 or None")

    def table_config(self) -> TableConfig:
        """The engine's table configuration (no-limit)."""
        clock = self.clock if isinstance(self.clock, (int, float)) and self.clock > 0 else 30.0
        return TableConfig(
            num_players=self.players,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            buy_in=self.buy_in,
            clock_seconds=clock,
            show_all_hands=True,  # the free-play table: "the players still in show their cards"
        )


def redacted_record(record: HandRecord, seat: int) -> HandRecord:
    """``record`` as ``seat`` may see it: other players' hole cards only where shown; no seed.

    The deck order is replaced by the public cards alone being known: the hole cards
    of the others become ``None`` unless shown at showdown, and the deck and seed (which would
    give every card away) are dropped.
    """
    hole = tuple(
        cards if (s == seat or s in record.shown) else None for s, cards in enumerate(record.hole_cards)
    )
    return dataclasses.replace(record, hole_cards=hole, seed=None, deck=())


class PlaySession:
    """One person (seat :data:`HUMAN_SEAT`) against bots, hand after hand.

    Stacks carry over from hand to hand; a player who went broke is topped up to the
    buy-in before the next hand (bots too). The button moves one seat every hand
    (:class:`~holdem_env.engine.table.Table`). ``agents``: ready-built agents, one per entry
    of ``config.opponents`` (seated with them), instead of building them from the specs.
    ``clock``: the time source for the decision clock (``time.monotonic``).
    """

    def __init__(
        self,
        config: PlayConfig | None = None,
        *,
        agents: Sequence[Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config = config if config is not None else PlayConfig()
        opponents = config.opponents
        assert opponents is not None
        n = config.players
        if agents is not None and len(agents) != len(opponents):
            raise ConfigError("agents", f"{len(agents)} agents", f"must be {len(opponents)} (one per opponent)")
        root = np.random.SeedSequence(config.seed)
        table_seq, seating_seq, self._bot_seq = root.spawn(3)
        # The person is not told who is who: the bots sit in an order drawn from the seed.
        order = np.random.default_rng(seating_seq).permutation(n - 1)
        specs: list[str | None] = [None] * n
        built: list[Any] = [None] * n
        for i, k in enumerate(order):
            specs[1 + int(k)] = opponents[i]
            if agents is not None:
                built[1 + int(k)] = agents[i]
        self.names = tuple(["You"] + [BOT_NAMES[s - 1] for s in range(1, n)])
        self.bots = BotSeats(
            specs,
            small_blind=config.small_blind,
            big_blind=config.big_blind,
            buy_in=config.buy_in,
            agents=built if agents is not None else None,
        )
        self.table = Table(config.table_config(), rng=np.random.default_rng(table_seq))
        self.stacks = [config.buy_in] * n
        self.topups = [0] * n
        self.records: list[HandRecord] = []
        self.logs: list[list[str]] = []
        self._clock = clock
        self._deadline: float | None = None
        self._seen_events = 0
        self._hand: HandState | None = None
        self._paused = False
        self._paused_left: float | None = None
        self._decision = 0
        self.last_actions: list[str | None] = [None] * n
        #: The person's net result after each finished hand (the session chart), 0 first.
        self.net_history: list[int] = [0]

    # ------------------------------------------------------------------ reading
    @property
    def hand(self) -> HandState | None:
        """The current (or last) hand; ``None`` before the first deal."""
        return self._hand

    @property
    def hand_running(self) -> bool:
        """Whether a hand is dealt and not over."""
        return self._hand is not None and not self._hand.is_over

    @property
    def hand_number(self) -> int:
        """1 for the first hand dealt, 0 before it."""
        return len(self.logs)

    @property
    def actor(self) -> int | None:
        """The seat on turn (None between hands: a hand that is over has no actor)."""
        hand = self._hand
        return None if hand is None else hand.actor

    def bot_on_turn(self) -> bool:
        """Whether a bot is to act now."""
        actor = self.actor
        return actor is not None and self.bots.is_bot(actor)

    def human_on_turn(self) -> bool:
        """Whether the person is to act now."""
        return self.actor == HUMAN_SEAT

    @property
    def net(self) -> int:
        """The person's result in chips over the session (top-ups not counted as winnings)."""
        return self.stacks[HUMAN_SEAT] - self.config.buy_in - self.topups[HUMAN_SEAT]

    @property
    def hands_played(self) -> int:
        """Finished hands."""
        return len(self.records)

    @property
    def bb_per_100(self) -> float | None:
        """The person's result in big blinds per 100 hands (None before a hand has finished)."""
        if not self.records:
            return None
        return self.net / self.config.big_blind / self.hands_played * 100.0

    def clock_left(self) -> float | None:
        """Seconds left on the person's clock (None when no clock runs; frozen while paused)."""
        if self._paused_left is not None:
            return self._paused_left
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - self._clock())

    @property
    def clock_paused(self) -> bool:
        """Whether the person's clock is paused (no page is connected): it cannot run out."""
        return self._paused

    def pause_clock(self) -> None:
        """Stop the person's clock where it is, now and for later turns, until :meth:`resume_clock`."""
        self._paused = True
        if self._deadline is not None:
            self._paused_left = max(0.0, self._deadline - self._clock())
            self._deadline = None

    def resume_clock(self) -> None:
        """Run the person's clock on from where it was paused; idempotent."""
        self._paused = False
        if self._paused_left is not None:
            self._deadline = self._clock() + self._paused_left
            self._paused_left = None

    @property
    def decision(self) -> int:
        """The number of the person's current decision (it grows by one with each new turn; 0 before any)."""
        return self._decision

    # ------------------------------------------------------------------ playing
    def start_hand(self, deck: Sequence[int | str] | None = None) -> HandState:
        """Top up broke players, then deal the next hand (``deck``: a stacked deck, for tests).

        Raises :class:`IllegalActionError` while the current hand is not over.
        """
        if self.hand_running:
            raise IllegalActionError("the current hand is not over: finish it before dealing the next")
        lines: list[str] = []
        pending_topups = [s for s in range(len(self.stacks)) if self.stacks[s] == 0]
        stacks = list(self.stacks)
        for s in pending_topups:
            stacks[s] = self.config.buy_in
        hand = self.table.start_hand(deck=deck, stacks=stacks)  # raises before anything changes
        self.logs.append(lines)
        lines.append(f"Hand #{self.hand_number}: {self.names[hand.button]} {_verb(hand.button, 'have', 'has')} the button")
        for s in pending_topups:
            self.topups[s] += self.config.buy_in
            lines.append(f"{self.names[s]} {'are' if s == HUMAN_SEAT else 'is'} topped up to {self.config.buy_in:,}")
        self.stacks = stacks
        self._hand = hand
        self._seen_events = 0
        self.last_actions = [None] * len(stacks)
        rngs = [np.random.default_rng(s) for s in self._bot_seq.spawn(len(self.stacks))]
        for problem in self.bots.start_hand(hand, rngs):
            lines.append(problem)
        for s, tag in ((hand.small_blind_seat, "small blind"), (hand.big_blind_seat, "big blind")):
            posted = hand.blinds[s]
            if posted:
                lines.append(f"{self.names[s]} {'post' if s == HUMAN_SEAT else 'posts'} the {tag} {posted}")
        mine = hand.hole_cards[HUMAN_SEAT]
        if mine is not None:
            lines.append("Your cards: " + " ".join(card_str(c) for c in mine))
        self._after_change()
        return hand

    def _check_turn(self, seat: int) -> HandState:
        hand = self._hand
        if hand is None:
            raise HandOverError("no hand is being played: deal one first")
        if hand.is_over:
            raise HandOverError("the hand is over: deal the next one")
        if hand.actor != seat:
            whose = "your" if seat == HUMAN_SEAT else f"{self.names[seat]}'s"
            actor = "you are" if hand.actor == HUMAN_SEAT else f"{self.names[hand.actor]} is"  # type: ignore[index]
            raise IllegalActionError(f"it is not {whose} turn: {actor} to act")
        return hand

    def act(
        self, kind: str, amount: int | None = None, *, seat: int = HUMAN_SEAT, decision: int | None = None,
    ) -> ActionEvent:
        """Play ``kind`` (``fold``, ``check``, ``call``, ``raise`` to ``amount``, ``allin``) for ``seat``.

        ``decision``: the person's decision this action answers (:attr:`decision`, sent in
        the view); an action for a decision that is over (a stale or repeated click) is
        refused. The engine checks the action; anything illegal raises
        :class:`IllegalActionError` with the engine's reason and changes nothing.
        """
        if decision is not None and seat == HUMAN_SEAT and (decision != self._decision or not self.human_on_turn()):
            now = f"decision #{self._decision} is on" if self.human_on_turn() else "it is not your turn now"
            raise IllegalActionError(
                f"that action was for decision #{decision}, which is over ({now}): it was not applied"
            )
        hand = self._check_turn(seat)
        if kind == "raise":
            if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_CHIPS:
                raise IllegalActionError(f"a raise needs a whole number of chips as its amount, got {amount!r}")
            event = hand.raise_to(amount)
        elif amount is not None:
            raise IllegalActionError(f"{kind!r} takes no amount (got {amount!r}); only 'raise' does")
        elif kind == "fold":
            event = hand.fold()
        elif kind == "check":
            event = hand.check()
        elif kind == "call":
            event = hand.call()
        elif kind == "allin":
            event = hand.all_in()
        else:
            raise IllegalActionError(f"unknown action {kind!r}: use fold, check, call, raise or allin")
        self._applied(event)
        return event

    def timeout(self) -> ActionEvent:
        """The person's clock ran out: check if free, else fold (the engine's ``timeout``)."""
        hand = self._check_turn(HUMAN_SEAT)
        event = hand.timeout()
        self._applied(event)
        return event

    def expire_clock(self) -> ActionEvent | None:
        """Apply :meth:`timeout` if the person's clock has run out; return its event, else None."""
        left = self.clock_left()
        if self._paused or left is None or left > 0 or not self.human_on_turn():
            return None
        return self.timeout()

    def bot_act(self) -> ActionEvent:
        """Let the bot on turn act (raises :class:`IllegalActionError` if a person is on turn)."""
        actor = self.actor
        if actor is None or not self.bots.is_bot(actor):
            raise IllegalActionError("no bot is on turn")
        hand = self._check_turn(actor)
        try:
            action = self.bots.decide(actor)
        except AgentError as exc:
            # A researcher's own bot may fail; the table goes on as if its clock ran out.
            self.logs[-1].append(f"{self.names[actor]}'s bot failed ({exc}); it checks or folds")
            event = hand.timeout()
        else:
            event = hand.act(action)
        self._applied(event)
        return event

    def _applied(self, event: ActionEvent) -> None:
        self.bots.mirror(event)
        self._after_change()

    def _after_change(self) -> None:
        """Log new engine events, settle a finished hand, restart the clock on the person's turn."""
        hand = self._hand
        assert hand is not None
        lines = self.logs[-1]
        for ev in hand.events_since(self._seen_events):
            lines.append(self._describe(ev, hand))
        self._seen_events = hand.num_events
        if hand.is_over:
            self._deadline = self._paused_left = None
            self._settle(hand, lines)
        elif hand.actor == HUMAN_SEAT:
            self._decision += 1
            self._deadline = self._paused_left = None
            if self.config.clock > 0:
                if self._paused:
                    self._paused_left = self.config.clock
                else:
                    self._deadline = self._clock() + self.config.clock
        else:
            self._deadline = self._paused_left = None

    def _settle(self, hand: HandState, lines: list[str]) -> None:
        final = hand.final_stacks
        assert final is not None
        for i, pot in enumerate(hand.pots):
            label = _pot_label(i, len(hand.pots))
            names = _join([self.names[w] for w in pot.winners])
            what = "" if not hand.shown else f" with {self._describe_seat(hand, pot.winners[0]).name}"
            if len(pot.winners) == 1:
                verb = _verb(pot.winners[0], "win", "wins")
                lines.append(f"{names} {verb} the {label} ({pot.amount:,}){what}")
            else:
                shares = _join([f"{x:,}" for x in pot.shares])
                lines.append(f"{names} split the {label} ({pot.amount:,}: {shares}){what}")
        self.stacks = list(final)
        self.records.append(hand.record())
        self.net_history.append(self.net)
        for problem in self.bots.end_hand(hand, self.table_shown(hand)):
            lines.append(problem)

    @staticmethod
    def table_shown(hand: HandState) -> dict[int, tuple[int, ...]]:
        """The hands shown at this table: at a showdown, every player still in shows (the table is
        set with the engine's ``show_all_hands``, docs/RULES.md). No showdown (everyone else
        folded): nothing is shown."""
        return dict(hand.shown) if hand.is_over else {}

    def _describe_seat(self, hand: HandState, seat: int) -> HandDescription:
        hole = hand.hole_cards[seat]
        assert hole is not None
        return describe_hand([*hole, *hand.board])

    def _describe(self, ev: object, hand: HandState) -> str:
        if isinstance(ev, ActionEvent):
            you = ev.seat == HUMAN_SEAT
            name = self.names[ev.seat]
            kind = ActionKind(ev.kind)
            if kind is ActionKind.FOLD:
                text, short = ("fold" if you else "folds"), "Fold"
            elif kind is ActionKind.CHECK:
                text, short = ("check" if you else "checks"), "Check"
            elif kind is ActionKind.CALL:
                text, short = f"{'call' if you else 'calls'} {ev.amount:,}", f"Call {ev.amount:,}"
            elif kind is ActionKind.BET:
                text, short = f"{'bet' if you else 'bets'} {ev.to:,}", f"Bet {ev.to:,}"
            else:
                text, short = f"{'raise' if you else 'raises'} to {ev.to:,}", f"Raise to {ev.to:,}"
            if ev.all_in:
                text += " (all in)"
                short = f"All in {ev.to:,}" if kind is not ActionKind.CALL else f"All in (call {ev.amount:,})"
            if ev.timeout:
                short += " (time)"
            self.last_actions[ev.seat] = short
            if ev.timeout:
                text += " (time ran out)"
            return f"{name} {text}"
        if isinstance(ev, DealEvent):
            for s in range(len(self.last_actions)):  # a new street: the seats still to act start afresh
                if not hand.folded[s] and not hand.is_all_in[s]:
                    self.last_actions[s] = None
            street = {Street.FLOP: "Flop", Street.TURN: "Turn", Street.RIVER: "River"}.get(Street(ev.street), "Board")
            return f"{street}: " + " ".join(card_str(c) for c in ev.cards)
        if isinstance(ev, UncalledBetReturned):
            return f"Uncalled {ev.amount:,} returned to {self.names[ev.seat]}"
        if isinstance(ev, (ShowEvent, MuckEvent)):  # a MuckEvent only where a table is not show-all
            hole = hand.hole_cards[ev.seat]
            assert hole is not None
            cards = " ".join(card_str(c) for c in hole)
            verb = _verb(ev.seat, "show", "shows")
            return f"{self.names[ev.seat]} {verb} {cards}: {self._describe_seat(hand, ev.seat).name}"
        return repr(ev)  # pragma: no cover - the engine has no other events

    # ------------------------------------------------------------------ the person's view
    def _visible_cards(self, hand: HandState, seat: int, viewer: int) -> list[str] | None:
        """The cards of ``seat`` that ``viewer`` may see: its own, or cards shown at showdown."""
        if seat == viewer or seat in self.table_shown(hand):
            cards = hand.hole_cards[seat]
            return None if cards is None else [card_str(c) for c in cards]
        return None

    def _legal_view(self, hand: HandState) -> dict[str, Any]:
        legal = hand.legal_actions()
        seat = legal.seat
        lo, hi = legal.min_raise_to, legal.max_raise_to
        out: dict[str, Any] = {
            "fold": legal.fold,
            "check": legal.check,
            "call": legal.call,
            "min_raise_to": lo,
            "max_raise_to": hi,
            "all_in_to": hand.street_bets[seat] + hand.stacks[seat],
            "presets": None,
        }
        if lo is not None and hi is not None:

            def preset(fraction: float) -> int:  # the pot-fraction raise, clamped into the legal range
                to = pot_fraction_raise_to(fraction, pot=hand.pot, current_bet=hand.current_bet, call=legal.call)
                return min(hi, max(lo, to))

            out["presets"] = {"min": lo, "half": preset(0.5), "pot": preset(1.0), "allin": hi}
        return out

    def view(self, viewer: int = HUMAN_SEAT) -> dict[str, Any]:
        """What ``viewer`` may see now, as JSON-ready data (the only thing the page receives).

        Other seats' hole cards are present only once shown at showdown; mucked and
        folded hands stay hidden (``cards`` None, ``has_cards`` tells the page to draw backs).
        """
        cfg = self.config
        hand = self._hand
        seats: list[dict[str, Any]] = []
        n = cfg.players
        out: dict[str, Any] = {
            "type": "state",
            "hand": self.hand_number,
            "players": n,
            "you": viewer,
            "blinds": [cfg.small_blind, cfg.big_blind],
            "buy_in": cfg.buy_in,
            "seats": seats,
            "board": [],
            "pots": [],
            "pot_total": 0,
            "street": None,
            "actor": None,
            "button": None,
            "current_bet": 0,
            "legal": None,
            "clock": cfg.clock,
            "clock_left": None,
            "clock_paused": self._paused,
            "decision": None,
            "hand_over": hand is None or hand.is_over,
            "results": None,
            "log": list(self.logs[-1]) if self.logs else [],
            "session": {
                "hands": self.hands_played,
                "net": self.net,
                "bb_per_100": None if self.bb_per_100 is None else round(self.bb_per_100, 1),
                "chart": self.net_history[-_CHART_POINTS:],
                "chart_first_hand": max(0, len(self.net_history) - _CHART_POINTS),
            },
        }
        if hand is None:
            for s in range(n):
                seats.append({"name": self.names[s], "stack": self.stacks[s], "bet": 0, "folded": False,
                              "all_in": False, "in_hand": False, "has_cards": False, "cards": None, "tags": [],
                              "last_action": None})
            return out
        over = hand.is_over
        shown = self.table_shown(hand)
        for s in range(n):
            tags = []
            if s == hand.button:
                tags.append("BTN")
            if s == hand.small_blind_seat and hand.blinds[s]:
                tags.append("SB")
            if s == hand.big_blind_seat and hand.blinds[s]:
                tags.append("BB")
            dealt = hand.dealt_in[s]
            seats.append({
                "name": self.names[s],
                "stack": hand.stacks[s],
                "bet": 0 if over else hand.street_bets[s],
                "folded": dealt and hand.folded[s],
                "all_in": dealt and hand.is_all_in[s],
                "in_hand": dealt,
                "has_cards": dealt and not hand.folded[s],
                "cards": self._visible_cards(hand, s, viewer) if dealt else None,
                "tags": tags,
                "last_action": self.last_actions[s],
            })
        out["board"] = [card_str(c) for c in hand.board]
        out["button"] = hand.button
        if over:
            out["pots"] = [
                {"label": _pot_label(i, len(hand.pots)), "amount": p.amount, "winners": list(p.winners),
                 "shares": list(p.shares)}
                for i, p in enumerate(hand.pots)
            ]
            out["pot_total"] = sum(p.amount for p in hand.pots)
            results_shown: dict[str, Any] = {}
            for s, cards in shown.items():
                described = self._describe_seat(hand, s)
                results_shown[str(s)] = {"cards": [card_str(c) for c in cards], "hand": described.name,
                                         "best": list(described.card_strs)}
            out["results"] = {"payoffs": list(hand.payoffs or ()), "shown": results_shown}
        else:
            behind = [c - b for c, b in zip(hand.contributions, hand.street_bets, strict=True)]
            in_hand = [d and not f for d, f in zip(hand.dealt_in, hand.folded, strict=True)]
            layers = build_pots(behind, in_hand, hand.is_all_in)
            out["pots"] = [
                {"label": _pot_label(i, len(layers)), "amount": amount, "winners": None, "shares": None}
                for i, (amount, _) in enumerate(layers)
            ]
            out["pot_total"] = hand.pot
            out["street"] = Street(hand.street).name.lower()
            out["actor"] = hand.actor
            out["current_bet"] = hand.current_bet
            if hand.actor == viewer:
                out["legal"] = self._legal_view(hand)
                out["decision"] = self._decision
                left = self.clock_left()
                out["clock_left"] = None if left is None else round(left, 2)
        return out

    def history_logs(self) -> list[list[str]]:
        """Every hand's log lines so far (the last one may still be running)."""
        return [list(lines) for lines in self.logs]

    def hand_history_phhs(self, viewer: int = HUMAN_SEAT) -> str:
        """The finished hands as a ``.phhs`` text, as ``viewer`` saw them (unshown cards unknown)."""
        n = self.config.players
        hands = []
        for i, record in enumerate(self.records, start=1):
            order = [(record.button + k) % n for k in range(1, n + 1)]
            players = [self.names[s] for s in order if record.dealt_in[s]]
            hands.append(from_record(redacted_record(record, viewer), players=players, name=f"hand-{i}"))
        return dumps_all(hands)


def _pot_label(index: int, count: int) -> str:
    if index == 0:
        return "main pot" if count > 1 else "pot"
    return f"side pot {index}" if count > 2 else "side pot"


def _verb(seat: int, you: str, other: str) -> str:
    """The verb for ``seat``: ``you`` for the person ("You have"), ``other`` for a bot ("Ada has")."""
    return you if seat == HUMAN_SEAT else other


def _join(words: Sequence[str]) -> str:
    """``["You"]`` -> ``"You"``; ``["You", "Ada", "Bea"]`` -> ``"You, Ada and Bea"``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
