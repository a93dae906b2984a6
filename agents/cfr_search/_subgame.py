# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The compiled core of the subgame solver: discounted CFR over a public tree whose nodes hold range vectors.

:class:`SubgameCore` walks a flattened heads-up betting tree (:mod:`~holdem_env.agents.cfr_search.tree`)
once per player per iteration, with one vector per node over a list of holdings (usually all those the
board leaves), as DeepStack and Libratus do. Terminals cost O(holdings): a fold sums the opponent's
reach over the holdings that share no card with each holding (the total less the two cards' sums,
inclusion-exclusion), a showdown walks the holdings in order of strength with the same per-card sums.
A chance node deals each card left with probability 1/44 after a turn (52 cards less the board's four and
the two holdings'), 1/45 after a flop. Regrets and average strategy are discounted per iteration by factors the caller gives
(DCFR; CFR+ is one choice of them). A re-solving gadget (Burch, Johanson and Bowling 2014) can sit
above the root: there one player chooses, per holding, between a given value and playing the subgame.
Compiled (``_subgame.pxd``, ``holdem_env/_build.py`` CANDIDATES) this is C; the ``.py`` is the same
algorithm, slowly.
"""

from __future__ import annotations

import weakref

import numpy as np

__all__ = ["SubgameCore", "KIND_DECISION", "KIND_FOLD", "KIND_SHOWDOWN", "KIND_CHANCE"]

KIND_DECISION = 0
KIND_FOLD = 1
KIND_SHOWDOWN = 2
KIND_CHANCE = 3

MODE_CFR = 0  # regret update for the traverser, current strategies
MODE_BEST = 1  # the traverser's best response to the other's average strategy
MODE_AVERAGE = 2  # both average strategies


_SPARE_KEPT = 4  # freed table buffers kept for the next solves (a turn re-solve frees about three)
_buffers: list[list] = []  # [buffer, tables of it still alive]: those of the live cores and a few spare


def _release(entry: list) -> None:
    entry[1] -= 1
    spare = [id(e) for e in _buffers if e[1] == 0]
    drop = set(spare[: max(len(spare) - _SPARE_KEPT, 0)])  # the oldest spare ones
    if drop:
        _buffers[:] = [e for e in _buffers if id(e) not in drop]


def zeroed_tables(rows: int, n: int, count: int = 2) -> tuple[np.ndarray, ...]:
    """``count`` zero tables ``(rows, n)`` (a core's regrets, strategy sums, current strategies). A turn
    tree's are tens of megabytes each, and fresh memory costs a page fault and the kernel's clearing of
    each page on first touch (about a fifth of a turn solve): the buffer of tables no longer alive is
    zeroed and reused instead (the same zeros). A buffer is in use while any of its tables, or an array
    made from one, lives."""
    size = rows * n
    want = count * size
    best = None
    for entry in _buffers:
        if entry[1] == 0 and want <= entry[0].size <= want * 3 // 2 and (best is None or entry[0].size < best[0].size):
            best = entry
    if best is None:
        best = [np.zeros(want, dtype=np.float64), 0]
        _buffers.append(best)
    else:
        best[0][:want] = 0.0
    tables = tuple(best[0][k * size : (k + 1) * size].reshape(rows, n) for k in range(count))
    for t in tables:
        best[1] += 1
        weakref.finalize(t, _release, best)
    return tables


class SubgameCore:
    """The solver's state: tree arrays, holdings, per-board strength orders, regrets, strategy sums."""

    def __init__(
        self,
        kind: np.ndarray,
        player: np.ndarray,
        amount: np.ndarray,
        first_child: np.ndarray,
        n_children: np.ndarray,
        children: np.ndarray,
        dealt: np.ndarray,
        row: np.ndarray,
        n_rows: int,
        cards: np.ndarray,
        board: np.ndarray,
        strength: np.ndarray,
        ranges: np.ndarray,
    ) -> None:
        kinds = np.ascontiguousarray(kind, dtype=np.int64)
        counts = np.ascontiguousarray(n_children, dtype=np.int64)
        strengths = np.ascontiguousarray(strength, dtype=np.int64)  # (boards, holdings), 0: blocked there
        holdings = np.asarray(cards, dtype=np.int64).reshape(-1, 2)
        self.kind = kinds
        self.player = np.ascontiguousarray(player, dtype=np.int64)
        self.amount = np.ascontiguousarray(amount, dtype=np.int64)
        self.first_child = np.ascontiguousarray(first_child, dtype=np.int64)
        self.n_children = counts
        self.children = np.ascontiguousarray(children, dtype=np.int64)
        self.dealt = np.ascontiguousarray(dealt, dtype=np.int64)  # the card dealt into a chance node's child; -1
        self.row = np.ascontiguousarray(row, dtype=np.int64)
        self.n_nodes = len(kinds)
        self.n_hold = len(holdings)
        self.c1 = np.ascontiguousarray(holdings[:, 0])
        self.c2 = np.ascontiguousarray(holdings[:, 1])
        holding_of_card = [np.flatnonzero((holdings[:, 0] == c) | (holdings[:, 1] == c)) for c in range(52)]
        card_count = np.array([len(x) for x in holding_of_card], dtype=np.int64)  # the holdings with each card
        card_holdings = np.zeros((52, max(int(card_count.max()), 1)), dtype=np.int64)
        for c in range(52):
            card_holdings[c, : card_count[c]] = holding_of_card[c]
        self.card_count = card_count
        self.card_holdings = card_holdings
        self.board = np.ascontiguousarray(board, dtype=np.int64)  # a showdown's row of `strength` (its board)
        self.strength = strengths
        order = np.zeros(strengths.shape, dtype=np.int64)
        n_valid = np.zeros(len(strengths), dtype=np.int64)
        for b in range(len(strengths)):
            valid = np.flatnonzero(strengths[b] > 0)
            ranked = valid[np.argsort(strengths[b][valid], kind="stable")]
            order[b, : len(ranked)] = ranked
            order[b, len(ranked) :] = np.flatnonzero(strengths[b] <= 0)  # then the holdings the board blocks
            n_valid[b] = len(ranked)
        self.order = order
        self.ranked = np.ascontiguousarray(np.take_along_axis(strengths, order, axis=1))  # strengths in that order
        self.ordered_c1 = np.ascontiguousarray(holdings[:, 0][order])  # the cards of the holdings in that order
        self.ordered_c2 = np.ascontiguousarray(holdings[:, 1][order])
        self.n_valid = n_valid
        self.ranges = np.ascontiguousarray(ranges, dtype=np.float64)
        (self.avg,) = zeroed_tables(n_rows, self.n_hold, 1)
        # The regrets and each node's current strategy (regret-matched when its regrets last changed;
        # `matched` 0: not yet) are made at the first CFR iteration: evaluating a given strategy needs none.
        self.regret = np.zeros((0, self.n_hold), dtype=np.float64)
        self.current = self.regret
        self.matched = np.zeros(self.n_nodes, dtype=np.int64)
        self.n_rows = n_rows
        depth = self._depth(0) + 2
        width = int(counts.max()) if len(counts) else 1
        width = max(width, 2)
        self.width = width
        # Reach vectors: the node at depth d reads rows opp_row[d] / own_row[d]; a node that leaves a
        # player's reach unchanged hands its own row down instead of copying it.
        self.opp_reach = np.zeros((depth, self.n_hold), dtype=np.float64)
        self.own_reach = np.zeros((depth, self.n_hold), dtype=np.float64)
        self.opp_row = np.zeros(depth + 1, dtype=np.int64)
        self.own_row = np.zeros(depth + 1, dtype=np.int64)
        # Values: the node at depth d writes row slot[d] of `values`; row 0 is the root's, and a node at
        # depth d has its child a write row 1 + d * width + a, where it reads it back with no copy.
        self.values = np.zeros((1 + depth * width, self.n_hold), dtype=np.float64)
        self.slot = np.zeros(depth + 1, dtype=np.int64)
        self.strat = np.zeros((depth, width, self.n_hold), dtype=np.float64)
        self.scratch = np.zeros(self.n_hold, dtype=np.float64)
        self.card_sum = np.zeros(52, dtype=np.float64)
        self.card_sum2 = np.zeros(52, dtype=np.float64)
        self.gadget_player = -1
        self.gadget_values = np.zeros(self.n_hold, dtype=np.float64)
        self.gadget_weight = np.zeros(self.n_hold, dtype=np.float64)
        self.gadget_regret = np.zeros((2, self.n_hold), dtype=np.float64)
        self.gadget_follow = np.zeros(self.n_hold, dtype=np.float64)
        # The cards a CFR iteration walks at chance nodes (public chance sampling): row 0 the turn cards
        # after a flop, row 1 the river cards after a turn.
        self.deal = np.ones((2, 52), dtype=np.int64)
        self.pos_disc = 1.0
        self.neg_disc = 0.0
        self.avg_disc = 1.0

    def _depth(self, node: int) -> int:
        best = 0
        for k in range(self.n_children[node]):
            best = max(best, 1 + self._depth(self.children[self.first_child[node] + k]))
        return best

    def set_gadget(self, player: int, values: np.ndarray, weight: np.ndarray) -> None:
        """Put a re-solving gadget above the root: ``player`` chooses per holding between ``values``
        (its counterfactual value elsewhere) and the subgame; ``weight`` is that player's chance of each
        holding at the gadget (1 on every holding it may hold). ``player`` -1 removes it."""
        self.gadget_player = player
        self.gadget_values = np.ascontiguousarray(values, dtype=np.float64)
        self.gadget_weight = np.ascontiguousarray(weight, dtype=np.float64)
        self.gadget_regret = np.zeros((2, self.n_hold), dtype=np.float64)

    def drop_regrets(self) -> None:
        """Let go of the regrets and current strategies (their buffer serves the next core's solve);
        the strategy sums stay, so average strategies and values can still be asked. The next CFR
        iteration would start from zero regrets: :meth:`Subgame.finish` forbids it."""
        self.regret = np.zeros((0, self.n_hold), dtype=np.float64)
        self.current = self.regret
        self.matched = np.zeros(self.n_nodes, dtype=np.int64)

    def set_deal(self, rivers: np.ndarray, turns: np.ndarray | None = None) -> None:
        """Walk only the cards ``rivers`` at chance nodes that deal a river, and ``turns`` (default: every
        one) at those that deal a turn, in the next CFR iterations: each walked card's subtree is weighed
        by the node's cards over those walked there (an unbiased sample of them)."""
        deal = np.zeros((2, 52), dtype=np.int64)
        deal[1, np.asarray(rivers, dtype=np.int64)] = 1
        deal[0, :] = 1
        if turns is not None:
            deal[0, :] = 0
            deal[0, np.asarray(turns, dtype=np.int64)] = 1
        self.deal = deal

    def iterate(self, trav: int, pos_disc: float, neg_disc: float, avg_disc: float) -> None:
        """One update for player ``trav``: accumulated positive regrets are first multiplied by
        ``pos_disc``, negative ones by ``neg_disc`` (0: CFR+'s floor), the strategy sums by ``avg_disc``."""
        self.pos_disc = pos_disc
        self.neg_disc = neg_disc
        self.avg_disc = avg_disc
        if self.regret.shape[0] < self.n_rows:
            self.regret, self.current = zeroed_tables(self.n_rows, self.n_hold, 2)
        self._root(trav, MODE_CFR)

    def root_values(self, trav: int, mode: int) -> np.ndarray:
        """Counterfactual values of ``trav``'s holdings at the root (no update): ``mode`` 1, its best
        response to the other's average strategy; 2, both average strategies. The gadget is ignored."""
        g = self.gadget_player
        self.gadget_player = -1
        try:
            self._root(trav, mode)
        finally:
            self.gadget_player = g
        return np.array(self.values[0])

    def _root(self, trav: int, mode: int) -> None:
        n = self.n_hold
        g = self.gadget_player
        self.opp_row[0] = 0
        self.own_row[0] = 0
        self.slot[0] = 0
        if g < 0:
            for h in range(n):
                self.opp_reach[0, h] = self.ranges[1 - trav, h]
                self.own_reach[0, h] = self.ranges[trav, h]
            self._walk(0, trav, 0, mode)
            return
        for h in range(n):  # the gadget's current strategy: terminate (0) or follow (1)
            t = max(self.gadget_regret[0, h], 0.0)
            f = max(self.gadget_regret[1, h], 0.0)
            if t + f > 0:
                self.gadget_follow[h] = f / (t + f)
            else:
                self.gadget_follow[h] = 0.5
        if trav != g:
            for h in range(n):
                self.opp_reach[0, h] = self.gadget_weight[h] * self.gadget_follow[h]
                self.own_reach[0, h] = self.ranges[trav, h]
            self._walk(0, trav, 0, mode)
            return
        for h in range(n):
            self.opp_reach[0, h] = self.ranges[1 - trav, h]
            self.own_reach[0, h] = self.gadget_weight[h] * self.gadget_follow[h]
        self._walk(0, trav, 0, mode)
        for h in range(n):
            f = self.gadget_follow[h]
            vf = self.values[0, h]
            vt = self.gadget_values[h]
            v = f * vf + (1.0 - f) * vt
            self.gadget_regret[0, h] = self._discount(self.gadget_regret[0, h]) + vt - v
            self.gadget_regret[1, h] = self._discount(self.gadget_regret[1, h]) + vf - v

    def _discount(self, r: float) -> float:
        if r > 0:
            return r * self.pos_disc
        return r * self.neg_disc

    def _walk(self, node: int, trav: int, d: int, mode: int) -> None:
        k = self.kind[node]
        if k == KIND_FOLD:
            self._fold(node, trav, d)
        elif k == KIND_SHOWDOWN:
            self._showdown(node, d)
        elif k == KIND_CHANCE:
            self._chance(node, trav, d, mode)
        else:
            self._decision(node, trav, d, mode)

    def _fold(self, node: int, trav: int, d: int) -> None:
        n = self.n_hold
        opp = self.opp_reach[self.opp_row[d]]
        val = self.values[self.slot[d]]
        cs = self.card_sum
        c1 = self.c1
        c2 = self.c2
        total = 0.0
        for c in range(52):
            cs[c] = 0.0
        for h in range(n):
            r = opp[h]
            total += r
            cs[c1[h]] += r
            cs[c2[h]] += r
        pay = float(self.amount[node])
        if self.player[node] == trav:
            pay = -pay
        for h in range(n):
            val[h] = pay * (total - cs[c1[h]] - cs[c2[h]] + opp[h])

    def _showdown(self, node: int, d: int) -> None:
        n = self.n_hold
        b = self.board[node]
        nv = self.n_valid[b]
        pay = float(self.amount[node])
        opp = self.opp_reach[self.opp_row[d]]
        val = self.values[self.slot[d]]
        c1 = self.ordered_c1[b]  # everything below runs in the board's order of strength
        c2 = self.ordered_c2[b]
        order = self.order[b]
        ranked = self.ranked[b]
        reach = self.strat[d, 0]  # scratch: the opponent's reach in that order
        lose = self.strat[d, 1]  # and what each holding loses, in that order
        win = self.scratch  # and what it wins
        up = self.card_sum
        down = self.card_sum2
        for j in range(nv):
            reach[j] = opp[order[j]]
        for c in range(52):
            up[c] = 0.0
            down[c] = 0.0
        total = 0.0
        above = 0.0
        i = 0
        k = nv - 1
        # Two sweeps at once, one group of equal strength from each end per step (the same number of
        # groups): weakest first, each holding wins against the reach below its strength; strongest
        # first, it loses against the reach above it. Two independent chains of sums, in the same order
        # as one sweep after the other.
        while i < nv:
            s = ranked[i]
            j = i
            while j < nv and ranked[j] == s:
                win[j] = total - up[c1[j]] - up[c2[j]]
                j += 1
            for m in range(i, j):
                r = reach[m]
                total += r
                up[c1[m]] += r
                up[c2[m]] += r
            i = j
            s = ranked[k]
            j = k
            while j >= 0 and ranked[j] == s:
                lose[j] = above - down[c1[j]] - down[c2[j]]
                j -= 1
            m = k
            while m > j:
                r = reach[m]
                above += r
                down[c1[m]] += r
                down[c2[m]] += r
                m -= 1
            k = j
        for j in range(nv):
            val[order[j]] = pay * (win[j] - lose[j])
        for j in range(nv, n):  # holdings the board blocks are worth 0
            val[order[j]] = 0.0

    def _chance(self, node: int, trav: int, d: int, mode: int) -> None:
        n = self.n_hold
        own0, own1 = self.own_reach[self.own_row[d]], self.own_reach[d + 1]  # this node's vectors and the child's
        opp0, opp1 = self.opp_reach[self.opp_row[d]], self.opp_reach[d + 1]
        self.own_row[d + 1] = d + 1
        self.opp_row[d + 1] = d + 1
        self.slot[d + 1] = 1 + d * self.width
        val0, val1 = self.values[self.slot[d]], self.values[1 + d * self.width]
        first = self.first_child[node]
        nc = self.n_children[node]  # the cards left: 49 after a flop, 48 after a turn
        level = 1 if nc == 48 else 0  # the row of `deal`: a river or a turn card
        w = 1.0 / (nc - 4)  # less the two holdings' cards
        if mode == MODE_CFR:
            walked = 0.0  # (a double: the scale below divides in floating point, compiled or not)
            for a in range(nc):
                walked += self.deal[level, self.dealt[self.children[first + a]]]
            if walked == 0.0:  # (a sample that leaves this node no card: nothing walked, values 0)
                for h in range(n):
                    val0[h] = 0.0
                return
            scale = 1.0
            if walked < nc:
                scale = nc / walked
            w = scale / (nc - 4)
        for h in range(n):
            val0[h] = 0.0
        for a in range(nc):
            child = self.children[first + a]
            card = self.dealt[child]
            if mode == MODE_CFR and self.deal[level, card] == 0:
                continue
            blocked = self.card_holdings[card]  # the holdings with the river card: out of both vectors
            nb = self.card_count[card]
            for h in range(n):
                opp1[h] = opp0[h]
                own1[h] = own0[h]
            for k in range(nb):
                opp1[blocked[k]] = 0.0
                own1[blocked[k]] = 0.0
            if mode == MODE_AVERAGE:  # (a serial sum: only this mode reads it)
                live = 0.0
                for h in range(n):
                    live += opp1[h]
                if live == 0.0:
                    continue
            self._walk(child, trav, d + 1, mode)
            for k in range(nb):  # (adding their 0 leaves a sum unchanged: it is never -0)
                val1[blocked[k]] = 0.0
            for h in range(n):
                val0[h] += val1[h] * w

    def _match(self, src: np.ndarray, r0: int, na: int, st: np.ndarray, s0: int) -> None:
        """Regret matching: rows ``r0..r0+na-1`` of ``src`` (regrets, or strategy sums for the average)
        made a strategy in rows ``s0..s0+na-1`` of ``st``; uniform where no action has positive weight."""
        n = self.n_hold
        tot = self.scratch
        for h in range(n):
            tot[h] = 0.0
        for a in range(na):  # action by action: contiguous rows (each holding's sum in the same order)
            for h in range(n):
                x = src[r0 + a, h]
                if x < 0.0:
                    x = 0.0
                st[s0 + a, h] = x
                tot[h] += x
        zeros = 0
        for h in range(n):  # a holding with no positive weight plays uniformly: mark it with -1
            if not tot[h] > 0:
                tot[h] = -1.0
                zeros += 1
        for a in range(na):  # no branch in this loop: the divisions run as vector instructions
            for h in range(n):
                st[s0 + a, h] = st[s0 + a, h] / tot[h]
        if zeros:
            u = 1.0 / na
            for h in range(n):
                if tot[h] < 0:
                    for a in range(na):
                        st[s0 + a, h] = u

    def _decision(self, node: int, trav: int, d: int, mode: int) -> None:
        n = self.n_hold
        na = self.n_children[node]
        r0 = self.row[node]
        first = self.first_child[node]
        q = self.player[node]
        if mode == MODE_CFR:  # the current strategy, matched when the regrets last changed
            sts = self.current
            s0 = r0
            if self.matched[node] == 0:
                self._match(self.regret, r0, na, sts, s0)
                self.matched[node] = 1
        else:
            sts = self.strat[d]
            s0 = 0
            self._match(self.avg, r0, na, sts, 0)
        own0, own1 = self.own_reach[self.own_row[d]], self.own_reach[d + 1]  # this node's vectors and the child's
        opp0, opp1 = self.opp_reach[self.opp_row[d]], self.opp_reach[d + 1]
        if q == trav:  # the opponent's reach goes down unchanged, the traverser's through its strategy
            self.opp_row[d + 1] = self.opp_row[d]
            self.own_row[d + 1] = d + 1
        else:
            self.opp_row[d + 1] = d + 1
            self.own_row[d + 1] = self.own_row[d]
        base = 1 + d * self.width
        val0 = self.values[self.slot[d]]
        if mode == MODE_CFR and na == 2:  # every river node of cfr-search's trees: one fused pass after the walk
            for a in range(2):
                child = self.children[first + a]
                self.slot[d + 1] = base + a
                st = sts[s0 + a]
                if q != trav:
                    for h in range(n):
                        opp1[h] = opp0[h] * st[h]
                elif self.kind[child] == KIND_DECISION or self.kind[child] == KIND_CHANCE:
                    for h in range(n):  # (a fold or a showdown does not read the traverser's reach)
                        own1[h] = own0[h] * st[h]
                self._walk(child, trav, d + 1, mode)
            if q == trav:
                self._update2(r0, base, d, own0)
            else:
                val1 = self.values[base]
                cv = self.values[base + 1]
                for h in range(n):
                    x = 0.0
                    x += val1[h]
                    x += cv[h]
                    val0[h] = x
            return
        x = -1e300 if (q == trav and mode == MODE_BEST) else 0.0
        for h in range(n):
            val0[h] = x
        for a in range(na):
            st = sts[s0 + a]
            val1 = self.values[base + a]
            self.slot[d + 1] = base + a
            live = 1.0
            if q == trav:
                for h in range(n):
                    own1[h] = own0[h] * st[h]
            else:
                for h in range(n):
                    opp1[h] = opp0[h] * st[h]
                if mode != MODE_CFR:  # (a serial sum, which CFR does not read: it walks on regardless)
                    live = 0.0
                    for h in range(n):
                        live += opp1[h]
            if live > 0.0 or mode == MODE_CFR:
                self._walk(self.children[first + a], trav, d + 1, mode)
            else:  # nobody the traverser could meet gets here: every value is 0
                # (CFR walks there still: the traverser's average strategy below must keep accumulating)
                for h in range(n):
                    val1[h] = 0.0
            if q != trav:
                for h in range(n):
                    val0[h] += val1[h]
            elif mode == MODE_BEST:
                for h in range(n):
                    if val1[h] > val0[h]:
                        val0[h] = val1[h]
            else:
                for h in range(n):
                    val0[h] += st[h] * val1[h]
        if q != trav or mode != MODE_CFR:
            return
        pos = self.pos_disc
        neg = self.neg_disc
        keep = self.avg_disc
        for a in range(na):
            st = sts[s0 + a]
            cv = self.values[base + a]
            reg = self.regret[r0 + a]
            av = self.avg[r0 + a]
            for h in range(n):  # no branch: the compiler vectorises this loop
                x = reg[h]
                reg[h] = x * (pos if x > 0 else neg) + cv[h] - val0[h]
                av[h] = av[h] * keep + own0[h] * st[h]
        self._match(self.regret, r0, na, sts, s0)  # the next visit's strategy, while the rows are in cache

    def _update2(self, r0: int, base: int, d: int, own0: np.ndarray) -> None:
        """A two-action node of the traverser after its children's walk (CFR): its value, the regret and
        strategy-sum updates and the next strategy's regret matching, in one pass over the holdings with
        each element's arithmetic in the order of the general path (the same numbers, bit for bit)."""
        n = self.n_hold
        st0 = self.current[r0]
        st1 = self.current[r0 + 1]
        cv0 = self.values[base]
        cv1 = self.values[base + 1]
        val0 = self.values[self.slot[d]]
        reg0 = self.regret[r0]
        reg1 = self.regret[r0 + 1]
        av0 = self.avg[r0]
        av1 = self.avg[r0 + 1]
        pos = self.pos_disc
        neg = self.neg_disc
        keep = self.avg_disc
        for h in range(n):
            p0 = st0[h]
            p1 = st1[h]
            v = 0.0
            v += p0 * cv0[h]
            v += p1 * cv1[h]
            val0[h] = v
            x = reg0[h]
            x = x * (pos if x > 0 else neg) + cv0[h] - v
            reg0[h] = x
            y = reg1[h]
            y = y * (pos if y > 0 else neg) + cv1[h] - v
            reg1[h] = y
            w = own0[h]
            av0[h] = av0[h] * keep + w * p0
            av1[h] = av1[h] * keep + w * p1
            if x < 0.0:
                x = 0.0
            if y < 0.0:
                y = 0.0
            t = 0.0
            t += x
            t += y
            if t > 0:
                st0[h] = x / t
                st1[h] = y / t
            else:
                st0[h] = 0.5
                st1[h] = 0.5
