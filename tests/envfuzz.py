"""Fuzzing the environment with random legal and illegal actions (used by test_properties_env.py).

Run as a script for a long fuzz, e.g. ``python tests/envfuzz.py --hands 200000``: every
combination of 2/3/6/10 seats, the three betting structures and both action modes gets an
equal share of the hands; the exit status is 1 if any rule was broken.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np

from holdem_env import nlhe_v1
from holdem_env.engine.errors import IllegalActionError, short_repr

SEATS = (2, 3, 6, 10)
BETTINGS = ("no-limit", "pot-limit", "fixed-limit")
MODES = ("discrete", "exact")


class RuleViolationError(AssertionError):
    """The environment broke an invariant."""


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise RuleViolationError(what)


def _snapshot(env: nlhe_v1.raw_env, agent: str) -> tuple:
    state = env.state_object
    obs = env.observe(agent)
    return (
        env.agent_selection, state.num_events, state.stacks, state.street_bets, state.pot,
        obs["observation"].tobytes(), obs["action_mask"].tobytes(),
    )


def _illegal_id(env: nlhe_v1.raw_env, mask: np.ndarray, rng: np.random.Generator) -> object:
    """An action the env must refuse: a masked id, an id out of range, or not an id at all."""
    masked = np.flatnonzero(mask == 0)
    r = rng.random()
    if r < 0.5 and masked.size:
        return int(masked[rng.integers(masked.size)])
    if r < 0.7:
        return int(rng.choice([-1, env.num_actions, env.num_actions + 7, -(10**30)]))
    if r < 0.85:
        return 10**5000 if rng.random() < 0.5 else -(10**5000)
    return [True, 1.0, "1", None][int(rng.integers(4))]


def play_hand(env: nlhe_v1.raw_env, rng: np.random.Generator, stacks: list[int] | None, illegal_rate: float) -> int:
    """Play one hand with random actions, checking every invariant; returns the refused actions."""
    env.reset(seed=int(rng.integers(2**32)), options=None if stacks is None else {"stacks": stacks})
    state = env.state_object
    total = sum(state.starting_stacks)
    refused = 0
    first = True  # every hand tries at least one illegal action
    while not all(env.terminations.values()):
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        legal = np.flatnonzero(mask)
        _check(legal.size > 0, "no legal action for the agent on turn")
        if first or rng.random() < illegal_rate:
            first = False
            before = _snapshot(env, agent)
            bad = _illegal_id(env, mask, rng)
            try:
                env.step(bad)
            except IllegalActionError:
                refused += 1
            else:
                raise RuleViolationError(f"illegal action {short_repr(bad)} was accepted")
            _check(_snapshot(env, agent) == before, f"a refused action {short_repr(bad)} changed the state")
        action = int(legal[rng.integers(legal.size)])
        env.step(action)
        state = env.state_object
        _check(min(state.stacks) >= 0, "a negative stack")
        _check(sum(state.stacks) + state.pot == total, "chips were created or lost")
    state = env.state_object
    _check(state.payoffs is not None and sum(state.payoffs) == 0, "payoffs do not sum to zero")
    _check(sum(state.final_stacks) == total, "final stacks do not add up")
    rewards = sum(env._cumulative_rewards.values())
    _check(abs(rewards) < 1e-6, f"rewards sum to {rewards}, not zero")
    return refused


def fuzz(num_players: int, betting: str, mode: str, hands: int, seed: int, illegal_rate: float = 0.3) -> int:
    """Play ``hands`` hands at one table kind; returns the refused illegal actions (raises on a violation)."""
    env = nlhe_v1.raw_env(num_players=num_players, betting=betting, action_mode=mode, max_stack=3000)
    rng = np.random.default_rng(seed)
    refused = 0
    for _ in range(hands):
        stacks = None
        if rng.random() < 0.5:  # unequal stacks, some short or sitting out
            stacks = [int(x) for x in rng.integers(0, 3001, num_players)]
            if sum(1 for x in stacks if x > 0) < 2:
                stacks[0], stacks[1] = 5, 7
        refused += play_hand(env, rng, stacks, illegal_rate)
    return refused


def main(argv: list[str] | None = None) -> int:
    """The long fuzz (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    kinds = list(itertools.product(SEATS, BETTINGS, MODES))
    per_kind = -(-args.hands // len(kinds))
    t0 = time.perf_counter()
    violations = refused = 0
    for k, (n, betting, mode) in enumerate(kinds):
        try:
            refused += fuzz(n, betting, mode, per_kind, args.seed * 1000 + k)
        except RuleViolationError as exc:
            violations += 1
            print(f"VIOLATION at {n} seats, {betting}, {mode}: {exc}", flush=True)
    hands = per_kind * len(kinds)
    print(f"{hands} hands over {len(kinds)} table kinds, {refused} illegal actions refused, "
          f"{violations} rule violations, {time.perf_counter() - t0:.0f} s")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
