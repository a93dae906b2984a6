"""Batched ``decide`` of the non-rule bots: row by row the choice of the bot's single-table ``act``."""

from __future__ import annotations

import numpy as np
import pytest

from holdem_env.agents.random_agent import RandomAgent
from holdem_env.batched.views import BatchViews
from holdem_env.engine.errors import IllegalActionError
from holdem_env.env import nlhe_v1
from holdem_env.env.loop import decisions


def _decisions(seed: int, players: int, count: int, action_mode: str = "exact", **kw):
    """``count`` single-table decisions: (observation, info) pairs, hands played mostly by check/call."""
    env = nlhe_v1.env(num_players=players, action_mode=action_mode, **kw)
    rng = np.random.default_rng(seed)
    out = []
    for obs, info in decisions(env, seed=seed):
        if len(out) >= count:
            break
        out.append(({k: np.array(v) for k, v in obs.items()}, info))
        legal_ids = np.flatnonzero(obs["action_mask"])
        env.step(1 if rng.random() < 0.6 else int(rng.choice(legal_ids)))
    return out


class _Index:
    """A stand-in generator whose ``integers(n)`` answers the scripted index (what act draws)."""

    def __init__(self, picks: list[int]) -> None:
        self.picks = list(picks)

    def integers(self, n: int) -> int:
        k = self.picks.pop(0)
        assert 0 <= k < n
        return k


@pytest.mark.parametrize("by_type", [False, True])
@pytest.mark.parametrize("players", [2, 6])
def test_random_decide_is_act_at_every_index(players: int, by_type: bool) -> None:
    """At each decision, for every index act's draw can take (type, then size with ``by_type``),
    decide with the uniform at the middle of that index's interval returns act's id; so both
    draw from the same set with the same weights."""
    decisions = _decisions(5, players, 150)
    agent = RandomAgent(by_type=by_type)
    views = BatchViews.from_seat_views([i["view"] for _, i in decisions], [i["legal"] for _, i in decisions])
    checked = 0
    for row, (obs, info) in enumerate(decisions):
        ids = np.flatnonzero(obs["action_mask"])
        if by_type:
            groups = [g for g in (ids[ids == 0], ids[ids == 1], ids[ids >= 2]) if g.size]
            pairs = [(g, s) for g in range(len(groups)) for s in range(min(groups[g].size, 40))]
            pairs += [(len(groups) - 1, groups[-1].size - 1)]
            sizes = [len(groups), None]
        else:
            pairs = [(k, 0) for k in range(min(ids.size, 40))] + [(ids.size - 1, 0)]
        one = BatchViews.from_seat_views([info["view"]], [info["legal"]])
        for g, s in pairs:
            agent.rng = _Index([g, s] if by_type else [g])  # type: ignore[assignment]
            expected = agent.act(obs, info)
            if by_type:
                sizes = [len(groups), groups[g].size]
                u = np.array([[(g + 0.5) / sizes[0], (s + 0.5) / sizes[1]]])
            else:
                u = np.array([[(g + 0.5) / ids.size]])
            assert int(agent.decide(one, u)[0]) == expected, (row, g, s)
            checked += 1
    assert checked > 600
    # all rows at once: the same as row by row; every answer legal
    u = np.random.default_rng(1).random((views.rows, agent.uniforms_per_decision))
    batch = agent.decide(views, u)
    for row, (obs, info) in enumerate(decisions):
        one = BatchViews.from_seat_views([info["view"]], [info["legal"]])
        assert batch[row] == agent.decide(one, u[row : row + 1])[0]
        assert obs["action_mask"][batch[row]] == 1


def test_random_decide_refuses_wrong_uniforms() -> None:
    _obs, info = _decisions(1, 2, 1)[0]
    one = BatchViews.from_seat_views([info["view"]], [info["legal"]])
    with pytest.raises(IllegalActionError, match=r"uniforms must have shape \(1, 2\)"):
        RandomAgent(by_type=True).decide(one, np.zeros((1, 1)))


# -- ppo networks --------------------------------------------------------------------------------
def _ppo_agent(players: int, seed: int = 0):
    import torch

    from holdem_env.agents.ppo import PolicyConfig, PpoAgent, PpoPolicy

    torch.manual_seed(seed)
    return PpoAgent(PpoPolicy(PolicyConfig(num_players=players, hidden=(32,))))


@pytest.mark.parametrize("players", [2, 3])
def test_ppo_decide_rows_is_act_with_the_same_draw(players: int) -> None:
    """The network part of decide: all rows in one call, each the id act plays when its
    generator draws the row's uniform (act: the numpy single-row path)."""
    decisions = _decisions(7, players, 200, action_mode="discrete")
    agent = _ppo_agent(players)
    obs = np.stack([o["observation"] for o, _ in decisions])
    masks = np.stack([o["action_mask"] for o, _ in decisions])
    seeds = np.random.default_rng(3).integers(2**31, size=len(decisions))
    uniforms = np.array([np.random.default_rng(s).random() for s in seeds])
    got = agent.decide_rows(obs, masks, uniforms)
    expected = []
    for (o, info), s in zip(decisions, seeds, strict=True):
        agent.set_rng(np.random.default_rng(s))
        expected.append(agent.act(o, info))
    assert got.tolist() == expected
    assert len(set(expected)) > 2  # the draws reach several ids
    # and the same as act_batch with one generator per row
    rngs = [np.random.default_rng(s) for s in seeds]
    assert agent.act_batch(obs, masks, rngs).tolist() == expected


def test_ppo_decide_from_views_is_act() -> None:
    """decide on BatchViews (observations and masks from the batched encoder) plays act's id,
    as an exact id."""
    encode = pytest.importorskip("holdem_env.batched.encode")
    from holdem_env.env.nlhe_v1 import exact_raise_to

    decisions = _decisions(9, 2, 150, action_mode="discrete")
    agent = _ppo_agent(2, seed=1)
    views = BatchViews.from_seat_views([i["view"] for _, i in decisions], [i["legal"] for _, i in decisions])
    seeds = np.random.default_rng(4).integers(2**31, size=len(decisions))
    uniforms = np.array([[np.random.default_rng(s).random()] for s in seeds])
    got = agent.decide(views, uniforms)
    amounts = encode.discrete_amounts(views)
    for row, ((o, info), s) in enumerate(zip(decisions, seeds, strict=True)):
        agent.set_rng(np.random.default_rng(s))
        a = agent.act(o, info)
        want = a if a < 2 else int(amounts[row, a - 2]) + 1
        assert int(got[row]) == want, row
        if want >= 2:
            assert exact_raise_to(want) == amounts[row, a - 2]
