"""``holdem train --config configs/<name>.yaml``: league training logged to TensorBoard.

Prints a progress bar with ETA while it runs and the league table at the end; the run
folder (``runs/<name>/`` by default) holds the TensorBoard events, checkpoints, the
trained policies, ``league.json`` and ``league.png``. ``--resume`` continues a killed
run from its last checkpoint, logging to the same TensorBoard run.
"""

from __future__ import annotations

import argparse
import json
import sys

from holdem_env.engine.errors import HoldemError
from holdem_env.training.config import LeagueConfig, load_config
from holdem_env.training.league import run_league

__all__ = ["configure_parser", "run"]


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``holdem train`` options to ``parser``."""
    parser.add_argument("--config", required=True, help="league YAML file, e.g. configs/quickstart.yaml")
    parser.add_argument("--resume", action="store_true", help="continue the run in runs/<name>/ from its last checkpoint")
    parser.add_argument("--overwrite", action="store_true", help="delete an existing runs/<name>/ folder and start over")
    parser.add_argument("--runs-dir", default=None, help="override logging.runs_dir (default: the config's, 'runs')")
    parser.add_argument("--rounds", type=int, default=None, help="override league.rounds")
    parser.add_argument("--backend", choices=("local", "ray"), default=None, help="override backend.kind (ray: optional extra)")
    parser.add_argument("--workers", type=int, default=None, help="override backend.workers")
    parser.add_argument(
        "--isolate-agents", action="store_true",
        help="set league.isolate_agents: every agent plays in its own process (agents you do not trust)",
    )
    parser.add_argument("--json", action="store_true", help="print the final league table as JSON instead of text")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Run the league; exit status 0 on success, 2 on a configuration error."""
    try:
        config = load_config(args.config)
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
