"""cfr-search's card abstraction: lossless preflop classes, equity-histogram clusters (earth mover's distance) on the flop and turn, equity buckets on the river.

* **Preflop**: the 169 lossless classes of :func:`holdem_env.agents.cfr_lite.buckets.preflop_class`.
* **River**: the hand's equity against one random holding (:func:`river_equity`, exact, ties
  half), cut into ``river_buckets`` buckets by thresholds that put an equal share of sampled
  (holding, board) pairs in each.
* **Turn**: the histogram (``bins`` equal-width bins over [0, 1]) of the hand's river equity over
  the 46 rivers; **flop**: the histogram of its turn equity (exact over the rivers) over the 47
  turns. Such histograms tell a made hand from a draw of the same mean equity (distribution-aware
  abstraction, Johanson et al. 2013). Each street's histograms are clustered by k-means under the
  one-dimensional earth mover's distance (:func:`emd`: the L1 distance of the cumulative
  histograms; a centroid is the mean of its members), seeded by k-means++ from the build's
  generator, and a hand's bucket is its nearest centroid.

Buckets are numbered by increasing mean equity of their centroid (thresholds), so the nuts
sit in the top bucket and a higher bucket is a stronger hand on average. The built abstraction
is a few kilobytes (:meth:`CardAbstraction.save`, ``.npz``). Lookups at play time compute the
hand's histogram with the compiled equity of :mod:`holdem_env.agents._rules` (47 x 46 boards on
the flop, about 5 ms; 46 on the turn); the builder computes the same numbers for every holding
of a flop at once (:func:`flop_strengths`), which is what the blueprint's training tables use.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from holdem_env.agents._rules import hu_equity
from holdem_env.agents.cfr_lite.buckets import NUM_PREFLOP_CLASSES, preflop_class
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, flop_runouts, strengths_on_boards
from holdem_env.engine.validate import is_int
from holdem_env.fileutil import atomic_write_bytes

__all__ = [
    "AbstractionConfig",
    "CardAbstraction",
    "emd",
    "emd_to_centroids",
    "kmeans_emd",
    "histogram",
    "river_equity",
    "turn_histogram",
    "flop_histogram",
    "flop_strengths",
    "histograms_from_strengths",
    "build_abstraction",
]

_VERSION = 1
_NO_RUNOUTS = np.zeros((0, 2), dtype=np.int64)


@dataclass(frozen=True)
class AbstractionConfig:
    """Bucket counts per street, histogram bins, and how much the build samples.

    ``flops``: random flops whose every holding (and ``turns_per_flop`` turns of each) feed
    the clustering; ``max_points``: at most this many histograms per street enter k-means.
    """

    flop_buckets: int = 50
    turn_buckets: int = 50
    river_buckets: int = 50
    bins: int = 20
    flops: int = 40
    turns_per_flop: int = 3
    max_points: int = 40_000
    kmeans_iterations: int = 30

    def __post_init__(self) -> None:
        for name in ("flop_buckets", "turn_buckets", "river_buckets", "bins", "flops", "turns_per_flop", "max_points"):
            value = getattr(self, name)
            if not is_int(value) or value < 1:
                raise ConfigError(name, value, "must be an int >= 1")
        if not is_int(self.kmeans_iterations) or self.kmeans_iterations < 0:
            raise ConfigError("kmeans_iterations", self.kmeans_iterations, "must be an int >= 0")
        if max(self.flop_buckets, self.turn_buckets, self.river_buckets) > 255:
            raise ConfigError(
                "buckets", max(self.flop_buckets, self.turn_buckets, self.river_buckets), "must be <= 255"
            )

    @property
    def num_buckets(self) -> tuple[int, int, int, int]:
        """Buckets per street, preflop to river."""
        return (NUM_PREFLOP_CLASSES, self.flop_buckets, self.turn_buckets, self.river_buckets)


# ----------------------------------------------------------------------------------- distances
def emd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Earth mover's distance between histograms on equal-width bins (in bins): the L1 distance of
    their cumulative sums, along the last axis.

    >>> float(emd(np.array([1.0, 0, 0]), np.array([0, 0, 1.0])))
    2.0
    >>> float(emd(np.array([0.5, 0.5, 0]), np.array([0, 0.5, 0.5])))
    1.0
    """
    return np.abs(np.cumsum(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64), axis=-1)).sum(axis=-1)


def emd_to_centroids(histograms: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """``[n, k]`` EMD of every histogram to every centroid."""
    h = np.cumsum(histograms, axis=1)
    c = np.cumsum(centroids, axis=1)
    out = np.empty((h.shape[0], c.shape[0]))
    for j in range(c.shape[0]):
        out[:, j] = np.abs(h - c[j]).sum(axis=1)
    return out


def kmeans_emd(points: np.ndarray, k: int, rng: np.random.Generator, iterations: int = 30) -> np.ndarray:
    """``k`` centroids of ``points`` (histograms) by k-means under :func:`emd`, k-means++ seeding from ``rng``.

    Fewer distinct points than ``k``: the distinct points, repeated. An empty cluster takes the
    point farthest from its centroid.
    """
    points = np.asarray(points, dtype=np.float64)
    n = points.shape[0]
    centroids = np.empty((k, points.shape[1]))
    centroids[0] = points[rng.integers(n)]
    nearest = emd_to_centroids(points, centroids[:1])[:, 0]
    for j in range(1, k):
        total = nearest.sum()
        pick = int(rng.choice(n, p=nearest / total)) if total > 0 else int(rng.integers(n))
        centroids[j] = points[pick]
        nearest = np.minimum(nearest, emd_to_centroids(points, centroids[j : j + 1])[:, 0])
    for _ in range(iterations):
        d = emd_to_centroids(points, centroids)
        label = np.argmin(d, axis=1)
        moved = False
        for j in range(k):
            members = label == j
            if members.any():
                mean = points[members].mean(axis=0)
            else:
                far = int(np.argmax(d[np.arange(n), label]))
                mean = points[far]
                label[far] = j
            if not np.allclose(mean, centroids[j]):
                moved = True
            centroids[j] = mean
        if not moved:
            break
    return centroids


# ------------------------------------------------------------------------------------ equities
def histogram(equities: np.ndarray, bins: int) -> np.ndarray:
    """Normalised histogram of ``equities`` (last axis; NaN ignored) over ``bins`` equal bins of [0, 1]."""
    e = np.asarray(equities, dtype=np.float64)
    valid = ~np.isnan(e)
    idx = np.clip((np.where(valid, e, 0.0) * bins).astype(np.int64), 0, bins - 1)
    flat_idx = idx.reshape(-1, e.shape[-1])
    flat_valid = valid.reshape(-1, e.shape[-1])
    out = np.zeros((flat_idx.shape[0], bins))
    rows = np.repeat(np.arange(flat_idx.shape[0]), e.shape[-1]).reshape(flat_idx.shape)
    np.add.at(out, (rows[flat_valid], flat_idx[flat_valid]), 1.0)
    totals = out.sum(axis=1, keepdims=True)
    out = np.where(totals > 0, out / np.where(totals > 0, totals, 1.0), 1.0 / bins)
    return out.reshape(*e.shape[:-1], bins)


def _check_cards(hole: Sequence[int], board: Sequence[int], sizes: tuple[int, ...]) -> tuple[list[int], list[int]]:
    h = [int(c) for c in hole]
    b = [int(c) for c in board]
    cards = h + b
    if len(h) != 2 or len(b) not in sizes or len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards):
        raise ConfigError(
            "cards",
            (tuple(h), tuple(b)),
            f"need two hole cards and a board of {sizes} cards, all different ids in 0..51",
        )
    return h, b


def river_equity(hole: Sequence[int], board: Sequence[int]) -> float:
    """Exact equity of ``hole`` on a five-card ``board`` against one random holding (ties half)."""
    h, b = _check_cards(hole, board, (5,))
    return float(hu_equity(np.asarray(b, dtype=np.int64), 5, h[0], h[1], _NO_RUNOUTS))


def _next_card_histogram(hole: Sequence[int], board: Sequence[int], bins: int) -> np.ndarray:
    """Histogram over every unseen next card of ``hole``'s equity on ``board`` plus that card."""
    cards = np.asarray([*board, 0, 0], dtype=np.int64)  # room for the next card (and a spare slot)
    n = len(board) + 1
    eq = []
    for c in range(52):
        if c in hole or c in board:
            continue
        cards[n - 1] = c
        eq.append(hu_equity(cards, n, hole[0], hole[1], _NO_RUNOUTS))
    return histogram(np.asarray(eq), bins)


def turn_histogram(hole: Sequence[int], board: Sequence[int], bins: int) -> np.ndarray:
    """Histogram of the river equity of ``hole`` over the 46 rivers of a four-card ``board``."""
    h, b = _check_cards(hole, board, (4,))
    return _next_card_histogram(h, b, bins)


def flop_histogram(hole: Sequence[int], board: Sequence[int], bins: int) -> np.ndarray:
    """Histogram of the turn equity (exact over the rivers) of ``hole`` over the 47 turns of a flop."""
    h, b = _check_cards(hole, board, (3,))
    return _next_card_histogram(h, b, bins)


def flop_strengths(flop: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Every run-out of ``flop`` (``[1176, 2]`` turn and river) and every holding's river equity on it
    (``[1176, 1326]``, NaN where the holding meets the board)."""
    runouts = flop_runouts(list(flop))
    full = np.concatenate([np.broadcast_to(np.asarray(flop, dtype=np.int64), (len(runouts), 3)), runouts], axis=1)
    return runouts, strengths_on_boards(full)


def histograms_from_strengths(
    flop: Sequence[int], runouts: np.ndarray, strengths: np.ndarray, bins: int
) -> tuple[np.ndarray, np.ndarray]:
    """From :func:`flop_strengths`: every holding's flop histogram (``[1326, bins]``) and, for each
    turn card ``t``, every holding's turn histogram (``[52, 1326, bins]``; rows of impossible
    combinations are uniform and never looked up)."""
    turn_eq = np.full((52, NUM_HOLDINGS), np.nan)
    turn_hist = np.full((52, NUM_HOLDINGS, bins), 1.0 / bins)
    for t in range(52):
        if t in flop:
            continue
        rows = (runouts[:, 0] == t) | (runouts[:, 1] == t)
        s = strengths[rows]  # [48, 1326] rivers of turn t (NaN where the river or turn meets the holding)
        valid = ~np.isnan(s)
        counts = valid.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            turn_eq[t] = np.where(counts > 0, np.nansum(s, axis=0) / np.maximum(counts, 1), np.nan)
        turn_eq[t, np.isnan(s).all(axis=0)] = np.nan
        turn_hist[t] = histogram(s.T, bins)
    return histogram(turn_eq.T, bins), turn_hist


# --------------------------------------------------------------------------------- abstraction
class CardAbstraction:
    """The built abstraction: centroids of the flop and turn, equity thresholds of the river.

    >>> abstraction = CardAbstraction.uniform(AbstractionConfig(flop_buckets=2, turn_buckets=2, river_buckets=4, bins=4))
    >>> abstraction.bucket((51, 47), ())  # AKs preflop: its lossless class
    167
    >>> abstraction.bucket((51, 50), (49, 48, 0, 4, 8))  # four aces: the top river bucket
    3
    """

    def __init__(
        self, config: AbstractionConfig, flop_centroids: np.ndarray, turn_centroids: np.ndarray, river_edges: np.ndarray
    ) -> None:
        shapes = {
            "flop_centroids": (flop_centroids.shape, (config.flop_buckets, config.bins)),
            "turn_centroids": (turn_centroids.shape, (config.turn_buckets, config.bins)),
            "river_edges": (river_edges.shape, (config.river_buckets - 1,)),
        }
        for name, (got, want) in shapes.items():
            if got != want:
                raise ConfigError(name, got, f"must have shape {want} for this configuration")
        self.config = config
        self.flop_centroids = _by_mean(flop_centroids)
        self.turn_centroids = _by_mean(turn_centroids)
        self.river_edges = np.sort(np.asarray(river_edges, dtype=np.float64))

    @classmethod
    def uniform(cls, config: AbstractionConfig) -> CardAbstraction:
        """Centroids that each put all their mass in one bin, thresholds equally spaced (no build needed)."""

        def spikes(k: int) -> np.ndarray:
            c = np.zeros((k, config.bins))
            c[np.arange(k), np.minimum((np.arange(k) + 0.5) / k * config.bins, config.bins - 1).astype(int)] = 1.0
            return c

        edges = np.arange(1, config.river_buckets) / config.river_buckets
        return cls(config, spikes(config.flop_buckets), spikes(config.turn_buckets), edges)

    @property
    def num_buckets(self) -> tuple[int, int, int, int]:
        """Buckets per street, preflop to river."""
        return self.config.num_buckets

    def flop_bucket_of(self, histograms: np.ndarray) -> np.ndarray:
        """Nearest flop centroid of each histogram (``[..., bins]``)."""
        h = np.asarray(histograms).reshape(-1, self.config.bins)
        return np.argmin(emd_to_centroids(h, self.flop_centroids), axis=1).reshape(np.shape(histograms)[:-1])

    def turn_bucket_of(self, histograms: np.ndarray) -> np.ndarray:
        """Nearest turn centroid of each histogram (``[..., bins]``)."""
        h = np.asarray(histograms).reshape(-1, self.config.bins)
        return np.argmin(emd_to_centroids(h, self.turn_centroids), axis=1).reshape(np.shape(histograms)[:-1])

    def river_bucket_of(self, equities: np.ndarray | float) -> np.ndarray:
        """River bucket of each equity."""
        return np.searchsorted(self.river_edges, np.asarray(equities), side="right")

    def bucket(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """The bucket of ``hole`` on ``board`` (0, 3, 4 or 5 cards): its street's abstraction."""
        if len(board) == 0:
            h, _ = _check_cards(hole, board, (0,))
            return preflop_class(h)
        if len(board) == 3:
            return int(self.flop_bucket_of(flop_histogram(hole, board, self.config.bins)))
        if len(board) == 4:
            return int(self.turn_bucket_of(turn_histogram(hole, board, self.config.bins)))
        return int(self.river_bucket_of(river_equity(hole, board)))

    def save(self, path: str | Path) -> None:
        """Write the abstraction as a small ``.npz`` (atomically)."""
        meta = json.dumps({"version": _VERSION, "config": asdict(self.config)})

        def write(f: object) -> None:
            np.savez_compressed(
                f,  # type: ignore[arg-type]
                meta=np.frombuffer(meta.encode(), dtype=np.uint8),
                flop=self.flop_centroids.astype(np.float32),
                turn=self.turn_centroids.astype(np.float32),
                river=self.river_edges,
            )

        atomic_write_bytes(path, write)

    @classmethod
    def load(cls, path: str | Path) -> CardAbstraction:
        """Read a file written by :meth:`save`; raises :class:`ConfigError` naming what is wrong."""
        try:
            with np.load(path) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                flop, turn, river = data["flop"], data["turn"], data["river"]
        except (OSError, KeyError, ValueError) as exc:
            raise ConfigError(
                "abstraction", str(path), f"must be a file written by CardAbstraction.save ({exc})"
            ) from exc
        if meta.get("version") != _VERSION:
            raise ConfigError("abstraction version", meta.get("version"), f"must be {_VERSION}: rebuild it")
        return cls(AbstractionConfig(**meta["config"]), flop.astype(np.float64), turn.astype(np.float64), river)


def _by_mean(centroids: np.ndarray) -> np.ndarray:
    """Centroids sorted by the mean equity of their histogram (bin centres), weakest first."""
    c = np.asarray(centroids, dtype=np.float64)
    centres = (np.arange(c.shape[1]) + 0.5) / c.shape[1]
    return c[np.argsort(c @ centres, kind="stable")]


def build_abstraction(
    config: AbstractionConfig, rng: np.random.Generator, progress: Callable[[int, int], None] | None = None
) -> CardAbstraction:
    """Build a :class:`CardAbstraction` from ``config.flops`` random flops drawn from ``rng``."""
    flop_points, turn_points, river_points = [], [], []
    for i in range(config.flops):
        flop = [int(c) for c in rng.choice(52, size=3, replace=False)]
        runouts, strengths = flop_strengths(flop)
        flop_hist, turn_hist = histograms_from_strengths(flop, runouts, strengths, config.bins)
        live = ~np.isin(HOLDINGS, flop).any(axis=1)
        flop_points.append(flop_hist[live])
        rest = [c for c in range(52) if c not in flop]
        for t in rng.choice(rest, size=min(config.turns_per_flop, len(rest)), replace=False):
            ok = live & ~(HOLDINGS == t).any(axis=1)
            turn_points.append(turn_hist[int(t)][ok])
        river_points.append(strengths[~np.isnan(strengths)][:: max(1, strengths.size // 20_000)])
        if progress is not None:
            progress(i + 1, config.flops)

    def subsample(chunks: list[np.ndarray]) -> np.ndarray:
        points = np.concatenate(chunks)
        if len(points) > config.max_points:
            points = points[rng.choice(len(points), size=config.max_points, replace=False)]
        return points

    flop_c = kmeans_emd(subsample(flop_points), config.flop_buckets, rng, config.kmeans_iterations)
    turn_c = kmeans_emd(subsample(turn_points), config.turn_buckets, rng, config.kmeans_iterations)
    river = np.sort(np.concatenate(river_points))
    edges = np.quantile(river, np.arange(1, config.river_buckets) / config.river_buckets)
    return CardAbstraction(config, flop_c, turn_c, edges)
