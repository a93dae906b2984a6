"""``holdem replay``: replay .phh/.phhs hand histories through the engine and report them.

``holdem replay [--json] [--check] PATH...`` replays every hand found in the given files
and directories (searched recursively for ``*.phh`` and ``*.phhs``). Files are read hand by
hand (:mod:`holdem_env.formats.phh_stream`), so a file of any size replays in bounded memory;
one hand is at most 1 MB of text with at most 10,000 actions (a larger one is reported as an
error and the others still replay).

- Without ``--json`` each hand is printed street by street: seats and stacks, forced
  bets, actions with amounts, board, showdown, pots and the result (file units).
- ``--json`` prints one JSON object per hand per line: ``{"path", "hand",
  "finishing_stacks"}`` or ``{"path", "hand", "error"}`` (``hand`` is the ``.phhs``
  section name, ``null`` for a ``.phh``).
- ``--strict`` refuses files that leave out actions; by default a skipped player's
  action is filled in as check-if-free-else-fold within the betting round (as PokerKit's
  reader does) and listed under ``repairs``; a check by the last player with chips after
  everyone else is all-in (PokerKit writes one; the engine skips that decision) is accepted
  as a no-op and listed under ``notes``. ``--strict`` refuses both.
- ``--check`` compares with the file's ``finishing_stacks`` (tolerance: half a chip in
  the file's smallest unit) and ends with ``N hands, N match, N differ, N errors``.

Exit status: 0 when every hand replayed (and, with ``--check``, none differs); 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, TextIO

from holdem_env.engine.actions import ActionKind
from holdem_env.engine.cards import card_str
from holdem_env.engine.errors import HoldemError
from holdem_env.engine.record import ActionEvent, DealEvent, MuckEvent, ShowEvent, UncalledBetReturned
from holdem_env.formats.phh import PHHActionError, PHHHand
from holdem_env.formats.phh_stream import iter_file
from holdem_env.formats.replay import ReplayResult, replay

__all__ = ["configure_parser", "run", "find_files", "format_hand"]

_SUFFIXES = (".phh", ".phhs")
_STREETS = ("Preflop", "Flop", "Turn", "River")


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``holdem replay`` arguments."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".phh/.phhs file or directory (searched recursively)")
    parser.add_argument("--json", action="store_true", help="one JSON object per hand per line")
    parser.add_argument(
        "--strict", action="store_true",
        help="refuse files that leave out actions (by default they are filled in as PokerKit does)",
    )
    parser.add_argument(
        "--check", action="store_true", help="compare with the files' finishing_stacks and print a summary line"
    )


def find_files(paths: Sequence[str | Path]) -> Iterator[tuple[Path, str | None]]:
    """Yield ``(file, None)`` for each hand-history file, or ``(path, why)`` for a bad path."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in _SUFFIXES)
            if not found:
                yield path, "directory holds no .phh or .phhs file"
            for p in found:
                yield p, None
        elif path.is_file():
            yield path, None
        else:
            yield path, "no such file or directory"


def _num(value: int | Decimal) -> int | float:
    return value if isinstance(value, int) else float(value)


def _units(hand: PHHHand, chips: int) -> str:
    return str(hand.to_units(chips))


def _cards(cards: Sequence[int] | None) -> str:
    return "??" if cards is None else " ".join(card_str(c) for c in cards)


def _hole(result: ReplayResult, seat: int) -> str:
    cards = result.state.hole_cards[seat]
    if cards is None:
        return "none"
    known = result.hole_cards_known(seat)
    return " ".join(card_str(c) if k else "??" for c, k in zip(cards, known, strict=True))


def format_hand(result: ReplayResult, path: str) -> str:
    """The replayed hand, street by street, as readable text (amounts in file units)."""

    hand, state = result.hand, result.state
    n = hand.num_players
    names = hand.players or tuple(f"p{i + 1}" for i in range(n))

    def who(seat: int) -> str:
        return names[seat] if hand.players is None else f"{names[seat]} (p{seat + 1})"

    def amt(chips: int) -> str:
        return _units(hand, chips)

    record = state.record()
    label = "" if hand.label() == "hand" else f" ({hand.label()})"
    lines = [f"== {path}{label}: {hand.variant} {n} players, blinds {amt(hand.small_blind)}/{amt(hand.big_blind)}"]
    for s in range(n):
        role = ["button"] if s == state.button else []
        if record.blinds[s]:
            role.append(f"posts {amt(record.blinds[s])}")
        if record.antes[s]:
            role.append(f"ante {amt(record.antes[s])}")
        lines.append(
            f"  seat {s + 1}: {who(s)} stack {amt(hand.starting_stacks[s])}, "
            f"cards {_hole(result, s)}" + (f" [{', '.join(role)}]" if role else "")
        )
    street = -1
    board: list[int] = []
    for ev in state.events:
        if isinstance(ev, ActionEvent):
            if int(ev.street) != street:
                street = int(ev.street)
                if street == 0:
                    lines.append(f"{_STREETS[0]}:")
            kind = ActionKind(ev.kind)
            if kind in (ActionKind.FOLD, ActionKind.CHECK):
                text = "folds" if kind == ActionKind.FOLD else "checks"
            elif kind == ActionKind.CALL:
                text = f"calls {amt(ev.amount)}"
            else:
                text = f"{'bets' if kind == ActionKind.BET else 'raises to'} {amt(ev.to)}"
            lines.append(f"  {who(ev.seat)} {text}" + (" (all-in)" if ev.all_in else ""))
        elif isinstance(ev, DealEvent):
            street = int(ev.street)
            board.extend(ev.cards)
            lines.append(f"{_STREETS[street]}: [{_cards(board)}]")
        elif isinstance(ev, UncalledBetReturned):
            lines.append(f"  uncalled {amt(ev.amount)} returned to {who(ev.seat)}")
        elif isinstance(ev, ShowEvent):
            lines.append(f"  {who(ev.seat)} shows {_hole(result, ev.seat)}")
        elif isinstance(ev, MuckEvent):
            lines.append(f"  {who(ev.seat)} mucks")
    for i, pot in enumerate(state.pots):
        label = "main pot" if i == 0 else f"side pot {i}"
        won = ", ".join(f"{who(w)} {amt(c)}" for w, c in zip(pot.winners, pot.shares, strict=True))
        lines.append(f"{label} {amt(pot.amount)}: {won}")
    lines.append("Result:")
    for s in range(n):
        net = result.finishing_stacks[s] - hand.starting_stacks[s]
        sign = "+" if net > 0 else ""
        lines.append(f"  {who(s)}: {amt(result.finishing_stacks[s])} ({sign}{amt(net)})")
    for reason in result.unknown:
        lines.append(f"  note: the result depends on unknown cards: {reason}")
    return "\n".join(lines)


def _replay_one(hand: PHHHand, strict: bool) -> tuple[ReplayResult | None, dict[str, Any]]:
    """Replay a hand: (result or None, the JSON fields beyond path and hand)."""
    try:
        result = replay(hand, repair=not strict)
    except PHHActionError as exc:
        return None, {"error": str(exc), "action_index": exc.index}
    except HoldemError as exc:
        return None, {"error": str(exc)}
    if result.unknown:
        return result, {"error": "the result depends on unknown cards: " + "; ".join(result.unknown)}
    fields: dict[str, Any] = {"finishing_stacks": [_num(v) for v in result.finishing_stacks_units]}
    if result.repairs:
        fields["repairs"] = list(result.repairs)
    if result.notes:
        fields["notes"] = list(result.notes)
    return result, fields


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Replay every hand under ``args.paths``; returns the exit status (1 if any hand failed)."""
    out = out if out is not None else sys.stdout
    counts = {"hands": 0, "match": 0, "differ": 0, "errors": 0}

    def emit(obj: dict[str, Any], text: str) -> None:
        print(json.dumps(obj) if args.json else text, file=out)

    for path, why in find_files(args.paths):
        if why is not None:
            counts["hands"] += 1
            counts["errors"] += 1
            emit({"path": str(path), "hand": None, "error": why}, f"== {path}: error: {why}")
            continue
        for name, hand in iter_file(path):
            counts["hands"] += 1
            if isinstance(hand, HoldemError):
                counts["errors"] += 1
                where = f"== {path}" if name is None else f"== {path} [{name}]"
                emit({"path": str(path), "hand": name, "error": str(hand)}, f"{where}: error: {hand}")
                continue
            result, fields = _replay_one(hand, getattr(args, "strict", False))
            obj: dict[str, Any] = {"path": str(path), "hand": hand.name, **fields}
            if "error" in fields:
                counts["errors"] += 1
                text = f"== {path} ({hand.label()}): error: {fields['error']}"
                if result is not None and not args.json:
                    text = format_hand(result, str(path)) + f"\nerror: {fields['error']}"
                emit(obj, text)
                continue
            assert result is not None
            text = format_hand(result, str(path))
            for note in (*result.repairs, *result.notes):
                text += f"\nnote: {note}"
            if args.check:
                verdict = result.matches()
                if verdict is not None:
                    counts["match" if verdict else "differ"] += 1
                    obj["match"] = verdict
                    diffs = result.differences()
                    assert diffs is not None
                    if not verdict:
                        obj["differences"] = [_num(d) for d in diffs]
                    recorded = ", ".join(str(v) for v in hand.finishing_stacks or ())
                    text += f"\ncheck: {'match' if verdict else 'DIFFER'} (file: [{recorded}])"
                else:
                    text += "\ncheck: the file records no finishing_stacks"
            emit(obj, text)
    failed = counts["errors"] > 0 or (args.check and counts["differ"] > 0)
    if args.check:
        summary = (
            f"{counts['hands']} hands, {counts['match']} match, {counts['differ']} differ, {counts['errors']} errors"
        )
        emit({"summary": summary, **counts}, summary)
    return 1 if failed else 0
