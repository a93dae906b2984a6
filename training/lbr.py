"""Local Best Response (Lisy & Bowling, 2017): a lower bound on how much a heads-up agent loses.

LBR plays heads-up no-limit against the agent. It keeps the agent's *range* -- a
probability for each of the 1,326 holdings -- by Bayes' rule: it starts uniform over the
holdings its own cards allow, drops holdings the board blocks, and after every agent
action multiplies each holding's weight by the probability that the agent takes that
action with it (the agent's range answer, :mod:`holdem_env.agents.ranges`). At its own
decisions, from the street ``check_until`` on, LBR computes

- ``WP``: its exact showdown equity against the range, every run-out of the remaining
  board enumerated (:func:`holdem_env.engine.ranges.equity_against_each`);
- for each bet it may make, the probability ``fp`` that the agent folds to it (the
  agent's range answer at the state after the bet) and its equity ``WP'`` against the
  holdings that continue;

and takes the action of highest expected value assuming the rest of the hand is checked
down: fold 0, check/call ``WP * pot - (1 - WP) * to_call``, a bet that adds ``d`` chips
and makes the agent add ``c`` to continue ``fp * pot + (1 - fp) * (WP' * (pot + d + c) - d)``.
Before ``check_until`` it checks or calls. A continuing agent's raise is answered at LBR's
next decision like any bet.

Action sets (``actions``; ids of ``nlhe_v1``'s discrete mode, whose raise sizes are pot
fractions ``f``, raise to ``current_bet + f * (pot + to_call)``):

==========  =====================================================================
``fc``      fold, check/call
``fcpa``    fold, check/call, pot-size raise (``f = 1``), all-in -- the paper's set
``all``     fold, check/call and every discrete raise: min-raise, each pot fraction
            of ``bet_sizes`` (default 0.33, 0.5, 0.75, 1, 1.5, 2), all-in
==========  =====================================================================

The paper's best setting, and the default here, is ``fcpa`` with LBR only checking and
calling before the turn (``check_until="turn"``); its published figures use blinds 50/100
and 20,000-chip stacks, reset every hand. Matches are played on duplicate deals (each
deal twice, LBR in each position) and reported in milli-big-blinds per hand with a 95%
interval over deals; LBR's value is what the agent loses to it, so higher means more
exploitable. Against ``always-fold`` it is 750 mbb/hand.

Every random number comes from generators seeded by ``(seed, deal)``: results do not
depend on ``workers``.
"""

from __future__ import annotations

import copy
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from holdem_env.agents.base import make_agent, parse_spec
from holdem_env.agents.ranges import RangeQueryError, query_range, supports_range_queries
from holdem_env.engine.cards import parse_cards, shuffled_deck
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, blocked_by, equity_against_each, equity_against_range
from holdem_env.engine.validate import check_int
from holdem_env.env import nlhe_v1
from holdem_env.training.aivat.lbr import START_STREETS, LbrLuck
from holdem_env.training.arena import MAX_HANDS
from holdem_env.training.stats import mean_ci95
from holdem_env.training.torch_settings import torch_settings
from holdem_env.training.workpool import WorkerPool

__all__ = [
    "ACTION_SETS",
    "STREETS",
    "LbrConfig",
    "LbrResult",
    "LocalBestResponse",
    "PUBLISHED_MBB",
    "run_lbr",
    "format_result",
]

#: LBR's action sets (see the module docstring).
ACTION_SETS = ("fc", "fcpa", "all")
#: Streets in order; LBR only checks/calls before ``check_until``.
STREETS = ("preflop", "flop", "turn", "river")
#: Published LBR values (mbb/hand, 50/100 blinds, 20,000 stacks; Lisy & Bowling 2017): value, 95% half-width.
PUBLISHED_MBB: dict[str, tuple[float, float | None]] = {
    "always-fold": (750.0, None),
    "Slumbot 2016": (4020.0, 115.0),
    "Hyperborean 2014": (3852.0, 141.0),
    "Act1 2016": (2597.0, 140.0),
}
_FOLD, _CALL = 0, 1


def _check_int(name: str, value: Any, lo: int) -> int:
    return int(check_int(name, value, lo))


class LocalBestResponse:
    """LBR's decision rule and range tracking for one seat; :meth:`play_hand` plays a hand.

    ``actions``: ``"fc"``, ``"fcpa"`` or ``"all"``; ``check_until``: the first street on
    which LBR may fold or bet (``"preflop"`` .. ``"river"``); ``bet_sizes``: the env's
    discrete pot fractions. After a hand, :attr:`ranges` holds the agent's range after each
    of its actions (1,326 weights summing to 1) and :attr:`decisions` LBR's utilities at
    each decision where it computed them (``{"street", "wp", "utils"}``).

    ``aivat``: ``"flop"`` or ``"turn"`` to re-score each hand with AIVAT's terms from that street
    on (:mod:`holdem_env.training.aivat.lbr`); after a hand :attr:`adjusted` holds the re-scored
    result (the plain result when ``aivat`` is None).
    """

    def __init__(
        self,
        actions: str = "fcpa",
        check_until: str = "turn",
        bet_sizes: Sequence[float] = nlhe_v1.DEFAULT_BET_SIZES,
        aivat: str | None = None,
    ) -> None:
        if actions not in ACTION_SETS:
            raise ConfigError("actions", actions, f"must be one of {', '.join(ACTION_SETS)}")
        if check_until not in STREETS:
            raise ConfigError("check_until", check_until, f"must be one of {', '.join(STREETS)}")
        self.bet_sizes = tuple(float(f) for f in bet_sizes)
        if actions == "fcpa" and 1.0 not in self.bet_sizes:
            raise ConfigError("bet_sizes", bet_sizes, "must include the pot fraction 1.0 for the fcpa action set")
        self.actions = actions
        self.check_until = check_until
        self.ranges: list[np.ndarray] = []
        self.decisions: list[dict[str, Any]] = []
        self._range = np.zeros(NUM_HOLDINGS)
        self._equity_key: tuple[int, ...] | None = None
        self._equities = np.zeros(NUM_HOLDINGS)
        self._own: tuple[int, ...] = ()
        self.luck = None if aivat is None else LbrLuck(lambda board: self._equity_table(self._own, board), aivat)
        self.adjusted = 0.0
        self.showdown = False

    # -- the action set -------------------------------------------------------------------
    def candidate_ids(self, mask: np.ndarray) -> list[int]:
        """The legal action ids LBR considers at a decision with this ``mask``."""
        n = len(mask)
        ids = [a for a in (_FOLD, _CALL) if mask[a]]
        if self.actions == "fcpa":
            ids += [a for a in (3 + self.bet_sizes.index(1.0), n - 1) if mask[a]]
        elif self.actions == "all":
            ids += [a for a in range(2, n) if mask[a]]
        return list(dict.fromkeys(ids))

    # -- one hand -------------------------------------------------------------------------
    def play_hand(self, env: Any, agent: Any, *, deck: Sequence[int], button: int, lbr_seat: int = 0) -> int:
        """Play one hand on ``env`` (a heads-up ``nlhe_v1`` env, discrete mode, rewards in
        chips) from ``deck`` with ``button``, LBR in ``lbr_seat``; returns LBR's chip result.

        Raises :class:`~holdem_env.agents.ranges.RangeQueryError` if the agent cannot answer
        range queries, or acts in a way its own answers gave probability 0 for every holding
        still in its range.
        """
        env.reset(options={"deck": list(deck), "button": int(button)})
        lbr_name = f"player_{lbr_seat}"
        agent_name = f"player_{1 - lbr_seat}"
        if hasattr(agent, "start_hand"):
            agent.start_hand(env.infos[agent_name])
        start = env.infos[lbr_name]["view"]
        own = parse_cards(start["hole_cards"])
        self._own = own
        self._range = (~blocked_by(own)).astype(np.float64)
        self._range /= self._range.sum()
        self._equity_key = None
        self.ranges = []
        self.decisions = []
        luck = self.luck
        buy_in = int(start["stacks"][lbr_seat]) + int(start["street_bets"][lbr_seat])
        if luck is not None:
            luck.start((), buy_in)
        result, end = 0, start
        for name in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                if name == lbr_name:
                    result, end = int(round(reward)), info["view"]
                env.step(None)
                continue
            self._drop_board(info)
            view = info["view"]
            if luck is not None:
                stacks = view["stacks"]
                board = parse_cards(view["board"]) if view["board"] else ()
                luck.observe(board, self._range, int(view["pot"]), buy_in - int(stacks[lbr_seat]), buy_in - int(stacks[1 - lbr_seat]))
            if name == agent_name:
                env.step(self._agent_acts(agent, obs, info, env))
            else:
                action = self._decide(env, agent, obs, info, own)
                if luck is not None:
                    luck.lbr_action(action, _chips(env, action, info))
                env.step(action)
        self.adjusted = float(result)
        self.showdown = end["is_over"] and not any(end["folded"])
        if luck is not None:
            final_board = parse_cards(end["board"]) if end["board"] else ()
            self.adjusted = luck.adjusted(result, self.showdown, self._range, final_board)
        return result

    def _drop_board(self, info: dict[str, Any]) -> None:
        board = info["view"]["board"]
        if board:
            self._range[blocked_by(parse_cards(board))] = 0.0

    def _live(self) -> np.ndarray:
        return np.flatnonzero(self._range > 0)

    def _agent_acts(self, agent: Any, obs: dict[str, Any], info: dict[str, Any], env: Any = None) -> int:
        live = self._live()
        probs = query_range(agent, obs, info, HOLDINGS[live])
        action = int(agent.act(obs, info))
        if self.luck is not None and env is not None:
            mask = np.asarray(obs["action_mask"])
            adds = {a: _chips(env, a, info) for a in np.flatnonzero(mask).tolist() if a != _FOLD}
            self.luck.agent_action(self._range, live, probs, action, adds, _FOLD)
        posterior = np.zeros(NUM_HOLDINGS)
        posterior[live] = self._range[live] * probs[:, action]
        total = posterior.sum()
        if total <= 0:
            raise RangeQueryError(
                f"agent {type(agent).__name__} took action {action}, which its range answers give "
                "probability 0 with every holding it could have: its range answers disagree with act"
            )
        self._range = posterior / total
        self.ranges.append(self._range.copy())
        return action

    def _equity_table(self, own: tuple[int, ...], board: tuple[int, ...]) -> np.ndarray:
        key = own + board
        if key != self._equity_key:
            self._equities = equity_against_each(own, board)
            self._equity_key = key
        return self._equities

    def _decide(self, env: Any, agent: Any, obs: dict[str, Any], info: dict[str, Any], own: tuple[int, ...]) -> int:
        view = info["view"]
        mask = np.asarray(obs["action_mask"])
        if STREETS.index(view["street"]) < STREETS.index(self.check_until):
            return _CALL if mask[_CALL] else _FOLD
        board = parse_cards(view["board"]) if view["board"] else ()
        equities = self._equity_table(own, board)
        wp = equity_against_range(equities, self._range)
        pot, to_call = int(view["pot"]), int(info["legal"]["call"])
        seat = int(view["seat"])
        utils: dict[int, float] = {}
        for a in self.candidate_ids(mask):
            if a == _FOLD:
                utils[a] = 0.0
            elif a == _CALL:
                utils[a] = wp * pot - (1.0 - wp) * to_call
            else:
                utils[a] = self._bet_utility(env, agent, a, equities, pot, seat)
        self.decisions.append({"street": view["street"], "wp": wp, "utils": dict(utils)})
        best = max(utils.values())
        return min(a for a, u in utils.items() if u >= best - 1e-9)  # ties: the most passive

    def _bet_utility(self, env: Any, agent: Any, action: int, equities: np.ndarray, pot: int, seat: int) -> float:
        raw = env.unwrapped
        raise_to = int(raw.action_amount(action))
        view = raw.infos[f"player_{seat}"]["view"]
        adds = raise_to - int(view["street_bets"][seat])
        calls = raise_to - int(view["street_bets"][1 - seat])
        after = copy.deepcopy(env)
        after.step(action)
        obs, _, term, trunc, info = after.last()
        live = self._live()
        if term or trunc or not obs["action_mask"].any():  # nothing for the agent to decide
            fold = np.zeros(len(live))
        else:
            fold = query_range(agent, obs, info, HOLDINGS[live])[:, _FOLD]
        weights = self._range[live]
        fp = float(np.dot(weights, fold) / weights.sum())
        if fp >= 1.0 - 1e-12:
            return float(pot)
        continuing = np.zeros(NUM_HOLDINGS)
        continuing[live] = weights * (1.0 - fold)
        wp_called = equity_against_range(equities, continuing)
        return fp * pot + (1.0 - fp) * (wp_called * (pot + adds + calls) - adds)


def _chips(env: Any, action: int, info: dict[str, Any]) -> int:
    """Chips the player to act puts in with ``action`` (0 for a fold or check)."""
    if action == _FOLD:
        return 0
    if action == _CALL:
        return int(info["legal"]["call"])
    view = info["view"]
    return int(env.unwrapped.action_amount(action)) - int(view["street_bets"][view["seat"]])


@dataclass(frozen=True)
class LbrConfig:
    """An LBR match: the agent spec and every setting; validated on creation.

    ``hands`` is rounded up to whole duplicate pairs (one deal, LBR in each position).
    ``aivat``: ``"flop"`` or ``"turn"`` also reports the AIVAT estimate of the same value
    (:mod:`holdem_env.training.aivat.lbr`, its terms from that street on); None: plain only.
    """

    agent: str
    hands: int = 2000
    seed: int = 0
    small_blind: int = 50
    big_blind: int = 100
    stack: int = 20000
    actions: str = "fcpa"
    check_until: str = "turn"
    workers: int | None = 1
    bet_sizes: tuple[float, ...] = field(default_factory=lambda: tuple(nlhe_v1.DEFAULT_BET_SIZES))
    aivat: str | None = None

    def __post_init__(self) -> None:
        parse_spec(self.agent)
        _check_int("hands", self.hands, 2)
        if self.hands > MAX_HANDS:
            raise ConfigError("hands", self.hands, f"must be an integer in 2..{MAX_HANDS} (play several seeds for larger samples)")
        _check_int("seed", self.seed, 0)
        _check_int("small_blind", self.small_blind, 1)
        _check_int("big_blind", self.big_blind, self.small_blind)
        _check_int("stack", self.stack, self.big_blind)
        if self.workers is not None:
            _check_int("workers", self.workers, 1)
        if self.aivat is not None and self.aivat not in START_STREETS:
            raise ConfigError("aivat", self.aivat, f"must be None or one of {', '.join(START_STREETS)}")
        LocalBestResponse(self.actions, self.check_until, self.bet_sizes)  # validates those three

    @property
    def deals(self) -> int:
        """Duplicate deals played (each deal is two hands)."""
        return math.ceil(self.hands / 2)

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain JSON-ready values."""
        out = asdict(self)
        out["bet_sizes"] = list(self.bet_sizes)
        return out


@dataclass(frozen=True)
class LbrResult:
    """An LBR match's outcome: LBR's winnings in mbb/hand (what the agent loses to it)."""

    config: LbrConfig
    mbb_per_hand: float
    ci95: float
    hands: int
    by_position: dict[str, float]
    seconds: float
    aivat_mbb: float | None = None
    aivat_ci95: float | None = None

    @property
    def hands_per_second(self) -> float:
        """Hands played per second of wall time."""
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    def to_json_dict(self) -> dict[str, Any]:
        """The result as plain JSON values (settings included)."""
        return {
            "config": self.config.to_dict(),
            "lbr_mbb_per_hand": self.mbb_per_hand,
            "ci95": self.ci95 if math.isfinite(self.ci95) else None,
            "hands": self.hands,
            "by_position": self.by_position,
            "seconds": self.seconds,
            "hands_per_second": self.hands_per_second,
            "aivat_mbb_per_hand": self.aivat_mbb,
            "aivat_ci95": self.aivat_ci95 if self.aivat_ci95 is None or math.isfinite(self.aivat_ci95) else None,
        }


def _make_env(cfg: LbrConfig) -> Any:
    return nlhe_v1.env(
        num_players=2,
        small_blind=cfg.small_blind,
        big_blind=cfg.big_blind,
        buy_in=cfg.stack,
        action_mode="discrete",
        bet_sizes=cfg.bet_sizes,
        reward_unit="chips",
    )


def _play_deals(cfg: LbrConfig, deals: list[int]) -> list[tuple[int, int, int, float, float]]:
    """``(deal, LBR's chips on the button, LBR's chips in the big blind, the same two re-scored
    by AIVAT)`` per deal (the re-scored ones equal the plain ones when ``cfg.aivat`` is None)."""
    env = _make_env(cfg)
    env.reset(seed=cfg.seed)
    agent = make_agent(cfg.agent, rng=np.random.default_rng([cfg.seed, 0]))
    if not supports_range_queries(agent):
        query_range(agent, {"action_mask": np.ones(2)}, {}, HOLDINGS[:1])  # raises the clear error
    lbr = LocalBestResponse(cfg.actions, cfg.check_until, cfg.bet_sizes, aivat=cfg.aivat)
    out = []
    for deal in deals:
        deck = shuffled_deck(np.random.default_rng([cfg.seed, deal, 1]))
        results, adjusted = [], []
        for button in (0, 1):  # LBR sits in seat 0: on the button, then in the big blind
            if hasattr(agent, "set_rng"):
                agent.set_rng(np.random.default_rng([cfg.seed, deal, 2, button]))
            results.append(lbr.play_hand(env, agent, deck=deck, button=button, lbr_seat=0))
            adjusted.append(lbr.adjusted)
        out.append((deal, results[0], results[1], adjusted[0], adjusted[1]))
    return out


def _one_thread_per_worker() -> None:
    """Worker initializer (the worker process's entry point): a torch agent computes with one
    thread, for the life of the worker (the workers are the parallelism; several threads per
    worker on few cores cost far more wall time than they save). A range query's network call
    on ~1,300 rows is too small to gain from threads; on a busy machine they cost several times
    the work. (Ctrl-C is left to the parent: :class:`~holdem_env.training.workpool.WorkerPool`.)"""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def run_lbr(
    config: LbrConfig,
    *,
    progress: bool = False,
    callback: Callable[[int, float, float], None] | None = None,
) -> LbrResult:
    """Play the LBR match of ``config``; see the module docstring.

    ``progress``: a tqdm bar on stderr. ``callback(hands_done, mbb_per_hand, ci95)`` is
    called as results come in (in deal order). Raises
    :class:`~holdem_env.agents.ranges.RangeQueryError` for an agent without range queries.
    """
    cfg = config
    agent = make_agent(cfg.agent)
    if not supports_range_queries(agent):
        query_range(agent, {"action_mask": np.ones(2)}, {}, HOLDINGS[:1])  # raises the clear error
    total = cfg.deals
    workers = min(cfg.workers or os.cpu_count() or 1, total)
    chunk = max(1, min(25, math.ceil(total / (workers * 8))))
    n_chunks = math.ceil(total / chunk)
    chunks = (list(range(i * chunk, min((i + 1) * chunk, total))) for i in range(n_chunks))  # made when sent
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=total * 2, unit="hand", desc=f"holdem lbr {cfg.agent}", dynamic_ncols=True)
    rows = np.zeros((total, 4))  # LBR's chips per deal: on the button, in the big blind; the same re-scored
    filled = 0  # deals folded in, in deal order
    start = time.perf_counter()

    def fold_in(done: list[tuple[int, int, int, float, float]]) -> None:
        nonlocal filled
        for deal, *chips in done:
            rows[deal] = chips if len(chips) == 4 else chips * 2  # (plain, plain) where not re-scored
        filled += len(done)
        if bar is not None:
            bar.update(2 * len(done))
        if callback is not None and filled >= 2:
            mean, half = _summary(cfg, rows[:filled])
            callback(2 * filled, mean, half)

    try:
        if workers <= 1:
            with torch_settings(threads=1):  # as in a worker (_one_thread_per_worker); restored after
                for c in chunks:
                    fold_in(_play_deals(cfg, c))
        else:
            with WorkerPool(workers, initializer=_one_thread_per_worker) as pool:
                for done in pool.imap(_play_deals, ((cfg, c) for c in chunks), window=4 * workers):
                    fold_in(done)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    mean, half = _summary(cfg, rows)
    scale = 1000.0 / cfg.big_blind
    by_position = {
        "button": float(np.mean(rows[:, 0]) * scale),
        "big_blind": float(np.mean(rows[:, 1]) * scale),
    }
    aivat_mbb, aivat_half = _summary(cfg, rows[:, 2:]) if cfg.aivat is not None else (None, None)
    return LbrResult(cfg, mean, half, 2 * total, by_position, seconds, aivat_mbb, aivat_half)


def _summary(cfg: LbrConfig, rows: np.ndarray) -> tuple[float, float]:
    """Mean and 95% half-width in mbb/hand, one sample per deal (its two hands' mean; the
    first two columns of ``rows``)."""
    scale = 1000.0 / cfg.big_blind
    return mean_ci95(((rows[:, 0] + rows[:, 1]) / 2 * scale).tolist())


def format_result(result: LbrResult) -> str:
    """A short text report of an LBR match."""
    cfg = result.config
    half = f"{result.ci95:,.0f}" if math.isfinite(result.ci95) else "inf"
    lines = [
        f"LBR vs {cfg.agent}: {result.mbb_per_hand:,.0f} +- {half} mbb/hand (95%), {result.hands:,} hands "
        f"({cfg.deals:,} duplicate deals)",
        f"  settings: actions {cfg.actions}, LBR checks/calls before the {cfg.check_until}, blinds "
        f"{cfg.small_blind}/{cfg.big_blind}, stacks {cfg.stack:,}, seed {cfg.seed}",
        f"  by LBR's position: button {result.by_position['button']:,.0f}, big blind "
        f"{result.by_position['big_blind']:,.0f} mbb/hand",
        f"  speed: {result.hands_per_second:,.1f} hands/s ({result.seconds:,.1f} s)",
        *(
            [f"  AIVAT (from the {cfg.aivat}, same expected value): {result.aivat_mbb:,.0f} +- {result.aivat_ci95:,.0f} mbb/hand (95%)"]
            if result.aivat_mbb is not None and result.aivat_ci95 is not None else []
        ),
        "  published (50/100, 20,000 stacks): "
        + ", ".join(f"{k} {v:,.0f}" + (f" +- {h:,.0f}" if h else "") for k, (v, h) in PUBLISHED_MBB.items()),
    ]
    return "\n".join(lines)
