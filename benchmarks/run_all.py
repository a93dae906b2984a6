"""Run every benchmark behind BENCHMARKS.md, one after another, and tee the output.

    .venv/bin/python benchmarks/run_all.py [--quick] [--only engine,env,...] [--log benchmarks/last_run.md]

Each benchmark is its own script (run them alone to reproduce a single figure); this
driver only sequences them so that no two compete for the two cores. Timings drift on a
shared machine: compare the ratios, which each script measures side by side in one run.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: name -> (full arguments, quick arguments)
BENCHMARKS: dict[str, tuple[list[str], list[str]]] = {
    "evaluator": (["bench_evaluator.py"], ["bench_evaluator.py", "--hands", "200000", "--skip-enumeration"]),
    "engine": (["bench_engine.py", "--hands", "20000", "--pokerkit-hands", "1000"], ["bench_engine.py", "--hands", "3000", "--pokerkit-hands", "200"]),
    "env": (["bench_env.py", "--hands", "2000", "--breakdown"], ["bench_env.py", "--hands", "300", "--players", "6"]),
    "equity": (["bench_equity.py"], ["bench_equity.py", "--samples", "50000", "--pokerkit-samples", "500", "--repeat", "1"]),
    "arena": (["bench_arena.py", "--throughput", "--targets"], ["bench_arena.py", "--throughput", "--hands", "1000"]),
    "cfr": (["bench_cfr.py"], ["bench_cfr.py", "--quick"]),
    "cfr_lite": (["bench_cfr_lite.py"], ["bench_cfr_lite.py", "--only", "speed"]),
    "pokerkit_differential": (["pokerkit_differential.py"], ["pokerkit_differential.py", "--hands", "500"]),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small budgets (a smoke run, not figures to publish)")
    parser.add_argument("--only", default=",".join(BENCHMARKS), help=f"comma-separated subset of {', '.join(BENCHMARKS)}")
    parser.add_argument("--log", type=Path, default=HERE / "last_run.md", help="where to tee the output")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    failed = []
    with args.log.open("w") as log:
        for name in names:
            full, quick = BENCHMARKS[name]
            cmd = [sys.executable, str(HERE / (quick if args.quick else full)[0]), *(quick if args.quick else full)[1:]]
            header = f"\n## {name}: `{' '.join(['python', 'benchmarks/' + cmd[1].rsplit('/', 1)[-1], *cmd[2:]])}`\n"
            print(header, flush=True)
            log.write(header)
            start = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE.parent)
            out = proc.stdout + (f"\n(stderr)\n{proc.stderr[-2000:]}" if proc.returncode else "")
            print(out, flush=True)
            log.write(out + f"\n({time.perf_counter() - start:.0f} s, exit {proc.returncode})\n")
            log.flush()
            if proc.returncode:
                failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
