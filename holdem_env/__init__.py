"""holdem-env: an exact, fast Texas Hold'em engine and PettingZoo environment.

Packages (imports point one way, left to right)::

    engine  <-  env  <-  agents  <-  training      formats (PHH) and cli sit on the engine / on top

* :mod:`holdem_env.engine` -- the rules: cards, evaluator, equity, config, hand state, pots,
  records, table. Imports only numpy and the standard library.
* :mod:`holdem_env.env` -- the PettingZoo environment ``nlhe_v1`` and the Gymnasium wrapper.
* :mod:`holdem_env.formats` -- hand-history formats (PHH) and replay through the engine.
* :mod:`holdem_env.agents` / :mod:`holdem_env.training` -- the bots, and the arena, solvers and
  league (the repository's top-level ``agents/`` and ``training/`` folders, installed under this
  package so they never collide with a user's own ``agents`` package).
* :mod:`holdem_env.cli` -- the ``holdem`` command.

Importing this package registers ``"holdem_env/nlhe-v1"`` (and its previous name
``"holdem_env/nlhe-v0"``) with PettingZoo and ``"holdem_env/Holdem-v1"`` with Gymnasium, without
importing either library (see :mod:`holdem_env.env.registration`). This package re-exports the
engine's public names; ``holdem_env.nlhe_v1`` (and its previous name ``holdem_env.nlhe_v0``),
``holdem_env.gym_wrapper`` and ``holdem_env.phh`` remain importable under their old names.

>>> from holdem_env import HandState, TableConfig
>>> hand = HandState(TableConfig(num_players=2), button=0, seed=1)
>>> hand.legal_actions().call   # the small blind owes 5 more to call the big blind
5
"""

from __future__ import annotations

from holdem_env._build import build_info, pure_python_requested, use_pure_python

if pure_python_requested():  # before any compiled module is imported
    use_pure_python()

from holdem_env.engine.actions import Action, ActionKind, LegalActions, Street
from holdem_env.engine.cards import card_id, card_str, format_cards, parse_cards, shuffled_deck, validate_deck
from holdem_env.engine.config import BettingStructure, TableConfig
from holdem_env.engine.equity import equity, equity_vs_hands, exact_equity, range_combos
from holdem_env.engine.errors import CardError, ConfigError, HandOverError, HoldemError, IllegalActionError, PHHError
from holdem_env.engine.evaluator import HandCategory, HandValue, category_of, evaluate, evaluate_batch, hand_strength
from holdem_env.engine.record import (
    ActionEvent,
    DealEvent,
    HandRecord,
    MuckEvent,
    PotResult,
    ShowEvent,
    UncalledBetReturned,
)
from holdem_env.engine.state import HandState
from holdem_env.engine.table import Table
from holdem_env.env import registration as _registration

_registration.install()  # PettingZoo / Gymnasium ids, registered when (and if) those libraries are imported

__all__ = [
    "build_info",
    # cards
    "card_id",
    "card_str",
    "format_cards",
    "parse_cards",
    "shuffled_deck",
    "validate_deck",
    # configuration and errors
    "BettingStructure",
    "TableConfig",
    "CardError",
    "ConfigError",
    "HandOverError",
    "HoldemError",
    "IllegalActionError",
    "PHHError",
    # evaluator and equity
    "HandCategory",
    "HandValue",
    "category_of",
    "evaluate",
    "evaluate_batch",
    "hand_strength",
    "equity",
    "equity_vs_hands",
    "exact_equity",
    "range_combos",
    # hands
    "Action",
    "ActionKind",
    "LegalActions",
    "Street",
    "HandState",
    "Table",
    "HandRecord",
    "ActionEvent",
    "DealEvent",
    "UncalledBetReturned",
    "ShowEvent",
    "MuckEvent",
    "PotResult",
]
__version__ = "0.1.0"
