"""``holdem_env.gym_wrapper``: the Gymnasium single-learner wrapper under its public name.

The same module object as :mod:`holdem_env.env.gym_wrapper`, where it is implemented.
"""

import sys

from holdem_env.env import gym_wrapper as _impl

sys.modules[__name__] = _impl
