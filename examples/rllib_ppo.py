"""RLlib PPO (new API stack) with its action-masking RLModule on HoldemGymEnv; saves a TorchScript policy.

    pip install "holdem-env[examples]" "ray[rllib]"
    python examples/rllib_ppo.py --iterations 50 --out rllib_policy.pt
    holdem eval "torchscript(path='rllib_policy.pt')" tag --players 2 --hands 20000

What to watch for (RLlib 2.x):
* ``disable_env_checking=True``: RLlib's checker steps the env with *unmasked* random actions
  and reports the resulting error as a misleading API error.
* RLlib's ``ActionMaskingTorchRLModule`` wants ``{"observations": ..., "action_mask": float}``,
  so a small wrapper renames the env's ``observation`` / ``action_mask``; it also passes empty
  infos (RLlib keeps them in its episodes).
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from holdem_env.agents.base import make_agent
from holdem_env.env.gym_wrapper import HoldemGymEnv


class RLlibMasked(gymnasium.ObservationWrapper):
    """HoldemGymEnv with ``{"observations", "action_mask" (float32)}`` observations and empty infos."""

    def __init__(self, config: dict) -> None:
        bot = make_agent(config.get("opponent", "tag"), rng=np.random.default_rng(config.get("seed", 0)))
        super().__init__(HoldemGymEnv(num_players=2, opponents=bot, reward_scale=0.1))
        space = self.env.observation_space
        float_mask = gymnasium.spaces.Box(0.0, 1.0, space["action_mask"].shape, np.float32)
        self.observation_space = gymnasium.spaces.Dict(
            {"observations": space["observation"], "action_mask": float_mask}
        )

    def observation(self, observation: dict) -> dict:
        mask = observation["action_mask"].astype(np.float32)
        return {"observations": observation["observation"], "action_mask": mask}

    def reset(self, **kwargs):
        return super().reset(**kwargs)[0], {}

    def step(self, action):
        return (*super().step(action)[:4], {})


class Exported(torch.nn.Module):
    """``logits = policy(obs, mask)``: the TorchScript format `holdem eval` loads."""

    def __init__(self, module: torch.nn.Module) -> None:
        super().__init__()
        self.module = module

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        batch = {"obs": {"observations": obs, "action_mask": mask}}
        return self.module.forward_inference(batch)["action_dist_inputs"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    parser.add_argument("--opponent", default="tag", help="agent spec in the other seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="rllib_policy.pt")
    args = parser.parse_args()

    config = (
        PPOConfig()
        .environment(RLlibMasked, env_config={"opponent": args.opponent, "seed": args.seed}, disable_env_checking=True)
        .env_runners(num_env_runners=0)  # sample in this process: no worker start-up
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(128, args.batch), num_epochs=4)
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    for i in range(args.iterations):
        result = algo.train()
        mean = result["env_runners"].get("episode_return_mean", float("nan"))
        print(f"iteration {i}: mean return {mean:+.3f} (x0.1 bb)")
    module = algo.get_module().eval()
    probe = RLlibMasked({})
    size, n = probe.observation_space["observations"].shape[0], int(probe.action_space.n)
    traced = torch.jit.trace(Exported(module), (torch.zeros(1, size), torch.ones(1, n)), strict=False)
    torch.jit.save(traced, args.out)
    algo.stop()
    print(f"saved {args.out}; evaluate: holdem eval \"torchscript(path='{args.out}')\" tag --players 2")


if __name__ == "__main__":
    main()
