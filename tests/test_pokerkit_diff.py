"""Differential test: our engine against PokerKit 0.7.7 on random hands (1,100 in the suite, 10,000 by script).

Each hand is played by OUR engine with a seeded random policy biased toward all-ins,
on a table of 2-10 seats with unequal stacks (some below the blinds), antes (uniform or
big-blind-only) and odd blinds. The same cards (burns included) and actions are then replayed in PokerKit
(driver: ``pokerkit_oracle.py``). At every decision the two legal-action sets must agree
(fold, check, call amount, raise-to interval: this checks every alternative, not just
the action taken), PokerKit must accept every action, and the final stacks must agree.

Where PokerKit deviates from docs/RULES.md the difference is recognised and the hand is
counted under that reason instead of as an exact agreement. A legal-set difference is
excused only where an independent docs/RULES.md reading of the street (``rules_view``) sides
with our engine; the final stacks of such hands are still compared. The deviations,
each pinned by a named test in ``test_pokerkit_deviations.py``:

- ``short big blind``: PokerKit lets the others call the short post instead of the full
  big blind (and starts the action from it); detected before any action, not replayed.
- ``short all-in reopens preflop``: PokerKit does not count the big blind as the first
  full bet, so a short all-in over it counts as a full raise and reopens the betting.
- ``short all-in opening bet reopens``: the same after a postflop opening bet below one
  big blind that is an all-in.
- ``several short all-ins reopen``: PokerKit sums consecutive short all-ins since its
  last full raise instead of measuring from the bet each player last matched.
- ``raise nobody can answer``: PokerKit refuses a raise when no other player could put
  in more than the current bet; docs/RULES.md allows it and the excess comes back uncalled,
  so the replay uses a call there (same stacks).
- ``odd chips``: PokerKit kills losing hands, merges pots that are left with the same
  contenders and gives a pot's whole remainder to its first winner; docs/RULES.md splits each
  pot on its own, odd chips one at a time. Excused only if PokerKit's stacks are exactly
  our pots paid out PokerKit's way (``pokerkit_style_split``).

PokerKit also asks the last player with chips for a check when everyone else is all-in
and nothing is owed; our engine deals the board out instead. That check has no
alternative and is applied silently (counted as "forced checks").

Anything else fails with a readable report (seed, table, cards, actions, both sides).
Run ``pytest tests/test_pokerkit_diff.py -s`` to see the counts. The suite plays the first
:data:`SUITE_HANDS` + 100 seeds; ``python benchmarks/pokerkit_differential.py`` plays the
full :data:`N_HANDS` with the same checks (benchmarks/BENCHMARKS.md has its counts).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pytest
from pokerkit_oracle import (
    OracleSetup,
    PokerKitHand,
    PokerKitRefusedError,
    pk_index,
    replay_actions,
    seat_of,
)

from holdem_env.engine.actions import Action, LegalActions, Street
from holdem_env.engine.cards import format_cards
from holdem_env.engine.config import TableConfig
from holdem_env.engine.record import DealEvent
from holdem_env.engine.state import HandState

N_HANDS = 10_000  # the full run: benchmarks/pokerkit_differential.py
SUITE_HANDS = 1_000  # the suite's seeded sample: seeds 100 .. 1,099 (the first hundred have their own test)
BASE_SEED = 20_261_130
BLINDS = ((1, 2), (5, 10), (2, 5), (3, 7), (25, 50), (1, 3))

SHORT_BB = "short big blind"
REOPEN_PREFLOP = "short all-in reopens preflop"
REOPEN_OPENING_BET = "short all-in opening bet reopens"
REOPEN_COMBINED = "several short all-ins reopen"
RAISE_UNANSWERABLE = "raise nobody can answer"
ODD_CHIPS = "odd chips"


# -- generating hands with our engine ------------------------------------------------------


def random_table(rng: np.random.Generator) -> tuple[TableConfig, int, tuple[int, ...]]:
    """A random table: seats, blinds, ante, button and unequal stacks (some below the blinds)."""
    n = int(rng.integers(2, 11))
    sb, bb = BLINDS[int(rng.integers(len(BLINDS)))]
    ante = 0 if rng.random() < 0.6 else int(rng.integers(1, max(2, bb // 2 + 1)))
    big_blind_ante = ante > 0 and rng.random() < 0.25
    stacks = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.2:
            stacks.append(int(rng.integers(1, 2 * bb + ante + 1)))  # at or below the forced bets
        elif kind < 0.5:
            stacks.append(int(rng.integers(2 * bb, 15 * bb + 1)))
        elif kind < 0.8:
            stacks.append(int(rng.integers(15 * bb, 60 * bb + 1)))
        else:
            stacks.append(int(rng.integers(60 * bb, 200 * bb + 1)))
    config = TableConfig(
        num_players=n, small_blind=sb, big_blind=bb, ante=ante, big_blind_ante=big_blind_ante, buy_in=max(stacks)
    )
    return config, int(rng.integers(n)), tuple(stacks)


def random_action(rng: np.random.Generator, la: LegalActions) -> Action:
    """A seeded random choice among the legal actions, biased toward all-ins."""
    r = rng.random()
    if la.can_raise:
        lo, hi = la.min_raise_to, la.max_raise_to
        assert lo is not None and hi is not None
        if r < 0.22:
            return Action.raise_to(hi)
        if r < 0.32:
            return Action.raise_to(lo)
        if r < 0.40:
            return Action.raise_to(int(rng.integers(lo, hi + 1)))
    if la.fold and r > 0.82:
        return Action.fold()
    if la.check:
        return Action.check()
    if la.call > 0:
        return Action.call()
    assert la.fold, f"no action available: {la}"
    return Action.fold()


def short_big_blind(config: TableConfig, button: int, stacks: Sequence[int]) -> bool:
    """Whether the big blind's post is short (docs/RULES.md: the others still owe a full big blind)."""
    n = len(stacks)
    bb_seat = (button + 1) % n if n == 2 else (button + 2) % n
    return stacks[bb_seat] - min(config.ante, stacks[bb_seat]) < config.big_blind


@dataclass
class Decision:
    """One decision of our engine: who, on which street, what was legal, what was done."""

    seat: int
    street: int
    legal: LegalActions
    action: Action
    kind: str  # the recorded kind ("bet"/"raise"/"call"/"check"/"fold")
    to: int  # the seat's street total after the action
    all_in: bool
    answerable: bool  # some other player in the hand could put in more than the current bet


@dataclass
class PlayedHand:
    """A finished hand of our engine plus what the oracle needs to replay it."""

    seed: int
    config: TableConfig
    button: int
    stacks: tuple[int, ...]
    state: HandState
    decisions: list[Decision] = field(default_factory=list)

    def setup(self) -> OracleSetup:
        """The oracle's view: stacks, blinds, ante, cards, burns and board."""
        st = self.state
        burns = tuple(int(ev.burn) for ev in st.events if isinstance(ev, DealEvent) and ev.burn is not None)
        return OracleSetup(
            button=self.button,
            starting_stacks=self.stacks,
            small_blind=self.config.small_blind,
            big_blind=self.config.big_blind,
            ante=self.config.ante,
            big_blind_ante=self.config.big_blind_ante,
            hole_cards=tuple(tuple(int(c) for c in st.hole_cards[s]) for s in range(len(self.stacks))),  # type: ignore[misc]
            board=tuple(int(c) for c in st.board),
            burns=burns,
        )

    def describe(self) -> str:
        """A readable dump for failure messages."""
        st = self.state
        c = self.config
        lines = [
            f"seed={self.seed} players={c.num_players} button={self.button} blinds={c.small_blind}/{c.big_blind} "
            f"ante={c.ante}{' (big blind only)' if c.big_blind_ante else ''}",
            f"stacks={list(self.stacks)}",
            "hole=" + " ".join(f"{s}:{format_cards(st.hole_cards[s])}" for s in range(c.num_players)),
            f"board={format_cards(st.board)}",
            "actions:",
        ]
        for i, d in enumerate(self.decisions):
            amt = f" to {d.to}" if d.kind in ("bet", "raise") else ""
            all_in = " (all-in)" if d.all_in else ""
            street = Street(d.street).name.lower()
            lines.append(f"  #{i} {street} seat {d.seat}: {d.kind}{amt}{all_in}  [ours: {d.legal}]")
        lines.append(f"our final stacks={list(st.final_stacks)}")
        return "\n".join(lines)


def play_our_hand(seed: int) -> PlayedHand:
    """Play one random hand to the end with our engine."""
    rng = np.random.default_rng([BASE_SEED, seed])
    config, button, stacks = random_table(rng)
    state = HandState(config, button=button, stacks=list(stacks), rng=rng)
    hand = PlayedHand(seed, config, button, stacks, state)
    while not state.is_over:
        la = state.legal_actions()
        cb = state.current_bet
        answerable = any(
            s != la.seat and not state.folded[s] and state.stacks[s] + state.street_bets[s] > cb
            for s in range(config.num_players)
        )
        action = random_action(rng, la)
        ev = state.act(action)
        kind = ev.kind.value if hasattr(ev.kind, "value") else str(ev.kind)
        hand.decisions.append(
            Decision(la.seat, int(ev.street), la, action, kind, int(ev.to), bool(ev.all_in), answerable)
        )
    return hand


# -- classifying differences ---------------------------------------------------------------


@dataclass(frozen=True)
class RulesView:
    """The betting on the street of one decision, re-derived from the actions by docs/RULES.md alone.

    ``shorts``: increments of the short all-in raises before the decision; ``opening_short``:
    the street's first bet (postflop) was such an all-in below one big blind; ``reopened``:
    the player to act may raise (has not acted on this street, or the bet grew by at least the
    last full increment since they last matched or made one).
    """

    street: int
    current_bet: int
    last_full: int
    shorts: tuple[int, ...]
    opening_short: bool
    reopened: bool


def rules_view(hand: PlayedHand, index: int) -> RulesView:
    """:class:`RulesView` for decision ``index`` (independent of the engine's own bookkeeping)."""
    bb = hand.config.big_blind
    decision = hand.decisions[index]
    street = decision.street
    current = bb if street == Street.PREFLOP else 0
    last_full = bb
    shorts: list[int] = []
    opening_short = False
    matched: dict[int, int] = {}
    for d in hand.decisions[:index]:
        if d.street != street:
            continue
        if d.kind in ("bet", "raise"):
            inc = d.to - current
            if inc >= last_full:
                last_full = inc
            else:
                shorts.append(inc)
                opening_short = opening_short or current == 0
            current = max(current, d.to)
        matched[d.seat] = current
    seat = decision.seat
    reopened = seat not in matched or current - matched[seat] >= last_full
    return RulesView(street, current, last_full, tuple(shorts), opening_short, reopened)


def classify_legal_diff(hand: PlayedHand, index: int, ours: LegalActions, theirs: LegalActions) -> str | None:
    """The documented deviation that explains a legal-set difference at decision ``index``, or None.

    Only the permission to raise may differ, and only where an independent docs/RULES.md reading
    (:func:`rules_view`) sides with our engine; any other difference is unexplained.
    """
    if (ours.fold, ours.check, ours.call) != (theirs.fold, theirs.check, theirs.call):
        return None
    ours_raise, pk_raise = ours.min_raise_to is not None, theirs.min_raise_to is not None
    if ours_raise == pk_raise:
        return None  # both allow a raise but disagree on its bounds
    view = rules_view(hand, index)
    if ours_raise:
        if not view.reopened:
            return None
        if not hand.decisions[index].answerable:
            return RAISE_UNANSWERABLE
        if len(view.shorts) >= 2:
            return REOPEN_COMBINED
        return None
    if view.reopened or not view.shorts:
        return None
    if view.street == Street.PREFLOP:
        return REOPEN_PREFLOP
    if view.opening_short:
        return REOPEN_OPENING_BET
    return REOPEN_COMBINED


def pokerkit_style_split(hand: PlayedHand) -> tuple[int, ...]:
    """The final stacks if our engine's pots were paid out the way PokerKit pays them.

    PokerKit first kills every hand that wins nothing, then rebuilds the pots from the
    survivors (so consecutive pots left with the same contenders merge into one) and gives
    the whole remainder of each split pot to its first winner left of the button. docs/RULES.md
    splits every pot on its own and hands the odd chips out one at a time.
    """
    st = hand.state
    n = st.num_seats
    final = [int(x) for x in st.final_stacks]
    for pot in st.pots:
        for w, share in zip(pot.winners, pot.shares, strict=True):
            final[w] -= share
    survivors = {w for pot in st.pots for w in pot.winners}
    merged: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    for pot in st.pots:
        contenders = tuple(s for s in pot.eligible if s in survivors)
        if merged and merged[-1][1] == contenders:
            amount, _, winners = merged.pop()
            assert winners == tuple(pot.winners)
            merged.append((amount + pot.amount, contenders, winners))
        else:
            merged.append((pot.amount, contenders, tuple(pot.winners)))
    for amount, _, winners in merged:
        order = sorted(winners, key=lambda s: pk_index(s, hand.button, n))
        base, odd = divmod(amount, len(order))
        for w in order:
            final[w] += base
        final[order[0]] += odd
    return tuple(final)


def rules_shares_ok(hand: PlayedHand) -> bool:
    """Whether every pot of ours is split as docs/RULES.md says: equal shares, then odd chips one at a
    time to the tied winners in seat order from the first seat left of the button."""
    n = hand.state.num_seats
    for pot in hand.state.pots:
        order = sorted(pot.winners, key=lambda s: (s - hand.button - 1) % n)
        base, odd = divmod(pot.amount, len(order))
        expected = {w: base + (k < odd) for k, w in enumerate(order)}
        if dict(zip(pot.winners, pot.shares, strict=True)) != expected:
            return False
    return True


def classify_stack_diff(hand: PlayedHand, ours: Sequence[int], theirs: Sequence[int]) -> str | None:
    """``ODD_CHIPS`` when our pots are split per docs/RULES.md and PokerKit's stacks are exactly those
    pots paid out PokerKit's way; otherwise None."""
    if tuple(theirs) != tuple(ours) and rules_shares_ok(hand) and tuple(theirs) == pokerkit_style_split(hand):
        return ODD_CHIPS
    return None


def _legal_diff_text(ours: LegalActions, theirs: LegalActions) -> str:
    return (
        f"ours: fold={ours.fold} check={ours.check} call={ours.call} raise={ours.min_raise_to}..{ours.max_raise_to}\n"
        f"PK:   fold={theirs.fold} check={theirs.check} call={theirs.call} raise={theirs.min_raise_to}..{theirs.max_raise_to}"
    )


@dataclass
class Outcome:
    """How one hand compared.

    ``reasons``: the documented deviations met (empty: everything agreed strictly).
    ``stacks_compared``: the final stacks were checked (every hand PokerKit could replay).
    """

    reasons: set[str] = field(default_factory=set)
    failure: str | None = None
    stacks_compared: bool = False
    pots: int = 0
    short_allins: int = 0
    forced_checks: int = 0


def _forced_checks(pk: PokerKitHand, our_actor: int | None) -> int:
    """Check for PokerKit's actor while it is not ours and checking is all it may do.

    With everyone else all-in and nothing owed, our engine deals the board out (docs/RULES.md:
    nobody can bet against anybody) while PokerKit still asks that player for a check that
    has no alternative. Applying it changes nothing; anything else is left for the caller.
    """
    count = 0
    while not pk.is_over and pk.actor is not None and pk.actor != our_actor:
        theirs = pk.legal()
        if not (theirs.check and not theirs.fold and theirs.min_raise_to is None):
            break
        pk.act(theirs.seat, "check")
        count += 1
    return count


def compare_hand(seed: int) -> Outcome:
    """Play hand ``seed`` in our engine, replay it in PokerKit and compare everything."""
    try:
        hand = play_our_hand(seed)
    except Exception as exc:  # an engine crash is a finding too: report the seed
        return Outcome(failure=f"seed={seed}: our engine raised {type(exc).__name__}: {exc}")
    out = Outcome(pots=len(hand.state.pots))
    if hand.decisions:
        for i, d in enumerate(hand.decisions):
            if d.kind in ("bet", "raise"):
                view = rules_view(hand, i)
                out.short_allins += d.to < view.current_bet + view.last_full
    if short_big_blind(hand.config, hand.button, hand.stacks):
        out.reasons.add(SHORT_BB)
        return out
    pk = PokerKitHand(hand.setup())
    for i, d in enumerate(hand.decisions):
        out.forced_checks += _forced_checks(pk, d.seat)
        if pk.actor != d.seat:
            out.failure = f"decision #{i}: we have seat {d.seat} to act, PokerKit has seat {pk.actor}\n{hand.describe()}"
            return out
        theirs = pk.legal()
        ours = d.legal
        if (ours.fold, ours.check, ours.call, ours.min_raise_to, ours.max_raise_to) != (
            theirs.fold, theirs.check, theirs.call, theirs.min_raise_to, theirs.max_raise_to,
        ):
            reason = classify_legal_diff(hand, i, ours, theirs)
            if reason is None:
                out.failure = f"decision #{i}: legal actions differ\n{_legal_diff_text(ours, theirs)}\n{hand.describe()}"
                return out
            out.reasons.add(reason)
        elif ours.min_raise_to is not None:
            # Probe amounts around both ends of the interval with PokerKit's own verifier.
            lo, hi = ours.min_raise_to, ours.max_raise_to
            assert hi is not None
            for amount in {lo - 1, lo, (lo + hi) // 2, hi, hi + 1}:
                if amount > 0 and ours.allows(Action.raise_to(amount)) != pk.allows_raise_to(amount):
                    out.failure = (
                        f"decision #{i}: raise to {amount}: ours allows={ours.allows(Action.raise_to(amount))}, "
                        f"PokerKit allows={pk.allows_raise_to(amount)}\n{hand.describe()}"
                    )
                    return out
        kind = d.kind
        if kind in ("bet", "raise") and theirs.min_raise_to is None and not d.answerable:
            # PokerKit refuses a raise nobody could answer; all of it above the call comes back
            # as an uncalled bet, so a call leaves every stack where our raise does.
            kind = "call" if theirs.call > 0 else "check"
        try:
            pk.act(d.seat, kind, d.to)
        except PokerKitRefusedError as exc:
            out.failure = f"decision #{i}: {exc}\n{hand.describe()}"
            return out
    out.forced_checks += _forced_checks(pk, None)
    if not pk.is_over:
        out.failure = f"our hand is over but PokerKit still waits for seat {pk.actor}\n{hand.describe()}"
        return out
    ours_final = tuple(int(x) for x in hand.state.final_stacks)
    theirs_final = pk.final_stacks()
    out.stacks_compared = True
    if ours_final != theirs_final:
        reason = classify_stack_diff(hand, ours_final, theirs_final)
        if reason is None:
            out.failure = f"final stacks differ\nours: {list(ours_final)}\nPK:   {list(theirs_final)}\n{hand.describe()}"
            return out
        out.reasons.add(reason)
    return out


# -- tests ---------------------------------------------------------------------------------


@dataclass
class DifferentialSummary:
    """The counts of a differential run over many seeds."""

    # the outcome: hands, those that agree exactly, the documented deviations of the others, failures
    hands: int = 0
    exact: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    # the coverage: hands whose final stacks were compared, with >= 2 side pots, with a short all-in raise
    stacks_compared: int = 0
    multiway_side_pots: int = 0
    short_allin_hands: int = 0
    forced_checks: int = 0  # PokerKit-only forced checks (not hands)

    def text(self) -> str:
        """One line with every count."""
        return (
            f"PokerKit differential: {self.hands} hands; {self.exact} agree exactly (legal sets at every decision "
            f"and final stacks); final stacks compared in {self.stacks_compared}; documented deviations (hands): "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.reasons.items()))
            + f"; failures {len(self.failures)}; hands with >= 2 side pots {self.multiway_side_pots}; hands with a "
            f"short all-in raise {self.short_allin_hands}; PokerKit-only forced checks {self.forced_checks}"
        )

    def check(self) -> None:
        """No unexplained disagreement, and the generator still produces the hard cases it exists for."""
        assert not self.failures, f"{len(self.failures)} hand(s) disagree with PokerKit; first:\n{self.failures[0]}"
        assert self.exact >= self.hands // 2
        assert self.stacks_compared >= self.hands * 8 // 10
        assert self.multiway_side_pots >= self.hands // 20
        assert self.short_allin_hands >= self.hands // 20


def run_differential(seeds: Sequence[int]) -> DifferentialSummary:
    """Compare every seed's hand with PokerKit and count what happened."""
    summary = DifferentialSummary()
    for seed in seeds:
        out = compare_hand(seed)
        summary.hands += 1
        if out.failure:
            summary.failures.append(out.failure)
            continue
        summary.reasons.update(out.reasons)
        summary.exact += not out.reasons
        summary.stacks_compared += out.stacks_compared
        summary.multiway_side_pots += out.pots >= 3
        summary.short_allin_hands += out.short_allins > 0
        summary.forced_checks += out.forced_checks
    return summary


def test_seat_mapping_round_trips_and_puts_button_last() -> None:
    for n in range(2, 11):
        for button in range(n):
            assert [seat_of(pk_index(s, button, n), button, n) for s in range(n)] == list(range(n))
            assert pk_index(button, button, n) == n - 1
            assert seat_of(0, button, n) == (button + 1) % n


def test_oracle_reproduces_rules_side_pot_example() -> None:
    # docs/RULES.md: Anna 100, Ben 300, Cara 1000 all in; Anna best, Ben second.
    from holdem_env.engine.cards import parse_cards

    setup = OracleSetup(
        button=2, starting_stacks=(100, 300, 1000), small_blind=5, big_blind=10, ante=0,
        hole_cards=(parse_cards("AsAh"), parse_cards("KsKh"), parse_cards("2c7d")),  # type: ignore[arg-type]
        board=parse_cards("QcJd3h9s4c"),
    )
    assert replay_actions(setup, [(2, "raise", 1000), (0, "call", 0), (1, "call", 0)]) == (300, 400, 700)
    with pytest.raises(PokerKitRefusedError, match="expects seat 2"):
        replay_actions(setup, [(0, "call", 0)])


def test_stack_diff_outside_odd_chips_is_not_excused() -> None:
    # The classifier must not excuse a real disagreement: find a hand and corrupt PK's stacks.
    hand = play_our_hand(0)
    ours = tuple(int(x) for x in hand.state.final_stacks)
    fake = list(ours)
    fake[0] += 1
    fake[1] -= 1
    split = any(len(p.winners) >= 2 for p in hand.state.pots)
    assert split or classify_stack_diff(hand, ours, fake) is None
    assert classify_stack_diff(hand, ours, [x + 1 for x in ours]) is None


def test_legal_diff_outside_documented_deviations_is_not_excused() -> None:
    hand = play_our_hand(1)
    d = hand.decisions[0]
    la = d.legal
    assert la.min_raise_to is not None and la.call > 0
    assert classify_legal_diff(hand, 0, la, la._replace(call=la.call + 1)) is None
    assert classify_legal_diff(hand, 0, la, la._replace(min_raise_to=la.min_raise_to + 1)) is None
    # The first decision of a hand has nothing before it: a refused raise there is unexplained.
    assert classify_legal_diff(hand, 0, la, la._replace(min_raise_to=None, max_raise_to=None)) is None


def _first_failure(seeds: range) -> str | None:
    return next((o.failure for o in map(compare_hand, seeds) if o.failure), None)


def test_diff_catches_odd_chips_handed_out_against_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    # Mutant engine: the odd chips of a split pot go to the LAST winners instead of the first.
    import holdem_env.engine.state as engine_state

    real_split = engine_state.split_pot
    monkeypatch.setattr(engine_state, "split_pot", lambda *args: real_split(*args)[::-1])
    failure = _first_failure(range(400))
    assert failure is not None and failure.startswith("final stacks differ")


def test_diff_catches_a_wrong_minimum_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    # Mutant engine: every raise interval starts one chip higher than it should. The mutation
    # goes in where the engine builds its legal set, a LegalActions made by the module's
    # ``_new_tuple`` (a module global, looked up at run time: it also reaches a compiled HandState).
    import holdem_env.engine.state as engine_state

    real_new_tuple = engine_state._new_tuple

    def new_tuple(cls: type, values: tuple) -> tuple:
        if cls is LegalActions:
            seat, fold, check, call, lo, hi = values
            if lo is not None and hi is not None and lo < hi:
                lo += 1
            values = (seat, fold, check, call, lo, hi)
        return real_new_tuple(cls, values)

    monkeypatch.setattr(engine_state, "_new_tuple", new_tuple)
    failure = _first_failure(range(50))
    assert failure is not None and "legal actions differ" in failure


def test_pokerkit_agrees_on_first_hundred_hands() -> None:
    failures = [o.failure for o in map(compare_hand, range(100)) if o.failure]
    assert not failures, failures[0]


def test_pokerkit_differential_sample(record_property: pytest.RecordProperty) -> None:
    summary = run_differential(range(100, 100 + SUITE_HANDS))
    print("\n" + summary.text())
    record_property("pokerkit_diff", summary.text())
    record_property("pokerkit_exact", summary.exact)
    for key, value in summary.reasons.items():
        record_property(f"pokerkit_{key.replace(' ', '_').replace('-', '_')}", value)
    summary.check()


def test_the_summary_check_fails_on_a_failure_or_too_few_hard_cases() -> None:
    good = DifferentialSummary(hands=20, exact=10, stacks_compared=16, multiway_side_pots=1, short_allin_hands=1)
    good.check()
    for bad in (
        replace(good, failures=["final stacks differ"]),
        replace(good, exact=9),
        replace(good, stacks_compared=15),
        replace(good, multiway_side_pots=0),
        replace(good, short_allin_hands=0),
    ):
        with pytest.raises(AssertionError):
            bad.check()
