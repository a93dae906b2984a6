"""cfr-search's parts: a compiled-MCCFR blueprint and subgame re-solving for heads-up no-limit and the agent that joins them.

:mod:`~holdem_env.agents.cfr_search.abstraction` is the card abstraction shared by the
blueprint builder (:mod:`holdem_env.training.cfr_search`) and the bot;
:mod:`~holdem_env.agents.cfr_search.blueprint` loads and queries the blueprint policy file;
:mod:`~holdem_env.agents.cfr_search.resolve` solves and safely re-solves turn and river subgames;
:mod:`~holdem_env.agents.cfr_search.agent` is the bot (``cfr-search``), following the public hand on the
blueprint (:mod:`~holdem_env.agents.cfr_search.follow`) and re-solving the river
(:mod:`~holdem_env.agents.cfr_search.search`).
"""

from __future__ import annotations
