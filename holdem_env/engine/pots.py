"""Pot arithmetic: the uncalled bet, main and side pots, and splitting a pot among tied winners."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["uncalled_bet", "build_pots", "split_pot"]


def uncalled_bet(live_contributions: Sequence[int]) -> tuple[int, int] | None:
    """The part of the largest contribution that no other player matched.

    Returns ``(seat, amount)`` or ``None`` when the largest contribution is matched
    (or shared by two players).

    >>> uncalled_bet([100, 300, 1000])
    (2, 700)
    >>> uncalled_bet([300, 300, 50]) is None
    True
    """
    top = -1
    second = -1
    seat = -1
    for i, c in enumerate(live_contributions):
        if c > top:
            second = top
            top = c
            seat = i
        elif c > second:
            second = c
    if seat < 0 or top <= max(second, 0):
        return None
    return seat, top - max(second, 0)


def build_pots(
    contributions: Sequence[int],
    in_hand: Sequence[bool],
    all_in: Sequence[bool],
    dead: int = 0,
) -> list[tuple[int, tuple[int, ...]]]:
    """Main pot then side pots as ``(amount, eligible seats)``, lowest layer first.

    A layer boundary sits at every all-in contribution of a player still in the hand;
    a layer is won only by players in the hand who reached it. Folded players' chips stay
    in the layers they reached. ``dead`` chips (antes that do not count as contributions)
    go into the main pot. Call this after the uncalled bet was returned.

    Anna 100, Ben 300, Cara 1000 all in, Cara's 700 already returned:

    >>> build_pots([100, 300, 300], [True, True, True], [True, True, True])
    [(300, (0, 1, 2)), (400, (1, 2))]
    """
    top = 0
    for c in contributions:
        if c > top:
            top = c
    levels = sorted({c for c, live, allin in zip(contributions, in_hand, all_in, strict=True) if live and allin and c < top})
    levels.append(top)
    pots: list[tuple[int, tuple[int, ...]]] = []
    prev = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > prev:
                amount += (c if c < level else level) - prev
        if not pots:
            amount += dead
        eligible = tuple(i for i, c in enumerate(contributions) if in_hand[i] and c >= level)
        assert eligible or amount == 0, "a pot layer nobody in the hand reached"
        if amount:
            pots.append((amount, eligible))
        prev = level
    return pots


def split_pot(amount: int, winners: Sequence[int], button: int, num_seats: int) -> list[int]:
    """Shares of ``amount`` for ``winners`` (same order): equal split, odd chips one at a
    time in seat order starting from the first seat left of the button.

    >>> split_pot(101, [0, 3], button=0, num_seats=6)
    [50, 51]
    >>> split_pot(101, [0, 3], button=4, num_seats=6)
    [51, 50]
    """
    k = len(winners)
    base, odd = divmod(amount, k)
    shares = [base] * k
    if odd:
        order = sorted(range(k), key=lambda j: (winners[j] - button - 1) % num_seats)
        for j in order[:odd]:
            shares[j] += 1
    return shares
