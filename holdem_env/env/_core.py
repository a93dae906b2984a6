"""The per-step core of ``nlhe_v1``: one hand dealt into the state buffer, stepped, and observed.

:class:`_EnvCore` is the half of :class:`holdem_env.env.nlhe_v1.raw_env` that runs every step:
it starts a hand from the engine's :class:`~holdem_env.engine.state.HandState`, applies an
action id, keeps the flat float32 state buffer (:class:`holdem_env.env._obs.BufferLayout`) up to
date event by event, hands out the actor's legal set, infos and sealed seat views, and writes
observations and masks. ``raw_env`` adds PettingZoo's ``AECEnv``, the settings, the spaces and
everything else that does not run per step. In the compiled build (``_core.pxd``) the core is
one extension type with typed fields and C calls into the compiled engine.
"""

from __future__ import annotations

import importlib.machinery
from typing import Any

import numpy as np

try:  # the compiled build's per-function directives (compile time only; Cython is no runtime dependency)
    import cython
except ImportError:  # pure Python without Cython: only the compiled build runs the typed writers that use it
    pass

from holdem_env.engine.actions import ActionKind
from holdem_env.engine.cards import card_str
from holdem_env.engine.errors import IllegalActionError, NoAgentLeftError, short_repr
from holdem_env.engine.record import ActionEvent
from holdem_env.engine.state import HandState, _Legal
from holdem_env.env import _obs
from holdem_env.env._obsbuild import ObservationBuilder, gather_runs
from holdem_env.env._view import SeatView, view_from_parts
from holdem_env.env.actions import CHECK_CALL, FOLD, describe_action, describe_legal, discrete_raise_amounts

__all__ = ["_EnvCore", "STREET_NAMES", "hole_strs"]

STREET_NAMES = ("preflop", "flop", "turn", "river", "showdown")
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
_CARD_STRS = tuple(card_str(c) for c in range(52))
_AT_TO_CALL, _AT_MIN_RAISE_TO, _AT_MAX_RAISE_TO = _obs.OFF_TO_CALL, _obs.OFF_MIN_RAISE_TO, _obs.OFF_MAX_RAISE_TO
_FOLD_ID, _CHECK_CALL_ID = FOLD, CHECK_CALL  # C integers in the compiled build (_core.pxd)
_zeros, _INT8 = np.zeros, np.dtype(np.int8)  # the idle seats' all-zero masks (read once here)
#: The legal set in the info of a seat that is not to act; each info gets a copy (one C call, no
#: key insertions; numbers are never None: 0 = no raise).
_IDLE_LEGAL = {"fold": False, "check": False, "call": 0, "min_raise_to": 0, "max_raise_to": 0}
_copy_array = np.ndarray.copy  # called unbound: no bound method made per observation


def hole_strs(hole: tuple[int, ...] | None) -> tuple[str, ...]:
    """Hole cards as strings (empty for a seat not dealt in)."""
    return (_CARD_STRS[hole[0]], _CARD_STRS[hole[1]]) if hole else ()


#: The per-step names :meth:`_EnvCore._bind_buffers` binds (typed views and staging arrays in the
#: compiled build; ``_core.pxd`` declares them private): never pickled, rebuilt on load.
_REBOUND_FIELDS = (
    "_dynv", "_runsv", "_obs_stage", "_obs_stagev", "_mask_stage", "_mask_stagev", "_stage_lo", "_stage_hi"
)
#: Whether this module runs compiled (setup.py COMPILED): observations and masks are then written
#: by C loops over typed views; from the ``.py`` source, numpy does it (:class:`ObservationBuilder`).
_TYPED_CORE = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


class _EnvCore:
    """The per-step half of :class:`raw_env`: dealing a hand into the buffers, stepping, observing.

    :class:`raw_env` adds PettingZoo's ``AECEnv`` and
    everything that does not run per step. It reads the engine through its public accessors
    (per seat where a whole tuple would be copied) and never writes to it. Buffer indices come
    from :class:`holdem_env.env._obs.BufferLayout` (``self._layout``; the ``_at_*`` attributes
    are its row starts, kept as plain ints for the per-step path).
    """

    # The attributes, as _core.pxd declares them (set by raw_env.__init__, reset and the
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

    def _bind_buffers(self, dyn: np.ndarray, gather: np.ndarray) -> None:
        """Keep the state buffer as ``_dyn`` and the observers' gather indices as ``_gather``
        (what the observation builder reads), and bind the names the per-step path goes
        through (:data:`_REBOUND_FIELDS`, rebuilt on load, never pickled): ``_dynv`` (the
        same array here, a typed view in the compiled build), ``_runsv`` (the gather indices
        as runs, :func:`~holdem_env.env._obsbuild.gather_runs`) and the two staging arrays the compiled build writes
        each observation and mask into before copying them out."""
        self._dyn = dyn
        self._dynv = dyn
        self._gather = gather
        self._runsv = gather_runs(gather)
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
        strs = _CARD_STRS  # hole_strs inlined: no Python call per seat
        self._own = [(s, (strs[h[0]], strs[h[1]]) if h else ()) for s, h in enumerate(holes)]
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
        self._history.append((seat, STREET_NAMES[street], kind_name, ev.to))
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
        legal = _IDLE_LEGAL.copy()  # a new dict each time (an agent may keep or change its info)
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
            STREET_NAMES[self._street],
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
        return describe_action(
            self._action_id(action), exact=self._exact, num_actions=self.num_actions, bet_sizes=self.bet_sizes
        )

    def _describe_legal(self) -> str:
        legal = self._legal
        assert legal is not None  # a decision is pending
        return describe_legal(legal, exact=self._exact, discrete_amounts=None if self._exact else self._discrete_amounts())

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
        # as runs of consecutive indices (gather_runs): the compiled loops read them without bounds checks
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
        try:
            return (
                self._observe_seat(self.agent_name_mapping[agent]) if observe else None,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
        except KeyError:  # every agent's dead step is done: no agent is left to report
            raise NoAgentLeftError("the hand is over and every agent has stepped: last() has no agent to report; call reset()") from None



#: The attributes the compiled build declares as typed public fields of :class:`_EnvCore`
#: (``_core.pxd``; a test keeps the two in step): its pickles and copies carry them explicitly.
#: Read from the class: its annotations from the source, its typed public fields compiled.
_CORE_FIELDS = tuple(
    name
    for name, value in vars(_EnvCore).get("__annotations__", vars(_EnvCore)).items()
    if name not in _REBOUND_FIELDS and (not _TYPED_CORE or type(value).__name__ == "getset_descriptor")
)
