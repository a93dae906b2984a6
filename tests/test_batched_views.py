"""BatchViews: rows built from single-table seat views say what those views say."""

import numpy as np
import pytest

from holdem_env.batched.views import HISTORY_KINDS, STREETS, BatchViews
from holdem_env.engine.cards import card_id
from holdem_env.engine.errors import ConfigError
from holdem_env.env import nlhe_v1
from holdem_env.env.loop import decisions


def _decisions(seed: int, players: int, count: int):
    env = nlhe_v1.env(num_players=players, action_mode="exact")
    rng = np.random.default_rng(seed)
    views, legals = [], []
    for obs, info in decisions(env, seed=seed):
        if len(views) == count:
            break
        views.append(info["view"])
        legals.append(info["legal"])
        # mostly check/call, so that hands reach the river; otherwise any legal id
        legal_ids = np.flatnonzero(obs["action_mask"])
        env.step(1 if rng.random() < 0.7 else int(rng.choice(legal_ids)))
    return views, legals


@pytest.mark.parametrize("players", [2, 6])
def test_rows_match_the_seat_views(players):
    views, legals = _decisions(3, players, 300)
    b = BatchViews.from_seat_views(views, legals)
    assert b.rows == len(views) >= 300
    assert (b.street == 3).any() and b.hist_len.max() > 4
    for i, (v, lg) in enumerate(zip(views, legals, strict=True)):
        assert b.seat[i] == v["seat"] and STREETS[b.street[i]] == v["street"]
        assert list(b.hole[i]) == [card_id(c) for c in v["hole_cards"]]
        assert list(b.board[i, : b.board_len[i]]) == [card_id(c) for c in v["board"]]
        assert (b.board[i, b.board_len[i]:] == -1).all()
        assert tuple(b.stacks[i]) == tuple(v["stacks"]) and b.pot[i] == v["pot"]
        assert b.call[i] == lg["call"] and bool(b.legal_check[i]) == lg["check"]
        assert b.max_raise_to[i] == (lg["max_raise_to"] or 0)
        hist = [(int(b.hist_seat[i, k]), STREETS[b.hist_street[i, k]], HISTORY_KINDS[b.hist_kind[i, k]], int(b.hist_to[i, k]))
                for k in range(b.hist_len[i])]
        assert hist == [tuple(h) for h in v["history"]]


def test_bad_input_is_refused():
    with pytest.raises(ConfigError, match="num_players"):
        BatchViews.empty(3, 11, 5, 10)
    with pytest.raises(ConfigError, match="views"):
        BatchViews.from_seat_views([], [])
