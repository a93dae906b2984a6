"""The ppo agent: engineered features, masked actor-critic, .pt policy files, the ``ppo`` spec."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env import nlhe_v1
from holdem_env.agents.base import AgentSpecError, make_agent
from holdem_env.agents.features import FEATURE_NAMES, equity_batch, features_batch
from holdem_env.agents.ppo import (
    ActorCritic,
    PolicyConfig,
    PolicyFileError,
    PpoAgent,
    PpoPolicy,
    masked_logits,
    sample_actions,
    temper,
)
from holdem_env.engine.cards import card_str, parse_cards
from holdem_env.engine.equity import equity, exact_equity
from holdem_env.engine.errors import ConfigError, HoldemError
from holdem_env.training.arena import ArenaConfig, run_match

F = {name: i for i, name in enumerate(FEATURE_NAMES)}


def _deck(first: list[str]) -> list[str]:
    return first + [card_str(c) for c in range(52) if card_str(c) not in first]


def _policy(seed: int = 0, num_players: int = 2) -> PpoPolicy:
    torch.manual_seed(seed)
    return PpoPolicy(PolicyConfig(num_players=num_players, hidden=(16,)))


# -- features -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hole", "board", "opponents"),
    [("AsAh", "", 1), ("7c2d", "", 1), ("KsQs", "Js Ts 2c", 1), ("8h8d", "Ah Kd 3c 2s", 2), ("AcKd", "", 3)],
)
def test_equity_matches_the_engine(hole: str, board: str, opponents: int) -> None:
    board_ids = [np.array(parse_cards(board), dtype=int)]
    ours = equity_batch(np.array([parse_cards(hole)]), board_ids, np.array([opponents]))[0]
    ref = equity(hole, board=board or None, opponents=opponents, samples=40000, rng=np.random.default_rng(0))
    assert abs(ours - ref) < 0.06  # 256 samples: standard error <= 0.031


def test_equity_split_board_and_river_are_exact() -> None:
    # The board plays (four aces, king kicker) for everybody: a three-way split.
    e = equity_batch(np.array([parse_cards("2c3d")]), [np.array(parse_cards("As Ah Ad Ac Ks"))], np.array([2]))[0]
    assert e == pytest.approx(1 / 3)
    # On the river the equity against one random hand is exact up to sampling of the opponent.
    ref = exact_equity(["AsKs", "2c2d"], board="Qs Js Ts 4d 5h")
    assert ref[0] == 1.0
    e = equity_batch(np.array([parse_cards("AsKs")]), [np.array(parse_cards("Qs Js Ts 4d 5h"))], np.array([1]))[0]
    assert e == 1.0  # a royal flush never loses


def test_features_of_a_known_spot() -> None:
    env = nlhe_v1.raw_env(num_players=2)
    # One card at a time from the big blind (seat 1): the button (seat 0, small blind) gets AsAh.
    env.reset(seed=0, options={"deck": _deck(["2c", "As", "7d", "Ah"]), "button": 0})
    sb = env.observe("player_0")["observation"]
    f = features_batch(sb[None, :])[0]
    assert f[F["equity"]] == pytest.approx(0.85, abs=0.04)
    assert f[F["pot_odds"]] == pytest.approx(0.5 / 2.0)  # call 0.5 BB into a 1.5 BB pot
    assert f[F["spr"]] == 1.0  # 99.5 BB behind a 1.5 BB pot: above the cap
    assert f[F["position"]] == 1.0  # the button acts last after the flop
    assert f[F["live_opponents"]] == 1.0
    assert f[F["to_call_stack"]] == pytest.approx(0.5 / 99.5)
    env.step(1)  # the button calls; the big blind is to act, nothing to call
    bb = features_batch(env.observe("player_1")["observation"][None, :])[0]
    assert bb[F["position"]] == 0.0
    assert bb[F["pot_odds"]] == 0.0
    assert bb[F["equity"]] == pytest.approx(0.35, abs=0.05)  # 7d2c against a random hand
    assert bb[F["spr"]] == pytest.approx((99.0 / 2.0) / 20.0 if 99.0 / 2.0 < 20 else 1.0)

def test_features_do_not_depend_on_the_batch() -> None:
    env = nlhe_v1.raw_env(num_players=3)
    rows = []
    for seed in range(6):
        env.reset(seed=seed)
        rows.append(env.observe(env.agent_selection)["observation"])
    batch = np.stack(rows)
    together = features_batch(batch)
    alone = np.concatenate([features_batch(r[None, :]) for r in rows])
    np.testing.assert_array_equal(together, alone)


def test_features_reject_a_bad_shape() -> None:
    with pytest.raises(HoldemError, match="expected 114"):
        features_batch(np.zeros((2, 100), dtype=np.float32))


# -- network and sampling -----------------------------------------------------------------------
def test_masked_logits_give_masked_ids_probability_zero() -> None:
    logits = torch.tensor([[50.0, -3.0, 2.0, 7.0]])
    probs = masked_logits(logits, torch.tensor([[0, 1, 1, 0]])).softmax(-1)[0]
    assert probs[0].item() == 0.0 and probs[3].item() == 0.0
    assert probs[1].item() + probs[2].item() == pytest.approx(1.0)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.lists(st.booleans(), min_size=10, max_size=10).filter(any), min_size=1, max_size=8),
    st.integers(0, 2**31),
)
def test_masked_actions_are_never_sampled(mask_rows: list[list[bool]], seed: int) -> None:
    policy = _policy(seed % 7)
    masks = np.array(mask_rows, dtype=np.int8)
    obs = np.random.default_rng(seed).random((len(masks), policy.config.obs_size)).astype(np.float32)
    probs = policy.probabilities(obs, masks)
    assert np.all(probs[masks == 0] == 0.0)
    agent = PpoAgent(policy, rng=np.random.default_rng(seed))
    for _ in range(5):
        actions = agent.act_batch(obs, masks)
        assert np.all(masks[np.arange(len(masks)), actions] == 1)


def test_sample_actions_follows_the_probabilities() -> None:
    probs = np.array([[0.0, 0.25, 0.75]])
    rng = np.random.default_rng(5)
    draws = [int(sample_actions(probs, np.array([[1, 1, 1]]), [rng])[0]) for _ in range(4000)]
    assert 0 not in draws
    assert np.mean(np.array(draws) == 2) == pytest.approx(0.75, abs=0.03)


def test_act_batch_rows_equal_single_decisions() -> None:
    policy = _policy(1)
    env = nlhe_v1.raw_env(num_players=2)
    obs, masks = [], []
    for seed in range(5):
        env.reset(seed=seed)
        o = env.observe(env.agent_selection)
        obs.append(o["observation"])
        masks.append(o["action_mask"])
    batch = PpoAgent(policy).act_batch(np.stack(obs), np.stack(masks), [np.random.default_rng(i) for i in range(5)])
    single = [
        PpoAgent(policy, rng=np.random.default_rng(i)).act({"observation": obs[i], "action_mask": masks[i]}, {})
        for i in range(5)
    ]
    assert batch.tolist() == single


def test_greedy_plays_the_most_likely_legal_action() -> None:
    policy = _policy(2)
    env = nlhe_v1.raw_env(num_players=2)
    env.reset(seed=3)
    o = env.observe(env.agent_selection)
    probs = policy.probabilities(o["observation"][None, :], o["action_mask"][None, :])[0]
    assert PpoAgent(policy, greedy=True).act(o, {}) == int(np.argmax(probs))


# -- temperature ---------------------------------------------------------------------------------
def _decision(seed: int, num_players: int = 2) -> dict:
    env = nlhe_v1.raw_env(num_players=num_players)
    env.reset(seed=seed)
    return env.observe(env.agent_selection)


def test_temper_is_the_softmax_of_the_logits_over_t() -> None:
    policy = _policy(5)
    with torch.no_grad():
        policy.model.actor[-1].weight.mul_(20.0)  # logits far apart: tempering matters
    for seed in range(6):
        o = _decision(seed)
        obs, mask = o["observation"][None, :], o["action_mask"][None, :]
        probs = policy.probabilities(obs, mask)
        logits = policy.model.actor(torch.from_numpy(policy.encode(obs))).detach().double()
        for t in (0.5, 0.7, 2.0):
            direct = masked_logits(logits / t, torch.from_numpy(mask.astype(np.int64))).softmax(-1).numpy()
            tempered = temper(probs, mask, t)
            assert np.allclose(tempered, direct, rtol=0, atol=1e-9)
            assert (tempered[mask == 0] == 0.0).all() and tempered.sum() == pytest.approx(1.0)
        assert np.array_equal(temper(probs, mask, 1.0), probs)
    # sharper below 1: the most likely action gains, a flat row stays flat
    p = np.array([[0.1, 0.3, 0.6, 0.0]])
    m = np.array([[1, 1, 1, 0]])
    assert temper(p, m, 0.5)[0, 2] > 0.6 > temper(p, m, 2.0)[0, 2]
    assert np.allclose(temper(np.array([[0.5, 0.5]]), np.ones((1, 2)), 0.3), 0.5)


def test_temperature_act_samples_what_action_probabilities_reports() -> None:
    from holdem_env.agents.ppo import sample_with_uniforms
    from holdem_env.agents.ppo_fast import sample_row

    policy = _policy(6)
    with torch.no_grad():
        policy.model.actor[-1].weight.mul_(3.0)
    u = np.linspace(0.005, 0.995, 100)
    differs = 0
    for seed in range(8):
        o = _decision(seed)
        mask = o["action_mask"]
        agent = PpoAgent(policy, temperature=0.5)
        own = np.flatnonzero(o["observation"][:52] > 0.5)
        row = agent.action_probabilities(o, {}, own[None, :])[0]
        plain = policy.probabilities(o["observation"][None, :], mask[None, :])[0]
        assert np.allclose(row, temper(plain, mask, 0.5), rtol=0, atol=1e-6)
        # act draws from that row; act_batch and decide_rows draw the same with the same numbers
        drawn = []
        for k in range(len(u)):
            agent.set_rng(np.random.default_rng(k))
            drawn.append(agent.act(o, {}))
            assert drawn[-1] == sample_row(row, mask, np.random.default_rng(k))
        rows = np.repeat(o["observation"][None, :], len(u), axis=0)
        masks = np.repeat(mask[None, :], len(u), axis=0)
        batch = agent.act_batch(rows, masks, [np.random.default_rng(k) for k in range(len(u))])
        assert batch.tolist() == drawn
        ids = agent.decide_rows(rows, masks, u)
        assert np.array_equal(ids, sample_with_uniforms(np.repeat(row[None, :], len(u), axis=0), masks, u))
        differs += int(not np.array_equal(ids, sample_with_uniforms(np.repeat(plain[None, :], len(u), axis=0), masks, u)))
    assert differs >= 4  # tempering changes what is played


def test_low_temperature_plays_the_most_likely_action_more_often() -> None:
    policy = _policy(7)
    o = _decision(1)
    probs = policy.probabilities(o["observation"][None, :], o["action_mask"][None, :])[0]
    best = int(np.argmax(probs))
    rng = np.random.default_rng(0)
    cold = PpoAgent(policy, temperature=0.25, rng=rng)
    plain = PpoAgent(policy, rng=np.random.default_rng(0))
    cold_share = np.mean([cold.act(o, {}) == best for _ in range(400)])
    plain_share = np.mean([plain.act(o, {}) == best for _ in range(400)])
    assert cold_share == pytest.approx(temper(probs, o["action_mask"], 0.25)[best], abs=0.08)
    assert cold_share > plain_share


@pytest.mark.parametrize("bad", [0, -0.5, float("nan"), float("inf"), "hot", True])
def test_bad_temperature_is_a_config_error(bad: object) -> None:
    with pytest.raises(ConfigError, match="temperature"):
        PpoAgent(_policy(), temperature=bad)  # type: ignore[arg-type]


def test_temperature_with_greedy_is_refused_and_the_spec_takes_it() -> None:
    with pytest.raises(ConfigError, match="cannot be combined with greedy"):
        PpoAgent(_policy(), greedy=True, temperature=0.5)
    assert PpoAgent(_policy(), greedy=True, temperature=1.0).greedy
    agent = make_agent("ppo-6max(temperature=0.7)")
    assert isinstance(agent, PpoAgent) and agent.temperature == 0.7
    with pytest.raises(AgentSpecError, match="temperature"):
        make_agent("ppo(temperature=0)")


# -- policy files -------------------------------------------------------------------------------
def test_policy_file_round_trip(tmp_path) -> None:
    policy = _policy(3)
    policy.metadata["note"] = "test"
    path = policy.save(tmp_path / "p.pt")
    loaded = PpoPolicy.load(path)
    assert loaded.config == policy.config and loaded.metadata == {"note": "test"}
    obs = np.random.default_rng(0).random((4, policy.config.obs_size)).astype(np.float32)
    masks = np.ones((4, policy.config.num_actions), dtype=np.int8)
    np.testing.assert_array_equal(loaded.probabilities(obs, masks), policy.probabilities(obs, masks))


def _rewrite(path, **changes) -> None:
    payload = torch.load(path, weights_only=True)
    payload.update(changes)
    torch.save(payload, path)


def test_policy_file_of_another_env_version_is_refused(tmp_path) -> None:
    path = _policy().save(tmp_path / "p.pt")
    _rewrite(path, env_id="holdem_env/nlhe-v99")
    with pytest.raises(PolicyFileError, match="trained on env 'holdem_env/nlhe-v99'.*retrain"):
        PpoPolicy.load(path)


def test_policy_file_of_another_format_or_kind_is_refused(tmp_path) -> None:
    path = _policy().save(tmp_path / "p.pt")
    _rewrite(path, format=99)
    with pytest.raises(PolicyFileError, match="format 99"):
        PpoPolicy.load(path)
    torch.save({"weights": torch.zeros(2)}, tmp_path / "other.pt")
    with pytest.raises(PolicyFileError, match="not a holdem ppo policy"):
        PpoPolicy.load(tmp_path / "other.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a torch file")
    with pytest.raises(PolicyFileError, match="cannot be read"):
        PpoPolicy.load(tmp_path / "junk.pt")
    with pytest.raises(PolicyFileError, match="does not exist"):
        PpoPolicy.load(tmp_path / "missing.pt")


def test_a_policy_refuses_another_table_size_or_action_set() -> None:
    policy = _policy()  # heads-up
    env = nlhe_v1.raw_env(num_players=6)
    env.reset(seed=0)
    o = env.observe(env.agent_selection)
    with pytest.raises(HoldemError, match="trained for 2 seats"):
        PpoAgent(policy).act(o, {})
    hu = nlhe_v1.raw_env(num_players=2, bet_sizes=(1.0,))
    hu.reset(seed=0)
    with pytest.raises(HoldemError, match="plays 10 discrete actions"):
        PpoAgent(policy).act(hu.observe(hu.agent_selection), {})


def test_bad_policy_config_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="hidden"):
        PolicyConfig(hidden=())
    with pytest.raises(ConfigError, match="num_players"):
        PolicyConfig(num_players=11)
    with pytest.raises(ConfigError, match="greedy"):
        PpoAgent(_policy(), greedy="yes")  # type: ignore[arg-type]


# -- the spec -----------------------------------------------------------------------------------
def test_ppo_spec_plays_in_the_arena(tmp_path) -> None:
    path = _policy(4).save(tmp_path / "p.pt")
    spec = f"ppo(policy={str(path)!r})"
    agent = make_agent(spec)
    assert isinstance(agent, PpoAgent)
    result = run_match(ArenaConfig(agents=(spec, "random"), hands=40, seed=2))
    rows = {r["agent"]: r for r in result.rows}
    assert rows[spec]["hands"] == 40
    assert rows[spec]["mbb_per_hand"] == pytest.approx(-rows["random"]["mbb_per_hand"])
    again = run_match(ArenaConfig(agents=(spec, "random"), hands=40, seed=2))
    assert [r["mbb_per_hand"] for r in again.rows] == [r["mbb_per_hand"] for r in result.rows]


def test_ppo_spec_with_a_missing_file_names_it(tmp_path) -> None:
    with pytest.raises(AgentSpecError, match="missing.pt.*does not exist"):
        make_agent(f"ppo(policy={str(tmp_path / 'missing.pt')!r})")


def test_network_shapes() -> None:
    config = PolicyConfig(num_players=6, hidden=(8, 8), features=False)
    model = ActorCritic(config)
    x = torch.zeros(3, config.input_size)
    logits, values = model(x, torch.ones(3, config.num_actions, dtype=torch.int64))
    assert logits.shape == (3, 10) and values.shape == (3,)
    assert config.input_size == 114 + 22 * 6


def test_the_bare_ppo_spec_plays_the_shipped_policy_trained_by_its_config() -> None:
    import yaml

    from holdem_env.agents.ppo import SHIPPED_POLICY

    agent = make_agent("ppo")
    assert isinstance(agent, PpoAgent)
    meta, config = agent.policy.metadata, agent.policy.config
    # the config that trained it is the one its metadata names (configs/<run>.yaml)
    run = yaml.safe_load((Path(__file__).resolve().parent.parent / "configs" / f"{meta['run']}.yaml").read_text())
    assert meta["run"] == run["name"] and meta["round"] == run["rounds"] and meta["seed"] == run["seed"]
    assert meta["iteration"] == run["rounds"] * run["iterations_per_round"]
    assert config.num_players == 2 and list(config.hidden) == run["ppo"]["hidden"]
    assert SHIPPED_POLICY.stat().st_size < 1_000_000  # small enough to ship


def _sample_rows_one_by_one(probs: np.ndarray, masks: np.ndarray, rngs: list[np.random.Generator]) -> list[int]:
    """The definition of sample_actions, row by row: the legal ids' running sum over its last entry."""
    out = []
    for row, mask, rng in zip(probs, masks, rngs, strict=True):
        legal = np.flatnonzero(mask)
        cdf = np.cumsum(row[legal])
        if not cdf[-1] > 0:
            cdf = np.arange(1.0, legal.size + 1)
        out.append(int(legal[min(int(np.searchsorted(cdf / cdf[-1], rng.random(), side="right")), legal.size - 1)]))
    return out


def _generators(seed: int, n: int, shared: bool) -> list[np.random.Generator]:
    return [np.random.default_rng(seed)] * n if shared else [np.random.default_rng((seed, i)) for i in range(n)]


@pytest.mark.parametrize("shared", [True, False])
def test_sample_actions_vectorised_equals_row_by_row(shared: bool) -> None:
    rng = np.random.default_rng(11)
    for k in range(200):
        n = int(rng.integers(1, 30))
        probs = rng.dirichlet(np.ones(10) * 0.3, size=n)
        masks = (rng.random((n, 10)) < 0.6).astype(np.int8)
        masks[np.arange(n), rng.integers(0, 10, n)] = 1
        if k % 3 == 0:
            probs[0] = 0.0  # an underflowed row: uniform over its legal ids
        if k % 5 == 0:
            probs[-1, 4] = np.nan
        fast = sample_actions(probs, masks, _generators(k, n, shared))
        assert fast.tolist() == _sample_rows_one_by_one(probs, masks, _generators(k, n, shared))
        assert masks[np.arange(n), fast].all()


def test_sample_actions_refuses_a_row_with_no_legal_action() -> None:
    with pytest.raises(HoldemError, match="allows no action"):
        sample_actions(np.full((2, 3), 1 / 3), np.array([[1, 0, 0], [0, 0, 0]]), [np.random.default_rng(0)] * 2)
