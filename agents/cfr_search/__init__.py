"""cfr-search: the heads-up no-limit bot that plays a compiled-MCCFR blueprint (and, later, re-solves subgames).

:mod:`~holdem_env.agents.cfr_search.abstraction` is the card abstraction shared by the
blueprint builder (:mod:`holdem_env.training.cfr_search`) and the bot;
:mod:`~holdem_env.agents.cfr_search.blueprint` loads and queries the blueprint policy file.
"""

from __future__ import annotations
