"""Build a cfr-lite policy file by self-play MCCFR (the shipped policies are built with this).

Heads-up (the shipped ``agents/data/cfr_lite_hu.npz``)::

    python -m holdem_env.training.cfr_lite.build --players 2 --out agents/data/cfr_lite_hu.npz

6-max (``agents/data/cfr_lite_6max.npz``, a coarser abstraction)::

    python -m holdem_env.training.cfr_lite.build --players 6 --out agents/data/cfr_lite_6max.npz

The result depends only on the options (``--seed``, ``--iterations``, ``--workers``,
``--sync-every``, ``--chunk`` and the abstraction), never on timing, so the command
reproduces the file bit for bit; ``--workers`` and ``--chunk`` default to the preset's.
Progress (iterations, information sets, speed) goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from holdem_env.agents.cfr_lite.actions import ActionAbstraction
from holdem_env.agents.cfr_lite.buckets import CardAbstraction
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import HoldemError
from holdem_env.signals import exit_on_sigterm
from holdem_env.training.backends import LocalBackend
from holdem_env.training.cfr_lite.trainer import CfrLiteTrainer, train_parallel

__all__ = ["PRESETS", "build_policy", "main", "preset_abstraction"]

#: Deals sampled to set the bucket thresholds of the presets.
_SAMPLE_SIZE = 4000

#: Default abstraction and budget per table size (``2`` heads-up, ``6`` for 3-6 players).
PRESETS: dict[int, dict[str, Any]] = {
    2: {
        "pot_fractions": (0.5, 1.0),
        "max_raises_per_street": 2,
        "all_in_max_pot": 3.0,
        "preflop_buckets": 169,
        "postflop_buckets": (8, 8, 8),
        "spacing": 1.5,
        "iterations": 150_000,
        "min_visits": 3,
    },
    6: {
        "pot_fractions": (1.0,),
        "max_raises_per_street": 1,
        # 3-bets and 4-bets in the tree preflop (one raise a street after the flop)
        "preflop_max_raises": 3,
        "all_in_max_pot": 3.0,
        "preflop_buckets": 20,
        "postflop_buckets": (5, 5, 5),
        "spacing": 1.5,
        # postflop keys share every preflop line with the same summary (imperfect recall)
        "summarize_preflop": True,
        "iterations": 400_000,
        # only information sets trained this often are kept; the agent's off-tree rule
        # (tag's, by default) plays the rest (BENCHMARKS.md, cfr-lite 6-max, seventh round)
        "min_visits": 1000,
        # how the shipped file was built: one process, 5,000 iterations a chunk (each chunk
        # draws from its own seed), 3,000 s on this machine
        "workers": 1,
        "chunk": 5000,
    },
}


def preset_abstraction(players: int) -> tuple[ActionAbstraction, CardAbstraction]:
    """The action and card abstraction of the preset for a ``players``-seat table."""
    preset = PRESETS[2 if players == 2 else 6]
    actions = ActionAbstraction(
        tuple(preset["pot_fractions"]),
        True,
        int(preset["max_raises_per_street"]),
        preset.get("all_in_max_pot"),
        preset.get("preflop_max_raises"),
        bool(preset.get("summarize_preflop", False)),
    )
    cards = CardAbstraction(int(preset["preflop_buckets"]), tuple(preset["postflop_buckets"]), 0, _SAMPLE_SIZE, 0, spacing=float(preset["spacing"]))
    return actions, cards


def build_policy(
    players: int,
    out: str,
    *,
    iterations: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    sync_every: int = 2000,
    chunk: int | None = None,
    log: bool = True,
    snapshot_every: int = 0,
) -> dict[str, object]:
    """Train and save a policy for a ``players``-seat table (blinds 5/10, 100 big blinds).

    ``workers`` and ``chunk`` (iterations per worker between progress lines; each chunk
    draws from its own seed) default to the preset's (2 and 1,000 where it says nothing).
    """
    preset = PRESETS[2 if players == 2 else 6]
    workers = int(preset.get("workers", 2)) if workers is None else workers
    chunk = int(preset.get("chunk", 1000)) if chunk is None else chunk
    actions, cards = preset_abstraction(players)
    trainer = CfrLiteTrainer(TableConfig(num_players=players), actions, cards, averaging="linear")
    total = int(preset["iterations"]) if iterations is None else iterations
    backend = None
    map_fn: Callable[..., Iterable[Any]] = map
    if workers > 1:
        backend = LocalBackend(workers)
        map_fn = backend.map
    # How the agent plays preflop with this file (absent: from the policy itself).
    declared = {"preflop": preset["preflop"]} if preset.get("preflop", "policy") != "policy" else {}
    start = time.perf_counter()
    done, part = 0, 0
    try:
        cards.thresholds()
        while done < total:
            step = min(chunk * max(1, workers), total - done)
            seed_seq = np.random.SeedSequence(seed, spawn_key=(part,))
            train_parallel(trainer, step, seed_seq, workers, map_fn, sync_every=min(sync_every, chunk))
            done += step
            part += 1
            if snapshot_every and done % snapshot_every == 0 and done < total:
                snap = trainer.policy({"seed": seed, "snapshot": done, **declared}, min_visits=int(preset["min_visits"]))
                snap.save(str(out).removesuffix(".npz") + f".it{done}.npz")
            if log:
                dt = time.perf_counter() - start
                print(f"cfr-lite build: {done}/{total} iterations, {len(trainer.table)} infosets, {done / dt:.1f} it/s", file=sys.stderr)
    finally:
        if backend is not None:
            backend.close()
    seconds = time.perf_counter() - start
    info: dict[str, object] = {"seed": seed, "workers": workers, "sync_every": min(sync_every, chunk), "chunk": chunk, **declared}
    policy = trainer.policy(info, min_visits=int(preset["min_visits"]))
    policy.save(out)
    return {
        "out": out,
        "players": players,
        "iterations": trainer.iterations,
        "infosets_trained": len(trainer.table),
        "infosets_saved": len(policy),
        "seconds": round(seconds, 1),
        "iterations_per_second": round(trainer.iterations / seconds, 1) if seconds else None,
        "avg_regret": trainer.average_positive_regret(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(prog="python -m holdem_env.training.cfr_lite.build", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7), metavar="{2..6}")
    parser.add_argument("--out", required=True, help="policy file to write (.npz)")
    parser.add_argument("--iterations", type=int, default=None, help="MCCFR iterations (default: the preset's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None, help="processes sampling in parallel (part of the result; default: the preset's)")
    parser.add_argument("--sync-every", type=int, default=2000, help="iterations per worker between merges")
    parser.add_argument("--chunk", type=int, default=None, help="iterations per worker between progress lines (part of the result; default: the preset's)")
    parser.add_argument("--snapshot-every", type=int, default=0, help="also save <out>.it<N>.npz every N iterations")
    args = parser.parse_args(argv)
    exit_on_sigterm()  # a `kill` still shuts the worker pool down
    try:
        info = build_policy(args.players, args.out, iterations=args.iterations, seed=args.seed, workers=args.workers, sync_every=args.sync_every, chunk=args.chunk, snapshot_every=args.snapshot_every)
    except HoldemError as exc:
        print(f"cfr-lite build: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(info, indent=1))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
