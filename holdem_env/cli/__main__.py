"""``python -m holdem_env.cli``: the same as the ``holdem`` command."""

import sys

from holdem_env.cli import main

sys.exit(main())
