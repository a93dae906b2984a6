"""The exceptions the engine raises: one family, each a ``ValueError`` subclass.

>>> from holdem_env import TableConfig
>>> try:
...     TableConfig(num_players=11)
... except ConfigError as err:
...     print(err.field, isinstance(err, ValueError))
num_players True
"""

from __future__ import annotations

__all__ = [
    "HoldemError",
    "CardError",
    "ConfigError",
    "IllegalActionError",
    "HandOverError",
    "PHHError",
]


class HoldemError(ValueError):
    """Base class of every error raised for bad input to holdem_env."""


class CardError(HoldemError):
    """A card string, card id or deck order is malformed."""


class ConfigError(HoldemError):
    """A table configuration value is out of range; the message names the field."""

    def __init__(self, field: str, value: object, allowed: str) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"{field}={value!r} is invalid: {allowed}")


class IllegalActionError(HoldemError):
    """An action that the rules do not allow now; the state is left unchanged."""


class HandOverError(IllegalActionError):
    """An action was attempted after the hand had ended."""


class PHHError(HoldemError):
    """A Poker Hand History file is malformed or uses an unsupported feature."""
