"""The ``cfr-search`` agent: plays heads-up no-limit from the compiled-MCCFR blueprint and re-solves the turn and the river safely in real time.

At each decision the agent reads its own sealed view only (``info["view"]``: its cards, the board,
the public action history, stacks and blinds) and follows the public history down the blueprint's
betting tree (:func:`~holdem_env.agents.cfr_search.follow.walk`; the opponent's bets off the tree are
translated by the pseudo-harmonic mapping, randomised by a uniform that hashes the public history
with a key the agent draws from its seeded generator at the start of each hand).

- **Preflop and flop** (and the turn with ``resolve="river"``): the blueprint's probabilities at the
  node for the holding's bucket. Each tree action becomes the legal env action nearest to it: a raise
  of pot fraction ``f`` in the tree is a raise of ``f`` times the table's pot after the call, clamped to
  the legal range (all-in is all-in); in the discrete action mode, the allowed raise id nearest on a
  log scale.
- **Turn** (``resolve="turn"``): safe re-solving
  (:func:`~holdem_env.agents.cfr_search.search.resolve_street`) of a small turn subgame (1 pot and
  all-in, a bet and one raise of it; the river inside it 1 pot, one bet) from the start of the turn, with ranges from
  the blueprint by Bayes' rule, the opponent's gadget values from the blueprint's strategy mapped onto
  the subgame through every river card, the opponent's actual bets inserted, and public chance
  sampling of the rivers seeded by the subgame (the same public state gives the same solve).
- **River**: safe re-solving from the start of the river with the opponent's actual bets inserted (a
  new solve whenever a bet is not already in the tree). With ``resolve="turn"`` it starts from the
  turn's re-solve (:func:`~holdem_env.agents.cfr_search.search.river_start`: the agent's range by
  Bayes' rule along the re-solved turn strategy, the opponent's values against the re-solve's river
  strategy), so that the river's re-solve is safe with respect to the turn's; with ``resolve="river"``
  (or when no turn re-solve holds the hand) from the blueprint's ranges and values.
- **Flop** (``resolve="flop"``, an option; the default plays the flop from the blueprint): safe
  re-solving of the flop from its start with the turn and the river checked down (a depth limit whose
  continuation is a showdown: a fast guess, not the game), ranges from the blueprint, the opponent's
  gadget values against the blueprint's flop strategy in that game, sampled turn and river cards
  seeded by the subgame. The turn then starts from it (:func:`~holdem_env.agents.cfr_search.search.flop_turn_start`:
  the agent's range by Bayes' rule along the re-solved flop strategy, the opponent's values against the
  blueprint's turn strategy with that range), and the river from the turn's re-solve as above. Measured
  worse than the default against ``tag`` (benchmarks/BENCHMARKS.md): a research option, not a way to play.
- **A bet below the tree's smallest size** (a third of the pot where the tree's smallest bet is half
  the pot) is read as that size, and the blueprint's answer to it is mixed with the answer to no bet at
  all (a check: nothing to fold) by the pseudo-harmonic weight of no bet, ``f(x) = (B - x) / (B (1 + x))``
  between 0 and the smallest size ``B``: that share of each holding's fold becomes a call
  (:func:`~holdem_env.agents.cfr_search.follow.under_size`; the agent's range in a later re-solve
  follows the same mix). Read as the smallest size alone, a bet of any size below it drew the fold
  rate of that size, more than a smaller bet with any two cards needs to win at once.
- **Off the tree** (a raise beyond the tree's raises per street, or a street the tree ended with an
  all-in that the table did not): check when free; otherwise call with the holdings whose strength
  against a random hand beats the pot odds by 0.1 (preflop: the strongest share of the holdings that
  the price allows, :func:`preflop_share`: 10% facing a shove for the stacks, never fewer than TT+ and
  AK), fold the rest.

Every decision's strategy is computed for all 1,326 holdings at once and cached by public state,
so :meth:`CfrSearchAgent.action_probabilities` (range queries: LBR, AIVAT) and ``act`` read the same
matrix, and ``act`` samples its own holding's row with one uniform from the generator. A table of
another size, or blinds in another ratio than the blueprint's (1:2), is refused with a clear error.
**Which blueprint**: the bare spec plays each hand on the shipped blueprint (:data:`SHIPPED_BLUEPRINTS`:
100 and 200 bb) whose stack is nearest the hand's effective stack in big blinds on a log scale, read
from the seat's own view at its first decision of the hand (each file loaded once per process, when
first needed); ``blueprint=`` forces one file for every hand. Stacks of any depth are played on the
chosen tree (its sizes are pot fractions; raises beyond the table's stacks become all-in), which is
exact only at the blueprint's depth.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.agents.base import agent_rng, check_bet_sizes, legal_of
from holdem_env.agents.cfr_search.blueprint import Blueprint
from holdem_env.agents.cfr_search.follow import (
    BucketTables,
    Public,
    Walk,
    blueprint_matrix,
    public_state,
    raise_fractions,
    walk,
)
from holdem_env.agents.cfr_search.resolve import Subgame
from holdem_env.agents.cfr_search.search import flop_turn_start, resolve_street, river_start, street_subgame
from holdem_env.agents.cfr_search.tree import DECISION, SubgameError, SubgameSpec, build_tree
from holdem_env.agents.preflop import class_percentile, hand_class
from holdem_env.agents.tag import nearest_raise_id
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, holding_index, holding_indices, strength_against_random
from holdem_env.engine.validate import check_number
from holdem_env.env.nlhe_v1 import DEFAULT_BET_SIZES

__all__ = [
    "CfrSearchAgent", "SHIPPED_BLUEPRINT", "SHIPPED_BLUEPRINTS", "BUILD_COMMAND", "load_blueprint", "nearest_shipped",
]

_DATA = Path(__file__).resolve().parent.parent / "data"
#: The shipped heads-up blueprints by their stacks in big blinds (blinds 50/100): the bare spec plays
#: each hand on the one nearest the hand's effective stack (log scale).
SHIPPED_BLUEPRINTS: dict[int, Path] = {100: _DATA / "cfr_search_hu100.npz", 200: _DATA / "cfr_search_hu200.npz"}
#: The shipped 200 bb heads-up blueprint (what ``holdem lbr`` plays).
SHIPPED_BLUEPRINT = SHIPPED_BLUEPRINTS[200]
#: How each shipped blueprint was built (``benchmarks/BENCHMARKS.md``, "cfr-search: the shipped blueprints").
BUILD_COMMANDS: dict[int, str] = {
    100: "python -m holdem_env.training.cfr_search build --out {out} --stack-bb 100 --iterations 38000000 "
    "--seed 0 --abstraction-flops 80 --pool-flops 150",
    200: "python -m holdem_env.training.cfr_search build --out {out} --stack-bb 200 --iterations 40000000 "
    "--seed 0 --abstraction-flops 80 --pool-flops 150",
}
#: How to build the 200 bb one.
BUILD_COMMAND = BUILD_COMMANDS[200].format(out=SHIPPED_BLUEPRINT)
_SHIPPED_BLINDS = (50, 100)
_BLUEPRINTS: dict[str, tuple[Blueprint, BucketTables]] = {}
_KEPT = 256  # decisions and solves kept per agent
_TURNS_KEPT = 8  # turn re-solves kept per agent
#: The re-solving modes: the flop, turn and river (an option), the turn and the river, the river only, none (blueprint only).
RESOLVE = ("flop", "turn", "river", "none")


def _street_end(public: Public, street: int) -> Public:
    """The public state at the end of ``street`` (its actions and board, both contributions equal) seen
    from a later street's ``public``: what that street's re-solve was solved at."""
    c = public.street_start[street + 1]
    return dataclasses.replace(
        public, actions=tuple(a for a in public.actions if a[1] <= street), street=street,
        board=public.board[: (0, 3, 4, 5)[street]], street_start=public.street_start[: street + 1], contrib=(c, c),
    )


def _build_command(path: Path) -> str:
    """The command that writes ``path`` if it is a shipped blueprint (else the 200 bb one's, writing ``path``)."""
    for depth, shipped in SHIPPED_BLUEPRINTS.items():
        if path.resolve() == shipped.resolve():
            return BUILD_COMMANDS[depth].format(out=shipped)
    return BUILD_COMMANDS[200].format(out=path)


def _loaded(path: str | Path | None) -> tuple[Blueprint, BucketTables]:
    """The blueprint at ``path`` (default the shipped 200 bb one) and its bucket tables, loaded once per process."""
    target = Path(path) if path is not None else SHIPPED_BLUEPRINT
    key = str(target.resolve())
    if key not in _BLUEPRINTS:
        if not target.is_file():
            raise ConfigError(
                "blueprint", str(target),
                f"does not exist: build it with `{_build_command(target)}` (or pass blueprint='file.npz')",
            )
        if len(_BLUEPRINTS) >= 3:
            _BLUEPRINTS.pop(next(iter(_BLUEPRINTS)))
        bp = Blueprint(target)
        _BLUEPRINTS[key] = (bp, BucketTables(bp.abstraction))
    return _BLUEPRINTS[key]


def check_sizes(name: str, sizes: Sequence[float | str]) -> tuple[float | str, ...]:
    """``sizes`` as a tuple of pot fractions in (0, 100] and ``"allin"``, or a clear error naming ``name``."""
    try:
        out = tuple(sizes)
        build_tree(SubgameSpec(board=(0, 1, 2, 3, 4), contrib=(100, 100), stacks=(100, 100)), out, 1)
    except (SubgameError, TypeError) as err:
        raise ConfigError(name, sizes, "must be a list of pot fractions in (0, 100] and 'allin', at least one") from err
    if not out:
        raise ConfigError(name, sizes, "must be a list of pot fractions in (0, 100] and 'allin', at least one")
    return out


def load_blueprint(path: str | Path | None) -> Blueprint:
    """The blueprint at ``path`` (default the shipped 200 bb one), loaded once per process."""
    return _loaded(path)[0]


def nearest_shipped(stack_bb: float) -> int:
    """The shipped blueprint depth (big blinds) nearest ``stack_bb`` on a log scale (the deeper one on a tie)."""
    if not stack_bb > 0:
        raise ConfigError("effective stack", stack_bb, "must be above 0 big blinds")
    return min(SHIPPED_BLUEPRINTS, key=lambda d: (abs(math.log(stack_bb / d)), -d))


def preflop_share(price: float) -> float:
    """The share of all holdings (strongest first) the off-tree rule calls with preflop when the call
    costs ``price`` of the pot after it: 10% at 1/2 (a shove for the stacks), 44% at 1/3, 90% at 1/10,
    never below the 3.8% of TT+ and AK."""
    return float(min(1.0, max(0.038, 1.1 - 2.0 * price)))


@functools.lru_cache(maxsize=1)
def preflop_percentiles() -> np.ndarray:
    """Each of the 1,326 holdings' share of the holdings at least as strong (AA: 0.0045), by class."""
    return np.array([class_percentile(hand_class((int(a), int(b)))) for a, b in HOLDINGS])


class CfrSearchAgent:
    """Plays cfr-search; see the module docstring.

    ``blueprint``: a ``.npz`` written by the blueprint build, played at every depth (default: per hand, the
    shipped file nearest the hand's effective stack).
    ``rng``/``seed``: the generator for sampling actions and keying translations (the arena resets it
    via ``set_rng``). ``action_mode``: ``"auto"``, ``"exact"`` or ``"discrete"``; ``bet_sizes``: the
    discrete mode's pot fractions (default: the env's). ``resolve``: ``"turn"`` (default) re-solves the
    turn and the river, ``"river"`` the river only, ``"none"`` plays the blueprint everywhere, ``"flop"``
    re-solves the flop too (its later streets checked down in the flop's subgame). ``iterations``,
    ``sizes``, ``max_raises``: the river solve's DCFR iterations, bet sizes (pot fractions and
    ``"allin"``) and raises per round. ``turn_iterations``, ``turn_rivers`` (river cards sampled per
    iteration, 48: all), ``turn_sizes``, ``turn_max_raises``, ``turn_river_sizes``: the turn solve's
    (one bet on the river inside it). ``flop_iterations``, ``flop_sizes``, ``flop_max_raises`` and
    ``flop_cards`` (turn and river cards sampled per iteration, 2..49): the flop solve's.
    """

    #: Uniform draws per decision.
    uniforms_per_decision = 1

    def __init__(
        self,
        blueprint: str | Path | None = None,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
        action_mode: str = "auto",
        bet_sizes: Sequence[float] | None = None,
        resolve: str = "turn",
        iterations: int = 200,
        sizes: Sequence[float | str] = (0.5, 1.0, 2.0, "allin"),
        max_raises: int = 2,
        turn_iterations: int = 40,
        turn_rivers: int = 12,
        turn_sizes: Sequence[float | str] = (1.0, "allin"),
        turn_max_raises: int = 2,
        turn_river_sizes: Sequence[float | str] = (1.0,),
        flop_iterations: int = 30,
        flop_sizes: Sequence[float | str] = (0.5, 1.0, "allin"),
        flop_max_raises: int = 2,
        flop_cards: int = 8,
    ) -> None:
        if action_mode not in ("auto", "exact", "discrete"):
            raise ConfigError("action_mode", action_mode, "must be 'auto', 'exact' or 'discrete'")
        if resolve not in RESOLVE:
            raise ConfigError(
                "resolve", resolve,
                "must be 'turn' (re-solve the turn and the river), 'river' (the river only), 'none' (blueprint only) "
                "or 'flop' (the flop too, its later streets checked down)",
            )
        self.iterations = int(check_number("iterations", iterations, 1, 100_000, allowed="must be an integer in 1..100000"))
        self.max_raises = int(check_number("max_raises", max_raises, 1, 4, allowed="must be an integer in 1..4"))
        self.sizes = check_sizes("sizes", sizes)
        self.turn_iterations = int(
            check_number("turn_iterations", turn_iterations, 1, 100_000, allowed="must be an integer in 1..100000")
        )
        self.turn_rivers = int(check_number("turn_rivers", turn_rivers, 1, 48, allowed="must be an integer in 1..48"))
        self.turn_max_raises = int(
            check_number("turn_max_raises", turn_max_raises, 1, 4, allowed="must be an integer in 1..4")
        )
        self.turn_sizes = check_sizes("turn_sizes", turn_sizes)
        self.turn_river_sizes = check_sizes("turn_river_sizes", turn_river_sizes)
        self.flop_iterations = int(
            check_number("flop_iterations", flop_iterations, 1, 100_000, allowed="must be an integer in 1..100000")
        )
        self.flop_max_raises = int(
            check_number("flop_max_raises", flop_max_raises, 1, 4, allowed="must be an integer in 1..4")
        )
        self.flop_sizes = check_sizes("flop_sizes", flop_sizes)
        self.flop_cards = int(check_number("flop_cards", flop_cards, 2, 49, allowed="must be an integer in 2..49"))
        self._flops: OrderedDict[tuple[Any, ...], Subgame] = OrderedDict()  # flop and turn re-solves kept
        self._turns: OrderedDict[tuple[Any, ...], Subgame] = OrderedDict()
        self.rng = agent_rng(rng, seed)
        self.action_mode = action_mode
        self.bet_sizes = check_bet_sizes(bet_sizes) if bet_sizes is not None else tuple(DEFAULT_BET_SIZES)
        self.resolve = resolve
        # an explicit blueprint plays every hand; the bare spec picks a shipped one per hand by depth, lazily
        self._forced = blueprint is not None
        self._depth: int | None = None
        self._current: tuple[Blueprint, BucketTables] | None = _loaded(blueprint) if self._forced else None
        if not self._forced:
            for path in SHIPPED_BLUEPRINTS.values():  # a missing file is named now, not at the first hand
                if not path.is_file():
                    _loaded(path)
        self._blinds = (int(self.blueprint.game["small_blind"]), int(self.blueprint.game["big_blind"])) if self._forced else _SHIPPED_BLINDS
        self._key = int(self.rng.integers(2**62))
        self._decisions: OrderedDict[tuple[Any, ...], tuple[list[int], np.ndarray]] = OrderedDict()
        #: Decisions by source (diagnostics): blueprint, re-solved, off the tree.
        self.counts = {"blueprint": 0, "resolved": 0, "off_tree": 0}

    # -- hooks -------------------------------------------------------------------------
    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` from now on (the arena reseeds before every hand); draws a new translation key."""
        self.rng = agent_rng(rng, None)
        self._key = int(self.rng.integers(2**62))

    def start_hand(self, info: Mapping[str, Any]) -> None:
        """A new hand: a new translation key from the generator."""
        self._key = int(self.rng.integers(2**62))

    def _played(self) -> tuple[Blueprint, BucketTables]:
        """The current hand's blueprint and its bucket tables (the bare spec: 200 bb until a hand says otherwise)."""
        if self._current is None:
            self._use_blueprint_for(200)
        assert self._current is not None
        return self._current

    @property
    def blueprint(self) -> Blueprint:
        """The blueprint the current hand is played on."""
        return self._played()[0]

    @property
    def tables(self) -> BucketTables:
        """The bucket tables of :attr:`blueprint`."""
        return self._played()[1]

    def _use_blueprint_for(self, stack_bb: float) -> None:
        """Play on the shipped blueprint nearest ``stack_bb`` (the hand's effective stack in big blinds),
        unless a blueprint was given; each file is loaded once per process."""
        if self._forced:
            return
        depth = nearest_shipped(stack_bb)
        if depth != self._depth:
            current = _loaded(SHIPPED_BLUEPRINTS[depth])
            game = current[0].game
            built = (int(game["small_blind"]), int(game["big_blind"]), int(game["stack"]))
            if built != (*_SHIPPED_BLINDS, depth * _SHIPPED_BLINDS[1]):
                raise ConfigError(
                    "blueprint", str(SHIPPED_BLUEPRINTS[depth]),
                    f"must be a {depth} bb blueprint at blinds 50/100: rebuild it with "
                    f"`{_build_command(SHIPPED_BLUEPRINTS[depth])}`",
                )
            self._current, self._depth = current, depth

    # -- acting ------------------------------------------------------------------------
    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """A legal action id for the seat on turn: its holding's row of the decision, sampled with one uniform."""
        ids, probs = self._decision(observation, info)
        hole = parse_cards(info["view"]["hole_cards"])
        p = probs[:, holding_index(int(hole[0]), int(hole[1]))]
        u = float(self.rng.random())
        cdf = np.cumsum(p)
        return ids[min(int(np.searchsorted(cdf / cdf[-1], u, side="right")), len(ids) - 1)]

    def action_probabilities(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
    ) -> np.ndarray:
        """Range query (:mod:`holdem_env.agents.ranges`): each holding's probability of every action id,
        from the same matrix ``act`` samples from."""
        ids, probs = self._decision(observation, info)
        index = holding_indices(np.asarray(holdings, dtype=np.int64).reshape(-1, 2))
        out = np.zeros((len(index), len(observation["action_mask"])))
        for row, aid in enumerate(ids):
            out[:, aid] += probs[row, index]
        return out

    # -- the decision ------------------------------------------------------------------
    def _decision(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> tuple[list[int], np.ndarray]:
        """``(action id of each row, (rows, 1326) probabilities)`` at this public state (cached)."""
        view = info["view"]
        mask = np.asarray(observation["action_mask"])
        public = public_state(view, self._blinds)
        self._use_blueprint_for(public.cap / public.big_blind)
        legal = legal_of(info)
        walked = walk(self.blueprint, public, self._key)
        line = tuple((s.node, s.child) for s in walked.steps)  # the translations taken: the key itself is not needed
        key = (public.key, public.me, line, walked.lost, len(mask), tuple(np.flatnonzero(mask[:2])), legal["min_raise_to"])
        got = self._decisions.get(key)
        if got is not None:
            self._decisions.move_to_end(key)
            return got
        moves, probs, source = self._strategy(public, walked, legal)
        self.counts[source] += 1
        ids = [self._env_id(kind, amount, mask, view, legal, public.me) for kind, amount in moves]
        merged: dict[int, np.ndarray] = {}
        for aid, row in zip(ids, probs, strict=True):
            merged[aid] = merged.get(aid, 0.0) + row
        got = (list(merged), np.array(list(merged.values())))
        if len(self._decisions) >= _KEPT:
            self._decisions.popitem(last=False)
        self._decisions[key] = got
        return got

    def _strategy(self, public: Public, walked: Walk, legal: Mapping[str, Any]) -> tuple[list[tuple[str, int]], np.ndarray, str]:
        """The moves (``("f"|"c"|"r", street raise-to)``), their ``(moves, 1326)`` probabilities and the source."""
        bp = self.blueprint
        street = public.street
        start = public.street_start[street]
        if (street == 3 and self.resolve != "none") or (street == 2 and self.resolve in ("turn", "flop")) or (
            street == 1 and self.resolve == "flop"
        ):
            try:
                solve = {1: self._flop_solve, 2: self._turn_solve, 3: self._river_solve}[street]
                sub, path = solve(public, walked)
                node = sub.tree.find(path)
                if sub.tree.kind[node] == DECISION and sub.tree.player[node] == public.me:
                    labels = sub.tree.labels[node]
                    moves = [("f", 0) if lb == "f" else ("c", 0) if lb in ("k", "c") else ("r", int(lb[1:]) - start) for lb in labels]
                    return moves, sub.strategy(node), "resolved"
            except SubgameError:  # a history the subgame cannot hold: played as off the tree
                pass
            return self._off_tree(public, legal)
        if walked.lost:
            return self._off_tree(public, legal)
        node = walked.node
        opp = 1 - public.me
        stack = int(bp.game["stack"])
        fractions = {i: f for f, i in raise_fractions(bp, node, walked.contrib, stack)}
        moves = []
        for i, (label, _) in enumerate(bp.children(node)):
            if label in ("f", "c"):
                moves.append((label, 0))
            elif label == "a":
                moves.append(("r", 1 << 40))  # all-in: clamped to the legal maximum
            else:
                total = public.contrib[opp] + fractions[i] * 2.0 * public.contrib[opp]
                moves.append(("r", int(round(total)) - start))
        probs = blueprint_matrix(bp, node, self.tables.buckets(public.board), walked.under)
        return moves, probs, "blueprint"

    def _cached(self, cache: OrderedDict[tuple[Any, ...], Subgame], key: tuple[Any, ...], solve: Callable[[], Subgame]) -> Subgame:
        """The solve kept in ``cache`` under ``key``, or ``solve()``'s subgame, kept (the oldest dropped)."""
        got = cache.get(key)
        if got is not None:
            cache.move_to_end(key)
            return got
        sub = solve()
        if len(cache) >= _TURNS_KEPT:
            cache.popitem(last=False)
        cache[key] = sub
        return sub

    def _turn_solve(self, public: Public, walked: Walk) -> tuple[Subgame, tuple[str, ...]]:
        """The turn's safe re-solve at ``public`` (a turn state) and the path of the turn's actions in it;
        cached by subgame, inserted bets and the blueprint line before the turn (what the solve depends on)."""
        spec, extra, path = street_subgame(public, self.turn_sizes, self.turn_max_raises, self.turn_river_sizes, 1)
        line = tuple((s.node, s.child) for s in walked.steps if s.street < 2)
        key = (spec, tuple(sorted((k, tuple(v)) for k, v in extra.items())), line, walked.entered.get(2))
        sub = self._cached(self._turns, key, lambda: resolve_street(
            self.blueprint, public, walked, self.tables, sizes=self.turn_sizes, max_raises=self.turn_max_raises,
            iterations=self.turn_iterations, river_sizes=self.turn_river_sizes, river_max_raises=1,
            rivers=self.turn_rivers, start=self._turn_start(public, walked) if self.resolve == "flop" else None,
        )[0])
        return sub, path

    def _flop_solve(self, public: Public, walked: Walk) -> tuple[Subgame, tuple[str, ...]]:
        """The flop's safe re-solve at ``public`` (a flop state; the turn and the river checked down) and the
        path of the flop's actions in it; cached by subgame, inserted bets and the preflop blueprint line."""
        spec, extra, path = street_subgame(public, self.flop_sizes, self.flop_max_raises, (), 1, ())
        line = tuple((s.node, s.child) for s in walked.steps if s.street < 1)
        key = (spec, tuple(sorted((k, tuple(v)) for k, v in extra.items())), line, walked.entered.get(1))
        sub = self._cached(self._flops, key, lambda: resolve_street(
            self.blueprint, public, walked, self.tables, sizes=self.flop_sizes, max_raises=self.flop_max_raises,
            iterations=self.flop_iterations, river_sizes=(), river_max_raises=1, turn_sizes=(),
            turns=self.flop_cards, rivers=self.flop_cards,
        )[0])
        return sub, path

    def _turn_start(self, public: Public, walked: Walk) -> tuple[np.ndarray, np.ndarray] | None:
        """With ``resolve="flop"``, the turn's start after the flop's re-solve (:func:`flop_turn_start`);
        None (the blueprint's) where no flop re-solve holds the hand."""
        try:
            flop, flop_path = self._flop_solve(_street_end(public, 1), walked)
            return flop_turn_start(
                flop, flop_path, self.blueprint, public, walked, self.tables, sizes=self.turn_sizes,
                max_raises=self.turn_max_raises, river_sizes=self.turn_river_sizes, river_max_raises=1,
            )
        except SubgameError:
            return None

    def _river_solve(self, public: Public, walked: Walk) -> tuple[Subgame, tuple[str, ...]]:
        """The river's safe re-solve: from the turn's re-solve (``resolve="turn"`` or ``"flop"``, see the
        module docstring) or, where there is none, from the blueprint."""
        start = None
        if self.resolve in ("turn", "flop"):
            try:
                turn, turn_path = self._turn_solve(_street_end(public, 2), walked)
                start = river_start(turn, turn_path, public, river_sizes=self.turn_river_sizes, river_max_raises=1)
            except SubgameError:  # no turn re-solve holds this hand: the blueprint's ranges and values
                start = None
        return resolve_street(
            self.blueprint, public, walked, self.tables, sizes=self.sizes, max_raises=self.max_raises,
            iterations=self.iterations, start=start,
        )

    def _off_tree(self, public: Public, legal: Mapping[str, Any]) -> tuple[list[tuple[str, int]], np.ndarray, str]:
        """The rule for decisions off the tree (see the module docstring)."""
        if legal.get("check"):
            return [("c", 0)], np.ones((1, NUM_HOLDINGS)), "off_tree"
        to_call = int(legal.get("call", 0))
        pot = sum(public.contrib)
        if public.board:
            strength = np.nan_to_num(strength_against_random(list(public.board)))
            keep = strength >= min(0.95, to_call / max(1, pot + to_call) + 0.1)
        else:
            keep = preflop_percentiles() <= preflop_share(to_call / max(1, pot + to_call))
        if not legal.get("fold"):
            keep[:] = True
        probs = np.stack([~keep, keep]).astype(np.float64)
        return [("f", 0), ("c", 0)], probs, "off_tree"

    # -- action ids --------------------------------------------------------------------
    def _env_id(self, kind: str, amount: int, mask: np.ndarray, view: Mapping[str, Any], legal: Mapping[str, Any], seat_player: int) -> int:
        """The legal action id nearest a move (see the module docstring)."""
        if kind == "f":
            return 0 if mask[0] else (1 if mask[1] else 0)
        if kind == "c":
            return 1 if mask[1] else 0
        return nearest_raise_id(int(amount), mask, view, legal, self.action_mode, self.bet_sizes)
