"""Tianshou 2.0 DQN with action masks on HoldemGymEnv; saves a TorchScript policy for `holdem eval`.

    pip install "holdem-env[examples]"
    python examples/tianshou_dqn.py --epochs 10 --out dqn_policy.pt
    holdem eval "torchscript(path='dqn_policy.pt')" random --players 2 --hands 20000

Tianshou masks Q-values when the observation is a dict with ``obs`` and ``mask`` (a bool array),
so a small wrapper renames the env's ``observation`` / ``action_mask``. It also passes empty
infos: Tianshou stores infos in its replay buffer, which needs every step's info to have the
same keys and plain array values.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import holdem_env  # noqa: F401  (registers "holdem_env/Holdem-v0" with Gymnasium)
from holdem_env.agents.base import make_agent


class TianshouMasked(gymnasium.ObservationWrapper):
    """``{"obs": float32 vector, "mask": bool mask}`` observations and empty infos."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        space = env.observation_space
        self.observation_space = gymnasium.spaces.Dict(
            {"obs": space["observation"], "mask": gymnasium.spaces.MultiBinary(space["action_mask"].shape[0])}
        )

    def observation(self, observation: dict) -> dict:
        return {"obs": observation["observation"], "mask": observation["action_mask"].astype(bool)}

    def reset(self, **kwargs):
        return super().reset(**kwargs)[0], {}

    def step(self, action):
        return (*super().step(action)[:4], {})


class Exported(torch.nn.Module):
    """``q_values = policy(obs, mask)``: the TorchScript format `holdem eval` loads (the agent applies the mask)."""

    def __init__(self, net: Net) -> None:
        super().__init__()
        self.net = net

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.net(obs)[0]


def make_env(opponent: str, seed: int):
    def thunk() -> gymnasium.Env:
        bot = make_agent(opponent, rng=np.random.default_rng(seed))
        return TianshouMasked(gymnasium.make("holdem_env/Holdem-v0", num_players=2, opponents=bot, reward_scale=0.1))

    return thunk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--epoch-steps", type=int, default=10_000)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--test-episodes", type=int, default=20, help="hands played greedily after each epoch")
    parser.add_argument("--opponent", default="random", help="agent spec in the other seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="dqn_policy.pt")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    train_envs = DummyVectorEnv([make_env(args.opponent, args.seed + i) for i in range(args.envs)])
    test_envs = DummyVectorEnv([make_env(args.opponent, args.seed + 100)])
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 100)
    probe = make_env(args.opponent, args.seed)()
    obs_dim, num_actions = probe.observation_space["obs"].shape[0], int(probe.action_space.n)

    net = Net(state_shape=obs_dim, action_shape=num_actions, hidden_sizes=[128, 128])
    policy = DiscreteQLearningPolicy(
        model=net, action_space=probe.action_space, eps_training=0.1, eps_inference=0.0
    )
    algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=1.0, target_update_freq=200)
    train_collector = Collector(algorithm, train_envs, VectorReplayBuffer(20_000, args.envs), exploration_noise=True)
    test_collector = Collector(algorithm, test_envs, exploration_noise=False)
    train_collector.reset()
    train_collector.collect(n_step=64 * args.envs, random=True)  # warm-up transitions
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=args.epochs,
            epoch_num_steps=args.epoch_steps,
            collection_step_num_env_steps=64,
            test_step_num_episodes=args.test_episodes,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.25,
            show_progress=False,
        )
    )
    print(result)
    example = (torch.zeros(1, obs_dim), torch.ones(1, num_actions))
    torch.jit.save(torch.jit.trace(Exported(net).eval(), example), args.out)
    print(f"saved {args.out}; evaluate: holdem eval \"torchscript(path='{args.out}')\" random --players 2")


if __name__ == "__main__":
    main()
