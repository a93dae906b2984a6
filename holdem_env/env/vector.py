"""A vectorised ``nlhe_v1`` for one learner: N tables stepped from its point of view in one call.

:class:`HoldemVectorEnv` follows Gymnasium's ``VectorEnv`` conventions (batched observation
dicts and masks, ``reset`` / ``step`` returning ``(obs, rewards, terminations, truncations,
infos)``, same-step autoreset), so any library that trains on a Gymnasium vector env can
use it. Each table seats the learner at one seat and opponents at the others; ``step``
applies the learner's action at every table, then plays the opponents inside until the
learner is to act again at every table -- opponents that offer ``act_batch`` decide for all
waiting tables in one call.

Episodes and autoreset
----------------------
An episode is one hand *in which the learner decides*. When the learner's action ends a
hand (or the opponents finish it afterwards), that table's entry in ``terminations`` is
True and its reward is the learner's result for the hand (in big blinds unless
``reward_unit="chips"``; zero on every other step). With ``autoreset_mode=SAME_STEP``
(the default) the returned observation is already the learner's first decision of a later
hand; the finished hand's last observation is in ``infos["final_obs"]``. With
``NEXT_STEP`` (Gymnasium's default for its own vector envs) the row holds the finished
hand's last observation, and the next ``step`` ignores that table's action and returns the
next hand's first decision (reward 0, not terminated). A terminal row's mask then allows
only id 1 (check/call, never applied), so masked samplers always find a legal id; every
other row's mask is the learner's live legal set. Hands the learner does not
act in (everyone folds to its big blind, say) are played out inside and never returned,
but they count in :attr:`hands_played` and are reported to the opponent source. Hands are
never truncated.

Seating and opponents
---------------------
At every new hand a table draws the learner's seat uniformly (so it plays every seat) and
asks the *opponent source* for a member id (``sample(table, rng)``); every other seat is
played by ``agent(member, table, seat)``. After each hand the source's ``record(member,
payoff)`` is called, when it has one, with the learner's payoff. :class:`FixedOpponents`
is the simple source: a fixed list of agent factories, drawn uniformly or by weights.
Agents follow :mod:`holdem_env.agents.base` (``act(observation, info)``, optional
``set_rng``/``start_hand``); an agent with ``act_batch(observations, masks, rngs)`` is called
once per step for all tables where it is to act, each row with that seat's generator.

Infos (each with a ``_key`` mask, Gymnasium style)
--------------------------------------------------
=================  ========================================================================
``seat``           the learner's seat at each table this hand
``opponent``       the member id playing the other seats this hand
``payoff``         the finished hand's learner result (only where terminated)
``final_obs``      the finished hand's last observation dict (only where terminated)
``final_opponent`` the member id and the learner's seat of the finished hand (only where
``final_seat``     terminated; under ``SAME_STEP`` ``seat`` and ``opponent`` already describe
                   the next hand, under ``NEXT_STEP`` the finished one, as the row does)
=================  ========================================================================

``final_obs`` is given under ``SAME_STEP`` only (under ``NEXT_STEP`` the row is that observation), and
not with ``final_obs=False``: on the batched backend the finished hands are then not recorded at all,
which saves about a fifth of a step's cost (a trainer that never reads them sets it).

Backends
--------
``backend="auto"`` (the default) runs every table on one compiled
:class:`~holdem_env.batched.BatchedTables` when it can: either autoreset mode, no-limit, the env
options ``num_players``, blinds, ``ante``, ``buy_in`` (above the ante plus the big blind),
``action_mode``, ``bet_sizes``, ``max_stack``, ``reward_unit``, ``pad_seats``, and an opponent source
whose ``batched_bot()`` returns a bot with ``decide(views, uniforms)`` (:class:`FixedOpponents` with
one such member). The core plays those seats inside its step and the learner's observations and masks
are written by :mod:`holdem_env.batched.encode`: the same bytes ``nlhe_v1`` gives at those decisions
(``tests/test_vector_batched.py`` replays every hand on ``nlhe_v1``). Otherwise one ``nlhe_v1`` env
per table runs (``backend="tables"``); ``backend="batched"`` refuses settings it cannot run with a
:class:`~holdem_env.engine.errors.ConfigError` saying why. :attr:`HoldemVectorEnv.backend` says which
runs and ``backend_reason`` why not batched. Under the batched backend, ``final_obs`` holds
:class:`~holdem_env.env._vector_batched.FinalObs` mappings (the finished hand replayed on ``nlhe_v1``
when first read: the same arrays as the per-table backend's dicts), ``opponent`` is always 0 with one
bot, and ``reset(seed)`` seeds the core (``BatchedTables(seed=seed)``), not one generator per table. A source
whose ``batched_bot()`` gives :class:`~holdem_env.batched.Members` (a pool of bots with ``decide``,
drawn per hand) runs batched too, seeded as the per-table backend (``holdem_env.env._vector_batched``).

Version history
---------------
* ``final_obs`` and ``NEXT_STEP`` on the batched backend (issue 25): ``infos["final_obs"]`` is given
  there too (a lazily replayed mapping per finished hand), and ``autoreset_mode=NEXT_STEP`` runs batched
  (it kept the per-table backend before), with the per-table backend's semantics.
* pools on the batched backend (issue 25): a source whose ``batched_bot()`` gives
  :class:`~holdem_env.batched.Members` (``OpponentPool`` with several members, every one with
  ``decide``: ``tag``, the style bots, ``cfr-lite``, the exploiters, ppo snapshots) runs batched by
  default, with the per-table backend's seeding; there ``infos["opponent"]`` and
  ``infos["final_opponent"]`` name each table's member (they were 0), the members play in exact chips,
  and the source hears each member's hands in one ``record_many`` per step.
* batched backend (``backend=``, ``batched_bot()``): observations, masks and rewards as before; under
  it no ``final_obs`` and the core's seeding (see Backends). ``hands_played`` and
  ``opponent_decisions`` are read-only properties.
  Opponents that have ``decide`` (``tag``, the style bots, ``random``, ``ppo``) run on it by
  default (``backend="auto"``); they play there in exact chips, so ``random`` draws a uniform
  raise-to among all legal amounts rather than among the discrete sizes. ``backend="tables"``
  keeps the per-table envs and their per-table seeding.
* first version: per-table ``nlhe_v1`` envs.

Determinism: table ``t`` draws everything (its decks, the learner's seat, opponent members,
and one generator per seat handed to whichever opponent sits there) from
``SeedSequence(seed, spawn_key=(t,))``, so results do not depend on how opponents'
decisions are batched (per-table backend).

>>> from holdem_env.agents.random_agent import RandomAgent
>>> venv = HoldemVectorEnv(4, FixedOpponents([RandomAgent]), num_players=2)
>>> obs, infos = venv.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((4, 158), (4, 10))
>>> obs, rewards, terminated, truncated, infos = venv.step(np.ones(4, dtype=np.int64))
>>> rewards.shape, terminated.dtype.name
((4,), 'bool')
>>> HoldemVectorEnv(0, FixedOpponents([RandomAgent]))
Traceback (most recent call last):
...
holdem_env.engine.errors.ConfigError: num_envs=0 is invalid: must be an integer in 1..100000
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from holdem_env.engine.errors import ConfigError, HoldemError, IllegalActionError
from holdem_env.env import nlhe_v1
from holdem_env.env._vector_batched import BatchedBackend, batched_plan, check_learner_actions, refuse
from holdem_env.env.gym_wrapper import TERMINAL_MASK_ID

__all__ = ["HoldemVectorEnv", "OpponentSource", "FixedOpponents", "BACKENDS"]

#: ``backend=``: ``"auto"`` (batched where it can run), ``"batched"`` (or a ConfigError saying why not), ``"tables"``.
BACKENDS = ("auto", "batched", "tables")
_UNSET: Any = object()

# table -> (the learner's last observation of its finished hand, member id, learner seat)
_Finals = dict[int, tuple[dict[str, np.ndarray], int, int]]


class OpponentSource(Protocol):
    """Who plays the other seats: a member id per hand, and that member's agent per seat."""

    def sample(self, table: int, rng: np.random.Generator) -> int:
        """The member id for a new hand at ``table`` (draw only from ``rng``)."""
        ...

    def agent(self, member: int, table: int, seat: int) -> Any:
        """The agent object playing ``seat`` of ``table`` for ``member``."""
        ...


class FixedOpponents:
    """A fixed list of opponent members, each built by a zero-argument factory.

    An agent with ``act_batch`` is built once and shared by every table (one batched call
    per step); any other agent is built once per (table, seat), so agents that keep state
    within a hand stay correct. ``weights`` (default uniform) are the members' sampling
    probabilities.
    """

    def __init__(self, factories: Sequence[Callable[[], Any]], weights: Sequence[float] | None = None) -> None:
        if not factories or not all(callable(f) for f in factories):
            raise ConfigError("opponents", factories, "must be a non-empty list of agent factories (callables)")
        self.factories = list(factories)
        if weights is None:
            weights = [1.0] * len(self.factories)
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (len(self.factories),) or not np.all(np.isfinite(w)) or (w < 0).any() or w.sum() <= 0:
            allowed = f"must be {len(self.factories)} non-negative numbers, not all 0"
            raise ConfigError("weights", list(weights), allowed)
        self.weights = w / w.sum()
        self._cdf = np.cumsum(self.weights)
        self._shared: dict[int, Any] = {}
        self._own: dict[tuple[int, int, int], Any] = {}
        self._batched: Any = _UNSET
        #: Per member: hands played and the learner's total payoff against it.
        self.hands = np.zeros(len(self.factories), dtype=np.int64)
        self.payoff = np.zeros(len(self.factories), dtype=np.float64)

    def sample(self, table: int, rng: np.random.Generator) -> int:
        """A member drawn by ``weights``."""
        return min(int(np.searchsorted(self._cdf, rng.random(), side="right")), len(self._cdf) - 1)

    def agent(self, member: int, table: int, seat: int) -> Any:
        """The member's agent for this seat (shared when it has ``act_batch``)."""
        if member in self._shared:
            return self._shared[member]
        key = (member, table, seat)
        a = self._own.get(key)
        if a is None:
            a = self.factories[member]()
            if not callable(getattr(a, "act", None)):
                raise ConfigError("opponents", a, "a factory must return an agent with act(observation, info)")
            if callable(getattr(a, "act_batch", None)):
                self._shared[member] = a
            else:
                self._own[key] = a
        return a

    def batched_bot(self) -> Any:
        """The bot that plays every opponent seat of every table in batch, or None: with one member
        whose agent has ``decide(views, uniforms)`` (built once), that agent."""
        if self._batched is _UNSET:
            bot = self.factories[0]() if len(self.factories) == 1 else None
            self._batched = bot if callable(getattr(bot, "decide", None)) else None
        return self._batched

    def record(self, member: int, payoff: float) -> None:
        """Count one finished hand against ``member``."""
        self.hands[member] += 1
        self.payoff[member] += payoff

    def record_many(self, member: int, payoffs: np.ndarray) -> None:
        """Count finished hands against ``member``, one per entry of ``payoffs`` (one :meth:`record`
        call each where a subclass changes ``record``)."""
        if type(self).record is not FixedOpponents.record:
            for p in np.asarray(payoffs, dtype=np.float64).tolist():
                self.record(member, p)
            return
        self.hands[member] += len(payoffs)
        self.payoff[member] += float(np.sum(payoffs))


class _Table:
    """One table's env, generator and who sits where this hand."""

    __slots__ = ("env", "rng", "seat", "member", "agents", "seat_rngs", "decided", "names")

    def __init__(self, env: Any, rng: np.random.Generator) -> None:
        self.env = env
        self.rng = rng
        self.names = env.possible_agents
        self.seat = 0
        self.member = 0
        self.agents: list[Any] = []
        self.seat_rngs: list[np.random.Generator] = []
        self.decided = False


class HoldemVectorEnv(VectorEnv):
    """``num_envs`` tables of ``nlhe_v1`` seen by one learner (see the module docstring).

    ``opponents``: an :class:`OpponentSource` (for example :class:`FixedOpponents`).
    ``env_kwargs``: passed to :func:`holdem_env.env.nlhe_v1.raw_env` (``num_players``,
    blinds, ``bet_sizes``, ``reward_unit`` ...); ``illegal_action`` is always ``"raise"``,
    so an opponent's illegal action stops the step with an
    :class:`~holdem_env.engine.errors.IllegalActionError` naming the table.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        opponents: OpponentSource,
        *,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        backend: str = "auto",
        final_obs: bool = True,
        **env_kwargs: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= 100_000:
            raise ConfigError("num_envs", num_envs, "must be an integer in 1..100000")
        modes = {m.value.lower(): m for m in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)}
        mode = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else str(autoreset_mode)
        mode = mode.replace("_", "").lower()
        if mode not in modes:
            allowed = "must be AutoresetMode.SAME_STEP or NEXT_STEP (or 'same_step' / 'next_step')"
            raise ConfigError("autoreset_mode", autoreset_mode, allowed)
        self.autoreset_mode = modes[mode]
        self.metadata = {"autoreset_mode": self.autoreset_mode}
        self._next_step = self.autoreset_mode == AutoresetMode.NEXT_STEP
        for method in ("sample", "agent"):
            if not callable(getattr(opponents, method, None)):
                raise ConfigError("opponents", opponents, "must have sample(table, rng) and agent(member, table, seat)")
        if env_kwargs.get("illegal_action", "raise") != "raise":
            raise ConfigError("illegal_action", env_kwargs["illegal_action"], "must be 'raise' in the vector env")
        if not isinstance(final_obs, bool):
            raise ConfigError("final_obs", final_obs, "must be True or False")
        #: Whether ``infos["final_obs"]`` is given (``SAME_STEP``; ``NEXT_STEP`` rows always show it).
        self.final_obs = final_obs
        if backend not in BACKENDS:
            raise ConfigError("backend", backend, f"must be one of {', '.join(map(repr, BACKENDS))}")
        env_kwargs = {**env_kwargs, "illegal_action": "raise"}
        self.num_envs = num_envs
        self.opponents = opponents
        first = nlhe_v1.raw_env(**env_kwargs)  # checks every setting; its spaces are every table's
        bot, why = (None, "backend='tables'") if backend == "tables" else batched_plan(opponents, first, env_kwargs)
        if backend == "batched" and bot is None:
            raise refuse(why)
        #: ``"batched"`` (one BatchedTables for every table) or ``"tables"`` (one nlhe_v1 env per table).
        self.backend = "batched" if bot is not None else "tables"
        #: Why the per-table backend runs ("" when batched).
        self.backend_reason = why
        self._batched = (
            BatchedBackend(num_envs, first, bot, opponents, self._next_step, final_obs or self._next_step)
            if bot is not None else None
        )
        self._tables = (
            [] if bot is not None
            else [_Table(first if t == 0 else nlhe_v1.raw_env(**env_kwargs), np.random.default_rng(0)) for t in range(num_envs)]
        )
        self.num_players = first.num_players if hasattr(first, "num_players") else len(first.possible_agents)
        obs_space = first.observation_space(first.possible_agents[0])
        act_space = first.action_space(first.possible_agents[0])
        # nlhe_v1's spaces: Dict(observation=Box, action_mask=Box) and Discrete(num_actions)
        assert isinstance(obs_space, spaces.Dict) and isinstance(act_space, spaces.Discrete)
        vector = obs_space["observation"]
        assert isinstance(vector, spaces.Box)
        self.single_observation_space = obs_space
        self.single_action_space = act_space
        self.observation_space = batch_space(obs_space, num_envs)
        self.action_space = batch_space(act_space, num_envs)
        self._obs_len = vector.shape[0]
        self._num_actions = int(act_space.n)
        # The learner's masks as last returned by reset/step (what step checks actions against).
        self._masks = np.zeros((num_envs, self._num_actions), dtype=np.int8)
        self._terminal_mask = np.zeros(self._num_actions, dtype=np.int8)
        self._terminal_mask[TERMINAL_MASK_ID] = 1
        # NEXT_STEP: the rows showing a finished hand's last observation (their next action is ignored)
        self._showing: _Finals = {}
        self._record = getattr(opponents, "record", None)
        self._seeded = False
        self._hands_played = 0
        self._opponent_decisions = 0

    @property
    def hands_played(self) -> int:
        """Hands finished at all tables since the last reset (with or without a learner decision)."""
        return self._batched.hands_played if self._batched is not None and self._seeded else self._hands_played

    @property
    def opponent_decisions(self) -> int:
        """Opponent decisions played since the last reset."""
        return self._batched.opponent_decisions if self._batched is not None and self._seeded else self._opponent_decisions

    # -- the Gymnasium API ------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every table afresh (from ``seed``) and play to the learner's first decisions."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ConfigError("seed", seed, "must be an integer >= 0 or None")
        if self._batched is not None:
            self._batched.reset(None if seed is None else int(seed))
            self._seeded = True
            return self._batched.observations(), self._infos(None, None, None)
        root = np.random.SeedSequence(seed)
        for t, table in enumerate(self._tables):
            seq = np.random.SeedSequence(root.entropy, spawn_key=(t,))
            table.rng = np.random.default_rng(seq)
            # one generator per seat for the opponents sitting there (kept across hands)
            table.seat_rngs = [np.random.default_rng(c) for c in seq.spawn(len(table.names))]
            table.env.reset(seed=int(table.rng.integers(2**31)))
            self._deal(t, table, first=True)
        self._seeded = True
        self._showing = {}
        self._hands_played = 0
        self._opponent_decisions = 0
        self._play_opponents(list(range(self.num_envs)), np.zeros(self.num_envs), np.zeros(self.num_envs, bool), {})
        return self._observations(), self._infos(None, None, None)

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one learner action per table, then play until the learner is to act everywhere."""
        if not self._seeded:
            raise HoldemError("call reset() before step()")
        acts = check_learner_actions(actions, self.num_envs)
        if self._batched is not None:
            rewards, done = self._batched.step(acts)
            infos = self._infos(done, rewards, {})
            zeros = np.zeros(self.num_envs, dtype=bool)
            return self._batched.observations(), rewards.astype(np.float32), done, zeros, infos
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        done = np.zeros(self.num_envs, dtype=bool)
        final: _Finals = {}
        showing, self._showing = self._showing, {}
        for t in range(self.num_envs):  # every action is checked before any table moves
            if t in showing:
                continue  # NEXT_STEP: this row showed a finished hand; its action is ignored
            mask = self._masks[t]  # the learner's mask as last returned (nothing moved since)
            a = int(acts[t])
            if not 0 <= a < self._num_actions or not mask[a]:
                raise IllegalActionError(
                    f"table {t}: the learner's action {a} is not legal (legal ids: {np.flatnonzero(mask).tolist()})"
                )
        moving = [t for t in range(self.num_envs) if t not in showing]
        for t in moving:
            self._tables[t].env.step(int(acts[t]))
        self._play_opponents(moving, rewards, done, final)
        if self._next_step:
            self._showing = final
        infos = self._infos(done, rewards, final)
        return self._observations(), rewards.astype(np.float32), done, np.zeros(self.num_envs, dtype=bool), infos

    def step_arrays(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`step` for a caller that reads only its arrays: ``(observations, action masks, rewards,
        terminated)``, the same values, without the infos. On the batched backend (autoreset
        ``SAME_STEP``) the observations and masks are the backend's own arrays, valid until the next
        step or reset (copy what you keep) and nothing else is made; otherwise they are :meth:`step`'s."""
        b = self._batched
        if b is None or self._next_step or not self._seeded:
            obs, rewards, done, _, _ = self.step(actions)
            return obs["observation"], obs["action_mask"], rewards, done
        if not (isinstance(actions, np.ndarray) and actions.dtype == np.int64 and actions.shape == (self.num_envs,)):
            actions = check_learner_actions(actions, self.num_envs)
        rewards, done = b.step(actions)
        return b.obs, b.masks, rewards.astype(np.float32), done

    def close(self, **kwargs: Any) -> None:
        """Close every table's env."""
        for table in self._tables:
            table.env.close()

    # -- internals ---------------------------------------------------------------------------
    def _deal(self, t: int, table: _Table, first: bool = False) -> None:
        """Seat the learner and the opponents for a new hand (the env is reset unless ``first``)."""
        if not first:
            table.env.reset()
        n = len(table.names)
        table.seat = int(table.rng.integers(n))
        table.member = int(self.opponents.sample(t, table.rng))
        table.decided = False
        table.agents = [None if s == table.seat else self.opponents.agent(table.member, t, s) for s in range(n)]
        for s, agent in enumerate(table.agents):
            if agent is None:
                continue
            set_rng = getattr(agent, "set_rng", None)
            if set_rng is not None and not callable(getattr(agent, "act_batch", None)):
                set_rng(table.seat_rngs[s])
            start = getattr(agent, "start_hand", None)
            if start is not None:
                start(table.env.infos[table.names[s]])

    def _settle(self, t: int, rewards: np.ndarray, done: np.ndarray, final: _Finals) -> bool:
        """Finish hands at table ``t`` until someone must act; True when it is the learner."""
        table = self._tables[t]
        env = table.env
        while not env.agents or all(env.terminations.values()):
            learner = table.names[table.seat]
            payoff = float(env.rewards[learner])
            self._hands_played += 1
            if self._record is not None:
                self._record(table.member, payoff)
            if table.decided and not done[t]:
                rewards[t] = payoff
                done[t] = True
                keep = self.final_obs or self._next_step  # (else nothing reads it)
                last = {k: v.copy() for k, v in env.observe(learner).items()} if keep else {}
                final[t] = (last, table.member, table.seat)
            self._deal(t, table)
        if env.agent_selection == table.names[table.seat]:
            table.decided = True
            return True
        return False

    def _play_opponents(
        self, tables: list[int], rewards: np.ndarray, done: np.ndarray, final: _Finals
    ) -> None:
        pending = [t for t in tables if not self._settle(t, rewards, done, final)]
        while pending:
            groups: dict[int, tuple[Any, list[int]]] = {}
            for t in pending:
                table = self._tables[t]
                seat = table.env.agent_name_mapping[table.env.agent_selection]
                agent = table.agents[seat]
                groups.setdefault(id(agent), (agent, []))[1].append(t)
            for agent, ts in groups.values():
                views = []
                for t in ts:
                    env = self._tables[t].env
                    views.append((t, env.agent_selection, env.observe(env.agent_selection)))
                batch = getattr(agent, "act_batch", None)
                if callable(batch):
                    obs = np.stack([v[2]["observation"] for v in views])
                    masks = np.stack([v[2]["action_mask"] for v in views])
                    rngs = [
                        self._tables[t].seat_rngs[self._tables[t].env.agent_name_mapping[name]] for t, name, _ in views
                    ]
                    acts = [int(a) for a in batch(obs, masks, rngs)]
                else:
                    acts = [int(agent.act(o, self._tables[t].env.infos[name])) for t, name, o in views]
                for (t, name, o), a in zip(views, acts, strict=True):
                    if not 0 <= a < self._num_actions or not o["action_mask"][a]:
                        raise IllegalActionError(
                            f"table {t}: opponent {type(agent).__name__} ({name}) chose action {a}, which is not legal "
                            f"(legal ids: {np.flatnonzero(o['action_mask']).tolist()})"
                        )
                    self._tables[t].env.step(a)
                self._opponent_decisions += len(ts)
            pending = [t for t in pending if not self._settle(t, rewards, done, final)]

    def _observations(self) -> dict[str, np.ndarray]:
        if self._batched is not None:
            return self._batched.observations()
        obs = np.empty((self.num_envs, self._obs_len), dtype=np.float32)
        masks = np.empty((self.num_envs, self._num_actions), dtype=np.int8)
        for t, table in enumerate(self._tables):
            shown = self._showing.get(t)
            if shown is not None:  # NEXT_STEP: the finished hand's last view, with the placeholder mask
                obs[t] = shown[0]["observation"]
                masks[t] = self._terminal_mask
                continue
            o = table.env.observe(table.names[table.seat])
            obs[t] = o["observation"]
            masks[t] = o["action_mask"]
        self._masks = masks
        return {"observation": obs, "action_mask": masks.copy()}  # the caller's copy may change

    def _infos(
        self, done: np.ndarray | None, rewards: np.ndarray | None, final: _Finals | None
    ) -> dict[str, Any]:
        n = self.num_envs
        every = np.ones(n, dtype=bool)
        if self._batched is not None:
            infos: dict[str, Any] = {
                "seat": self._batched.seats, "_seat": every, "opponent": self._batched.opponent_members, "_opponent": every
            }
            if done is not None and done.any():
                assert rewards is not None
                infos["payoff"] = np.where(done, rewards, 0.0)
                keys = ["payoff", "final_opponent", "final_seat"]
                if self.final_obs and not self._next_step:  # replayed when first read (FinalObs)
                    infos["final_obs"] = self._batched.final_observations(done)
                    keys.append("final_obs")
                infos["final_opponent"] = self._batched.final_members(done)
                infos["final_seat"] = self._batched.final_seats
                for key in keys:
                    infos["_" + key] = done.copy()
            return infos
        seats = np.array([t.seat for t in self._tables], dtype=np.int64)
        members = np.array([t.member for t in self._tables], dtype=np.int64)
        for t, (_, member, seat_) in self._showing.items():  # NEXT_STEP: the row is the finished hand
            seats[t], members[t] = seat_, member
        infos = {"seat": seats, "_seat": every, "opponent": members, "_opponent": every}
        if done is not None and done.any():
            assert rewards is not None and final is not None
            infos["payoff"] = np.where(done, rewards, 0.0)
            infos["_payoff"] = done.copy()
            fo = np.full(n, None, dtype=object)
            opp = np.full(n, -1, dtype=np.int64)
            seat = np.full(n, -1, dtype=np.int64)
            for t, (o, member, s) in final.items():
                fo[t], opp[t], seat[t] = o, member, s
            for key, value in (("final_obs", fo), ("final_opponent", opp), ("final_seat", seat)):
                if key == "final_obs" and (self._next_step or not self.final_obs):
                    continue
                infos[key] = value
                infos["_" + key] = done.copy()
        return infos
