"""Average the weights of ppo policy files of one network (checkpoint averaging, as in SWA).

    python benchmarks/average_ppo_policies.py OUT.pt IN1.pt IN2.pt ... [--weights W1 W2 ...]

Every tensor of the network (actor and critic) becomes the weighted mean of the inputs' tensors
(equal weights unless ``--weights`` gives one per input, normalised to sum 1). The inputs must share
one network config (layers, seats, bet sizes, features); the output keeps that config and the first
input's metadata, with ``averaged_from`` (the input file names and weights) added. Worth trying only
for files of one run or of runs from one starting point (the same basin); the averaged network is a
new policy and must be measured like any other.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from holdem_env.agents.ppo import PpoPolicy


def average(paths: list[Path], weights: list[float] | None = None) -> PpoPolicy:
    """The weighted weight average of the policy files at ``paths`` (a new :class:`PpoPolicy`)."""
    if not paths:
        raise SystemExit("average_ppo_policies: give at least one input file")
    w = [1.0] * len(paths) if weights is None else [float(x) for x in weights]
    if len(w) != len(paths) or min(w) < 0 or sum(w) <= 0:
        raise SystemExit("average_ppo_policies: --weights needs one non-negative weight per input, not all 0")
    w = [x / sum(w) for x in w]
    policies = [PpoPolicy.load(p) for p in paths]
    first = policies[0]
    for p, pol in zip(paths, policies, strict=True):
        if pol.config != first.config:
            raise SystemExit(f"average_ppo_policies: {p} has another network config than {paths[0]}")
    states = [pol.model.state_dict() for pol in policies]
    mean = {k: sum(wi * s[k].double() for wi, s in zip(w, states, strict=True)).to(states[0][k].dtype) for k in states[0]}
    out = PpoPolicy.load(paths[0])
    out.model.load_state_dict(mean)
    out.metadata = dict(first.metadata)
    out.metadata["averaged_from"] = [[Path(p).name, round(wi, 6)] for p, wi in zip(paths, w, strict=True)]
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("inputs", type=Path, nargs="+")
    parser.add_argument("--weights", type=float, nargs="+")
    args = parser.parse_args(argv)
    policy = average(list(args.inputs), args.weights)
    torch.set_num_threads(1)
    print(policy.save(args.out))


if __name__ == "__main__":
    main()
