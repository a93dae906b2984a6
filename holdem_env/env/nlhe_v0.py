"""``holdem_env.env.nlhe_v0``: the previous name of :mod:`holdem_env.env.nlhe_v1` (the same module object).

Kept importable so code written against ``nlhe_v0`` keeps running; it gets ``nlhe_v1``'s
behaviour (see its version history for what changed).
"""

import sys

from holdem_env.env import nlhe_v1 as _impl

sys.modules[__name__] = _impl
