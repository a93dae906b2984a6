"""Engine speed: hands/s and decisions/s of HandState vs PokerKit 0.7.7 on the same random-play workload.

Workload (both engines): 6 players, blinds 5/10, 100 big blinds each, a fresh shuffled
deck every hand, the button moving one seat per hand. Each decision is uniform over
{fold (only when facing a bet), check/call, bet/raise (when allowed)}; a raise size is
uniform over the whole legal raise-to interval ``[min, max]``. Hands run to the end
(showdown included: PokerKit evaluates hands too).

Run: ``.venv/bin/python benchmarks/bench_engine.py [--hands 20000] [--pokerkit-hands 1000] [--clock cpu]``.
Prints one markdown table row per engine and the ratio. Timings are not tests.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np

from holdem_env.engine.config import TableConfig
from holdem_env.engine.state import HandState

_clock = time.process_time  # CPU time: steady on a shared machine (both engines are single-threaded)
PLAYERS = 6
SB, BB, STACK = 5, 10, 1000


def _draws(seed: int) -> tuple[Callable[[], float], Callable[[int, int], int]]:
    """The policy's own generator, seeded: its ``random`` and ``randint``."""
    pick = random.Random(seed)
    return pick.random, pick.randint


def _pick(rand, facing: bool, can_raise: bool) -> int:
    """The random policy of both engines: -1 fold, 0 check/call, 1 raise, uniform over what is legal."""
    r = int(rand() * ((2 if facing else 1) + can_raise))
    return r - 1 if facing else r


def play_ours(hands: int, seed: int) -> tuple[int, float]:
    """Play ``hands`` hands; returns (decisions, seconds)."""
    cfg = TableConfig(num_players=PLAYERS, small_blind=SB, big_blind=BB, buy_in=STACK)
    rng = np.random.default_rng(seed)
    rand, randint = _draws(seed)
    decisions = 0
    t0 = _clock()
    for h in range(hands):
        s = HandState(cfg, button=h % PLAYERS, rng=rng)
        while s.actor is not None:
            la = s.legal_actions()
            facing = la.call > 0
            lo = la.min_raise_to
            r = _pick(rand, facing, lo is not None)
            if r < 0:
                s.fold()
            elif r == 0:
                if facing:
                    s.call()
                else:
                    s.check()
            else:
                s.raise_to(randint(lo, la.max_raise_to))  # type: ignore[arg-type]
            decisions += 1
    return decisions, _clock() - t0


def play_pokerkit(hands: int, seed: int) -> tuple[int, float]:
    """The same workload through PokerKit 0.7.7 with every non-decision step automated."""
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    random.seed(seed)  # PokerKit shuffles with the global ``random``
    rand, randint = _draws(seed)
    decisions = 0
    t0 = _clock()
    for _ in range(hands):
        # PokerKit seats the small blind at index 0; the button is the last seat.
        s = NoLimitTexasHoldem.create_state(automations, True, 0, (SB, BB), BB, (STACK,) * PLAYERS, PLAYERS)
        while s.status:
            if s.actor_index is None:  # pragma: no cover - all other steps are automated
                break
            r = _pick(rand, s.checking_or_calling_amount > 0, s.can_complete_bet_or_raise_to())
            if r < 0:
                s.fold()
            elif r == 0:
                s.check_or_call()
            else:
                lo = s.min_completion_betting_or_raising_to_amount
                hi = s.max_completion_betting_or_raising_to_amount
                s.complete_bet_or_raise_to(randint(lo, hi))
            decisions += 1
    return decisions, _clock() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands for holdem_env")
    parser.add_argument("--pokerkit-hands", type=int, default=1000, help="hands for PokerKit (slower)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-pokerkit", action="store_true", help="only time holdem_env")
    parser.add_argument(
        "--clock", choices=("cpu", "wall"), default="cpu", help="cpu: process CPU time; wall: perf_counter"
    )
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    global _clock
    _clock = time.process_time if args.clock == "cpu" else time.perf_counter

    play_ours(max(args.hands // 20, 50), args.seed + 1)  # warm-up (imports, evaluator tables)
    d, dt = play_ours(args.hands, args.seed)
    ours_h, ours_d = args.hands / dt, d / dt
    given = sys.argv[1:] if argv is None else argv
    command = " ".join([".venv/bin/python", "benchmarks/bench_engine.py", *map(shlex.quote, given)])
    print(f"Command: `{command}` ({args.clock} time)")
    print()
    print("| engine | hands | hands/s | decisions/s | decisions/hand |")
    print("|---|---:|---:|---:|---:|")
    print(f"| holdem_env HandState | {args.hands} | {ours_h:,.0f} | {ours_d:,.0f} | {d / args.hands:.2f} |")
    if args.no_pokerkit:
        return 0
    play_pokerkit(max(args.pokerkit_hands // 20, 10), args.seed + 1)
    pd, pdt = play_pokerkit(args.pokerkit_hands, args.seed)
    pk_h, pk_d = args.pokerkit_hands / pdt, pd / pdt
    print(f"| PokerKit 0.7.7 | {args.pokerkit_hands} | {pk_h:,.0f} | {pk_d:,.0f} | {pd / args.pokerkit_hands:.2f} |")
    print()
    print(f"holdem_env / PokerKit: {ours_h / pk_h:.1f}x hands/s, {ours_d / pk_d:.1f}x decisions/s (target >= 30x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
