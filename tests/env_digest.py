"""A digest of everything ``nlhe_v1`` and the engine return over a fixed set of seeded hands.

Run as a script it prints the hex digest for whichever ``holdem_env`` is imported first (then
the file ``holdem_env.engine.state`` came from and the observation builder's module; ``--pure`` keeps
compiled-only modules out), so the compiled build can be compared with the pure-Python sources
byte for byte
(``tests/test_compiled_build.py``). Covers 2/3/6/10 seats, exact and discrete modes, the
three betting structures, antes, unequal stacks, illegal actions under ``"timeout"``, every
``last()`` (observation and mask bytes, reward, flags, ``info["legal"]``), view snapshots,
rewards, and each hand's record as JSON.
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np

CONFIGS = (
    dict(num_players=6, action_mode="exact"),
    dict(num_players=6, action_mode="discrete"),
    dict(num_players=2, action_mode="exact", betting="pot-limit"),
    dict(num_players=3, action_mode="discrete", betting="fixed-limit", ante=2),
    dict(num_players=10, action_mode="exact", pad_seats=False, illegal_action="timeout", reward_unit="chips"),
    dict(num_players=4, action_mode="discrete", pad_seats=True, bet_sizes=(0.5, 1.0, 3.0)),
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


# Modules that exist only compiled (no .py twin). ``--pure`` blocks them: an editable install's
# import finder would otherwise still find them in the source tree.
COMPILED_ONLY = ("holdem_env.env._obsbuild_c",)

if __name__ == "__main__":
    args = sys.argv[1:]
    if "--pure" in args:
        args.remove("--pure")
        for name in COMPILED_ONLY:
            sys.modules[name] = None  # type: ignore[assignment]  # makes `import name` raise ImportError
    import holdem_env.engine.state
    from holdem_env import nlhe_v1

    print(
        digest(int(args[0]) if args else 150),
        holdem_env.engine.state.__file__,
        nlhe_v1.ObservationBuilder.__module__,
        file=sys.stdout,
    )
