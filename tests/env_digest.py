"""A digest of everything ``nlhe_v1`` and the engine return over a fixed set of seeded hands.

Run as a script it prints the hex digest (then the files ``holdem_env.engine.state`` and
``nlhe_v1`` were loaded from), so the compiled build can be compared with the pure-Python
sources (``HOLDEM_ENV_PURE_PYTHON=1``) byte for byte (``tests/test_compiled_build.py``);
``--copies`` prints whether deep copies and pickled copies of the env continue alike. Covers
2/3/6/10 seats, exact and discrete modes, the three betting structures, antes, unequal stacks,
illegal actions under ``"timeout"``, every ``last()`` (observation and mask bytes, reward,
flags, ``info["legal"]``), view snapshots, rewards, and each hand's record as JSON.
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np

CONFIGS = (
    {"num_players": 6, "action_mode": "exact"},
    {"num_players": 6, "action_mode": "discrete"},
    {"num_players": 2, "action_mode": "exact", "betting": "pot-limit"},
    {"num_players": 3, "action_mode": "discrete", "betting": "fixed-limit", "ante": 2},
    {"num_players": 10, "action_mode": "exact", "pad_seats": False, "illegal_action": "timeout", "reward_unit": "chips"},
    {"num_players": 4, "action_mode": "discrete", "pad_seats": True, "bet_sizes": (0.5, 1.0, 3.0)},
)


def digest(hands_per_config: int = 150) -> str:
    from holdem_env import nlhe_v1

    h = hashlib.sha256()
    for ci, kwargs in enumerate(CONFIGS):
        env = nlhe_v1.env(**kwargs)
        rng = np.random.default_rng(ci)
        n = kwargs["num_players"]
        for hand in range(hands_per_config):
            options = None
            if hand % 5 == 1:
                stacks = [int(x) for x in rng.integers(0, 1001, n)]
                stacks[0] = stacks[1] = max(stacks[0], 1)
                options = {"stacks": stacks}
            env.reset(seed=ci * 1000 + hand if hand % 7 == 0 else None, options=options)
            for i, agent in enumerate(env.agent_iter()):
                obs, reward, term, trunc, info = env.last()
                h.update(agent.encode())
                h.update(obs["observation"].tobytes())
                h.update(obs["action_mask"].tobytes())
                h.update(repr((reward, term, trunc, sorted(info["legal"].items()))).encode())
                if i % 4 == 0:
                    h.update(repr(info["view"].snapshot()).encode())
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                if kwargs.get("illegal_action") == "timeout" and rng.random() < 0.05:
                    action = int(rng.integers(0, env.action_space(agent).n))
                else:
                    action = int(legal[rng.integers(len(legal))])
                env.step(action)
                h.update(repr(sorted(env.rewards.items())).encode())
            h.update(env.unwrapped.hand_record().to_json().encode())
    return h.hexdigest()


def copies_continue_alike(hands: int = 12) -> bool:
    """Whether ``copy.deepcopy(env)`` and ``pickle.loads(pickle.dumps(env))`` taken in the middle
    of a hand continue exactly like the env itself (observations, rewards, infos, records)."""
    import copy
    import pickle

    from holdem_env import nlhe_v1

    def play(env, rng: np.random.Generator) -> list:  # type: ignore[no-untyped-def]
        out = []
        for hand in range(hands):
            if hand:
                env.reset()
            for agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, repr(info)))
                env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            out.append(env.unwrapped.hand_record().to_json())
        return out

    for kwargs in CONFIGS[:3]:
        env = nlhe_v1.env(**kwargs)
        env.reset(seed=5)
        for _ in range(3):  # into the hand
            obs = env.last()[0]
            env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
        expected = play(env, np.random.default_rng(1))
        if any(play(twin, np.random.default_rng(1)) != expected for twin in twins):
            return False
    return True


if __name__ == "__main__":
    # HOLDEM_ENV_PURE_PYTHON=1 in the environment runs the .py sources (holdem_env._build).
    import holdem_env.engine.state
    from holdem_env.env import _core

    args = sys.argv[1:]
    if args[:1] == ["--copies"]:
        print(copies_continue_alike(), holdem_env.engine.state.__file__, _core.__file__)
    else:
        print(digest(int(args[0]) if args else 150), holdem_env.engine.state.__file__, _core.__file__)
