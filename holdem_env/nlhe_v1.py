"""``holdem_env.nlhe_v1``: the PettingZoo environment under its public name.

The implementation and its documentation (observation, actions, rewards, version history) are
in :mod:`holdem_env.env.nlhe_v1`; this module is the same module object, so
``from holdem_env import nlhe_v1`` and ``pettingzoo.make("aec", "holdem_env/nlhe-v1")`` behave
exactly alike.
"""

import sys

from holdem_env.env import nlhe_v1 as _impl

sys.modules[__name__] = _impl
