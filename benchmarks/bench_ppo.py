"""Vector-env throughput (decisions/s against N tables), and our PPO against sb3-contrib's MaskablePPO.

Usage::

    .venv/bin/python benchmarks/bench_ppo.py --vector [--opponent random|ppo] [--tables 1 16 64 256] [--seconds 5]
    .venv/bin/python benchmarks/bench_ppo.py --scaling [--workers-list 1 2] [--learner-tables 32]
        [--scaling-opponents tag] [--seconds 20] [--train [--overlap]] [--per-worker] [--pin] [--no-ahead]
        [--numpy-features]
    .venv/bin/python benchmarks/bench_ppo.py --features [--players 2] [--hands 300]
    .venv/bin/python benchmarks/bench_ppo.py --compare [--seconds 1200] [--hands 20000] [--out DIR]
        [--workers 2] [--learner-tables 32] [--iterations-per-round 1] [--only ours|MaskablePPO]
        [--sb3-vec dummy|subproc] [--compare-opponents random tag]

``--vector`` measures :class:`holdem_env.env.vector.HoldemVectorEnv` with random opponents
(``--opponent random``) or a torch ppo network (``--opponent ppo``), one batched call per
step, and a random learner (uniform over each row's legal ids, vectorised), against the
plain AEC loop of ``nlhe_v1`` with the same agent in every seat deciding one at a time.
*Decisions* count every seat's actions (learner and opponents); the learner's share is
printed too. Prints a markdown table for BENCHMARKS.md.

``--scaling`` measures the PPO learner's sampling with W rollout workers (W = 1: this
process, :class:`~holdem_env.training.ppo.LocalRollouts`; W > 1: worker processes,
:class:`~holdem_env.training.ppo.RolloutWorkers`): learner decisions per wall second and per
CPU second (the workers' own CPU time in their collect calls plus this process's), after one
warm-up rollout, so neither start-up nor imports count. ``--per-worker``: each worker gets
``--learner-tables`` tables (a step's cost per decision falls with the tables stepped
together, so splitting a fixed number of tables makes each worker's steps dearer). *CPU-bound speed-up*: against W = 1,
with the time taken as the busiest worker's CPU time plus this process's (the wall time on a
machine with a free core for each process; on a shared machine the wall time also holds the
time the processes wait for a core). With W > 1 each worker is asked for its next rollout as soon
as its last one arrives (``RolloutWorkers.receive(ahead=True)``, what ``overlap: true`` does);
``--no-ahead``: every worker waits for the others, the join and the next request (the trainer
without ``overlap``, less its update). With ``--train`` it times whole PPO
iterations (sampling and update, ``train_round``) instead of sampling alone. ``--pin``: each worker
process on its own CPU (``HOLDEM_PIN_WORKERS=1``). ``--numpy-features``: the learner's equity
feature from the numpy reference instead of its compiled twin (the same values; W = 1 only,
to measure what compiling it gained).

``--features`` times :func:`holdem_env.agents.features.features_batch` on every observation of
``--hands`` hands of random legal play (``nlhe_v1``, ``--players`` seats), compiled equity against the
numpy reference (caches emptied before each, so every value is computed), in CPU seconds, and checks
that the two give the same features.

``--compare`` trains both learners for the same wall time on the same env: heads-up
``nlhe_v1`` through :class:`HoldemVectorEnv`, the same opponents (``random`` and ``tag``,
drawn uniformly per hand: our pool with ``uniform_share: 1`` and no snapshots), the same
network input (scaled observation plus :mod:`holdem_env.agents.features`), the same
network sizes and PPO hyper-parameters where both have them. Ours steps 32 tables, split
over ``--workers`` rollout processes (``num_workers``; default 2, the machine's cores);
MaskablePPO steps 8 single-table envs in a ``DummyVecEnv`` (its usual set-up) or, with
``--sb3-vec subproc``, a ``SubprocVecEnv`` (one process per env). It
records each learner's rolling result against each opponent (last 2000 hands) over wall
time, samples per second, and then plays each final policy against ``tag`` in a duplicate
match (``--hands``, seed 11). Writes ``compare.png`` (learning curves) and ``compare.json``
to ``--out``. Needs ``pip install sb3-contrib`` (not a dependency of the package).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import gymnasium
import numpy as np

from holdem_env.agents.random_agent import RandomAgent
from holdem_env.env import nlhe_v1
from holdem_env.env.loop import decisions
from holdem_env.env.vector import FixedOpponents, HoldemVectorEnv


def _uniform_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal id per row, vectorised (random keys, masked ids pushed below zero)."""
    keys = rng.random(masks.shape) + masks
    return keys.argmax(axis=1)


def _opponent_factory(kind: str, players: int) -> object:
    """``random``: :class:`RandomAgent`; ``ppo``: a (randomly initialised) :class:`PpoAgent` network."""
    if kind == "random":
        return RandomAgent
    import torch

    from holdem_env.agents.ppo import PolicyConfig, PpoAgent, PpoPolicy

    torch.manual_seed(0)
    torch.set_num_threads(1)
    policy = PpoPolicy(PolicyConfig(num_players=players))
    return lambda: PpoAgent(policy)


def bench_aec(players: int, seconds: float, kind: str = "random") -> float:
    """Decisions/s of the AEC loop, one agent per seat deciding one observation at a time."""
    env = nlhe_v1.raw_env(num_players=players)
    factory = _opponent_factory(kind, players)
    agents = [factory() for _ in range(players)]  # type: ignore[operator]
    env.reset(seed=0)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        while env.agents and not all(env.terminations.values()):
            name = env.agent_selection
            env.step(agents[env.agent_name_mapping[name]].act(env.observe(name), env.infos[name]))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def bench_vector(tables: int, players: int, seconds: float, kind: str = "random") -> tuple[float, float]:
    """``(all decisions/s, learner decisions/s)`` of the vector env with ``tables`` tables."""
    venv = HoldemVectorEnv(tables, FixedOpponents([_opponent_factory(kind, players)]), num_players=players, final_obs=False)
    rng = np.random.default_rng(0)
    obs, _ = venv.reset(seed=0)
    learner, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, *_ = venv.step(_uniform_legal(obs["action_mask"], rng))
        learner += tables
    dt = time.perf_counter() - start
    return (learner + venv.opponent_decisions) / dt, learner / dt


# -- our PPO against MaskablePPO ---------------------------------------------------------------
COMPARE_OPPONENTS = ("random", "tag")
COMPARE_PPO = {"learning_rate": 3e-4, "gamma": 1.0, "gae_lambda": 0.95, "clip_coef": 0.2, "ent_coef": 0.01, "vf_coef": 0.5,
                   "max_grad_norm": 0.5, "update_epochs": 4, "hidden": (128, 128)}


class _Recorder:
    """An opponent source for one learner: uniform over the opponents, rolling results over wall time."""

    def __init__(self, window: int = 2000) -> None:
        from holdem_env.training.pool import OpponentPool

        self.pool = OpponentPool(list(COMPARE_OPPONENTS), max_snapshots=0, window=window, uniform_share=1.0)
        self.start = time.perf_counter()
        self.curve: list[tuple[float, dict[str, float | None]]] = []
        self._last = 0.0
        #: CPU seconds the learner's training took (set by the trainer).
        self.cpu = float("nan")

    def sample(self, table: int, rng: np.random.Generator) -> int:
        return self.pool.sample(table, rng)

    def agent(self, member: int, table: int, seat: int) -> object:
        return self.pool.agent(member, table, seat)

    def batched_bot(self) -> object:
        return self.pool.batched_bot()  # one opponent with decide: the vector env's batched core

    def record_many(self, member: int, payoffs: np.ndarray) -> None:
        for p in np.asarray(payoffs, dtype=np.float64).tolist():
            self.record(member, p)

    def record(self, member: int, payoff: float) -> None:
        self.pool.record(member, payoff)
        now = time.perf_counter() - self.start
        if now - self._last >= 5.0:
            self._last = now
            self.curve.append((now, self.pool.results()))


class _LearnerGymEnv(gymnasium.Env):
    """One table of :class:`HoldemVectorEnv` as a single-agent Gymnasium env for Stable-Baselines3,
    with the same network input as ours and ``action_masks()`` for MaskablePPO."""

    def __init__(self, source: _Recorder, seed: int) -> None:
        from holdem_env.agents.ppo import PolicyConfig, PpoPolicy

        self.venv = HoldemVectorEnv(1, source, num_players=2, final_obs=False)  # (the terminal obs is not read)
        self.encoder = PpoPolicy(PolicyConfig(num_players=2, hidden=(4,)))  # only its encode() is used
        n = self.encoder.config.input_size
        self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, shape=(n,), dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.encoder.config.num_actions)
        self._seed = seed
        self._obs: dict[str, np.ndarray] | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if self._obs is None:  # the vector env autoresets: only the first reset starts the table
            self._obs, _ = self.venv.reset(seed=self._seed if seed is None else seed)
        return self.encoder.encode(self._obs["observation"])[0], {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        self._obs, rew, term, trunc, _ = self.venv.step(np.array([int(action)]))
        return self.encoder.encode(self._obs["observation"])[0], float(rew[0]) * 0.1, bool(term[0]), False, {}

    def action_masks(self) -> np.ndarray:
        assert self._obs is not None
        return self._obs["action_mask"][0].astype(bool)

    def close(self) -> None:
        self.venv.close()


class Sb3Agent:
    """Plays a saved MaskablePPO model in the arena (spec ``bench_ppo:Sb3Agent(path='...')``)."""

    def __init__(self, path: str, rng: np.random.Generator | None = None) -> None:
        from sb3_contrib import MaskablePPO

        from holdem_env.agents.ppo import PolicyConfig, PpoPolicy

        self.model = MaskablePPO.load(path, device="cpu")
        self.encoder = PpoPolicy(PolicyConfig(num_players=2, hidden=(4,)))
        self.rng = rng or np.random.default_rng(0)

    def set_rng(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, observation: dict, info: dict) -> int:
        import torch

        x = torch.from_numpy(self.encoder.encode(observation["observation"][None, :]))
        mask = np.asarray(observation["action_mask"]).astype(bool)
        with torch.no_grad():
            dist = self.model.policy.get_distribution(x, action_masks=mask[None, :])
            probs = dist.distribution.probs.numpy()[0].astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        return int(self.rng.choice(probs.size, p=probs / probs.sum()))


def _train_ours(
    seconds: float, seed: int, out: Path, workers: int = 2, tables: int = 32, iterations_per_round: int = 1,
    overlap: bool = False,
) -> tuple[_Recorder, int, float]:
    from holdem_env.engine.config import TableConfig
    from holdem_env.training.ppo import PpoLearner, PpoSettings

    settings = PpoSettings(num_envs=tables, num_steps=2048 // tables, num_minibatches=4, opponents=COMPARE_OPPONENTS,
                           snapshot_every=0, pool_uniform_share=1.0, num_workers=workers, overlap=overlap,
                           **COMPARE_PPO)
    learner = PpoLearner(settings, TableConfig(num_players=2), seed)
    recorder = _Recorder()
    learner.pool = recorder.pool  # the recorder watches the learner's own pool
    start, r, cpu0 = time.perf_counter(), 0, time.process_time()
    while time.perf_counter() - start < seconds:
        r += 1
        learner.train_round(iterations_per_round, r)
        recorder.curve.append((time.perf_counter() - start, learner.pool.results()))
    dt = time.perf_counter() - start
    recorder.cpu = time.process_time() - cpu0 + (float(learner._workers.cpu_seconds.sum()) if learner._workers else 0.0)
    learner.close()
    learner.policy({"bench": "compare"}).save(out / "ours.pt")
    return recorder, learner.global_step, dt


def _train_sb3(seconds: float, seed: int, out: Path, vec: str = "dummy") -> tuple[_Recorder, int, float]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    torch.set_num_threads(1)
    recorder = _Recorder()
    factories = [lambda i=i: _LearnerGymEnv(recorder, seed + i) for i in range(8)]
    # SubprocVecEnv: SB3's way onto more cores (one process per env); each process then records
    # into its own copy of the recorder, so this variant has no learning curve.
    envs = SubprocVecEnv(factories, start_method="spawn") if vec == "subproc" else DummyVecEnv(factories)

    class Stop(BaseCallback):
        def _on_step(self) -> bool:
            return time.perf_counter() - start < seconds

    kw = dict(COMPARE_PPO)
    hidden = list(kw.pop("hidden"))
    kw["clip_range"], kw["n_epochs"] = kw.pop("clip_coef"), kw.pop("update_epochs")
    model = MaskablePPO("MlpPolicy", envs, n_steps=256, batch_size=512, seed=seed, device="cpu",
                        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}, "activation_fn": torch.nn.Tanh},
                        **kw)
    start, cpu0 = time.perf_counter(), time.process_time()
    recorder.start = start
    model.learn(total_timesteps=10**9, callback=Stop())
    dt = time.perf_counter() - start
    recorder.cpu = time.process_time() - cpu0  # this process's (with subproc the envs' are not counted)
    envs.close()
    model.save(out / "sb3")
    return recorder, int(model.num_timesteps), dt


def compare(
    seconds: float, hands: int, out: Path, workers: int = 2, sb3_vec: str = "dummy", tables: int = 32,
    iterations_per_round: int = 1, only: str | None = None, overlap: bool = False,
) -> None:
    """Train both, evaluate against tag, write the plot and the JSON; prints the table rows."""
    import json
    import sys

    from holdem_env.training.arena import ArenaConfig, run_match

    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # the arena imports bench_ppo:Sb3Agent
    results = {}
    trainers = (("ours", lambda: _train_ours(seconds, 0, out, workers, tables, iterations_per_round, overlap)),
                ("MaskablePPO", lambda: _train_sb3(seconds, 0, out, sb3_vec)))
    for name, train in trainers:
        if only is not None and name != only:
            continue
        recorder, steps, dt = train()
        spec = (f"holdem_env.agents.ppo:PpoAgent(policy={str(out / 'ours.pt')!r})" if name == "ours"
                else f"bench_ppo:Sb3Agent(path={str(out / 'sb3.zip')!r})")
        match = run_match(ArenaConfig(agents=(spec, "tag"), hands=hands, seed=11))
        row = next(r for r in match.rows if r["agent"] == spec)
        results[name] = {"steps": steps, "seconds": dt, "steps_per_second": steps / dt, "cpu_seconds": recorder.cpu,
                         "steps_per_cpu_second": steps / recorder.cpu,
                         "vs_tag_mbb": row["mbb_per_hand"], "vs_tag_ci95": row["ci95"], "hands": row["hands"],
                         "curve": recorder.curve}
        vs_tag = f"{row['mbb_per_hand']:+.1f} ± {row['ci95']:.1f}"
        print(f"| {name} | {dt:.0f} s | {recorder.cpu:.0f} s | {steps:,} | {steps / dt:,.0f} | {steps / recorder.cpu:,.0f} | "
              f"{vs_tag} |", flush=True)
    (out / "compare.json").write_text(json.dumps(results, indent=1))
    if len(results) == 2:
        _plot_compare(results, out / "compare.png")


def _plot_compare(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for name, style in (("ours", "-"), ("MaskablePPO", "--")):
        curve = results[name]["curve"]
        for opp in COMPARE_OPPONENTS:
            pts = [(t, r[opp]) for t, r in curve if r.get(opp) is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=f"{name} vs {opp}")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("wall time (s)")
    ax.set_ylabel("rolling mbb/hand (last 2000 hands)")
    ax.set_title("PPO (ours) vs MaskablePPO: same env, opponents, features, time")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def bench_features(players: int, hands: int) -> tuple[int, float, float]:
    """(rows, CPU s compiled, CPU s numpy) of features_batch on the observations of ``hands`` random hands."""
    from holdem_env.agents import features

    rng = np.random.default_rng(0)
    env = nlhe_v1.raw_env(num_players=players)
    rows = []
    for seen, _info in decisions(env, hands, seed=0):
        rows.append(seen["observation"])
        env.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
    obs = np.array(rows, dtype=np.float32)
    times, outs = [], []
    for compiled in (True, False):
        features.COMPILED_EQUITY = compiled
        features._PREFLOP_CACHE.clear()
        features._POSTFLOP_CACHE.clear()
        features._PREFLOP_TABLE[:] = np.nan
        t0 = time.process_time()
        outs.append(features.features_batch(obs))
        times.append(time.process_time() - t0)
    if not np.array_equal(outs[0], outs[1]):
        raise SystemExit("the compiled and numpy features differ")
    return len(obs), times[0], times[1]


def scaling(
    workers: int, tables: int, opponents: tuple[str, ...], seconds: float, train: bool = False, ahead: bool = True,
    overlap: bool = False,
) -> dict:
    """Learner decisions per wall second and per CPU second with ``workers`` rollout workers (sampling
    alone: each worker asked for its next rollout as soon as its last one arrives, as the trainer's
    ``overlap`` does, unless ``ahead`` is false: every worker waits for the others, the join and the
    next request; ``train`` with ``overlap``: the trainer's ``overlap: true``)."""
    import resource

    import torch

    from holdem_env.engine.config import TableConfig
    from holdem_env.training.ppo import PpoLearner, PpoSettings
    from holdem_env.training.ppo.workers import LocalRollouts, RolloutWorkers, rollouts

    torch.set_num_threads(1)
    settings = PpoSettings(num_envs=tables, num_steps=max(1, 2048 * workers // tables), opponents=opponents, snapshot_every=0,
                           pool_uniform_share=1.0, num_workers=workers, overlap=overlap and workers > 1, **COMPARE_PPO)
    learner = PpoLearner(settings, TableConfig(num_players=2), 0)
    sampler: LocalRollouts | RolloutWorkers | None = None

    def per_worker() -> np.ndarray:
        """CPU seconds each worker process spent sampling so far (none with W = 1: this process samples)."""
        source = learner._workers if train else sampler
        return source.cpu_seconds.copy() if isinstance(source, RolloutWorkers) else np.zeros(0)

    def workers_cpu() -> float:
        return float(per_worker().sum())

    try:
        if train:
            learner.train_round(1, 1)  # starts the workers
        else:
            if workers > 1:
                sampler = RolloutWorkers(learner)
                sampler.start_round(1)
            else:
                sampler = LocalRollouts(learner, np.random.default_rng(0))
            sampler.collect()
        own0 = resource.getrusage(resource.RUSAGE_SELF)
        each0 = per_worker()
        cpu0, wall0, decisions, r = workers_cpu(), time.perf_counter(), 0, 1
        stream = rollouts(sampler, 10**9, True) if isinstance(sampler, RolloutWorkers) and ahead else None
        while time.perf_counter() - wall0 < seconds:
            if train:
                r += 1
                decisions += learner.train_round(4, r).decisions
            elif stream is not None:
                decisions += next(stream).actions.size
            else:
                assert sampler is not None
                decisions += sampler.collect().actions.size
        wall = time.perf_counter() - wall0
        own1 = resource.getrusage(resource.RUSAGE_SELF)
        own = (own1.ru_utime + own1.ru_stime) - (own0.ru_utime + own0.ru_stime)
        cpu = own + workers_cpu() - cpu0
        busiest = float((per_worker() - each0).max()) if workers > 1 else 0.0
    finally:
        learner.close()
        if sampler is not None:
            sampler.close()
    # On a machine with a free core per process the wall time would be about the busiest
    # worker's CPU time plus this process's (which waits for the workers, then joins and updates).
    critical = (busiest + own) if workers > 1 else cpu
    return {"workers": workers, "decisions": decisions, "wall": wall, "cpu": cpu, "main_cpu": own,
            "per_wall_s": decisions / wall, "per_cpu_s": decisions / cpu, "per_critical_s": decisions / critical}


def main() -> None:
    global COMPARE_OPPONENTS
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--vector", action="store_true", help="vector env decisions/s against N tables")
    parser.add_argument("--compare", action="store_true", help="our PPO against MaskablePPO")
    parser.add_argument("--features", action="store_true", help="features_batch: compiled equity against numpy")
    parser.add_argument("--scaling", action="store_true", help="learner decisions per wall / CPU second with W rollout workers")
    parser.add_argument("--workers-list", type=int, nargs="+", default=[1, 2], help="--scaling: the W to measure")
    parser.add_argument("--scaling-opponents", nargs="+", default=["tag"], help="--scaling: the pool's fixed members")
    parser.add_argument("--train", action="store_true", help="--scaling: time whole iterations (sampling + update)")
    parser.add_argument("--pin", action="store_true", help="--scaling: pin each rollout worker process to its own CPU")
    parser.add_argument("--numpy-features", action="store_true",
                        help="--scaling, W = 1: the equity feature from the numpy reference, not the compiled code")
    parser.add_argument("--no-ahead", action="store_true",
                        help="--scaling (sampling, W > 1): each worker waits for the others before its next rollout")
    parser.add_argument("--per-worker", action="store_true",
                        help="--scaling: --learner-tables per worker (W times as many tables with W workers), not in all")
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--out", default="runs/bench_ppo_compare")
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 16, 64, 256])
    parser.add_argument("--learner-tables", type=int, default=32,
                        help="--compare: our learner's tables (2048 / tables steps each per iteration)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", choices=("random", "ppo"), default="random",
                        help="who plays the other seats (ppo: a torch network, batched by the vector env)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=2, help="--compare: our learner's rollout processes")
    parser.add_argument("--iterations-per-round", type=int, default=1,
                        help="--compare: our PPO iterations between two learning-curve points (fresh tables each)")
    parser.add_argument("--only", choices=("ours", "MaskablePPO"), help="--compare: train and evaluate one learner")
    parser.add_argument("--overlap", action="store_true",
                        help="--compare, --scaling --train: our workers sample the next rollout during the update "
                             "(ppo overlap: true; with --compare needs --iterations-per-round > 1 to matter)")
    parser.add_argument("--compare-opponents", nargs="+", default=list(COMPARE_OPPONENTS),
                        help="--compare: the opponents of both learners, drawn uniformly per hand (one with a batched "
                             "decide, e.g. tag: both envs run on the batched core)")
    parser.add_argument("--sb3-vec", choices=("dummy", "subproc"), default="dummy",
                        help="--compare: MaskablePPO's vector env (subproc: one process per env, no curve)")
    args = parser.parse_args()
    if args.pin:
        os.environ["HOLDEM_PIN_WORKERS"] = "1"  # read when the workers start
    if args.numpy_features:
        if any(w > 1 for w in args.workers_list):
            parser.error("--numpy-features measures one process: use --workers-list 1")
        from holdem_env.agents import features

        features.COMPILED_EQUITY = False
    if args.features:
        n, fast, slow = bench_features(args.players, min(args.hands, 2000))
        print("| seats | rows | compiled CPU s | numpy CPU s | µs/row compiled | µs/row numpy | ratio |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        print(f"| {args.players} | {n:,} | {fast:.3f} | {slow:.3f} | {fast / n * 1e6:.1f} | {slow / n * 1e6:.1f} | "
              f"{slow / fast:.1f}x |")
        return
    if args.scaling:
        print(f"| W | {'iterations' if args.train else 'sampling'} | learner decisions | wall s | CPU s (main) | "
              "per wall s | per CPU s | wall speed-up | CPU-bound speed-up | load before |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        base = crit = None
        for w in args.workers_list:
            load = os.getloadavg()[0]
            tables = args.learner_tables * (w if args.per_worker else 1)
            m = scaling(w, tables, tuple(args.scaling_opponents), args.seconds, args.train, not args.no_ahead,
                        args.overlap)
            base = base or m["per_wall_s"]
            crit = crit or m["per_critical_s"]
            print(f"| {w} | {'train_round' if args.train else 'collect'} | {m['decisions']:,} | {m['wall']:.1f} | "
                  f"{m['cpu']:.1f} ({m['main_cpu']:.1f}) | {m['per_wall_s']:,.0f} | {m['per_cpu_s']:,.0f} | "
                  f"{m['per_wall_s'] / base:.2f}x | {m['per_critical_s'] / crit:.2f}x | {load:.1f} |", flush=True)
        return
    if args.compare:
        COMPARE_OPPONENTS = tuple(args.compare_opponents)
        print("| learner | wall | CPU | learner decisions | per wall s | per CPU s | vs tag (mbb/hand, 95%) |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        compare(args.seconds, args.hands, Path(args.out), args.workers, args.sb3_vec, args.learner_tables,
                args.iterations_per_round, args.only, args.overlap)
        return
    if not args.vector:
        parser.error("choose --vector, --scaling or --compare")
    kind = args.opponent
    aec = bench_aec(args.players, args.seconds, kind)
    print(f"| loop | tables | decisions/s | learner decisions/s | vs AEC loop |  ({args.players} players)")
    print("|---|---:|---:|---:|---:|")
    print(f"| AEC loop, {kind} agent .act per seat | 1 | {aec:,.0f} | - | 1.00x |")
    for n in args.tables:
        total, learner = bench_vector(n, args.players, args.seconds, kind)
        row = f"| {n} | {total:,.0f} | {learner:,.0f} | {total / aec:.2f}x |"
        print(f"| HoldemVectorEnv, batched {kind} opponents " + row)


if __name__ == "__main__":
    main()
