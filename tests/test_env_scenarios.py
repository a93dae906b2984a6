"""Scripted hands through the env API with stacked decks and given stacks (docs/RULES.md cases)."""

from __future__ import annotations

import numpy as np

from holdem_env import nlhe_v1
from holdem_env.engine.cards import card_str, parse_cards
from holdem_env.engine.record import UncalledBetReturned
from holdem_env.env._obs import observation_view


def stacked_deck(n: int, button: int, holes: dict[int, str], board: str = "", dealt: list[int] | None = None) -> list[str]:
    """A 52-card order that deals ``holes`` and ``board`` the way docs/RULES.md deals.

    Hole cards go one at a time from the seat left of the button (the button last), two
    rounds; then burn, flop (3), burn, turn, burn, river. Unlisted cards fill the gaps.
    """
    dealt = list(range(n)) if dealt is None else dealt
    order = [s for s in ((button + k) % n for k in range(1, n + 1)) if s in dealt]
    wanted = {s: list(parse_cards(h)) for s, h in holes.items()}
    used = {c for cards in wanted.values() for c in cards} | set(parse_cards(board))
    spare = iter(c for c in range(52) if c not in used)
    deck: list[int] = []
    for rnd in range(2):
        for s in order:
            deck.append(wanted[s][rnd] if s in wanted else next(spare))
    b = list(parse_cards(board))
    for group in (b[:3], b[3:4], b[4:5]):
        deck.append(next(spare))  # burn
        deck.extend(group)
    deck.extend(spare)
    assert sorted(deck) == list(range(52))
    return [card_str(c) for c in deck]


def _env(n: int, **kw) -> nlhe_v1.raw_env:
    kw.setdefault("action_mode", "exact")
    kw.setdefault("reward_unit", "chips")
    return nlhe_v1.raw_env(num_players=n, **kw)


def _act(env: nlhe_v1.raw_env, seat: int, what: str | int) -> None:
    """Step ``seat`` (which must be the one to act) with fold/call/check or a raise-to amount."""
    assert env.agent_selection == f"player_{seat}", (env.agent_selection, seat)
    if what == "fold":
        env.step(0)
    elif what in ("call", "check"):
        env.step(1)
    else:
        env.step(env.action_for_raise_to(int(what)))


def _payoffs(env: nlhe_v1.raw_env) -> list[float]:
    return [env._cumulative_rewards[a] for a in env.possible_agents]


def test_side_pots_100_300_1000_all_in() -> None:
    # Anna (seat 0) best hand, Ben (seat 1) second, Cara (seat 2) worst
    deck = stacked_deck(3, 2, {0: "AsAh", 1: "KsKh", 2: "7c2d"}, board="Qd9c5h4s3d".replace("3d", "Jc"))
    env = _env(3)
    env.reset(options={"deck": deck, "button": 2, "stacks": [100, 300, 1000]})
    # button 2, small blind 0, big blind 1: Cara acts first preflop
    _act(env, 2, 1000)
    _act(env, 0, "call")
    _act(env, 1, "call")
    assert all(env.terminations.values())
    st = env.state_object
    pots = [(p.amount, p.eligible, p.winners) for p in st.pots]
    assert pots == [(300, (0, 1, 2), (0,)), (400, (1, 2), (1,))]
    assert UncalledBetReturned(2, 700) in st.events
    assert _payoffs(env) == [200, 100, -300]


def test_short_all_in_does_not_reopen_betting() -> None:
    env = _env(4)
    env.reset(seed=0, options={"button": 0, "stacks": [1000, 150, 1000, 1000]})
    # button 0, SB 1 (150 chips), BB 2; UTG 3 opens
    _act(env, 3, 100)
    _act(env, 0, "call")
    _act(env, 1, 150)  # all-in: +50, less than the last full raise (90)
    _act(env, 2, "fold")
    legal = env.infos["player_3"]["legal"]
    assert legal == {"fold": True, "check": False, "call": 50, "min_raise_to": 0, "max_raise_to": 0}  # 0: no raise
    assert env.observe("player_3")["action_mask"].tolist()[:2] == [1, 1]
    assert not env.observe("player_3")["action_mask"][2:].any()
    _act(env, 3, "call")
    assert env.infos["player_0"]["legal"]["min_raise_to"] == 0  # the caller is not reopened either


def test_short_all_ins_that_together_make_a_full_raise_reopen() -> None:
    env = _env(4)
    env.reset(seed=0, options={"button": 0, "stacks": [1000, 150, 200, 1000]})
    _act(env, 3, 100)  # full raise: increment 90
    _act(env, 0, "call")
    _act(env, 1, 150)  # short all-in (+50)
    _act(env, 2, 200)  # short all-in (+50): together +100 >= 90 for the seats that matched 100
    legal = env.infos["player_3"]["legal"]
    assert legal["call"] == 100
    assert legal["min_raise_to"] == 290  # current bet 200 + last full increment 90
    assert legal["max_raise_to"] == 1000
    mask = env.observe("player_3")["action_mask"]
    assert mask[291] == 1 and mask[290] == 0


def test_heads_up_order_pre_and_post_flop() -> None:
    env = _env(2)
    env.reset(seed=3, options={"button": 1})
    # heads-up: the button (seat 1) posts the small blind and acts first preflop
    assert env.state_object.street_bets == (10, 5)
    seen = [env.agent_selection]
    _act(env, 1, "call")
    seen.append(env.agent_selection)
    _act(env, 0, "check")
    # flop: the big blind (seat 0) acts first, the button last
    seen.append(env.agent_selection)
    _act(env, 0, "check")
    seen.append(env.agent_selection)
    _act(env, 1, "check")
    seen.append(env.agent_selection)
    assert seen == ["player_1", "player_0", "player_0", "player_1", "player_0"]
    assert env.infos["player_0"]["view"]["street"] == "turn"


def test_odd_chip_goes_to_first_winner_left_of_button() -> None:
    # the board is a royal flush: seats 0 and 2 split; seat 1 folds its small blind
    deck = stacked_deck(3, 0, {0: "2c3d", 1: "4c5d", 2: "6c7d"}, board="AsKsQsJsTs")
    env = _env(3)
    env.reset(options={"deck": deck, "button": 0})
    _act(env, 0, "call")
    _act(env, 1, "fold")
    _act(env, 2, "check")
    for _ in range(3):
        _act(env, 2, "check")
        _act(env, 0, "check")
    assert env.state_object.pots[0].amount == 25
    # 25 split: 12 each, the odd chip to seat 2 (first winner left of the button)
    assert _payoffs(env) == [2, -5, 3]


def test_uncalled_bet_is_returned() -> None:
    env = _env(2)
    env.reset(seed=1, options={"button": 0, "stacks": [1000, 300]})
    _act(env, 0, 1000)
    _act(env, 1, "call")
    st = env.state_object
    assert UncalledBetReturned(0, 700) in st.events
    assert sorted(_payoffs(env)) == [-300, 300]
    # a bet everybody folds to: only the blinds change hands
    env.reset(seed=1, options={"button": 0})
    _act(env, 0, 500)
    _act(env, 1, "fold")
    assert _payoffs(env) == [10, -10]
    assert UncalledBetReturned(0, 490) in env.state_object.events


def test_observation_values_are_relative_to_the_observer() -> None:
    deck = stacked_deck(3, 0, {0: "AsKd", 1: "QhJh", 2: "9c9d"}, board="2c7h8sTd3c")
    env = _env(3)
    env.reset(options={"deck": deck, "button": 0, "stacks": [1000, 800, 600]})
    _act(env, 0, 30)  # button raises to 30 (3 BB)
    v = observation_view(env.observe("player_1")["observation"], 3)
    assert v["hole"][list(parse_cards("QhJh"))].tolist() == [1, 1] and v["hole"].sum() == 2
    assert v["board"].sum() == 0 and v["street"].tolist() == [1, 0, 0, 0]
    # pot 45, seat 1 owes 25, min raise-to 50, max 800, own stack 795, current bet 30 (in BB)
    np.testing.assert_allclose(v["scalars"], [4.5, 2.5, 5.0, 80.0, 79.5, 3.0])
    # seat 2 (big blind) is not to act: it sees what it would owe (20) and no raise bounds
    v2 = observation_view(env.observe("player_2")["observation"], 3)
    np.testing.assert_allclose(v2["scalars"], [4.5, 2.0, 0.0, 0.0, 59.0, 3.0])
    assert not env.observe("player_2")["action_mask"].any()
    # relative order for seat 1: itself, seat 2, seat 0
    np.testing.assert_allclose(v["stacks"], [79.5, 59.0, 97.0])
    np.testing.assert_allclose(v["street_bets"], [0.5, 1.0, 3.0])
    assert v["button"].tolist() == [0, 0, 1]
    assert v["dealt_in"].tolist() == [1, 1, 1]
    # history: seat 0 (relative 2) made one raise, to 3 BB, preflop
    assert v["history"][0, 2].tolist() == [0, 0, 1, 3.0]
    assert not v["history"][0, :2].any()
    _act(env, 1, "call")
    _act(env, 2, "fold")
    # flop: the observation of seat 0 shows the board and the flop street
    v0 = observation_view(env.observe("player_0")["observation"], 3)
    assert v0["street"].tolist() == [0, 1, 0, 0]
    assert v0["board"][list(parse_cards("2c7h8s"))].tolist() == [1, 1, 1] and v0["board"].sum() == 3
    assert v0["folded"].tolist() == [0, 0, 1]
    assert v0["history"][0, 1].tolist() == [0, 1, 0, 3.0]  # seat 1 called to 3 BB
    _act(env, 1, "check")
    v0 = observation_view(env.observe("player_0")["observation"], 3)
    assert v0["history"][1, 1].tolist() == [1, 0, 0, 0]
    assert env.observe("player_0")["action_mask"][:2].tolist() == [0, 1]  # check is free: no fold


def test_padded_observation_has_zeros_for_missing_seats() -> None:
    env = _env(3, pad_seats=True)
    env.reset(seed=0, options={"button": 0})
    v = observation_view(env.observe("player_0")["observation"], 10)
    assert v["dealt_in"].tolist() == [1, 1, 1] + [0] * 7
    assert not v["stacks"][3:].any() and not v["history"][:, 3:].any()
