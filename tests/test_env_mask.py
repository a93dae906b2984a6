"""The action mask is the engine's legality: checked decision by decision on random play."""

from __future__ import annotations

import numpy as np
import pytest

from holdem_env import nlhe_v1
from holdem_env.engine.errors import IllegalActionError
from holdem_env.env._obs import observation_view


def _assert_mask_is_engine_legality(env: nlhe_v1.raw_env, mask: np.ndarray) -> None:
    state = env.state_object
    legal = state.legal_actions()
    assert mask[0] == state.can_fold()
    assert mask[1] == (state.can_check() or state.can_call())
    raise_ids = np.flatnonzero(mask[2:]) + 2
    if legal.min_raise_to is None:
        assert raise_ids.size == 0
        assert not state.can_raise_to()
        return
    amounts = raise_ids - 1
    # the masked-in raises are exactly one contiguous interval [min_raise_to, max_raise_to]
    assert amounts[0] == legal.min_raise_to and amounts[-1] == legal.max_raise_to
    assert amounts.size == legal.max_raise_to - legal.min_raise_to + 1
    # and the engine's own verifier agrees at and around both ends
    for amount in (legal.min_raise_to, legal.max_raise_to, (legal.min_raise_to + legal.max_raise_to) // 2):
        assert state.can_raise_to(int(amount))
    for amount in (legal.min_raise_to - 1, legal.max_raise_to + 1):
        if 1 <= amount <= env.max_stack:
            assert not state.can_raise_to(int(amount))
            assert mask[amount + 1] == 0


def _assert_observation_matches_engine(env: nlhe_v1.raw_env, agent: str, observation: np.ndarray) -> None:
    """The env keeps the seat rows incrementally: they must equal the engine's views."""
    state = env.state_object
    n = env.config.num_players
    seat = env.agent_name_mapping[agent]
    order = [(seat + r) % n for r in range(n)]
    v = observation_view(observation, n)
    bb = env.config.big_blind
    np.testing.assert_allclose(v["stacks"], [state.stacks[s] / bb for s in order], rtol=1e-6)
    np.testing.assert_allclose(v["street_bets"], [state.street_bets[s] / bb for s in order], rtol=1e-6)
    assert v["folded"].tolist() == [float(state.folded[s]) for s in order]
    assert v["all_in"].tolist() == [float(state.is_all_in[s]) for s in order]
    assert v["scalars"][0] == pytest.approx(state.pot / bb)
    assert v["scalars"][4] == pytest.approx(state.stacks[seat] / bb)
    assert v["board"].sum() == len(state.board)


def _random_stacks(rng: np.random.Generator, n: int, max_stack: int) -> list[int]:
    kind = rng.integers(3)
    if kind == 0:  # everyone deep
        return [max_stack] * n
    if kind == 1:  # unequal, some very short (short all-ins, all-in blinds)
        return [int(x) for x in rng.integers(1, max_stack + 1, size=n)]
    stacks = [int(x) for x in rng.choice([3, 7, 15, 25, 60, 150, max_stack], size=n)]
    return stacks


def _play_and_check(num_players: int, betting: str, decisions: int, seed: int) -> int:
    env = nlhe_v1.raw_env(num_players=num_players, action_mode="exact", betting=betting, max_stack=1000)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    checked = 0
    while checked < decisions:
        env.reset(options={"stacks": _random_stacks(rng, num_players, 1000)})
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            obs = env.observe(agent)
            mask = obs["action_mask"]
            # nobody else has a legal action
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            _assert_mask_is_engine_legality(env, mask)
            _assert_observation_matches_engine(env, agent, obs["observation"])
            # a masked-out action is rejected and changes nothing
            illegal = np.flatnonzero(mask == 0)
            bad = int(illegal[rng.integers(illegal.size)])
            n_events = env.state_object.num_events
            with pytest.raises(IllegalActionError):
                env.step(bad)
            assert env.state_object.num_events == n_events and env.agent_selection == agent
            # a masked-in action is accepted (raises chosen half the time, then a uniform size)
            legal_ids = np.flatnonzero(mask)
            raises = legal_ids[legal_ids >= 2]
            if raises.size and rng.random() < 0.5:
                action = int(raises[rng.integers(raises.size)])
            else:
                action = int(legal_ids[rng.integers(legal_ids.size)])
            env.step(action)
            assert env.state_object.num_events > n_events
            checked += 1
        for agent in env.agents:  # the final observations too
            _assert_observation_matches_engine(env, agent, env.observe(agent)["observation"])
    return checked


@pytest.mark.parametrize(
    ("num_players", "betting", "decisions"),
    [
        (2, "no-limit", 3000),
        (3, "no-limit", 2500),
        (6, "no-limit", 3000),
        (10, "no-limit", 1500),
        (6, "pot-limit", 600),
        (3, "fixed-limit", 600),
    ],
)
def test_exact_mask_equals_engine_legality(num_players: int, betting: str, decisions: int) -> None:
    assert _play_and_check(num_players, betting, decisions, seed=num_players * 7 + len(betting)) >= decisions


def test_exact_mask_is_a_slice_of_the_legal_interval() -> None:
    env = nlhe_v1.raw_env(num_players=3, action_mode="exact")
    env.reset(seed=0, options={"button": 0})
    mask = env.observe("player_0")["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (1002,)
    assert mask[0] == 1 and mask[1] == 1
    assert not mask[2:21].any()  # raise to 1..19: below the minimum raise to 20
    assert mask[21:1002].all()  # raise to 20..1000
    assert not env.observe("player_1")["action_mask"].any()


@pytest.mark.parametrize("betting", ["no-limit", "pot-limit", "fixed-limit"])
def test_discrete_mask_only_offers_distinct_legal_amounts(betting: str) -> None:
    env = nlhe_v1.raw_env(num_players=6, betting=betting)
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    decisions = 0
    while decisions < 1500:
        env.reset(options={"stacks": _random_stacks(rng, 6, 1000)})
        while not env.terminations[env.agent_selection]:
            state = env.state_object
            legal = state.legal_actions()
            mask = env.observe(env.agent_selection)["action_mask"]
            assert mask[0] == legal.fold and mask[1] == (legal.check or legal.call > 0)
            amounts = [env.action_amount(a) for a in range(2, env.num_actions)]
            kept = [a for a in amounts if a is not None]
            assert len(kept) == len(set(kept))  # no two ids for one chip amount
            assert [a is not None for a in amounts] == [bool(m) for m in mask[2:]]
            for a in kept:
                assert state.can_raise_to(a)
            if legal.min_raise_to is not None:
                assert mask[2] or mask[-1]  # min-raise or (if equal) all-in always offered
                all_in_to = state.street_bets[legal.seat] + state.stacks[legal.seat]
                assert bool(mask[-1]) == (legal.min_raise_to <= all_in_to <= legal.max_raise_to)
            else:
                assert not mask[2:].any()
            legal_ids = np.flatnonzero(mask)
            env.step(int(legal_ids[rng.integers(legal_ids.size)]))
            decisions += 1


def test_discrete_pot_fraction_amounts() -> None:
    env = nlhe_v1.raw_env(num_players=3, bet_sizes=(0.5, 1.0))
    env.reset(seed=0, options={"button": 0})
    # UTG (button, 3-handed) faces 10 with 15 in the pot: pot-size raise is 10 + (15 + 10) = 35
    assert [env.action_amount(a) for a in range(2, 6)] == [20, 23, 35, 1000]
    env.step(4)
    assert env.state_object.current_bet == 35


def test_discrete_duplicate_amounts_are_masked() -> None:
    # with stacks of 30 the pot-size raise (35) is out of range and the min-raise is 20
    env = nlhe_v1.raw_env(num_players=3, bet_sizes=(0.2, 0.4, 1.0))
    env.reset(seed=0, options={"button": 0, "stacks": [30, 1000, 1000]})
    # 0.2 pot -> 10 + 5 = 15 (< min 20), 0.4 pot -> 20 (= min-raise), 1.0 -> 35 (> all-in 30)
    assert [env.action_amount(a) for a in range(2, 7)] == [20, None, None, None, 30]
    mask = env.observe("player_0")["action_mask"]
    assert mask.tolist() == [1, 1, 1, 0, 0, 0, 1]
