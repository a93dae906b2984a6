"""Average the weights of ppo policy files of one network (checkpoint averaging, as in SWA).

    python benchmarks/average_ppo_policies.py OUT.pt IN1.pt IN2.pt ... [--weights W1 W2 ...]

Every tensor of the network (actor and critic) becomes the weighted mean of the inputs' tensors
(equal weights unless ``--weights`` gives one per input, normalised to sum 1). The inputs must share
one network config (layers, seats, bet sizes, features); the output keeps that config and the first
input's metadata, with ``averaged_from`` (the input file names and weights) added
(:func:`holdem_env.training.ppo.averaging.average_files`; a training run averages its own rounds
with ``average_from``). Worth trying only
for files of one run or of runs from one starting point (the same basin); the averaged network is a
new policy and must be measured like any other.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from holdem_env.engine.errors import ConfigError
from holdem_env.training.ppo.averaging import average_files


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("inputs", type=Path, nargs="+")
    parser.add_argument("--weights", type=float, nargs="+")
    args = parser.parse_args(argv)
    try:
        policy = average_files(list(args.inputs), args.weights)
    except ConfigError as exc:
        raise SystemExit(f"average_ppo_policies: {exc}") from None
    torch.set_num_threads(1)
    print(policy.save(args.out))


if __name__ == "__main__":
    main()
