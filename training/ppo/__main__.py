"""``python -m holdem_env.training.ppo --config FILE [--resume]``: the stand-alone training run."""

from holdem_env.training.ppo.standalone import main

if __name__ == "__main__":
    main()
