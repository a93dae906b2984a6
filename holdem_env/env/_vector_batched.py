"""The vector env's batched backend: every table in one :class:`~holdem_env.batched.BatchedTables`, observed by the batched encoder.

:class:`HoldemVectorEnv <holdem_env.env.vector.HoldemVectorEnv>` uses it when every opponent decides in
batch (one member with ``decide(views, uniforms)``; see :func:`batched_plan`): the core steps all
tables in C and plays the opponents' seats inside, :meth:`BatchedTables.fill_views` writes the learner's
views, and :mod:`holdem_env.batched.encode` writes its observations and masks into preallocated arrays
(the same bytes ``nlhe_v1`` gives at those decisions). What differs from the per-table backend is
documented in the vector env's module docstring (the core's own seeding).

Finished hands: the core records every deal and decision (``BatchedTables(record=True)``; read and
dropped after each step), so each hand the learner decided in is kept as its deck, button, learner seat
and actions. Its last observation (``final_obs``; the row itself under ``NEXT_STEP``) is that hand
replayed on one ``nlhe_v1`` env and observed by the learner, as the per-table backend observes it:
under ``SAME_STEP`` lazily (:class:`FinalObs`, replayed at its first read, so a trainer that never
reads it pays only for the record), under ``NEXT_STEP`` at once. ``NEXT_STEP``: a table showing a
finished hand does not move at the next step (its core action is -1), and its row then shows the next
hand's first decision, which the core already holds.

Pools: an opponent source whose ``batched_bot()`` returns :class:`~holdem_env.batched.Members` (every
member with ``decide``; :meth:`OpponentPool.batched_bot <holdem_env.training.pool.OpponentPool.batched_bot>`)
runs here too. Each table then draws its learner seat and its member at every hand from its own
generator, and the opponents' uniforms come from one generator per table and seat, all seeded exactly
as the per-table backend seeds them (``SeedSequence(seed, spawn_key=(t,))``; decks and buttons from
the per-table env's seed, ``BatchedTables(table_seeds=...)``), and the member is drawn with the
source's ``sample(table, rng)``. So a pool whose weights do not change during the run plays the same
hands with the same results on both backends when each bot's ``act`` draws its
``uniforms_per_decision`` numbers from its generator (``tests/test_vector_pools.py``); the source's
``record_many`` gets each member's finished hands after every step (the per-table backend reports each
hand as it ends, so prioritised weights can move at other moments).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from holdem_env.batched import BatchedTables, Members
from holdem_env.batched import encode as enc
from holdem_env.batched.views import BatchViews
from holdem_env.engine.config import BettingStructure
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.env.gym_wrapper import TERMINAL_MASK_ID

__all__ = ["batched_plan", "BatchedBackend", "CORE_KWARGS", "FinalObs"]

#: The ``nlhe_v1`` keyword arguments the batched backend supports (any other one keeps the per-table backend).
CORE_KWARGS = frozenset(
    {"num_players", "small_blind", "big_blind", "ante", "buy_in", "betting", "action_mode", "bet_sizes", "max_stack",
     "reward_unit", "illegal_action", "info_mode", "pad_seats"}
)


def batched_plan(opponents: Any, probe: Any, env_kwargs: dict[str, Any]) -> tuple[Any, str]:
    """``(bot, "")`` when these settings can run on the batched core with ``bot`` in every other seat,
    else ``(None, why not)``. ``probe``: an ``nlhe_v1.raw_env`` built from ``env_kwargs`` (checked settings)."""
    extra = sorted(set(env_kwargs) - CORE_KWARGS)
    if extra:
        return None, f"the batched core does not take the env options {', '.join(extra)}"
    config = probe.config
    if config.betting != BettingStructure.NO_LIMIT:
        return None, f"the batched core plays no-limit only (betting={config.betting.value!r})"
    if probe.config.buy_in <= config.ante + config.big_blind:
        return None, "the batched core needs a buy-in above the ante plus the big blind"
    bot_of = getattr(opponents, "batched_bot", None)
    bot = bot_of() if callable(bot_of) else None
    if bot is None:
        return None, ("the opponent source has no batched bot (FixedOpponents with one member whose agent has "
                      "decide(views, uniforms), or a pool whose every member has it)")
    if isinstance(bot, Members) and not callable(getattr(opponents, "sample", None)):
        return None, "the opponent source gives members but has no sample(table, rng)"
    return bot, ""


#: A finished hand as the core's trace gives it: button, deck, the learner's seat, its (seat, exact id) actions.
_Hand = tuple[int, tuple[int, ...], int, list[tuple[int, int]]]


class FinalObs(Mapping[str, np.ndarray]):
    """The last observation dict of a finished hand (``observation``, ``action_mask``), replayed on
    ``nlhe_v1`` at its first read (then kept): what the per-table backend's ``final_obs`` holds."""

    def __init__(self, backend: BatchedBackend, hand: _Hand) -> None:
        self._backend, self._hand = backend, hand
        self._obs: dict[str, np.ndarray] | None = None

    def _get(self) -> dict[str, np.ndarray]:
        if self._obs is None:
            self._obs = self._backend.replay(self._hand)
        return self._obs

    def __getitem__(self, key: str) -> np.ndarray:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"FinalObs({self._get()!r})"

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (or deep-copied) as the plain dict it stands for
        return (dict, (self._get(),))


class BatchedBackend:
    """``num_envs`` tables on one :class:`BatchedTables`: the learner's seat is drawn at every hand, ``bot``
    plays every other seat, and each step writes the learner's observations and masks in place.
    ``next_step``: the ``NEXT_STEP`` autoreset (module docstring); ``finals``: keep the finished hands
    (for :meth:`final_observations`; needed by ``next_step``)."""

    def __init__(
        self, num_envs: int, probe: Any, bot: Any, opponents: Any, next_step: bool = False, finals: bool = True
    ) -> None:
        config = probe.config
        self.probe = probe  # the env the finished hands are replayed on (FinalObs)
        self.next_step = next_step
        self.finals = finals  # record the finished hands (final_obs, NEXT_STEP); off: no record, no final_obs
        self.num_envs = num_envs
        self.n = config.num_players
        self.sb, self.bb, self.ante, self.buy_in = config.small_blind, config.big_blind, config.ante, config.buy_in
        self.mode = probe.action_mode
        self.bet_sizes = tuple(probe.bet_sizes)
        self.pad = probe.num_seats != self.n
        self.scale = 1.0 / self.bb if probe.reward_unit == "bb" else 1.0
        self.bot = bot
        #: the source's members drawn per hand (a pool), or None (one bot in every seat)
        self.members: Members | None = bot if isinstance(bot, Members) else None
        self.sample = getattr(opponents, "sample", None)
        self.record = getattr(opponents, "record", None)
        self.record_many = getattr(opponents, "record_many", None)
        self.bt: BatchedTables | None = None
        self.views = BatchViews.empty(num_envs, self.n, self.sb, self.bb)
        self.obs = np.zeros((num_envs, enc.observation_size(self.n, self.pad)), dtype=np.float32)
        self.masks = np.zeros((num_envs, probe.num_actions), dtype=np.int8)
        self.amounts = np.zeros((num_envs, len(self.bet_sizes) + 2), dtype=np.int64)
        self.encoder = enc.ViewsEncoder(self.views, self.mode, self.bet_sizes, self.pad)  # (the passes, checked once)
        self.learner_steps = 0
        #: extra BatchedTables keyword arguments for the next reset (tests set ``record=True``: the whole
        #: trace is then kept in ``bt.trace``, else each step's part is dropped once read)
        self.core_options: dict[str, Any] = {}
        self._keep_trace = False
        self._seen = 0  # trace entries read
        self._open: list[list[Any]] = []  # each table's hand in progress: [button, deck, learner, actions, decided]
        self._decided: list[_Hand | None] = [None] * num_envs  # each table's last finished hand the learner acted in
        #: NEXT_STEP: the tables whose row shows a finished hand (they do not move at the next step)
        self.showing = np.zeros(num_envs, dtype=bool)
        self._shown: dict[int, tuple[dict[str, np.ndarray], int, int]] = {}  # table -> (final obs, member, seat)
        self._terminal_mask = np.zeros(probe.num_actions, dtype=np.int8)
        self._terminal_mask[TERMINAL_MASK_ID] = 1  # (check/call, never applied)

    # -- what the vector env calls ---------------------------------------------------------------
    def reset(self, seed: int | None) -> None:
        """New tables from ``seed`` (``None``: fresh entropy), played to the learner's first decisions."""
        core_seed = int(np.random.SeedSequence().entropy) if seed is None else int(seed)  # type: ignore[arg-type]
        opponents: Members | dict[str, Any]
        if self.members is not None:
            opponents, more = self._seeded_members(seed)
        else:
            opponents, more = {"others": self.bot}, {}
        options = {"record": self.finals, **self.core_options}
        self._keep_trace = bool(self.core_options.get("record"))
        self.bt = BatchedTables(
            self.num_envs, self.n, self.sb, self.bb, self.buy_in, seed=core_seed, ante=self.ante,
            opponents=opponents, random_learner_seat=True, **more, **options,
        )
        self.learner_steps = 0
        self._seen = 0
        self._open = [[0, (), 0, [], False] for _ in range(self.num_envs)]
        self._decided = [None] * self.num_envs
        self.showing[:] = False
        self._shown = {}
        self._read_trace()
        self._report()
        self._observe()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Apply the learner's ids (checked against the masks last returned); ``(rewards, done)``."""
        bt = self.bt
        assert bt is not None  # reset() first (the vector env checks)
        held = self.showing.copy() if self.next_step and self.showing.any() else None  # (only NEXT_STEP shows rows)
        if held is not None:  # NEXT_STEP: these rows showed a finished hand; their actions are ignored
            actions = np.where(held, 1, actions)  # (check/call: legal for the seat to act; replaced by -1 below)
        try:
            exact = self.encoder.exact_ids(actions, self.amounts)
        except IllegalActionError as e:
            raise IllegalActionError(str(e).replace("row ", "table ", 1).replace(": action", ": the learner's action", 1)) from None
        if held is not None:
            exact = np.where(held, -1, exact)
        bt._step_checked(np.ascontiguousarray(exact, dtype=np.int64))  # (checked above, against our masks)
        self.learner_steps += 1
        done = bt.learner_done.astype(bool)
        rewards = bt.learner_reward * self.scale
        self._read_trace()
        self._report()
        self._observe()
        if self.next_step:
            self.showing = done.copy()
            self._shown = {t: (self.replay(self._last_hand(t)), int(bt.final_member[t]), int(bt.final_seat[t]))
                           for t in np.flatnonzero(done).tolist()}
        return rewards, done

    def final_observations(self, done: np.ndarray) -> np.ndarray:
        """Where ``done``, the finished hand's last observation (:class:`FinalObs`, replayed when first
        read), else None: the per-table backend's ``infos["final_obs"]``."""
        out = np.full(self.num_envs, None, dtype=object)
        for t in np.flatnonzero(done).tolist():
            out[t] = FinalObs(self, self._last_hand(t))
        return out

    def replay(self, hand: _Hand) -> dict[str, np.ndarray]:
        """The learner's last observation dict of the finished ``hand``: the hand replayed on ``nlhe_v1``."""
        button, deck, learner, actions = hand
        env = self.probe
        env.reset(seed=0, options={"deck": list(deck), "button": button})
        for _seat, exact in actions:
            env.step(exact if exact < 2 or self.mode == "exact" else env.action_for_raise_to(exact - 1))
        return {k: v.copy() for k, v in env.observe(env.possible_agents[learner]).items()}

    def observations(self) -> dict[str, np.ndarray]:
        """The caller's copies of the observations and masks last written (NEXT_STEP: a finished hand's
        last observation, with only id 1 allowed, where a row shows one)."""
        obs, masks = self.obs.copy(), self.masks.copy()
        for t, (final, _, _) in self._shown.items():
            obs[t], masks[t] = final["observation"], self._terminal_mask
        return {"observation": obs, "action_mask": masks}

    @property
    def seats(self) -> np.ndarray:
        """The learner's seat at every table this hand (NEXT_STEP: the finished hand's where a row shows one)."""
        assert self.bt is not None
        seats = self.bt.learner.copy()
        for t, (_, _, seat) in self._shown.items():
            seats[t] = seat
        return seats

    @property
    def opponent_members(self) -> np.ndarray:
        """The member playing the other seats at every table this hand (0 with one bot; NEXT_STEP: the
        finished hand's where a row shows one)."""
        assert self.bt is not None
        members = self.bt.member.copy() if self.members is not None else np.zeros(self.num_envs, dtype=np.int64)
        for t, (_, member, _) in self._shown.items():
            members[t] = member
        return members

    def final_members(self, done: np.ndarray) -> np.ndarray:
        """The member of the hand that finished this step where ``done``, else -1."""
        assert self.bt is not None
        return np.where(done, self.bt.final_member, -1).astype(np.int64)

    @property
    def final_seats(self) -> np.ndarray:
        """The learner's seat of the hand that finished this step (-1 where none did)."""
        assert self.bt is not None
        return self.bt.final_seat.copy()

    @property
    def hands_played(self) -> int:
        assert self.bt is not None
        return int(self.bt.hands_played.sum())

    @property
    def opponent_decisions(self) -> int:
        assert self.bt is not None
        return int(self.bt.decisions) - self.learner_steps * self.num_envs

    # -- internals -------------------------------------------------------------------------------
    def _read_trace(self) -> None:
        """Follow the core's new trace entries: each table's hand in progress, and its last finished hand
        the learner acted in (then drop them, unless a test keeps the whole trace)."""
        bt = self.bt
        assert bt is not None
        if not bt.record:
            return
        trace, open_, decided = bt.trace, self._open, self._decided
        for t, seat, what in trace[self._seen :] if self._seen else trace:
            if seat >= 0:
                hand = open_[t]
                hand[3].append((seat, what))
                if seat == hand[2]:
                    hand[4] = True
            elif seat == -1:
                open_[t] = [what[0], what[1], what[2], [], False]
            else:
                hand = open_[t]
                if hand[4]:
                    decided[t] = (hand[0], hand[1], hand[2], hand[3])
        if self._keep_trace:
            self._seen = len(trace)
        else:
            trace.clear()

    def _last_hand(self, t: int) -> _Hand:
        hand = self._decided[t]
        assert hand is not None  # table t finished a hand the learner acted in this step
        return hand

    def _seeded_members(self, seed: int | None) -> tuple[Members, dict[str, Any]]:
        """The members with the per-table backend's seeding (the module docstring): each table's
        generator deals its seat and member, one generator per table and seat draws the uniforms."""
        assert self.members is not None and self.sample is not None
        n, sample = self.n, self.sample
        root = np.random.SeedSequence(seed)
        rngs, seat_rngs, env_seeds = [], [], []
        for t in range(self.num_envs):
            seq = np.random.SeedSequence(root.entropy, spawn_key=(t,))
            g = np.random.default_rng(seq)
            rngs.append(g)
            seat_rngs.append([np.random.default_rng(c) for c in seq.spawn(n)])
            env_seeds.append(int(g.integers(2**31)))

        def deal(t: int) -> tuple[int, int]:
            g = rngs[t]
            seat = int(g.integers(n))
            return seat, int(sample(t, g))

        return Members(list(self.members.bots), deal, _SeatUniforms(seat_rngs), list(self.members.names)), {
            "table_seeds": env_seeds}

    def _observe(self) -> None:
        bt = self.bt
        assert bt is not None
        bt._fill_checked(bt._all_rows, self.views)  # fill_views(None, ...) without its argument checks (ours)
        self.encoder.observe(self.obs, self.masks, self.amounts)

    def _report(self) -> None:
        """Tell the opponent source every hand that finished (member 0: the source's only one): the
        hands the learner never acted in (the core's ``learner_walks``, each worth the table's
        ``walk_reward`` over their count) and the one it decided in."""
        bt = self.bt
        assert bt is not None
        if self.members is not None:
            self._report_members(bt)
            return
        if self.record is None:
            return
        walks, decided = bt.learner_walks, bt.learner_done
        walked = np.flatnonzero(walks)
        if self.record_many is not None:
            played = bt.learner_reward[decided > 0] * self.scale
            if walked.size:
                walk_each = bt.walk_reward[walked] / walks[walked] * self.scale
                played = np.concatenate([np.repeat(walk_each, walks[walked]), played])
            self.record_many(0, played)
            return
        walk_each = bt.walk_reward[walked] / walks[walked] * self.scale
        each = dict(zip(walked.tolist(), walk_each.tolist(), strict=True))
        for t in np.flatnonzero(bt.terminated).tolist():
            for _ in range(int(walks[t])):
                self.record(0, each[t])
            if decided[t]:
                self.record(0, float(bt.learner_reward[t]) * self.scale)


    def _report_members(self, bt: BatchedTables) -> None:
        """Tell the source each member's finished hands (the core's ``hand_log``, in settling order)."""
        log = bt.hand_log
        by: dict[int, list[float]] = {}
        for member, payoff, _decided in log:
            by.setdefault(member, []).append(payoff * self.scale)
        log.clear()  # (emptied even for a source that records nothing: the log would grow for ever)
        if self.record is None:
            return
        for member in sorted(by):
            if self.record_many is not None:
                self.record_many(member, np.array(by[member]))
            else:
                assert self.record is not None
                for p in by[member]:
                    self.record(member, p)


class _SeatUniforms:
    """The opponents' uniforms of each (table, seat) from that seat's generator, read ahead in blocks:
    ``self(rows, seats, k)`` gives row ``i`` the next ``k`` numbers of ``seat_rngs[rows[i]][seats[i]]``,
    the same numbers as ``seat_rngs[t][s].random(k)`` call by call (a generator's ``random(m)`` is its
    next ``m`` draws, however they are split), with one generator call per ``block`` draws instead of
    one (and an array) per decision."""

    def __init__(self, seat_rngs: list[list[np.random.Generator]], block: int = 64) -> None:
        self.rngs = [g for seats in seat_rngs for g in seats]  # flat: table * seats + seat
        self.n = len(seat_rngs[0]) if seat_rngs else 0
        self.block = block
        self.ahead: list[Iterator[float]] = [iter(()) for _ in self.rngs]  # each generator's numbers read ahead

    def __call__(self, rows: np.ndarray, seats: np.ndarray, k: int) -> np.ndarray:
        out: list[float] = []
        if k:
            ahead, n = self.ahead, self.n
            for t, s in zip(rows.tolist(), seats.tolist(), strict=True):
                f = t * n + s
                it = ahead[f]
                for _ in range(k):
                    x = next(it, None)
                    if x is None:
                        it = ahead[f] = iter(self.rngs[f].random(self.block).tolist())
                        x = next(it)
                    out.append(x)
        return np.array(out, dtype=np.float64).reshape(len(rows), k)


def check_learner_actions(actions: Any, num_envs: int) -> np.ndarray:
    """``actions`` as ``num_envs`` integer ids, else the vector env's IllegalActionError."""
    acts = np.asarray(actions)
    if acts.shape != (num_envs,) or not np.issubdtype(acts.dtype, np.integer):
        raise IllegalActionError(f"actions must be {num_envs} integer action ids, got shape {acts.shape}")
    return acts


def refuse(why: str) -> ConfigError:
    """The error for ``backend="batched"`` where the batched backend cannot run."""
    return ConfigError("backend", "batched", f"cannot run here: {why}")
