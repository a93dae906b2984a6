"""The vector env's batched backend: every table in one :class:`~holdem_env.batched.BatchedTables`, observed by the batched encoder.

:class:`HoldemVectorEnv <holdem_env.env.vector.HoldemVectorEnv>` uses it when every opponent decides in
batch (one member with ``decide(views, uniforms)``; see :func:`batched_plan`): the core steps all
tables in C and plays the opponents' seats inside, :meth:`BatchedTables.fill_views` writes the learner's
views, and :mod:`holdem_env.batched.encode` writes its observations and masks into preallocated arrays
(the same bytes ``nlhe_v1`` gives at those decisions). What differs from the per-table backend is
documented in the vector env's module docstring (no ``final_obs``, the core's own seeding).

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

from typing import Any

import numpy as np

from holdem_env.batched import BatchedTables, Members
from holdem_env.batched import encode as enc
from holdem_env.batched.views import BatchViews
from holdem_env.engine.config import BettingStructure
from holdem_env.engine.errors import ConfigError, IllegalActionError

__all__ = ["batched_plan", "BatchedBackend", "CORE_KWARGS"]

#: The ``nlhe_v1`` keyword arguments the batched backend supports (any other one keeps the per-table backend).
CORE_KWARGS = frozenset(
    {"num_players", "small_blind", "big_blind", "ante", "buy_in", "betting", "action_mode", "bet_sizes", "max_stack",
     "reward_unit", "illegal_action", "info_mode", "pad_seats"}
)


def batched_plan(opponents: Any, probe: Any, env_kwargs: dict[str, Any], next_step: bool) -> tuple[Any, str]:
    """``(bot, "")`` when these settings can run on the batched core with ``bot`` in every other seat,
    else ``(None, why not)``. ``probe``: an ``nlhe_v1.raw_env`` built from ``env_kwargs`` (checked settings)."""
    if next_step:
        return None, "NEXT_STEP autoreset shows each finished hand's last observation, which the batched core does not keep"
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


class BatchedBackend:
    """``num_envs`` tables on one :class:`BatchedTables`: the learner's seat is drawn at every hand, ``bot``
    plays every other seat, and each step writes the learner's observations and masks in place."""

    def __init__(self, num_envs: int, probe: Any, bot: Any, opponents: Any) -> None:
        config = probe.config
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
        self.learner_steps = 0
        #: extra BatchedTables keyword arguments for the next reset (tests set ``record=True``)
        self.core_options: dict[str, Any] = {}

    # -- what the vector env calls ---------------------------------------------------------------
    def reset(self, seed: int | None) -> None:
        """New tables from ``seed`` (``None``: fresh entropy), played to the learner's first decisions."""
        core_seed = int(np.random.SeedSequence().entropy) if seed is None else int(seed)  # type: ignore[arg-type]
        opponents: Members | dict[str, Any]
        if self.members is not None:
            opponents, more = self._seeded_members(seed)
        else:
            opponents, more = {"others": self.bot}, {}
        self.bt = BatchedTables(
            self.num_envs, self.n, self.sb, self.bb, self.buy_in, seed=core_seed, ante=self.ante,
            opponents=opponents, random_learner_seat=True, **more, **self.core_options,
        )
        self.learner_steps = 0
        self._report()
        self._observe()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Apply the learner's ids (checked against the masks last returned); ``(rewards, done)``."""
        bt = self.bt
        assert bt is not None  # reset() first (the vector env checks)
        try:
            exact = enc.exact_actions(self.views, actions, self.mode, bet_sizes=self.bet_sizes, amounts=self.amounts)
        except IllegalActionError as e:
            raise IllegalActionError(str(e).replace("row ", "table ", 1).replace(": action", ": the learner's action", 1)) from None
        bt.step(exact)
        self.learner_steps += 1
        done = bt.learner_done.astype(bool)
        rewards = bt.learner_reward * self.scale
        self._report()
        self._observe()
        return rewards, done

    def observations(self) -> dict[str, np.ndarray]:
        """The caller's copies of the observations and masks last written."""
        return {"observation": self.obs.copy(), "action_mask": self.masks.copy()}

    @property
    def seats(self) -> np.ndarray:
        """The learner's seat at every table this hand."""
        assert self.bt is not None
        return self.bt.learner.copy()

    @property
    def opponent_members(self) -> np.ndarray:
        """The member playing the other seats at every table this hand (0 with one bot)."""
        assert self.bt is not None
        return self.bt.member.copy() if self.members is not None else np.zeros(self.num_envs, dtype=np.int64)

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

        def uniforms(rows: np.ndarray, seats: np.ndarray, k: int) -> np.ndarray:
            if k == 0:
                return np.empty((len(rows), 0))
            return np.array([seat_rngs[t][s].random(k) for t, s in zip(rows.tolist(), seats.tolist(), strict=True)])

        return Members(list(self.members.bots), deal, uniforms, list(self.members.names)), {"table_seeds": env_seeds}

    def _observe(self) -> None:
        bt = self.bt
        assert bt is not None
        bt.fill_views(None, self.views)
        views = self.views
        enc.encode_observations(views, self.obs, pad_seats=self.pad)
        if self.mode == "exact":
            enc.legal_masks(views, "exact", self.masks)
        else:
            enc.discrete_amounts(views, self.bet_sizes, self.amounts)
            enc.legal_masks(views, "discrete", self.masks, bet_sizes=self.bet_sizes, amounts=self.amounts)

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
        walk_each = bt.walk_reward[walked] / walks[walked] * self.scale
        if self.record_many is not None:
            played = bt.learner_reward[decided > 0] * self.scale
            self.record_many(0, np.concatenate([np.repeat(walk_each, walks[walked]), played]))
            return
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


def check_learner_actions(actions: Any, num_envs: int) -> np.ndarray:
    """``actions`` as ``num_envs`` integer ids, else the vector env's IllegalActionError."""
    acts = np.asarray(actions)
    if acts.shape != (num_envs,) or not np.issubdtype(acts.dtype, np.integer):
        raise IllegalActionError(f"actions must be {num_envs} integer action ids, got shape {acts.shape}")
    return acts


def refuse(why: str) -> ConfigError:
    """The error for ``backend="batched"`` where the batched backend cannot run."""
    return ConfigError("backend", "batched", f"cannot run here: {why}")
