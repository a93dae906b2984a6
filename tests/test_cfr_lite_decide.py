"""cfr-lite's batched ``decide``: row by row the exact id its single-table ``act`` plays with the same
uniform, on the shipped heads-up and 6-max policies, on and off the tree, with the chart preflop too."""

from __future__ import annotations

import numpy as np
import pytest

from holdem_env.agents.cfr_lite import CfrLiteAgent
from holdem_env.agents.exploiters import EXPLOITERS
from holdem_env.agents.tag import TagAgent
from holdem_env.batched.views import BatchViews
from holdem_env.env import nlhe_v1
from holdem_env.env.loop import decisions


class _Fixed:
    """A stand-in generator whose ``random()`` answers a given number (what act draws)."""

    def __init__(self, u: float) -> None:
        self.u = u
        self.calls = 0

    def random(self, size: object = None) -> object:
        self.calls += 1
        return self.u if size is None else np.full(size, self.u)  # type: ignore[call-overload]


def _mixed_decisions(seed: int, players: int, count: int) -> list[tuple[dict, dict]]:
    """``count`` exact-mode decisions of hands played by cfr-lite, tag, the exploiters and random
    legal actions (overbets and re-raises beyond the tree included)."""
    env = nlhe_v1.env(num_players=players, action_mode="exact")
    rng = np.random.default_rng(seed)
    cfr, tag = CfrLiteAgent(seed=seed), TagAgent(seed=seed)
    bots = [cls() for cls in EXPLOITERS.values()]
    out: list[tuple[dict, dict]] = []
    for obs, info in decisions(env, seed=seed):
        if len(out) >= count:
            break
        out.append(({k: np.array(v) for k, v in obs.items()}, info))
        r = rng.random()
        if r < 0.45:
            a = cfr.act(obs, info)
        elif r < 0.6:
            a = tag.act(obs, info)
        elif r < 0.8:
            a = bots[int(rng.integers(len(bots)))].act(obs, info)
        elif r < 0.95:
            a = 1
        else:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(a)
    return out


@pytest.mark.parametrize(("players", "kw"), [(2, {}), (6, {}), (2, {"preflop": "chart", "off_tree": "rule", "threshold": 0.0})])
def test_decide_is_act_with_the_same_uniform(players: int, kw: dict) -> None:
    found = _mixed_decisions(40 + players, players, 1200 if players == 2 else 900)
    views = BatchViews.from_seat_views([i["view"] for _, i in found], [i["legal"] for _, i in found])
    u = np.random.default_rng(7).random((views.rows, 1))
    acting = CfrLiteAgent(**kw)
    want = []
    for (obs, info), x in zip(found, u[:, 0].tolist(), strict=True):
        acting.rng = _Fixed(x)
        want.append(acting.act(obs, info))
        assert acting.rng.calls == 1  # exactly one draw per decision
    counts = (acting.lookups, acting.fallbacks, acting.charted)
    deciding = CfrLiteAgent(**kw)
    got = deciding.decide(views, u)
    bad = np.flatnonzero(got != np.array(want))
    assert not bad.size, f"row {bad[0]}: decide {got[bad[0]]}, act {want[bad[0]]}"
    assert (deciding.lookups, deciding.fallbacks, deciding.charted) == counts
    # the decisions reach the policy, the off-tree rules and raises of several sizes
    assert counts[0] > 100 and counts[1] + counts[2] > 10
    assert len({a for a in want if a >= 2}) > 5
    # the first rows alone, one call each: the same ids (rows and calls do not influence one another)
    fresh = CfrLiteAgent(**kw)
    for row in range(60):
        one = BatchViews.from_seat_views([found[row][1]["view"]], [found[row][1]["legal"]])
        assert int(fresh.decide(one, u[row : row + 1])[0]) == want[row]


def test_a_bet_keeps_its_translation_for_the_hand_and_the_seed_keys_it() -> None:
    """An in-between bet size is translated by a draw keyed on the public hand: the same at every
    later decision of the hand, and over many hands both neighbours occur (it is random)."""
    from holdem_env.agents.cfr_lite.rows import translation_uniform

    view = {"button": 0, "dealt_in": (True, True), "board": ()}
    history = ((0, "preflop", "raise", 37), (1, "preflop", "call", 37))
    a = translation_uniform(0, view, history, 0)
    assert a == translation_uniform(0, {**view, "board": ("As", "Kd", "2c")}, history, 0)  # later streets do not change it
    assert a == translation_uniform(0, view, history[:1], 0)
    draws = {translation_uniform(s, view, history, 0) for s in range(200)}
    assert len(draws) == 200 and 0.3 < np.mean(list(draws)) < 0.7
    assert translation_uniform(0, {**view, "button": 1}, history, 0) != a
