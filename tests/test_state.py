"""HandState API: the verify/can/do trio, bad input, views, copy."""

from __future__ import annotations

import numpy as np
import pytest
from enginekit import check_down, make_state, snapshot

from holdem_env.engine.actions import Action, ActionKind, LegalActions, Street
from holdem_env.engine.cards import new_deck
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import CardError, ConfigError, HandOverError, IllegalActionError
from holdem_env.engine.state import HandState


def test_illegal_raise_message_names_attempt_and_legal_range() -> None:
    s = make_state(4, sb=50, bb=100)
    with pytest.raises(IllegalActionError) as info:
        s.raise_to(150)
    assert str(info.value) == "raise to 150 is below the minimum 200 (legal: fold, call 100, raise to 200..1000)"


@pytest.mark.parametrize(
    "attempt",
    [
        lambda s: s.check(),
        lambda s: s.raise_to(150),
        lambda s: s.raise_to(1001),
        lambda s: s.raise_to("300"),
        lambda s: s.raise_to(300.0),
        lambda s: s.raise_to(True),
        lambda s: s.act(Action.check()),
        lambda s: s.act("fold"),
    ],
)
def test_illegal_actions_leave_state_unchanged(attempt) -> None:  # type: ignore[no-untyped-def]
    s = make_state(4, sb=50, bb=100)
    before = snapshot(s)
    with pytest.raises(IllegalActionError):
        attempt(s)
    assert snapshot(s) == before


def test_illegal_free_fold_and_call_leave_state_unchanged() -> None:
    s = make_state(3)
    s.call()
    s.call()
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="fold is not offered"):
        s.fold()
    with pytest.raises(IllegalActionError, match="call is not allowed: nothing is owed"):
        s.call()
    assert snapshot(s) == before


def test_wrong_types_raise_clear_errors() -> None:
    s = make_state(3)
    with pytest.raises(IllegalActionError, match="integer number of chips, got str '100'"):
        s.raise_to("100")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="got float 100.5"):
        s.raise_to(100.5)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="integer number of chips"):
        Action.raise_to(1.5)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="unknown action kind 'shove'"):
        Action("shove")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="takes no amount"):
        Action(ActionKind.CALL, 5)
    assert s.raise_to(np.int64(40)).to == 40  # numpy integers are chips too


def test_acting_after_the_hand_ended_raises_hand_over_error() -> None:
    s = make_state(3)
    s.fold()
    s.fold()
    assert s.is_over and s.actor is None
    for attempt in (s.fold, s.check, s.call, s.all_in, s.timeout, s.legal_actions, lambda: s.raise_to(100)):
        with pytest.raises(HandOverError, match="the hand is over"):
            attempt()
    assert not (s.can_fold() or s.can_check() or s.can_call() or s.can_raise_to() or s.can_all_in())


def test_constructor_rejects_bad_input_naming_the_field() -> None:
    cfg = TableConfig(num_players=3)
    with pytest.raises(ConfigError, match="stacks"):
        HandState(cfg, stacks=[100, 100])
    with pytest.raises(ConfigError, match="stacks"):
        HandState(cfg, stacks=[100, -1, 100])
    with pytest.raises(ConfigError, match="button"):
        HandState(cfg, button=3)
    with pytest.raises(ConfigError, match="button must be on a seat that is dealt in"):
        HandState(cfg, button=1, dealt_in=[True, False, True])
    with pytest.raises(ConfigError, match="at least two"):
        HandState(cfg, stacks=[100, 0, 0])
    with pytest.raises(ConfigError, match="dealt in but has no chips"):
        HandState(cfg, stacks=[100, 0, 100], dealt_in=[True, True, True])
    with pytest.raises(CardError, match="appears twice"):
        HandState(cfg, deck=[0] + list(range(51)))
    with pytest.raises(ConfigError, match="rng"):
        HandState(cfg, rng=3)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="antes"):
        HandState(cfg, antes=[1, 2])
    with pytest.raises(ConfigError, match="config"):
        HandState({"num_players": 3})  # type: ignore[arg-type]


def test_verify_can_and_do_agree() -> None:
    s = make_state(4, sb=50, bb=100, stacks=[1000, 1000, 1000, 150])
    la = s.legal_actions()
    assert s.can_fold() == la.fold and s.can_check() == la.check and s.can_call() == (la.call > 0)
    assert s.can_raise_to(150) and not s.can_raise_to(151) and not s.can_raise_to(149)
    assert s.can_act(Action.raise_to(150)) and not s.can_act(Action.check())
    assert la.allows(Action.raise_to(150)) and not la.allows(Action.check())


def test_act_applies_every_kind_and_bet_means_raise_to() -> None:
    s = make_state(3)
    assert s.act(Action.call()).kind is ActionKind.CALL
    assert s.act(Action.call()).kind is ActionKind.CALL
    assert s.act(Action.check()).kind is ActionKind.CHECK
    ev = s.act(Action(ActionKind.BET, 30))
    assert (ev.kind, ev.to) == (ActionKind.BET, 30)
    assert s.act(Action.raise_to(60)).kind is ActionKind.RAISE
    assert s.act(Action.fold()).kind is ActionKind.FOLD


def test_legal_actions_is_a_value_with_helpers() -> None:
    s = make_state(3)
    la = s.legal_actions()
    assert la == LegalActions(seat=0, fold=True, check=False, call=10, min_raise_to=20, max_raise_to=1000)
    assert la.can_raise and la.can_call
    assert str(la) == "fold, call 10, raise to 20..1000"


def test_copy_is_independent_and_plays_out_identically() -> None:
    s = make_state(3, holes={0: "AsAd", 1: "KsKd", 2: "QsQd"}, board="2c7d9hTc3s")
    s.raise_to(30)
    c = s.copy()
    c.fold()
    assert s.actor == 1 and c.actor == 2
    assert s.folded == (False, False, False)
    c2 = s.copy()
    for st in (s, c2):
        st.call()
        check_down(st)
    assert s.payoffs == c2.payoffs and s.events == c2.events


def test_events_since_reads_only_new_events() -> None:
    s = make_state(3)
    s.call()
    k = s.num_events
    s.call()
    new = s.events_since(k)
    assert len(new) == 1 and new[0].seat == 2 - 1 and s.events[-1] == new[0]


def test_views_during_and_after_hand() -> None:
    s = HandState(TableConfig(num_players=3), deck=new_deck())
    assert (s.street, s.pot, s.current_bet, s.amount_to_call) == (Street.PREFLOP, 15, 10, 10)
    assert s.payoffs is None and s.final_stacks is None and s.pots == ()
    check_down(s)
    assert s.pot == 0 and s.street is Street.SHOWDOWN and len(s.pots) == 1
    assert s.final_stacks is not None and sum(s.final_stacks) == 3000


@pytest.mark.parametrize("seed", ["abc", 1.5, -1, True])
def test_bad_seed_raises_config_error_naming_seed(seed) -> None:  # type: ignore[no-untyped-def]
    # Checked before the shuffle: numpy's own TypeError/ValueError would not name the field.
    with pytest.raises(ConfigError, match=r"seed=.* must be a non-negative integer or None"):
        HandState(TableConfig(num_players=3), seed=seed)
    assert HandState(TableConfig(num_players=3), seed=np.int64(4)).seed == 4


def test_shuffled_deck_is_numpy_permutation_of_the_same_generator() -> None:
    # HandState shuffles a list with Generator.shuffle; decks (and so every seeded hand) must stay
    # what rng.permutation(52) gives, the order this engine has always dealt from a seed.
    for seed in range(200):
        expected = np.random.default_rng(seed).permutation(52).tolist()
        assert list(HandState(TableConfig(num_players=2), seed=seed).deck) == expected


def test_public_table_equals_the_properties_at_every_step() -> None:
    # public_table() is the env's one-call read of six properties: it must match them all hand long,
    # and once the hand is over (pot 0, actor None, final stacks).
    rng = np.random.default_rng(11)
    for hand in range(40):
        state = HandState(TableConfig(num_players=2 + hand % 5), seed=hand, button=0)
        while True:
            assert state.public_table() == (
                state.pot, state.current_bet, state.button, state.actor, state.stacks, state.street_bets
            )
            if state.is_over:
                break
            legal = state.legal_actions()
            r = rng.random()
            if legal.min_raise_to is not None and r < 0.3:
                state.raise_to(int(rng.integers(legal.min_raise_to, legal.max_raise_to + 1)))
            elif legal.fold and r < 0.5:
                state.fold()
            elif legal.check:
                state.check()
            else:
                state.call()
        assert state.public_table()[0] == 0 and state.public_table()[3] is None


def test_pot_layers_equal_build_pots_with_and_without_side_pots() -> None:
    # HandState._layers computes a hand's single pot itself and leaves side pots (and dead antes)
    # to build_pots: at every hand's end both must give the same layers, and the run must reach
    # single-pot showdowns, side pots and wins by fold (uneven stacks, many all-ins).
    from holdem_env.engine.pots import build_pots

    rng = np.random.default_rng(21)
    seen = {"one layer": 0, "side pots": 0, "no chips left to split": 0}
    for hand in range(150):
        n = 2 + hand % 5
        stacks = [int(x) for x in rng.integers(15, 400, size=n)]
        state = HandState(TableConfig(num_players=n), seed=hand, button=hand % n, stacks=stacks)
        while not state.is_over:
            legal = state.legal_actions()
            r = rng.random()
            if legal.min_raise_to is not None and r < 0.45:
                state.raise_to(legal.max_raise_to if r < 0.2 else legal.min_raise_to)
            elif legal.fold and r < 0.6:
                state.fold()
            elif legal.check:
                state.check()
            else:
                state.call()
        layers = state._layers()
        in_hand = [not f for f in state.folded]
        assert layers == build_pots(state._contrib, in_hand, state.is_all_in), (hand, layers)
        assert [(p.amount, p.eligible) for p in state.pots] == layers
        seen["side pots" if len(layers) > 1 else "one layer" if layers else "no chips left to split"] += 1
    assert seen["one layer"] >= 20 and seen["side pots"] >= 5, seen


def test_showdown_strength_equals_the_evaluator_on_random_and_flush_hands() -> None:
    # the showdown's typed fast path (C arithmetic on the rank keys in the compiled build) gives
    # hand_strength's value on every hand: 20,000 random seven-card hands, and boards with four
    # and five cards of one suit so the flush path is taken too
    from holdem_env.engine.evaluator import hand_strength
    from holdem_env.engine.state import _showdown_strength

    rng = np.random.default_rng(3)
    for _ in range(20_000):
        cards = rng.choice(52, size=7, replace=False).tolist()
        hole, board = (cards[0], cards[1]), cards[2:]
        assert _showdown_strength(hole, board) == hand_strength(cards)
    spades = [c for c in range(52) if c & 3 == 3]
    flushes = 0
    for _ in range(2_000):
        suited = rng.choice(spades, size=5, replace=False).tolist()
        rest = rng.choice([c for c in range(52) if c not in suited], size=2, replace=False).tolist()
        cards = suited + rest
        rng.shuffle(cards)
        hole, board = (cards[0], cards[1]), cards[2:]
        flushes += hand_strength(cards) >= 5864  # flush or better
        assert _showdown_strength(hole, board) == hand_strength(cards)
    assert flushes >= 1_500
