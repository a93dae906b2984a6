"""PPO with action masks for ``nlhe_v1``, in one file that reads top to bottom (after CleanRL's ``ppo.py``).

Run it::

    python -m holdem_env.training.ppo --config configs/ppo_hu.yaml [--resume]

The pieces, in the order a run uses them:

1. **Config** -- :class:`PpoSettings` (hyper-parameters, network, opponents, pool) and
   :class:`PpoRunConfig` (name, seed, table, rounds, where the policy goes), read from YAML
   and validated; every error names its key.
2. **Seeding** -- ``torch.manual_seed(seed)`` before the network is built,
   ``torch.use_deterministic_algorithms(True)``, one torch thread, and per round one numpy
   generator ``SeedSequence(seed, spawn_key=(round,))`` for the tables, the action draws and
   the minibatch order. A run is identical for a seed, and resuming from a round's
   checkpoint gives the identical policy (each round starts a fresh vector env).
3. **Env** -- :class:`holdem_env.env.vector.HoldemVectorEnv`: ``num_envs`` tables seen by the
   learner, which takes a uniformly drawn seat every hand; the other seats are played by
   the :class:`holdem_env.training.pool.OpponentPool` member drawn for that hand (fixed agents
   plus snapshots of the learner every ``snapshot_every`` iterations, sampled with priority
   to those it does worst against).
4. **Network** -- :class:`holdem_env.agents.ppo.ActorCritic` over the scaled observation and
   the engineered features of :mod:`holdem_env.agents.features`; masked ids get logit -1e9.
5. **Rollout** -- :func:`collect_rollout`: ``num_steps`` learner decisions per table, actions
   sampled from the masked policy, rewards (big blinds times ``reward_scale``) at hand ends,
   hands as episodes. In this process (:class:`LocalRollouts`) or, with ``num_workers: W``
   > 1, split over W worker processes (:class:`RolloutWorkers`) that get the network and the
   pool every iteration and send back their rollouts and finished hands -- sampling on W
   cores. A run is the same for a seed and a number of workers; a different number of
   workers is a different (equally valid) run. ``overlap: true`` lets the workers sample
   the next rollout, with the network from before the update, while this process updates
   (one iteration of policy lag, as in asynchronous PPO variants: the clipped ratio is taken
   to the log-probabilities the actions were drawn with); also reproducible for a seed.
6. **Advantages** -- :func:`compute_gae` (generalised advantage estimation, ``gamma``,
   ``gae_lambda``), returns = advantages + values.
7. **Update** -- :func:`ppo_update`: ``update_epochs`` passes over shuffled minibatches of the
   clipped surrogate objective, value loss, entropy bonus, advantage normalisation per
   minibatch and gradient clipping at ``max_grad_norm``.
8. **Logging** -- TensorBoard scalars ``losses/policy_loss``, ``losses/value_loss``,
   ``losses/entropy``, ``losses/approx_kl``, ``losses/clipfrac``,
   ``losses/explained_variance``, ``charts/SPS`` (learner decisions per second of the
   round) and ``pool/<member>/mbb_per_hand`` (the rolling result against each member) and
   ``pool/<member>/weight``; the step is the learner's decision count.
9. **Checkpoint** -- after every round ``<run>/checkpoint.pt`` (network, optimiser, pool,
   counters) and the policy file ``<run>/policy.pt`` (and ``policy_out`` when set).

:class:`PpoLearner` holds steps 2-7 so that the league (``train: true`` for a ``ppo`` agent)
can train one round at a time; :func:`run` is the stand-alone loop.
"""

from __future__ import annotations

import argparse
import copy
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from holdem_env.agents.ppo import ActorCritic, PolicyConfig, PpoPolicy, sample_actions
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, HoldemError
from holdem_env.env.vector import HoldemVectorEnv
from holdem_env.fileutil import atomic_write_bytes, atomic_write_text
from holdem_env.signals import exit_on_sigterm

from .pool import OpponentPool

__all__ = [
    "PpoSettings",
    "PpoRunConfig",
    "PpoLearner",
    "LeaguePpoSettings",
    "LeaguePpoLearner",
    "RoundStats",
    "compute_gae",
    "ppo_loss",
    "ppo_update",
    "load_run_config",
    "run",
    "main",
]


# -- 1. config ------------------------------------------------------------------------------------
def _num(key: str, v: object, lo: float, hi: float, integer: bool = False, lo_open: bool = False) -> Any:
    if (
        isinstance(v, bool)
        or not isinstance(v, (int, float))
        or (integer and not isinstance(v, int))
        or not math.isfinite(v)
        or not lo <= v <= hi
        or (lo_open and v == lo)
    ):
        kind = "an integer" if integer else "a number"
        bound = f"in ({lo}, {hi}]" if lo_open else f"in {lo}..{hi}"
        raise ConfigError(key, v, f"must be {kind} {bound}")
    return int(v) if integer else float(v)


@dataclass(frozen=True)
class PpoSettings:
    """PPO hyper-parameters, the network, and the opponent pool (keys of the ``ppo:`` section)."""

    num_envs: int = 16
    num_steps: int = 64
    learning_rate: float = 3e-4
    gamma: float = 1.0
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    norm_adv: bool = True
    reward_scale: float = 0.1
    hidden: tuple[int, ...] = (128, 128)
    features: bool = True
    opponents: tuple[str, ...] = ("random", "tag")
    snapshot_every: int = 20
    max_snapshots: int = 4
    pool_window: int = 2000
    pool_temperature: float = 300.0
    pool_uniform_share: float = 0.2
    num_workers: int = 1
    overlap: bool = False

    def __post_init__(self) -> None:
        p = "ppo."
        _num(p + "num_envs", self.num_envs, 1, 4096, integer=True)
        _num(p + "num_steps", self.num_steps, 1, 100_000, integer=True)
        _num(p + "learning_rate", self.learning_rate, 0.0, 1.0, lo_open=True)
        _num(p + "gamma", self.gamma, 0.0, 1.0)
        _num(p + "gae_lambda", self.gae_lambda, 0.0, 1.0)
        _num(p + "num_minibatches", self.num_minibatches, 1, self.num_envs * self.num_steps, integer=True)
        _num(p + "update_epochs", self.update_epochs, 1, 1000, integer=True)
        _num(p + "clip_coef", self.clip_coef, 0.0, 10.0, lo_open=True)
        _num(p + "ent_coef", self.ent_coef, 0.0, 10.0)
        _num(p + "vf_coef", self.vf_coef, 0.0, 100.0)
        _num(p + "max_grad_norm", self.max_grad_norm, 0.0, 1e6, lo_open=True)
        if not isinstance(self.norm_adv, bool):
            raise ConfigError(p + "norm_adv", self.norm_adv, "must be true or false")
        _num(p + "reward_scale", self.reward_scale, 0.0, 1e6, lo_open=True)
        try:
            PolicyConfig(hidden=self.hidden, features=self.features)
        except ConfigError as exc:
            raise ConfigError(p + exc.field, exc.value, exc.allowed) from None
        object.__setattr__(self, "hidden", tuple(self.hidden))
        opp = self.opponents
        if isinstance(opp, str) or not isinstance(opp, (list, tuple)) or not all(isinstance(s, str) for s in opp):
            raise ConfigError(p + "opponents", opp, "must be a list of agent specs, e.g. [random, tag]")
        object.__setattr__(self, "opponents", tuple(opp))
        _num(p + "snapshot_every", self.snapshot_every, 0, 10**9, integer=True)
        _num(p + "max_snapshots", self.max_snapshots, 0, 1000, integer=True)
        _num(p + "pool_window", self.pool_window, 1, 10**9, integer=True)
        _num(p + "pool_temperature", self.pool_temperature, 0.0, 1e9, lo_open=True)
        _num(p + "pool_uniform_share", self.pool_uniform_share, 0.0, 1.0)
        _num(p + "num_workers", self.num_workers, 1, min(64, self.num_envs), integer=True)
        if not isinstance(self.overlap, bool):
            raise ConfigError(p + "overlap", self.overlap, "must be true or false")
        if self.overlap and self.num_workers < 2:
            raise ConfigError(p + "overlap", self.overlap, "needs num_workers >= 2 (the workers sample while this process updates)")

    @property
    def batch_size(self) -> int:
        """Learner decisions per iteration (``num_envs * num_steps``)."""
        return self.num_envs * self.num_steps

    def to_dict(self) -> dict[str, Any]:
        """Plain form (YAML-ready)."""
        d = asdict(self)
        d["hidden"], d["opponents"] = list(self.hidden), list(self.opponents)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, section: str = "ppo") -> PpoSettings:
        """Build from a YAML mapping; an unknown key is a :class:`ConfigError` naming it."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise ConfigError(f"{section}.{key}", data[key], f"unknown key; allowed: {', '.join(sorted(known))}")
        return cls(**data)


@dataclass(frozen=True)
class PpoRunConfig:
    """A stand-alone training run (the YAML file of ``configs/ppo_hu.yaml``)."""

    name: str
    seed: int = 0
    table: TableConfig = field(default_factory=lambda: TableConfig(num_players=2))
    ppo: PpoSettings = field(default_factory=PpoSettings)
    rounds: int = 10
    iterations_per_round: int = 10
    runs_dir: str = "runs"
    policy_out: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip() or "/" in self.name:
            raise ConfigError("name", self.name, "must be a non-empty name without '/' (it names the run folder)")
        _num("seed", self.seed, 0, 2**63 - 1, integer=True)
        _num("rounds", self.rounds, 1, 10**9, integer=True)
        _num("iterations_per_round", self.iterations_per_round, 1, 10**9, integer=True)
        if self.table.betting.value != "no-limit":
            raise ConfigError("table.betting", self.table.betting.value, "must be no-limit for the ppo learner")

    def to_dict(self) -> dict[str, Any]:
        """Plain form (YAML-ready), stored in checkpoints to refuse a resume under another config."""
        return {
            "name": self.name, "seed": self.seed, "table": self.table.to_dict(), "ppo": self.ppo.to_dict(),
            "rounds": self.rounds, "iterations_per_round": self.iterations_per_round,
            "runs_dir": self.runs_dir, "policy_out": self.policy_out,
        }


def load_run_config(path: str | Path) -> PpoRunConfig:
    """Read and validate a stand-alone run's YAML file."""
    import yaml

    p = Path(path)
    if not p.is_file():
        raise ConfigError("config", str(p), "must be an existing YAML file, e.g. configs/ppo_hu.yaml")
    data = yaml.safe_load(p.read_text())
    if not isinstance(data, Mapping):
        raise ConfigError("config", str(p), "must be a YAML mapping with at least 'name'")
    known = {f.name for f in fields(PpoRunConfig)}
    for key in data:
        if key not in known:
            raise ConfigError(str(key), data[key], f"unknown key; allowed: {', '.join(sorted(known))}")
    try:
        table = TableConfig.from_dict(dict(data.get("table", {"num_players": 2})))
    except ConfigError as exc:
        raise ConfigError(f"table.{exc.field}", exc.value, exc.allowed) from None
    rest = {k: v for k, v in data.items() if k not in ("table", "ppo")}
    return PpoRunConfig(table=table, ppo=PpoSettings.from_dict(data.get("ppo")), **rest)


# -- 6. advantages --------------------------------------------------------------------------------
def compute_gae(
    rewards: np.ndarray, values: np.ndarray, terminated: np.ndarray, next_value: np.ndarray, gamma: float, lam: float
) -> tuple[np.ndarray, np.ndarray]:
    """Generalised advantage estimates and returns for a ``(T, N)`` rollout.

    ``terminated[t]`` says that the transition of step ``t`` ended its episode (its reward
    is the last of the hand, and step ``t + 1`` starts a new one); ``next_value`` ``(N,)``
    is the value of the observation after the last step. Returns ``(advantages, returns)``.

    >>> import numpy as np
    >>> adv, ret = compute_gae(np.array([[0.0], [1.0]]), np.array([[0.5], [0.5]]),
    ...                        np.array([[False], [True]]), np.array([9.0]), gamma=1.0, lam=0.5)
    >>> adv.ravel().tolist(), ret.ravel().tolist()
    ([0.25, 0.5], [0.75, 1.0])
    """
    steps = rewards.shape[0]
    adv = np.zeros_like(values, dtype=np.float64)
    last = np.zeros(values.shape[1:], dtype=np.float64)
    for t in reversed(range(steps)):
        nonterminal = 1.0 - terminated[t].astype(np.float64)
        next_v = next_value if t == steps - 1 else values[t + 1]
        delta = rewards[t] + gamma * next_v * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv, adv + values


# -- 7. update ------------------------------------------------------------------------------------
def ppo_loss(
    model: ActorCritic, batch: Mapping[str, torch.Tensor], settings: PpoSettings
) -> tuple[torch.Tensor, dict[str, float]]:
    """The PPO loss on one minibatch (clipped surrogate + ``vf_coef`` * value loss - ``ent_coef`` * entropy).

    ``batch``: ``x`` (inputs), ``masks``, ``actions``, ``logprobs`` (at sampling), ``advantages``,
    ``returns``. Returns the loss and its parts (``policy_loss``, ``value_loss``, ``entropy``,
    ``approx_kl``, ``clipfrac``).
    """
    logits, values = model(batch["x"], batch["masks"])
    logp_all = torch.log_softmax(logits, dim=-1)
    logp = logp_all.gather(1, batch["actions"][:, None]).squeeze(1)
    probs = logp_all.exp()
    entropy = -(probs * torch.where(probs > 0, logp_all, torch.zeros_like(logp_all))).sum(-1).mean()
    logratio = logp - batch["logprobs"]
    ratio = logratio.exp()
    adv = batch["advantages"]
    if settings.norm_adv and adv.numel() > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - settings.clip_coef, 1 + settings.clip_coef)).mean()
    v_loss = 0.5 * ((values - batch["returns"]) ** 2).mean()
    loss = pg_loss - settings.ent_coef * entropy + settings.vf_coef * v_loss
    with torch.no_grad():
        approx_kl = ((ratio - 1) - logratio).mean().item()
        clipfrac = ((ratio - 1.0).abs() > settings.clip_coef).float().mean().item()
    return loss, {
        "policy_loss": pg_loss.item(), "value_loss": v_loss.item(), "entropy": entropy.item(),
        "approx_kl": approx_kl, "clipfrac": clipfrac,
    }


def ppo_update(
    model: ActorCritic,
    optimizer: torch.optim.Optimizer,
    batch: Mapping[str, torch.Tensor],
    settings: PpoSettings,
    rng: np.random.Generator,
) -> dict[str, float]:
    """``update_epochs`` passes of shuffled minibatches (order from ``rng``); mean loss parts of the last epoch."""
    n = batch["x"].shape[0]
    size = max(1, n // settings.num_minibatches)
    parts: dict[str, list[float]] = {}
    for _ in range(settings.update_epochs):
        parts = {}
        order = rng.permutation(n)
        for start in range(0, n, size):
            idx = torch.from_numpy(order[start : start + size])
            loss, stats = ppo_loss(model, {k: v[idx] for k, v in batch.items()}, settings)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), settings.max_grad_norm)
            optimizer.step()
            for k, v in stats.items():
                parts.setdefault(k, []).append(v)
    return {k: float(np.mean(v)) for k, v in parts.items()}


# -- 5. rollout ----------------------------------------------------------------------------------
@dataclass
class Rollout:
    """``num_steps`` learner decisions at each of N tables: arrays ``(T, N, ...)``, and the value
    of the observation after the last step (``next_value``, ``(N,)``)."""

    xs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    logprobs: np.ndarray
    values: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    next_value: np.ndarray

    @staticmethod
    def join(parts: Sequence[Rollout]) -> Rollout:
        """The tables of several rollouts side by side (in order)."""
        arrays = [[getattr(p, f.name) for p in parts] for f in fields(Rollout)]
        return Rollout(*(np.concatenate(a, axis=min(1, a[0].ndim - 1)) for a in arrays))


def collect_rollout(
    model: ActorCritic, encoder: PpoPolicy, venv: HoldemVectorEnv, obs: dict[str, np.ndarray], steps: int,
    rng: np.random.Generator, reward_scale: float,
) -> tuple[Rollout, dict[str, np.ndarray]]:
    """Step ``venv`` ``steps`` times with actions drawn from ``model``'s masked policy (one
    uniform draw each from ``rng``); returns the rollout and the observations after it."""
    n = venv.num_envs
    cfg = encoder.config
    ro = Rollout(
        xs=np.zeros((steps, n, cfg.input_size), dtype=np.float32),
        masks=np.zeros((steps, n, cfg.num_actions), dtype=np.int8),
        actions=np.zeros((steps, n), dtype=np.int64),
        logprobs=np.zeros((steps, n), dtype=np.float32),
        values=np.zeros((steps, n), dtype=np.float64),
        rewards=np.zeros((steps, n), dtype=np.float64),
        terminated=np.zeros((steps, n), dtype=bool),
        next_value=np.zeros(n, dtype=np.float64),
    )
    for step in range(steps):
        x = encoder.encode(obs["observation"])
        mask = obs["action_mask"]
        with torch.no_grad():
            logits, value = model(torch.from_numpy(x), torch.from_numpy(mask.astype(np.int64)))
            logp_all = torch.log_softmax(logits.double(), dim=-1).numpy()
        act = sample_actions(np.exp(logp_all), mask, [rng] * n)
        ro.xs[step], ro.masks[step], ro.actions[step] = x, mask, act
        ro.logprobs[step] = logp_all[np.arange(n), act]
        ro.values[step] = value.numpy()
        obs, reward, term, _, _ = venv.step(act)
        ro.rewards[step] = reward * reward_scale
        ro.terminated[step] = term
    with torch.no_grad():
        ro.next_value = model.value(torch.from_numpy(encoder.encode(obs["observation"]))).double().numpy()
    return ro, obs


class LocalRollouts:
    """One round's tables in this process (``num_workers: 1``); draws from the round's generator."""

    def __init__(self, learner: PpoLearner, rng: np.random.Generator) -> None:
        self.learner, self.rng = learner, rng
        learner.pool.reset_agents()
        self.venv = learner._env()
        self.encoder = PpoPolicy(learner.policy_config, learner.model)  # shares the live network
        self.obs, _ = self.venv.reset(seed=int(rng.integers(2**31)))

    def collect(self) -> Rollout:
        """The next ``num_steps`` decisions at every table."""
        s = self.learner.settings
        ro, self.obs = collect_rollout(self.learner.model, self.encoder, self.venv, self.obs, s.num_steps,
                                       self.rng, s.reward_scale)
        return ro

    def close(self) -> None:
        """Close the round's tables."""
        self.venv.close()


class _RecordingPool:
    """An opponent source that passes everything to a pool and keeps the records it was given."""

    def __init__(self, pool: OpponentPool) -> None:
        self.pool = pool
        self.records: list[tuple[int, float]] = []

    def sample(self, table: int, rng: np.random.Generator) -> int:
        return self.pool.sample(table, rng)

    def agent(self, member: int, table: int, seat: int) -> Any:
        return self.pool.agent(member, table, seat)

    def record(self, member: int, payoff: float) -> None:
        self.records.append((member, payoff))
        self.pool.record(member, payoff)


def _rollout_worker(conn: Any, setup: dict[str, Any]) -> None:
    """A worker process's loop: its share of the tables, a copy of the network and of the pool.

    Messages: ``("round", r)`` starts round ``r`` (its tables seeded by (seed, r, 1 + shard));
    ``("collect", weights, pool_state)`` loads the learner's network and pool (then, at a
    round's first collect, deals the tables), plays, and answers ``("ok", rollout, records)``
    (``records``: the hands it finished, for the learner's pool); ``("close",)`` ends. Any
    error is answered ``("error", text)``.
    """
    import traceback

    try:
        settings = PpoSettings.from_dict(
            {**setup["settings"], "num_envs": setup["tables"], "num_workers": 1, "overlap": False}
        )
        learner = PpoLearner(settings, setup["table"], setup["seed"], name=setup["name"],
                             extra_opponents=setup["extra_opponents"])
        source = _RecordingPool(learner.pool)
        encoder = PpoPolicy(learner.policy_config, learner.model)
        venv: HoldemVectorEnv | None = None
        obs: dict[str, np.ndarray] = {}
        rng = np.random.default_rng(0)
        while True:
            msg = conn.recv()
            if msg[0] == "close":
                break
            if msg[0] == "round":
                if venv is not None:
                    venv.close()
                    venv = None
                rng = np.random.default_rng(np.random.SeedSequence(learner.seed, spawn_key=(msg[1], 1 + setup["shard"])))
                conn.send(("ok",))
                continue
            learner.model.load_state_dict({k: torch.from_numpy(v) for k, v in msg[1].items()})
            learner.pool.load_state_dict(msg[2])
            source.records = []
            if venv is None:  # the round's tables start from the learner's network and pool, not this copy's last ones
                venv = learner._env(setup["tables"], source)
                obs, _ = venv.reset(seed=int(rng.integers(2**31)))
            ro, obs = collect_rollout(learner.model, encoder, venv, obs, settings.num_steps, rng, settings.reward_scale)
            conn.send(("ok", ro, source.records))
    except (EOFError, KeyboardInterrupt):
        return
    except BaseException:  # everything goes back to the learner, which raises it
        conn.send(("error", traceback.format_exc()))


class RolloutWorkers:
    """``num_workers`` processes, each stepping its share of the tables with a copy of the network.

    Every iteration the learner sends its network and its pool (snapshots and rolling
    results), each worker plays ``num_steps`` decisions at its tables, and the learner joins
    the rollouts (tables in worker order) and records the hands in the same order, so a run is
    the same for a seed and a number of workers (not the same as with one worker: the tables
    are seeded per worker). The processes live until :meth:`close` (the learner's ``close``).
    """

    def __init__(self, learner: PpoLearner) -> None:
        import multiprocessing as mp

        self.learner = learner
        s = learner.settings
        ctx = mp.get_context("spawn")
        shares = np.array_split(np.arange(s.num_envs), s.num_workers)
        self._conns: list[Any] = []
        self._procs: list[Any] = []
        self._pending = False  # a request whose answers have not been received
        for k, share in enumerate(shares):
            setup = {
                "settings": s.to_dict(),
                "table": learner.table, "seed": learner.seed, "name": learner.name,
                "extra_opponents": learner.extra_opponents, "tables": len(share), "shard": k,
            }
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_rollout_worker, args=(child, setup), daemon=True, name=f"ppo-rollout-{k}")
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)

    def _gather(self) -> list[tuple[Any, ...]]:
        answers = []
        for k, conn in enumerate(self._conns):
            try:
                answer = conn.recv()
            except (EOFError, OSError):
                self._procs[k].join(timeout=5)
                raise HoldemError(
                    f"ppo rollout worker {k} died (exit code {self._procs[k].exitcode}); with num_workers > 1 a "
                    "script that trains must guard its entry point with `if __name__ == \"__main__\":`"
                ) from None
            if answer[0] == "error":
                raise HoldemError(f"ppo rollout worker {k} failed:\n{answer[1]}")
            answers.append(answer)
        return answers

    def start_round(self, round_no: int) -> None:
        """Fresh tables for round ``round_no`` in every worker (a rollout still on its way,
        asked for by an interrupted round, is received and dropped first)."""
        if self._pending:
            self._pending = False
            self._gather()
        for conn in self._conns:
            conn.send(("round", round_no))
        self._gather()

    def request(self) -> None:
        """Send the network and the pool as they are now; the workers start their next ``num_steps``
        decisions (:meth:`receive` gets them; the learner may update meanwhile)."""
        # Copies as numpy arrays: a tensor would travel as a handle to shared memory, and the
        # update that runs meanwhile (``overlap``) would change what the workers read.
        weights = {k: v.detach().numpy().copy() for k, v in self.learner.model.state_dict().items()}
        pool_state = self.learner.pool.state_dict()
        for conn in self._conns:
            conn.send(("collect", weights, pool_state))
        self._pending = True

    def collect(self) -> Rollout:
        """Every worker's next ``num_steps`` decisions, joined; their hands recorded in the learner's pool."""
        self.request()
        return self.receive()

    def receive(self) -> Rollout:
        """The rollouts :meth:`request` asked for, joined; their hands recorded in the learner's pool."""
        self._pending = False
        answers = self._gather()
        for _, _, records in answers:
            for member, payoff in records:
                self.learner.pool.record(member, payoff)
        return Rollout.join([a[1] for a in answers])

    def close(self) -> None:
        """Stop the workers."""
        for conn in self._conns:
            try:
                conn.send(("close",))
            except (BrokenPipeError, OSError):
                pass
        for proc in self._procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []


# -- 2-7. the learner -----------------------------------------------------------------------------
@dataclass
class RoundStats:
    """What one round of training did (means over its iterations)."""

    iterations: int
    decisions: int
    seconds: float
    losses: dict[str, float]
    pool: dict[str, float | None]
    weights: dict[str, float]

    @property
    def sps(self) -> float:
        """Learner decisions per second."""
        return self.decisions / self.seconds if self.seconds > 0 else 0.0


class PpoLearner:
    """A PPO learner for one table size: network, optimiser, opponent pool, counters.

    ``extra_opponents``: ``(name, spec)`` members added to the pool after the settings'
    opponents (the league passes its other agents). Call :meth:`train_round` repeatedly.
    """

    def __init__(
        self,
        settings: PpoSettings,
        table: TableConfig,
        seed: int,
        *,
        name: str = "ppo",
        extra_opponents: Sequence[tuple[str, str]] = (),
    ) -> None:
        if table.betting.value != "no-limit":
            raise ConfigError("table.betting", table.betting.value, "must be no-limit for the ppo learner")
        self.settings, self.table, self.seed, self.name = settings, table, seed, name
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
        torch.manual_seed(seed)
        self.policy_config = PolicyConfig(
            num_players=table.num_players, stack_bb=table.buy_in / table.big_blind,
            features=settings.features, hidden=settings.hidden,
        )
        self.model = ActorCritic(self.policy_config)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=settings.learning_rate, eps=1e-5)
        names = list(settings.opponents) + [n for n, _ in extra_opponents]
        specs = list(settings.opponents) + [s for _, s in extra_opponents]
        self.pool = OpponentPool(
            specs, names=names, max_snapshots=settings.max_snapshots, window=settings.pool_window,
            temperature=settings.pool_temperature, uniform_share=settings.pool_uniform_share,
        )
        self.iteration = 0
        self.global_step = 0
        self.rounds_done = 0
        self.extra_opponents = tuple(extra_opponents)
        self._workers: RolloutWorkers | None = None

    def close(self) -> None:
        """Stop the rollout worker processes (``num_workers`` > 1); training again restarts them."""
        if self._workers is not None:
            self._workers.close()
            self._workers = None

    def policy(self, metadata: Mapping[str, Any] | None = None) -> PpoPolicy:
        """A frozen copy of the current network as a :class:`PpoPolicy`."""
        meta = {"learner": self.name, "iteration": self.iteration, "decisions": self.global_step, "seed": self.seed}
        return PpoPolicy(self.policy_config, copy.deepcopy(self.model), {**meta, **dict(metadata or {})})

    def _env(self, num_envs: int | None = None, opponents: Any = None) -> HoldemVectorEnv:
        t = self.table
        return HoldemVectorEnv(
            num_envs or self.settings.num_envs, opponents or self.pool, num_players=t.num_players,
            small_blind=t.small_blind,
            big_blind=t.big_blind, ante=t.ante, buy_in=t.buy_in, action_mode="discrete",
            bet_sizes=self.policy_config.bet_sizes, reward_unit="bb",
        )

    def train_round(self, iterations: int, round_no: int, writer: Any = None) -> RoundStats:
        """Run ``iterations`` PPO iterations on fresh tables seeded by (seed, ``round_no``)."""
        s = self.settings
        rng = np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(round_no,)))
        if s.num_workers > 1:
            if self._workers is None:
                self._workers = RolloutWorkers(self)
            sampler: LocalRollouts | RolloutWorkers = self._workers
            self._workers.start_round(round_no)
        else:
            sampler = LocalRollouts(self, rng)
        t_start = time.perf_counter()
        all_stats: list[dict[str, float]] = []
        n, steps = s.num_envs, s.num_steps
        # With ``overlap`` the workers sample the next rollout with the network as it is before
        # this iteration's update, while this process updates: a one-iteration policy lag, which
        # the clipped objective allows for (its ratio is to the log-probabilities the actions were
        # drawn with). A round's last iteration asks for nothing more, so rounds stay independent.
        ahead = sampler if s.overlap and isinstance(sampler, RolloutWorkers) else None
        if ahead is not None:
            ahead.request()
        for it in range(iterations):
            # 5. rollout
            if ahead is not None:
                ro = ahead.receive()
                if it + 1 < iterations:
                    ahead.request()
            else:
                ro = sampler.collect()
            self.global_step += steps * n
            # 6. advantages
            adv, returns = compute_gae(ro.rewards, ro.values, ro.terminated, ro.next_value, s.gamma, s.gae_lambda)
            # 7. update
            self.model.train()
            batch = {
                "x": torch.from_numpy(ro.xs.reshape(steps * n, -1)),
                "masks": torch.from_numpy(ro.masks.reshape(steps * n, -1).astype(np.int64)),
                "actions": torch.from_numpy(ro.actions.reshape(-1)),
                "logprobs": torch.from_numpy(ro.logprobs.reshape(-1)),
                "advantages": torch.from_numpy(adv.reshape(-1).astype(np.float32)),
                "returns": torch.from_numpy(returns.reshape(-1).astype(np.float32)),
            }
            stats = ppo_update(self.model, self.optimizer, batch, s, rng)
            self.model.eval()
            var = float(np.var(returns))
            stats["explained_variance"] = float("nan") if var == 0 else 1.0 - float(np.var(returns - ro.values)) / var
            all_stats.append(stats)
            self.iteration += 1
            if s.snapshot_every and self.iteration % s.snapshot_every == 0:
                self.pool.add_snapshot(f"{self.name}@{self.iteration}", self.policy())
            if writer is not None:
                elapsed = time.perf_counter() - t_start
                for k, v in stats.items():
                    writer.add_scalar(f"losses/{k}", v, self.global_step)
                writer.add_scalar("charts/SPS", len(all_stats) * steps * n / elapsed if elapsed > 0 else 0.0,
                                  self.global_step)
                for (member, res), w in zip(self.pool.results().items(), self.pool.weights(), strict=True):
                    if res is not None:
                        writer.add_scalar(f"pool/{member}/mbb_per_hand", res, self.global_step)
                    writer.add_scalar(f"pool/{member}/weight", w, self.global_step)
        if isinstance(sampler, LocalRollouts):
            sampler.close()
        self.rounds_done = max(self.rounds_done, round_no)
        seconds = time.perf_counter() - t_start
        keys = all_stats[0].keys() if all_stats else ()
        return RoundStats(
            iterations=iterations, decisions=iterations * steps * n, seconds=seconds,
            losses={k: float(np.nanmean([st[k] for st in all_stats])) for k in keys},
            pool=self.pool.results(), weights=dict(zip(self.pool.members, self.pool.weights(), strict=True)),
        )

    # -- 9. checkpoints ---------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """Network, optimiser, pool and counters (what :meth:`load_state_dict` restores)."""
        return {
            "model": copy.deepcopy(self.model.state_dict()),
            "optimizer": copy.deepcopy(self.optimizer.state_dict()),
            "pool": self.pool.state_dict(),
            "iteration": self.iteration,
            "global_step": self.global_step,
            "rounds_done": self.rounds_done,
            "settings": self.settings.to_dict(),
            "policy_config": self.policy_config.to_dict(),
        }

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Continue from :meth:`state_dict` output (of a learner with the same settings)."""
        saved = {"overlap": False, **state["settings"]}  # checkpoints from before ``overlap`` existed
        if saved != self.settings.to_dict() or state["policy_config"] != self.policy_config.to_dict():
            raise ConfigError("ppo", self.name, "the checkpoint was written with other ppo settings or another table")
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.pool.load_state_dict(state["pool"])
        self.iteration = int(state["iteration"])
        self.global_step = int(state["global_step"])
        self.rounds_done = int(state["rounds_done"])

    def save_checkpoint(self, path: str | Path) -> None:
        """Write :meth:`state_dict` atomically."""
        state = self.state_dict()
        atomic_write_bytes(path, lambda fh: torch.save(state, fh))

    def load_checkpoint(self, path: str | Path) -> None:
        """Read a file written by :meth:`save_checkpoint`."""
        self.load_state_dict(torch.load(Path(path), map_location="cpu", weights_only=True))


# -- the league hook ------------------------------------------------------------------------------
@dataclass(frozen=True)
class LeaguePpoSettings(PpoSettings):
    """The league config's ``ppo:`` section: :class:`PpoSettings` plus ``iterations_per_round``.

    In the league the pool's fixed members are ``opponents`` (default none) followed by every
    other league agent that does not train.
    """

    opponents: tuple[str, ...] = ()
    iterations_per_round: int = 10

    def __post_init__(self) -> None:
        super().__post_init__()
        _num("ppo.iterations_per_round", self.iterations_per_round, 0, 10**9, integer=True)


class LeaguePpoLearner:
    """What the league calls for a ``ppo`` agent with ``train: true`` (see :mod:`holdem_env.training.league`).

    ``train_round(round_no, writer)`` trains one round and logs its scalars at step
    ``round_no``; ``save_policy(path)`` writes the policy file; ``save_checkpoint`` /
    ``load_checkpoint`` carry the learner across a resume.
    ``tag_prefix`` goes between the namespace and the scalar name (``""`` for the CleanRL
    names ``losses/policy_loss`` ...; the league passes ``"<agent>/"`` when several learn).
    """

    checkpoint_suffix = ".pt"
    policy_suffix = ".pt"

    def __init__(
        self,
        settings: LeaguePpoSettings,
        table: TableConfig,
        seed: int,
        name: str,
        league_opponents: Sequence[tuple[str, str]],
        tag_prefix: str = "",
    ) -> None:
        self.settings = settings
        self.learner = PpoLearner(settings, table, seed, name=name, extra_opponents=league_opponents)
        self.tag_prefix = tag_prefix

    def train_round(self, round_no: int, writer: Any = None) -> RoundStats | None:
        """``iterations_per_round`` PPO iterations; scalars at step ``round_no``."""
        if not self.settings.iterations_per_round:
            return None
        stats = self.learner.train_round(self.settings.iterations_per_round, round_no)
        if writer is not None:
            p = self.tag_prefix
            for k, v in stats.losses.items():
                writer.add_scalar(f"losses/{p}{k}", v, round_no)
            writer.add_scalar(f"charts/{p}SPS", stats.sps, round_no)
            for member, res in stats.pool.items():
                if res is not None:
                    writer.add_scalar(f"pool/{p}{member}/mbb_per_hand", res, round_no)
                writer.add_scalar(f"pool/{p}{member}/weight", stats.weights[member], round_no)
        return stats

    def close(self) -> None:
        """Stop the learner's rollout worker processes (``num_workers`` > 1)."""
        self.learner.close()

    def save_policy(self, path: str | Path, metadata: Mapping[str, Any] | None = None) -> None:
        """Write the current policy file to ``path`` (played by ``ppo(policy=path)``)."""
        self.learner.policy(metadata).save(path)

    def save_checkpoint(self, path: str | Path) -> None:
        """The learner's state (network, optimiser, pool, counters)."""
        self.learner.save_checkpoint(path)

    def load_checkpoint(self, path: str | Path) -> None:
        """Continue from :meth:`save_checkpoint`."""
        self.learner.load_checkpoint(path)


# -- the stand-alone run --------------------------------------------------------------------------
def run(config: PpoRunConfig, *, resume: bool = False, log: Any = print) -> PpoLearner:
    """Train ``config.rounds`` rounds (or continue a run with ``resume``); returns the learner.

    Writes TensorBoard events, ``config.yaml``, ``checkpoint.pt`` and ``policy.pt`` in
    ``<runs_dir>/<name>/``, and the policy to ``policy_out`` when set.
    """
    import yaml
    from torch.utils.tensorboard import SummaryWriter

    run_dir = Path(config.runs_dir) / config.name
    ck = run_dir / "checkpoint.pt"
    learner = PpoLearner(config.ppo, config.table, config.seed, name=config.name)
    if resume:
        if not ck.is_file():
            raise ConfigError("resume", str(run_dir), "there is no checkpoint.pt to resume in this run folder")
        state = torch.load(ck, map_location="cpu", weights_only=True)
        if state.get("run_config") != config.to_dict():
            raise ConfigError("config", config.name, "differs from the checkpointed run's config")
        learner.load_state_dict(state)
    elif run_dir.exists() and any(run_dir.iterdir()):
        raise ConfigError("name", config.name, f"run folder {run_dir} already exists: pass --resume or use a new name")
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(run_dir / "config.yaml", yaml.safe_dump(config.to_dict(), sort_keys=False))
    writer = SummaryWriter(str(run_dir), purge_step=learner.global_step + 1 if resume else None)
    if not resume:
        writer.add_text("config", "    " + yaml.safe_dump(config.to_dict(), sort_keys=False).replace("\n", "\n    "), 0)
    try:
        for r in range(learner.rounds_done + 1, config.rounds + 1):
            stats = learner.train_round(config.iterations_per_round, r, writer)
            state = {**learner.state_dict(), "run_config": config.to_dict()}
            atomic_write_bytes(ck, lambda fh, st=state: torch.save(st, fh))  # type: ignore[misc]
            meta = {"run": config.name, "round": r}
            learner.policy(meta).save(run_dir / "policy.pt")
            pool = ", ".join(f"{k} {v:+.0f}" for k, v in stats.pool.items() if v is not None)
            log(f"round {r}/{config.rounds}: {stats.decisions} decisions at {stats.sps:.0f}/s, "
                f"entropy {stats.losses.get('entropy', float('nan')):.3f}; rolling mbb/hand: {pool}")
        writer.flush()
    finally:
        writer.close()
        learner.close()
    if config.policy_out:
        learner.policy({"run": config.name, "round": config.rounds}).save(config.policy_out)
    return learner


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m holdem_env.training.ppo --config FILE [--resume]``."""
    parser = argparse.ArgumentParser(description="Train the ppo learner (see the module docstring).")
    parser.add_argument("--config", required=True, help="a YAML run config, e.g. configs/ppo_hu.yaml")
    parser.add_argument("--resume", action="store_true", help="continue the run from its checkpoint")
    args = parser.parse_args(argv)
    exit_on_sigterm()  # a `kill` still stops the rollout workers
    run(load_run_config(args.config), resume=args.resume)


if __name__ == "__main__":
    main()
