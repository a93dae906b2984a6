"""RLlib PPO (new API stack) with its action-masking RLModule on HoldemGymEnv; reports its strength; saves TorchScript.

    pip install "holdem-env[examples]" "holdem-env[rllib]"
    python examples/rllib_ppo.py --iterations 50 --out rllib_policy.pt
    holdem eval "torchscript(path='rllib_policy.pt')" tag --players 2 --hands 20000

:class:`holdem_env.integrations.rllib.RLlibHoldemEnv` gives RLlib's ``ActionMaskingTorchRLModule``
the observation it reads (``{"observations", "action_mask" (float32)}``) and passes RLlib's env
checks, so no ``disable_env_checking`` is needed. RLlib's episode return alone says little (it can
rise while the policy learns to fold), so the script ends with duplicate matches against ``tag`` and
``random`` in the project's arena (mbb/hand with a 95% interval, VPIP, PFR). Torch runs on
``--threads`` threads (default 1).
"""

from __future__ import annotations

import argparse

import torch
from ray.rllib.algorithms.ppo import PPOConfig

from holdem_env.integrations._common import add_script_arguments
from holdem_env.integrations.rllib import RLlibHoldemEnv, action_masking_module_spec, export_torchscript
from holdem_env.training.arena import report_strength


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    add_script_arguments(parser, out="rllib_policy.pt", opponent="tag")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    env_config = {"opponent": args.opponent, "seed": args.seed, "reward_scale": 0.1}
    config = (
        PPOConfig()
        .environment(RLlibHoldemEnv, env_config=env_config)
        .env_runners(num_env_runners=0)  # sample in this process: no worker start-up
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(128, args.batch), num_epochs=4)
        .rl_module(rl_module_spec=action_masking_module_spec())
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    print(f"training RLlib PPO: {args.iterations} iterations of {args.batch:,} steps against {args.opponent}", flush=True)
    for i in range(args.iterations):
        result = algo.train()
        mean = result["env_runners"].get("episode_return_mean", float("nan"))
        print(f"iteration {i + 1}/{args.iterations}: mean return {mean * 10:+.2f} bb/hand", flush=True)
    probe = RLlibHoldemEnv(env_config)
    size, n = probe.observation_space["observations"].shape[0], int(probe.action_space.n)
    export_torchscript(algo.get_module(), size, n, args.out)
    algo.stop()
    print(f"saved {args.out}", flush=True)
    report_strength(f"torchscript(path={args.out!r})", args.eval_hands, args.seed)


if __name__ == "__main__":
    main()
