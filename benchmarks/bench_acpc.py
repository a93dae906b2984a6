"""Hands/s of ACPC matches over loopback TCP: our dealer and the ACPC reference dealer, same clients.

Usage::

    .venv/bin/python benchmarks/bench_acpc.py [--hands 2000] [--agents random,always-call]

Builds the reference dealer and example player from ``tests/acpc_reference`` (gcc), then times,
on heads-up no-limit (50/100, 20,000 stacks), each dealer process from its first line (the
ports) to its exit: ``holdem dealer`` and the reference ``dealer`` with two ``holdem connect``
processes (our agents), and, for scale, both dealers with two reference example players.
Prints a markdown table for benchmarks/BENCHMARKS.md and the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT / "tests" / "acpc_reference"
GAME = REF / "holdem.nolimit.2p.reverse_blinds.game"


def build(out: Path) -> None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        sys.exit("bench_acpc: needs gcc to build the reference dealer")
    common = [str(REF / "game.c"), str(REF / "rng.c"), str(REF / "net.c")]
    for name in ("dealer", "example_player"):
        subprocess.run([cc, "-O2", "-o", str(out / name), "-I", str(REF), *common, str(REF / f"{name}.c")], check=True)


def timed(dealer_cmd: list[str], client_cmds: list[list[str]], cwd: Path) -> float:
    """Seconds from the dealer's ports line to its exit, clients started on those ports."""
    dealer = subprocess.Popen(dealer_cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    start = time.perf_counter()
    clients = [subprocess.Popen([*cmd, "127.0.0.1", port], cwd=cwd, stdout=subprocess.DEVNULL)
               for cmd, port in zip(client_cmds, ports, strict=True)]
    tail = dealer.stdout.read()
    dealer.wait()
    seconds = time.perf_counter() - start
    for c in clients:
        c.wait(timeout=120)
    if dealer.returncode != 0 or "SCORE" not in tail:
        sys.exit(f"bench_acpc: {dealer_cmd[0]} failed: {tail[-500:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--agents", default="random,always-call", help="two agent specs for holdem connect")
    args = parser.parse_args()
    agents = args.agents.split(",")
    holdem = [sys.executable, "-m", "holdem_env.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        build(work)
        ours = [*holdem, "dealer", "--hands", str(args.hands), "--seed", "1", "--no-progress", "--log", "ours.log"]
        theirs = [str(work / "dealer"), "ref", str(GAME), str(args.hands), "1", "a", "b", "-q"]

        def ours_connect(spec: str) -> list[str]:
            return [sys.executable, "-c", "import sys; from holdem_env.cli import main; "
                    f"sys.exit(main(['connect', sys.argv[1], sys.argv[2], {spec!r}]))"]

        example = [str(work / "example_player"), str(GAME)]
        rows = [
            ("`holdem dealer`", f"`holdem connect` {agents[0]} + {agents[1]}", ours, [ours_connect(a) for a in agents]),
            ("reference `dealer`", f"`holdem connect` {agents[0]} + {agents[1]}", theirs, [ours_connect(a) for a in agents]),
            ("`holdem dealer`", "reference example_player x2", ours, [example, example]),
            ("reference `dealer`", "reference example_player x2", theirs, [example, example]),
        ]
        print(f"{args.hands} hands of heads-up no-limit per row; load average before: {os.getloadavg()[0]:.1f}")
        print("| dealer | clients | seconds | hands/s |\n|---|---|---:|---:|")
        for dealer_name, clients_name, dealer_cmd, client_cmds in rows:
            seconds = timed(dealer_cmd, client_cmds, work)
            print(f"| {dealer_name} | {clients_name} | {seconds:.2f} | {args.hands / seconds:,.0f} |", flush=True)
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
