"""The table configuration: seats, forced bets, buy-in and betting structure, validated."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import check_bool, check_int, check_number

__all__ = ["BettingStructure", "TableConfig", "MIN_PLAYERS", "MAX_PLAYERS"]

MIN_PLAYERS = 2
MAX_PLAYERS = 10


class BettingStructure(str, enum.Enum):  # noqa: UP042 - StrEnum would change str() of members in messages
    """How large bets and raises may be."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"

    @classmethod
    def parse(cls, value: BettingStructure | str) -> BettingStructure:
        if isinstance(value, cls):
            return value
        try:
            return cls(str(value).lower().replace("_", "-"))
        except ValueError:
            allowed = ", ".join(repr(b.value) for b in cls)
            raise ConfigError("betting", value, f"must be one of {allowed}") from None


def _check_int(name: str, value: Any, lo: int, hi: int | None = None) -> None:
    unit = "" if name in ("num_players", "raise_cap") else " number of chips"
    bound = f">= {lo}" if hi is None else f"in {lo}..{hi}"
    check_int(name, value, lo, hi, allowed=f"must be an integer{unit} {bound}")


@dataclass(frozen=True)
class TableConfig:
    """A table's rules. All amounts are integer chips.

    Defaults are the "free play" table of docs/RULES.md: 6 players, blinds 5/10,
    buy-in 1000 (100 big blinds), no-limit.

    >>> TableConfig(num_players=2).big_blind
    10
    >>> TableConfig(num_players=11)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: num_players=11 is invalid: must be an integer in 2..10
    """

    num_players: int = 6
    small_blind: int = 5
    big_blind: int = 10
    ante: int = 0
    #: ``True``: only the big blind posts the ante (a "big blind ante"); it is still dead money.
    big_blind_ante: bool = False
    buy_in: int = 1000
    betting: BettingStructure = BettingStructure.NO_LIMIT
    #: Fixed-limit only: most bets per round (1 bet + 3 raises). ``None`` lifts the cap.
    raise_cap: int | None = 4
    #: Fixed-limit only: lift the cap when only two players are in the hand.
    uncapped_heads_up: bool = False
    #: Offer ``fold`` when checking is free (dominated; off by default, docs/RULES.md).
    allow_free_fold: bool = False
    #: Seconds a player has to act (live play only; the engine itself never reads a clock).
    clock_seconds: float = 30.0
    #: Bankroll mode: seats carry cash between hands (see :class:`holdem_env.engine.table.Table`).
    bankroll: bool = False
    #: At a showdown every player still in shows, in the showing order, and nothing is mucked
    #: (docs/RULES.md, Showdown); off: a hand that wins nothing and is worse than one shown is mucked.
    show_all_hands: bool = False

    def __post_init__(self) -> None:
        for name in ("num_players", "small_blind", "big_blind", "ante", "buy_in", "raise_cap"):
            value = getattr(self, name)
            if isinstance(value, np.integer):  # numpy integers are whole chips too
                object.__setattr__(self, name, int(value))
        _check_int("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        _check_int("big_blind", self.big_blind, 1)
        _check_int("small_blind", self.small_blind, 0)
        if self.small_blind > self.big_blind:
            raise ConfigError("small_blind", self.small_blind, f"must be <= big_blind ({self.big_blind})")
        _check_int("ante", self.ante, 0)
        _check_int("buy_in", self.buy_in, 1)
        object.__setattr__(self, "betting", BettingStructure.parse(self.betting))
        if self.raise_cap is not None:
            _check_int("raise_cap", self.raise_cap, 1)
        clock = self.clock_seconds
        check_number("clock_seconds", clock, 0, lo_open=True, allowed="must be a positive number of seconds (finite)")
        for name in ("big_blind_ante", "uncapped_heads_up", "allow_free_fold", "bankroll", "show_all_hands"):
            check_bool(name, getattr(self, name))

    @property
    def small_bet(self) -> int:
        """Fixed-limit bet unit on preflop and flop (= the big blind)."""
        return self.big_blind

    @property
    def big_bet(self) -> int:
        """Fixed-limit bet unit on turn and river (= two big blinds)."""
        return 2 * self.big_blind

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> TableConfig:
        """A named table from docs/RULES.md, with optional overrides.

        ``"free-play"``: 6 players, blinds 5/10, buy-in 1000 (100 big blinds; the defaults).
        ``"50bb"``: the big blind is 1/50 of the buy-in (blinds 10/20, buy-in 1000).

        >>> TableConfig.preset("50bb").buy_in // TableConfig.preset("50bb").big_blind
        50
        >>> TableConfig.preset("deep")
        Traceback (most recent call last):
        ...
        holdem_env.engine.errors.ConfigError: preset='deep' is invalid: must be one of 'free-play', '50bb'
        """
        presets: dict[str, dict[str, Any]] = {
            "free-play": {},
            "50bb": {"small_blind": 10, "big_blind": 20, "buy_in": 1000},
        }
        if name not in presets:
            raise ConfigError("preset", name, "must be one of " + ", ".join(repr(p) for p in presets))
        return cls(**{**presets[name], **overrides})

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (the betting structure as its string)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["betting"] = self.betting.value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """Inverse of :meth:`to_dict`; unknown keys are a :class:`ConfigError` naming them."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(unknown[0], data[unknown[0]], f"unknown table setting; allowed: {', '.join(sorted(known))}")
        return cls(**data)
