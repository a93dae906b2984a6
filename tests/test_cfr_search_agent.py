"""The cfr-search bot: legal play on every street, range answers equal to act, determinism, the heads-up-only error, off-tree translation, river and turn re-solving."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from enginekit import play_passively, seat0_decisions

from holdem_env.agents import make_agent
from holdem_env.agents.base import AgentSpecError
from holdem_env.agents.cfr_search.abstraction import AbstractionConfig
from holdem_env.agents.cfr_search.agent import CfrSearchAgent, preflop_percentiles, preflop_share
from holdem_env.agents.cfr_search.blueprint import Blueprint
from holdem_env.agents.cfr_search.follow import BucketTables, bet_uniform, blueprint_matrix, public_state, walk
from holdem_env.agents.cfr_search.resolve import Subgame
from holdem_env.agents.cfr_search.search import flop_turn_start, map_blueprint, resolve_street, river_start
from holdem_env.agents.cfr_search.tree import SubgameSpec
from holdem_env.agents.preflop import hand_class
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import HOLDINGS
from holdem_env.env import nlhe_v1
from holdem_env.training.cfr_search.build import build_blueprint
from holdem_env.training.cfr_search.nolimit import NoLimitConfig
from holdem_env.training.cfr_search.solver import Pruning

BLINDS = {"small_blind": 50, "big_blind": 100, "buy_in": 20000}


@pytest.fixture(scope="module")
def blueprint(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A tiny 200 bb blueprint (4 buckets a street, 30,000 iterations): seconds to build."""
    out = tmp_path_factory.mktemp("bp") / "tiny.npz"
    build_blueprint(
        str(out),
        game=NoLimitConfig(stack=20_000),
        abstraction=AbstractionConfig(flop_buckets=4, turn_buckets=4, river_buckets=4, bins=5, flops=2),
        iterations=30_000,
        pool_flops=2,
        seed=0,
        pruning=Pruning(after=10**9),
        quiet=True,
    )
    return str(out)


def _env(mode: str = "discrete", players: int = 2, **table: int) -> Any:
    return nlhe_v1.env(num_players=players, action_mode=mode, reward_unit="chips", **{**BLINDS, **table})


def _river_state(blueprint: str, mode: str = "discrete", street: str = "river") -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """An env at a decision of seat 0 on ``street`` (both players check or call down a raised pot)."""
    env = _env(mode)
    for seed in range(50):
        env.reset(seed=seed, options={"button": 0})
        # the button raises (id 5: half a pot in discrete mode), everything after is checked or called
        env.step(5 if mode == "discrete" else 301)
        while True:
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                break
            view = info["view"]
            if view["street"] == street and env.agent_selection == "player_0":
                return env, obs, info
            env.step(1)
    raise AssertionError("no river decision reached")


# ------------------------------------------------------------------------------ errors, specs
def test_heads_up_only_and_blind_ratio_errors(blueprint: str) -> None:
    agent = CfrSearchAgent(blueprint=blueprint, seed=0)
    env = _env(players=3)
    env.reset(seed=0)
    obs, _, _, _, info = env.last()
    with pytest.raises(ConfigError, match="heads-up only: use a table of 2 seats"):
        agent.act(obs, info)
    env = _env(small_blind=100, big_blind=100)
    env.reset(seed=0)
    obs, _, _, _, info = env.last()
    with pytest.raises(ConfigError, match="blinds in the ratio 50/100"):
        agent.act(obs, info)
    with pytest.raises(ConfigError, match="resolve"):
        CfrSearchAgent(blueprint=blueprint, resolve="everything")


def test_spec_builds_the_agent_and_a_missing_blueprint_names_the_build_command(blueprint: str, tmp_path: Path) -> None:
    agent = make_agent(f"cfr-search(blueprint={blueprint!r})", rng=np.random.default_rng(0))
    assert isinstance(agent, CfrSearchAgent)
    with pytest.raises(AgentSpecError, match="python -m holdem_env.training.cfr_search build"):
        make_agent(f"cfr-search(blueprint={str(tmp_path / 'none.npz')!r})")


# ------------------------------------------------------------------------------ playing
@pytest.mark.parametrize("mode", ["discrete", "exact"])
def test_legal_actions_on_every_street_against_random_and_tag(blueprint: str, mode: str) -> None:
    env = _env(mode)
    agent = CfrSearchAgent(blueprint=blueprint, seed=3)
    streets: set[str] = set()
    for spec in ("random", "tag"):
        opponent = make_agent(spec, rng=np.random.default_rng(1))
        for _, obs, info, action in seat0_decisions(env, agent, opponent, 30 if spec == "random" else 20, alternate_button=True):
            assert obs["action_mask"][action], (action, info["legal"])
            streets.add(info["view"]["street"])
    assert streets == {"preflop", "flop", "turn", "river"}
    assert agent.counts["resolved"] > 0 and agent.counts["blueprint"] > 0


def test_arena_and_a_table_of_other_stakes(blueprint: str) -> None:
    from holdem_env.training.arena import ArenaConfig, run_match

    spec = f"cfr-search(blueprint={blueprint!r})"
    # holdem eval's defaults: blinds 5/10, 100 bb
    result = run_match(ArenaConfig(agents=(spec, "tag"), hands=12, seed=5))
    row = next(r for r in result.rows if r["agent"] == spec)
    assert row["hands"] == 12 and row["first_error"] is None


def test_the_play_table_seats_it(blueprint: str) -> None:
    from holdem_env.play.session import PlayConfig, PlaySession

    session = PlaySession(PlayConfig(players=2, opponents=(f"cfr-search(blueprint={blueprint!r})",), seed=1, bot_delay=0, clock=0))
    play_passively(session, 3)
    assert session.hands_played == 3


def test_same_seed_same_actions(blueprint: str) -> None:
    def actions(seed: int) -> list[int]:
        env = _env()
        agent = CfrSearchAgent(blueprint=blueprint, seed=seed)
        opponent = make_agent("random", rng=np.random.default_rng(9))
        return [a for _, _, _, a in seat0_decisions(env, agent, opponent, 12, alternate_button=True)]

    first = actions(11)
    assert first == actions(11)
    assert first != actions(12)


# ------------------------------------------------------------------------------ range queries
def test_range_answers_are_what_act_samples(blueprint: str) -> None:
    env = _env()
    agent = CfrSearchAgent(blueprint=blueprint, seed=0)
    opponent = make_agent("tag", rng=np.random.default_rng(2))
    checked = set()
    for _, obs, info, _ in seat0_decisions(env, agent, opponent, 12, alternate_button=True):
        hole = parse_cards(info["view"]["hole_cards"])
        probs = agent.action_probabilities(obs, info, HOLDINGS)
        assert probs.shape == (1326, len(obs["action_mask"]))
        assert np.allclose(probs.sum(axis=1), 1.0) and not probs[:, ~obs["action_mask"].astype(bool)].any()
        # act draws one uniform and inverts its holding's row: replay the draws (a new generator also
        # brings a new translation key, so the row is asked again under it)
        for s in range(20):
            agent.set_rng(np.random.default_rng(s))
            row = agent.action_probabilities(obs, info, np.array([hole]))[0]
            twin = np.random.default_rng(s)
            twin.integers(2**62)  # set_rng draws the translation key first
            u = twin.random()
            expected = np.flatnonzero(np.cumsum(row) / row.sum() > u)[0]
            assert agent.act(obs, info) == expected
        checked.add(info["view"]["street"])
    assert {"preflop", "flop"} <= checked


def test_river_range_answers_match_act_frequencies(blueprint: str) -> None:
    env, obs, info = _river_state(blueprint)
    agent = CfrSearchAgent(blueprint=blueprint, seed=0)
    hole = parse_cards(info["view"]["hole_cards"])
    row = agent.action_probabilities(obs, info, np.array([hole]))[0]
    n = 400
    counts = np.zeros(len(row))
    for s in range(n):
        agent.set_rng(np.random.default_rng(100 + s))
        counts[agent.act(obs, info)] += 1
    for a, p in enumerate(row):
        assert abs(counts[a] / n - p) <= 4.0 * math.sqrt(max(p * (1 - p), 1e-4) / n) + 1e-9, (a, p, counts[a])
    assert agent.counts["resolved"] >= 1


# ------------------------------------------------------------------------------ translation
def test_an_off_tree_raise_maps_pseudo_harmonically(blueprint: str) -> None:
    # the button raises to 400 preflop: 1.5 pots after the call; the tree has 1 pot (r300) and 2 pots (r500)
    # f(1.5) = (2 - 1.5)(1 + 1) / ((2 - 1)(1 + 1.5)) = 0.4 is the probability of r300
    agent = CfrSearchAgent(blueprint=blueprint, seed=0)
    bp = agent.blueprint
    env = _env("exact")
    env.reset(seed=0, options={"button": 0})
    env.step(401)
    _, _, _, _, info = env.last()
    public = public_state(info["view"], (50, 100))
    assert public.me == 1 and public.actions == ((0, 0, "r", 400),)
    labels = [label for label, _ in bp.children(bp.root)]
    assert {"r300", "r500"} <= set(labels)
    lows = 0
    for key in range(400):
        w = walk(bp, public, key)
        label = labels[w.steps[0].child]
        assert label == ("r300" if bet_uniform(key, public, 0) < 0.4 else "r500")
        lows += label == "r300"
    assert abs(lows / 400 - 0.4) < 4 * math.sqrt(0.24 / 400)
    # our own raise to 400 goes to the nearest size on a log scale: |log 1.5| > |log(2 / 1.5)|, so r500
    env.reset(seed=0, options={"button": 1})
    env.step(201)  # the button (seat 1) raises to 200 (a half pot: in the tree)
    env.step(401)
    _, _, _, _, info = env.last()  # the button's view; read it as the big blind's own (who raised)
    mine = dataclasses.replace(public_state(info["view"], (50, 100)), me=1)
    assert mine.me == 1 and mine.actions[-1] == (1, 0, "r", 400)
    w = walk(bp, mine, 0)
    node = bp.first[bp.root] + w.steps[0].child
    assert labels[w.steps[0].child] == "r200"
    fractions = {label: (int(label[1:]) - 200) / 400 for label, _ in bp.children(node) if label.startswith("r")}
    nearest = min(fractions, key=lambda lb: abs(math.log(1.0 / max(fractions[lb], 1e-9))))  # x = (400 - 200) / 400 = 0.5
    assert bp.children(node)[w.steps[1].child][0] == nearest


def test_an_uncommitted_raise_is_never_read_as_all_in(blueprint: str) -> None:
    # the button opens to 200 (the tree's half pot); the big blind re-raises. Above the tree's largest
    # re-raise (1 pot: r600) the only bigger size is the all-in: the pseudo-harmonic mapping between
    # them would read a re-raise to 1,000 as the all-in 35% of the time, ending the tree
    bp = CfrSearchAgent(blueprint=blueprint, seed=0).blueprint
    env = _env("exact")
    node = bp.first[bp.root] + [label for label, _ in bp.children(bp.root)].index("r200")
    labels = [label for label, _ in bp.children(node)]
    assert labels[-1] == "a" and [lb for lb in labels if lb.startswith("r")] == ["r600"]

    def reads(to: int) -> set[str]:
        env.reset(seed=0, options={"button": 0})
        env.step(201)
        env.step(to + 1)
        _, _, _, _, info = env.last()
        public = public_state(info["view"], (50, 100))
        assert public.me == 0 and public.actions[-1] == (1, 0, "r", to)
        out = set()
        for key in range(200):
            w = walk(bp, public, key)
            assert not w.lost
            out.add(labels[w.steps[1].child])
        return out

    # 1,000: 19,000 behind against a pot of 2,000 once called, never the all-in
    assert reads(1000) == {"r600"}
    # 8,000: 12,000 behind against 16,000: committed, the all-in is a neighbour (94% of the time)
    assert reads(8000) == {"r600", "a"}


def test_off_the_tree_preflop_the_bot_calls_by_the_price(blueprint: str) -> None:
    # five raises preflop: the tree allows four, so the big blind's answer to the fifth (to 15,000) is the
    # off-tree rule's: 6,900 to call into 23,100 (price 0.23) calls with the strongest 64% of the holdings
    agent = CfrSearchAgent(blueprint=blueprint, seed=0)
    env = _env("exact")
    env.reset(seed=0, options={"button": 0})
    for to in (300, 900, 2700, 8100, 15000):
        env.step(to + 1)
    obs, _, _, _, info = env.last()
    assert walk(agent.blueprint, public_state(info["view"], (50, 100)), 0).lost
    probs = agent.action_probabilities(obs, info, HOLDINGS)
    assert agent.counts["off_tree"] == 1
    price = 6900 / (23100 + 6900)
    share = preflop_share(price)
    assert share == pytest.approx(1.1 - 2 * price)
    classes = {hand_class((int(a), int(b))): row for (a, b), row in zip(HOLDINGS, probs, strict=True)}
    for cls, calls in (("AA", True), ("99", True), ("A5s", True), ("K9o", True), ("72o", False), ("32o", False)):
        assert classes[cls][1] == (1.0 if calls else 0.0) and classes[cls][0] == (0.0 if calls else 1.0), cls
    called = probs[:, 1] == 1.0
    assert called.sum() == (preflop_percentiles() <= share).sum()
    assert 0.6 < called.mean() < 0.68
    # the price of a shove for the stacks (1/2) keeps the strongest tenth; the floor is TT+ and AK
    assert preflop_share(0.5) == pytest.approx(0.1) and preflop_share(0.9) == 0.038


# ------------------------------------------------------------------------------ re-solving
def test_the_river_plays_the_resolved_strategy(blueprint: str) -> None:
    env, obs, info = _river_state(blueprint)
    solving = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="river")
    plain = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="none")
    live = np.flatnonzero(~np.isin(HOLDINGS, parse_cards(info["view"]["board"])).any(axis=1))
    solved = solving.action_probabilities(obs, info, HOLDINGS[live])
    blue = plain.action_probabilities(obs, info, HOLDINGS[live])
    # the same strategy as a re-solve by hand
    public = public_state(info["view"], (50, 100))
    sub, path = resolve_street(
        solving.blueprint, public, walk(solving.blueprint, public, solving._key), solving.tables,
        sizes=solving.sizes, max_raises=solving.max_raises, iterations=solving.iterations,
    )
    ids, rows = solving._decision(obs, info)
    assert len(ids) == len(sub.tree.labels[sub.tree.find(path)])  # no two tree actions share an env id here
    assert np.allclose(rows[:, live], sub.strategy(path)[:, live])
    assert np.allclose(solved[:, ids], rows[:, live].T)
    # the blueprint plays every holding of a bucket alike; the re-solve tells them apart
    buckets = solving.tables.buckets(public.board)[live]
    spread_blue = max(np.ptp(blue[buckets == b], axis=0).max() for b in np.unique(buckets))
    spread_solved = max(np.ptp(solved[buckets == b], axis=0).max() for b in np.unique(buckets))
    assert spread_blue < 1e-9 and spread_solved > 0.3
    assert solving.counts["resolved"] == 1 and plain.counts["resolved"] == 0


def _turn_solve_by_hand(agent: CfrSearchAgent, public: Any) -> Any:
    """The turn's re-solve at a turn state, with the agent's turn options."""
    return resolve_street(
        agent.blueprint, public, walk(agent.blueprint, public, agent._key), agent.tables, sizes=agent.turn_sizes,
        max_raises=agent.turn_max_raises, iterations=agent.turn_iterations, river_sizes=agent.turn_river_sizes,
        river_max_raises=1, rivers=agent.turn_rivers,
    )


def test_bad_resolve_options_are_refused(blueprint: str) -> None:
    with pytest.raises(ConfigError, match="'turn' .*'river' .*'none'.*'flop'"):
        CfrSearchAgent(blueprint=blueprint, resolve="preflop")
    with pytest.raises(ConfigError, match="flop_cards"):
        CfrSearchAgent(blueprint=blueprint, flop_cards=1)
    with pytest.raises(ConfigError, match="flop_iterations"):
        CfrSearchAgent(blueprint=blueprint, flop_iterations=0)
    with pytest.raises(ConfigError, match="flop_sizes.*pot fractions"):
        CfrSearchAgent(blueprint=blueprint, flop_sizes=(0,))
    with pytest.raises(ConfigError, match="turn_rivers"):
        CfrSearchAgent(blueprint=blueprint, turn_rivers=0)
    with pytest.raises(ConfigError, match="turn_sizes.*pot fractions"):
        CfrSearchAgent(blueprint=blueprint, turn_sizes=("big",))
    with pytest.raises(AgentSpecError, match="resolve"):
        make_agent(f"cfr-search(blueprint={blueprint!r}, resolve='all')")


def _act_draws_from_its_row_and_buckets_split(
    solving: CfrSearchAgent, plain: CfrSearchAgent, obs: Any, info: Any, solved: np.ndarray, draws: int
) -> None:
    """``act`` draws one uniform and inverts its holding's row (``draws`` seeds); ``plain`` plays the
    blueprint at this state, every holding of a bucket alike, and the re-solve (``solved``: its range
    answers for the live holdings) does not."""
    hole = parse_cards(info["view"]["hole_cards"])
    for s in range(draws):
        solving.set_rng(np.random.default_rng(s))
        row = solving.action_probabilities(obs, info, np.array([hole]))[0]
        twin = np.random.default_rng(s)
        twin.integers(2**62)
        assert solving.act(obs, info) == np.flatnonzero(np.cumsum(row) / row.sum() > twin.random())[0]
    board = parse_cards(info["view"]["board"])
    live = np.flatnonzero(~np.isin(HOLDINGS, board).any(axis=1))
    blue = plain.action_probabilities(obs, info, HOLDINGS[live])
    buckets = solving.tables.buckets(board)[live]
    assert max(np.ptp(blue[buckets == b], axis=0).max() for b in np.unique(buckets)) < 1e-9
    assert max(np.ptp(solved[buckets == b], axis=0).max() for b in np.unique(buckets)) > 0.3
    assert solving.counts["resolved"] >= 1 and plain.counts["resolved"] == 0


def test_the_turn_plays_the_resolved_strategy_and_act_samples_it(blueprint: str) -> None:
    env, obs, info = _river_state(blueprint, street="turn")
    solving = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="turn")
    plain = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="river")
    board = parse_cards(info["view"]["board"])
    live = np.flatnonzero(~np.isin(HOLDINGS, board).any(axis=1))
    public = public_state(info["view"], (50, 100))
    sub, path = _turn_solve_by_hand(solving, public)
    assert len(board) == 4 and sub.tree.kind.count(3) > 0  # a turn subgame, with its river chance nodes
    ids, rows = solving._decision(obs, info)
    assert len(ids) == len(sub.tree.labels[sub.tree.find(path)])
    assert np.array_equal(rows[:, live], sub.strategy(path)[:, live])  # the same solve: seeded by the subgame
    solved = solving.action_probabilities(obs, info, HOLDINGS[live])
    assert np.allclose(solved[:, ids], rows[:, live].T)
    _act_draws_from_its_row_and_buckets_split(solving, plain, obs, info, solved, 10)


def test_the_river_starts_from_the_turn_resolve(blueprint: str) -> None:
    env, obs, info = _river_state(blueprint)
    turn_agent = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="turn")
    river_agent = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="river")
    ids, rows = turn_agent._decision(obs, info)
    # by hand: the turn's re-solve at the end of the turn, the river's start from it, the river's re-solve
    public = public_state(info["view"], (50, 100))
    c = public.street_start[3]
    at_turn = dataclasses.replace(
        public, actions=tuple(a for a in public.actions if a[1] <= 2), street=2, board=public.board[:4],
        street_start=public.street_start[:3], contrib=(c, c),
    )
    turn, turn_path = _turn_solve_by_hand(turn_agent, at_turn)
    start = river_start(turn, turn_path, public, river_sizes=turn_agent.turn_river_sizes, river_max_raises=1)
    sub, path = resolve_street(
        turn_agent.blueprint, public, walk(turn_agent.blueprint, public, turn_agent._key), turn_agent.tables,
        sizes=turn_agent.sizes, max_raises=turn_agent.max_raises, iterations=turn_agent.iterations, start=start,
    )
    live = np.flatnonzero(~np.isin(HOLDINGS, public.board).any(axis=1))
    assert np.allclose(rows[:, live], sub.strategy(path)[:, live])
    # my river range is the turn re-solve's, not the blueprint's: another strategy than the river-only bot's
    _, river_rows = river_agent._decision(obs, info)
    assert river_rows.shape == rows.shape and np.abs(river_rows - rows)[:, live].max() > 0.05


def test_turn_resolving_plays_legally_and_deterministically(blueprint: str) -> None:
    def play(seed: int, spec: str, hands: int) -> tuple[list[int], CfrSearchAgent]:
        env = _env()
        agent = CfrSearchAgent(blueprint=blueprint, seed=seed, resolve="turn")
        opponent = make_agent(spec, rng=np.random.default_rng(1))
        actions = []
        for _, obs, info, action in seat0_decisions(env, agent, opponent, hands, alternate_button=True):
            assert obs["action_mask"][action], (action, info["legal"])
            actions.append(action)
        return actions, agent

    first, agent = play(5, "tag", 8)
    assert first == play(5, "tag", 8)[0]
    assert agent.counts["resolved"] > 0
    play(6, "random", 8)


# ------------------------------------------------------------------------------ bets below the smallest size
def _flop_bet(bet_to: int) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """The big blind facing the button's flop bet to ``bet_to`` (exact mode) in a pot raised to 300 a side."""
    env = _env("exact")
    env.reset(seed=0, options={"button": 0})
    for action in (301, 1, 1, bet_to + 1):  # raise to 300, call; on the flop check, bet
        env.step(action)
    obs, _, _, _, info = env.last()
    assert info["view"]["street"] == "flop" and info["legal"]["call"] == bet_to
    return env, obs, info


def test_a_bet_below_the_smallest_size_moves_the_pseudo_harmonic_share_of_folds_to_calls(blueprint: str) -> None:
    env, obs, info = _flop_bet(150)  # a quarter of the 600 pot, below the tree's smallest bet (half the pot)
    agent = CfrSearchAgent(blueprint=blueprint, seed=0, action_mode="exact")
    public = public_state(info["view"], (50, 100))
    walked = walk(agent.blueprint, public, agent._key)
    w = (0.5 - 0.25) / (0.5 * 1.25)  # the pseudo-harmonic weight of no bet between 0 and 0.5
    assert not walked.lost and walked.under == pytest.approx(w) and walked.steps[-1].under == pytest.approx(w)
    probs = agent.action_probabilities(obs, info, HOLDINGS)
    blue = blueprint_matrix(agent.blueprint, walked.node, agent.tables.buckets(public.board))
    live = np.flatnonzero(~np.isin(HOLDINGS, public.board).any(axis=1))
    assert blue[0, live].max() > 0.1  # some holding folds in the blueprint, so the test can fail
    # by hand: the fold keeps (1 - w) of the blueprint's, the call gains the rest
    assert np.allclose(probs[live, 0], (1 - w) * blue[0, live])
    assert np.allclose(probs[live, 1], blue[1, live] + w * blue[0, live])
    # a bet of the smallest size itself is read as it, with no mix
    _, obs, info = _flop_bet(300)
    assert walk(agent.blueprint, public_state(info["view"], (50, 100)), agent._key).under == 0.0


def test_the_blueprint_mapped_onto_a_flop_subgame_plays_each_turn_cards_buckets(blueprint: str) -> None:
    """``map_blueprint`` on a flop subgame (the river checked down): at the big blind's first turn decision
    below each turn card, the strategy is the blueprint's turn node at that turn board's buckets (the
    subgame's sizes are the blueprint's first-bet sizes, so each action maps to one)."""
    bp = Blueprint(blueprint)
    tables = BucketTables(bp.abstraction)

    def after(node: int, *labels: str) -> int:
        for label in labels:
            node = dict(bp.children(node))[label]
        return node

    flop_root = after(bp.root, "c", "c")  # the button limps, the big blind checks
    flop = parse_cards("Ks 9h 5d")
    spec = SubgameSpec(board=flop, contrib=(100, 100), stacks=(19_900, 19_900), first=1, big_blind=100)
    sizes = (0.5, 1.0, 2.0, "allin")
    sub = Subgame(spec, np.ones((2, 1326)), sizes=sizes, max_raises=1, turn_sizes=sizes, turn_max_raises=1, river_sizes=())
    assert map_blueprint(sub, bp, flop_root, (100, 100), 1, tables.buckets(flop), board_buckets=tables.buckets) > 49
    turn_root = after(flop_root, "c", "c")
    got = []
    for card in (parse_cards("2c")[0], parse_cards("Ah")[0]):
        node = sub.tree.find(["k", "k", f"d{card}"])
        buckets = tables.buckets((*flop, card))
        live = buckets >= 0
        want = blueprint_matrix(bp, turn_root, buckets)
        assert [label for label, _ in bp.children(turn_root)][0] == "c" and len(want) == len(sub.tree.labels[node])
        np.testing.assert_allclose(sub.strategy(node)[:, live], want[:, live])
        got.append(sub.strategy(node)[:, live & (tables.buckets((*flop, parse_cards("2c")[0], parse_cards("Ah")[0])) >= 0)])
    assert not np.allclose(got[0], got[1])  # each turn card's own buckets, not one table for all


# ------------------------------------------------------------------------------ flop re-solving (an option)
def _flop_solve_by_hand(agent: CfrSearchAgent, public: Any) -> Any:
    """The flop's re-solve at a flop state, with the agent's flop options (the turn and river checked down)."""
    return resolve_street(
        agent.blueprint, public, walk(agent.blueprint, public, agent._key), agent.tables, sizes=agent.flop_sizes,
        max_raises=agent.flop_max_raises, iterations=agent.flop_iterations, river_sizes=(), river_max_raises=1,
        turn_sizes=(), turns=agent.flop_cards, rivers=agent.flop_cards,
    )


def test_the_flop_plays_the_resolved_strategy_and_act_samples_it(blueprint: str) -> None:
    env, obs, info = _river_state(blueprint, street="flop")
    solving = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="flop", flop_iterations=20)
    plain = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="turn")
    board = parse_cards(info["view"]["board"])
    live = np.flatnonzero(~np.isin(HOLDINGS, board).any(axis=1))
    public = public_state(info["view"], (50, 100))
    sub, path = _flop_solve_by_hand(solving, public)
    assert len(board) == 3 and sub.tree.kind.count(3) > 0  # a flop subgame, with its turn and river chance nodes
    assert all(sub.tree.turn[n] < 0 for n in range(len(sub.tree)) if sub.tree.kind[n] == 0)  # decisions: the flop's only
    ids, rows = solving._decision(obs, info)
    assert np.array_equal(rows[:, live], sub.strategy(path)[:, live])  # the same solve: seeded by the subgame
    solved = solving.action_probabilities(obs, info, HOLDINGS[live])
    assert np.allclose(solved[:, ids], rows[:, live].T)
    _act_draws_from_its_row_and_buckets_split(solving, plain, obs, info, solved, 5)


def test_the_turn_starts_from_the_flop_resolve(blueprint: str) -> None:
    env, obs, info = _river_state(blueprint, street="turn")
    flop_agent = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="flop", flop_iterations=20)
    turn_agent = CfrSearchAgent(blueprint=blueprint, seed=0, resolve="turn")
    ids, rows = flop_agent._decision(obs, info)
    public = public_state(info["view"], (50, 100))
    c = public.street_start[2]
    at_flop = dataclasses.replace(
        public, actions=tuple(a for a in public.actions if a[1] <= 1), street=1, board=public.board[:3],
        street_start=public.street_start[:2], contrib=(c, c),
    )
    flop, flop_path = _flop_solve_by_hand(flop_agent, at_flop)
    walked = walk(flop_agent.blueprint, public, flop_agent._key)
    start = flop_turn_start(
        flop, flop_path, flop_agent.blueprint, public, walked, flop_agent.tables, sizes=flop_agent.turn_sizes,
        max_raises=flop_agent.turn_max_raises, river_sizes=flop_agent.turn_river_sizes, river_max_raises=1,
    )
    # my turn range: the flop range times the re-solved flop strategy's probability of my flop actions
    me = public.me
    steps = []
    node = 0
    for label in flop_path:
        j = flop.tree.labels[node].index(label)
        if flop.tree.player[node] == me:
            steps.append(flop.strategy(node)[j])
        node = flop.tree.children[node][j]
    want = flop.ranges[me] * np.prod(steps, axis=0) * ~np.isin(HOLDINGS, public.board).any(axis=1)
    assert np.allclose(start[0], want / want.sum())
    sub, path = resolve_street(
        flop_agent.blueprint, public, walked, flop_agent.tables, sizes=flop_agent.turn_sizes,
        max_raises=flop_agent.turn_max_raises, iterations=flop_agent.turn_iterations,
        river_sizes=flop_agent.turn_river_sizes, river_max_raises=1, rivers=flop_agent.turn_rivers, start=start,
    )
    live = np.flatnonzero(~np.isin(HOLDINGS, public.board).any(axis=1))
    assert np.allclose(rows[:, live], sub.strategy(path)[:, live])
    _, turn_rows = turn_agent._decision(obs, info)  # the turn-resolving bot starts from the blueprint's range
    assert turn_rows.shape == rows.shape and np.abs(turn_rows - rows)[:, live].max() > 0.05


def test_flop_resolving_plays_legally_and_deterministically(blueprint: str) -> None:
    def play(seed: int, spec: str, hands: int) -> tuple[list[int], CfrSearchAgent]:
        env = _env()
        agent = CfrSearchAgent(blueprint=blueprint, seed=seed, resolve="flop", flop_iterations=10)
        opponent = make_agent(spec, rng=np.random.default_rng(1))
        actions = []
        for _, obs, info, action in seat0_decisions(env, agent, opponent, hands, alternate_button=True):
            assert obs["action_mask"][action], (action, info["legal"])
            actions.append(action)
        return actions, agent

    first, agent = play(5, "tag", 6)
    assert first == play(5, "tag", 6)[0]
    assert agent.counts["resolved"] > 0
    play(6, "random", 6)
