"""``holdem train --config configs/<name>.yaml``: run a league, or a stand-alone PPO run, from its config file.

Every file of configs/ works: a league config (``agents:``, e.g. quickstart.yaml) runs the league,
logged to TensorBoard, with a progress bar and the league table at the end (the run folder
``runs/<name>/`` holds the TensorBoard events, checkpoints, the trained policies, ``league.json``
and ``league.png``); a stand-alone PPO run config (``rounds:`` and ``ppo:`` but no ``agents``,
e.g. ppo_hu.yaml, also read by ``python -m holdem_env.training.ppo``) trains the ppo learner and
prints a line a round. ``--resume`` continues a killed run from its last checkpoint, logging to
the same TensorBoard run.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from holdem_env.engine.errors import ConfigError, HoldemError
from holdem_env.training.config import LeagueConfig, config_kind, read_config_file
from holdem_env.training.league import run_league
from holdem_env.training.ppo import load_run_config
from holdem_env.training.ppo import run as run_ppo

if TYPE_CHECKING:
    from holdem_env.training.ppo import PpoRunConfig

__all__ = ["configure_parser", "load_train_config", "run"]

#: Options that only a league run has (a PPO run config refuses them rather than ignore them).
LEAGUE_ONLY = {"backend": "--backend", "workers": "--workers", "isolate_agents": "--isolate-agents", "json": "--json"}


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``holdem train`` options to ``parser``."""
    parser.add_argument(
        "--config", required=True,
        help="a league YAML file (configs/quickstart.yaml, six_max.yaml, tiny.yaml) or a PPO run file (configs/ppo_hu.yaml)",
    )
    parser.add_argument("--resume", action="store_true", help="continue the run in runs/<name>/ from its last checkpoint")
    parser.add_argument("--overwrite", action="store_true", help="delete an existing runs/<name>/ folder and start over")
    parser.add_argument("--runs-dir", default=None, help="override the config's runs folder (default: 'runs')")
    parser.add_argument("--rounds", type=int, default=None, help="override the number of rounds (league.rounds, or rounds)")
    parser.add_argument("--backend", choices=("local", "ray"), default=None, help="league: override backend.kind (ray: optional extra)")
    parser.add_argument("--workers", type=int, default=None, help="league: override backend.workers")
    parser.add_argument(
        "--isolate-agents", action="store_true",
        help="league: set league.isolate_agents: every agent plays in its own process (agents you do not trust)",
    )
    parser.add_argument("--json", action="store_true", help="league: print the final league table as JSON instead of text")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def load_train_config(path: str | Path) -> LeagueConfig | PpoRunConfig:
    """Read and validate a config file of either kind (:func:`~holdem_env.training.config.config_kind`)."""
    data = read_config_file(path)
    if config_kind(data) == "ppo":
        return load_run_config(path)
    try:
        return LeagueConfig.from_dict(data)
    except RecursionError:
        raise ConfigError("config", str(path), "is nested too deeply to read") from None


def run(args: argparse.Namespace) -> int:
    """Run the league or the PPO run; exit status 0 on success, 2 on a configuration error."""
    try:
        config = load_train_config(args.config)
        if not isinstance(config, LeagueConfig):
            return _run_ppo(config, args)
        data = config.to_dict()
        if args.runs_dir is not None:
            data["logging"]["runs_dir"] = args.runs_dir
        if args.rounds is not None:
            data["league"]["rounds"] = args.rounds
        if args.backend is not None:
            data["backend"]["kind"] = args.backend
        if args.workers is not None:
            data["backend"]["workers"] = args.workers
        if args.isolate_agents:
            data["league"]["isolate_agents"] = True
        config = LeagueConfig.from_dict(data)
        result = run_league(
            config,
            resume=args.resume,
            overwrite=args.overwrite,
            progress=not args.no_progress,
            out=None if args.json else sys.stdout,
        )
    except HoldemError as exc:
        print(f"holdem train: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"run_dir": str(result.run_dir), **result.to_json_dict()}, indent=1))
    return 0


def _run_ppo(config: PpoRunConfig, args: argparse.Namespace) -> int:
    """A stand-alone PPO run (configs/ppo_hu.yaml), with the options that apply to it."""
    for attr, flag in LEAGUE_ONLY.items():
        if getattr(args, attr) not in (None, False):
            raise ConfigError(flag.lstrip("-"), getattr(args, attr), f"applies to league configs only; {args.config} is a PPO run config")
    changes: dict[str, Any] = {}
    if args.runs_dir is not None:
        changes["runs_dir"] = args.runs_dir
    if args.rounds is not None:
        changes["rounds"] = args.rounds
    config = dataclasses.replace(config, **changes)  # validated again
    if args.overwrite and args.resume:
        raise ConfigError("resume", True, "cannot be combined with overwrite")
    run_dir = Path(config.runs_dir) / config.name
    if args.overwrite and run_dir.exists():
        shutil.rmtree(run_dir)
    run_ppo(config, resume=args.resume, log=print)
    policy = run_dir / ("policy_avg.pt" if config.average_from else "policy.pt")  # the weight average, when set
    print(f"ppo run {config.name}: policy in {policy}" + (f" and {config.policy_out}" if config.policy_out else ""))
    return 0
