"""Train sb3-contrib's MaskablePPO on HoldemGymEnv against a pool of our agents; report its strength; save the model.

    pip install "holdem-env[examples]"
    python examples/sb3_maskable_ppo.py --timesteps 100000 --out ppo_holdem.zip
    holdem eval "sb3(path='ppo_holdem.zip')" tag --players 2 --hands 20000

Heads-up, discrete bet sizes. :func:`holdem_env.integrations.sb3.make_sb3_vec_env` seats the learner
at each parallel table against one opponent of the pool (random, tag, ...; its own seeded object per
table), so every rollout mixes them. The observation is the env's dict (``MultiInputPolicy``);
MaskablePPO reads the mask from ``env.action_masks()``. SB3's own
``make_vec_env("holdem_env/Holdem-v1", n_envs=4)`` works as well (random opponents unless
``env_kwargs`` name one, shared by every table).

The training return alone says little (it can rise while the policy learns to fold), so the script
ends with duplicate matches against ``tag`` and ``random`` in the project's arena (mbb/hand with a
95% interval, VPIP, PFR). Torch runs on ``--threads`` threads (default 1).
"""

from __future__ import annotations

import argparse

import torch
from sb3_contrib import MaskablePPO

from holdem_env.integrations._common import add_script_arguments
from holdem_env.integrations.sb3 import make_sb3_vec_env, progress_callback
from holdem_env.training.arena import report_strength


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--pool", nargs="+", default=["random", "tag"], help="opponent agent specs")
    parser.add_argument("--envs", type=int, default=4, help="parallel tables (opponents cycle through the pool)")
    add_script_arguments(parser, out="ppo_holdem.zip")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    venv = make_sb3_vec_env(args.envs, pool=args.pool, seed=args.seed)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=min(512, args.timesteps), batch_size=64, seed=args.seed)
    print(f"training MaskablePPO: {args.timesteps:,} steps on {args.envs} tables against {args.pool}", flush=True)
    model.learn(total_timesteps=args.timesteps, callback=progress_callback(max(args.timesteps // 20, 1)))
    model.save(args.out)
    print(f"saved {args.out}", flush=True)
    report_strength(f"sb3(path={args.out!r})", args.eval_hands, args.seed)


if __name__ == "__main__":
    main()
