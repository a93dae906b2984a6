"""The vector env's batched backend: what it returns is what nlhe_v1 returns for the same hands.

Every hand the batched core plays is in its trace (deck, button, the learner's seat, each action, the
payoffs); each is replayed on the single-table ``nlhe_v1`` env, and the observations and masks the
vector env returned at the learner's decisions, its rewards, infos and the hands reported to the
opponent source are compared with the replay's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from holdem_env.agents.random_agent import RandomAgent
from holdem_env.agents.tag import TagAgent
from holdem_env.batched.views import BatchViews
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.env import nlhe_v1
from holdem_env.env.vector import FixedOpponents, HoldemVectorEnv


class UniformBot:
    """Random from its uniforms: fold (when legal), call, or a raise size drawn from the second uniform."""

    uniforms_per_decision = 2

    def decide(self, v: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        u, w = uniforms[:, 0], uniforms[:, 1]
        lo, hi = v.min_raise_to, v.max_raise_to
        top = np.minimum(hi, 4 * np.maximum(lo, 1))
        a = np.ones(v.rows, dtype=np.int64)
        a = np.where((v.legal_fold == 1) & (u < 0.2), 0, a)
        return np.where((lo > 0) & (u > 0.75), lo + (w * (top - lo + 1)).astype(np.int64) + 1, a)


class EdgeBot(UniformBot):
    """UniformBot raising only to the min-raise or all-in: sizes every discrete action set has."""

    def decide(self, v: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        a = super().decide(v, uniforms)
        return np.where(a >= 2, np.where(uniforms[:, 1] < 0.7, v.min_raise_to, v.max_raise_to) + 1, a)


class ActOnly(RandomAgent):
    """A bot with ``act`` only (no batched ``decide``): its tables cannot run on the batched core."""

    decide = None  # type: ignore[assignment]


class Counting(FixedOpponents):
    """FixedOpponents that also lists every payoff reported to it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reported: list[float] = []

    def record(self, member: int, payoff: float) -> None:
        super().record(member, payoff)
        self.reported.append(payoff)


def _hands(trace: list[tuple[int, int, Any]], tables: int) -> list[list[dict[str, Any]]]:
    """Each table's hands in the core's trace, the last one possibly unfinished (no ``payoffs``)."""
    hands: list[list[dict[str, Any]]] = [[] for _ in range(tables)]
    for t, seat, what in trace:
        if seat == -1:
            button, deck, learner = what
            hands[t].append({"deck": deck, "button": button, "learner": learner, "actions": []})
        elif seat == -2:
            hands[t][-1]["payoffs"] = what
        else:
            hands[t][-1]["actions"].append((seat, what))
    return hands


def _replay(hand: dict[str, Any], kwargs: dict[str, Any]) -> list[dict[str, np.ndarray]]:
    """The learner's observation dicts at its decisions of ``hand`` on nlhe_v1 (its actions as the trace says)."""
    env = nlhe_v1.env(**kwargs)
    env.reset(seed=0, options={"deck": list(hand["deck"]), "button": hand["button"]})
    raw = env.unwrapped
    seen = []
    for seat, exact in hand["actions"]:
        assert raw.agent_name_mapping[env.agent_selection] == seat
        if seat == hand["learner"]:
            seen.append({k: v.copy() for k, v in env.observe(env.agent_selection).items()})
        a = exact if exact < 2 or raw.action_mode == "exact" else raw.action_for_raise_to(exact - 1)
        env.step(a)
    if "payoffs" in hand:
        assert all(env.terminations.values())
        assert tuple(raw.state_object.payoffs) == tuple(hand["payoffs"])
    else:  # the hand in progress: the learner is to act now
        assert raw.agent_name_mapping[env.agent_selection] == hand["learner"]
        seen.append({k: v.copy() for k, v in env.observe(env.agent_selection).items()})
    return seen


CASES = [
    (2, {"action_mode": "discrete", "ante": 1}),
    (6, {"action_mode": "exact", "small_blind": 3, "big_blind": 7, "buy_in": 400, "pad_seats": True}),
    (6, {"action_mode": "discrete", "ante": 2, "bet_sizes": (0.5, 1.0, 2.5), "reward_unit": "chips"}),
    (3, {"action_mode": "exact", "small_blind": 5, "big_blind": 10, "buy_in": 300}),
    (6, {"action_mode": "exact", "opponent": TagAgent}),
]


@pytest.mark.parametrize(("players", "kwargs"), CASES)
def test_every_learner_decision_is_the_single_table_envs(players: int, kwargs: dict[str, Any]) -> None:
    tables, steps = 6, 60
    kwargs = dict(kwargs)
    bot = kwargs.pop("opponent", UniformBot if kwargs["action_mode"] == "exact" else EdgeBot)
    source = Counting([bot])
    venv = HoldemVectorEnv(tables, source, num_players=players, **kwargs)
    assert venv.backend == "batched" and venv.backend_reason == ""
    venv._batched.core_options = {"record": True}  # type: ignore[union-attr]
    obs, infos = venv.reset(seed=11)
    returned: list[list[dict[str, np.ndarray]]] = [[] for _ in range(tables)]
    rewards: list[list[float]] = [[] for _ in range(tables)]
    finals: list[list[int]] = [[] for _ in range(tables)]
    seats: list[list[int]] = [[] for _ in range(tables)]
    rng = np.random.default_rng(5)
    for step in range(steps + 1):
        for t in range(tables):
            returned[t].append({k: obs[k][t].copy() for k in obs})
            seats[t].append(int(infos["seat"][t]))
        if step == steps:
            break
        a = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]], dtype=np.int64)
        obs, rew, term, trunc, infos = venv.step(a)
        assert not trunc.any() and ("final_obs" in infos) == term.any()
        assert ((rew != 0) <= term).all()
        for t in np.flatnonzero(term).tolist():
            rewards[t].append(float(rew[t]))
            finals[t].append(int(infos["final_seat"][t]))
            assert np.float32(infos["payoff"][t]) == rew[t] and infos["final_opponent"][t] == 0
    scale = 1.0 if kwargs.get("reward_unit") == "chips" else 1.0 / kwargs.get("big_blind", 10)
    hands = _hands(venv._batched.bt.trace, tables)  # type: ignore[union-attr]
    env_kwargs = {k: v for k, v in kwargs.items() if k != "reward_unit"}
    all_payoffs = []
    for t in range(tables):
        replayed, want_rewards, want_finals, want_seats = [], [], [], []
        for hand in hands[t]:
            seen = _replay(hand, {"num_players": players, **env_kwargs})
            replayed += seen
            want_seats += [hand["learner"]] * len(seen)
            if "payoffs" in hand:
                all_payoffs.append(hand["payoffs"][hand["learner"]] * scale)
                if seen:  # a hand the learner acted in: its reward and final seat
                    want_rewards.append(np.float32(hand["payoffs"][hand["learner"]] * scale))
                    want_finals.append(hand["learner"])
        assert len(replayed) == steps + 1
        for i, (got, want) in enumerate(zip(returned[t], replayed, strict=True)):
            assert (got["observation"].view(np.int32) == want["observation"].view(np.int32)).all(), (t, i)
            np.testing.assert_array_equal(got["action_mask"], want["action_mask"])
        assert rewards[t] == want_rewards and finals[t] == want_finals and seats[t] == want_seats
    # every finished hand (walks to the learner's big blind included) is reported with its learner payoff
    assert venv.hands_played == len(all_payoffs) == len(source.reported)
    assert sorted(source.reported) == pytest.approx(sorted(all_payoffs))


def test_same_seed_same_run_and_seeds_differ() -> None:
    def run(seed: int) -> list[np.ndarray]:
        venv = HoldemVectorEnv(4, FixedOpponents([UniformBot]), num_players=6)
        obs, _ = venv.reset(seed=seed)
        out = [obs["observation"]]
        for _ in range(30):
            obs, rew, *_ = venv.step(np.ones(4, dtype=np.int64))
            out += [obs["observation"], rew]
        return out

    a, b, c = run(3), run(3), run(4)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert not all(x.shape == y.shape and (x == y).all() for x, y in zip(a, c, strict=True))


def test_an_illegal_learner_action_changes_nothing_batched() -> None:
    venv = HoldemVectorEnv(3, FixedOpponents([UniformBot]), num_players=2)
    obs, _ = venv.reset(seed=4)
    masks = obs["action_mask"]
    bad = np.ones(3, dtype=np.int64)
    bad[2] = int(np.flatnonzero(masks[2] == 0)[0])
    masks[:] = 1  # the caller's copy: changing it makes nothing legal
    with pytest.raises(IllegalActionError, match="table 2: the learner's action"):
        venv.step(bad)
    np.testing.assert_array_equal(venv._observations()["observation"], obs["observation"])
    with pytest.raises(IllegalActionError, match="3 integer action ids"):
        venv.step(bad[:2])
    venv.step(np.ones(3, dtype=np.int64))  # still playable


def test_the_backend_is_chosen_and_refused_clearly() -> None:
    assert HoldemVectorEnv(2, FixedOpponents([UniformBot]), num_players=2).backend == "batched"
    assert HoldemVectorEnv(2, FixedOpponents([RandomAgent]), num_players=2).backend == "batched"  # it has decide
    assert HoldemVectorEnv(2, FixedOpponents([ActOnly]), num_players=2).backend == "tables"
    two = HoldemVectorEnv(2, FixedOpponents([UniformBot, UniformBot]), num_players=2)
    assert two.backend == "tables" and "batched bot" in two.backend_reason
    next_step = HoldemVectorEnv(2, FixedOpponents([UniformBot]), backend="batched", autoreset_mode=AutoresetMode.NEXT_STEP)
    assert next_step.backend == "batched"
    with pytest.raises(ConfigError, match="backend.*no-limit"):
        HoldemVectorEnv(2, FixedOpponents([UniformBot]), backend="batched", betting="pot-limit")
    with pytest.raises(ConfigError, match="backend.*batched bot"):
        HoldemVectorEnv(2, FixedOpponents([ActOnly]), backend="batched")
    with pytest.raises(ConfigError, match="backend"):
        HoldemVectorEnv(2, FixedOpponents([UniformBot]), backend="gpu")
    with pytest.raises(ConfigError, match="num_players"):
        HoldemVectorEnv(2, FixedOpponents([UniformBot]), num_players=11)
    tables = HoldemVectorEnv(2, FixedOpponents([RandomAgent]), backend="tables", num_players=2)
    assert tables.backend == "tables"
    obs, _ = tables.reset(seed=1)
    assert obs["observation"].shape == (2, 158)


def test_a_plain_source_counts_the_same_hands_in_bulk() -> None:
    # FixedOpponents takes each step's hands in one record_many; Counting (record overridden) one by one
    def run(source: FixedOpponents) -> HoldemVectorEnv:
        venv = HoldemVectorEnv(5, source, num_players=2, ante=1)
        obs, _ = venv.reset(seed=2)
        rng = np.random.default_rng(1)
        for _ in range(40):
            obs, *_ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]))
        return venv

    plain, counting = FixedOpponents([UniformBot]), Counting([UniformBot])
    a, b = run(plain), run(counting)
    assert a.hands_played == b.hands_played == plain.hands[0] == counting.hands[0] == len(counting.reported) > 40
    assert plain.payoff[0] == pytest.approx(counting.payoff[0]) and plain.payoff[0] == pytest.approx(sum(counting.reported))
