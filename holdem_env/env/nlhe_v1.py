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
Other keys are ignored with a warning naming them (PettingZoo's ``api_test`` passes ``{"options": 1}``). A bad
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
* v1 (module split, no change users see): the env's per-step core, the order-enforcing wrapper,
  the action ids, the settings and the text render live in their own modules
  (:mod:`holdem_env.env._core`, :mod:`holdem_env.env._order`, :mod:`holdem_env.env.actions`,
  :mod:`holdem_env.env._settings`, :mod:`holdem_env.env.render`); this module is the env and
  re-exports their public names. ``last()`` once every agent has taken its dead step raises
  :class:`~holdem_env.engine.errors.NoAgentLeftError` (a ``HandOverError`` and a ``KeyError``; was a bare ``KeyError``); unknown
  ``reset(options=...)`` keys warn instead of being ignored silently.
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

import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from holdem_env.engine.actions import LegalActions
from holdem_env.engine.cards import validate_deck
from holdem_env.engine.config import BettingStructure
from holdem_env.engine.errors import ConfigError, HandOverError, IllegalActionError
from holdem_env.engine.record import HandRecord
from holdem_env.engine.state import HandState, _check_seed
from holdem_env.engine.table import Table
from holdem_env.env import _obs
from holdem_env.env._core import _CORE_FIELDS, _REBOUND_FIELDS, _EnvCore
from holdem_env.env._obsbuild import ObservationBuilder
from holdem_env.env._order import _OrderEnforcingWrapper
from holdem_env.env._settings import INFO_MODES, RENDER_MODES, parse_settings
from holdem_env.env._view import SeatView
from holdem_env.env.actions import (
    ACTION_MODES,
    CHECK_CALL,
    DEFAULT_BET_SIZES,
    FOLD,
    MAX_EXACT_STACK,
    discrete_raise_amounts,
    exact_action_id,
    exact_raise_to,
)
from holdem_env.env.render import render_text
from holdem_env.formats import phh

__all__ = [
    "env",
    "raw_env",
    "ENV_ID",
    "SAME_OBSERVATIONS_AS",
    "DEFAULT_BET_SIZES",
    "ACTION_MODES",
    "MAX_EXACT_STACK",
    "FOLD",
    "CHECK_CALL",
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
_PAD_SEATS = 10
_RESET_OPTIONS = ("deck", "button", "stacks")
_MISSING = object()


def env(**kwargs: Any) -> AECEnv:
    """Build :class:`raw_env` with ``kwargs`` and wrap it in PettingZoo's ``OrderEnforcingWrapper``.

    Illegal actions are handled by the env itself (``illegal_action``), so PettingZoo's
    ``TerminateIllegalWrapper`` is not used.
    """
    return _OrderEnforcingWrapper(raw_env(**kwargs))


def _new_env(cls: type[raw_env]) -> raw_env:
    """An empty instance of ``cls`` for unpickling (its state is set next)."""
    return cls.__new__(cls)


class raw_env(_EnvCore, AECEnv):  # noqa: N801 - PettingZoo naming convention
    """The unwrapped AEC environment; see the module docstring for every table."""

    metadata: dict[str, Any] = {
        "render_modes": list(RENDER_MODES), "name": "nlhe_v1", "is_parallelizable": False, "render_fps": 1
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
        settings = parse_settings(
            num_players=num_players, small_blind=small_blind, big_blind=big_blind, ante=ante, buy_in=buy_in,
            betting=betting, action_mode=action_mode, bet_sizes=bet_sizes, max_stack=max_stack,
            reward_unit=reward_unit, illegal_action=illegal_action, info_mode=info_mode, pad_seats=pad_seats,
            render_mode=render_mode, render_viewer=render_viewer, table_kwargs=table_kwargs,
        )
        self.config = settings.config
        n = self.config.num_players
        self.action_mode = settings.action_mode
        self.bet_sizes = settings.bet_sizes
        self.max_stack = max_stack = settings.max_stack
        self.reward_unit = settings.reward_unit
        self.illegal_action = settings.illegal_action
        self.info_mode = settings.info_mode
        self._full_infos = settings.info_mode == "full"
        self._small_blind = self.config.small_blind
        self._no_shown: tuple[tuple[str, ...], ...] = ((),) * n
        self._no_payoffs: tuple[int, ...] = (0,) * n
        self.render_mode = settings.render_mode
        self.render_viewer = settings.render_viewer
        self.num_seats = _PAD_SEATS if settings.pad_seats else n
        self._exact = settings.action_mode == "exact"
        self._bb = self.config.big_blind
        self._inv_bb = 1.0 / self._bb
        self._reward_scale = self._inv_bb if settings.reward_unit == "bb" else 1.0

        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._zero_per_agent = dict.fromkeys(self.possible_agents, 0)
        self._false_per_agent = dict.fromkeys(self.possible_agents, False)
        self.num_actions = 2 + max_stack if self._exact else 4 + len(self.bet_sizes)
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

    # ------------------------------------------------------------------ pickling
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
        unknown = sorted(str(k) for k in options if k not in _RESET_OPTIONS)
        if unknown:
            warnings.warn(
                f"reset(options=...) ignores {', '.join(unknown)}: the options nlhe_v1 reads are "
                f"{', '.join(_RESET_OPTIONS)}", stacklevel=3,
            )
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
        text = render_text(
            self._state, self.config, hand_number=self._hands, agents=self.possible_agents, dealt=self._dealt,
            all_in=self._all_in, actor=self._actor, viewer=self.render_viewer,
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; present because ``render`` is defined (PettingZoo convention)."""
