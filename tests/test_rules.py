"""One test per rule of the rule book (docs/RULES.md), each named after its rule, on stacked decks.

Each test cites the rule-book section it checks with ``@pytest.mark.rule("<section heading>")``;
``test_every_rule_book_section_is_tested`` fails when a section of docs/RULES.md has no test or
a test cites a section that does not exist.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from enginekit import check_down, make_state, stacked_deck

from holdem_env.engine.actions import ActionKind, Street
from holdem_env.engine.cards import new_deck, parse_cards, shuffled_deck
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import IllegalActionError
from holdem_env.engine.record import ActionEvent, DealEvent, MuckEvent, ShowEvent, UncalledBetReturned
from holdem_env.engine.state import HandState

# --------------------------------------------------------------------------- table


@pytest.mark.rule("Table")
def test_default_table_is_six_players_blinds_5_10_buy_in_1000() -> None:
    s = HandState(TableConfig(), seed=1)
    assert s.num_seats == 6
    assert s.starting_stacks == (1000,) * 6
    assert s.blinds == (0, 5, 10, 0, 0, 0)


@pytest.mark.rule("Table")
def test_house_takes_nothing_stacks_sum_constant_after_every_action() -> None:
    s = make_state(4, holes={0: "AsAd", 1: "KsKd", 2: "QsQd", 3: "JsJd"}, board="2c7d9hTc3s")
    total = 4000
    assert sum(s.stacks) + s.pot == total
    s.raise_to(100)
    assert sum(s.stacks) + s.pot == total
    s.raise_to(300)
    assert sum(s.stacks) + s.pot == total
    s.call()
    s.fold()
    assert sum(s.stacks) + s.pot == total
    check_down(s)
    assert sum(s.final_stacks) == total
    assert sum(s.payoffs) == 0
    assert s.payoffs == (610, -300, -10, -300)


# --------------------------------------------------------------------------- button, blinds, deal


@pytest.mark.rule("Button, blinds, deal")
def test_small_blind_left_of_button_big_blind_next() -> None:
    s = make_state(6, button=3)
    assert s.blinds == (0, 0, 0, 0, 5, 10)
    assert (s.small_blind_seat, s.big_blind_seat) == (4, 5)
    s = make_state(6, button=5)
    assert s.blinds == (5, 10, 0, 0, 0, 0)


@pytest.mark.rule("Button, blinds, deal")
def test_heads_up_button_posts_small_blind_and_acts_first_preflop() -> None:
    s = make_state(2, button=1)
    assert s.blinds == (10, 5)
    assert s.actor == 1


@pytest.mark.rule("Button, blinds, deal")
def test_heads_up_button_acts_last_postflop() -> None:
    s = make_state(2, button=1)
    s.call()
    s.check()
    assert s.street is Street.FLOP
    assert s.actor == 0
    s.check()
    assert s.actor == 1


@pytest.mark.rule("Button, blinds, deal")
def test_short_stack_posts_what_it_has_and_is_all_in() -> None:
    s = make_state(3, stacks=[1000, 3, 1000])
    assert s.blinds == (0, 3, 10)
    assert s.is_all_in == (False, True, False)
    assert s.stacks == (1000, 0, 990)
    s = make_state(3, stacks=[1000, 1000, 1], ante=2)
    assert s.antes == (2, 2, 1)
    assert s.blinds == (0, 5, 0)
    assert s.is_all_in == (False, False, True)
    assert s.current_bet == 10


@pytest.mark.rule("Button, blinds, deal")
def test_big_blind_posted_short_others_owe_full_big_blind() -> None:
    s = make_state(4, stacks=[1000, 1000, 6, 1000])
    assert s.blinds == (0, 5, 6, 0)
    assert s.current_bet == 10
    la = s.legal_actions()
    assert (la.seat, la.call, la.min_raise_to) == (3, 10, 20)
    s.call()
    s.call()
    assert s.legal_actions().call == 5  # the small blind also owes the full big blind


@pytest.mark.rule("Button, blinds, deal")
def test_antes_posted_before_blinds_and_are_dead() -> None:
    s = make_state(3, ante=2)
    assert s.antes == (2, 2, 2)
    assert s.street_bets == (0, 5, 10)
    assert s.contributions == (2, 7, 12)
    assert s.current_bet == 10
    assert s.pot == 21
    assert s.legal_actions().call == 10  # the ante does not count toward the call


@pytest.mark.rule("Button, blinds, deal")
def test_big_blind_ante_only_big_blind_posts_it() -> None:
    s = make_state(4, ante=10, big_blind_ante=True)
    assert s.antes == (0, 0, 10, 0)
    assert s.contributions == (0, 5, 20, 0)


@pytest.mark.rule("Button, blinds, deal")
def test_big_blind_ante_is_dead_money_the_small_blind_can_win() -> None:
    s = make_state(3, ante=10, big_blind_ante=True, holes={1: "AsAd", 2: "7c2d"}, board="KhQs9c4d3h")
    s.fold()
    s.call()
    check_down(s)
    assert s.payoffs == (0, 20, -20)
    assert [p.amount for p in s.pots] == [30]


@pytest.mark.rule("Button, blinds, deal")
def test_per_seat_antes_override() -> None:
    s = make_state(4, antes=[1, 2, 3, 0])
    assert s.antes == (1, 2, 3, 0)
    assert s.pot == 6 + 15


@pytest.mark.rule("Button, blinds, deal")
def test_hole_cards_dealt_one_at_a_time_starting_left_of_button() -> None:
    s = HandState(TableConfig(num_players=3), button=0, deck=new_deck())
    assert s.hole_cards == ((2, 5), (0, 3), (1, 4))


@pytest.mark.rule("Button, blinds, deal")
def test_heads_up_big_blind_gets_first_card() -> None:
    s = HandState(TableConfig(num_players=2), button=0, deck=new_deck())
    assert s.hole_cards == ((1, 3), (0, 2))


@pytest.mark.rule("Button, blinds, deal")
def test_one_card_burnt_before_flop_turn_and_river() -> None:
    s = HandState(TableConfig(num_players=3), button=0, deck=new_deck())
    check_down(s)
    assert s.board == (7, 8, 9, 11, 13)
    deals = [e for e in s.events if isinstance(e, DealEvent)]
    assert [(d.street, d.burn, d.cards) for d in deals] == [
        (Street.FLOP, 6, (7, 8, 9)),
        (Street.TURN, 10, (11,)),
        (Street.RIVER, 12, (13,)),
    ]


@pytest.mark.rule("Button, blinds, deal")
def test_shuffle_is_recorded_with_deck_and_seed() -> None:
    s = HandState(TableConfig(), seed=42)
    assert s.deck == shuffled_deck(np.random.default_rng(42))
    rec = s.record()
    assert rec.seed == 42 and rec.deck == s.deck


@pytest.mark.rule("Button, blinds, deal")
def test_stacked_deck_is_dealt_as_given() -> None:
    deck = stacked_deck(3, 0, {0: "AsAh", 1: "KsKh", 2: "QsQh"}, "2c3d4h5s6c")
    s = HandState(TableConfig(num_players=3), deck=deck)
    assert s.hole_cards == (parse_cards("AsAh"), parse_cards("KsKh"), parse_cards("QsQh"))
    check_down(s)
    assert s.board == parse_cards("2c3d4h5s6c")


@pytest.mark.rule("Button, blinds, deal")
def test_seats_not_dealt_in_are_skipped() -> None:
    s = make_state(4, dealt_in=[True, False, True, True], stacks=[1000, 1000, 1000, 1000])
    assert s.hole_cards[1] is None
    assert s.blinds == (0, 0, 5, 10)
    assert s.actor == 0
    s.call()
    s.call()
    s.check()
    assert s.actor == 2  # postflop: first live seat left of the button skips seat 1
    check_down(s)
    assert s.payoffs[1] == 0
    s = make_state(3, stacks=[1000, 0, 1000])
    assert s.dealt_in == (True, False, True)


# --------------------------------------------------------------------------- order of action


@pytest.mark.rule("Order of action")
def test_preflop_first_to_act_is_left_of_big_blind() -> None:
    assert make_state(6, button=0).actor == 3
    assert make_state(6, button=4).actor == 1


@pytest.mark.rule("Order of action")
def test_big_blind_keeps_option_to_check_or_raise_when_everyone_calls() -> None:
    s = make_state(3)
    s.call()
    s.call()
    assert s.actor == 2 and s.street is Street.PREFLOP
    la = s.legal_actions()
    assert la.check and la.min_raise_to == 20
    s.raise_to(30)
    assert s.actor == 0 and s.street is Street.PREFLOP


@pytest.mark.rule("Order of action")
def test_postflop_first_to_act_is_first_live_seat_left_of_button() -> None:
    s = make_state(4)
    s.call()
    s.call()
    s.fold()
    s.check()
    assert s.street is Street.FLOP and s.actor == 2


@pytest.mark.rule("Order of action")
def test_folded_and_all_in_players_are_skipped() -> None:
    s = make_state(4, stacks=[1000, 1000, 1000, 50])
    s.raise_to(50)  # seat 3 all-in
    s.call()
    s.fold()
    s.call()
    assert s.street is Street.FLOP
    assert s.actor == 2
    s.check()
    assert s.actor == 0  # seat 3 all-in and seat 1 folded are skipped


@pytest.mark.rule("Order of action")
def test_round_ends_when_all_acted_and_matched_or_all_in() -> None:
    s = make_state(3)
    s.call()
    s.call()
    assert s.street is Street.PREFLOP
    s.check()
    assert s.street is Street.FLOP


# --------------------------------------------------------------------------- actions (no-limit)


@pytest.mark.rule("Actions (no-limit)")
def test_fold_when_check_is_free_not_offered_by_default() -> None:
    s = make_state(3)
    s.call()
    s.call()
    assert not s.legal_actions().fold
    with pytest.raises(IllegalActionError, match="fold is not offered when checking is free"):
        s.fold()
    s2 = make_state(3, allow_free_fold=True)
    s2.call()
    s2.call()
    assert s2.legal_actions().fold
    assert s2.fold().kind is ActionKind.FOLD


@pytest.mark.rule("Actions (no-limit)")
def test_fold_always_allowed_when_facing_a_bet() -> None:
    s = make_state(3)
    assert s.legal_actions().fold
    assert s.fold().kind is ActionKind.FOLD


@pytest.mark.rule("Actions (no-limit)")
def test_check_only_when_nothing_owed() -> None:
    s = make_state(3)
    assert not s.legal_actions().check
    with pytest.raises(IllegalActionError, match="check is not allowed: 10 is owed"):
        s.check()


@pytest.mark.rule("Actions (no-limit)")
def test_call_all_in_for_less() -> None:
    s = make_state(3, stacks=[1000, 60, 1000])
    s.raise_to(200)
    la = s.legal_actions()
    assert la.call == 55 and la.min_raise_to is None
    ev = s.call()
    assert (ev.amount, ev.to, ev.all_in) == (55, 60, True)


@pytest.mark.rule("Actions (no-limit)")
@pytest.mark.rule("Known errors in the source texts (do not implement)")
def test_minimum_bet_is_one_big_blind() -> None:
    s = make_state(3, sb=10, bb=20)
    s.call()
    s.call()
    s.check()
    la = s.legal_actions()
    assert la.min_raise_to == 20
    with pytest.raises(IllegalActionError, match="bet to 19 is below the minimum 20"):
        s.raise_to(19)
    assert s.raise_to(20).kind is ActionKind.BET


@pytest.mark.rule("Actions (no-limit)")
def test_min_raise_example_blinds_50_100_raise_to_300_next_min_500() -> None:
    s = make_state(4, sb=50, bb=100, buy_in=10000)
    assert s.legal_actions().min_raise_to == 200
    s.raise_to(300)
    assert s.last_full_raise == 200
    assert s.legal_actions().min_raise_to == 500


@pytest.mark.rule("Actions (no-limit)")
def test_min_raise_example_bet_20_raise_to_40_next_min_60() -> None:
    s = make_state(3, sb=10, bb=20)
    s.call()
    s.call()
    s.check()
    s.raise_to(20)
    assert s.legal_actions().min_raise_to == 40
    s.raise_to(40)
    assert s.legal_actions().min_raise_to == 60


@pytest.mark.rule("Actions (no-limit)")
def test_all_in_below_min_raise_is_legal_min_equals_max() -> None:
    s = make_state(4, sb=50, bb=100, stacks=[1000, 1000, 1000, 150])
    la = s.legal_actions()
    assert (la.call, la.min_raise_to, la.max_raise_to) == (100, 150, 150)
    with pytest.raises(IllegalActionError, match="raise to 200 is above the maximum 150"):
        s.raise_to(200)
    ev = s.all_in()
    assert (ev.kind, ev.to, ev.all_in) == (ActionKind.RAISE, 150, True)


@pytest.mark.rule("Actions (no-limit)")
def test_amounts_are_raise_to_street_totals() -> None:
    s = make_state(3)
    s.raise_to(30)
    ev = s.raise_to(100)  # small blind had 5 in: adds 95
    assert (ev.amount, ev.to) == (95, 100)
    assert s.street_bets == (30, 100, 10)


def _flop_with_bet(stack2: int, stack3: int | None = None) -> HandState:
    """4 players, blinds 50/100, everyone in for 100, seat 1 bets 100 on the flop."""
    stacks = [1000, 1000, stack2, 1000 if stack3 is None else stack3]
    s = make_state(4, sb=50, bb=100, stacks=stacks)
    s.call()
    s.call()
    s.call()
    s.check()
    assert s.street is Street.FLOP and s.actor == 1
    s.raise_to(100)
    return s


@pytest.mark.rule("Short all-ins and reopening")
def test_short_allin_does_not_change_min_increment() -> None:
    s = _flop_with_bet(250)
    s.raise_to(150)  # seat 2 all-in, raises by 50 < 100
    assert s.last_full_raise == 100
    assert s.legal_actions().min_raise_to == 250


@pytest.mark.rule("Short all-ins and reopening")
def test_short_allin_does_not_reopen() -> None:
    s = _flop_with_bet(250)
    s.raise_to(150)
    s.call()
    s.call()
    la = s.legal_actions()
    assert la.seat == 1
    assert (la.fold, la.call, la.min_raise_to, la.max_raise_to) == (True, 50, None, None)
    with pytest.raises(IllegalActionError, match="not reopened"):
        s.raise_to(400)


@pytest.mark.rule("Short all-ins and reopening")
def test_short_allin_player_who_has_not_acted_may_raise() -> None:
    s = _flop_with_bet(250)
    s.raise_to(150)
    la = s.legal_actions()
    assert la.seat == 3 and la.min_raise_to == 250 and la.max_raise_to == 900


@pytest.mark.rule("Short all-ins and reopening")
def test_several_short_allins_together_reopen() -> None:
    s = _flop_with_bet(250, 310)
    s.raise_to(150)  # +50
    s.raise_to(210)  # +60: together 110 >= 100 over seat 1's bet
    s.call()
    la = s.legal_actions()
    assert la.seat == 1 and la.min_raise_to == 310


@pytest.mark.rule("Short all-ins and reopening")
def test_several_short_allins_below_full_increment_do_not_reopen() -> None:
    s = _flop_with_bet(250, 260)
    s.raise_to(150)
    s.raise_to(160)  # together 60 < 100
    s.call()
    assert s.legal_actions().min_raise_to is None


@pytest.mark.rule("Short all-ins and reopening")
def test_full_raise_reopens_betting() -> None:
    s = _flop_with_bet(1000)
    s.raise_to(300)
    s.call()
    s.call()
    la = s.legal_actions()
    assert la.seat == 1 and la.min_raise_to == 500


@pytest.mark.rule("Actions (no-limit)")
def test_big_blind_preflop_has_not_acted_until_it_acts() -> None:
    s = make_state(3, stacks=[1000, 12, 1000])
    s.call()
    s.raise_to(12)  # small blind all-in for a short raise
    la = s.legal_actions()
    assert la.seat == 2 and la.min_raise_to == 22  # the big blind has not acted: may raise
    s.call()
    assert s.legal_actions().min_raise_to is None  # seat 0 acted and faced only +2


@pytest.mark.rule("Actions (no-limit)")
def test_no_raise_when_every_other_player_is_all_in() -> None:
    s = make_state(2, stacks=[1000, 300])
    s.raise_to(300)
    la = s.legal_actions()
    assert la.min_raise_to is None and la.call == 290


# --------------------------------------------------------------------------- pot-limit and fixed-limit


@pytest.mark.rule("Pot-limit and fixed-limit (other betting structures)")
def test_pot_limit_max_raise_is_current_bet_plus_pot_after_call() -> None:
    s = make_state(3, betting="pot-limit")
    la = s.legal_actions()
    assert (la.min_raise_to, la.max_raise_to) == (20, 35)
    with pytest.raises(IllegalActionError, match="above the maximum 35"):
        s.raise_to(36)
    s.raise_to(35)
    assert s.legal_actions().max_raise_to == 35 + 50 + 30


@pytest.mark.rule("Pot-limit and fixed-limit (other betting structures)")
@pytest.mark.rule("Known errors in the source texts (do not implement)")
def test_fixed_limit_bets_are_one_unit_small_then_big_bet() -> None:
    s = make_state(3, betting="fixed-limit")
    la = s.legal_actions()
    assert (la.min_raise_to, la.max_raise_to) == (20, 20)
    s.call()
    s.call()
    s.check()
    assert (s.legal_actions().min_raise_to, s.legal_actions().max_raise_to) == (10, 10)
    s.check()
    s.check()
    s.check()
    assert s.street is Street.TURN
    assert (s.legal_actions().min_raise_to, s.legal_actions().max_raise_to) == (20, 20)
    s.raise_to(20)
    assert s.legal_actions().min_raise_to == 40


@pytest.mark.rule("Pot-limit and fixed-limit (other betting structures)")
def test_fixed_limit_cap_of_four_bets_per_round() -> None:
    s = make_state(3, betting="fixed-limit")
    s.raise_to(20)
    s.raise_to(30)
    s.raise_to(40)  # big blind + 3 raises = 4 bets
    la = s.legal_actions()
    assert la.min_raise_to is None and la.call == 20
    with pytest.raises(IllegalActionError, match="cap of 4 bets"):
        s.raise_to(50)


@pytest.mark.rule("Pot-limit and fixed-limit (other betting structures)")
def test_fixed_limit_cap_lifted_heads_up_or_by_none() -> None:
    s = make_state(2, betting="fixed-limit", uncapped_heads_up=True)
    for to in (20, 30, 40):
        s.raise_to(to)
    assert s.legal_actions().min_raise_to == 50
    s = make_state(3, betting="fixed-limit", raise_cap=None)
    for to in (20, 30, 40):
        s.raise_to(to)
    assert s.legal_actions().min_raise_to == 50
    s = make_state(3, betting="fixed-limit", uncapped_heads_up=True)  # 3 players: still capped
    for to in (20, 30, 40):
        s.raise_to(to)
    assert s.legal_actions().min_raise_to is None


@pytest.mark.rule("Pot-limit and fixed-limit (other betting structures)")
def test_fixed_limit_all_in_for_less_allowed() -> None:
    s = make_state(3, betting="fixed-limit", stacks=[15, 1000, 1000])
    la = s.legal_actions()
    assert (la.min_raise_to, la.max_raise_to) == (15, 15)
    assert s.raise_to(15).all_in


# --------------------------------------------------------------------------- end of the hand


@pytest.mark.rule("End of the hand")
def test_everyone_folds_last_player_takes_all_and_shows_nothing() -> None:
    s = make_state(3)
    s.fold()
    s.fold()
    assert s.is_over and s.street is Street.SHOWDOWN
    assert s.payoffs == (0, -5, 5)
    assert s.shown == {} and s.mucked == ()
    assert not any(isinstance(e, (ShowEvent, MuckEvent)) for e in s.events)
    assert [(p.amount, p.winners) for p in s.pots] == [(10, (2,))]


@pytest.mark.rule("End of the hand")
def test_uncalled_bet_returned_before_pots_are_built() -> None:
    s = make_state(3)
    s.raise_to(300)
    s.fold()
    s.fold()
    assert UncalledBetReturned(0, 290) in s.events
    assert s.pots[0].amount == 25
    assert s.payoffs == (15, -5, -10)


@pytest.mark.rule("End of the hand")
def test_run_out_when_all_in_deals_rest_of_board_with_burns() -> None:
    s = make_state(2, holes={0: "AsAd", 1: "KsKd"}, board="2c7d9hTc3s")
    s.all_in()
    s.call()
    assert s.is_over
    assert s.board == parse_cards("2c7d9hTc3s")
    assert [type(e) for e in s.events].count(DealEvent) == 3
    assert s.payoffs == (1000, -1000)


@pytest.mark.rule("End of the hand")
def test_run_out_when_one_player_left_who_can_act_has_matched() -> None:
    s = make_state(3, stacks=[1000, 1000, 500])
    s.call()
    s.fold()
    s.raise_to(500)  # big blind all-in
    s.call()
    assert s.is_over and len(s.board) == 5


# --------------------------------------------------------------------------- pots


@pytest.mark.rule("Pots")
def test_side_pots_anna_ben_cara_example() -> None:
    # Anna (seat 0) 100, Ben (seat 1) 300, Cara (seat 2, button) 1000: all in.
    s = make_state(
        3,
        button=2,
        stacks=[100, 300, 1000],
        holes={0: "AsAd", 1: "KsKd", 2: "7c2h"},
        board="3c8d9hJc4s",
    )
    s.all_in()
    s.call()
    s.call()
    assert UncalledBetReturned(2, 700) in s.events
    assert [(p.amount, p.eligible) for p in s.pots] == [(300, (0, 1, 2)), (400, (1, 2))]
    assert s.payoffs == (200, 100, -300)


@pytest.mark.rule("Pots")
def test_folded_players_chips_stay_in_pots_they_reached() -> None:
    s = make_state(
        4,
        stacks=[1000, 1000, 1000, 50],
        holes={3: "AsAd", 2: "KsKd", 0: "QsQd", 1: "7c2h"},
        board="3c8d9hJc4s",
    )
    s.all_in()  # seat 3: 50
    s.raise_to(200)  # seat 0
    s.fold()  # seat 1: 5 in
    s.call()  # seat 2
    s.raise_to(300)  # seat 2 bets the flop
    s.fold()  # seat 0 folds with 200 in
    assert [(p.amount, p.eligible, p.winners) for p in s.pots] == [(155, (2, 3), (3,)), (300, (2,), (2,))]
    assert s.payoffs == (-200, -5, 100, 105)


@pytest.mark.rule("Pots")
def test_each_pot_awarded_to_best_eligible_hand() -> None:
    s = make_state(3, button=2, stacks=[100, 300, 1000], holes={0: "7c2h", 1: "KsKd", 2: "AsAd"}, board="3c8d9hJc4s")
    s.all_in()
    s.call()
    s.call()
    assert [p.winners for p in s.pots] == [(2,), (2,)]
    assert s.payoffs == (-100, -300, 400)


# --------------------------------------------------------------------------- showdown


@pytest.mark.rule("Showdown")
def test_ties_split_the_pot_equally() -> None:
    s = make_state(2, holes={0: "AdKd", 1: "AhKh"}, board="2c7s9hJcQs")
    s.call()
    check_down(s)
    assert s.pots[0].winners == (0, 1) and s.pots[0].shares == (10, 10)
    assert s.payoffs == (0, 0)


@pytest.mark.rule("Showdown")
def test_odd_chip_goes_first_left_of_button() -> None:
    s = make_state(3, button=0, holes={0: "AdKd", 2: "AhKh", 1: "3c4c"}, board="2c7s9hJcQs")
    s.call()
    s.fold()
    s.check()
    check_down(s)
    pot = s.pots[0]
    assert pot.amount == 25 and pot.winners == (0, 2) and pot.shares == (12, 13)


@pytest.mark.rule("Showdown")
def test_each_pot_split_on_its_own() -> None:
    # Seats: 0 button (C), 1 small blind folds, 2 big blind (B), 3 short all-in (A), 4 folds later.
    s = make_state(
        5,
        stacks=[1000, 1000, 1000, 20, 1000],
        holes={0: "AhKh", 2: "AdKd", 3: "3s4s", 1: "5c6c", 4: "8c8s"},
        board="2c7d9hJcQs",
    )
    s.raise_to(20)  # seat 3 all-in
    s.raise_to(35)  # seat 4
    s.call()  # seat 0
    s.fold()  # seat 1
    s.call()  # seat 2
    assert s.street is Street.FLOP
    s.raise_to(10)  # seat 2
    s.fold()  # seat 4 folds with 35 in
    s.call()  # seat 0
    check_down(s)
    main, side = s.pots
    assert (main.amount, main.winners, main.shares) == (85, (0, 2), (42, 43))
    assert (side.amount, side.winners, side.shares) == (65, (0, 2), (32, 33))
    # Merged, 150 would have split 75/75: the odd chip of each pot goes to seat 2.
    assert s.payoffs[2] - s.payoffs[0] == 2


def _river_showdown(bet_on_river: bool) -> HandState:
    # Seat 1 best (aces), seat 2 middle (kings), seat 0 worst.
    s = make_state(3, holes={1: "AsAd", 2: "KsKd", 0: "7c2h"}, board="3c8d9hJc4s")
    s.call()
    s.call()
    s.check()
    for _ in range(3):  # flop and turn checked through
        s.check()
    for _ in range(3):
        s.check()
    assert s.street is Street.RIVER and s.actor == 1
    s.check()
    if bet_on_river:
        s.raise_to(50)  # seat 2 bets
        s.call()
        s.call()
    else:
        s.check()
        s.check()
    return s


@pytest.mark.rule("Showdown")
def test_showing_order_last_river_bettor_shows_first_worse_hands_muck() -> None:
    s = _river_showdown(bet_on_river=True)
    shows = [e for e in s.events if isinstance(e, (ShowEvent, MuckEvent))]
    assert shows == [ShowEvent(2, parse_cards("KsKd")), MuckEvent(0), ShowEvent(1, parse_cards("AsAd"))]
    assert set(s.shown) == {1, 2} and s.mucked == (0,)


@pytest.mark.rule("Showdown")
def test_a_show_all_hands_table_shows_every_player_still_in_in_the_showing_order() -> None:
    s = make_state(3, button=2, stacks=[100, 300, 1000], holes={0: "AsAd", 1: "KsKd", 2: "7c2h"},
                   board="3c8d9hJc4s", show_all_hands=True)
    s.all_in()
    s.call()
    s.call()
    shows = [e for e in s.events if isinstance(e, (ShowEvent, MuckEvent))]
    # the same order as the muck rule's (seat 0 first), but the losing 7-2 is shown, not mucked
    assert shows == [ShowEvent(0, parse_cards("AsAd")), ShowEvent(1, parse_cards("KsKd")), ShowEvent(2, parse_cards("7c2h"))]
    assert set(s.shown) == {0, 1, 2} and s.mucked == ()
    assert s.payoffs == (200, 100, -300)  # as without showing all: AA the main pot, KK the side pot


@pytest.mark.rule("Showdown")
def test_showing_order_checked_river_first_left_of_button_shows_first() -> None:
    s = _river_showdown(bet_on_river=False)
    shows = [e for e in s.events if isinstance(e, (ShowEvent, MuckEvent))]
    assert shows == [ShowEvent(1, parse_cards("AsAd")), MuckEvent(2), MuckEvent(0)]


@pytest.mark.rule("Showdown")
def test_hand_that_wins_a_side_pot_is_shown_even_if_worse_than_shown() -> None:
    s = make_state(3, button=2, stacks=[100, 300, 1000], holes={0: "AsAd", 1: "KsKd", 2: "7c2h"}, board="3c8d9hJc4s")
    s.all_in()
    s.call()
    s.call()
    shows = [e for e in s.events if isinstance(e, (ShowEvent, MuckEvent))]
    # No river betting: first remaining seat left of the button (seat 0) shows first.
    assert shows == [ShowEvent(0, parse_cards("AsAd")), ShowEvent(1, parse_cards("KsKd")), MuckEvent(2)]


@pytest.mark.rule("Showdown")
def test_equal_hand_to_best_shown_is_shown() -> None:
    s = make_state(3, holes={1: "AdKd", 2: "AhKh", 0: "3c4d"}, board="2c7s9hJcQs")
    s.call()
    s.call()
    check_down(s)
    assert set(s.shown) == {1, 2} and s.mucked == (0,)


# --------------------------------------------------------------------------- clock


@pytest.mark.rule("Clock")
def test_clock_timeout_checks_if_free_else_folds() -> None:
    s = make_state(3)
    ev = s.timeout()
    assert (ev.kind, ev.timeout) == (ActionKind.FOLD, True)
    s.call()
    ev = s.timeout()
    assert (ev.kind, ev.timeout, ev.seat) == (ActionKind.CHECK, True, 2)
    assert s.street is Street.FLOP


@pytest.mark.rule("Actions (no-limit)")
def test_action_event_records_chips_added_and_street_total() -> None:
    s = make_state(3)
    ev = s.raise_to(25)
    assert ev == ActionEvent(0, Street.PREFLOP, ActionKind.RAISE, 25, 25, False, False)


@pytest.mark.rule("Short all-ins and reopening")
def test_short_all_in_opening_bet_keeps_big_blind_increment() -> None:
    s = make_state(3, stacks=[1000, 1000, 14])
    s.call()
    s.call()
    s.check()  # the big blind (seat 2) has 4 chips left
    s.check()
    ev = s.raise_to(4)  # all-in bet below one big blind
    assert (ev.kind, ev.all_in) == (ActionKind.BET, True)
    la = s.legal_actions()
    assert (la.call, la.min_raise_to) == (4, 14)


@pytest.mark.rule("End of the hand")
def test_chips_no_remaining_player_can_match_are_returned() -> None:
    # The big blind is all-in on the ante and posts no blind; the others fold to the
    # unposted big blind: their antes above the big blind's are returned to them.
    s = make_state(3, stacks=[1000, 1000, 1], ante=3, sb=0)
    assert s.is_all_in == (False, False, True) and s.blinds == (0, 0, 0)
    s.fold()
    s.fold()
    returned = sorted((e.seat, e.amount) for e in s.events if isinstance(e, UncalledBetReturned))
    assert returned == [(0, 2), (1, 2)]
    assert s.payoffs == (-1, -1, 2)


def test_engine_modules_import_only_numpy_and_the_standard_library() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import holdem_env.engine.actions, holdem_env.engine.pots, holdem_env.engine.state, holdem_env.engine.record, holdem_env.engine.table\n"
        "allowed = set(sys.stdlib_module_names) | {'numpy', 'holdem_env', '_distutils_hack'}\n"
        # cython_runtime and _cython_<version>: what a compiled build's modules register (no package)
        "mods = {m.split('.')[0] for m in sys.modules\n"
        "        if not m.startswith(('__', '_distutils', '_cython_')) and m != 'cython_runtime'}\n"
        "print(','.join(sorted(mods - allowed)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.rule("End of the hand")
def test_uncalled_bet_returned_before_the_run_out_is_dealt() -> None:
    s = make_state(2, stacks=[1000, 300], holes={0: "AsAd", 1: "KsKd"}, board="2c7d9hTc3s")
    s.raise_to(1000)
    s.call()
    kinds = [type(e).__name__ for e in s.events]
    assert kinds.index("UncalledBetReturned") < kinds.index("DealEvent")
    assert UncalledBetReturned(0, 700) in s.events
    assert s.payoffs == (300, -300)


@pytest.mark.rule("Showdown")
def test_board_plays_when_no_hole_card_improves_it_pot_is_split() -> None:
    s = make_state(2, holes={0: "2c3d", 1: "4h5s"}, board="AsKsQsJsTs")
    s.call()
    check_down(s)
    assert s.pots[0].winners == (0, 1) and s.payoffs == (0, 0)


@pytest.mark.rule("Showdown")
def test_mucked_hand_is_not_revealed() -> None:
    s = _river_showdown(bet_on_river=True)
    muck = next(e for e in s.events if isinstance(e, MuckEvent))
    assert muck == MuckEvent(0) and 0 not in s.shown
    assert not hasattr(muck, "cards")


# --------------------------------------------------------------------------- the rule book itself

RULE_BOOK = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"


def _rule_book_sections() -> set[str]:
    return {line.lstrip("#").strip() for line in RULE_BOOK.read_text().splitlines() if line.startswith(("## ", "### "))}


def _cited_sections() -> dict[str, list[str]]:
    cited: dict[str, list[str]] = {}
    for name, obj in sorted(globals().items()):
        if name.startswith("test_"):
            for mark in getattr(obj, "pytestmark", []):
                if mark.name == "rule":
                    cited.setdefault(mark.args[0], []).append(name)
    return cited


def test_every_rule_book_section_is_tested() -> None:
    sections, cited = _rule_book_sections(), _cited_sections()
    assert "Short all-ins and reopening" in sections and len(sections) >= 10
    assert sorted(sections - set(cited)) == [], "rule-book sections without a test"
    assert sorted(set(cited) - sections) == [], "tests cite sections that docs/RULES.md does not have"
