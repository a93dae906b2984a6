"""Time per decision of the cfr-search bot, by street: median, 90th percentile and maximum CPU seconds.

Usage::

    .venv/bin/python benchmarks/bench_cfr_search_decisions.py --hands 200 --resolve turn --seed 1
    .venv/bin/python benchmarks/bench_cfr_search_decisions.py --hands 200 --resolve river --opponent tag
    .venv/bin/python benchmarks/bench_cfr_search_decisions.py --hands 60 --options "turn_max_raises=2"

Plays ``--hands`` heads-up hands of the env at 50/100 with 20,000 stacks (200 big blinds: the
shipped blueprint's depth, what ``holdem lbr`` plays) between ``cfr-search(resolve=...)`` (the shipped
blueprint, or ``--blueprint``) in seat 0 and ``--opponent`` (default ``lbr-like``: a stand-in for LBR's
line, which checks or calls before the turn and then bets a pot or all-in when it may, else calls;
any agent spec works), the button alternating. Around each of the bot's ``act`` calls it reads
``time.process_time`` (this process's CPU time: one core, so the other jobs on a shared machine do not
count), and prints a markdown row per street (decisions, median, p90, max, and how many came from
the blueprint, a re-solve or the off-tree rule), with the machine's load average. The first decision
on a new flop builds every holding's buckets for that flop's run-outs (part of the flop row).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from holdem_env.agents import make_agent
from holdem_env.agents.tag import nearest_raise_id
from holdem_env.env import nlhe_v1
from holdem_env.env.loop import decisions

STREETS = ("preflop", "flop", "turn", "river")


class LbrLike:
    """Checks or calls before the turn; from the turn on bets a pot (exact mode) or all-in when it may."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        mask = np.asarray(observation["action_mask"])
        legal = info["legal"]
        if info["view"]["street"] in ("preflop", "flop") or not legal.get("min_raise_to"):
            return 1 if mask[1] else 0
        view = info["view"]
        if self.rng.random() < 0.5:
            return 1  # check or call
        pot_raise = int(view["current_bet"]) + int(view["pot"]) + int(legal.get("call", 0))
        target = int(legal["max_raise_to"]) if self.rng.random() < 0.3 else pot_raise
        return nearest_raise_id(target, mask, view, legal, "exact", ())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--resolve", choices=("flop", "turn", "river", "none"), default="turn")
    parser.add_argument("--opponent", default="lbr-like")
    parser.add_argument("--blueprint", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="", help="more keyword arguments of the bot, e.g. \"turn_max_raises=2\"")
    args = parser.parse_args()
    more = (f", blueprint={args.blueprint!r}" if args.blueprint else "") + (f", {args.options}" if args.options else "")
    spec = f"cfr-search(resolve={args.resolve!r}{more})"
    rng = np.random.default_rng(args.seed)
    bot = make_agent(spec, rng=np.random.default_rng(rng.integers(2**63)))
    opponent = LbrLike(rng) if args.opponent == "lbr-like" else make_agent(args.opponent, rng=rng)
    mode = "exact" if args.opponent == "lbr-like" else "discrete"
    env = nlhe_v1.env(num_players=2, action_mode=mode, reward_unit="chips", small_blind=50, big_blind=100, buy_in=20000)
    times: dict[str, list[float]] = {s: [] for s in STREETS}
    sources: dict[str, dict[str, int]] = {s: {"blueprint": 0, "resolved": 0, "off_tree": 0} for s in STREETS}
    wall = time.perf_counter()

    def new_hand(hand: int) -> dict:
        bot.start_hand({})  # a new hand: a new translation key (the bot reads nothing else from it)
        return {"button": hand % 2}

    for obs, info in decisions(env, args.hands, args.seed * 1_000_003, new_hand):
        if env.agent_selection == "player_0":
            street = info["view"]["street"]
            before = dict(bot.counts)
            t = time.process_time()
            action = bot.act(obs, info)
            times[street].append(time.process_time() - t)
            for k, v in bot.counts.items():
                sources[street][k] += v - before[k]
        else:
            action = opponent.act(obs, info)
        env.step(action)
    wall = time.perf_counter() - wall
    print(f"{spec} against {args.opponent}, {args.hands} hands, seed {args.seed}: {wall:.0f} s wall")
    print(
        "| street | decisions | median CPU s | p90 CPU s | max CPU s | computed by blueprint / re-solve / off-tree rule |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for street in STREETS:
        t = np.array(times[street])
        if len(t):
            s = sources[street]
            print(
                f"| {street} | {len(t)} | {np.median(t):.3f} | {np.quantile(t, 0.9):.3f} | {t.max():.3f} "
                f"| {s['blueprint']} / {s['resolved']} / {s['off_tree']} |"
            )
    print(f"(load average at the end: {tuple(round(x, 1) for x in os.getloadavg())})")


if __name__ == "__main__":
    main()
