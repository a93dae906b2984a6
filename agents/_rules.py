# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The rule bots' decisions for many rows at once: ``tag``'s and the style bots' one decision function.

:func:`tag_rows` and :func:`style_rows` decide, for each row of a
:class:`~holdem_env.batched.views.BatchViews`, the action of :class:`~holdem_env.agents.tag.TagAgent`
and :class:`~holdem_env.agents.styles.StyleAgent` from the row's view, the hand's preflop percentile
and postflop equity (given per row) and the row's uniform draw; ``act``, ``decide`` and tag's range
queries all call them, so the three agree by construction. :func:`row_equities` is their equity:
heads-up exact against a random holding (a flop averages over run-outs sampled by :func:`flop_sample`),
multiway a Monte Carlo over ``samples`` deals; both are deterministic functions of the cards and a seed,
drawn from a splitmix64 generator here (no numpy generator per decision). Hand values come from
one small table (non-flush value of each 5-card board's multiset of ranks with each pair of hole
ranks) and the evaluator's flush table, so a heads-up count needs 91 look-ups per board instead of
990 evaluations. Compiled (``_rules.pxd``, ``holdem_env/_build.py`` CANDIDATES) this is C; the
``.py`` gives the same numbers slowly.
"""

from __future__ import annotations

import math

import numpy as np

from holdem_env.engine import _kernels
from holdem_env.engine._kernels import _mix64, _pair, _row5, _value  # compiled: C calls (_rules.pxd cimports them)

__all__ = ["tag_rows", "style_rows", "row_equities", "hu_equity", "mc_equity", "flop_sample"]

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15  # splitmix64's increment (its mixer: _kernels._mix64)
_ONE = 1
_FOLD, _CALL = 0, 1
#: ``min_raise_to`` below this: no bet or raise is legal (BatchViews writes 0).
NO_RAISE = 1


_PAIR_A, _PAIR_B, _PAIR_OF, _ROW_OF, _PV, _FLUSH = _kernels.TABLES
# Scratch (single-threaded: the GIL is held throughout).
_LEFT = np.zeros(13, dtype=np.int64)
_SUITS = np.zeros(4, dtype=np.int64)
_SBITS = np.zeros(4, dtype=np.int64)
_FULL = np.zeros(5, dtype=np.int64)
_DECK = np.zeros(52, dtype=np.int64)
_PICK = np.zeros(1176, dtype=np.int64)
_ORDER = np.zeros(11, dtype=np.int64)
_WINS = np.zeros(1, dtype=np.int64)
_STATE = 0


# ---------------------------------------------------------------------------------------- generator
def _rand() -> int:
    """The next 64 bits of the splitmix64 stream in ``_STATE``."""
    global _STATE
    _STATE = (_STATE + _GOLDEN) & _M64
    return _mix64(_STATE)


def _mix_in(x: int) -> None:
    """Fold the non-negative integer ``x`` into the generator's state."""
    global _STATE
    _STATE = (_STATE ^ ((x * _GOLDEN) & _M64)) & _M64
    _STATE = _rand()


def _below(n: int) -> int:
    """A number in ``0 .. n - 1`` from the stream (the top 32 bits scaled: no division)."""
    return ((_rand() >> 32) * n) >> 32


# ---------------------------------------------------------------------------------------- hand values
def _recount(true: int, plain: int, mine: int) -> int:
    """A holding valued ``plain`` among the counts is really worth ``true``: move it between the
    counts (wins into ``_WINS[0]``; the change of ties is returned)."""
    dt = 0
    if true < mine:
        _WINS[0] += 1
    elif true == mine:
        dt += 1
    if plain < mine:
        _WINS[0] -= 1
    elif plain == mine:
        dt -= 1
    return dt


def _board_share(f0: int, f1: int, f2: int, f3: int, f4: int, c1: int, c2: int) -> float:
    """Heads-up pot share of ``c1 c2`` on the five-card board against each unseen holding (ties
    half): the exact counts of :func:`holdem_env.engine.ranges.holdings_equity_against_random`."""
    left, suits, sb = _LEFT, _SUITS, _SBITS
    for r in range(13):
        left[r] = 4
    for s in range(4):
        suits[s] = 0
        sb[s] = 0
    full = _FULL
    full[0], full[1], full[2], full[3], full[4] = f0, f1, f2, f3, f4
    known = 0
    for j in range(5):
        x = full[j]
        left[x >> 2] -= 1
        suits[x & 3] += 1
        sb[x & 3] |= _ONE << (x >> 2)
        known |= _ONE << x
    left[c1 >> 2] -= 1
    left[c2 >> 2] -= 1
    known |= (_ONE << c1) | (_ONE << c2)
    base = _row5(f0, f1, f2, f3, f4)
    most, st = 0, 0
    for s in range(4):
        if suits[s] > most:
            most, st = suits[s], s
    mine = _value(base, st, most, sb[st], c1, c2)
    wins, ties, valid = 0, 0, 0
    _WINS[0] = 0
    for p in range(91):
        a, b = _PAIR_A[p], _PAIR_B[p]
        cnt = left[a] * (left[a] - 1) // 2 if a == b else left[a] * left[b]
        if cnt:
            v = _PV[base + p]
            valid += cnt
            if v < mine:
                wins += cnt
            elif v == mine:
                ties += cnt
    if most >= 3:  # the holdings that make the flush: their flush value instead of the plain one
        sbits = sb[st]
        for r1 in range(13):  # first card of the suit
            o1 = r1 * 4 + st
            if (known >> o1) & 1:
                continue
            if most == 3:  # both cards of the suit
                for r2 in range(r1 + 1, 13):
                    o2 = r2 * 4 + st
                    if not (known >> o2) & 1:
                        ties += _recount(_FLUSH[sbits | (_ONE << r1) | (_ONE << r2)], _PV[base + _pair(o1, o2)], mine)
                continue
            for o2 in range(52):  # with any card (another of the suit only above it)
                if o2 == o1 or (known >> o2) & 1:
                    continue
                if (o2 & 3) == st:
                    if o2 > o1:
                        ties += _recount(_FLUSH[sbits | (_ONE << r1) | (_ONE << (o2 >> 2))], _PV[base + _pair(o1, o2)], mine)
                else:
                    ties += _recount(_FLUSH[sbits | (_ONE << r1)], _PV[base + _pair(o1, o2)], mine)
        if most == 5:  # a flush on board plays for the holdings without a card of its suit too
            for o1 in range(52):
                if (o1 & 3) == st or (known >> o1) & 1:
                    continue
                for o2 in range(o1 + 1, 52):
                    if (o2 & 3) != st and not (known >> o2) & 1:
                        ties += _recount(_FLUSH[sbits], _PV[base + _pair(o1, o2)], mine)
        wins += _WINS[0]
    return (wins + 0.5 * ties) / valid


def flop_sample(f0: int, f1: int, f2: int, m: int, seed: int) -> np.ndarray:
    """``m`` of a flop's 1,176 turn-and-river pairs (:func:`holdem_env.engine.ranges.flop_runouts`
    order, indices drawn without replacement from a stream seeded by ``seed`` and the sorted flop),
    as an ``(m, 2)`` array in the order drawn; ``m >= 1176``: every pair, in order."""
    global _STATE
    rest = _DECK
    k = 0
    for c in range(52):
        if c != f0 and c != f1 and c != f2:
            rest[k] = c
            k += 1
    out = np.empty((min(m, 1176), 2), dtype=np.int64)
    o = out
    if m >= 1176:
        i = 0
        for a in range(49):
            for b in range(a + 1, 49):
                o[i, 0], o[i, 1] = rest[a], rest[b]
                i += 1
        return out
    lo, mid, hi = min(f0, f1, f2), f0 + f1 + f2 - min(f0, f1, f2) - max(f0, f1, f2), max(f0, f1, f2)
    _STATE = seed & _M64
    _mix_in(1)
    _mix_in(lo)
    _mix_in(mid)
    _mix_in(hi)
    _mix_in(m)
    pick = _PICK
    for i in range(1176):
        pick[i] = i
    for i in range(m):
        j = i + _below(1176 - i)
        t = pick[i]
        pick[i] = pick[j]
        pick[j] = t
        # index -> (a, b), a < b, of the 49 remaining cards in combinations order
        idx, a = pick[i], 0
        while idx >= 48 - a:
            idx -= 48 - a
            a += 1
        o[i, 0], o[i, 1] = rest[a], rest[a + 1 + idx]
    return out


def hu_equity(board: np.ndarray, nboard: int, c1: int, c2: int, runouts: np.ndarray) -> float:
    """Heads-up equity of ``c1 c2`` against a random holding: the river exactly, the turn over every
    river, the flop over ``runouts`` (those that miss the holding's cards, summed in their order);
    0.5 when every run-out meets the holding. Bit for bit
    :func:`holdem_env.engine.ranges.holdings_equity_against_random` with the same run-outs."""
    b = board
    if nboard == 5:
        return _board_share(b[0], b[1], b[2], b[3], b[4], c1, c2)
    total, used = 0.0, 0
    if nboard == 4:
        for c in range(52):
            if c == b[0] or c == b[1] or c == b[2] or c == b[3] or c == c1 or c == c2:
                continue
            total += _board_share(b[0], b[1], b[2], b[3], c, c1, c2)
            used += 1
    else:
        ro = runouts
        for i in range(ro.shape[0]):
            t, r = ro[i, 0], ro[i, 1]
            if t == c1 or t == c2 or r == c1 or r == c2:
                continue
            total += _board_share(b[0], b[1], b[2], t, r, c1, c2)
            used += 1
    return total / used if used else 0.5


def mc_equity(board: np.ndarray, nboard: int, c1: int, c2: int, opponents: int, samples: int, seed: int) -> float:
    """Pot share of ``c1 c2`` against ``opponents`` random holdings over ``samples`` deals of the rest
    of the board and their cards (ties share the pot), from a stream seeded by ``seed``, the sorted
    board and the holding: a deterministic function of the cards."""
    global _STATE
    deck, full, suits, sb = _DECK, _FULL, _SUITS, _SBITS
    known = (_ONE << c1) | (_ONE << c2)
    for i in range(nboard):
        known |= _ONE << board[i]
        full[i] = board[i]
    n = 0
    for c in range(52):
        if not (known >> c) & 1:
            deck[n] = c
            n += 1
    _STATE = seed & _M64
    _mix_in(2)
    _mix_in(opponents)
    _mix_in(samples)
    _mix_in(min(c1, c2))
    _mix_in(max(c1, c2))
    for c in range(52):
        if (known >> c) & 1 and c != c1 and c != c2:
            _mix_in(c + 3)  # the board, in card order
    k = 5 - nboard
    need = k + 2 * opponents
    wins, tied = 0, 0.0
    base, most, st, hero = 0, 0, 0, 0
    for q in range(samples):
        for j in range(need):  # a partial shuffle of the deck that carries over
            r = j + _below(n - j)
            t = deck[j]
            deck[j] = deck[r]
            deck[r] = t
        if k or q == 0:  # the board's row and the hero's value (the same every time on the river)
            for j in range(k):
                full[nboard + j] = deck[j]
            for s in range(4):
                suits[s] = 0
                sb[s] = 0
            for j in range(5):
                suits[full[j] & 3] += 1
                sb[full[j] & 3] |= _ONE << (full[j] >> 2)
            most, st = 0, 0
            for s in range(4):
                if suits[s] > most:
                    most, st = suits[s], s
            base = _row5(full[0], full[1], full[2], full[3], full[4])
            hero = _value(base, st, most, sb[st], c1, c2)
        best, at_best = -1, 0
        for o in range(opponents):
            v = _value(base, st, most, sb[st], deck[k + 2 * o], deck[k + 2 * o + 1])
            if v > best:
                best, at_best = v, 1
            elif v == best:
                at_best += 1
        if hero > best:
            wins += 1
        elif hero == best:
            tied += 1.0 / (1 + at_best)
    return (wins + tied) / samples


def row_equities(
    board: np.ndarray, board_len: np.ndarray, hole: np.ndarray, opponents: np.ndarray,
    rows: np.ndarray, flop_runouts: int, samples: int, seed: int, out: np.ndarray,
) -> None:
    """``out[i]`` = the postflop equity of row ``i`` for each ``i`` in ``rows``: :func:`hu_equity` against
    one opponent (the flop over :func:`flop_sample`'s ``flop_runouts`` pairs), else :func:`mc_equity`."""
    for q in range(rows.shape[0]):
        i = rows[q]
        c1, c2, nb = int(hole[i, 0]), int(hole[i, 1]), int(board_len[i])
        if opponents[i] == 1:
            ro = board[i:i + 1, 0:2]  # unused off the flop
            if nb == 3:
                ro = flop_sample(int(board[i, 0]), int(board[i, 1]), int(board[i, 2]), flop_runouts, seed)
            out[i] = hu_equity(board[i], nb, c1, c2, ro)
        else:
            out[i] = mc_equity(board[i], nb, c1, c2, int(opponents[i]), samples, seed)


# ---------------------------------------------------------------------------------------- decisions
def _opponents_in(dealt: np.ndarray, folded: np.ndarray, i: int, seat: int, n: int) -> int:
    """How many other seats of row ``i`` are still in the hand (dealt in, not folded), clamped to 1..9."""
    others = 0
    for s in range(n):
        if dealt[i, s] and s != seat and not folded[i, s]:
            others += 1
    return max(1, min(others, 9))


def _closest(lo: int, hi: int, target: float) -> int:
    """The exact raise id whose raise-to in ``lo .. hi`` is closest to ``target`` (the smaller on a
    tie), or -1 when no raise is legal (``lo`` 0)."""
    if lo < NO_RAISE:
        return -1
    if target <= lo:
        return lo + 1
    if target >= hi:
        return hi + 1
    f = math.floor(target)
    return (f if (target - f) <= ((f + 1) - target) else f + 1) + 1


def tag_rows(
    v: object, params: np.ndarray, opens: np.ndarray, pct: np.ndarray, eq: np.ndarray, u: np.ndarray,
    ids: np.ndarray, targets: np.ndarray,
) -> None:
    """``ids[i]``: tag's exact action id at row ``i`` of the BatchViews ``v`` (``params`` = tightness,
    aggression; ``opens[b]`` the opening fraction with ``b`` players behind, ``opens[10]`` heads-up;
    ``pct`` the hand's preflop percentile, ``eq`` its postflop equity, ``u`` its uniform draw);
    ``targets[i]``: the chips a chosen bet or raise aimed at (for other action sets), else NaN."""
    seat_a, button_a, street_a, pot_a, cur_a = v.seat, v.button, v.street, v.pot, v.current_bet  # type: ignore[attr-defined]
    stacks, sbets, folded, dealt = v.stacks, v.street_bets, v.folded, v.dealt_in  # type: ignore[attr-defined]
    lfold, lcheck, call_a, lo_a, hi_a = v.legal_fold, v.legal_check, v.call, v.min_raise_to, v.max_raise_to  # type: ignore[attr-defined]
    hlen, hseat, hstreet, hkind = v.hist_len, v.hist_seat, v.hist_street, v.hist_kind  # type: ignore[attr-defined]
    n, bb = v.num_players, v.big_blind  # type: ignore[attr-defined]
    t, a = params[0], params[1]
    order = _ORDER
    for i in range(ids.shape[0]):
        seat, pot, current, to_call = seat_a[i], pot_a[i], cur_a[i], call_a[i]
        lo, hi = lo_a[i], hi_a[i]
        passive = _CALL if (lcheck[i] or not lfold[i]) else _FOLD
        raises, callers, raiser = 0, 0, -1
        for k in range(hlen[i]):  # the preflop raises and calls, the last raiser
            if hstreet[i, k] == 0:
                if hkind[i, k] == 3 or hkind[i, k] == 4:
                    raises += 1
                    raiser = hseat[i, k]
                elif hkind[i, k] == 2:
                    callers += 1
        stack_total = sbets[i, seat] + stacks[i, seat]
        target, act = math.nan, -1
        if street_a[i] == 0:
            p = pct[i]
            nd = 0
            for s in range(n):
                nd += dealt[i, s] != 0
            heads_up = nd == 2
            m = 0
            if heads_up:
                order[0] = button_a[i]
                m = 1
                for s in range(n):
                    if dealt[i, s] and s != button_a[i]:
                        order[m] = s
                        m += 1
            else:
                for kk in range(1, n + 1):  # clockwise from the button, the blinds last
                    s = (button_a[i] + kk) % n
                    if dealt[i, s]:
                        order[m - 2 if m >= 2 else nd - 2 + m] = s
                        m += 1
            pos = 0
            while pos < m and order[pos] != seat:
                pos += 1
            behind = max(1, m - 1 - pos)
            is_big_blind = seat == order[m - 1]
            price = to_call / float(pot + to_call) if to_call else 0.0  # float(): C divides integers
            cheap = 1.0 + 5.0 * max(0.0, 0.3 - price)
            if raises == 0:
                frac = (opens[10] if heads_up else opens[min(behind, 9)]) / t
                if callers:
                    frac *= 0.6
                if p <= frac:
                    target = bb * (2.5 + (0.5 if seat == order[m - 2] and not heads_up else 0.0) + callers)
                    act = _CALL
                else:
                    act = passive
            elif raises == 1:
                three_bet = (0.09 if heads_up else 0.035) * a / t
                call = ((0.30 if heads_up else 0.09) / t + (0.06 if is_big_blind else 0.0)) * cheap
                if to_call > 0.25 * stack_total:
                    call *= 0.4
                if p <= three_bet:
                    target = current * (3.0 if behind > 1 else 3.5) + bb * callers
                    act = _CALL
                else:
                    act = _CALL if p <= call else passive
            elif raises == 2:
                if p <= 0.025 / t:
                    target = current * 2.3
                    if target > 0.4 * stack_total:
                        target = stack_total
                    act = _CALL
                elif p <= 0.06 * cheap / t and to_call <= 0.35 * stack_total:
                    act = _CALL
                else:
                    act = passive
            else:
                if p <= 0.015 / t:
                    target = stack_total
                    act = _CALL
                else:
                    act = _CALL if p <= 0.025 / t else passive
        else:
            opponents = _opponents_in(dealt, folded, i, seat, n)
            street = street_a[i]
            value = (0.64 if opponents == 1 else 0.52 if opponents == 2 else 0.43) + 0.04 * (t - 1.0)
            e, uu = eq[i], u[i]
            if to_call > 0:
                pot_odds = to_call / float(pot + to_call)
                e = e * (1.0 - (0.15 + 0.08 * street) * min(1.0, to_call / float(max(pot - to_call, 1))))
                act = _CALL if e >= pot_odds + (0.04 + 0.03 * street) * t else passive
                if uu < min(1.0, 0.8 * a) and lo >= NO_RAISE and e >= value + 0.12:
                    target, act = current + 0.8 * (pot + to_call), _CALL
            else:
                first = current == 0
                value_bet = e >= value and uu < min(1.0, 0.85 * a)
                c_bet = street == 1 and raiser == seat and first and opponents <= 2 and uu < min(1.0, 0.7 * a)
                stab = first and opponents == 1 and uu < min(1.0, 0.3 * a) and e >= 0.35
                act = _CALL
                if value_bet and lo >= NO_RAISE:
                    target = current + 0.7 * pot
                elif not value_bet and (c_bet or stab) and lo >= NO_RAISE:
                    target = 0.5 * pot
        rid = _closest(lo, hi, target) if target == target else -1
        ids[i] = rid if rid >= 0 else act
        targets[i] = target if rid >= 0 else math.nan


def style_rows(
    v: object, params: np.ndarray, pct: np.ndarray, eq: np.ndarray, u: np.ndarray, ids: np.ndarray, targets: np.ndarray
) -> None:
    """:func:`tag_rows` for a style bot (``params`` = play, raise_share, aggression, stickiness, bluff)."""
    seat_a, street_a, pot_a, cur_a = v.seat, v.street, v.pot, v.current_bet  # type: ignore[attr-defined]
    stacks, sbets, folded, dealt = v.stacks, v.street_bets, v.folded, v.dealt_in  # type: ignore[attr-defined]
    lfold, lcheck, call_a, lo_a, hi_a = v.legal_fold, v.legal_check, v.call, v.min_raise_to, v.max_raise_to  # type: ignore[attr-defined]
    hlen, hstreet, hkind = v.hist_len, v.hist_street, v.hist_kind  # type: ignore[attr-defined]
    n, bb = v.num_players, v.big_blind  # type: ignore[attr-defined]
    play0, raise_share, aggression, stickiness, bluff = params[0], params[1], params[2], params[3], params[4]
    for i in range(ids.shape[0]):
        seat, pot, current, to_call = seat_a[i], pot_a[i], cur_a[i], call_a[i]
        lo, hi = lo_a[i], hi_a[i]
        passive = _CALL if (lcheck[i] or not lfold[i]) else _FOLD
        stack_total = sbets[i, seat] + stacks[i, seat]
        target, act, rid = math.nan, _CALL, -1
        if street_a[i] == 0:
            p = pct[i]
            raises = 0
            for k in range(hlen[i]):
                if hstreet[i, k] == 0 and (hkind[i, k] == 3 or hkind[i, k] == 4):
                    raises += 1
            play = play0 / (3.0 ** max(0, raises - 1))
            if p > play:
                act = passive
            else:
                if p <= play * raise_share:
                    target = bb * 3 if raises == 0 else current * 3
                    if target > 0.35 * stack_total:
                        target = stack_total
                    rid = _closest(lo, hi, target)
                if rid < 0 and to_call > 0.3 * stack_total and p > play * max(stickiness, 0.25):
                    act = passive
        else:
            opponents = _opponents_in(dealt, folded, i, seat, n)
            strong = 0.65 if opponents == 1 else 0.52 if opponents == 2 else 0.45
            e, uu = eq[i], u[i]
            if to_call > 0:
                if e >= strong + 0.1 and uu < aggression:
                    target = current + 0.8 * (pot + to_call)
                    rid = _closest(lo, hi, target)
                if rid < 0:
                    pot_odds = to_call / float(pot + to_call)
                    act = _CALL if e >= pot_odds * (1.0 - stickiness) + 0.03 else passive
            elif e >= strong and uu < aggression:
                target = current + 0.66 * pot
                rid = _closest(lo, hi, target)
            elif e < strong and uu < bluff:
                target = current + 0.5 * pot
                rid = _closest(lo, hi, target)
        ids[i] = rid if rid >= 0 else act
        targets[i] = target if rid >= 0 else math.nan
