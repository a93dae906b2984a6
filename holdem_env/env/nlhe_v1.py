"""PettingZoo AEC environment for Texas Hold'em: exact no-limit masks, rich observations.

``nlhe_v1`` plays one hand per episode on the engine of :mod:`holdem_env.engine.state`; every
rule (legality, pots, payoffs) comes from the engine, never from this module.

Creating it
-----------
>>> from holdem_env import nlhe_v1
>>> env = nlhe_v1.env(num_players=3, action_mode="exact")
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> int(obs["action_mask"][1]), info["legal"]["min_raise_to"]
(1, 20)

Importing this module also registers ``"holdem_env/nlhe-v1"`` with PettingZoo 1.27's
registry, so ``pettingzoo.make("aec", "holdem_env/nlhe-v1", num_players=2)`` works too
(the registry only knows environments whose module was imported; PettingZoo has no
plug-in discovery).

Keyword arguments
-----------------
==================  ==============  =================================================
name                default         meaning
==================  ==============  =================================================
``num_players``     6               2..10 seats; agents ``player_0..player_{n-1}``
``small_blind``     5               chips
``big_blind``       10              chips
``ante``            0               chips, dead money posted by every seat
``buy_in``          1000            every hand starts at this stack (unless options)
``betting``         ``"no-limit"``  or ``"pot-limit"``, ``"fixed-limit"``
``action_mode``     ``"discrete"``  or ``"exact"`` (see Actions)
``bet_sizes``       see below       pot fractions of the discrete mode
``max_stack``       ``buy_in``      largest stack ``reset`` accepts; sizes the spaces
                                    (exact mode: at most ``MAX_EXACT_STACK`` = 10**6)
``reward_unit``     ``"bb"``        or ``"chips"``
``illegal_action``  ``"raise"``     or ``"timeout"`` (check if free, else fold)
``info_mode``       ``"full"``      or ``"minimal"``: infos without ``"view"`` (see Infos)
``pad_seats``       False           True: seat axis of the observation is 10
``render_mode``     None            ``"ansi"`` (returns text) or ``"human"`` (prints)
``render_viewer``   None            seat whose hole cards the render shows, or ``"all"``
==================  ==============  =================================================

Episodes
--------
One hand per episode. Each ``reset()`` moves the button one seat; the first hand's
button is drawn from the seed. ``reset(seed=s)`` restarts the table from seed ``s``: the
same seed and options give the identical hand, card for card. ``reset(options=...)``
accepts ``"deck"`` (52 card strings or ids, dealt exactly as RULES.md: one card at a
time from the seat left of the button, burns included), ``"button"`` (seat) and
``"stacks"`` (per-seat starting stacks, each ``0..max_stack``; seats with 0 sit out).
Other keys are ignored (PettingZoo's ``api_test`` passes ``{"options": 1}``). A bad
option raises :class:`~holdem_env.engine.errors.ConfigError` before anything changes. Resetting
in the middle of a hand (without a new seed) abandons that hand
(:meth:`holdem_env.engine.table.Table.abandon_hand`): it is left as it was, unfinished, with no
rewards, and the button still moves on.

Actions (``Discrete``; identical for every agent)
-------------------------------------------------
=====================  =============================================================
id                     meaning
=====================  =============================================================
0                      fold
1                      check, or call when facing a bet (all-in for less included)
exact: ``2 + k``       bet/raise TO ``k + 1`` chips (``k = 0 .. max_stack - 1``);
                       :func:`exact_action_id` / :func:`exact_raise_to` convert
discrete: 2            min-raise (the engine's ``min_raise_to``)
discrete: 3 .. 2+m     raise to ``current_bet + f * (pot + amount_to_call)`` for each
                       pot fraction ``f`` of ``bet_sizes`` (default
                       0.33, 0.5, 0.75, 1, 1.5, 2), rounded to whole chips
discrete: last (3+m)   all-in (a bet/raise of the whole stack)
=====================  =============================================================

Action mask (``observation["action_mask"]``, int8)
--------------------------------------------------
All zeros for an agent that is not to act. Exact mode: exactly the engine's legal set
(fold, check/call, every raise-to in ``[min_raise_to, max_raise_to]``), built by slice
assignment. Discrete mode: a size is masked when it is outside the legal interval or
maps to the same chip amount as an action kept before it (priority: all-in, min-raise,
then the fractions in order); pot- and fixed-limit limits come from the engine's
interval. A masked id is an illegal action (see ``illegal_action``); an id outside
``0 .. num_actions - 1`` or a non-integer always raises
:class:`~holdem_env.engine.errors.IllegalActionError`.

Observation (``observation["observation"]``, float32)
----------------------------------------------------
Documented slice by slice in :mod:`holdem_env.env._obs` (hole and board one-hots, street,
pot, amount to call, min/max raise-to, own stack, current bet, per-seat stacks, bets,
folded, all-in, dealt-in and button relative to the observer, and per street and seat
the counts of checks, calls, bets/raises and the amount). Money is in big blinds.
:func:`holdem_env.env._obs.observation_view` gives named views.

Infos
-----
Infos are plain data, the same keys and types at every step, so vectorised wrappers
(Gymnasium's ``SyncVectorEnv``/``AsyncVectorEnv``, Tianshou) can batch and pickle them.

``infos[agent]["legal"]``: ``fold``, ``check`` (bool), ``call`` (chips a call adds),
``min_raise_to``, ``max_raise_to`` (chips; **0 when no bet or raise is allowed** -- a real
raise-to is always at least 1 chip, so ``legal["min_raise_to"] > 0`` says whether raising is
open). An agent that is not to act has ``False, False, 0, 0, 0``.

``infos[agent]["view"]`` (``info_mode="full"``, the default): a
:class:`~holdem_env.env._view.SeatView`, a frozen mapping of ints, strs, bools and tuples
(``seat``, ``hole_cards``, ``street``, ``board``, ``pot``, ``current_bet``, ``button``,
``actor`` (-1 once over), ``stacks``, ``street_bets``, ``folded``, ``all_in``, ``dealt_in``,
blinds, ``history`` as ``(seat, street, kind, to)`` tuples, ``is_over``, ``shown`` (per seat:
the cards shown at showdown, ``()`` otherwise) and ``payoffs`` (per seat, 0 until over)).
Chips are ints. The view is taken when the seat is to act, at the deal and at the end of the
hand: a seat that is not to act keeps the view of its last turn. It holds no reference to the
engine, the deck or other seats' hidden cards. ``info_mode="minimal"`` leaves the view out
(infos are then ``{"legal": ...}`` only; the cheapest to batch).

Rewards
-------
Zero until the hand ends; then each agent's chip change over the hand (in big blinds by
default, ``reward_unit="chips"`` for chips). Rewards sum to zero.

Hidden information
------------------
An agent's observation, info and a render for a viewer seat show only that seat's hole
cards, plus cards the engine shows at showdown; mucked cards are never revealed. Nothing an
agent is handed (observation arrays, info dicts, views) refers back to the engine, the deck
or the env (``tests/test_info_sealed.py``). Python has no in-process sandbox, though: code
running in the env's own interpreter can still find it (``gc.get_objects()``); run untrusted
agents in another process and send them only what they are handed.

Version history
---------------
* v1: infos are plain, batchable data: ``min_raise_to``/``max_raise_to`` are 0 (not None)
  when no raise is allowed; ``info["view"]`` is a frozen :class:`SeatView` snapshot (was a
  live ``PlayerView`` that reached the engine state, so an agent could read every seat's
  hole cards and the deck); its ``actor`` is -1 (not None) once over, ``shown`` is per seat,
  ``payoffs`` is 0s until over, and ``is_over`` is new; ``info_mode="minimal"``. Observations,
  actions and rewards are unchanged. ``holdem_env.nlhe_v0`` and
  ``holdem_env.env.nlhe_v0`` remain importable as aliases of this module (the previous name).
* v0: initial version.
"""

from __future__ import annotations

import dataclasses
import importlib.machinery
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

try:  # the compiled build's per-function directives (compile time only; Cython is no runtime dependency)
    import cython
except ImportError:  # pure Python without Cython: only the compiled build runs the typed writers that use it
    pass
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from holdem_env.engine.actions import ActionKind, LegalActions, pot_fraction_raise_to
from holdem_env.engine.cards import card_str, validate_deck
from holdem_env.engine.config import BettingStructure, TableConfig
from holdem_env.engine.errors import ConfigError, HandOverError, IllegalActionError, short_repr
from holdem_env.engine.record import ActionEvent, HandRecord
from holdem_env.engine.state import HandState, _check_seed, _Legal
from holdem_env.engine.table import Table
from holdem_env.env import _obs
from holdem_env.env._obsbuild import ObservationBuilder
from holdem_env.env._view import SeatView, view_from_parts
from holdem_env.formats import phh

__all__ = [
    "env",
    "raw_env",
    "ENV_ID",
    "SAME_OBSERVATIONS_AS",
    "DEFAULT_BET_SIZES",
    "ACTION_MODES",
    "MAX_EXACT_STACK",
    "exact_action_id",
    "exact_raise_to",
    "discrete_raise_amounts",
    "SeatView",
    "INFO_MODES",
]

ENV_ID = "holdem_env/nlhe-v1"
#: Env ids whose observations, actions and rewards are this version's (v1 changed only the infos),
#: so a policy trained on any of them plays here unchanged.
SAME_OBSERVATIONS_AS: tuple[str, ...] = ("holdem_env/nlhe-v1", "holdem_env/nlhe-v0")
DEFAULT_BET_SIZES: tuple[float, ...] = (0.33, 0.5, 0.75, 1.0, 1.5, 2.0)
ACTION_MODES = ("discrete", "exact")
#: Largest ``max_stack`` of the exact mode, whose action space has one id per chip.
MAX_EXACT_STACK = 1_000_000
INFO_MODES = ("full", "minimal")
FOLD = 0
CHECK_CALL = 1
_STREET_NAMES = ("preflop", "flop", "turn", "river", "showdown")
_KIND_COLUMN = {
    ActionKind.CHECK: _obs.HIST_CHECKS,
    ActionKind.CALL: _obs.HIST_CALLS,
    ActionKind.BET: _obs.HIST_RAISES,
    ActionKind.RAISE: _obs.HIST_RAISES,
}
# kind's value -> (name in the history, history column or -1 for a fold); keyed by the value, a
# plain str, because hashing an ActionKind runs Enum's Python-level __hash__ (once per action)
_KIND_INFO = {k.value: (k.value, _KIND_COLUMN.get(k, -1)) for k in ActionKind}
_HIST_CHECKS, _HIST_AMOUNT = _obs.HIST_CHECKS, _obs.HIST_AMOUNT
_PAD_SEATS = 10
_CARD_STRS = tuple(card_str(c) for c in range(52))
_AT_TO_CALL, _AT_MIN_RAISE_TO, _AT_MAX_RAISE_TO = _obs.OFF_TO_CALL, _obs.OFF_MIN_RAISE_TO, _obs.OFF_MAX_RAISE_TO
_FOLD_ID, _CHECK_CALL_ID = FOLD, CHECK_CALL  # C integers in the compiled build (nlhe_v1.pxd)
_zeros, _INT8 = np.zeros, np.dtype(np.int8)  # the idle seats' all-zero masks (read once here)
_copy_array = np.ndarray.copy  # called unbound: no bound method made per observation


def exact_action_id(raise_to: int) -> int:
    """Exact-mode action id of a bet/raise TO ``raise_to`` chips.

    >>> exact_action_id(20)
    21
    >>> exact_action_id(0)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.IllegalActionError: raise-to 0 is not a positive number of chips
    """
    if not isinstance(raise_to, (int, np.integer)) or isinstance(raise_to, bool) or raise_to < 1:
        raise IllegalActionError(f"raise-to {raise_to!r} is not a positive number of chips")
    return int(raise_to) + 1


def exact_raise_to(action_id: int) -> int | None:
    """Raise-to amount (chips) of an exact-mode action id; None for fold (0) and check/call (1).

    >>> exact_raise_to(21), exact_raise_to(1)
    (20, None)
    >>> exact_raise_to(2.5)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.IllegalActionError: action id 2.5 is not a non-negative integer
    """
    if not isinstance(action_id, (int, np.integer)) or isinstance(action_id, bool) or action_id < 0:
        raise IllegalActionError(f"action id {action_id!r} is not a non-negative integer")
    a = int(action_id)
    return None if a < 2 else a - 1


def discrete_raise_amounts(
    legal: LegalActions,
    *,
    pot: int,
    current_bet: int,
    all_in_to: int,
    bet_sizes: Sequence[float],
) -> list[int | None]:
    """Raise-to amounts of the discrete raise ids ``2 .. 3 + len(bet_sizes)``; None = masked.

    ``all_in_to`` is the actor's street bet plus its stack. A pot fraction ``f`` maps to
    ``current_bet + f * (pot + legal.call)`` rounded to whole chips. An amount outside
    ``[legal.min_raise_to, legal.max_raise_to]`` or equal to one kept before it (priority:
    all-in, min-raise, fractions in order) is None.
    """
    out: list[int | None] = [None] * (len(bet_sizes) + 2)
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is None or hi is None:
        return out
    taken: set[int] = set()
    if lo <= all_in_to <= hi:
        out[-1] = all_in_to
        taken.add(all_in_to)
    if lo not in taken:
        out[0] = lo
        taken.add(lo)
    for i, f in enumerate(bet_sizes):
        amount = pot_fraction_raise_to(f, pot=pot, current_bet=current_bet, call=legal.call)
        if lo <= amount <= hi and amount not in taken:
            out[i + 1] = amount
            taken.add(amount)
    return out


def env(**kwargs: Any) -> AECEnv:
    """Build :class:`raw_env` with ``kwargs`` and wrap it in PettingZoo's ``OrderEnforcingWrapper``.

    Illegal actions are handled by the env itself (``illegal_action``), so PettingZoo's
    ``TerminateIllegalWrapper`` is not used.
    """
    return _OrderEnforcingWrapper(raw_env(**kwargs))


def _forwarded(name: str) -> property:
    def get(self: _OrderEnforcingWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"The raw env's ``{name}`` (PettingZoo's error before ``reset``).")


#: The attributes the compiled build declares on :class:`_WrapperCore` (``nlhe_v1.pxd``; a test keeps
#: the two in step): its pickles and copies carry them explicitly.
_WRAPPER_FIELDS = ("env", "_has_reset", "_has_updated")


def _new_wrapper(cls: type[_WrapperCore]) -> _WrapperCore:
    """An empty instance of ``cls`` for unpickling (its state is set next)."""
    return cls.__new__(cls)


class _WrapperCore:
    """The per-step half of :class:`_OrderEnforcingWrapper`: PettingZoo's order flags and the
    wrapped env as typed fields in the compiled build (``nlhe_v1.pxd``), so ``step`` and ``last``
    read them as C struct members and call the raw env's ``step``/``last`` as C calls.

    The checks, errors and warnings are PettingZoo's ``OrderEnforcingWrapper``'s (its own method
    in every case but the usual one).
    """

    env: Any  # the raw env (an _EnvCore in the compiled build)
    _has_reset: bool
    _has_updated: bool

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy by attributes (the compiled build keeps the flags and ``env`` in typed
        fields, outside ``__dict__``)."""
        return (_new_wrapper, (type(self),), self.__getstate__())

    def __getstate__(self) -> dict[str, Any]:
        state = dict(vars(self))  # pure Python: every attribute; compiled: the subclass's own
        for name in _WRAPPER_FIELDS:
            state[name] = getattr(self, name)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def step(self, action: Any) -> None:
        """PettingZoo's ``step``; its usual case (after ``reset``, agents left) calls the raw env directly."""
        raw = self.env
        if self._has_reset and raw.agents:
            self._has_updated = True
            raw.step(action)
        else:  # PettingZoo's error before reset, its warning once every agent is done
            wrappers.OrderEnforcingWrapper.step(self, action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of the agent to act."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)


class _OrderEnforcingWrapper(_WrapperCore, wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with direct accessors for the per-step attributes.

    The order checks, errors and warnings are PettingZoo's: ``reset`` sets its flags and calls
    the raw env, ``agent_iter`` returns its order-enforcing iterable (one ``__next__`` here
    instead of two), ``step`` calls the raw env directly in the usual case and PettingZoo's
    otherwise (:class:`_WrapperCore`). The attributes read every step are properties here instead
    of going through PettingZoo's ``__getattr__`` fallback, and ``last`` is the raw env's (same
    results, same error before ``reset``). ``tests/test_env_fastpaths.py`` holds them to
    PettingZoo's behaviour.
    """

    agents = _forwarded("agents")
    agent_selection = _forwarded("agent_selection")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """PettingZoo's ``reset`` (the order flags set first, so a failed reset still counts),
        without its pass-through call."""
        self._has_reset = True
        self._has_updated = True
        self.env.reset(seed=seed, options=options)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """PettingZoo's ``agent_iter`` (its error before ``reset``, its iterable: each pass is a
        new iterator of at most ``max_iter`` agents), with one ``__next__`` reading the raw env."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)


class _AgentIterable(AECOrderEnforcingIterable):
    """PettingZoo's order-enforcing iterable of :meth:`_OrderEnforcingWrapper.agent_iter`."""

    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _IteratorCore:
    """``__next__`` of :class:`_AgentIterator`: PettingZoo's two ``__next__`` (the iterator's and
    the order check's) in one, reading the wrapper's flag and the raw env as typed fields in the
    compiled build (``nlhe_v1.pxd``)."""

    env: Any  # the order-enforcing wrapper (a _WrapperCore in the compiled build)
    iters_til_term: int
    _raw: Any  # the raw env this pass reads (an _EnvCore in the compiled build)

    def __next__(self) -> str:
        wrapper = self.env
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return raw.agent_selection


class _AgentIterator(_IteratorCore, AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator in one ``__next__`` (same checks, same order)."""

    def __init__(self, env: _OrderEnforcingWrapper, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env.env


def _gather_runs(gather: np.ndarray) -> np.ndarray:
    """The observers' gather indices (``(observers, size)``) as runs of consecutive buffer indices:
    ``out[s, 0, 0]`` is observer ``s``'s number of runs ``k``, and ``out[s, 1 + r]`` is run ``r``'s
    ``(first buffer index, first observation index, length)`` for ``r < k`` (unused rows are zero).
    The compiled observation writer copies run by run; the result is the same gather.

    >>> _gather_runs(np.array([[4, 5, 6, 0, 1]])).tolist()
    [[[2, 0, 0], [4, 0, 3], [0, 3, 2]]]
    """
    observers, size = gather.shape
    rows = []
    for s in range(observers):
        idx = gather[s].astype(np.int64)
        starts = [0, *(np.flatnonzero(np.diff(idx) != 1) + 1).tolist()] if size else []
        ends = [*starts[1:], size]
        rows.append([(int(idx[a]), a, b - a) for a, b in zip(starts, ends, strict=True)])
    most = max((len(r) for r in rows), default=0)
    out = np.zeros((observers, most + 1, 3), dtype=np.intp)
    for s, row in enumerate(rows):
        out[s, 0, 0] = len(row)
        if row:
            out[s, 1 : len(row) + 1] = row
    return out


def _hole_strs(hole: tuple[int, ...] | None) -> tuple[str, ...]:
    """Hole cards as strings (empty for a seat not dealt in)."""
    return (_CARD_STRS[hole[0]], _CARD_STRS[hole[1]]) if hole else ()


_MISSING = object()
#: The attributes the compiled build declares on :class:`_EnvCore` (``nlhe_v1.pxd``; a test
#: keeps the two in step): its pickles and copies carry them explicitly.
_CORE_FIELDS = (
    "rewards", "_cumulative_rewards", "terminations", "truncations", "infos", "agents", "agent_selection",
    "possible_agents", "agent_name_mapping", "_skip_agent_selection", "illegal_action",
    "bet_sizes", "num_actions", "_state", "_legal", "_actor", "_amounts", "_dealt", "_views", "_board_strs",
    "_public_now",
    "_history", "_all_in", "_folded", "_own", "_street", "_n_events", "_hands", "_rewards_to_clear", "_layout",
    "_builder", "_dyn", "_full_infos", "_exact", "_inv_bb", "_inv_bb32", "_reward_scale", "_bb", "_small_blind",
    "_no_shown", "_no_payoffs", "_zero_per_agent", "_false_per_agent", "_at_stacks", "_at_street_bets",
    "_at_folded", "_at_all_in", "_at_pot", "_at_current_bet", "_gather", "_hole_at", "_history_at",
)
#: The per-step names :meth:`_EnvCore._bind_buffers` binds (typed views and staging arrays in the
#: compiled build; ``nlhe_v1.pxd`` declares them private): never pickled, rebuilt on load.
_REBOUND_FIELDS = (
    "_dynv", "_runsv", "_obs_stage", "_obs_stagev", "_mask_stage", "_mask_stagev", "_stage_lo", "_stage_hi"
)
#: Whether this module runs compiled (setup.py COMPILED): observations and masks are then written
#: by C loops over typed views; from the ``.py`` source, numpy does it (:class:`ObservationBuilder`).
_TYPED_CORE = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def _new_env(cls: type[_EnvCore]) -> _EnvCore:
    """An empty instance of ``cls`` for unpickling (its state is set next)."""
    return cls.__new__(cls)


class _EnvCore:
    """The per-step half of :class:`raw_env`: dealing a hand into the buffers, stepping, observing.

    :class:`raw_env` adds PettingZoo's ``AECEnv`` and
    everything that does not run per step. It reads the engine through its public accessors
    (per seat where a whole tuple would be copied) and never writes to it. Buffer indices come
    from :class:`holdem_env.env._obs.BufferLayout` (``self._layout``; the ``_at_*`` attributes
    are its row starts, kept as plain ints for the per-step path).
    """

    # The attributes, as nlhe_v1.pxd declares them (set by raw_env.__init__, reset and the
    # per-step methods; the compiled build keeps them in typed fields of the same names).
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    agents: list[str]
    agent_selection: str
    possible_agents: list[str]
    agent_name_mapping: dict[str, int]
    _skip_agent_selection: str | None
    illegal_action: str
    bet_sizes: tuple[float, ...]
    num_actions: int
    _state: HandState  # from the first reset on (raw_env.state_object says so before it)
    _legal: _Legal | None  # the engine's own legal set (legal_actions() without its public copy)
    _actor: int | None
    _amounts: list[int | None] | None
    _dealt: tuple[bool, ...]
    _views: list[SeatView]
    _board_strs: tuple[str, ...]
    _public_now: tuple[Any, ...]  # the engine's public_table() since it last moved
    _history: list[tuple[int, str, str, int]]
    _all_in: list[bool]
    _folded: list[bool]
    _own: list[tuple[Any, ...]]
    _street: int
    _n_events: int
    _hands: int
    _rewards_to_clear: bool
    _layout: _obs.BufferLayout
    _builder: ObservationBuilder
    _dyn: np.ndarray
    _gather: np.ndarray
    _dynv: np.ndarray
    _runsv: np.ndarray
    _obs_stage: np.ndarray
    _obs_stagev: np.ndarray
    _mask_stage: np.ndarray
    _mask_stagev: np.ndarray
    _stage_lo: int
    _stage_hi: int
    _full_infos: bool
    _exact: bool
    _inv_bb: float
    _inv_bb32: float
    _reward_scale: float
    _bb: int
    _small_blind: int
    _no_shown: tuple[tuple[str, ...], ...]
    _no_payoffs: tuple[int, ...]
    _zero_per_agent: dict[str, float]
    _false_per_agent: dict[str, bool]
    _at_stacks: int
    _at_street_bets: int
    _at_folded: int
    _at_all_in: int
    _at_pot: int
    _at_current_bet: int
    _hole_at: list[int]
    _history_at: list[list[int]]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy by attributes (the compiled build keeps the core's in typed fields,
        outside ``__dict__``; its typed buffer view is re-bound on load, not pickled)."""
        return (_new_env, (type(self),), self.__getstate__())

    def __getstate__(self) -> dict[str, Any]:
        state = dict(vars(self))  # pure Python: every attribute; compiled: the subclass's own
        for name in _CORE_FIELDS:
            value = getattr(self, name, _MISSING)
            if value is not _MISSING:
                state[name] = value
        for name in _REBOUND_FIELDS:
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._bind_buffers(state["_dyn"], state["_gather"])

    def _bind_buffers(self, dyn: np.ndarray, gather: np.ndarray) -> None:
        """Keep the state buffer as ``_dyn`` and the observers' gather indices as ``_gather``
        (what the observation builder reads), and bind the names the per-step path goes
        through (:data:`_REBOUND_FIELDS`, rebuilt on load, never pickled): ``_dynv`` (the
        same array here, a typed view in the compiled build), ``_runsv`` (the gather indices
        as runs, :func:`_gather_runs`) and the two staging arrays the compiled build writes
        each observation and mask into before copying them out."""
        self._dyn = dyn
        self._dynv = dyn
        self._gather = gather
        self._runsv = _gather_runs(gather)
        self._obs_stage = np.zeros(gather.shape[1], dtype=np.float32)
        self._obs_stagev = self._obs_stage
        self._mask_stage = np.zeros(self.num_actions, dtype=np.int8)
        self._mask_stagev = self._mask_stage
        self._stage_lo = self._stage_hi = 0  # the raise range set in the staging mask (none)

    def _refresh_money(self) -> None:
        """Rewrite every seat's stack and street bet (in big blinds) from ``_public_now`` (the engine's
        :meth:`~holdem_env.engine.state.HandState.public_table`, read after it last moved).

        Each value is the float32 product ``float32(chips) * float32(1 / big_blind)``: the
        product of two float32 values is exact in double precision, so multiplying by the
        float32-rounded ``1 / big_blind`` and storing rounds exactly once, as numpy does.
        """
        table = self._public_now
        stacks: tuple[int, ...] = table[4]
        bets: tuple[int, ...] = table[5]
        dynv = self._dynv
        inv = self._inv_bb32
        at_stacks, at_bets = self._at_stacks, self._at_street_bets
        for s in range(self._layout.num_players):
            dynv[at_stacks + s] = stacks[s] * inv
            dynv[at_bets + s] = bets[s] * inv

    def _start(self, state: HandState) -> None:
        layout = self._layout
        n = layout.num_players
        self._state = state
        self._hands += 1
        agents = self.agents = self.possible_agents[:]
        zeros = self._zero_per_agent  # copies of {agent: 0} / {agent: False} built once
        self.rewards = zeros.copy()
        self._cumulative_rewards = zeros.copy()
        self.terminations = self._false_per_agent.copy()
        self.truncations = self._false_per_agent.copy()
        self._skip_agent_selection = None
        self._rewards_to_clear = False

        dealt = state.dealt_in
        self._dealt = dealt
        # Fold and all-in flags follow the action events (the engine's tuple views are
        # rebuilt on every read). Nobody has folded yet; antes and blinds can put seats all-in.
        self._folded = [False] * n
        self._all_in = list(state.is_all_in)
        self._history: list[tuple[int, str, str, int]] = []
        holes = [state.hole_cards_of(s) for s in range(n)]
        # (seat, its cards as strings): the seat's own part of its views only (SeatView)
        self._own = [(s, _hole_strs(h)) for s, h in enumerate(holes)]
        self._board_strs: tuple[str, ...] = ()
        self._street = 0
        self._actor = None
        table = self._public_now = state.public_table()
        if self._full_infos:  # every seat's view as dealt; each is replaced when the seat is to act
            self._views = self._all_views()
        self.infos = {a: self._idle_info(s) for s, a in enumerate(agents)}
        # The buffer is reused hand after hand (observations are copies taken from it).
        self._dyn.fill(0.0)
        dynv = self._dynv
        all_in = self._all_in
        for s in range(n):
            if dealt[s]:
                dynv[layout.dealt_in + s] = 1.0
            if all_in[s]:
                dynv[layout.all_in + s] = 1.0
            h = holes[s]
            if h:
                at = self._hole_at[s]
                dynv[at + h[0]] = 1.0
                dynv[at + h[1]] = 1.0
        dynv[layout.button + table[2]] = 1.0
        dynv[layout.street] = 1.0  # preflop
        self._n_events = state.num_events
        inv = self._inv_bb
        self._refresh_money()
        dynv[self._at_pot] = table[0] * inv
        dynv[self._at_current_bet] = table[1] * inv
        if self._n_events:  # only a hand over before anyone acts has events at the start
            self._n_events = 0
            self._advance()
        else:
            self._next_turn()

    # ------------------------------------------------------------------ stepping
    def _consume_events(self) -> bool:
        """Fold new events into the history and flags; True if the money rows need a full refresh."""
        state = self._state
        new = state.events_since(self._n_events)
        if not new:
            return False
        self._n_events += len(new)
        refresh = len(new) > 1 or type(new[0]) is not ActionEvent
        if not refresh:
            # one action: only that seat's stack and street bet moved
            ev = new[0]
            self._dynv[self._at_stacks + ev.seat] = state.stack_of(ev.seat) * self._inv_bb
            self._dynv[self._at_street_bets + ev.seat] = ev.to * self._inv_bb
        for ev in new:
            if type(ev) is ActionEvent:
                self._record_action(ev)
        return refresh

    def _record_action(self, ev: ActionEvent) -> None:
        """Fold one action event into the history list, the fold/all-in flags and the history
        counts of the buffer."""
        dynv = self._dynv
        street = int(ev.street)
        seat = ev.seat
        kind_name, col = _KIND_INFO[ev.kind._value_]
        self._history.append((seat, _STREET_NAMES[street], kind_name, ev.to))
        if ev.all_in:
            self._all_in[seat] = True
            dynv[self._at_all_in + seat] = 1.0
        if col < 0:  # fold
            self._folded[seat] = True
            dynv[self._at_folded + seat] = 1.0
            return
        at = self._history_at[street][seat]
        dynv[at + col] += 1.0
        if col != _HIST_CHECKS:  # a call, bet or raise sets the seat's street total
            dynv[at + _HIST_AMOUNT] = ev.to * self._inv_bb

    def _advance(self) -> None:
        """Bring bookkeeping up to date after the engine moved (new events, actor or end)."""
        state = self._state
        refresh = self._consume_events()
        street = int(state.street)
        dynv = self._dynv
        if street != self._street:
            self._street = street
            at = self._layout.street
            for k in range(_obs.STREETS):  # all zero once the hand is over
                dynv[at + k] = 1.0 if k == street else 0.0
            at = self._layout.board
            board = state.board
            for c in board:
                dynv[at + c] = 1.0
            self._board_strs = tuple([_CARD_STRS[c] for c in board])
        inv = self._inv_bb
        table = self._public_now = state.public_table()
        dynv[self._at_pot] = table[0] * inv
        dynv[self._at_current_bet] = table[1] * inv
        if refresh or self._n_events == 0 or state.is_over:
            self._refresh_money()
        self._next_turn()

    def _next_turn(self) -> None:
        """Hand the turn to the engine's actor (legal set, infos), or finish the hand (``_public_now``
        is the engine's table now)."""
        state = self._state
        self._amounts: list[int | None] | None = None
        prev = self._actor
        if prev is not None:
            self.infos[self.possible_agents[prev]] = self._idle_info(prev)
        seat = self._public_now[3]
        if seat is None:
            self._legal = None
            self._actor = None
            self._finish()
            return
        self._actor = seat
        # the engine's cached legal set as it computes it (a C call in the compiled build); the
        # public LegalActions copy is made only where one is handed out (raw_env.legal_actions)
        legal = self._legal = state._legal()
        agent = self.agent_selection = self.possible_agents[seat]
        lo = legal.min_raise_to
        info: dict[str, Any] = {
            "legal": {
                "fold": legal.fold,
                "check": legal.check,
                "call": legal.call,
                "min_raise_to": 0 if lo is None else lo,
                "max_raise_to": 0 if lo is None else legal.max_raise_to,
            }
        }
        if self._full_infos:
            view = self._views[seat] = self._seat_view(seat)
            info["view"] = view
        self.infos[agent] = info

    def _idle_info(self, seat: int) -> dict[str, Any]:
        """The info of a seat that is not to act: no legal action, and its latest view."""
        # a new dict each time (an agent may keep or change its info); numbers are never None (0 = no raise)
        legal = {"fold": False, "check": False, "call": 0, "min_raise_to": 0, "max_raise_to": 0}
        if self._full_infos:
            return {"legal": legal, "view": self._views[seat]}
        return {"legal": legal}

    def _seat_view(self, seat: int) -> SeatView:
        """What ``seat`` may see now, as plain values (its own hole cards only)."""
        return view_from_parts(self._own[seat], self._public_values())

    def _all_views(self) -> list[SeatView]:
        """Every seat's view now (one set of public values, each seat's own hole cards)."""
        public = self._public_values()  # one tuple, shared by the views of this moment
        own = self._own
        views = []
        for s in range(self._layout.num_players):
            views.append(view_from_parts(own[s], public))
        return views

    def _public_values(self) -> tuple[Any, ...]:
        """The values every seat may see, in :data:`holdem_env.env._view.VIEW_KEYS` order after
        ``seat`` and ``hole_cards``."""
        state = self._state
        pot, current_bet, button, actor, stacks, street_bets = self._public_now
        if actor is None:
            cards = state.shown
            shown = tuple([tuple([_CARD_STRS[c] for c in cards.get(s, ())]) for s in range(self._layout.num_players)])
            payoffs = state.payoffs
        else:
            shown, payoffs = self._no_shown, self._no_payoffs
        return (
            _STREET_NAMES[self._street],
            self._board_strs,
            pot,
            current_bet,
            button,
            -1 if actor is None else actor,
            stacks,
            street_bets,
            tuple(self._folded),
            tuple(self._all_in),
            self._dealt,
            self._small_blind,
            self._bb,
            tuple(self._history),
            actor is None,
            shown,
            payoffs,
        )

    def _after_action(self, ev: ActionEvent) -> None:
        """Bookkeeping after the engine applied one action (``ev``, the event it returned).

        When that action only moved the turn (one new event, same street, hand not over),
        only the acting seat's entries change; anything else takes :meth:`_advance`.
        """
        state = self._state
        n_events = self._n_events + 1
        if state.num_events != n_events:
            self._advance()
            return
        table = self._public_now = state.public_table()
        if table[3] is None:  # the hand is over
            self._advance()
            return
        self._n_events = n_events
        dynv = self._dynv
        inv = self._inv_bb
        seat = ev.seat
        stacks: tuple[int, ...] = table[4]
        dynv[self._at_stacks + seat] = stacks[seat] * inv
        dynv[self._at_street_bets + seat] = ev.to * inv
        self._record_action(ev)
        dynv[self._at_pot] = table[0] * inv
        dynv[self._at_current_bet] = table[1] * inv
        self._next_turn()

    def _finish(self) -> None:
        state = self._state
        scale = self._reward_scale
        rewards = self.rewards
        cumulative = self._cumulative_rewards
        terminations = self.terminations
        payoffs = state.payoffs
        assert payoffs is not None  # the hand is over
        for a, p in zip(self.possible_agents, payoffs, strict=True):
            r = rewards[a] = p * scale
            cumulative[a] += r  # PettingZoo's _accumulate_rewards, inlined
            terminations[a] = True
        if self._full_infos:  # everyone's final view: payoffs and the cards shown
            self._views = self._all_views()
        infos = self.infos
        for s, a in enumerate(self.possible_agents):
            infos[a] = self._idle_info(s)
        self.agent_selection = self.agents[0]  # every agent is still in: the first of the order (dead steps)
        self._rewards_to_clear = True

    def _action_id(self, action: Any) -> int:
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            a = int(action)
        elif isinstance(action, np.ndarray) and action.shape in ((), (1,)) and np.issubdtype(action.dtype, np.integer):
            a = int(action.reshape(()))
        else:
            raise IllegalActionError(
                f"action {short_repr(action)} is not an action id: expected an integer in 0..{self.num_actions - 1}"
            )
        if not 0 <= a < self.num_actions:
            raise IllegalActionError(
                f"action {short_repr(a)} is out of range: action ids are 0..{self.num_actions - 1}"
            )
        return a

    def _raise_amount(self, a: int) -> int | None:
        """Raise-to chips of action id ``a`` at the current decision (None if masked)."""
        legal = self._legal
        assert legal is not None  # a decision is pending
        if self._exact:
            amount = a - 1
            lo, hi = legal.min_raise_to, legal.max_raise_to
            if lo is None or hi is None or not lo <= amount <= hi:
                return None
            return amount
        return self._discrete_amounts()[a - 2]

    def _discrete_amounts(self) -> list[int | None]:
        if self._amounts is None:
            state = self._state
            seat = self._actor
            assert self._legal is not None and seat is not None  # a decision is pending
            self._amounts = discrete_raise_amounts(
                state.legal_actions(),
                pot=state.pot,
                current_bet=state.current_bet,
                all_in_to=state.street_bets[seat] + state.stacks[seat],
                bet_sizes=self.bet_sizes,
            )
        return self._amounts

    def describe_action(self, action: int) -> str:
        """Human-readable meaning of an action id (``"fold"``, ``"check/call"``, ``"raise to 40"``)."""
        a = self._action_id(action)
        if a == FOLD:
            return "fold"
        if a == CHECK_CALL:
            return "check/call"
        if self._exact:
            return f"raise to {a - 1}"
        if a == self.num_actions - 1:
            return "all-in"
        if a == 2:
            return "min-raise"
        return f"raise {self.bet_sizes[a - 3]:g} pot"

    def _describe_legal(self) -> str:
        legal = self._legal
        assert legal is not None  # a decision is pending
        parts = []
        if legal.fold:
            parts.append("0 (fold)")
        if legal.check:
            parts.append("1 (check)")
        elif legal.call > 0:
            parts.append(f"1 (call {legal.call})")
        lo, hi = legal.min_raise_to, legal.max_raise_to
        if lo is not None and hi is not None:
            if self._exact:
                parts.append(f"{lo + 1}..{hi + 1} (raise to {lo}..{hi})")
            else:
                for i, amount in enumerate(self._discrete_amounts()):
                    if amount is not None:
                        parts.append(f"{i + 2} (raise to {amount})")
        return ", ".join(parts)

    def step(self, action: Any) -> None:
        """Apply the selected agent's action id (``None`` for an agent whose hand is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = action if type(action) is int and 0 <= action < self.num_actions else self._action_id(action)
        state = self._state
        legal = self._legal
        assert legal is not None  # the selected agent is to act
        amount = None
        if a == FOLD:
            ok = legal.fold
        elif a == CHECK_CALL:
            ok = legal.check or legal.call > 0
        else:
            amount = self._raise_amount(a)
            ok = amount is not None
        if not ok:
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"{agent} (seat {self._actor}) chose action {a} ({self.describe_action(a)}), which is "
                    f"masked out; legal now: {self._describe_legal()}"
                )
            ev = state.timeout()
        elif a == CHECK_CALL:
            ev = state.check() if legal.check else state.call()
        elif a == FOLD:
            ev = state.fold()
        else:
            assert amount is not None
            ev = state.raise_to(amount)
        self._cumulative_rewards[agent] = 0
        self._after_action(ev)

    def _was_dead_step(self, action: Any) -> None:
        """Remove the selected (finished) agent; every agent's hand ends at once, so the next is the first left."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        if self._rewards_to_clear:  # the hand's rewards are cleared by its first dead step
            self._rewards_to_clear = False
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0

    # ------------------------------------------------------------------ observing
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation dict (``observation`` float32 vector, ``action_mask`` int8) of ``agent``."""
        return self._observe_seat(self.agent_name_mapping[agent])

    def _observe_seat(self, seat: int) -> dict[str, np.ndarray]:
        """The observation dict of ``seat``: the seat to act (its scalars and mask), a seat
        waiting for its turn (what it would owe now) or an idle one."""
        if seat == self._actor:
            inv = self._inv_bb
            legal = self._legal
            assert legal is not None  # the seat is to act
            fold, check, call, lo, hi = legal.fold, legal.check, legal.call, legal.min_raise_to, legal.max_raise_to
            check_call = check or call > 0
            if lo is None or hi is None:
                return self._observation(seat, 3, call * inv, 0.0, 0.0, fold, check_call, 0, 0, None)
            if self._exact:  # raise-to k has id k + 1 (exact_action_id)
                return self._observation(seat, 3, call * inv, lo * inv, hi * inv, fold, check_call, lo + 1, hi + 2, None)
            ids = [i + 2 for i, amount in enumerate(self._discrete_amounts()) if amount is not None]
            return self._observation(seat, 3, call * inv, lo * inv, hi * inv, fold, check_call, 0, 0, ids)
        if self._actor is not None:  # a seat waiting for its turn: what it would owe now
            state = self._state
            owed = state.current_bet - state.street_bet_of(seat)
            if owed > 0 and not self._folded[seat]:
                return self._observation(seat, 1, min(owed, state.stack_of(seat)) * self._inv_bb)
        return self._observation(seat, 0)

    def _observation(
        self,
        seat: int,
        scalars: int,
        to_call: float = 0.0,
        min_to: float = 0.0,
        max_to: float = 0.0,
        fold: bool = False,
        check_call: bool = False,
        raise_lo: int = 0,
        raise_hi: int = 0,
        ids: list[int] | None = None,
    ) -> dict[str, np.ndarray]:
        """``seat``'s observation dict with its first ``scalars`` per-decision scalars written
        (0 idle, 1 amount to call, 3 with the raise-to bounds: the seat to act, whose mask has
        fold, check/call, ``range(raise_lo, raise_hi)`` and ``ids``; any other mask is all zero).

        The pure-Python build asks :class:`ObservationBuilder` (numpy gathers); the compiled
        build gathers with C loops over typed views (:meth:`_typed_vector`, :meth:`_typed_mask`).
        """
        if not _TYPED_CORE:
            builder = self._builder
            if scalars == 3:
                return builder.actor(seat, to_call, min_to, max_to, fold, check_call, raise_lo, raise_hi, ids)
            if scalars == 1:
                return builder.waiting(seat, to_call)
            return builder.idle(seat)
        vector = self._typed_vector(seat, scalars, to_call, min_to, max_to)
        if scalars == 3:
            mask = self._typed_mask(fold, check_call, raise_lo, raise_hi, ids)
        else:
            mask = _zeros(self.num_actions, _INT8)  # an all-zero mask: no module lookups, no keyword parsing
        return {"observation": vector, "action_mask": mask}

    def _typed_vector(self, seat: int, scalars: int, to_call: float, min_to: float, max_to: float) -> np.ndarray:
        """Observer ``seat``'s vector (a new array): its gather indices read from the state
        buffer into the staging array, the per-decision scalars written, then one copy."""
        src = self._dynv
        runs = self._runsv
        out = self._obs_stagev
        if not 0 <= seat < runs.shape[0]:
            raise IndexError(f"observer seat {seat} is outside 0..{runs.shape[0] - 1}")
        # the gather indices are BufferLayout's, all inside the buffer (tests/test_obsbuild.py), copied
        # as runs of consecutive indices (_gather_runs): the compiled loops read them without bounds checks
        with cython.boundscheck(False), cython.wraparound(False):
            for r in range(runs[seat, 0, 0]):
                at = runs[seat, r + 1, 0]
                to = runs[seat, r + 1, 1]
                for i in range(runs[seat, r + 1, 2]):
                    out[to + i] = src[at + i]
        if scalars:
            out[_AT_TO_CALL] = to_call
            if scalars == 3:
                out[_AT_MIN_RAISE_TO] = min_to
                out[_AT_MAX_RAISE_TO] = max_to
        return _copy_array(self._obs_stage)

    def _typed_mask(self, fold: bool, check_call: bool, raise_lo: int, raise_hi: int, ids: list[int] | None) -> np.ndarray:
        """The mask of the seat to act (a new array), from the staging mask: it keeps the last
        raise range ``_stage_lo .. _stage_hi - 1`` set (only the entries that differ from the
        new range are rewritten), fold, check/call and ``ids`` are set for one copy and cleared."""
        n = self.num_actions
        if raise_lo < 0 or raise_hi > n:
            raise IndexError(f"raise ids {raise_lo}..{raise_hi - 1} are outside 0..{n - 1}")
        if ids is not None:
            for i in ids:  # a loop, not any(): no generator object per call in the compiled build
                if not 0 <= i < n:
                    raise IndexError(f"action id {i} is outside 0..{n - 1}")
        if raise_lo >= raise_hi:
            raise_lo = raise_hi = 0
        m = self._mask_stagev
        lo, hi = self._stage_lo, self._stage_hi
        # every range here lies in 0..n (checked above; the staged one was checked when set)
        with cython.boundscheck(False), cython.wraparound(False):
            if lo < raise_hi and raise_lo < hi:  # overlapping ranges: move both ends
                for i in range(lo, raise_lo):
                    m[i] = 0
                for i in range(raise_hi, hi):
                    m[i] = 0
                for i in range(raise_lo, lo):
                    m[i] = 1
                for i in range(hi, raise_hi):
                    m[i] = 1
            else:
                for i in range(lo, hi):
                    m[i] = 0
                for i in range(raise_lo, raise_hi):
                    m[i] = 1
        self._stage_lo, self._stage_hi = raise_lo, raise_hi
        fold_id, call_id = _FOLD_ID, _CHECK_CALL_ID
        m[fold_id] = 1 if fold or raise_lo <= fold_id < raise_hi else 0
        m[call_id] = 1 if check_call or raise_lo <= call_id < raise_hi else 0
        if ids is not None:
            for i in ids:
                m[i] = 1
        mask = _copy_array(self._mask_stage)
        if ids is not None:
            for i in ids:
                m[i] = 1 if raise_lo <= i < raise_hi else 0
        m[fold_id] = 1 if raise_lo <= fold_id < raise_hi else 0
        m[call_id] = 1 if raise_lo <= call_id < raise_hi else 0
        return mask

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of the selected agent."""
        agent = self.agent_selection
        return (
            self._observe_seat(self.agent_name_mapping[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )



class raw_env(_EnvCore, AECEnv):  # noqa: N801 - PettingZoo naming convention
    """The unwrapped AEC environment; see the module docstring for every table."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"], "name": "nlhe_v1", "is_parallelizable": False, "render_fps": 1
    }

    def __init__(
        self,
        num_players: int = 6,
        small_blind: int = 5,
        big_blind: int = 10,
        ante: int = 0,
        buy_in: int = 1000,
        betting: str | BettingStructure = "no-limit",
        action_mode: str = "discrete",
        bet_sizes: Sequence[float] = DEFAULT_BET_SIZES,
        max_stack: int | None = None,
        reward_unit: str = "bb",
        illegal_action: str = "raise",
        info_mode: str = "full",
        pad_seats: bool = False,
        render_mode: str | None = None,
        render_viewer: int | str | None = None,
        **table_kwargs: Any,
    ) -> None:
        super().__init__()
        named = {"num_players", "small_blind", "big_blind", "ante", "buy_in", "betting"}
        table_fields = {f.name for f in dataclasses.fields(TableConfig)} - named
        for key in table_kwargs:
            if key not in table_fields:
                raise ConfigError(
                    key, table_kwargs[key], "unknown environment setting; allowed: the named parameters of raw_env and "
                    f"the TableConfig fields {', '.join(sorted(table_fields))}"
                )
        self.config = TableConfig(
            num_players=num_players,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            buy_in=buy_in,
            betting=BettingStructure.parse(betting),
            **table_kwargs,
        )
        n = self.config.num_players
        if action_mode not in ACTION_MODES:
            raise ConfigError("action_mode", action_mode, "must be 'discrete' or 'exact'")
        if reward_unit not in ("bb", "chips"):
            raise ConfigError("reward_unit", reward_unit, "must be 'bb' or 'chips'")
        if illegal_action not in ("raise", "timeout"):
            raise ConfigError("illegal_action", illegal_action, "must be 'raise' or 'timeout'")
        if info_mode not in INFO_MODES:
            raise ConfigError("info_mode", info_mode, "must be 'full' (legal actions and the seat's view) or 'minimal'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError("render_mode", render_mode, "must be None, 'human' or 'ansi'")
        if render_viewer is not None and render_viewer != "all" and not (
            isinstance(render_viewer, int) and not isinstance(render_viewer, bool) and 0 <= render_viewer < n
        ):
            raise ConfigError("render_viewer", render_viewer, f"must be None, 'all' or a seat in 0..{n - 1}")
        if not isinstance(pad_seats, bool):
            raise ConfigError("pad_seats", pad_seats, "must be True or False")
        buy_in = self.config.buy_in
        if max_stack is None:
            max_stack = buy_in
        if isinstance(max_stack, bool) or not isinstance(max_stack, (int, np.integer)) or max_stack < buy_in:
            raise ConfigError("max_stack", max_stack, f"must be an integer >= buy_in ({self.config.buy_in})")
        max_stack = int(max_stack)  # numpy integers too, as TableConfig accepts them
        if action_mode == "exact" and max_stack > MAX_EXACT_STACK:
            raise ConfigError(
                "max_stack", max_stack, f"must be at most {MAX_EXACT_STACK} in exact mode (one action id per chip); "
                "use action_mode='discrete' or smaller chip units for deeper stacks"
            )
        bet_allowed = "must be a sequence of positive, finite pot fractions (numbers, not booleans)"
        if isinstance(bet_sizes, (str, bytes)):
            raise ConfigError("bet_sizes", bet_sizes, bet_allowed)
        try:
            raw_sizes = list(bet_sizes)
        except TypeError:
            raise ConfigError("bet_sizes", bet_sizes, bet_allowed) from None
        numbers = (int, float, np.integer, np.floating)
        if not all(isinstance(f, numbers) and not isinstance(f, (bool, np.bool_)) for f in raw_sizes):
            raise ConfigError("bet_sizes", bet_sizes, bet_allowed)
        sizes = tuple(float(f) for f in raw_sizes)
        if not all(np.isfinite(f) and f > 0 for f in sizes):
            raise ConfigError("bet_sizes", bet_sizes, bet_allowed)

        self.action_mode = action_mode
        self.bet_sizes = sizes
        self.max_stack = max_stack
        self.reward_unit = reward_unit
        self.illegal_action = illegal_action
        self.info_mode = info_mode
        self._full_infos = info_mode == "full"
        self._small_blind = self.config.small_blind
        self._no_shown: tuple[tuple[str, ...], ...] = ((),) * n
        self._no_payoffs: tuple[int, ...] = (0,) * n
        self.render_mode = render_mode
        self.render_viewer = render_viewer
        self.num_seats = _PAD_SEATS if pad_seats else n
        self._exact = action_mode == "exact"
        self._bb = self.config.big_blind
        self._inv_bb = 1.0 / self._bb
        self._reward_scale = self._inv_bb if reward_unit == "bb" else 1.0

        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._zero_per_agent = dict.fromkeys(self.possible_agents, 0)
        self._false_per_agent = dict.fromkeys(self.possible_agents, False)
        self.num_actions = 2 + max_stack if self._exact else 4 + len(sizes)
        obs_len = _obs.obs_size(self.num_seats)
        max_money = float(n * max_stack) / self._bb
        low, high = _obs.obs_bounds(self.num_seats, max_money, float(max_stack + 1))
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=low, high=high, shape=(obs_len,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(self.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)

        # Every observation is gathered from one state buffer kept up to date event by event
        # (layout and gathers: holdem_env.env._obs.BufferLayout).
        layout = self._layout = _obs.BufferLayout(n)
        self._at_stacks, self._at_street_bets = layout.stacks, layout.street_bets
        self._at_folded, self._at_all_in = layout.folded, layout.all_in
        self._at_pot, self._at_current_bet = layout.pot, layout.current_bet
        self._hole_at = [layout.hole_at(s) for s in range(n)]
        self._history_at = [[layout.history_at(t, s) for s in range(n)] for t in range(_obs.STREETS)]
        self._bind_buffers(np.zeros(layout.size, dtype=np.float32), layout.gather(self.num_seats))
        self._builder = ObservationBuilder(self._dyn, self._gather, self.num_actions, _obs.OFF_TO_CALL)
        self._inv_bb32 = float(np.float32(self._inv_bb))
        self._table: Table | None = None
        self._state = None  # type: ignore[assignment]  # no hand before the first reset
        self._np_random: np.random.Generator | None = None
        self._np_random_seed: int | None = None
        self._hands = 0

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """The same ``Dict(observation=Box, action_mask=Box)`` object for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The same ``Discrete(num_actions)`` object for every agent."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ reset
    def _parse_options(self, options: Mapping[str, Any] | None) -> tuple[Any, Any, Any]:
        if options is None:
            return None, None, None
        if not isinstance(options, Mapping):
            raise ConfigError("options", options, "must be a dict (keys: 'deck', 'button', 'stacks') or None")
        n = self.config.num_players
        deck = options.get("deck")
        if deck is not None:
            deck = validate_deck(deck)
        button = options.get("button")
        if button is not None and (
            not isinstance(button, (int, np.integer)) or isinstance(button, bool) or not 0 <= button < n
        ):
            raise ConfigError("button", button, f"must be a seat in 0..{n - 1}")
        stacks = options.get("stacks")
        if stacks is not None:
            allowed = (
                f"must be {n} integer stacks in 0..{self.max_stack} (max_stack sizes the action "
                f"space; build the env with a larger max_stack for deeper stacks), at least two positive"
            )
            try:
                given = list(stacks)  # once: an iterator can be read only once
            except TypeError:
                raise ConfigError("stacks", stacks, allowed) from None
            ok = all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in given)
            values = [int(s) for s in given] if ok else []
            if (
                not ok
                or len(values) != n
                or any(s < 0 or s > self.max_stack for s in values)
                or sum(1 for s in values if s > 0) < 2
            ):
                raise ConfigError("stacks", given, allowed)
            stacks = values
            if button is not None and stacks[button] == 0:
                raise ConfigError("button", button, "must be a seat with chips (its stack is 0)")
        return deck, button, stacks

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand: the button moves one seat (or as ``options`` say); see the module docstring."""
        _check_seed(seed)
        deck, button, stacks = self._parse_options(options)
        if seed is not None or self._table is None:
            rng = np.random.default_rng(seed)
            table = Table(self.config, rng=rng)
            state = table.start_hand(deck=deck, button=button, stacks=stacks)
            self._table, self._np_random, self._np_random_seed = table, rng, seed
        else:
            state = self._table.start_hand(deck=deck, button=button, stacks=stacks, abandon=True)
        self._start(state)

    # ------------------------------------------------------------------ helpers
    def action_amount(self, action: int) -> int | None:
        """Raise-to chips of ``action`` at the current decision; None for fold, check/call or a masked size.

        In exact mode this is ``action - 1`` whenever the size is legal.
        """
        a = self._action_id(action)
        if a < 2 or self._legal is None:
            return None
        return self._raise_amount(a)

    def action_for_raise_to(self, raise_to: int) -> int:
        """Action id that bets/raises to ``raise_to`` chips now; raises IllegalActionError if none does."""
        if self._exact:
            a = exact_action_id(raise_to)
            if a < self.num_actions and self._legal is not None and self._raise_amount(a) is not None:
                return a
        elif self._legal is not None:
            for i, amount in enumerate(self._discrete_amounts()):
                if amount == raise_to:
                    return i + 2
        legal = self._describe_legal() if self._legal is not None else "nothing (the hand is over)"
        raise IllegalActionError(f"no legal action raises to {raise_to!r} now; legal: {legal}")

    @property
    def state_object(self) -> HandState:
        """The engine's :class:`HandState` of the current hand (read it, do not act on it)."""
        if self._state is None:
            raise HandOverError("no hand yet: call reset() first")
        return self._state

    @property
    def legal_actions(self) -> LegalActions | None:
        """The engine's legal actions of the seat to act (None when the hand is over)."""
        return None if self._legal is None else self._state.legal_actions()

    def hand_record(self) -> HandRecord:
        """The :class:`HandRecord` of the current (or last finished) hand."""
        return self.state_object.record()

    def to_phh(self, **kwargs: Any) -> str:
        """The current (or last finished) hand as PHH text (``kwargs``: :func:`holdem_env.formats.phh.from_record`).

        Pot-limit hands (and fixed-limit ones with another cap than 4 bets a round) have no PHH
        form and raise :class:`~holdem_env.engine.errors.PHHError`.
        """
        return phh.record_to_phh(self.hand_record(), **kwargs)

    def write_phh(self, path: str | os.PathLike[str], **kwargs: Any) -> None:
        """Write :meth:`to_phh` to ``path``."""
        Path(path).write_text(self.to_phh(**kwargs), encoding="utf-8")

    # ------------------------------------------------------------------ render
    def render(self) -> str | None:
        """``"ansi"``: return the table as text; ``"human"``: print it; no render mode: None."""
        if self.render_mode is None:
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _render_text(self) -> str:
        state = self._state
        if state is None:
            return "nlhe_v1: no hand dealt yet (call reset())"
        cfg = self.config
        viewer = self.render_viewer
        street = _STREET_NAMES[min(int(state.street), 4)]
        ante = f" ante {cfg.ante}" if cfg.ante else ""
        lines = [
            f"nlhe_v1 hand {self._hands}  {cfg.betting.value}  blinds {cfg.small_blind}/{cfg.big_blind}{ante}"
            f"  street: {street}  pot: {state.pot}",
            "board: " + (" ".join(card_str(c) for c in state.board) or "-"),
        ]
        shown = state.shown if state.is_over else {}
        n = cfg.num_players
        sb_seat, bb_seat = state.small_blind_seat, state.big_blind_seat
        all_in = self._all_in
        for s in range(n):
            tags = []
            if s == state.button:
                tags.append("BTN")
            if s == sb_seat:
                tags.append("SB")
            if s == bb_seat:
                tags.append("BB")
            if not self._dealt[s]:
                status = "out"
                cards = ""
            else:
                status = "folded" if state.folded[s] else ("all-in" if all_in[s] else "")
                if s in shown:
                    cards = " ".join(card_str(c) for c in shown[s])
                elif viewer == "all" or viewer == s:
                    cards = " ".join(_hole_strs(state.hole_cards_of(s)))
                else:
                    cards = "?? ??"
            turn = ">" if s == self._actor else " "
            lines.append(
                f"{turn} seat {s} {self.possible_agents[s]:<10} stack {state.stacks[s]:>6}  "
                f"bet {state.street_bets[s]:>5}  {'/'.join(tags):<7} {status:<6} {cards}"
            )
        if self._actor is not None:
            lines.append(f"to act: {self.possible_agents[self._actor]}")
        else:
            payoffs = state.payoffs
            assert payoffs is not None  # no actor: the hand is over
            lines.append("hand over: " + ", ".join(f"seat {s} {payoffs[s]:+d}" for s in range(n) if self._dealt[s]))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release; present because ``render`` is defined (PettingZoo convention)."""

