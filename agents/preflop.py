"""The 169 preflop starting-hand classes, their strength order and percentile ranges.

A class is a pair (``"AA"``), a suited hand (``"AKs"``) or an offsuit hand (``"AKo"``); the
169 classes cover the 1,326 two-card combinations (6 per pair, 4 per suited hand, 12 per
offsuit hand). Classes are ordered by the Chen formula (a standard hand-strength score;
fractional, so that ties break toward the higher cards), and a *range* is the strongest
classes that together hold a given fraction of the 1,326 combinations.

>>> hand_class((51, 47))  # As Ks
'AKs'
>>> hand_class((0, 1))  # 2c 2d
'22'
>>> CLASSES[0], len(CLASSES)
('AA', 169)
>>> sorted(top_range(0.03))
['AA', 'AKs', 'AQs', 'JJ', 'KK', 'QQ', 'TT']
>>> top_range(1.5)
Traceback (most recent call last):
...
holdem_env.engine.errors.ConfigError: fraction=1.5 is invalid: must be a number in 0..1
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from holdem_env.engine.cards import RANKS
from holdem_env.engine.errors import CardError, ConfigError
from holdem_env.engine.validate import check_number

__all__ = [
    "CLASSES",
    "CLASS_RANK",
    "COMBOS",
    "hand_class",
    "chen_score",
    "class_percentile",
    "top_range",
    "open_fraction",
]


def _name(hi: int, lo: int, suited: bool) -> str:
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if suited else "o")


def _chen(hi: int, lo: int, suited: bool) -> float:
    """Chen score from ranks 0..12 (2..A) before rounding."""
    high_points = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(hi, (hi + 2) / 2.0)
    if hi == lo:
        return max(5.0, 2 * high_points)
    score = high_points + (2.0 if suited else 0.0)
    gap = hi - lo - 1
    score -= {0: 0.0, 1: 1.0, 2: 2.0, 3: 4.0}.get(gap, 5.0)
    if gap <= 1 and hi < 10:  # both cards below a queen: straight potential
        score += 1.0
    return score


def chen_score(cls: str) -> int:
    """The Chen formula score of a class (rounded up, as the formula prescribes)."""
    hi, lo, suited = _parse_class(cls)
    return math.ceil(_chen(hi, lo, suited))


def _parse_class(cls: str) -> tuple[int, int, bool]:
    if not isinstance(cls, str) or len(cls) not in (2, 3) or cls[0] not in RANKS or cls[1] not in RANKS:
        raise CardError(f"{cls!r} is not a starting-hand class: expected e.g. 'AA', 'AKs' or 'T9o'")
    hi, lo = RANKS.index(cls[0]), RANKS.index(cls[1])
    if hi < lo or (hi == lo) != (len(cls) == 2) or (len(cls) == 3 and cls[2] not in "so"):
        raise CardError(f"{cls!r} is not a starting-hand class: expected e.g. 'AA', 'AKs' or 'T9o'")
    return hi, lo, len(cls) == 3 and cls[2] == "s"


def _all_classes() -> list[str]:
    keyed = []
    for hi in range(13):
        for lo in range(hi + 1):
            for suited in ((False,) if hi == lo else (True, False)):
                # Tie-break the (coarse) Chen score by pairs, then high card, kicker, suitedness.
                key = (_chen(hi, lo, suited), hi == lo, hi, lo, suited)
                keyed.append((key, _name(hi, lo, suited)))
    keyed.sort(reverse=True)
    return [name for _, name in keyed]


#: The 169 classes, strongest first.
CLASSES: tuple[str, ...] = tuple(_all_classes())
#: Class -> position in :data:`CLASSES` (0 = strongest).
CLASS_RANK: dict[str, int] = {c: i for i, c in enumerate(CLASSES)}
#: Class -> number of two-card combinations (6, 4 or 12).
COMBOS: dict[str, int] = {c: 6 if len(c) == 2 else (4 if c[2] == "s" else 12) for c in CLASSES}

_CUMULATIVE: dict[str, float] = {}
_running = 0
for _c in CLASSES:
    _running += COMBOS[_c]
    _CUMULATIVE[_c] = _running / 1326.0
del _running, _c


def hand_class(cards: Sequence[int]) -> str:
    """The class of two hole cards given as ids (``rank * 4 + suit``)."""
    if len(cards) != 2:
        raise CardError(f"a starting hand has exactly 2 cards, got {len(cards)}")
    a, b = int(cards[0]), int(cards[1])
    if not (0 <= a < 52 and 0 <= b < 52) or a == b:
        raise CardError(f"hole cards {cards!r} are invalid: two distinct ids in 0..51")
    ra, rb = a // 4, b // 4
    hi, lo = max(ra, rb), min(ra, rb)
    return _name(hi, lo, a % 4 == b % 4)


def class_percentile(cls: str) -> float:
    """Fraction of all 1,326 combinations that are at least as strong as ``cls`` (AA: 0.0045)."""
    if cls not in _CUMULATIVE:
        _parse_class(cls)
        raise CardError(f"{cls!r} is not a starting-hand class")  # pragma: no cover - parse raised
    return _CUMULATIVE[cls]


def top_range(fraction: float) -> frozenset[str]:
    """The strongest classes holding at most ``fraction`` of all combinations (at least AA if > 0)."""
    fraction = check_number("fraction", fraction, 0.0, 1.0, allowed="must be a number in 0..1")
    if fraction == 0:
        return frozenset()
    out = [c for c in CLASSES if _CUMULATIVE[c] <= fraction + 1e-12]
    return frozenset(out or [CLASSES[0]])


#: Default opening fraction by the number of players still to act behind the opener.
_OPEN_BY_BEHIND = {1: 0.40, 2: 0.45, 3: 0.27, 4: 0.19, 5: 0.15, 6: 0.13, 7: 0.11, 8: 0.10, 9: 0.09}


def open_fraction(players_behind: int, *, heads_up: bool = False) -> float:
    """The fraction of hands a tight-aggressive player opens with ``players_behind`` left to act.

    Heads-up the button opens wide (70%); the small blind with only the big blind behind
    opens 40%; earlier positions tighten toward 9% at a full ten-handed table.
    """
    if not isinstance(players_behind, int) or not 1 <= players_behind <= 9:
        raise ConfigError("players_behind", players_behind, "must be an integer in 1..9")
    if heads_up:
        return 0.70
    return _OPEN_BY_BEHIND[players_behind]
