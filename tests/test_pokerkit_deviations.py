"""Where PokerKit 0.7.7 departs from docs/RULES.md: one named test per deviation.

``test_pokerkit_diff.py`` leaves these situations out of its strict comparison. Each test
below builds the exact situation, asserts what OUR engine does per docs/RULES.md, and shows
that PokerKit does something else, so the exclusion stays justified: if a PokerKit
upgrade changes its behaviour, the PokerKit half of the test fails and the exclusion
should be revisited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pokerkit_oracle import OracleSetup, PokerKitHand, PokerKitRefusedError

from holdem_env.engine.actions import Action
from holdem_env.engine.cards import new_deck, parse_cards
from holdem_env.engine.config import TableConfig
from holdem_env.engine.record import DealEvent, UncalledBetReturned
from holdem_env.engine.state import HandState


def stacked_deck(button: int, n: int, hole: Mapping[int, str], board: str = "") -> list[int]:
    """A deck order that deals ``hole[seat]`` and then ``board`` in the docs/RULES.md order.

    Hole cards go one at a time from the first seat left of the button; a card is burnt
    before the flop, the turn and the river. Unnamed cards come from the rest of the deck.
    """
    named = {seat: parse_cards(cards) for seat, cards in hole.items()}
    board_ids = parse_cards(board)
    used = {c for cards in named.values() for c in cards} | set(board_ids)
    spare = iter(c for c in new_deck() if c not in used)
    order = [(button + k) % n for k in range(1, n + 1)]
    cards_of = {s: named.get(s) or (next(spare), next(spare)) for s in order}
    deck = [cards_of[s][0] for s in order] + [cards_of[s][1] for s in order]
    for street_cards in (board_ids[:3], board_ids[3:4], board_ids[4:5]):
        if street_cards:
            deck.append(next(spare))
            deck.extend(street_cards)
    deck.extend(spare)
    return deck


def pokerkit_twin(state: HandState, config: TableConfig, stacks: Sequence[int]) -> PokerKitHand:
    """The same hand (stacks, button, blinds, cards dealt so far) in PokerKit."""
    n = config.num_players
    deck = state.deck
    k = 2 * n
    setup = OracleSetup(
        button=state.button,
        starting_stacks=tuple(stacks),
        small_blind=config.small_blind,
        big_blind=config.big_blind,
        ante=config.ante,
        hole_cards=tuple(state.hole_cards[s] for s in range(n)),  # type: ignore[misc]
        board=(deck[k + 1], deck[k + 2], deck[k + 3], deck[k + 5], deck[k + 7]),
        burns=(deck[k], deck[k + 4], deck[k + 6]),
    )
    return PokerKitHand(setup)


def play(state: HandState, twin: PokerKitHand | None, *steps: tuple[int, Action]) -> None:
    """Apply ``(seat, action)`` steps to our state (checking the seat) and to the PokerKit twin."""
    for seat, action in steps:
        assert state.actor == seat, f"expected seat {seat} to act, engine has {state.actor}"
        ev = state.act(action)
        if twin is not None:
            twin.act(seat, ev.kind.value, ev.to)


# -- big blind posted short -----------------------------------------------------------------


def test_short_big_blind_others_still_owe_the_full_big_blind() -> None:
    # Blinds 5/10; the big blind (seat 2) has only 4 chips and posts them all-in.
    config = TableConfig(num_players=3, small_blind=5, big_blind=10)
    stacks = [1000, 1000, 4]
    state = HandState(config, button=0, stacks=stacks, seed=1)
    assert state.blinds == (0, 5, 4)
    la = state.legal_actions()
    assert (la.seat, la.call, la.min_raise_to) == (0, 10, 20)  # docs/RULES.md: full BB to call, min raise to 2 BB
    play(state, None, (0, Action.call()), (1, Action.call()))
    assert state.contributions == (10, 10, 4)

    pk = pokerkit_twin(state, config, stacks).legal()
    assert pk.seat == 0
    assert pk.call == 5  # PokerKit: the bet to match is the small blind, the largest post
    assert pk.min_raise_to == 15


# -- reopening after short all-ins ------------------------------------------------------------


def test_short_allin_preflop_does_not_reopen_for_a_player_who_limped() -> None:
    # Seat 3 limps for 10; the button goes all-in for 15 (a raise of 5, less than the BB of 10).
    config = TableConfig(num_players=4, small_blind=5, big_blind=10)
    stacks = [15, 1000, 1000, 1000]
    state = HandState(config, button=0, stacks=stacks, seed=2)
    twin = pokerkit_twin(state, config, stacks)
    play(state, twin, (3, Action.call()))
    la = state.legal_actions()
    assert (la.min_raise_to, la.max_raise_to) == (15, 15)  # all-in for less than a full raise
    play(state, twin, (0, Action.raise_to(15)), (1, Action.call()))
    # The big blind has not acted yet: it may raise normally, by a full increment over 15.
    assert state.legal_actions().min_raise_to == 25
    play(state, twin, (2, Action.call()))

    ours = state.legal_actions()
    assert (ours.seat, ours.call, ours.min_raise_to, ours.max_raise_to) == (3, 5, None, None)
    with_pk = twin.legal()
    assert with_pk.call == 5
    assert with_pk.min_raise_to == 25  # PokerKit reopens the betting for the limper


def test_short_allin_opening_bet_does_not_reopen_for_a_player_who_checked() -> None:
    config = TableConfig(num_players=3, small_blind=5, big_blind=10)
    stacks = [1000, 1000, 15]
    state = HandState(config, button=0, stacks=stacks, seed=3)
    twin = pokerkit_twin(state, config, stacks)
    play(state, twin, (0, Action.call()), (1, Action.call()), (2, Action.check()))
    # Flop: seat 1 checks, seat 2 bets its last 5 chips (below one big blind).
    play(state, twin, (1, Action.check()))
    assert (state.legal_actions().min_raise_to, state.legal_actions().max_raise_to) == (5, 5)
    play(state, twin, (2, Action.raise_to(5)))
    # Seat 0 has not acted on the flop: a full raise is a big blind over the 5.
    assert state.legal_actions().min_raise_to == 15
    play(state, twin, (0, Action.call()))

    ours = state.legal_actions()
    assert (ours.seat, ours.call, ours.min_raise_to) == (1, 5, None)
    assert twin.legal().min_raise_to == 15  # PokerKit lets the player who checked raise


def test_several_short_allins_reopen_measured_from_each_players_last_bet() -> None:
    # Flop, blinds 5/10, everyone limped. A (seat 1) bets 100, B (seat 2) calls, then three
    # short all-ins: C to 150 (+50), D to 210 (+60), E to 240 (+30). A and B face 140 more
    # than they last matched, at least the last full increment (100): reopened for them.
    config = TableConfig(num_players=5, small_blind=5, big_blind=10)
    stacks = [250, 1000, 1000, 160, 220]
    state = HandState(config, button=0, stacks=stacks, seed=4)
    twin = pokerkit_twin(state, config, stacks)
    play(state, twin, (3, Action.call()), (4, Action.call()), (0, Action.call()), (1, Action.call()), (2, Action.check()))
    play(
        state,
        twin,
        (1, Action.raise_to(100)),
        (2, Action.call()),
        (3, Action.raise_to(150)),
        (4, Action.raise_to(210)),
        (0, Action.raise_to(240)),
    )
    assert state.is_all_in[3] and state.is_all_in[4] and state.is_all_in[0]
    ours = state.legal_actions()
    assert (ours.seat, ours.call, ours.min_raise_to) == (1, 140, 340)
    assert twin.legal().min_raise_to is None  # PokerKit sums only the short all-ins since the last
    try:  # "full" one and refuses
        twin.act(1, "raise", 340)
    except PokerKitRefusedError as exc:
        assert "already acted" in exc.reason
    else:
        raise AssertionError("PokerKit accepted the raise; the exclusion REOPEN_COMBINED is stale")


# -- a raise nobody can answer -----------------------------------------------------------------


def test_raise_nobody_can_answer_is_allowed_and_the_excess_comes_back() -> None:
    # Seat 3 is all-in for 100; the blinds (40 and 60 chips) cannot even call 100. docs/RULES.md lets
    # seat 0 raise; the part nobody matched is returned, so the stacks end as after a call.
    config = TableConfig(num_players=4, small_blind=5, big_blind=10)
    stacks = [1000, 40, 60, 100]
    deck = stacked_deck(0, 4, {0: "AsAh", 1: "7c2d", 2: "8c3d", 3: "9c4d"}, "KdQh5s6c2h")
    raised = HandState(config, button=0, stacks=stacks, deck=deck)
    twin = pokerkit_twin(raised, config, stacks)
    play(raised, twin, (3, Action.raise_to(100)))
    ours = raised.legal_actions()
    assert (ours.seat, ours.min_raise_to, ours.max_raise_to) == (0, 190, 1000)
    assert twin.legal().min_raise_to is None  # PokerKit: "no reason to raise"
    play(raised, None, (0, Action.raise_to(1000)), (1, Action.call()), (2, Action.call()))
    assert UncalledBetReturned(0, 900) in raised.events

    called = HandState(config, button=0, stacks=stacks, deck=deck)
    play(called, None, (3, Action.raise_to(100)), (0, Action.call()), (1, Action.call()), (2, Action.call()))
    assert raised.final_stacks == called.final_stacks == (1200, 0, 0, 0)


# -- odd chips ---------------------------------------------------------------------------------


def _finish(state: HandState, twin: PokerKitHand) -> tuple[int, ...]:
    assert state.is_over, f"hand not over, seat {state.actor} to act"
    while not twin.is_over:  # PokerKit may still want checks our engine does not ask for
        assert twin.legal().check
        twin.act(twin.actor, "check")  # type: ignore[arg-type]
    return twin.final_stacks()


def test_odd_chips_go_one_at_a_time_from_left_of_the_button() -> None:
    # Royal flush on the board: three players tie for a pot of 305 = 3 * 101 + 2.
    config = TableConfig(num_players=4, small_blind=5, big_blind=10)
    stacks = [100, 1000, 100, 100]
    deck = stacked_deck(0, 4, {}, "AsKsQsJsTs")
    state = HandState(config, button=0, stacks=stacks, deck=deck)
    twin = pokerkit_twin(state, config, stacks)
    play(state, twin, (3, Action.raise_to(100)), (0, Action.call()), (1, Action.fold()), (2, Action.call()))
    assert [(p.amount, p.winners, p.shares) for p in state.pots] == [(305, (0, 2, 3), (101, 102, 102))]
    assert state.final_stacks == (101, 995, 102, 102)  # seats 2 and 3 come first after the button
    assert _finish(state, twin) == (101, 995, 103, 101)  # PokerKit: the whole remainder to one winner


def test_odd_chips_pots_with_the_same_winners_are_not_merged() -> None:
    # Seat 3 is all-in for 50 and loses; seats 2 and 4 tie (same straight) for both pots.
    # Main 205 = 50 * 4 + SB 5 (seat 1 folded); side 253 = 91 * 2 + 71 (seat 0 folded).
    config = TableConfig(num_players=5, small_blind=5, big_blind=10)
    stacks = [1000, 1000, 1000, 50, 1000]
    hole = {0: "2h2s", 1: "3h4s", 2: "Td3c", 3: "2d3d", 4: "Ts2c"}
    deck = stacked_deck(0, 5, hole, "AhKhQdJc9s")
    state = HandState(config, button=0, stacks=stacks, deck=deck)
    twin = pokerkit_twin(state, config, stacks)
    play(
        state, twin,
        (3, Action.raise_to(50)), (4, Action.raise_to(121)), (0, Action.call()), (1, Action.fold()), (2, Action.call()),
        (2, Action.check()), (4, Action.raise_to(20)), (0, Action.fold()), (2, Action.call()),
        (2, Action.check()), (4, Action.check()),
        (2, Action.check()), (4, Action.check()),
    )
    assert [(p.amount, p.eligible, p.winners, p.shares) for p in state.pots] == [
        (205, (2, 3, 4), (2, 4), (103, 102)),
        (253, (2, 4), (2, 4), (127, 126)),
    ]
    assert state.final_stacks == (879, 995, 1089, 0, 1087)  # each pot split on its own
    assert _finish(state, twin) == (879, 995, 1088, 0, 1088)  # PokerKit merges them: 458 / 2


def test_stacked_deck_deals_named_cards_per_rules_order() -> None:
    deck = stacked_deck(2, 3, {0: "AsAh", 2: "KdKc"}, "2c3c4c5c6c")
    state = HandState(TableConfig(num_players=3), button=2, deck=deck)
    assert state.hole_cards[0] == parse_cards("AsAh")
    assert state.hole_cards[2] == parse_cards("KdKc")
    play(state, None, (2, Action.call()), (0, Action.call()), (1, Action.check()))
    assert state.board == parse_cards("2c3c4c")
    assert [ev for ev in state.events if isinstance(ev, DealEvent)][0].cards == parse_cards("2c3c4c")
