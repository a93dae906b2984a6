"""The stand-alone training run: ``run`` (rounds, TensorBoard, checkpoints, resume) and its command line ``main``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from holdem_env.engine.errors import ConfigError
from holdem_env.fileutil import atomic_write_bytes, atomic_write_text
from holdem_env.signals import exit_on_sigterm

from .averaging import WeightAverage
from .config import PpoRunConfig, load_run_config
from .learner import PpoLearner, read_checkpoint

__all__ = ["run", "main"]


def run(config: PpoRunConfig, *, resume: bool = False, log: Any = print) -> PpoLearner:
    """Train ``config.rounds`` rounds (or continue a run with ``resume``); returns the learner.

    Writes TensorBoard events, ``config.yaml``, ``checkpoint.pt`` and ``policy.pt`` in
    ``<runs_dir>/<name>/``, and the policy to ``policy_out`` when set. With ``average_from``, also
    ``policy_avg.pt`` (the mean of the rounds averaged so far), and ``policy_out`` is that mean.
    """
    import yaml
    from torch.utils.tensorboard import SummaryWriter

    run_dir = Path(config.runs_dir) / config.name
    ck = run_dir / "checkpoint.pt"
    learner = PpoLearner(config.ppo, config.table, config.seed, name=config.name)
    average = WeightAverage()
    if resume:
        if not ck.is_file():
            raise ConfigError("resume", str(run_dir), "there is no checkpoint.pt to resume in this run folder")
        state = read_checkpoint(ck)
        if state.get("run_config") != config.to_dict():
            raise ConfigError("config", config.name, "differs from the checkpointed run's config")
        learner.load_state_dict(state)
        if "average" in state:
            average.load_state_dict(state["average"])
    elif ck.is_file():
        raise ConfigError("name", config.name, f"run folder {run_dir} already exists: pass --resume or use a new name")
    # a folder without checkpoint.pt (a run that died before its first round ended) starts again
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(run_dir / "config.yaml", yaml.safe_dump(config.to_dict(), sort_keys=False))
    writer = SummaryWriter(str(run_dir), purge_step=learner.global_step + 1 if resume else None)
    if not resume:
        writer.add_text("config", "    " + yaml.safe_dump(config.to_dict(), sort_keys=False).replace("\n", "\n    "), 0)
    try:
        for r in range(learner.rounds_done + 1, config.rounds + 1):
            stats = learner.train_round(config.iterations_per_round, r, writer)
            meta = {"run": config.name, "round": r}
            live = learner.policy(meta)
            if config.average_from and r >= config.average_from and (r - config.average_from) % config.average_every == 0:
                average.add(live.model.state_dict(), r)
            state = {**learner.state_dict(), "run_config": config.to_dict(), "average": average.state_dict()}
            atomic_write_bytes(ck, lambda fh, st=state: torch.save(st, fh))  # type: ignore[misc]
            live.save(run_dir / "policy.pt")
            if average.rounds:
                _averaged(live, average).save(run_dir / "policy_avg.pt")
            pool = ", ".join(f"{k} {v:+.0f}" for k, v in stats.pool.items() if v is not None)
            log(f"round {r}/{config.rounds}: {stats.decisions} decisions at {stats.sps:.0f}/s, "
                f"entropy {stats.losses.get('entropy', float('nan')):.3f}; rolling mbb/hand: {pool}")
        writer.flush()
    finally:
        writer.close()
        learner.close()
    if config.policy_out:
        final = learner.policy({"run": config.name, "round": config.rounds})
        (_averaged(final, average) if config.average_from else final).save(config.policy_out)
    return learner


def _averaged(policy: Any, average: WeightAverage) -> Any:
    """``policy`` (a fresh copy of the live network) with the average's weights and the rounds averaged in its metadata."""
    policy.model.load_state_dict(average.mean())
    policy.metadata["averaged_rounds"] = list(average.rounds)
    return policy


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m holdem_env.training.ppo --config FILE [--resume]``."""
    parser = argparse.ArgumentParser(
        prog="python -m holdem_env.training.ppo", description="Train the ppo learner (see the package docstring)."
    )
    parser.add_argument("--config", required=True, help="a YAML run config, e.g. configs/ppo_hu.yaml")
    parser.add_argument("--resume", action="store_true", help="continue the run from its checkpoint")
    args = parser.parse_args(argv)
    exit_on_sigterm()  # a `kill` still stops the rollout workers
    run(load_run_config(args.config), resume=args.resume)
