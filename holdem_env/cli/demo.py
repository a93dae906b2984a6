"""``holdem demo``: a 6-max table of playing styles plays a few hands, printed; then a real hand is replayed.

The table seats the bundled styles in turn: ``tag`` (tight-aggressive), ``lag``
(loose-aggressive) and ``calling-station`` (agents/tag.py, agents/styles.py), each seeded from
``--seed``. Every hand played is converted to PHH, read back and replayed through the engine,
so the printout is also a live round-trip check: the demo exits with status 1 if a replay does
not reproduce the hand's final stacks. Then it replays a published hand history (Dwan vs Ivey,
2009, bundled) or ``--phh FILE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from holdem_env.agents.base import make_agent
from holdem_env.cli.replay import format_hand
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, HoldemError
from holdem_env.engine.record import HandRecord
from holdem_env.engine.state import HandState
from holdem_env.env.nlhe_v1 import raw_env
from holdem_env.formats import SAMPLE_HISTORY
from holdem_env.formats.phh import from_record, load_file
from holdem_env.formats.replay import replay

__all__ = ["configure_parser", "run", "random_action", "STYLES", "lineup", "play_hands"]

_SAMPLE = SAMPLE_HISTORY.name

#: The styles seated in turn around the demo table: agent spec -> what it is.
STYLES = {"tag": "tight-aggressive", "lag": "loose-aggressive", "calling-station": "loose-passive, calls down"}


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``holdem demo`` arguments."""
    parser.add_argument("--hands", type=int, default=3, help="hands to play (default 3)")
    parser.add_argument("--players", type=int, default=6, help="players at the table, 2-10 (default 6)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deal and of the players (default 7)")
    parser.add_argument(
        "--phh", type=Path, default=None, help=f"hand history to replay at the end (default: the bundled {_SAMPLE})"
    )


def random_action(hand: HandState, rng: np.random.Generator) -> None:
    """Play one uniformly random legal action type, then a uniform legal size (the benchmark workload)."""
    legal = hand.legal_actions()
    choices = []
    if legal.fold and legal.call:
        choices.append("fold")
    choices.append("call" if legal.call else "check")
    if legal.min_raise_to is not None:
        choices.append("raise")
    pick = choices[int(rng.integers(len(choices)))]
    if pick == "fold":
        hand.fold()
    elif pick == "check":
        hand.check()
    elif pick == "call":
        hand.call()
    else:
        lo, hi = legal.min_raise_to, legal.max_raise_to
        assert lo is not None and hi is not None, "a raise is offered only when a raise-to range exists"
        hand.raise_to(int(rng.integers(lo, hi + 1)))


def lineup(players: int) -> list[tuple[str, str]]:
    """``(name, spec)`` of each seat: the :data:`STYLES` in turn, numbered (``tag-1``, ``lag-1``, ...)."""
    specs = list(STYLES)
    return [(f"{specs[s % len(specs)]}-{s // len(specs) + 1}", specs[s % len(specs)]) for s in range(players)]


def play_hands(config: TableConfig, specs: list[str], hands: int, seed: int) -> list[HandRecord]:
    """Play ``hands`` hands at one table (the button moving on), seat ``s`` played by ``specs[s]``."""
    children = np.random.SeedSequence(seed).spawn(len(specs))
    agents = [make_agent(spec, rng=np.random.default_rng(child)) for spec, child in zip(specs, children, strict=True)]
    env = raw_env(**config.to_dict())
    records = []
    for h in range(hands):
        env.reset(seed=seed if h == 0 else None)  # a seed starts the table; then the next hand at it
        for s, agent in enumerate(agents):
            hook = getattr(agent, "start_hand", None)
            if hook is not None:
                hook(env.infos[env.possible_agents[s]])
        while env.agents and not all(env.terminations.values()):
            name = env.agent_selection
            env.step(int(agents[env.agent_name_mapping[name]].act(env.observe(name), env.infos[name])))
        records.append(env.hand_record())
    return records


def run(args: argparse.Namespace) -> int:
    """Play ``args.hands`` hands, print them with their PHH round trip, then replay ``args.phh``.

    Returns 0 when every round trip and replay matches, 1 when one differs, 2 for bad
    arguments or an unreadable hand history (the message goes to stderr).
    """
    if args.hands < 0:
        print(f"holdem demo: --hands must be >= 0 (got {args.hands})", file=sys.stderr)
        return 2
    if args.seed < 0:
        print(f"holdem demo: --seed must be >= 0 (got {args.seed})", file=sys.stderr)
        return 2
    try:
        config = TableConfig(num_players=args.players)
    except ConfigError as exc:
        print(f"holdem demo: --players: {exc}", file=sys.stderr)
        return 2
    path = args.phh
    try:  # read the history first, so a bad --phh fails before any hand is printed
        hands = load_file(path if path is not None else SAMPLE_HISTORY)
    except HoldemError as exc:
        print(f"holdem demo: --phh {path}: {exc}", file=sys.stderr)
        return 2
    label = _SAMPLE if path is None else str(path)
    seats = lineup(config.num_players)
    names = [name for name, _ in seats]
    print(f"== {config.num_players} bots at one table (blinds {config.small_blind}/{config.big_blind}, seed {args.seed}), clockwise:")
    print("   " + ", ".join(f"{name} ({STYLES[spec]})" for name, spec in seats))
    print()
    records = play_hands(config, [spec for _, spec in seats], args.hands, args.seed)
    failures = 0
    for i, record in enumerate(records):
        order = [(record.button + k) % config.num_players for k in range(1, config.num_players + 1)]
        result = replay(from_record(record, players=[names[s] for s in order if record.dealt_in[s]]))
        print(format_hand(result, f"demo hand {i + 1}"))
        print()
        played = [s - 1 for s in result.hand.extra["seats"]]
        final_stacks = record.final_stacks
        assert final_stacks is not None, "a finished hand's record has final stacks"
        engine_stacks = tuple(final_stacks[s] for s in played)
        if engine_stacks != result.finishing_stacks:
            print(f"round trip FAILED for hand {i + 1}: {engine_stacks} != {result.finishing_stacks}", file=sys.stderr)
            failures += 1
    if records:
        net = [sum(int(r.payoffs[s]) for r in records if r.payoffs is not None) for s in range(config.num_players)]
        print(f"after {len(records)} hands: " + ", ".join(f"{name} {chips:+d}" for name, chips in zip(names, net, strict=True)))
        print()
    for history in hands:
        try:
            result = replay(history)
        except HoldemError as exc:
            print(f"holdem demo: {label}: cannot replay: {exc}", file=sys.stderr)
            failures += 1
            continue
        print(format_hand(result, label))
        if history.finishing_stacks is not None:
            verdict = "matches" if result.matches() else "DIFFERS from"
            print(f"replayed final stacks {verdict} the recorded finishing_stacks")
            failures += 0 if result.matches() else 1
    return 1 if failures else 0
