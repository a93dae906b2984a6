"""``holdem_env.phh``: the PHH hand-history format under its public name.

The same module object as :mod:`holdem_env.formats.phh`, where it is implemented.
"""

import sys

from holdem_env.formats import phh as _impl

sys.modules[__name__] = _impl
