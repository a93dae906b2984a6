"""A CleanRL-style masked PPO in one file: Gymnasium's SyncVectorEnv over HoldemGymEnv, TorchScript policy out.

    python examples/cleanrl_ppo.py --timesteps 200000 --out ppo_policy.pt
    holdem eval "torchscript(path='ppo_policy.pt')" tag --players 2 --hands 20000

Flat observations (``observation_format="flat"``): the last ``A`` entries are the action mask,
which the network uses to set illegal logits to -1e9. Rewards are in big blinds scaled by 0.1.

The training return alone says little: it can rise while the policy learns to fold every hand
(losing only blinds). So the script ends with duplicate matches of the saved policy against
``tag`` and ``random`` in the project's arena (mbb/hand with a 95% interval, VPIP, PFR), and each
update prints how often the policy folded. Torch runs on ``--threads`` threads (default 1: on a
busy machine torch's default, one per core, makes small networks many times slower).
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import torch
from torch import nn

import holdem_env  # noqa: F401  (registers "holdem_env/Holdem-v1" with Gymnasium)
from holdem_env.integrations._common import add_script_arguments
from holdem_env.training.arena import report_strength


class KeepNoInfo(gymnasium.Wrapper):
    """Drops the per-step info dicts, which SyncVectorEnv would try to batch and this loop never reads."""

    def reset(self, **kwargs):
        return self.env.reset(**kwargs)[0], {}

    def step(self, action):
        obs, reward, terminated, truncated, _ = self.env.step(action)
        return obs, reward, terminated, truncated, {}


class Agent(nn.Module):
    """Actor-critic MLP; ``forward(obs, mask)`` is the TorchScript policy that `holdem eval` loads."""

    def __init__(self, obs_dim: int, num_actions: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh())
        self.actor = nn.Linear(128, num_actions)
        self.critic = nn.Linear(128, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.actor(self.body(obs)).masked_fill(mask < 0.5, -1e9)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.body(obs)).squeeze(-1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--steps", type=int, default=128, help="rollout length per env")
    add_script_arguments(parser, out="ppo_policy.pt", opponent="tag")
    args = parser.parse_args()

    # Seeding: torch for the network and sampling, the env seeds for deals and opponents (reset(seed) reseeds them).
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    from holdem_env.agents.base import make_agent

    def thunk(i: int):
        bot = make_agent(args.opponent, rng=np.random.default_rng(args.seed + i))
        return lambda: KeepNoInfo(
            gymnasium.make(
                "holdem_env/Holdem-v1", num_players=2, opponents=bot, observation_format="flat", reward_scale=0.1
            )
        )

    # SAME_STEP autoreset: every step is a real decision. Gymnasium's default NEXT_STEP works too (a finished
    # hand's row has a placeholder mask allowing check/call, so the sampler never meets an empty mask), but it
    # spends one step per hand on an action that is ignored, and hands are only a few decisions long.
    envs = gymnasium.vector.SyncVectorEnv(
        [thunk(i) for i in range(args.envs)], autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP
    )
    num_actions = int(envs.single_action_space.n)
    obs_dim = envs.single_observation_space.shape[0] - num_actions
    agent = Agent(obs_dim, num_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=3e-4)

    n, t_len = args.envs, args.steps
    obs_buf = torch.zeros(t_len, n, obs_dim)
    mask_buf = torch.zeros(t_len, n, num_actions)
    act_buf = torch.zeros(t_len, n, dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros(t_len, n) for _ in range(4))

    flat, _ = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(flat, dtype=torch.float32)
    updates = max(1, args.timesteps // (n * t_len))
    print(f"training: {updates} updates of {n} envs x {t_len} steps against {args.opponent}", flush=True)
    for update in range(updates):
        for t in range(t_len):  # rollout
            obs, mask = next_obs[:, :-num_actions], next_obs[:, -num_actions:]
            with torch.no_grad():
                dist = torch.distributions.Categorical(logits=agent(obs, mask))
                action = dist.sample()
                val_buf[t] = agent.value(obs)
            obs_buf[t], mask_buf[t], act_buf[t], logp_buf[t] = obs, mask, action, dist.log_prob(action)
            flat, reward, terminated, truncated, _ = envs.step(action.numpy())
            rew_buf[t] = torch.as_tensor(reward, dtype=torch.float32)
            done_buf[t] = torch.as_tensor(terminated | truncated, dtype=torch.float32)
            next_obs = torch.as_tensor(flat, dtype=torch.float32)

        # GAE (gamma 1: a hand is a short episode); a done step's value target is its reward alone.
        with torch.no_grad():
            next_value = agent.value(next_obs[:, :-num_actions])
        advantages, last = torch.zeros(t_len, n), torch.zeros(n)
        for t in reversed(range(t_len)):
            nxt = next_value if t == t_len - 1 else val_buf[t + 1]
            delta = rew_buf[t] + nxt * (1 - done_buf[t]) - val_buf[t]
            last = delta + 0.95 * (1 - done_buf[t]) * last
            advantages[t] = last
        returns = advantages + val_buf

        b = lambda x: x.reshape(n * t_len, *x.shape[2:])  # noqa: E731
        b_obs, b_mask, b_act, b_logp, b_adv, b_ret = map(b, (obs_buf, mask_buf, act_buf, logp_buf, advantages, returns))
        for _ in range(4):  # PPO epochs over minibatches of 256
            for idx in torch.randperm(n * t_len).split(256):
                dist = torch.distributions.Categorical(logits=agent(b_obs[idx], b_mask[idx]))
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                adv = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(0.8, 1.2)).mean()
                v_loss = 0.5 * (agent.value(b_obs[idx]) - b_ret[idx]).pow(2).mean()
                loss = pg_loss + 0.5 * v_loss - 0.01 * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        done = done_buf.sum().item()
        per_hand = rew_buf.sum().item() * 10 / max(done, 1)  # rewards are bb x 0.1
        folds = (act_buf == 0).float().mean().item()
        print(f"update {update + 1}/{updates}: {int(done)} hands, {per_hand:+.2f} bb/hand, folds {folds:.0%} of "
              "decisions", flush=True)

    envs.close()
    torch.jit.save(torch.jit.script(agent), args.out)
    print(f"saved {args.out}", flush=True)
    report_strength(f"torchscript(path={args.out!r})", args.eval_hands, args.seed)


if __name__ == "__main__":
    main()
