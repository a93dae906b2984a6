"""Self-play with sb3-contrib's MaskablePPO, each reward credited to the seat that earned it.

    python examples/sb3_selfplay.py --timesteps 200000 --out selfplay.zip
    holdem eval "sb3(path='selfplay.zip')" tag --players 2 --hands 20000

PettingZoo's SB3 tutorial turns the AEC game into one Gymnasium env whose ``step`` returns the
reward of whichever agent moves next, so the learner is paid for its opponent's results and
collapses into folding. Here the learner always plays seat 0 of ``HoldemGymEnv`` (the button
moves every hand, so it plays both positions), the reward is seat 0's own chip change, and
seat 1 is a frozen copy of the learner, refreshed every ``--swap`` steps.

Self-play returns say nothing about strength (both seats improve or collapse together), so the
script ends with duplicate matches against ``tag`` and ``random`` in the project's arena (mbb/hand
with a 95% interval, VPIP, PFR). Torch runs on ``--threads`` threads (default 1).
"""

from __future__ import annotations

import argparse
import copy

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import holdem_env  # noqa: F401  (registers "holdem_env/Holdem-v1" with Gymnasium)
from holdem_env.integrations._common import add_script_arguments
from holdem_env.integrations.sb3 import progress_callback
from holdem_env.training.arena import report_strength


class FrozenSelf:
    """Seat 1: plays a frozen copy of the learner's policy (sampling, masked)."""

    def __init__(self, policy) -> None:
        self.policy = policy

    def act(self, observation: dict, info: dict) -> int:
        mask = observation["action_mask"].astype(bool)
        action, _ = self.policy.predict(observation, action_masks=mask, deterministic=False)
        return int(action)


class RefreshOpponent(BaseCallback):
    """Every ``swap`` steps, seat 1 takes a fresh copy of the learner's weights."""

    def __init__(self, opponent: FrozenSelf, swap: int) -> None:
        super().__init__()
        self.opponent, self.swap = opponent, swap

    def _on_step(self) -> bool:
        if self.num_timesteps % self.swap < self.training_env.num_envs:
            self.opponent.policy = copy.deepcopy(self.model.policy)
        return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--swap", type=int, default=20_000, help="steps between opponent refreshes")
    parser.add_argument("--envs", type=int, default=4)
    add_script_arguments(parser, out="selfplay.zip")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    opponent = FrozenSelf(policy=None)
    venv = DummyVecEnv(
        [lambda: Monitor(gymnasium.make("holdem_env/Holdem-v1", num_players=2, opponents=opponent))] * args.envs
    )
    venv.seed(args.seed)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=min(512, args.timesteps), batch_size=64, seed=args.seed)
    opponent.policy = copy.deepcopy(model.policy)  # seat 1 starts as the untrained learner
    print(f"self-play MaskablePPO: {args.timesteps:,} steps on {args.envs} tables, seat 1 refreshed every "
          f"{args.swap:,} steps", flush=True)
    progress = progress_callback(max(args.timesteps // 20, 1))
    model.learn(total_timesteps=args.timesteps, callback=CallbackList([RefreshOpponent(opponent, args.swap), progress]))
    model.save(args.out)
    print(f"saved {args.out}", flush=True)
    report_strength(f"sb3(path={args.out!r})", args.eval_hands, args.seed)


if __name__ == "__main__":
    main()
