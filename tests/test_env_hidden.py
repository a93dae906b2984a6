"""Hidden information: nothing meant for one seat reveals another seat's hole cards."""

from __future__ import annotations

import numpy as np
import pytest

from holdem_env import nlhe_v1
from holdem_env.engine.cards import card_str, parse_cards


def _deck(holes: dict[int, str], board: str, n: int, button: int) -> list[str]:
    order = [(button + k) % n for k in range(1, n + 1)]
    wanted = {s: list(parse_cards(h)) for s, h in holes.items()}
    used = {c for cs in wanted.values() for c in cs} | set(parse_cards(board))
    spare = iter(c for c in range(52) if c not in used)
    deck = [wanted[s][r] if s in wanted else next(spare) for r in range(2) for s in order]
    b = list(parse_cards(board))
    for group in (b[:3], b[3:4], b[4:5]):
        deck.append(next(spare))
        deck.extend(group)
    deck.extend(spare)
    return [card_str(c) for c in deck]


def _trace(deck: list[str], script: list[int], observer: int, n: int = 3) -> list:
    """Everything ``observer`` is shown while the script plays: observations, infos, renders."""
    env = nlhe_v1.raw_env(num_players=n, action_mode="exact", render_mode="ansi", render_viewer=observer)
    env.reset(seed=0, options={"deck": deck, "button": 0})
    me = f"player_{observer}"
    out = []
    actions = iter(script)
    while True:
        obs = env.observe(me)
        out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), repr(env.infos[me]), env.render()))
        if env.terminations[env.agent_selection]:
            break
        env.step(next(actions))
    return out


# Scripts end with a fold (nobody shows) or at a showdown the other seat loses and mucks.
FOLD_SCRIPT = [1, 1, 1, 1, 1, 1, 1, 1, 1, 41, 0, 0]  # calls/checks to the turn, bet, two folds


@pytest.mark.parametrize("observer", [0, 1])
def test_opponent_cards_never_leak_when_nobody_shows(observer: int) -> None:
    board = "2c7h8sTd3c"
    a = _deck({0: "AsKd", 1: "QhJh", 2: "9c9d"}, board, 3, 0)
    # seat 2's cards differ, everything else is equal
    b = _deck({0: "AsKd", 1: "QhJh", 2: "4d4h"}, board, 3, 0)
    ta, tb = _trace(a, FOLD_SCRIPT, observer), _trace(b, FOLD_SCRIPT, observer)
    assert len(ta) == len(tb) > 5
    assert ta == tb
    # and the traces do depend on the observer's own cards (the test can see a difference)
    c = _deck({0: "2dKd" if observer == 0 else "AsKd", 1: "2dJh" if observer == 1 else "QhJh", 2: "9c9d"}, board, 3, 0)
    assert _trace(c, FOLD_SCRIPT, observer) != ta


def test_mucked_cards_are_never_revealed_but_shown_cards_are() -> None:
    board = "2c7h8sTd3c"
    # everyone checks down; seat 1 (Q-high) loses to seat 2's nines and mucks unseen
    script = [1, 1, 1] + [1, 1, 1] * 3
    a = _deck({0: "AsKd", 1: "QhJh", 2: "9c9d"}, board, 3, 0)
    env = nlhe_v1.raw_env(num_players=3, action_mode="exact", render_mode="ansi")
    env.reset(seed=0, options={"deck": a, "button": 0})
    for act in script:
        env.step(act)
    assert all(env.terminations.values())
    shown = env.infos["player_0"]["view"]["shown"]
    mucked = env.state_object.mucked
    engine_shown = env.state_object.shown
    assert shown == tuple(tuple(card_str(c) for c in engine_shown.get(s, ())) for s in range(3))
    assert mucked, "this script should end with a muck"
    for s in mucked:
        assert shown[s] == ()
    text = env.render()
    for s in mucked:
        for card in env.state_object.hole_cards[s]:
            assert card_str(card) not in text.split("board:")[1].split("\n", 1)[1]
    # the muck hides the cards: a different mucked hand gives the same traces for the others
    b_cards = {0: "AsKd", 1: "QhJh", 2: "9c9d"}
    b_cards[mucked[0]] = "4d5s" if mucked[0] != 0 else b_cards[mucked[0]]
    b = _deck(b_cards, board, 3, 0)
    for observer in (s for s in range(3) if s not in mucked):
        assert _trace(a, script, observer) == _trace(b, script, observer)


def test_info_view_only_has_own_hole_cards() -> None:
    env = nlhe_v1.raw_env(num_players=6)
    env.reset(seed=9)
    holes = {s: tuple(card_str(c) for c in env.state_object.hole_cards[s]) for s in range(6)}
    for s in range(6):
        info = env.infos[f"player_{s}"]
        text = repr(info)
        assert info["view"]["hole_cards"] == holes[s]
        for other in range(6):
            if other != s:
                assert all(card not in text for card in holes[other] if card not in holes[s])
        obs = env.observe(f"player_{s}")["observation"]
        assert np.flatnonzero(obs[:52]).tolist() == sorted(env.state_object.hole_cards[s])
