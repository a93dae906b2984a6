"""The settings of ``nlhe_v1`` checked in one place: what ``raw_env(...)`` accepts, or a clear error.

:func:`parse_settings` validates every keyword argument of
:class:`holdem_env.env.nlhe_v1.raw_env` (the table through the engine's
:class:`~holdem_env.engine.config.TableConfig`) and returns them as one frozen
:class:`EnvSettings`; a bad value raises :class:`~holdem_env.engine.errors.ConfigError` naming
the argument and what is allowed, before the env is built.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from holdem_env.engine.config import BettingStructure, TableConfig
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import check_bet_sizes, check_bool, check_choice, is_int
from holdem_env.env.actions import ACTION_MODES, MAX_EXACT_STACK

__all__ = ["EnvSettings", "parse_settings", "INFO_MODES", "RENDER_MODES", "REWARD_UNITS", "ILLEGAL_ACTIONS"]

INFO_MODES = ("full", "minimal")
RENDER_MODES = ("human", "ansi")
REWARD_UNITS = ("bb", "chips")
ILLEGAL_ACTIONS = ("raise", "timeout")
#: The engine settings ``raw_env`` names itself; the other TableConfig fields pass as keywords.
_NAMED_TABLE_FIELDS = frozenset({"num_players", "small_blind", "big_blind", "ante", "buy_in", "betting"})


@dataclasses.dataclass(frozen=True)
class EnvSettings:
    """``raw_env``'s checked settings (see :mod:`holdem_env.env.nlhe_v1` for their meaning)."""

    config: TableConfig
    action_mode: str
    bet_sizes: tuple[float, ...]
    max_stack: int
    reward_unit: str
    illegal_action: str
    info_mode: str
    pad_seats: bool
    render_mode: str | None
    render_viewer: int | str | None


def _choice(key: str, value: Any, allowed: Sequence[str], what: str) -> None:
    check_choice(key, value, allowed, allowed=f"must be {what}")


def parse_settings(
    *,
    num_players: Any,
    small_blind: Any,
    big_blind: Any,
    ante: Any,
    buy_in: Any,
    betting: Any,
    action_mode: Any,
    bet_sizes: Any,
    max_stack: Any,
    reward_unit: Any,
    illegal_action: Any,
    info_mode: Any,
    pad_seats: Any,
    render_mode: Any,
    render_viewer: Any,
    table_kwargs: dict[str, Any],
) -> EnvSettings:
    """Check every ``raw_env`` argument; raise :class:`ConfigError` naming the first bad one."""
    table_fields = {f.name for f in dataclasses.fields(TableConfig)} - _NAMED_TABLE_FIELDS
    for key in table_kwargs:
        if key not in table_fields:
            raise ConfigError(
                key, table_kwargs[key], "unknown environment setting; allowed: the named parameters of raw_env and "
                f"the TableConfig fields {', '.join(sorted(table_fields))}"
            )
    config = TableConfig(
        num_players=num_players, small_blind=small_blind, big_blind=big_blind, ante=ante, buy_in=buy_in,
        betting=BettingStructure.parse(betting), **table_kwargs,
    )
    n = config.num_players
    _choice("action_mode", action_mode, ACTION_MODES, "'discrete' or 'exact'")
    _choice("reward_unit", reward_unit, REWARD_UNITS, "'bb' or 'chips'")
    _choice("illegal_action", illegal_action, ILLEGAL_ACTIONS, "'raise' or 'timeout'")
    _choice("info_mode", info_mode, INFO_MODES, "'full' (legal actions and the seat's view) or 'minimal'")
    if render_mode is not None:
        _choice("render_mode", render_mode, RENDER_MODES, "None, 'human' or 'ansi'")
    if render_viewer is not None and render_viewer != "all" and not (is_int(render_viewer) and 0 <= render_viewer < n):
        raise ConfigError("render_viewer", render_viewer, f"must be None, 'all' or a seat in 0..{n - 1}")
    check_bool("pad_seats", pad_seats)
    if max_stack is None:
        max_stack = config.buy_in
    if not is_int(max_stack) or max_stack < config.buy_in:
        raise ConfigError("max_stack", max_stack, f"must be an integer >= buy_in ({config.buy_in})")
    max_stack = int(max_stack)  # numpy integers too, as TableConfig accepts them
    if action_mode == "exact" and max_stack > MAX_EXACT_STACK:
        raise ConfigError(
            "max_stack", max_stack, f"must be at most {MAX_EXACT_STACK} in exact mode (one action id per chip); "
            "use action_mode='discrete' or smaller chip units for deeper stacks"
        )
    return EnvSettings(
        config=config, action_mode=action_mode, bet_sizes=check_bet_sizes(bet_sizes), max_stack=max_stack,
        reward_unit=reward_unit, illegal_action=illegal_action, info_mode=info_mode, pad_seats=pad_seats,
        render_mode=render_mode, render_viewer=render_viewer,
    )
