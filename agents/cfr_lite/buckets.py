"""Card abstraction for cfr-lite: the 169 lossless preflop classes and postflop hand-strength buckets.

Preflop, a hand is one of 169 classes (13 pairs, 78 suited, 78 offsuit); optionally
those are grouped into fewer buckets by their equity against a random hand.

Postflop, a hand's *strength* is its expected hand strength against one uniformly random
opponent hand: the share of opponent holdings it beats on the board, ties counting half
(:func:`hand_strengths`; with ``rollouts > 0`` it is averaged over sampled run-outs of the
remaining board, which credits draws). Strength is mapped to a bucket by thresholds that
put an equal share of random deals into every bucket. The thresholds are computed once per
setting from a seeded sample and cached to disk (``~/.cache/holdem-env`` unless told
otherwise), so bucket assignment is deterministic and monotone in strength.

Hand values come from :func:`holdem_env.engine.evaluator.evaluate_batch` (all opponent
holdings of a board are evaluated in one batch).

>>> preflop_class_name(preflop_class((51, 47)))   # As Ks
'AKs'
>>> preflop_class_name(preflop_class((0, 1)))     # 2c 2d
'22'
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.engine.cards import RANKS
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.validate import check_number, is_int
from holdem_env.fileutil import atomic_write_bytes

__all__ = [
    "NUM_PREFLOP_CLASSES",
    "preflop_class",
    "preflop_class_name",
    "hand_strengths",
    "CardAbstraction",
    "default_cache_dir",
]

NUM_PREFLOP_CLASSES = 169
_VERSION = 1

# All 1,326 two-card holdings (c1 < c2) and the index of each pair.
_COMBOS = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
_COMBO_INDEX = np.full((52, 52), -1, dtype=np.int64)
_COMBO_INDEX[_COMBOS[:, 0], _COMBOS[:, 1]] = np.arange(len(_COMBOS))
_COMBO_INDEX[_COMBOS[:, 1], _COMBOS[:, 0]] = np.arange(len(_COMBOS))


def default_cache_dir() -> Path:
    """Where computed thresholds are cached: ``$HOLDEM_ENV_CACHE`` or ``~/.cache/holdem-env``."""
    env = os.environ.get("HOLDEM_ENV_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "holdem-env"


def preflop_class(hole: Sequence[int]) -> int:
    """The lossless preflop class ``0..168`` of two hole cards (suits only matter as suited/offsuit).

    Pairs are ``r*13 + r``, suited hands ``hi*13 + lo`` and offsuit hands ``lo*13 + hi``
    (ranks ``0..12`` for 2..A), so the 13x13 grid holds every class once.
    """
    if len(hole) != 2 or hole[0] == hole[1]:
        raise ConfigError("hole", tuple(hole), "must be two different card ids")
    r1, r2 = hole[0] >> 2, hole[1] >> 2
    hi, lo = max(r1, r2), min(r1, r2)
    if hi == lo:
        return hi * 13 + hi
    if (hole[0] & 3) == (hole[1] & 3):
        return hi * 13 + lo
    return lo * 13 + hi


def preflop_class_name(cls: int) -> str:
    """``"AA"``, ``"AKs"`` or ``"AKo"`` for a class index from :func:`preflop_class`."""
    if not 0 <= cls < NUM_PREFLOP_CLASSES:
        raise ConfigError("preflop_class", cls, "must be in 0..168")
    a, b = divmod(cls, 13)
    if a == b:
        return RANKS[a] * 2
    if a > b:
        return f"{RANKS[a]}{RANKS[b]}s"
    return f"{RANKS[b]}{RANKS[a]}o"


def _evaluate_batch(cards: np.ndarray) -> np.ndarray:
    return np.asarray(evaluate_batch(np.ascontiguousarray(cards, dtype=np.int64)))


def _board_values(board: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Hand values of every holding that does not clash with ``board``: (combo ids, values)."""
    b = np.asarray(board, dtype=np.int64)
    ok = ~np.isin(_COMBOS, b).any(axis=1)
    ids = np.nonzero(ok)[0]
    cards = np.concatenate([_COMBOS[ids], np.broadcast_to(b, (len(ids), len(b)))], axis=1)
    return ids, _evaluate_batch(cards)


def _strength_on_board(holes: np.ndarray, board: Sequence[int]) -> np.ndarray:
    ids, values = _board_values(board)
    full = np.full(len(_COMBOS), -1, dtype=np.int64)
    full[ids] = values
    out = np.empty(len(holes))
    valid_combos = _COMBOS[ids]
    for i, (c1, c2) in enumerate(holes):
        own = full[_COMBO_INDEX[c1, c2]]
        opp_ok = (valid_combos != c1).all(axis=1) & (valid_combos != c2).all(axis=1)
        opp = values[opp_ok]
        out[i] = (np.count_nonzero(opp < own) + 0.5 * np.count_nonzero(opp == own)) / len(opp)
    return out


def hand_strengths(holes: Sequence[Sequence[int]], board: Sequence[int], rollouts: int = 0, rng: np.random.Generator | None = None) -> np.ndarray:
    """Expected hand strength in ``[0, 1]`` of each holding in ``holes`` on ``board`` (3–5 cards).

    Strength = P(beat a random opponent holding) + P(tie) / 2 on the board; with
    ``rollouts > 0`` (flop/turn only) the board is completed that many times at random
    (cards not in ``board`` or any of ``holes``) and the strengths are averaged.
    """
    h = np.asarray(holes, dtype=np.int64).reshape(-1, 2)
    if not 3 <= len(board) <= 5:
        raise ConfigError("board", tuple(board), "must hold 3 to 5 cards")
    if rollouts <= 0 or len(board) == 5:
        return _strength_on_board(h, board)
    if rng is None:
        raise ConfigError("rng", None, "a numpy.random.Generator is needed when rollouts > 0")
    used = {int(c) for c in board} | {int(c) for c in h.ravel()}
    rest = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    need = 5 - len(board)
    acc = np.zeros(len(h))
    for _ in range(rollouts):
        extra = rng.choice(rest, size=need, replace=False)
        acc += _strength_on_board(h, list(board) + [int(c) for c in extra])
    return acc / rollouts


def _card_seed(hole: Sequence[int], board: Sequence[int]) -> int:
    """A seed that depends only on the cards (so a rollout-based strength is a pure function)."""
    key = bytes(sorted(int(c) for c in hole)) + b"|" + bytes(sorted(int(c) for c in board))
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little")


@dataclass(frozen=True)
class CardAbstraction:
    """How hands are bucketed: preflop classes and postflop buckets per street.

    ``preflop_buckets``: 169 keeps the lossless classes; fewer groups them by equity.
    ``postflop_buckets``: buckets on (flop, turn, river). ``rollouts``: run-outs used to
    average flop/turn strength (0 = strength on the current board). ``sample_size`` and
    ``seed``: the deals used to set the thresholds. ``cache_dir``: where they are cached
    (``None``: :func:`default_cache_dir`). ``spacing``: 1 puts an equal share of deals in
    every postflop bucket; above 1 the buckets get narrower towards the strong end (bucket
    ``i``'s upper edge is the strength quantile ``1 - (1 - (i+1)/n) ** spacing``), which
    separates strong made hands more finely.

    >>> CardAbstraction(postflop_buckets=(8, 0, 8))
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: postflop_buckets=(8, 0, 8) is invalid: must be three integers (flop, turn, river) in 1..1000
    """

    preflop_buckets: int = NUM_PREFLOP_CLASSES
    postflop_buckets: tuple[int, int, int] = (8, 8, 8)
    rollouts: int = 0
    sample_size: int = 4000
    seed: int = 0
    cache_dir: str | None = None
    spacing: float = 1.0
    _thresholds: dict[str, np.ndarray] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not is_int(self.preflop_buckets) or not 1 <= self.preflop_buckets <= NUM_PREFLOP_CLASSES:
            raise ConfigError("preflop_buckets", self.preflop_buckets, "must be an integer in 1..169 (169 = lossless)")
        pb = tuple(self.postflop_buckets) if isinstance(self.postflop_buckets, (list, tuple)) else ()
        if len(pb) != 3 or not all(is_int(b) and 1 <= b <= 1000 for b in pb):
            raise ConfigError("postflop_buckets", self.postflop_buckets, "must be three integers (flop, turn, river) in 1..1000")
        object.__setattr__(self, "postflop_buckets", tuple(int(b) for b in pb))
        if not is_int(self.rollouts) or not 0 <= self.rollouts <= 64:
            raise ConfigError("rollouts", self.rollouts, "must be an integer in 0..64")
        if not is_int(self.sample_size) or not 50 <= self.sample_size <= 1_000_000:
            raise ConfigError("sample_size", self.sample_size, "must be an integer in 50..1000000")
        if not is_int(self.seed) or self.seed < 0:
            raise ConfigError("seed", self.seed, "must be a non-negative integer")
        spacing = check_number("spacing", self.spacing, 0.25, 4.0, allowed="must be a number in 0.25..4 (1 = equal shares)")
        object.__setattr__(self, "spacing", spacing)

    # -- persistence of the thresholds -------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        """Plain-JSON form (the settings, not the cached thresholds)."""
        return {
            "preflop_buckets": self.preflop_buckets,
            "postflop_buckets": list(self.postflop_buckets),
            "rollouts": self.rollouts,
            "sample_size": self.sample_size,
            "seed": self.seed,
            "spacing": self.spacing,
        }

    def cache_key(self) -> str:
        """Hash of everything the thresholds depend on (names the cache file)."""
        text = json.dumps({**self.to_dict(), "version": _VERSION}, sort_keys=True)
        return hashlib.sha1(text.encode()).hexdigest()[:16]

    def cache_path(self) -> Path:
        """The cache file for these settings."""
        base = Path(self.cache_dir) if self.cache_dir else default_cache_dir()
        return base / f"cfr-lite-buckets-{self.cache_key()}.npz"

    def thresholds(self) -> dict[str, np.ndarray]:
        """The thresholds (``preflop_order``, ``flop``, ``turn``, ``river``): cached, else computed and saved."""
        if self._thresholds:
            return self._thresholds
        path = self.cache_path()
        loaded: dict[str, np.ndarray] | None = None
        if path.exists():
            try:
                with np.load(path) as data:
                    loaded = {k: data[k] for k in data.files}
            except (OSError, ValueError):
                loaded = None  # a damaged cache file is recomputed
        if loaded is None or set(loaded) != {"preflop_rank", "flop", "turn", "river"}:
            loaded = self._compute()
            _atomic_save_npz(path, loaded)
        self._thresholds.update(loaded)
        return self._thresholds

    def set_thresholds(self, table: dict[str, np.ndarray]) -> None:
        """Install thresholds (e.g. the ones stored inside a policy file) without touching the cache."""
        need = {"preflop_rank", "flop", "turn", "river"}
        if set(table) != need:
            raise ConfigError("thresholds", sorted(table), f"must have exactly the keys {sorted(need)}")
        self._thresholds.clear()
        self._thresholds.update({k: np.asarray(v) for k, v in table.items()})

    def _compute(self) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(self.seed)
        out: dict[str, np.ndarray] = {}
        # Preflop: equity of each class against a random hand on random boards.
        samples = max(20, self.sample_size // 40)
        equity = np.zeros(NUM_PREFLOP_CLASSES)
        reps = _class_representatives()
        for cls, (c1, c2) in enumerate(reps):
            rest = np.array([c for c in range(52) if c not in (c1, c2)], dtype=np.int64)
            draws = np.array([rng.choice(rest, size=7, replace=False) for _ in range(samples)])
            ours = np.concatenate([np.broadcast_to([c1, c2], (samples, 2)), draws[:, 2:]], axis=1)
            theirs = draws
            a, b = _evaluate_batch(ours), _evaluate_batch(theirs)
            equity[cls] = (np.count_nonzero(a > b) + 0.5 * np.count_nonzero(a == b)) / samples
        order = np.argsort(np.argsort(-equity, kind="stable"), kind="stable")  # 0 = strongest
        out["preflop_rank"] = order.astype(np.int16)
        for street, n_board, n_buckets in (("flop", 3, self.postflop_buckets[0]), ("turn", 4, self.postflop_buckets[1]), ("river", 5, self.postflop_buckets[2])):
            values = np.empty(self.sample_size)
            for i in range(self.sample_size):
                cards = rng.choice(52, size=2 + n_board, replace=False)
                values[i] = self._strength(cards[:2].tolist(), cards[2:].tolist())
            levels = 1.0 - (1.0 - np.arange(1, n_buckets) / n_buckets) ** self.spacing
            qs = np.quantile(values, levels) if n_buckets > 1 else np.zeros(0)
            out[street] = np.asarray(qs, dtype=np.float64)
        return out

    # -- bucket lookup -----------------------------------------------------------------
    def _strength(self, hole: Sequence[int], board: Sequence[int]) -> float:
        if self.rollouts and len(board) < 5:
            rng = np.random.default_rng(_card_seed(hole, board))
            return float(hand_strengths([hole], board, self.rollouts, rng)[0])
        return float(hand_strengths([hole], board)[0])

    def num_buckets(self, street: int) -> int:
        """How many buckets street ``street`` (0 preflop .. 3 river) has."""
        if street == 0:
            return self.preflop_buckets
        return self.postflop_buckets[street - 1]

    def bucket_of_strength(self, street: int, strength: float) -> int:
        """Bucket of a postflop strength on ``street`` (1..3): monotone non-decreasing in strength."""
        th = self.thresholds()[("flop", "turn", "river")[street - 1]]
        return int(np.searchsorted(th, strength, side="right"))

    def preflop_bucket(self, hole: Sequence[int]) -> int:
        """Preflop bucket: the lossless class, or (coarser) its equity group, 0 = weakest."""
        cls = preflop_class(hole)
        if self.preflop_buckets == NUM_PREFLOP_CLASSES:
            return cls
        rank = int(self.thresholds()["preflop_rank"][cls])  # 0 = strongest
        return (NUM_PREFLOP_CLASSES - 1 - rank) * self.preflop_buckets // NUM_PREFLOP_CLASSES

    def bucket(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """Bucket of ``hole`` given the ``board`` dealt so far (0, 3, 4 or 5 cards)."""
        if len(board) == 0:
            return self.preflop_bucket(hole)
        street = len(board) - 2
        if street not in (1, 2, 3):
            raise ConfigError("board", tuple(board), "must hold 0, 3, 4 or 5 cards")
        if self.num_buckets(street) == 1:
            return 0
        return self.bucket_of_strength(street, self._strength(hole, board))

    def buckets_for_board(self, holes: Sequence[Sequence[int] | None], board: Sequence[int]) -> list[int]:
        """Buckets of several holdings on the same board (one evaluator batch); ``None`` -> -1."""
        present = [i for i, h in enumerate(holes) if h is not None]
        out = [-1] * len(holes)
        if not present:
            return out
        if len(board) == 0:
            for i in present:
                out[i] = self.preflop_bucket(holes[i])  # type: ignore[arg-type]
            return out
        street = len(board) - 2
        if self.num_buckets(street) == 1:
            for i in present:
                out[i] = 0
            return out
        if self.rollouts and len(board) < 5:
            for i in present:
                out[i] = self.bucket(holes[i], board)  # type: ignore[arg-type]
            return out
        strengths = hand_strengths([holes[i] for i in present], board)  # type: ignore[misc]
        for i, s in zip(present, strengths, strict=True):
            out[i] = self.bucket_of_strength(street, float(s))
        return out


def _class_representatives() -> list[tuple[int, int]]:
    reps: list[tuple[int, int]] = [(-1, -1)] * NUM_PREFLOP_CLASSES
    for a in range(52):
        for b in range(a + 1, 52):
            cls = preflop_class((a, b))
            if reps[cls][0] < 0:
                reps[cls] = (a, b)
    return reps


def _atomic_save_npz(path: Path, arrays: dict[str, Any]) -> None:

    atomic_write_bytes(path, lambda fh: np.savez(fh, **arrays))
