"""The ``cfr-lite`` agent: plays a trained cfr-lite policy in ``nlhe_v1`` (either action mode).

At each decision the agent rebuilds the abstract history of the hand by replaying the
public action history (``info["view"]["history"]``) through a *shadow* engine state (the
engine, not this module, computes pots and legal amounts), translating every bet size into
the abstraction with the pseudo-harmonic mapping (randomised by a keyed hash of the public hand
up to that bet and ``translate_seed``: :func:`holdem_env.agents.cfr_lite.rows.translation_uniform`,
so a bet keeps its translation for the whole hand with no state kept between decisions). It then
looks up its information set, draws an abstract action from the stored probabilities and maps it
to an action id: in exact mode the raise-to amount itself, in discrete mode the allowed id whose
amount is closest. Replays are kept (a few thousand public histories) and reused.

Randomness: ``act`` draws exactly one uniform from ``rng`` at every decision
(``uniforms_per_decision`` = 1): the abstract action's draw (as ``rng.choice`` draws it), or ``tag``'s
uniform where ``tag`` plays, unused by the strength rules. Many tables at once:
:meth:`CfrLiteAgent.decide` takes one seat's view at ``R`` tables
(:class:`~holdem_env.batched.views.BatchViews`) and one uniform per row and returns the exact action
ids ``act`` plays (exact mode) with those draws; the rows ``tag`` plays go to ``tag``'s batched
``decide`` in one call.

Behaviour changes (batched cfr-lite, issue 25): bet translations come from the hash above instead of
draws from ``rng`` remembered within a hand, and every decision draws one uniform (the strength
rules drew none), so a seeded agent's play differs from earlier versions'.

Decisions the tree cannot answer -- an information set the policy never reached (a re-raise
beyond the tree's raises per street, say), and the rest of a hand after an opponent's bet far
outside the tree (an *overbet*) -- are *off the tree* (``fallbacks`` counts them). After an
overbet the rest of the hand is played by a pot-odds rule (call when the hand's strength
percentile is at least the pot odds plus 0.1). A missing information set is played, with
``off_tree="tag"`` (the default), by ``tag``'s rule (:class:`holdem_env.agents.tag.TagAgent`:
preflop its ranges facing the raises so far, postflop its equity against the pot odds);
``off_tree="rule"`` plays it by the older strength rule (call with the top half of hands).
Off-tree decisions are about 2% of the heads-up policy's against ``tag`` but carried most
of its losses there (``benchmarks/BENCHMARKS.md``, "cfr-lite off the tree").

With ``preflop="chart"`` (or a policy file that declares ``"preflop": "chart"`` in its
``info``, written by a build preset that says so; the shipped files declare nothing) every
preflop decision is ``tag``'s
(:class:`holdem_env.agents.tag.TagAgent`: opening ranges by position, 3-bet, call and
4-bet ranges, a deterministic function of the hand class and the public history), counted
in ``charted``, and the policy plays from the flop on. After an overbet (above) the
preflop, too, is the pot-odds rule's. Range queries answer chart decisions with ``tag``'s
own range answer, the rule ``act`` follows; so are the missing information sets ``tag`` plays.

``cfr-lite`` with no argument plays the shipped heads-up policy
(``agents/data/cfr_lite_hu.npz``); ``cfr-lite(policy="path.npz")`` plays another one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.batched.views import BatchViews
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, HoldemError
from holdem_env.engine.ranges import HOLDINGS, holding_indices, strength_against_random
from holdem_env.engine.state import HandState
from holdem_env.engine.validate import check_number, check_seed
from holdem_env.env.nlhe_v1 import DEFAULT_BET_SIZES

from ..base import agent_rng, check_bet_sizes, legal_of
from ..tag import TagAgent, check_uniforms, nearest_raise_id, one_row, to_mode
from .actions import CALL, FOLD, AbstractMove, fraction_of_raise
from .buckets import NUM_PREFLOP_CLASSES, hand_strengths, preflop_class
from .game import AbstractHoldem, Node
from .policy import CfrLitePolicy
from .rows import Draw, row_legal, row_view, subset, translation_uniform

__all__ = ["CfrLiteAgent", "OFF_TREE_RULES", "OVERBET_FACTOR", "PREFLOP_RULES", "SHIPPED_POLICY", "shipped_policy_path"]

_DATA = Path(__file__).resolve().parent.parent / "data"
#: The shipped heads-up policy (built by ``python -m holdem_env.training.cfr_lite.build``).
SHIPPED_POLICY = _DATA / "cfr_lite_hu.npz"
_STREETS = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}
_CACHE: dict[str, CfrLitePolicy] = {}
#: A bet larger than this many times the largest raise the tree offers (and than this many
#: pots) takes the rest of the hand off the tree (played by the fallback rule).
OVERBET_FACTOR = 2.5
#: Who plays preflop: ``"policy"`` (the stored strategy), ``"chart"`` (``tag``'s preflop
#: rule), or ``"auto"`` (what the policy file declares in ``info["preflop"]``, else the policy).
PREFLOP_RULES = ("auto", "policy", "chart")
#: Who plays a missing information set: ``"tag"`` (``tag``'s rule) or ``"rule"`` (the strength rule).
OFF_TREE_RULES = ("tag", "rule")
#: Shadow replays kept per agent (public histories; the cache starts afresh when full).
_SHADOWS_KEPT = 20000


def shipped_policy_path(num_players: int = 2) -> Path:
    """Path of the shipped policy for a table size (heads-up: ``cfr_lite_hu.npz``; 3+: ``cfr_lite_6max.npz``)."""
    return SHIPPED_POLICY if num_players == 2 else _DATA / "cfr_lite_6max.npz"


def _load(path: str | Path) -> CfrLitePolicy:
    key = str(Path(path).resolve())
    pol = _CACHE.get(key)
    if pol is None:
        pol = CfrLitePolicy.load(path)
        if len(_CACHE) >= 4:  # league runs load a new file every round; keep the newest few
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = pol
    return pol


class CfrLiteAgent:
    """Plays a cfr-lite policy; see the module docstring.

    ``policy``: a path to a ``.npz`` policy, a :class:`CfrLitePolicy`, or ``None`` for the
    shipped policy of the table size met at the first decision. ``rng``: the generator
    for sampling actions and translating bets (the arena resets it via ``set_rng``).
    ``action_mode``: ``"auto"`` (told apart by the mask), ``"exact"`` or ``"discrete"``.
    ``bet_sizes``: the discrete mode's pot fractions (default: the env's default).
    ``threshold``: actions the policy plays with a lower probability are dropped and the
    rest renormalised ("thresholding" in the sense of Ganzfried & Sandholm, which removes
    the noise of under-trained information sets; 0 plays the stored mix as it is). The
    default 0.4 measured best against ``tag`` of 0, 0.15, 0.3, 0.4 and 0.5 on development
    seeds (``benchmarks/BENCHMARKS.md``, "cfr-lite off the tree").
    ``preflop``: one of :data:`PREFLOP_RULES` (default ``"auto"``: as the policy file says).
    ``off_tree``: one of :data:`OFF_TREE_RULES`, who plays an information set the policy never
    reached (default ``"tag"``; see the module docstring).
    ``translate_seed``: keys the translation draws of observed bets (default 0; see the module docstring).
    """

    #: Uniform draws per decision (``act`` draws it from ``rng``; ``decide`` is handed it).
    uniforms_per_decision = 1

    def __init__(
        self,
        policy: str | Path | CfrLitePolicy | None = None,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
        action_mode: str = "auto",
        bet_sizes: Sequence[float] | None = None,
        threshold: float = 0.4,
        preflop: str = "auto",
        off_tree: str = "tag",
        translate_seed: int = 0,
    ) -> None:
        self.threshold = float(check_number("threshold", threshold, 0.0, 1.0, hi_open=True, allowed="must be a number in [0, 1)"))
        if preflop not in PREFLOP_RULES:
            raise ConfigError("preflop", preflop, f"must be one of {', '.join(map(repr, PREFLOP_RULES))}")
        self.preflop = preflop
        if off_tree not in OFF_TREE_RULES:
            raise ConfigError("off_tree", off_tree, f"must be one of {', '.join(map(repr, OFF_TREE_RULES))}")
        self.off_tree = off_tree
        self._chart: TagAgent | None = None
        if action_mode not in ("auto", "exact", "discrete"):
            raise ConfigError("action_mode", action_mode, "must be 'auto', 'exact' or 'discrete'")
        self.rng = agent_rng(rng, seed)
        self.action_mode = action_mode
        self.bet_sizes = check_bet_sizes(bet_sizes) if bet_sizes is not None else None
        self._policy: CfrLitePolicy | None = None
        self._policy_arg = policy
        if isinstance(policy, CfrLitePolicy):
            self._policy = policy
        elif policy is not None:
            self._policy = _load(policy)
        self.translate_seed = check_seed("translate_seed", translate_seed, none_ok=False)
        self._games: dict[tuple[int, int, int, int], AbstractHoldem] = {}
        # Shadow replays by public history (a pure function of it: translations are hashed, not drawn).
        self._shadows: dict[tuple[Any, ...], tuple[AbstractHoldem, Node, bool] | None] = {}
        #: Decisions played from the policy / off the tree (diagnostics).
        self.lookups = 0
        self.fallbacks = 0
        #: Preflop decisions played by the chart (``preflop="chart"``).
        self.charted = 0

    # -- hooks -------------------------------------------------------------------------
    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` from now on (the arena reseeds before every hand)."""
        self.rng = rng
        if self._chart is not None:
            self._chart.set_rng(rng)

    def start_hand(self, info: Mapping[str, Any]) -> None:
        """Nothing to forget: no state crosses hands (translations are a function of the public hand)."""

    def policy_for(self, num_players: int) -> CfrLitePolicy:
        """The policy played at a table of ``num_players`` (loads the shipped one when needed)."""
        if self._policy is not None:
            built_for = self._policy.table.num_players
            if built_for != num_players:
                raise ConfigError(
                    "policy", self._policy_arg if isinstance(self._policy_arg, (str, Path)) else "<CfrLitePolicy>",
                    f"was built for {built_for} seats; this table has {num_players}: use a policy built for "
                    f"{num_players} seats, or no policy= for the shipped one",
                )
            return self._policy
        path = shipped_policy_path(num_players)
        if not path.is_file():
            path = SHIPPED_POLICY
        return _load(path)

    def preflop_rule(self, policy: CfrLitePolicy) -> str:
        """``"policy"`` or ``"chart"``: who plays preflop with ``policy`` (see :data:`PREFLOP_RULES`)."""
        if self.preflop != "auto":
            return self.preflop
        declared = policy.info.get("preflop", "policy")
        if declared not in ("policy", "chart"):
            raise ConfigError("policy info 'preflop'", declared, "must be 'policy' or 'chart'")
        return str(declared)

    def _chart_agent(self) -> TagAgent:
        """The ``tag`` that plays chart and off-tree decisions (built once; it draws nothing itself)."""
        if self._chart is None:
            sizes = self.bet_sizes if self.bet_sizes is not None else DEFAULT_BET_SIZES
            self._chart = TagAgent(bet_sizes=sizes, seed=0)  # handed this agent's uniform at every decision
        return self._chart

    def _charted(self, policy: CfrLitePolicy, view: Mapping[str, Any]) -> bool:
        """Whether this decision is the chart's: a preflop decision under ``preflop="chart"``,
        unless an overbet took the hand off the tree (then the pot-odds rule plays it, as it
        does off the tree on every street)."""
        if str(view["street"]) != "preflop" or self.preflop_rule(policy) != "chart":
            return False
        shadow = self._shadow(policy, view) if len(view["dealt_in"]) == policy.table.num_players else None
        return shadow is None or not shadow[2]

    # -- acting ------------------------------------------------------------------------
    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """Choose a legal action id for the seat on turn (one uniform drawn from ``rng``)."""
        mask = np.asarray(observation["action_mask"])
        u = float(self.rng.random())
        view = info["view"]
        legal = legal_of(info)
        move = self._move(view, legal, u)
        if move is None:  # the chart, or off the tree: tag plays it with this decision's uniform
            chart = self._chart_agent()
            ids, targets = chart._rows(one_row(info), np.array([[u]]))
            return to_mode(observation, info, int(ids[0]), float(targets[0]), chart.bet_sizes)
        return self._to_action_id(move, mask, view, legal, int(view["seat"]))

    def decide(self, views: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        """The exact action id (0 fold, 1 check/call, ``k + 1`` bet/raise to ``k``) at each row of
        ``views`` given the row's uniform: what :meth:`act` plays at that table (exact mode) when its
        generator draws that number. The policy's rows are looked up row by row (replays reused);
        the rows ``tag`` plays are decided by ``tag``'s batched ``decide`` in one call."""
        u = check_uniforms(views, uniforms, 1)
        out = np.empty(views.rows, dtype=np.int64)
        by_tag = []
        for i in range(views.rows):
            legal = row_legal(views, i)
            move = self._move(row_view(views, i), legal, float(u[i, 0]))
            if move is None:
                by_tag.append(i)
            else:
                out[i] = self._exact_id(move, legal)
        if by_tag:
            rows = np.array(by_tag, dtype=np.int64)
            out[rows] = self._chart_agent().decide(subset(views, rows), u[rows])
        return out

    def _move(self, view: Mapping[str, Any], legal: Mapping[str, Any], u: float) -> AbstractMove | None:
        """The abstract move to play with the uniform ``u``, or ``None`` where ``tag`` plays."""
        policy = self.policy_for(len(view["dealt_in"]))
        if self._charted(policy, view):
            self.charted += 1
            return None
        return self._choose(policy, view, legal, int(view["seat"]), u)

    @staticmethod
    def _exact_id(move: AbstractMove, legal: Mapping[str, Any]) -> int:
        """``move`` as an exact-mode action id (what :meth:`_to_action_id` gives in exact mode)."""
        if move.kind == "fold":
            return 0 if legal["fold"] else 1
        lo, hi = legal.get("min_raise_to"), legal.get("max_raise_to")
        if move.kind in ("check", "call") or lo is None or hi is None:
            return 1
        return min(max(int(move.amount), int(lo)), int(hi)) + 1

    def _game(self, policy: CfrLitePolicy, view: Mapping[str, Any], start_stack: int) -> AbstractHoldem:
        n = len(view["dealt_in"])
        sb, bb = int(view["small_blind"]), int(view["big_blind"])
        key = (n, sb, bb, start_stack)
        game = self._games.get(key)
        if game is None:
            table = TableConfig(num_players=n, small_blind=sb, big_blind=bb, buy_in=start_stack)
            game = AbstractHoldem(table, policy.actions, policy.cards)
            self._games[key] = game
        return game

    def _shadow(self, policy: CfrLitePolicy, view: Mapping[str, Any]) -> tuple[AbstractHoldem, Node, bool] | None:
        """Replay the public history in a fresh engine state; ``None`` if it cannot be matched.

        The flag says whether some bet was far larger than any raise in the tree (an
        *overbet*: more than :data:`OVERBET_FACTOR` times the largest offered pot fraction,
        and at least that many pots), after which the rest of the hand is off the tree.
        """
        dealt = tuple(bool(d) for d in view["dealt_in"])
        total = sum(int(s) for s in view["stacks"]) + int(view["pot"])
        players = sum(dealt)
        if players == 0 or total % players:
            return None
        start = total // players
        history = tuple(tuple(h) for h in view["history"])
        board = parse_cards(view["board"]) if view["board"] else ()
        key = (id(policy), int(view["small_blind"]), int(view["big_blind"]), start, int(view["button"]), dealt,
               history, board, int(view["pot"]), str(view["street"]))
        if key in self._shadows:
            return self._shadows[key]
        if len(self._shadows) >= _SHADOWS_KEPT:
            self._shadows.clear()
        got = self._shadows[key] = self._replay(policy, view, start, dealt, history)
        return got

    def _replay(
        self, policy: CfrLitePolicy, view: Mapping[str, Any], start: int, dealt: tuple[bool, ...], history: tuple[Any, ...]
    ) -> tuple[AbstractHoldem, Node, bool] | None:
        """:meth:`_shadow` without the cache."""
        game = self._game(policy, view, start)
        try:
            stacks = [start if d else 0 for d in dealt]
            state = HandState(game.table, button=int(view["button"]), stacks=stacks, dealt_in=dealt, seed=0)
            node = Node(state, "", 0)
            off_tree = False
            for i, (seat, _street, kind, to) in enumerate(history):
                if state.is_over or state.actor != int(seat):
                    return None
                moves = game.moves(node)
                if kind == "fold":
                    index = FOLD
                    state.fold()
                elif kind in ("check", "call"):
                    index = CALL
                    state.check() if kind == "check" else state.call()
                else:
                    legal_now = state.legal_actions()
                    largest = max([m.fraction for m in moves if m.kind == "raise"] + [1.0])
                    if fraction_of_raise(int(to), int(state.pot), int(state.current_bet), int(legal_now.call)) > OVERBET_FACTOR * largest:
                        off_tree = True
                    draw = Draw(lambda i=i: translation_uniform(self.translate_seed, view, history, i))
                    index = game.actions.translate(
                        int(to), moves, pot=int(state.pot), current_bet=int(state.current_bet), to_call=int(legal_now.call),
                        rng=draw,  # type: ignore[arg-type]
                    )
                    state.raise_to(int(to))
                game.record(node, index, int(seat))
        except HoldemError:
            return None
        if state.is_over or int(state.pot) != int(view["pot"]) or _STREETS.get(str(view["street"]), -1) != int(state.street):
            return None
        return game, node, off_tree

    def _choose(
        self, policy: CfrLitePolicy, view: Mapping[str, Any], legal: Mapping[str, Any], seat: int, u: float
    ) -> AbstractMove | None:
        """The abstract move to play (drawn with the uniform ``u`` as ``rng.choice`` draws), or ``None``
        for an off-tree decision that ``tag`` plays."""
        hole = parse_cards(view["hole_cards"])
        board = parse_cards(view["board"]) if view["board"] else ()
        shadow = self._shadow(policy, view) if len(view["dealt_in"]) == policy.table.num_players else None
        moves, p, off_tree = self._distribution(policy, shadow, view, legal, seat, hole, board)
        if off_tree:
            self.fallbacks += 1
            return moves[0] if moves else None
        self.lookups += 1
        cdf = np.cumsum(p)
        cdf /= cdf[-1]
        return moves[min(int(cdf.searchsorted(u, side="right")), len(moves) - 1)]

    def _tag_plays(self, shadow: tuple[AbstractHoldem, Node, bool] | None) -> bool:
        """Whether ``tag`` plays an off-tree decision here: ``off_tree="tag"``, and no overbet
        took the hand off the tree (the pot-odds rule plays those)."""
        return self.off_tree == "tag" and not (shadow is not None and shadow[2])

    def _distribution(
        self,
        policy: CfrLitePolicy,
        shadow: tuple[AbstractHoldem, Node, bool] | None,
        view: Mapping[str, Any],
        legal: Mapping[str, Any],
        seat: int,
        hole: Sequence[int],
        board: Sequence[int],
        bucket: int | None = None,
        strength: float | None = None,
        moves: Sequence[AbstractMove] | None = None,
    ) -> tuple[list[AbstractMove], np.ndarray, bool]:
        """The moves the agent may play with ``hole``, their probabilities, and whether the
        decision is off the tree (then the strength rule's one move, probability 1, or no
        move at all when ``tag`` plays it: see :meth:`_tag_plays`).
        ``bucket``, ``strength`` and ``moves``: the hand's card bucket, its strength and the
        abstract moves offered, when the caller already knows them."""
        if shadow is not None and shadow[2]:
            to_call = int(legal.get("call", 0))
            needed = to_call / max(1, int(view["pot"]) + to_call)  # pot odds
            move = self._fallback(policy, hole, board, legal, call_above=min(0.9, needed + 0.1), strength=strength)
            return [move], np.ones(1), True
        if shadow is not None:
            game, node, _ = shadow
            if moves is None:
                moves = game.moves(node)
            if bucket is None:
                bucket = policy.cards.bucket(hole, board)
            probs = policy.lookup(game.key(node, seat, bucket))
            if probs is not None and moves:
                p = np.array([probs[m.index] for m in moves], dtype=np.float64)
                if self.threshold > 0.0 and p.sum() > 0:
                    kept = np.where(p >= self.threshold * p.sum(), p, 0.0)
                    if kept.sum() > 0:
                        p = kept
                if p.sum() > 0:
                    return list(moves), p / p.sum(), False
        if self._tag_plays(shadow):
            return [], np.zeros(0), True
        return [self._fallback(policy, hole, board, legal, strength=strength)], np.ones(1), True

    def action_probabilities(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
    ) -> np.ndarray:
        """Range query (:mod:`holdem_env.agents.ranges`): for each row of ``holdings`` the
        probability of every action id, from the same lookup :meth:`act` samples from.

        The public history is replayed once (a bet translated at random keeps the
        translation :meth:`act` then uses, within the hand), the holdings' card buckets
        are computed in one batch, and each distinct bucket is looked up once.
        """
        mask = np.asarray(observation["action_mask"])
        view = info["view"]
        legal = legal_of(info)
        seat = int(view["seat"])
        policy = self.policy_for(len(view["dealt_in"]))
        if self._charted(policy, view):
            return np.asarray(self._chart_agent().action_probabilities(observation, info, holdings), dtype=np.float64)
        board = parse_cards(view["board"]) if view["board"] else ()
        hold = np.asarray(holdings, dtype=np.int64).reshape(-1, 2)
        index = holding_indices(hold)
        shadow = self._shadow(policy, view) if len(view["dealt_in"]) == policy.table.num_players else None
        on_tree = shadow is not None and not shadow[2]
        # Holdings alike to the agent share a row: preflop the class; postflop the strength
        # (which decides the bucket, and the fallback rule), or with rollouts the bucket.
        strengths = strength_against_random(board)[index] if board else np.zeros(len(hold))
        if not board:
            groups = _holding_classes()[index]
        elif on_tree and policy.cards.rollouts:
            groups = np.asarray(policy.cards.buckets_for_board([tuple(h) for h in hold.tolist()], board))
        elif on_tree:  # a bucket the policy knows is one row; elsewhere the fallback reads the strength
            levels, level_of = np.unique(strengths, return_inverse=True)
            street = len(board) - 2
            single = policy.cards.num_buckets(street) == 1
            game, node, _ = shadow  # type: ignore[misc]
            key_of_level = []
            for j, level in enumerate(levels):
                b = 0 if single else policy.cards.bucket_of_strength(street, float(level))
                known = policy.lookup(game.key(node, seat, b)) is not None
                key_of_level.append(-1 - b if known else j)
            groups = np.asarray(key_of_level)[level_of.ravel()]
        else:
            groups = strengths
        _, first, which = np.unique(groups, return_index=True, return_inverse=True)
        moves = shadow[0].moves(shadow[1]) if on_tree else None  # type: ignore[index]
        ids: dict[AbstractMove, int] = {}
        rows = np.zeros((len(first), len(mask)))
        tag_groups: list[int] = []
        for g, i in enumerate(first):
            hole = (int(hold[i, 0]), int(hold[i, 1]))
            strength = float(strengths[i]) if board else None
            bucket = None
            if on_tree and not board:
                bucket = policy.cards.bucket(hole, board)
            elif on_tree and policy.cards.rollouts:
                bucket = int(groups[i])
            elif on_tree and policy.cards.num_buckets(len(board) - 2) == 1:
                bucket = 0
            elif on_tree:
                bucket = policy.cards.bucket_of_strength(len(board) - 2, float(strengths[i]))
            chosen, p, off_tree = self._distribution(policy, shadow, view, legal, seat, hole, board, bucket, strength, moves)
            if off_tree and not chosen:  # tag plays it
                tag_groups.append(g)
                continue
            for move, q in zip(chosen, p, strict=True):
                if move not in ids:
                    ids[move] = self._to_action_id(move, mask, view, legal, seat)
                rows[g, ids[move]] += q
        out = rows[which.ravel()]
        if tag_groups:  # the off-tree holdings: tag's own range answer, the rule act follows
            played_by_tag = np.isin(which.ravel(), tag_groups)
            out[played_by_tag] = self._chart_agent().action_probabilities(observation, info, hold[played_by_tag])
        return out

    def _fallback(
        self,
        policy: CfrLitePolicy,
        hole: Sequence[int],
        board: Sequence[int],
        legal: Mapping[str, Any],
        call_above: float = 0.5,
        strength: float | None = None,
    ) -> AbstractMove:
        """Check when free; otherwise call when the hand's strength percentile is at least
        ``call_above`` (after an overbet: the pot odds plus 0.1), else fold. ``strength``:
        that percentile when the caller already knows it."""
        if legal.get("check"):
            return AbstractMove(CALL, "check")
        if strength is None:
            strength = _strength_fraction(policy, hole, board)
        if strength >= call_above or not legal.get("fold"):
            return AbstractMove(CALL, "call")
        return AbstractMove(FOLD, "fold")

    # -- action ids --------------------------------------------------------------------
    def _to_action_id(self, move: AbstractMove, mask: np.ndarray, view: Mapping[str, Any], legal: Mapping[str, Any], seat: int) -> int:
        if move.kind == "fold":
            return 0 if mask[0] else 1
        if move.kind in ("check", "call"):
            return 1 if mask[1] else 0
        sizes = self.bet_sizes if self.bet_sizes is not None else DEFAULT_BET_SIZES
        return nearest_raise_id(int(move.amount), mask, view, legal, self.action_mode, sizes)


@functools.lru_cache(maxsize=1)
def _holding_classes() -> np.ndarray:
    """The preflop class of each of the 1,326 holdings (indexed like ``engine.ranges.HOLDINGS``)."""
    return np.array([preflop_class((int(a), int(b))) for a, b in HOLDINGS], dtype=np.int64)


def _strength_fraction(policy: CfrLitePolicy, hole: Sequence[int], board: Sequence[int]) -> float:
    """Preflop: the class's equity percentile (1 = aces); postflop: strength against a random hand."""
    if not board:
        rank = int(policy.cards.thresholds()["preflop_rank"][preflop_class(hole)])  # 0 = strongest
        return 1.0 - rank / (NUM_PREFLOP_CLASSES - 1)
    return float(hand_strengths([tuple(hole)], tuple(board))[0])
