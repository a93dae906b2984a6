"""Train sb3-contrib's MaskablePPO on HoldemGymEnv against a pool of our agents; save a model for `holdem eval`.

    pip install "holdem-env[examples]"
    python examples/sb3_maskable_ppo.py --timesteps 100000 --out ppo_holdem.zip
    holdem eval "sb3(path='ppo_holdem.zip')" tag --players 2 --hands 20000

Heads-up, discrete bet sizes. Each of the parallel environments seats the learner against one
opponent of the pool (random, tag, ...), so every rollout mixes them. The observation is the
env's dict (``MultiInputPolicy``); MaskablePPO reads the mask from ``env.action_masks()``.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv
from tqdm import tqdm

import holdem_env  # noqa: F401  (registers "holdem_env/Holdem-v0" with Gymnasium)
from holdem_env.agents.base import make_agent


def make_env(opponent: str, seed: int):
    """A thunk building one heads-up table: the learner in seat 0, ``opponent`` (an agent spec) in seat 1."""

    def thunk() -> gymnasium.Env:
        bot = make_agent(opponent, rng=np.random.default_rng(seed))
        return gymnasium.make("holdem_env/Holdem-v0", num_players=2, opponents=bot)

    return thunk


class ProgressBar(BaseCallback):
    """A tqdm bar over the training steps (SB3's own bar needs the extra ``rich`` package)."""

    def _on_training_start(self) -> None:
        self.bar = tqdm(total=self.locals["total_timesteps"], unit="step", desc="MaskablePPO")

    def _on_step(self) -> bool:
        # SB3 collects whole rollouts, so the last one may pass the requested total: the bar stops there
        self.bar.update(min(self.training_env.num_envs, self.bar.total - self.bar.n))
        return True

    def _on_training_end(self) -> None:
        self.bar.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--pool", nargs="+", default=["random", "tag"], help="opponent agent specs")
    parser.add_argument("--envs", type=int, default=4, help="parallel tables (opponents cycle through the pool)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="ppo_holdem.zip")
    args = parser.parse_args()

    venv = DummyVecEnv([make_env(args.pool[i % len(args.pool)], args.seed + i) for i in range(args.envs)])
    venv.seed(args.seed)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=min(512, args.timesteps), batch_size=64, seed=args.seed)
    model.learn(total_timesteps=args.timesteps, callback=ProgressBar())
    model.save(args.out)
    print(f"saved {args.out}; evaluate: holdem eval \"sb3(path='{args.out}')\" tag --players 2")


if __name__ == "__main__":
    main()
