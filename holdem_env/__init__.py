"""holdem-env: an exact, fast Texas Hold'em engine and PettingZoo environment.

The engine (cards, evaluator, hand state, pots, records, PHH, equity) imports only
numpy and the standard library; the PettingZoo environment is :mod:`holdem_env.nlhe_v0`
(imported on demand, so ``import holdem_env`` never pulls in PettingZoo or torch).
``build_info()`` says which modules run compiled (``setup.py``) and whether any is stale;
``HOLDEM_ENV_PURE_PYTHON=1`` in the environment runs the ``.py`` sources even where compiled.

>>> from holdem_env import HandState, TableConfig
>>> hand = HandState(TableConfig(num_players=2), button=0, seed=1)
>>> hand.legal_actions().call   # the small blind owes 5 more to call the big blind
5
"""

from __future__ import annotations

from ._compiled import build_info
from ._compiled import pure_python_requested as _pure_python_requested
from ._compiled import use_pure_python as _use_pure_python
from ._compiled import warn_if_stale as _warn_if_stale

if _pure_python_requested():  # HOLDEM_ENV_PURE_PYTHON=1: run the .py sources even where compiled
    _use_pure_python()

from .actions import Action, ActionKind, LegalActions, Street
from .cards import card_id, card_str, format_cards, parse_cards, shuffled_deck, validate_deck
from .config import BettingStructure, TableConfig
from .equity import equity, equity_vs_hands, exact_equity, range_combos
from .errors import CardError, ConfigError, HandOverError, HoldemError, IllegalActionError, PHHError
from .evaluator import HandCategory, HandValue, category_of, evaluate, evaluate_batch, hand_strength
from .record import (
    ActionEvent,
    DealEvent,
    HandRecord,
    MuckEvent,
    PotResult,
    ShowEvent,
    UncalledBetReturned,
)
from .state import HandState
from .table import Table

__all__ = [
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
    # build
    "build_info",
]
__version__ = "0.1.0"

if not _pure_python_requested():
    _warn_if_stale()  # one RuntimeWarning if a compiled module (setup.py) is older than its source
