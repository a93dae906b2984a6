"""League training: agents train, then every pair is evaluated in duplicate matches, logged to TensorBoard.

A league run reads top to bottom (:func:`run_league`); the matches it plays to judge its agents
are in :mod:`holdem_env.training.league_eval`, its table and plot in
:mod:`holdem_env.training.league_report`:

1. the typed config (:mod:`holdem_env.training.config`), one seeding scheme, the run folder
   ``<runs_dir>/<name>/`` and a ``SummaryWriter`` on it, the config logged as text;
2. ``league.rounds`` rounds; in each, every training cfr-lite agent runs
   ``cfr.iterations_per_round`` MCCFR iterations (:mod:`holdem_env.training.cfr_lite.trainer`) and
   writes its current average strategy as a policy file (its sampling runs on the backend's
   workers while the ppo learners train in this process), then (every ``eval_every``
   rounds, and after the last) every pair of agents plays a duplicate match of
   ``eval_hands`` hands through :func:`holdem_env.training.arena.run_match` (a pair of two
   agents that do not train plays the same seeded match every round, so it is played once
   and its result repeated);
3. scalars are logged against the global step = the round number, the checkpoint is
   written atomically, the progress bar advances;
4. at the end: the league table in the terminal and as ``league.json``, and ``league.png``
   (each agent's worst and mean result over the rounds; below, the LBR measured each round, from
   round 0 -- a ppo learner's starting policy, before its first PPO iteration -- on);
   each training agent's ``policies/<agent>.npz`` / ``.pt`` is the policy of the round chosen by
   robust criteria (:func:`~holdem_env.training.league_report.choose_checkpoints`: the exploiter
   gate first, then the worst head-to-head result's lower 95% bound; never the learners'
   rolling estimates), named under the table and in ``league.json`` (``chosen``).

**Ranking.** The table ranks agents by their *worst head-to-head result* (the lowest of their
pairs' results), not by the mean over the league: a mean can be won by crushing one weak
member (``random``) while losing to every other agent; the worst result cannot. Beside it the
table shows the mean, the latest LBR (when measured, ``lbr_every``) and the HUD, and below it
the cross table of every pair. Optionally (``league.exploiters``) every training agent also
plays an *exploiter gate* each evaluation round: a duplicate match against each listed bot
(:mod:`holdem_env.agents.exploiters`), logged and kept in ``league.json``.

Everything random is derived from ``seed`` and the round number (never from wall time,
scheduling or the number of workers), so a run resumed with ``--resume`` after a kill ends
with exactly the table an uninterrupted run would have produced, and ``backend.workers``
changes only the speed.

TensorBoard scalars (step = round):

=====================================  ==============================================
``eval/<A>_vs_<B>/mbb_per_hand``       A's result against B (milli-big-blinds per hand)
``eval/<A>_vs_<B>/ci95``               95% half-width of that result (duplicate groups)
``eval/<A>_vs_<B>/ci95_low``, ``_high``  the interval's ends
``eval/<A>/mbb_per_hand``              A's mean result over all its opponents
``eval/<A>/vpip`` ``pfr`` ``three_bet``  HUD statistics of A over the round's matches
``eval/<A>/af`` ``wtsd`` ``wsd``
``train/<A>/cfr_iterations``           total MCCFR iterations of a training agent
``train/<A>/infosets``                 information sets in its tables
``train/<A>/avg_regret``               mean max positive regret / iterations (exploitability proxy)
``train/<A>/strategy_entropy``         mean entropy of its average strategy (nats)
``train/<A>/iterations_per_second``    training speed this round
``losses/policy_loss`` ``value_loss``   a training ppo agent's PPO losses this round (mean over its
``losses/entropy`` ``approx_kl``         iterations; with several ppo learners the tag reads
``losses/clipfrac``                      ``losses/<A>/policy_loss``), and
``losses/explained_variance``            the value head's explained variance
``losses/bc_cross_entropy`` ``bc_agreement`` ``bc_value_loss``  with ``ppo.start: scratch``: the
                                       round's behaviour cloning on the anchor's demonstrations
``charts/SPS``                         the ppo learner's decisions per second this round
``pool/<M>/mbb_per_hand``              the ppo learner's rolling result against pool member M
``pool/<M>/weight``                    M's sampling probability in the learner's pool
``charts/elapsed_seconds``             wall time of the run so far (all sessions)
``charts/eval_hands_per_second``       evaluation speed this round
``eval/<A>/lbr_mbb``, ``lbr_ci95``     heads-up, every ``lbr_every`` rounds: what LBR wins
                                       against A (mbb/hand; :mod:`holdem_env.training.lbr`),
                                       for agents that answer range queries (a training
                                       agent plays its policy of that round; one that does
                                       not train is measured once, after the last round;
                                       a ppo learner's starting policy also as round 0).
                                       The AIVAT estimate of LBR's value
                                       (:mod:`holdem_env.training.aivat.lbr`)
``eval/<A>/lbr_plain_mbb``, ``_ci95``  the plain mean of the same LBR hands
``exploit/<A>/<X>/mbb_per_hand``       training agent A's result against exploiter X
``exploit/<A>/<X>/ci95``               (``league.exploiters``, every evaluation round)
=====================================  ==============================================

plus the text ``config`` (the YAML). Run-folder layout: TensorBoard event files,
``config.yaml``, ``checkpoint/state.json`` (the commit point of a checkpoint) with the
trainers' tables next to it, ``policies/<agent>/round_NNNN.npz`` (``.pt`` for ppo: the latest
round's and the chosen round's), ``policies/<agent>.npz`` (the chosen one), ``league.json``,
``league.png``.

Resuming: the run folder is the one ``--resume`` is pointed at, wherever it now lives (so
``logging.runs_dir`` may be spelled differently or the folder moved); every other setting
but ``league.rounds``, ``league.isolate_agents`` and the ``backend`` section must match the
checkpoint,
and a mismatch names the first key that differs. Temporary files an interrupted write left
in the run folder, ``checkpoint/`` and ``policies/`` are removed when a run starts. A
damaged ``state.json`` or trainer table is a :class:`ConfigError` that names the file.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
import zipfile
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, TextIO

import numpy as np

import holdem_env.agents.cfr_lite  # noqa: F401  (registers the cfr-lite name, also in worker processes)
from holdem_env.agents.cfr_lite.actions import ActionAbstraction
from holdem_env.agents.cfr_lite.buckets import CardAbstraction
from holdem_env.engine.errors import ConfigError, HoldemError, short_repr
from holdem_env.fileutil import atomic_write_bytes, remove_stale_temp_files
from holdem_env.training.cfr_lite.trainer import CfrLiteTrainer, train_parallel
from holdem_env.training.checkpoint import CheckpointError, validate_league_state

from .backends import make_backend
from .config import LeagueConfig
from .league_eval import (
    _evaluate,
    _exploiter_gate,
    _int_seed,
    _lbr_members,
    _log_lbr,
    _seed,
)
from .league_report import LeagueResult, _plot, _sorted_table, choose_checkpoints, format_league_table
from .torch_settings import torch_settings

__all__ = ["LeagueResult", "run_league", "format_league_table", "scalar_names", "run_dir_of"]

_STATE = "state.json"
_HUD = ("vpip", "pfr", "three_bet", "af", "wtsd", "wsd")


class _KilledError(HoldemError):
    """Raised internally to stop a run early (``stop_after_round``), as a kill would."""


def run_dir_of(config: LeagueConfig) -> Path:
    """The run folder ``<runs_dir>/<name>``."""
    return Path(config.logging.runs_dir) / config.name


def scalar_names(config: LeagueConfig) -> list[str]:
    """Every scalar tag the league writes for ``config`` (documented in the module docstring)."""
    names: list[str] = []
    agents = [a.name for a in config.agents]
    for i, a in enumerate(agents):
        for b in agents[i + 1 :]:
            for x, y in ((a, b), (b, a)):
                names += [f"eval/{x}_vs_{y}/{s}" for s in ("mbb_per_hand", "ci95", "ci95_low", "ci95_high")]
    for a in agents:
        names.append(f"eval/{a}/mbb_per_hand")
        names += [f"eval/{a}/{h}" for h in _HUD]
    for t in config.cfr_trainers:
        names += [f"train/{t.name}/{s}" for s in ("cfr_iterations", "infosets", "avg_regret", "strategy_entropy", "iterations_per_second")]
    for t in config.ppo_trainers:
        p = _ppo_prefix(config, t.name)
        parts = ("policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac", "explained_variance")
        names += [f"losses/{p}{s}" for s in parts]
        names.append(f"charts/{p}SPS")
        if config.ppo is not None and any(config.ppo.bc_epochs):
            names += [f"losses/{p}bc_{s}" for s in ("cross_entropy", "value_loss", "agreement")]
        names += [f"pool/{p}{m}/{s}" for m in _ppo_opponent_names(config, t.name) for s in ("mbb_per_hand", "weight")]
    names += ["charts/elapsed_seconds", "charts/eval_hands_per_second"]
    for a in _lbr_members(config):
        names += [f"eval/{a}/lbr_mbb", f"eval/{a}/lbr_ci95", f"eval/{a}/lbr_plain_mbb", f"eval/{a}/lbr_plain_ci95"]
    for entry in config.agents:
        if entry.train:
            names += [f"exploit/{entry.name}/{x}/{s}" for x in config.league.exploiters for s in ("mbb_per_hand", "ci95")]
    return names


# -- seeds -----------------------------------------------------------------------------------


# -- ppo learners (the hook: holdem_env.training.ppo.LeaguePpoLearner) -------------------------
def _ppo_prefix(config: LeagueConfig, name: str) -> str:
    return "" if len(config.ppo_trainers) == 1 else f"{name}/"


def _ppo_opponents(config: LeagueConfig, name: str) -> list[tuple[str, str]]:
    """The league members a ppo learner's pool holds: every agent that does not train."""
    return [(a.name, a.spec) for a in config.agents if not a.train and a.name != name]


def _ppo_opponent_names(config: LeagueConfig, name: str) -> list[str]:
    return list(config.ppo.opponents) + [n for n, _ in _ppo_opponents(config, name)]


def _make_ppo_learner(config: LeagueConfig, name: str) -> Any:
    # late import: training.ppo imports torch, which the spawned worker processes (they import this
    # module for its job functions) must not load
    from holdem_env.training.ppo import LeaguePpoLearner

    index = [a.name for a in config.agents].index(name)
    opponents = _ppo_opponents(config, name)
    if not opponents and not config.ppo.opponents:
        allowed = f"ppo agent {name!r} needs opponents: list some, or add a non-training agent to the league"
        raise ConfigError("ppo.opponents", [], allowed)
    seed = _int_seed(config, 3, index)
    return LeaguePpoLearner(config.ppo, config.table, seed, name, opponents, _ppo_prefix(config, name))


# -- jobs (top-level so that worker processes can run them) ----------------------------------
def _make_trainer(config: LeagueConfig) -> Any:
    c = config.cfr
    actions = ActionAbstraction(c.pot_fractions, c.all_in, c.max_raises_per_street, c.all_in_max_pot, c.preflop_max_raises, c.summarize_preflop)
    cards = CardAbstraction(c.preflop_buckets, c.postflop_buckets, c.rollouts, c.bucket_sample_size, 0, spacing=c.bucket_spacing)
    return CfrLiteTrainer(config.table, actions, cards, averaging=c.averaging)


def _train_job(job: tuple[Any, int, np.random.SeedSequence]) -> tuple[Any, Any]:
    trainer, iterations, seed = job
    stats = trainer.train(iterations, np.random.default_rng(seed))
    return trainer, stats


def _train_cfr_round(config: LeagueConfig, round_no: int, trainers: dict[str, Any], backend: Any) -> dict[str, tuple[Any, Any]]:
    """Round ``round_no``'s MCCFR iterations of every training cfr-lite agent: ``{name: (trainer, stats)}``.

    One learner samples with ``cfr.parallel_copies`` copies of its tables on the backend's
    workers (:func:`train_parallel`); several learners train side by side, one copy each. Seeds
    come from (seed, agent, round) and the copies from their position, so the result does not
    depend on ``backend.workers``.
    """
    if not trainers or not config.cfr.iterations_per_round:
        return {}
    names = list(trainers)
    agent_index = {a.name: i for i, a in enumerate(config.agents)}
    iterations, copies = config.cfr.iterations_per_round, config.cfr.parallel_copies
    if len(names) == 1 and copies > 1:
        tr = trainers[names[0]]
        stats = train_parallel(tr, iterations, _seed(config, 1, agent_index[names[0]], round_no), copies, backend.map)
        return {names[0]: (tr, stats)}
    jobs = [(trainers[n], iterations, _seed(config, 1, agent_index[n], round_no)) for n in names]
    return dict(zip(names, backend.map(_train_job, jobs), strict=True))


def _in_thread(fn: Any, *args: Any) -> Future[Any]:
    """``fn(*args)`` started in a thread of its own (the cfr-lite round, which mostly waits for the
    backend's workers, while the ppo learners train in this process); its future's ``result()``
    re-raises what it raised."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cfr-round")
    try:
        return pool.submit(fn, *args)
    finally:
        pool.shutdown(wait=False)  # no more work for it; the submitted call still runs


# -- helpers ---------------------------------------------------------------------------------
def _write_json_atomic(path: Path, data: Any) -> None:
    atomic_write_bytes(path, lambda fh: fh.write(json.dumps(data, indent=1, sort_keys=True).encode()))


def _comparable(config_dict: dict[str, Any]) -> dict[str, Any]:
    d = json.loads(json.dumps(config_dict))
    d["league"].pop("rounds", None)  # a resumed run may be extended
    d["league"].pop("isolate_agents", None)  # where agents run does not change what they play
    d.pop("backend", None)  # where and on how many workers the run goes does not change its results
    d["logging"].pop("runs_dir", None)  # the run is the folder being resumed, wherever it lives now
    return d


def _first_difference(old: Any, new: Any, key: str = "") -> tuple[str, Any, Any] | None:
    """The first dotted key whose value differs between two plain configs, with both values."""
    if isinstance(old, dict) and isinstance(new, dict):
        for k in list(old) + [k for k in new if k not in old]:
            sub = f"{key}.{k}" if key else str(k)
            if k not in old or k not in new:
                return sub, old.get(k, "<absent>"), new.get(k, "<absent>")
            found = _first_difference(old[k], new[k], sub)
            if found is not None:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            found = _first_difference(a, b, f"{key}[{i}]")
            if found is not None:
                return found
        return None
    return None if old == new else (key, old, new)


def _read_state(path: Path) -> dict[str, Any]:
    """``checkpoint/state.json``, checked; a damaged file is a :class:`ConfigError` naming it."""
    damaged = "is damaged ({}): the run cannot be resumed; start it again with --overwrite"
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError("resume", str(path), damaged.format(type(exc).__name__)) from None
    ok = (
        isinstance(state, dict)
        and isinstance(state.get("round"), int)
        and isinstance(state.get("history"), list)
        and isinstance(state.get("elapsed"), (int, float))
        and isinstance(state.get("config"), dict)
        and isinstance(state.get("trainer_files"), dict)
        and all(isinstance(f, str) and f == Path(f).name for f in state["trainer_files"].values())
    )
    if not ok:
        raise ConfigError("resume", str(path), damaged.format("missing or mistyped fields"))
    try:
        _comparable(state["config"])
    except (KeyError, TypeError, AttributeError):
        raise ConfigError("resume", str(path), damaged.format("the config it holds is incomplete")) from None
    try:
        validate_league_state(state)
    except CheckpointError as exc:
        raise ConfigError("resume", str(path), damaged.format(exc)) from None
    return state


def _remove_temp_files(run_dir: Path) -> None:
    """Delete what interrupted atomic writes left in the run folder (nothing else writes there now)."""
    folders = [run_dir, run_dir / "checkpoint", run_dir / "policies"]
    if (run_dir / "policies").is_dir():
        folders += [p for p in (run_dir / "policies").iterdir() if p.is_dir()]
    for folder in folders:
        remove_stale_temp_files(folder)


def _write_checkpoint(run_dir: Path, state: dict[str, Any], trainers: dict[str, Any]) -> None:
    """Trainer tables under round-stamped names, then ``state.json`` atomically (the commit point)."""
    ck = run_dir / "checkpoint"
    ck.mkdir(parents=True, exist_ok=True)
    files = {}
    for name, tr in trainers.items():
        fname = f"{name}.r{state['round']:05d}{getattr(tr, 'checkpoint_suffix', '.npz')}"
        tr.save_checkpoint(ck / fname)
        files[name] = fname
    state = {**state, "trainer_files": files}
    _write_json_atomic(ck / _STATE, state)
    keep = set(files.values()) | {_STATE}
    for p in ck.iterdir():
        if p.name not in keep and not p.name.endswith(".tmp"):
            p.unlink(missing_ok=True)


def _keep_policy(run_dir: Path, name: str, suffix: str, chosen: dict[str, Any] | None, save_current: Any) -> None:
    """Write ``policies/<name><suffix>``: a copy of the chosen round's policy file when there is one,
    else the agent's current policy (``save_current(path)``)."""
    target = run_dir / "policies" / f"{name}{suffix}"
    source = run_dir / "policies" / name / f"round_{chosen['round']:04d}{suffix}" if chosen else None
    if source is not None and source.is_file():
        data = source.read_bytes()
        atomic_write_bytes(target, lambda fh: fh.write(data))
    else:
        save_current(target)


# -- the run ---------------------------------------------------------------------------------
def run_league(
    config: LeagueConfig,
    *,
    resume: bool = False,
    overwrite: bool = False,
    progress: bool = False,
    out: TextIO | None = None,
    backend: Any = None,
    stop_after_round: int | None = None,
) -> LeagueResult:
    """Run (or with ``resume`` continue) the league described by ``config``.

    ``overwrite`` deletes an existing run folder first; without it, a folder that already
    holds a run is a :class:`ConfigError` (pass ``resume`` to continue it). ``progress``
    shows a tqdm bar with ETA on stderr; ``out`` receives the final table (text).
    ``backend`` overrides the config's backend. ``stop_after_round`` stops after that
    round's checkpoint, as if the process had been killed (for tests and time-boxing).
    """
    if not config.ppo_trainers:
        return _run_league(config, resume, overwrite, progress, out, backend, stop_after_round)
    import torch  # noqa: F401  (loaded here so that its settings can be set for the whole run)

    # A league that trains ppo learners runs with one torch thread and deterministic algorithms
    # throughout (its evaluation matches too, as each learner's rounds do); restored on return.
    with torch_settings(threads=1, deterministic=True):
        return _run_league(config, resume, overwrite, progress, out, backend, stop_after_round)


def _run_league(
    config: LeagueConfig,
    resume: bool,
    overwrite: bool,
    progress: bool,
    out: TextIO | None,
    backend: Any,
    stop_after_round: int | None,
) -> LeagueResult:
    from torch.utils.tensorboard import SummaryWriter

    run_dir = run_dir_of(config)
    ck_state = run_dir / "checkpoint" / _STATE
    if overwrite and resume:
        raise ConfigError("resume", True, "cannot be combined with overwrite")
    if resume:
        if not ck_state.is_file():
            raise ConfigError("resume", str(run_dir), "there is no checkpoint to resume in this run folder; start it without --resume")
    elif run_dir.exists() and any(run_dir.iterdir()) and not overwrite and ck_state.is_file():
        raise ConfigError(
            "name", config.name, f"run folder {run_dir} already exists: pass --resume to continue it, --overwrite to start over, or use a new name"
        )

    # Everything that can fail on the config is checked before the run folder is touched.
    trainers: dict[str, Any] = {}
    for e in config.cfr_trainers:
        trainers[e.name] = _make_trainer(config)
    learners = {e.name: _make_ppo_learner(config, e.name) for e in config.ppo_trainers}
    start_round, history, elapsed_before = 0, [], 0.0
    lbr_history: list[dict[str, Any]] = []
    if resume:
        state = _read_state(ck_state)
        diff = _first_difference(_comparable(state["config"]), _comparable(config.to_dict()))
        if diff is not None:
            key, old, new = diff
            raise ConfigError(
                key, new, f"differs from the checkpointed run's value {short_repr(old)} (only league.rounds, league.isolate_agents, "
                "the backend section and logging.runs_dir may change on resume)"
            )
        start_round = state["round"]
        if start_round > config.league.rounds:
            raise ConfigError(
                "league.rounds", config.league.rounds, f"must be at least {start_round}, the round this run's checkpoint reached"
            )
        if set(state["trainer_files"]) != set(trainers) | set(learners):
            raise ConfigError("resume", str(ck_state), "names other training agents than the config: the checkpoint is damaged")
        history = state["history"]
        lbr_history = state.get("lbr", [])  # checkpoints written before LBR was kept have none
        elapsed_before = float(state["elapsed"])
        for name, fname in state["trainer_files"].items():
            table_path = run_dir / "checkpoint" / fname
            try:
                {**trainers, **learners}[name].load_checkpoint(table_path)
            except ConfigError:
                raise
            except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
                raise ConfigError(
                    "resume", str(table_path), f"is damaged ({type(exc).__name__}): the run cannot be resumed; "
                    "start it again with --overwrite"
                ) from None
    own_backend = backend is None
    if backend is None:
        backend = make_backend(config.backend.kind, config.backend.workers, config.backend.address)
    for learner in learners.values():
        learner.use_backend(backend)  # ppo rollout workers run where the league's jobs run

    if not resume and (overwrite or not ck_state.is_file()) and run_dir.exists():
        shutil.rmtree(run_dir)  # overwrite, or a run that died before its first checkpoint: nothing to resume
    run_dir.mkdir(parents=True, exist_ok=True)
    _remove_temp_files(run_dir)
    # On resume too: an extended run's config.yaml shows its new league.rounds.
    (run_dir / "config.yaml").write_text(config.to_yaml())
    for tr in trainers.values():
        tr.game.cards.thresholds()  # compute/cache once here, not in every worker

    writer = SummaryWriter(str(run_dir), purge_step=start_round + 1 if resume else None)
    if not resume:
        writer.add_text("config", "    " + config.to_yaml().replace("\n", "\n    "), 0)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=config.league.rounds, initial=start_round, unit="round", desc=f"holdem train {config.name}", dynamic_ncols=True, file=sys.stderr)
    session_start = time.perf_counter()
    policy_paths: dict[str, Path] = {}
    fixed_rows: dict[tuple[str, str], list[dict[str, Any]]] = {}  # pairs of agents that do not train
    try:
        for r in range(start_round + 1, config.league.rounds + 1):
            # 1. training: cfr-lite's sampling (on the backend's workers) and the ppo learners (here)
            # at the same time; neither reads what the other changes, so the result is the same
            overlap = bool(learners) and bool(trainers) and backend.workers > 1
            cfr_round = _in_thread(_train_cfr_round, config, r, trainers, backend) if overlap else None
            lbr_now = bool(config.league.lbr_every) and (r % config.league.lbr_every == 0 or r == config.league.rounds)
            starts = [n for n in learners if r == 1 and lbr_now and n in _lbr_members(config)]
            try:
                for n, learner in learners.items():  # ppo learners train in this process, one after another
                    if n in starts:  # its starting policy (round 0), for LBR's trend from where training starts
                        learner.save_start_policy(run_dir / "policies" / n / "round_0000.pt", {"league": config.name, "round": 0})
                    learner.train_round(r, writer)
                    p = run_dir / "policies" / n / f"round_{r:04d}.pt"
                    learner.save_policy(p, {"league": config.name, "round": r})
                    policy_paths[n] = p
            except BaseException:
                if cfr_round is not None:  # let the workers finish before the backend closes
                    wait([cfr_round])
                raise
            results = cfr_round.result() if cfr_round is not None else _train_cfr_round(config, r, trainers, backend)
            for n, (tr, stats) in results.items():
                trainers[n] = tr
                writer.add_scalar(f"train/{n}/cfr_iterations", tr.iterations, r)
                writer.add_scalar(f"train/{n}/infosets", stats.infosets, r)
                writer.add_scalar(f"train/{n}/avg_regret", stats.avg_positive_regret, r)
                writer.add_scalar(f"train/{n}/strategy_entropy", stats.strategy_entropy, r)
                writer.add_scalar(f"train/{n}/iterations_per_second", stats.iterations_per_second, r)
            for n, tr in trainers.items():
                p = run_dir / "policies" / n / f"round_{r:04d}.npz"
                tr.policy({"league": config.name, "round": r}).save(p)
                policy_paths[n] = p
            # 2. evaluation
            if r % config.league.eval_every == 0 or r == config.league.rounds:
                t0 = time.perf_counter()
                evaluation = _evaluate(config, r, backend, {**trainers, **learners}, run_dir, fixed_rows)
                hands = sum(p["hands"] for p in evaluation["pairs"]) // 2
                history.append(evaluation)
                for p in evaluation["pairs"]:
                    tag = f"eval/{p['agent']}_vs_{p['opponent']}"
                    writer.add_scalar(f"{tag}/mbb_per_hand", p["mbb_per_hand"], r)
                    writer.add_scalar(f"{tag}/ci95", p["ci95"], r)
                    writer.add_scalar(f"{tag}/ci95_low", p["mbb_per_hand"] - p["ci95"], r)
                    writer.add_scalar(f"{tag}/ci95_high", p["mbb_per_hand"] + p["ci95"], r)
                for a in evaluation["agents"]:
                    writer.add_scalar(f"eval/{a['agent']}/mbb_per_hand", a["mbb_per_hand"], r)
                    for h, v in a["hud"].items():
                        if v is not None:
                            writer.add_scalar(f"eval/{a['agent']}/{h}", v, r)
                dt = time.perf_counter() - t0
                writer.add_scalar("charts/eval_hands_per_second", hands / dt if dt > 0 else 0.0, r)
                if config.league.exploiters:
                    gate = _exploiter_gate(config, r, backend, {**trainers, **learners}, run_dir)
                    evaluation["exploiters"] = gate
                    for g in gate:
                        writer.add_scalar(f"exploit/{g['agent']}/{g['exploiter']}/mbb_per_hand", g["mbb_per_hand"], r)
                        writer.add_scalar(f"exploit/{g['agent']}/{g['exploiter']}/ci95", g["ci95"], r)
            if lbr_now:
                lbr_history += _log_lbr(config, r, run_dir, {**trainers, **learners}, writer, backend, starts)
            elapsed = elapsed_before + time.perf_counter() - session_start
            writer.add_scalar("charts/elapsed_seconds", elapsed, r)
            writer.flush()
            # 3. checkpoint (after the scalars: a kill in between is undone by purge_step on resume)
            state = {"round": r, "history": history, "lbr": lbr_history, "elapsed": elapsed, "config": config.to_dict()}
            _write_checkpoint(run_dir, state, {**trainers, **learners})
            chosen = choose_checkpoints(config, history, lbr_history)
            for n in policy_paths:
                keep = {policy_paths[n].name}
                if n in chosen:
                    keep.add(f"round_{chosen[n]['round']:04d}{policy_paths[n].suffix}")
                for old in (run_dir / "policies" / n).glob("round_*.*"):
                    if old.name not in keep:  # the latest round's file and the chosen one's stay
                        old.unlink(missing_ok=True)
            if bar is not None:
                bar.update(1)
            if stop_after_round is not None and r >= stop_after_round and r < config.league.rounds:
                raise _KilledError(f"stopped after round {r}")
    except _KilledError:
        last = history[-1] if history else {"agents": [], "pairs": []}
        table = _sorted_table(last["agents"], lbr_history)
        return LeagueResult(run_dir, r, table, last["pairs"], history, lbr_history, finished=False)
    finally:
        if bar is not None:
            bar.close()
        writer.close()
        for learner in learners.values():
            learner.close()  # its rollout worker processes, if it has any
        if own_backend:
            backend.close()

    last = history[-1] if history else {"agents": [], "pairs": []}
    table = _sorted_table(last["agents"], lbr_history)
    chosen = choose_checkpoints(config, history, lbr_history)
    result = LeagueResult(run_dir, config.league.rounds, table, last["pairs"], history, lbr_history, chosen=chosen)
    _write_json_atomic(run_dir / "league.json", result.to_json_dict())
    # policies/<agent>.<suffix>: the chosen round's policy (exploiter gate, then head to head), not the last one
    for n, tr in trainers.items():
        _keep_policy(run_dir, n, ".npz", chosen.get(n), lambda p, tr=tr: tr.policy({"league": config.name, "round": config.league.rounds}).save(p))
    for n, learner in learners.items():
        _keep_policy(
            run_dir, n, ".pt", chosen.get(n),
            lambda p, lr=learner: lr.save_policy(p, {"league": config.name, "round": config.league.rounds}),
        )
    if config.logging.plot and history:
        _plot(run_dir, config, history, lbr_history)
    if out is not None:
        out.write(format_league_table(result) + "\n")
    return result


