"""Safe re-solving (the gadget game) against exact best responses, and Bayes range updates by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from holdem_env.agents.cfr_search.beliefs import range_after, remove_cards, update_range
from holdem_env.agents.cfr_search.resolve import Subgame, opponent_values, resolve
from holdem_env.agents.cfr_search.tree import DECISION, SubgameError, SubgameSpec
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.ranges import NUM_HOLDINGS, blocked_by, holding_index

TURN = parse_cards("Ks 9h 5d 2c")
RIVER_CARD = parse_cards("7s")[0]
ITERS = 6
SIZES: dict[str, Any] = {"sizes": (1.0, "allin"), "max_raises": 1, "river_sizes": (0.5, 1.0), "river_max_raises": 1}
RIVER_SIZES: dict[str, Any] = {"sizes": (0.5, 1.0), "max_raises": 1}


def _line_range(game: Subgame, player: int, path: tuple[str, ...]) -> np.ndarray:
    """``player``'s reach at the end of ``path`` in ``game`` (its average strategy), by Bayes' rule."""
    t, node, steps, dead = game.tree, 0, [], []
    for label in path:
        if label.startswith("d"):
            dead.append(int(label[1:]))
        elif t.player[node] == player:
            steps.append(game.strategy(node)[t.labels[node].index(label)])
        node = t.children[node][t.labels[node].index(label)]
    return range_after(game.ranges[player], steps, dead=dead)


def _blueprint(seed: int) -> Subgame:
    rng = np.random.default_rng(seed)
    live = np.flatnonzero(~blocked_by(list(TURN) + [RIVER_CARD]))
    hands = np.sort(rng.choice(live, 24, replace=False))
    ranges = np.zeros((2, NUM_HOLDINGS))
    ranges[:, hands] = rng.uniform(0.2, 1.0, (2, len(hands)))
    game = Subgame(SubgameSpec(board=TURN, contrib=(200, 200), stacks=(800, 800)), ranges, holdings=hands, **SIZES)
    game.solve(ITERS)  # a rough blueprint: far from an equilibrium, so re-solving has room to go wrong
    return game


def _compose(blueprint: Subgame, prefix: tuple[str, ...], sub: Subgame, player: int) -> Subgame:
    """The blueprint with ``player``'s strategy in the subgame at ``prefix`` replaced by ``sub``'s."""
    game = Subgame(blueprint.spec, blueprint.ranges, holdings=blueprint.holdings, **SIZES)
    t = game.tree
    for node in range(len(t)):
        if t.kind[node] == DECISION:
            game.set_strategy(node, blueprint.strategy(node))
    for node in range(len(sub.tree)):
        if sub.tree.kind[node] == DECISION and sub.tree.player[node] == player:
            game.set_strategy(prefix + sub.tree.path(node), sub.strategy(node))
    return game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_safe_resolving_is_no_more_exploitable_than_the_blueprint(seed: int) -> None:
    blueprint = _blueprint(seed)
    me, them = 1, 0
    prefix = ("k", "k", f"d{RIVER_CARD}")
    river = SubgameSpec(board=TURN + (RIVER_CARD,), contrib=(200, 200), stacks=(800, 800))
    # The subgame as the blueprint plays it: my range there, and the opponent's best-response values.
    ranges = np.vstack([_line_range(blueprint, them, prefix), _line_range(blueprint, me, prefix)])
    given = Subgame(
        river, ranges, holdings=blueprint.holdings[~blocked_by([RIVER_CARD])[blueprint.holdings]], **RIVER_SIZES
    )
    for node in range(len(given.tree)):
        if given.tree.kind[node] == DECISION:
            given.set_strategy(node, blueprint.strategy(prefix + given.tree.path(node)))
    their_values = opponent_values(given, them)

    def their_best(strategy: Subgame) -> np.ndarray:
        check = Subgame(river, ranges, holdings=given.holdings, **RIVER_SIZES)
        for node in range(len(check.tree)):
            if check.tree.kind[node] == DECISION:
                check.set_strategy(node, strategy.strategy(node))
        return opponent_values(check, them)

    safe = resolve(
        river,
        me,
        ranges[me],
        their_values,
        3000,
        their_holdings=ranges[them] >= 0,
        holdings=given.holdings,
        **RIVER_SIZES,
    )
    # Against the re-solved strategy no holding of the opponent's does better than against the blueprint...
    after = their_best(safe)
    assert np.all(after[given.holdings] <= their_values[given.holdings] + 0.05)
    # ... so in the whole game, the opponent's best response gains no more than against the blueprint.
    before = blueprint.game_value(them, best_response=True)
    composed = _compose(blueprint, prefix, safe, me).game_value(them, best_response=True)
    assert composed <= before + 1e-3
    assert (their_values - after)[given.holdings].max() > 1.0  # and re-solving did improve somewhere
    # Solving the subgame alone (the opponent's range from the blueprint, no gadget) is not safe here:
    # some holding of the opponent's gains against it, which the first check above would catch.
    unsafe = Subgame(river, ranges, holdings=given.holdings, **RIVER_SIZES)
    unsafe.solve(3000)
    assert (their_best(unsafe) - their_values)[given.holdings].max() > 1.0


def test_resolve_rejects_bad_input() -> None:
    spec = SubgameSpec(board=TURN + (RIVER_CARD,), contrib=(200, 200), stacks=(800, 800))
    with pytest.raises(SubgameError, match="one value per holding"):
        resolve(spec, 0, np.ones(NUM_HOLDINGS), np.zeros(5), 1)
    with pytest.raises(SubgameError, match="me is 0 or 1"):
        resolve(spec, 2, np.ones(NUM_HOLDINGS), np.zeros(NUM_HOLDINGS), 1)
    with pytest.raises(SubgameError, match="my_range"):
        resolve(spec, 0, -np.ones(NUM_HOLDINGS), np.zeros(NUM_HOLDINGS), 1)


# ------------------------------------------------------------------------------------ range updates
def test_bayes_update_by_hand() -> None:
    """A range of four holdings; a bet taken with probabilities 1/2, 1/4, 1, 0; then a call with 1,
    1, 1/2, 1; then the Ah seen. Posterior by hand: weights 1*1/2*1, 2*1/4*1, 1*1*1/2 and 0 (never
    bets), the Ah holding out: (1/2, -, 1/2)/1 -> AsKs 0.5, AhKh 0, QcQd 0.5, 7c2d 0."""
    names = ["AsKs", "AhKh", "QcQd", "7c2d"]
    idx = [holding_index(*parse_cards(x)) for x in names]
    prior = np.zeros(NUM_HOLDINGS)
    prior[idx] = [1.0, 2.0, 1.0, 1.0]
    bet, call = np.zeros(NUM_HOLDINGS), np.zeros(NUM_HOLDINGS)
    bet[idx] = [0.5, 0.25, 1.0, 0.0]
    call[idx] = [1.0, 1.0, 0.5, 1.0]
    post = range_after(prior, [bet, call], dead=parse_cards("Ah"))
    assert post[idx] == pytest.approx([0.5, 0.0, 0.5, 0.0])
    assert post.sum() == pytest.approx(1.0)
    # without the Ah: 1/2, 1/2, 1/2 over 3/2
    assert range_after(prior, [bet, call])[idx] == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0])
    assert update_range(prior, bet)[idx] == pytest.approx([0.5, 0.5, 1.0, 0.0])
    assert remove_cards(np.ones(NUM_HOLDINGS), parse_cards("Ah Kh")).sum() == NUM_HOLDINGS - 101
    with pytest.raises(SubgameError, match="no holding is left"):
        range_after(prior, [np.zeros(NUM_HOLDINGS)])
    with pytest.raises(SubgameError, match="at most 1"):
        update_range(prior, np.full(NUM_HOLDINGS, 2.0))
