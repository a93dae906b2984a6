"""holdem-env: an exact, fast Texas Hold'em engine and PettingZoo environment.

The engine (cards, evaluator, hand state, pots, records, PHH) imports only numpy; the
PettingZoo environment lives in :mod:`holdem_env.nlhe_v0`.
"""

from __future__ import annotations

from .cards import card_id, card_str, format_cards, parse_cards, shuffled_deck, validate_deck
from .config import BettingStructure, TableConfig
from .errors import CardError, ConfigError, HandOverError, HoldemError, IllegalActionError, PHHError

__all__ = [
    "card_id",
    "card_str",
    "format_cards",
    "parse_cards",
    "shuffled_deck",
    "validate_deck",
    "BettingStructure",
    "TableConfig",
    "CardError",
    "ConfigError",
    "HandOverError",
    "HoldemError",
    "IllegalActionError",
    "PHHError",
]

# Modules written in parallel register their exports here as they land.
try:  # pragma: no cover - transitional while the engine is assembled
    from .evaluator import HandCategory, HandValue, evaluate, evaluate_batch, hand_strength  # noqa: F401

    __all__ += ["HandCategory", "HandValue", "evaluate", "evaluate_batch", "hand_strength"]
except ImportError:
    pass
__version__ = "0.1.0"
