"""``python -m holdem_env.training.cfr_search build ...``: the blueprint build command (:mod:`.build`)."""

from __future__ import annotations

import sys

from holdem_env.training.cfr_search.build import main

sys.exit(main())
