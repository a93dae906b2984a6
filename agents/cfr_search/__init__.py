"""cfr-search: the heads-up no-limit bot that plays a compiled-MCCFR blueprint and re-solves subgames.

:mod:`~holdem_env.agents.cfr_search.abstraction` is the card abstraction shared by the
blueprint builder (:mod:`holdem_env.training.cfr_search`) and the bot;
:mod:`~holdem_env.agents.cfr_search.blueprint` loads and queries the blueprint policy file;
:mod:`~holdem_env.agents.cfr_search.resolve` solves and safely re-solves turn and river subgames.
"""

from __future__ import annotations
