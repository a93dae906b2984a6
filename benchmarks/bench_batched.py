"""Decisions per second of the batched core (holdem_env.batched) beside the single-table nlhe_v1 env.

Both play the same random policy (a uniform legal kind among fold, check/call, bet/raise, then a uniform
legal size) at 6-max tables of 100 big blinds, in one process, timed by process CPU time. The batched
core runs ``--tables`` tables with ``random_opponents``: every seat but the learner's is played inside the
compiled step, the learner's actions come from the same policy (``random_actions``); after every step each
table's legal set (fold, call amount, min and max raise-to) is written into its arrays. A decision is any
seat's action (learner or opponent). Further rows: the same with ``fill_views`` of every learner row
after each step (the one-seat views observations are encoded from, as BatchViews arrays), and with the
opponents played by an external ``decide`` bot (numpy, the same uniform-kind policy from its uniforms)
instead of the compiled random opponents. ``--verify N`` instead replays N batched hands on the engine's
``HandState`` (holdem_env.batched.verify) and fails at the first difference.

    python benchmarks/bench_batched.py --tables 1024
    python benchmarks/bench_batched.py --verify 100000
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from holdem_env import build_info, nlhe_v1
from holdem_env.batched import BatchedTables
from holdem_env.batched.verify import DiffStats, play_differential, replay_opponents
from holdem_env.batched.views import BatchViews


class UniformKindBot:
    """The random opponents' policy as an external ``decide`` bot (numpy over the rows)."""

    uniforms_per_decision = 2

    def decide(self, v: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        fold = v.legal_fold.astype(np.int64)
        lo, hi = v.min_raise_to, v.max_raise_to
        raises = np.where(lo > 0, hi - lo + 1, 0)
        r = (uniforms[:, 0] * (fold + 1 + (raises > 0))).astype(np.int64) - fold
        sized = lo + 1 + (uniforms[:, 1] * raises).astype(np.int64)
        return np.where(r < 0, 0, np.where(r == 0, 1, sized))


def bench_batched(
    tables: int, players: int, seconds: float, seed: int, dense_mask: int, engine_deal: bool = False,
    views: bool = False, external: bool = False,
) -> tuple[float, float]:
    """(decisions/s, hands/s) of the batched core with random opponents, over about ``seconds`` of CPU
    (``engine_deal``: decks shuffled per table as ``Table(config, seed=s)`` does, the ``table_seeds`` mode;
    ``views``: ``fill_views`` of every learner row after each step; ``external``: the opponents are a
    ``decide`` bot played through ``opponents={"others": bot}``)."""
    table_seeds = list(range(seed, seed + tables)) if engine_deal else None
    opp = {"others": UniformKindBot()} if external else None
    bt = BatchedTables(tables, players, 5, 10, 1000, seed=seed, random_opponents=not external, table_seeds=table_seeds,
                       opponents=opp, random_learner_seat=external)
    out = BatchViews.empty(tables, players, 5, 10)
    for _ in range(20):  # warm up (the evaluator's table, the pools)
        bt.step(bt.random_actions())
    d0, h0 = bt.decisions, int(bt.hands_played.sum())
    t0 = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(50):
            bt.step(bt.random_actions())
            if views:
                bt.fill_views(None, out)
            if dense_mask:
                bt.legal_mask(dense_mask)
        elapsed = time.process_time() - t0
    return (bt.decisions - d0) / elapsed, (int(bt.hands_played.sum()) - h0) / elapsed


def bench_single(players: int, seconds: float, seed: int) -> tuple[float, float]:
    """(decisions/s, hands/s) of nlhe_v1 (exact ids, AEC loop) with the same policy (bench_env's)."""
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
    from bench_env import _play_aec

    env = nlhe_v1.env(num_players=players, action_mode="exact")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    _play_aec(env, 50, rng, exact=True)
    hands = steps = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        h, s = _play_aec(env, 200, rng, exact=True)
        hands, steps = hands + h, steps + s
    elapsed = time.process_time() - t0
    return steps / elapsed, hands / elapsed


def verify(hands: int, seed: int) -> int:
    """Replay ``hands`` batched hands (a mix of table sizes, stacks, blinds and antes) on HandState."""
    configs = [  # (players, small blind, big blind, ante, stack range, share of the hands)
        (2, 5, 10, 0, (11, 400), 0.15), (3, 5, 10, 0, (11, 400), 0.15), (6, 5, 10, 0, (11, 1000), 0.25),
        (10, 5, 10, 0, (11, 600), 0.15), (4, 1, 2, 1, (4, 301), 0.15), (6, 5, 10, 0, (20_000, 20_001), 0.15),
    ]
    total = DiffStats()
    t0 = time.perf_counter()
    for i, (n, sb, bb, ante, (lo, hi), share) in enumerate(configs):
        rng = np.random.default_rng(seed + i)
        stacks = rng.integers(lo, hi, size=(64, n))
        bt = BatchedTables(64, n, sb, bb, 1000, seed=seed + i, ante=ante, stacks=stacks)
        s = play_differential(bt, int(hands * share), seed=seed + i, ante=ante, shove=lo < 20_000)
        print(f"  {n} seats, blinds {sb}/{bb}, ante {ante}, stacks {lo}..{hi - 1}: {s.hands:,} hands, "
              f"{s.decisions:,} decisions, {s.showdowns:,} showdowns ({s.runouts:,} all-in run-outs), "
              f"{s.side_pots:,} with side pots, {s.split_pots:,} with split pots: identical", flush=True)
        for name in ("hands", "decisions", "showdowns", "side_pots", "split_pots", "runouts"):
            setattr(total, name, getattr(total, name) + getattr(s, name))
    bt = BatchedTables(64, 6, 5, 10, 300, seed=seed, random_opponents=True, record=True, learner_seat=1)
    s = replay_opponents(bt, max(hands // 400, 10), seed=seed)
    print(f"  random opponents (6 seats, traces replayed): {s.hands:,} hands, {s.decisions:,} decisions: identical")
    print(f"verified {total.hands + s.hands:,} hands ({total.decisions + s.decisions:,} decisions) against HandState "
          f"in {time.perf_counter() - t0:.0f} s: actors, legal sets, pots, seat views (fill_views) and payoffs identical")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1024)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dense-mask", type=int, default=0, metavar="WIDTH",
                        help="also build the (tables, WIDTH) exact-id mask (numpy) after every step")
    parser.add_argument("--verify", type=int, default=None, metavar="HANDS", help="replay HANDS hands on HandState")
    args = parser.parse_args(argv)
    if args.verify is not None:
        return verify(args.verify, args.seed)
    info = build_info()
    if "holdem_env.batched._tables" not in info["compiled"]:
        print("note: the batched core runs from its .py source here (run `make build` for the compiled core)")
    bd, bh = bench_batched(args.tables, args.players, args.seconds, args.seed, args.dense_mask)
    vd, vh = bench_batched(args.tables, args.players, args.seconds, args.seed, args.dense_mask, views=True)
    xd, xh = bench_batched(args.tables, args.players, args.seconds, args.seed, args.dense_mask, views=True, external=True)
    ed, eh = bench_batched(args.tables, args.players, args.seconds, args.seed, args.dense_mask, engine_deal=True)
    sd, sh = bench_single(args.players, args.seconds, args.seed)
    print(f"{args.players} players, random policy, one process (CPU time)")
    print("| env | decisions/s | hands/s |\n|---|---:|---:|")
    print(f"| batched core, {args.tables} tables, random opponents | {bd:,.0f} | {bh:,.0f} |")
    print(f"| batched core, {args.tables} tables, random opponents, `fill_views` of every learner row each step "
          f"| {vd:,.0f} | {vh:,.0f} |")
    print(f"| batched core, {args.tables} tables, opponents an external numpy `decide` bot, random learner seat, "
          f"`fill_views` each step | {xd:,.0f} | {xh:,.0f} |")
    print(f"| batched core, {args.tables} tables, random opponents, `table_seeds` (engine decks) | {ed:,.0f} | {eh:,.0f} |")
    print(f"| nlhe_v1 exact, one table (AEC loop) | {sd:,.0f} | {sh:,.0f} |")
    print(f"ratio: {bd / sd:.0f}x decisions/s ({ed / sd:.0f}x with table_seeds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
