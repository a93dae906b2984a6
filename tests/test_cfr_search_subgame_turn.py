"""Turn re-solving: the river's start from a turn re-solve (exact against the solver's own chance node), and the turn's safe re-solve checked against exact best responses."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from holdem_env.agents.cfr_search.beliefs import range_after
from holdem_env.agents.cfr_search.follow import Public
from holdem_env.agents.cfr_search.resolve import Subgame, opponent_values, resolve
from holdem_env.agents.cfr_search.search import river_start
from holdem_env.agents.cfr_search.tree import CHANCE, DECISION, SubgameError, SubgameSpec
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, blocked_by

TURN = parse_cards("Ks 9h 5d 2c")
SPEC = SubgameSpec(board=TURN, contrib=(200, 200), stacks=(800, 800), first=1)
RIVER: dict[str, Any] = {"river_sizes": (0.5, 1.0), "river_max_raises": 1}


def _public(me: int, river_card: int, turn_actions: tuple[tuple[int, int, str, int], ...], c: int) -> Public:
    """A river state after ``turn_actions``, each player with ``c`` in the pot at the river's start."""
    board = TURN + (river_card,)
    return Public(
        me=me, seat_of=(0, 1), small_blind=50, big_blind=100, start=(1000, 1000), actions=turn_actions,
        contrib=(c, c), street=3, street_start=(0, 200, 200, c), board=board, key=(),
    )


def _holdings(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(np.flatnonzero(~blocked_by(list(TURN))), n, replace=False))


def test_the_river_start_adds_up_to_the_turn_games_values() -> None:
    # A turn game with no turn betting (check, check, then the river): the opponent's best-response
    # value of each holding at the turn's root is the sum over river cards of its value at each river's
    # start, 1/44 each, with my reach carried over. river_start computes each river's values on its own
    # river tree (a copy of my strategy below that card), the core the whole turn tree at once.
    me, them = 0, 1
    hands = _holdings(4, 60)
    rng = np.random.default_rng(5)
    ranges = np.zeros((2, NUM_HOLDINGS))
    ranges[:, hands] = rng.uniform(0.1, 1.0, (2, len(hands)))
    turn = Subgame(SPEC, ranges, sizes=(1.0,), max_raises=0, holdings=hands, **RIVER)
    for node in range(len(turn.tree)):
        if turn.tree.kind[node] == DECISION and turn.tree.player[node] == me:
            p = rng.uniform(0.0, 1.0, (len(turn.tree.labels[node]), NUM_HOLDINGS))
            turn.set_strategy(node, p / p.sum(axis=0))
    whole = turn.values(them, best_response=True)
    total = np.zeros(NUM_HOLDINGS)
    for card in (c for c in range(52) if c not in TURN):
        my_range, values = river_start(turn, ("k", "k"), _public(me, card, (), 200), **RIVER)
        mass = ranges[me][~blocked_by(list(TURN) + [card])].sum()
        assert np.allclose(my_range * mass, np.where(blocked_by([card]), 0.0, ranges[me]))
        total += np.where(np.isin(HOLDINGS, card).any(axis=1), 0.0, values * mass)
    assert np.allclose(whole[hands], total[hands] / 44, rtol=1e-9, atol=1e-7)
    assert np.ptp(whole[hands]) > 1.0  # not a trivial game


def test_the_river_start_follows_the_re_solved_turn_strategy() -> None:
    # My range at the river is the turn's range times the re-solve's probability of each of my turn actions.
    hands = _holdings(6, 40)
    ranges = np.zeros((2, NUM_HOLDINGS))
    ranges[:, hands] = 1.0
    me = 0
    turn = Subgame(SPEC, ranges, sizes=(1.0,), max_raises=1, holdings=hands, **RIVER)
    turn.solve(30)
    path = ("k", "b600", "c")  # the big blind checks, I bet a pot, it calls
    river_card = parse_cards("7s")[0]
    my_range, values = river_start(turn, path, _public(me, river_card, (), 600), **RIVER)
    expected = range_after(ranges[me], [turn.strategy(("k",))[1]], dead=list(TURN) + [river_card])
    assert np.allclose(my_range, expected)
    assert values.shape == (NUM_HOLDINGS,) and np.isfinite(values).all()
    with pytest.raises(SubgameError, match="does not end the turn"):
        river_start(turn, ("k", "b600"), _public(me, river_card, (), 600), **RIVER)
    with pytest.raises(SubgameError, match="not in its re-solved tree"):
        river_start(turn, ("b999",), _public(me, river_card, (), 600), **RIVER)


def _compose(blueprint: Subgame, sub: Subgame, player: int) -> Subgame:
    """The blueprint with ``player``'s strategy replaced by ``sub``'s (the same tree)."""
    game = Subgame(blueprint.spec, blueprint.ranges, holdings=blueprint.holdings, sizes=(1.0, "allin"), max_raises=1, **RIVER)
    for node in range(len(game.tree)):
        if game.tree.kind[node] == DECISION:
            game.set_strategy(node, (sub if game.tree.player[node] == player else blueprint).strategy(node))
    return game


@pytest.mark.parametrize("seed", [1, 2])
def test_safe_turn_resolving_is_no_more_exploitable_than_the_blueprint(seed: int) -> None:
    # A rough blueprint of a whole turn game (24 holdings); re-solving the turn with the gadget leaves
    # no holding of the opponent's better off against the re-solved strategy than against the
    # blueprint, and the river re-solved from it (river_start) keeps that at the river's start.
    rng = np.random.default_rng(seed)
    hands = _holdings(seed, 24)
    ranges = np.zeros((2, NUM_HOLDINGS))
    ranges[:, hands] = rng.uniform(0.2, 1.0, (2, len(hands)))
    options: dict[str, Any] = {"sizes": (1.0, "allin"), "max_raises": 1, **RIVER}
    blueprint = Subgame(SPEC, ranges, holdings=hands, **options)
    blueprint.solve(4)
    me, them = 1, 0
    their_values = opponent_values(blueprint, them)
    safe = resolve(SPEC, me, ranges[me], their_values, 400, their_holdings=ranges[them] > 0, holdings=hands, **options)
    after = opponent_values(_compose(blueprint, safe, me), them)
    assert np.all(after[hands] <= their_values[hands] + 0.5)  # chips; the pot is 400
    assert (their_values - after)[hands].max() > 5.0  # and re-solving did improve somewhere
    # Solving alone (no gadget, the opponent's range from the blueprint) is not safe here.
    unsafe = Subgame(SPEC, ranges, holdings=hands, **options)
    unsafe.solve(400)
    assert (opponent_values(_compose(blueprint, unsafe, me), them) - their_values)[hands].max() > 5.0
    # The river from the turn's re-solve: the river's gadget values are what the re-solve's river
    # strategy gives; re-solving the river against them leaves every holding at most there.
    card = next(c for c in range(52) if c not in TURN and not np.isin(HOLDINGS[hands], c).any())
    path = ("k", "k")
    public = _public(me, card, (), 200)
    my_range, start = river_start(safe, path, public, **RIVER)
    river = SubgameSpec(board=public.board, contrib=(200, 200), stacks=(800, 800), first=1)
    live = hands[~blocked_by([card])[hands]]
    again = resolve(river, me, my_range, start, 600, their_holdings=np.isin(np.arange(NUM_HOLDINGS), live), holdings=live, sizes=(0.5, 1.0), max_raises=1)
    check = Subgame(river, np.vstack([np.ones(NUM_HOLDINGS), my_range]) if me == 1 else np.vstack([my_range, np.ones(NUM_HOLDINGS)]), holdings=live, sizes=(0.5, 1.0), max_raises=1)
    for node in range(len(check.tree)):
        if check.tree.kind[node] == DECISION and check.tree.player[node] == me:
            check.set_strategy(node, again.strategy(node))
    assert np.all(opponent_values(check, them)[live] <= start[live] + 0.5)
    assert CHANCE in safe.tree.kind


def test_river_buckets_of_a_turn_board_equal_each_rivers_buckets() -> None:
    from holdem_env.agents.cfr_search.abstraction import AbstractionConfig, CardAbstraction
    from holdem_env.agents.cfr_search.follow import BucketTables

    tables = BucketTables(CardAbstraction.uniform(AbstractionConfig(flop_buckets=5, turn_buckets=5, river_buckets=7)))
    got = tables.river_buckets(TURN)
    assert sorted(got) == [c for c in range(52) if c not in TURN]
    for card, buckets in got.items():
        assert np.array_equal(buckets, tables.buckets(TURN + (card,)))
    assert len({int(b) for row in got.values() for b in row}) == 8  # 7 buckets and -1
    with pytest.raises(Exception, match="4 cards"):
        tables.river_buckets(TURN[:3])
