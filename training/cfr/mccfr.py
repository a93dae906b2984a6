"""External-sampling Monte Carlo CFR with uniform, linear or discounted averaging.

In one iteration each player in turn *traverses* the game: at its own information sets
it tries every action, at chance and opponent nodes it samples one outcome (opponents by
their current regret-matching policy), and it adds the sampled counterfactual regrets.
The opponent's visited information sets add their current policy to the average
strategy ("simple" averaging, as OpenSpiel's ``ExternalSamplingSolver``).

Two implementations share these semantics:

* :class:`ExternalSamplingMCCFR` calls the game's callbacks directly, so it works on games
  far too big to enumerate (an abstracted hold'em game): it needs only ``sample_chance``,
  never ``chance_outcomes``, and it also runs games of 3 or more players (utilities need
  not sum to zero, but then no CFR variant guarantees convergence to a Nash equilibrium).
  Regrets and average strategy live in an :class:`~holdem_env.training.cfr.tables.InfosetTable`
  whose rows are allocated as information sets are first met. The game may deal once per
  iteration (``sample_root``) and change its states in place (``advance``/``copy_state``);
  this is the traversal that trains cfr-lite's abstracted hold'em policies
  (:mod:`holdem_env.training.cfr_lite.trainer`).
* :class:`BatchedExternalSamplingMCCFR` runs on a compiled :class:`GameTree` and does
  ``batch_size`` traversals at once, level by level with numpy. All traversals of a
  batch use the policy from the start of the batch (``batch_size=1`` is plain MCCFR).

Averaging (weights of iteration ``t``; ``t`` counts from 1):

* ``"uniform"`` — regrets and average-strategy increments have weight 1.
* ``"linear"`` — both have weight ``t`` (Linear CFR).
* ``"linear-average"`` — regrets weight 1, average-strategy increments weight ``t``
  (linear averaging alone; what the cfr-lite trainer uses).
* ``"discounted"`` — weight 1, and every ``discount_interval`` iterations (the ``k``-th
  time) positive regrets are multiplied by ``k^α/(k^α+1)``, negative ones by
  ``k^β/(k^β+1)`` and the average strategy by ``(k/(k+1))^γ`` (DCFR; defaults α=1.5,
  β=0, γ=2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from holdem_env.engine.validate import is_int
from holdem_env.training.cfr.cfr import AverageScores, normalise_average, regret_matching
from holdem_env.training.cfr.evaluation import TreeEvaluator
from holdem_env.training.cfr.game import CHANCE, ExtensiveFormGame, GameError, GameTree
from holdem_env.training.cfr.tables import InfosetTable

__all__ = [
    "AVERAGING",
    "Averaging",
    "ExternalSamplingMCCFR",
    "BatchedExternalSamplingMCCFR",
]

#: Names accepted for ``averaging``.
AVERAGING = ("uniform", "linear", "linear-average", "discounted")


@dataclass(frozen=True)
class Averaging:
    """How iterations are weighted (see the module docstring).

    >>> Averaging("linear-average").regret_weight(7), Averaging("linear-average").average_weight(7)
    (1.0, 7.0)
    """

    kind: str = "linear"
    discount_interval: int = 100
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 2.0

    def __post_init__(self) -> None:
        if self.kind not in AVERAGING:
            raise GameError(f"averaging={self.kind!r} is invalid: choose one of {', '.join(AVERAGING)}")
        interval = self.discount_interval
        if not is_int(interval) or interval < 1:
            raise GameError(f"discount_interval={interval!r} is invalid: expected an int >= 1")

    def regret_weight(self, t: np.ndarray | int) -> np.ndarray | float:
        """Weight of iteration ``t``'s regret increments."""
        return self._weight(t, self.kind == "linear")

    def average_weight(self, t: np.ndarray | int) -> np.ndarray | float:
        """Weight of iteration ``t``'s average-strategy increments."""
        return self._weight(t, self.kind in ("linear", "linear-average"))

    @staticmethod
    def _weight(t: np.ndarray | int, linear: bool) -> np.ndarray | float:
        if linear:
            return t if isinstance(t, np.ndarray) else float(t)
        return np.ones(np.shape(t)) if isinstance(t, np.ndarray) else 1.0

    def discount(self, regrets: np.ndarray, average: np.ndarray, before: int, after: int) -> None:
        """Apply the discounts due when the iteration count goes from ``before`` to ``after``."""
        if self.kind != "discounted":
            return
        for k in range(before // self.discount_interval + 1, after // self.discount_interval + 1):
            pos = k**self.alpha / (k**self.alpha + 1.0)
            neg = k**self.beta / (k**self.beta + 1.0)
            regrets *= np.where(regrets > 0.0, pos, neg)
            average *= (k / (k + 1.0)) ** self.gamma


def _check_iterations(iterations: object) -> int:
    if not is_int(iterations) or iterations < 0:
        raise GameError(f"iterations={iterations!r} is invalid: expected an int >= 0")
    return int(iterations)


def _check_rng(rng: object) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise GameError(f"rng={rng!r} is invalid: pass a numpy.random.Generator (e.g. default_rng(seed))")
    return rng


class ExternalSamplingMCCFR:
    """External-sampling MCCFR through the game callbacks (no enumeration needed).

    Each iteration asks the game for its root (:meth:`ExtensiveFormGame.sample_root
    <holdem_env.training.cfr.game.ExtensiveFormGame.sample_root>`), then every player in
    turn traverses from a copy of it. States move on by ``game.advance`` and are copied
    (``game.copy_state``) only where the traverser tries several actions, so a game whose
    states change in place pays one copy per explored branch. Regrets, strategy sums and
    visit counts live in :attr:`table` (an :class:`~holdem_env.training.cfr.tables.InfosetTable`).

    ``rng`` is the default generator of :meth:`run`; one passed to :meth:`run` replaces
    it for that call.

    >>> from holdem_env.training.cfr.kuhn import KuhnPoker
    >>> solver = ExternalSamplingMCCFR(KuhnPoker(), rng=np.random.default_rng(0))
    >>> solver.run(2000)
    >>> sorted(solver.average_policy_dict())[:3]
    ['J', 'Jb', 'Jp']
    >>> ExternalSamplingMCCFR(KuhnPoker()).run(1)
    Traceback (most recent call last):
    ...
    holdem_env.training.cfr.game.GameError: rng=None is invalid: pass a numpy.random.Generator (e.g. default_rng(seed))
    """

    def __init__(
        self,
        game: ExtensiveFormGame,
        *,
        rng: np.random.Generator | None = None,
        averaging: Averaging | str = "linear",
        initial_capacity: int = 1024,
    ) -> None:
        if rng is not None:
            _check_rng(rng)
        if not isinstance(game.num_players, int) or game.num_players < 2:
            raise GameError(f"num_players={game.num_players!r} is unsupported: the solver needs 2 or more players")
        self.game = game
        self.rng = rng
        self.averaging = averaging if isinstance(averaging, Averaging) else Averaging(averaging)
        self.iteration = 0
        self.table = InfosetTable(max(1, game.num_actions), initial_capacity)

    def _traverse(
        self, state: object, player: int, rng: np.random.Generator, regret_w: float, average_w: float
    ) -> float:
        game = self.game
        table = self.table
        while not game.is_terminal(state):
            actor = game.current_player(state)
            if actor == CHANCE:
                state = game.advance(state, game.sample_chance(state, rng))
                continue
            actions = game.legal_actions(state)
            row = table.row(game.infoset_key(state), actions)
            columns = table.columns(row)
            policy = table.current_policy(row)
            if actor == player:
                values = np.zeros(len(actions))
                for i, action in enumerate(actions):
                    child = game.advance(game.copy_state(state), action)
                    values[i] = self._traverse(child, player, rng, regret_w, average_w)
                value = float(policy @ values)
                table.regret[row, columns] += regret_w * (values - value)
                return value
            table.strategy_sum[row, columns] += average_w * policy
            table.visits[row] += 1
            u = rng.random()
            choice = len(actions) - 1
            acc = 0.0
            for k, p in enumerate(policy.tolist()):
                acc += p
                if u < acc:
                    choice = k
                    break
            state = game.advance(state, actions[choice])
        return float(game.utility(state, player))

    def iterate(self, rng: np.random.Generator | None = None) -> None:
        """One iteration: the game's root for it, then a traversal for each player in turn."""
        rng = _check_rng(self.rng if rng is None else rng)
        self.iteration += 1
        t = self.iteration
        regret_w = float(self.averaging.regret_weight(t))
        average_w = float(self.averaging.average_weight(t))
        root = self.game.sample_root(rng, t)
        for player in range(self.game.num_players):
            self._traverse(self.game.copy_state(root), player, rng, regret_w, average_w)
        used = len(self.table)
        self.averaging.discount(self.table.regret[:used], self.table.strategy_sum[:used], t - 1, t)

    def run(self, iterations: int, rng: np.random.Generator | None = None) -> None:
        """Run ``iterations`` iterations drawing chance and sampled actions from ``rng`` (default: the solver's)."""
        _check_iterations(iterations)
        _check_rng(self.rng if rng is None else rng)
        for _ in range(iterations):
            self.iterate(rng)

    def average_policy_dict(self) -> dict[str, list[float]]:
        """``{infoset key: average probabilities over its legal actions}`` for every set met."""
        average = self.table.average_policy()
        table = self.table
        return {key: [float(p) for p in average[row, list(table.actions(row))]] for row, key in enumerate(table.keys)}

    def average_policy_array(self, tree: GameTree) -> np.ndarray:
        """The average policy as an array for ``tree``; unvisited sets are uniform."""
        table = self.average_policy_dict()
        policy = tree.uniform_policy()
        for i, key in enumerate(tree.infoset_keys):
            if key in table:
                policy[i, : len(table[key])] = table[key]
        return policy


class BatchedExternalSamplingMCCFR(AverageScores):
    """External-sampling MCCFR on a compiled tree, ``batch_size`` traversals per numpy pass.

    >>> from holdem_env.training.cfr.game import compile_game
    >>> from holdem_env.training.cfr.kuhn import KuhnPoker
    >>> solver = BatchedExternalSamplingMCCFR(compile_game(KuhnPoker()), rng=np.random.default_rng(0))
    >>> solver.run(20_000)
    >>> solver.exploitability() < 0.01
    True
    >>> solver.run(-1)
    Traceback (most recent call last):
    ...
    holdem_env.training.cfr.game.GameError: iterations=-1 is invalid: expected an int >= 0
    """

    def __init__(
        self,
        tree: GameTree,
        *,
        rng: np.random.Generator,
        averaging: Averaging | str = "linear",
        batch_size: int = 64,
    ) -> None:
        _check_rng(rng)
        if not isinstance(batch_size, int) or batch_size < 1:
            raise GameError(f"batch_size={batch_size!r} is invalid: expected an int >= 1")
        self.tree = tree
        self.rng = rng
        self.averaging = averaging if isinstance(averaging, Averaging) else Averaging(averaging)
        self.batch_size = batch_size
        self.evaluator = TreeEvaluator(tree)
        self.iteration = 0
        shape = tree.legal_mask.shape
        self.regrets = np.zeros(shape)
        self.average = np.zeros(shape)
        n = tree.num_nodes
        self._num_children = np.bincount(tree.parent[1:], minlength=n).astype(np.int64)
        self._first_child = np.zeros(n, dtype=np.int64)
        has = self._num_children > 0
        # children are contiguous; the first one is the smallest index with that parent
        first = np.full(n, n, dtype=np.int64)
        np.minimum.at(first, tree.parent[1:], np.arange(1, n))
        self._first_child[has] = first[has]

    def _traverse_batch(self, player: int, policy: np.ndarray, t: np.ndarray) -> None:
        tree = self.tree
        ev = self.evaluator
        ep = ev.edge_probabilities(policy)
        cum = np.cumsum(ep)
        owner = tree.player
        regret_w = np.asarray(self.averaging.regret_weight(t.astype(np.float64)))
        average_w = np.asarray(self.averaging.average_weight(t.astype(np.float64)))
        node = np.zeros(len(t), dtype=np.int64)
        sample = np.arange(len(t), dtype=np.int64)
        levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = [(node, sample, np.zeros(0, dtype=np.int64))]
        avg_rows: list[np.ndarray] = []
        avg_w: list[np.ndarray] = []
        while True:
            node, sample, _ = levels[-1]
            who = owner[node]
            mine = np.flatnonzero(who == player)
            sampled = np.flatnonzero((who == CHANCE) | ((who >= 0) & (who != player)))
            if mine.size == 0 and sampled.size == 0:
                break
            opp = sampled[owner[node[sampled]] >= 0]
            if opp.size:
                avg_rows.append(tree.infoset[node[opp]])
                avg_w.append(average_w[sample[opp]])
            counts = self._num_children[node[mine]]
            rep = np.repeat(mine, counts)
            starts = np.cumsum(counts) - counts
            offset = np.arange(rep.size) - np.repeat(starts, counts)
            own_children = self._first_child[node[rep]] + offset
            sn = node[sampled]
            lo = self._first_child[sn]
            hi = lo + self._num_children[sn]
            target = cum[lo - 1] + self.rng.random(sn.size) * (cum[hi - 1] - cum[lo - 1])
            picked = np.clip(np.searchsorted(cum, target, side="right"), lo, hi - 1)
            child_node = np.concatenate([own_children, picked])
            parent_entry = np.concatenate([rep, sampled])
            levels.append((child_node, sample[parent_entry], parent_entry))
        # backward: values for the traverser
        values = tree.utility[player][levels[-1][0]]
        regret = np.zeros(ev.num_cells)
        for depth in range(len(levels) - 1, 0, -1):
            child_node, child_sample, parent_entry = levels[depth]
            parent_node = levels[depth - 1][0]
            own_edge = owner[parent_node[parent_entry]] == player
            w = np.where(own_edge, ep[child_node], 1.0)
            parent_values = tree.utility[player][parent_node] + np.bincount(
                parent_entry, w * values, minlength=parent_node.size
            )
            edges = np.flatnonzero(own_edge)
            if edges.size:
                delta = regret_w[child_sample[edges]] * (values[edges] - parent_values[parent_entry[edges]])
                regret += np.bincount(ev.sig[child_node[edges]], delta, minlength=ev.num_cells)
            values = parent_values
        self.regrets += regret.reshape(self.regrets.shape)
        if avg_rows:
            rows = np.concatenate(avg_rows)
            mass = np.bincount(rows, np.concatenate(avg_w), minlength=tree.num_infosets)
            self.average += mass[:, None] * policy

    def run(self, iterations: int) -> None:
        """Run ``iterations`` iterations (each a traversal per player) in batches."""
        remaining = _check_iterations(iterations)
        mask = self.tree.legal_mask
        while remaining > 0:
            size = min(self.batch_size, remaining)
            t = self.iteration + 1 + np.arange(size)
            for player in range(self.tree.num_players):
                self._traverse_batch(player, regret_matching(self.regrets, mask), t)
            before = self.iteration
            self.iteration += size
            self.averaging.discount(self.regrets, self.average, before, self.iteration)
            remaining -= size

    def current_policy(self) -> np.ndarray:
        """Regret-matching policy of the current regrets."""
        return regret_matching(self.regrets, self.tree.legal_mask)

    def average_policy(self) -> np.ndarray:
        """Average strategy (uniform at sets never visited by the opponent's traversals)."""
        return normalise_average(self.average, self.tree.legal_mask)
