"""Regret and average-strategy tables of the sampling solvers, one row per information set.

Rows are allocated as information sets are first met (a game too big to enumerate never
lists them up front) and found through a ``key -> row`` dict. Columns are action ids
(``0 .. num_actions-1``), so a row's legal actions are a mask over fixed columns and a
policy file can store the rows as they are.

>>> table = InfosetTable(3)
>>> row = table.row("K:", (0, 2))
>>> table.regret[row, [0, 2]] += [1.0, 3.0]
>>> table.current_policy(row).tolist()
[0.25, 0.75]
>>> table.row("K:", (0, 1))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
holdem_env.training.cfr.game.GameError: information set 'K:' offers actions (0, 1) here but (0, 2) before: ...
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from holdem_env.engine.validate import is_int
from holdem_env.training.cfr.cfr import normalise_average
from holdem_env.training.cfr.game import GameError

__all__ = ["InfosetTable"]

#: Arrays written by :meth:`InfosetTable.arrays` (the cfr-lite checkpoint format).
_ARRAY_NAMES = ("keys", "regret", "strategy_sum", "legal", "visits")


class InfosetTable:
    """Cumulative regrets, strategy sums, legal masks and visit counts per information set.

    Attributes (only the first ``len(table)`` rows are used; the arrays grow by doubling):
        keys: information-set key of each row, in order of first sight.
        index: ``key -> row``.
        regret: ``[rows, num_actions]`` cumulative counterfactual regrets.
        strategy_sum: ``[rows, num_actions]`` weighted sums of the current policy (the
            average strategy, unnormalised).
        legal: ``[rows, num_actions]`` mask of the actions the set offers.
        visits: how many times each row's strategy sum was updated.
    """

    def __init__(self, num_actions: int, capacity: int = 1024) -> None:
        if not is_int(num_actions) or num_actions < 1:
            raise GameError(f"num_actions={num_actions!r} is invalid: expected an int >= 1")
        if not is_int(capacity) or capacity < 1:
            raise GameError(f"capacity={capacity!r} is invalid: expected an int >= 1")
        self.num_actions = num_actions
        self.index: dict[str, int] = {}
        self.keys: list[str] = []
        self._actions: list[tuple[int, ...]] = []
        self._columns: list[slice | np.ndarray] = []
        self.regret = np.zeros((capacity, num_actions))
        self.strategy_sum = np.zeros((capacity, num_actions))
        self.legal = np.zeros((capacity, num_actions), dtype=bool)
        self.visits = np.zeros(capacity, dtype=np.int64)

    def __len__(self) -> int:
        return len(self.keys)

    def _grow(self) -> None:
        grow = len(self.regret)
        self.regret = np.concatenate([self.regret, np.zeros((grow, self.num_actions))])
        self.strategy_sum = np.concatenate([self.strategy_sum, np.zeros((grow, self.num_actions))])
        self.legal = np.concatenate([self.legal, np.zeros((grow, self.num_actions), dtype=bool)])
        self.visits = np.concatenate([self.visits, np.zeros(grow, dtype=np.int64)])

    def row(self, key: str, actions: Sequence[int]) -> int:
        """Row of ``key``, created with legal ``actions`` on first sight.

        Raises :class:`GameError` if ``key`` was met before with other actions.
        """
        r = self.index.get(key)
        if r is not None:
            if self._actions[r] != tuple(actions):
                raise GameError(
                    f"information set {key!r} offers actions {tuple(actions)} here but {self._actions[r]} before: "
                    "every state of an information set must offer the same actions"
                )
            return r
        offered = tuple(int(a) for a in actions)
        if not offered or min(offered) < 0 or max(offered) >= self.num_actions:
            raise GameError(
                f"information set {key!r} offers actions {offered}: "
                f"expected one or more ids in 0..{self.num_actions - 1}"
            )
        r = len(self.keys)
        if r == len(self.regret):
            self._grow()
        self.index[key] = r
        self.keys.append(key)
        self._actions.append(offered)
        self._columns.append(_columns(offered))
        self.legal[r, list(offered)] = True
        return r

    def actions(self, row: int) -> tuple[int, ...]:
        """The legal action ids of ``row``, increasing."""
        return self._actions[row]

    def columns(self, row: int) -> slice | np.ndarray:
        """Index of ``row``'s legal columns (a slice where they are contiguous): ``regret[row, columns(row)]``."""
        return self._columns[row]

    def current_policy(self, row: int) -> np.ndarray:
        """Regret matching over the legal actions of ``row`` (uniform where no regret is positive)."""
        positive = np.maximum(self.regret[row, self._columns[row]], 0.0)
        total = positive.sum()
        if total > 0.0:
            return positive / total
        n = len(self._actions[row])
        return np.full(n, 1.0 / n)

    def average_policy(self) -> np.ndarray:
        """``[len(table), num_actions]`` normalised strategy sums (uniform over legal where empty)."""
        n = len(self.keys)
        return normalise_average(self.strategy_sum[:n], self.legal[:n])

    def add_increments(self, since: InfosetTable, other: InfosetTable) -> None:
        """Add what ``other`` gained since it was a copy of ``since`` (rows new in ``other`` appended in its order).

        ``since`` is the common starting point: this table's rows ``0 .. len(since)-1`` and
        ``other``'s must be ``since``'s keys in order (raises :class:`GameError` otherwise).
        """
        n0 = len(since)
        if other.keys[:n0] != since.keys or self.keys[:n0] != since.keys:
            raise GameError("add_increments: both tables must start with the rows of the common starting table")
        self.regret[:n0] += other.regret[:n0] - since.regret[:n0]
        self.strategy_sum[:n0] += other.strategy_sum[:n0] - since.strategy_sum[:n0]
        self.visits[:n0] += other.visits[:n0] - since.visits[:n0]
        for r in range(n0, len(other)):
            row = self.row(other.keys[r], other.actions(r))
            self.regret[row] += other.regret[r]
            self.strategy_sum[row] += other.strategy_sum[r]
            self.visits[row] += other.visits[r]

    def snapshot(self) -> InfosetTable:
        """An independent copy of the used rows."""
        return InfosetTable.from_arrays(self.num_actions, self.arrays())

    def arrays(self) -> dict[str, np.ndarray]:
        """The used part of the tables (``keys`` as ASCII bytes), for checkpoints."""
        n = len(self.keys)
        keys = np.array([k.encode("ascii") for k in self.keys], dtype=bytes) if n else np.zeros(0, dtype="S1")
        return {
            "keys": keys,
            "regret": self.regret[:n],
            "strategy_sum": self.strategy_sum[:n],
            "legal": self.legal[:n],
            "visits": self.visits[:n],
        }

    @classmethod
    def from_arrays(cls, num_actions: int, data: dict[str, np.ndarray]) -> InfosetTable:
        """Inverse of :meth:`arrays`; the rows are copied into new arrays."""
        missing = [name for name in _ARRAY_NAMES if name not in data]
        if missing:
            raise GameError(f"table arrays lack {', '.join(missing)}: expected {', '.join(_ARRAY_NAMES)}")
        n = len(data["keys"])
        if data["regret"].shape != (n, num_actions) or data["legal"].shape != (n, num_actions):
            raise GameError(f"table arrays have shape {data['regret'].shape}: expected ({n}, {num_actions})")
        table = cls(num_actions, capacity=max(1024, 2 * n))
        table.keys = [k.decode("ascii") for k in data["keys"].tolist()]
        table.index = {k: i for i, k in enumerate(table.keys)}
        table.regret[:n] = data["regret"]
        table.strategy_sum[:n] = data["strategy_sum"]
        table.legal[:n] = data["legal"]
        table.visits[:n] = data["visits"]
        table._actions = [tuple(int(a) for a in np.flatnonzero(mask)) for mask in table.legal[:n]]
        table._columns = [_columns(actions) for actions in table._actions]
        return table


def _columns(actions: tuple[int, ...]) -> slice | np.ndarray:
    # A basic slice indexes several times faster than an index array, with the same elements.
    if actions == tuple(range(actions[0], actions[0] + len(actions))):
        return slice(actions[0], actions[0] + len(actions))
    return np.array(actions, dtype=np.intp)
