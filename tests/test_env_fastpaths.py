"""The fast paths of ``nlhe_v1`` behave exactly like the PettingZoo code they replace.

The wrapper's ``agent_iter`` (a generator instead of PettingZoo's iterator classes), its
``last`` (the raw env's method once reset) and its ``reset`` (PettingZoo's, without the
pass-through calls), and the observation buffer's cell writes (pot and current bet are
rewritten only when chips go in).
"""

from __future__ import annotations

import numpy as np
import pytest

from holdem_env import nlhe_v1
from holdem_env.engine.errors import ConfigError
from holdem_env.env._obs import OFF_SCALARS
from holdem_env.env.loop import decisions


def test_agent_iter_yields_the_selected_agent_until_every_agent_is_done() -> None:
    env = nlhe_v1.env(num_players=4)
    for seed in range(20):
        env.reset(seed=seed)
        expected = []
        raw = env.unwrapped
        mirror = nlhe_v1.env(num_players=4)
        mirror.reset(seed=seed)
        # the same hand stepped without agent_iter: the selected agent while agents remain
        mirror_rng = np.random.default_rng(seed)
        while mirror.agents:
            expected.append(mirror.agent_selection)
            obs, _, term, trunc, _ = mirror.last()
            mirror.step(None if term or trunc else int(mirror_rng.choice(np.flatnonzero(obs["action_mask"]))))
        order = []
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            assert agent == raw.agent_selection
            order.append(agent)
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert order == expected
        assert order[-4:] == [f"player_{i}" for i in range(4)]  # the dead steps, in seat order
        assert env.agents == []


def test_agent_iter_honours_max_iter_and_each_pass_starts_afresh() -> None:
    env = nlhe_v1.env(num_players=6, action_mode="exact")
    env.reset(seed=3)
    iterable = env.agent_iter(max_iter=2)
    first = []
    for agent in iterable:
        first.append(agent)
        env.step(1)  # check/call keeps the hand going
    assert len(first) == 2
    second = []
    for agent in iterable:  # a new pass of at most 2 more agents, from the current selection
        second.append(agent)
        env.step(1)
    assert len(second) == 2 and second[0] != first[0]
    assert list(env.agent_iter(max_iter=0)) == []


def test_agent_iter_asserts_when_no_step_was_taken() -> None:
    env = nlhe_v1.env(num_players=2)
    env.reset(seed=0)
    it = iter(env.agent_iter())
    assert next(it) == env.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)


def test_agent_iter_and_last_before_reset_raise_pettingzoo_errors() -> None:
    env = nlhe_v1.env(num_players=2)
    with pytest.raises(AssertionError, match="reset"):
        env.agent_iter()
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        env.last()


def _outcome(call):  # type: ignore[no-untyped-def]
    """``("ok", result)`` or ``(exception type, message)`` of ``call()``."""
    try:
        return ("ok", call())
    except Exception as exc:  # every error is compared
        return (type(exc), str(exc))


_BEFORE_RESET = {
    "step": lambda e: e.step(1),
    "step(None)": lambda e: e.step(None),
    "observe": lambda e: e.observe("player_0"),
    "agent_iter": lambda e: e.agent_iter(),
    "last": lambda e: e.last(),
    "state": lambda e: e.state(),
    "render": lambda e: e.render(),
    **{name: (lambda e, name=name: getattr(e, name)) for name in (
        "agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents",
        "_cumulative_rewards",
    )},
}


@pytest.mark.parametrize("call", list(_BEFORE_RESET))
def test_calls_before_reset_fail_as_pettingzoo_wrapper_does(call: str) -> None:
    # ours against PettingZoo's own OrderEnforcingWrapper around the same raw env: the same error
    # type and message for every call PettingZoo checks before reset (the same value where it lets one through)
    from pettingzoo.utils import wrappers

    ours = nlhe_v1.env(num_players=3)
    theirs = wrappers.OrderEnforcingWrapper(nlhe_v1.raw_env(num_players=3))
    got, expected = _outcome(lambda: _BEFORE_RESET[call](ours)), _outcome(lambda: _BEFORE_RESET[call](theirs))
    assert got == expected
    # PettingZoo lets _cumulative_rewards through to the raw env (None before reset); the rest fail
    assert got[0] != "ok" or (call == "_cumulative_rewards" and got == ("ok", None))


def test_steps_after_every_agent_is_done_act_as_pettingzoo_wrapper_does() -> None:
    # after the last dead step PettingZoo's wrapper only warns (no error, nothing stepped); ours too,
    # and both then stay in step (agents, order flag, what last() raises or returns)
    from pettingzoo.utils import wrappers

    ours = nlhe_v1.env(num_players=3)
    theirs = wrappers.OrderEnforcingWrapper(nlhe_v1.raw_env(num_players=3))
    for env in (ours, theirs):
        env.reset(seed=4)
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    for env in (ours, theirs):
        env._has_updated = False
    assert _outcome(lambda: ours.step(1)) == _outcome(lambda: theirs.step(1)) == ("ok", None)
    assert ours._has_updated and theirs._has_updated
    assert ours.agents == theirs.agents == []
    # last() with no agent left: PettingZoo's wrapper raises a bare KeyError, ours an error that
    # says so (a KeyError too, so code written for PettingZoo's still catches it)
    kind, message = _outcome(lambda: ours.last())
    assert _outcome(lambda: theirs.last())[0] is KeyError
    assert issubclass(kind, KeyError) and "call reset()" in message


def test_a_failed_reset_still_counts_as_reset_for_the_order_checks() -> None:
    env = nlhe_v1.env(num_players=3)
    with pytest.raises(ConfigError):
        env.reset(options={"button": 7})
    env.reset(seed=5)
    obs, reward, term, trunc, info = env.last()
    raw_obs, *rest = env.unwrapped.last()
    assert np.array_equal(obs["observation"], raw_obs["observation"])
    assert np.array_equal(obs["action_mask"], raw_obs["action_mask"])
    assert (reward, term, trunc, info) == tuple(rest)
    assert env.last(observe=False)[0] is None


@pytest.mark.parametrize("action_mode", ["exact", "discrete"])
@pytest.mark.parametrize("betting", ["no-limit", "pot-limit", "fixed-limit"])
def test_pot_and_current_bet_cells_match_the_engine_at_every_decision(action_mode: str, betting: str) -> None:
    env = nlhe_v1.env(num_players=5, action_mode=action_mode, betting=betting, ante=1)
    raw = env.unwrapped
    rng = np.random.default_rng(11)
    env.reset(seed=11)
    seen = 0
    for obs, _info in decisions(env, 40):
        state = raw.state_object
        vec = obs["observation"]
        assert vec[OFF_SCALARS] == np.float32(state.pot * (1 / 10))
        assert vec[OFF_SCALARS + 5] == np.float32(state.current_bet * (1 / 10))
        seen += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen > 100


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 6, "action_mode": "exact"},
        {"num_players": 3, "action_mode": "discrete", "pad_seats": True},
        {"num_players": 2, "action_mode": "exact", "betting": "pot-limit", "max_stack": 1500},
    ],
    ids=["6max-exact", "3-discrete-padded", "hu-exact-deeper"],
)
def test_typed_observations_equal_the_numpy_builder_for_every_seat(
    kwargs: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled build's C-loop observations (``_typed_vector``/``_typed_mask``, run here
    from whichever build is in use) and :class:`ObservationBuilder`'s numpy gathers give the
    same bytes for the seat to act, seats waiting with chips to call, folded and idle seats."""
    from holdem_env.env import _core as module

    env = nlhe_v1.env(**kwargs)
    raw = env.unwrapped
    rng = np.random.default_rng(2)
    env.reset(seed=2)
    seen = set()
    for hand in range(8):
        if hand:
            env.reset()
        for _agent in env.agent_iter():
            for agent in raw.possible_agents:
                out = {}
                for typed in (False, True):
                    monkeypatch.setattr(module, "_TYPED_CORE", typed)
                    out[typed] = raw.observe(agent)
                for key in ("observation", "action_mask"):
                    a, b = out[False][key], out[True][key]
                    assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), (hand, agent, key)
                assert out[True]["observation"] is not raw.observe(agent)["observation"]  # a new array each call
                seen.add((agent == raw.agent_selection, bool(out[True]["action_mask"].any())))
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert (True, True) in seen and (False, False) in seen  # actors with masks, and waiting/idle seats
