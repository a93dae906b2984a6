"""Tianshou 2.0 DQN with action masks on HoldemGymEnv; reports its strength; saves a TorchScript policy.

    pip install "holdem-env[examples]"
    python examples/tianshou_dqn.py --epochs 10 --out dqn_policy.pt
    holdem eval "torchscript(path='dqn_policy.pt')" random --players 2 --hands 20000

Tianshou masks Q-values when the observation is a dict with ``obs`` and ``mask`` (a bool array);
:class:`holdem_env.integrations.tianshou.TianshouHoldemEnv` gives that, with infos of constant keys
(Tianshou's replay buffer needs them). The greedy episodes Tianshou plays after each epoch are a
quick progress signal only; strength is measured at the end, in duplicate matches against ``tag``
and ``random`` in the project's arena (mbb/hand with a 95% interval, VPIP, PFR). Torch runs on
``--threads`` threads (default 1).
"""

from __future__ import annotations

import argparse

import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from holdem_env.integrations._common import add_script_arguments
from holdem_env.integrations.tianshou import export_q_network, make_tianshou_env
from holdem_env.training.arena import report_strength


def _arguments() -> argparse.Namespace:
    """The command line: DQN's schedule, then the options every example shares."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--epoch-steps", type=int, default=10_000)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--test-episodes", type=int, default=20, help="greedy hands after each epoch (progress only)")
    return add_script_arguments(parser, out="dqn_policy.pt", opponent="random").parse_args()


def main() -> None:
    args = _arguments()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    train_envs = DummyVectorEnv([make_tianshou_env(args.opponent, args.seed + i, reward_scale=0.1) for i in range(args.envs)])
    test_envs = DummyVectorEnv([make_tianshou_env(args.opponent, args.seed + 100, reward_scale=0.1)])
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 100)
    probe = make_tianshou_env(args.opponent, args.seed)()
    obs_dim, num_actions = probe.observation_space["obs"].shape[0], int(probe.action_space.n)

    net = Net(state_shape=obs_dim, action_shape=num_actions, hidden_sizes=[128, 128])
    policy = DiscreteQLearningPolicy(
        model=net, action_space=probe.action_space, eps_training=0.1, eps_inference=0.0
    )
    algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=1.0, target_update_freq=200)
    train_collector = Collector(algorithm, train_envs, VectorReplayBuffer(20_000, args.envs), exploration_noise=True)
    test_collector = Collector(algorithm, test_envs, exploration_noise=False)
    train_collector.reset()
    # warm-up transitions from the (masked, exploring) policy: Tianshou's random=True samples the action space
    # without the mask, and the env would play those illegal ids as timeouts (and warn)
    train_collector.collect(n_step=64 * args.envs)

    def progress(epoch: int, env_step: int | None) -> None:
        print(f"epoch {epoch}/{args.epochs}: {env_step or 0:,} env steps", flush=True)

    print(f"training DQN: {args.epochs} epochs of {args.epoch_steps:,} steps against {args.opponent}", flush=True)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=args.epochs,
            epoch_num_steps=args.epoch_steps,
            collection_step_num_env_steps=64,
            test_step_num_episodes=args.test_episodes,
            test_fn=progress,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.25,
            show_progress=False,
        )
    )
    print(f"best greedy test return {result.best_reward:+.3f} (x0.1 bb, {args.test_episodes} hands: noisy)", flush=True)
    export_q_network(net, obs_dim, num_actions, args.out)
    print(f"saved {args.out}", flush=True)
    report_strength(f"torchscript(path={args.out!r})", args.eval_hands, args.seed)


if __name__ == "__main__":
    main()
