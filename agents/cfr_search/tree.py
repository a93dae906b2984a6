"""The public betting tree of a heads-up flop, turn or river subgame, flattened into arrays for the solver.

A subgame starts at the beginning of a betting round (the flop, the turn or the river) with both players'
contributions to the pot, the chips they have behind, and the player who acts first. Its betting
tree holds, at each decision, fold (facing a bet), check or call, and the bets and raises of
``sizes`` (fractions of the pot after a call; ``"allin"`` for all-in), at most ``max_raises`` of
them per round. ``extra`` inserts exact raise-to amounts at chosen nodes (the opponent's actual bet),
so an observed bet is always in the tree and nothing is translated. A turn subgame deals each of the
48 possible river cards at a chance node and plays the river betting round after a call; a flop subgame
deals each of the 49 turn cards, plays the turn's round, then deals each of the 48 rivers left.

Players are 0 and 1; contributions are total chips in the pot (all streets), so a terminal's payoff
to player 0 is ``+c1`` or ``-c0`` after a fold and ``+c``, ``0`` or ``-c`` at a showdown.

>>> t = build_tree(SubgameSpec(board=(0, 5, 10, 20, 30), contrib=(100, 100), stacks=(100, 100)), sizes=(1.0,))
>>> t.labels[0]
('k', 'b200')
>>> t.labels[t.children[0][1]]
('f', 'c')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from holdem_env.engine.errors import HoldemError

__all__ = ["SubgameError", "SubgameSpec", "Tree", "build_tree", "DECISION", "FOLD", "SHOWDOWN", "CHANCE"]

DECISION, FOLD, SHOWDOWN, CHANCE = 0, 1, 2, 3


class SubgameError(HoldemError):
    """A subgame, its betting or a re-solving input is malformed; the message says what is allowed."""


@dataclass(frozen=True)
class SubgameSpec:
    """Where a heads-up subgame starts: the board (3 cards: flop, 4: turn, 5: river), each player's total
    contribution to the pot, the chips each has behind, who acts first and the big blind (the
    smallest bet and raise increment)."""

    board: tuple[int, ...]
    contrib: tuple[int, int]
    stacks: tuple[int, int]
    first: int = 0
    big_blind: int = 100

    def __post_init__(self) -> None:
        b = tuple(int(c) for c in self.board)
        if len(b) not in (3, 4, 5) or len(set(b)) != len(b) or not all(0 <= c < 52 for c in b):
            raise SubgameError(f"a subgame board is 3, 4 or 5 different card ids in 0..51, got {self.board!r}")
        if len(self.contrib) != 2 or len(self.stacks) != 2 or min(*self.contrib, *self.stacks) < 0:
            raise SubgameError(
                f"contrib and stacks are two chip counts >= 0 each, got {self.contrib!r}, {self.stacks!r}"
            )
        if self.contrib[0] != self.contrib[1]:
            raise SubgameError(f"a subgame starts a betting round: equal contributions, got {self.contrib!r}")
        if self.first not in (0, 1) or self.big_blind <= 0:
            raise SubgameError(f"first is 0 or 1 and big_blind > 0, got {self.first!r}, {self.big_blind!r}")
        object.__setattr__(self, "board", b)


@dataclass
class Tree:
    """The flattened tree: node ``n`` has a ``kind`` (DECISION, FOLD, SHOWDOWN, CHANCE), a ``player``
    (the one acting; the one who folded), the contributions ``contrib[n]``, its children (in the order
    of ``labels[n]``), the turn and river cards dealt on the way to it (-1: none; a turn subgame's turn
    is on its board, so it deals rivers only) and its decision row (the first of its actions' rows in
    the solver's strategy arrays; -1 for non-decisions)."""

    spec: SubgameSpec
    kind: list[int] = field(default_factory=list)
    player: list[int] = field(default_factory=list)
    contrib: list[tuple[int, int]] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    labels: list[tuple[str, ...]] = field(default_factory=list)
    turn: list[int] = field(default_factory=list)
    river: list[int] = field(default_factory=list)
    row: list[int] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    n_rows: int = 0

    def __len__(self) -> int:
        return len(self.kind)

    def path(self, node: int) -> tuple[str, ...]:
        """The action labels from the root to ``node`` (a turn or river card dealt is ``'d<card id>'``)."""
        out: list[str] = []
        while self.parent[node] >= 0:
            p = self.parent[node]
            out.append(self.labels[p][self.children[p].index(node)])
            node = p
        return tuple(reversed(out))

    def find(self, path: Sequence[str]) -> int:
        """The node reached from the root by the action labels ``path``; :class:`SubgameError` if none."""
        node = 0
        for i, label in enumerate(path):
            if label not in self.labels[node]:
                raise SubgameError(f"no action {label!r} after {tuple(path[:i])!r}: the node has {self.labels[node]!r}")
            node = self.children[node][self.labels[node].index(label)]
        return node

    def board_of(self, node: int) -> tuple[int, ...]:
        """The board at ``node``: the subgame's, then the turn and river cards dealt on the way."""
        return self.spec.board + tuple(c for c in (self.turn[node], self.river[node]) if c >= 0)

    def arrays(self) -> dict[str, np.ndarray]:
        """The int64 arrays the compiled solver reads (kind, player, amount, first_child, n_children,
        children, dealt: the card dealt on the way into a chance node's child, else -1, row); made once
        (a tree is never changed after it is built: nothing may write into them)."""
        made = self.__dict__.get("_arrays")
        if made is not None:
            return dict(made)
        n = len(self)
        first = np.zeros(n, dtype=np.int64)
        count = np.zeros(n, dtype=np.int64)
        flat: list[int] = []
        for i, kids in enumerate(self.children):
            first[i], count[i] = len(flat), len(kids)
            flat.extend(kids)
        dealt = [-1] * n
        for i, k in enumerate(self.kind):
            if k == CHANCE:
                for kid, label in zip(self.children[i], self.labels[i], strict=True):
                    dealt[kid] = int(label[1:])
        amount = np.array(
            [c[p] if k == FOLD else c[0] for k, p, c in zip(self.kind, self.player, self.contrib, strict=True)]
        )
        made = {
            "kind": np.array(self.kind, dtype=np.int64),
            "player": np.array(self.player, dtype=np.int64),
            "amount": amount.astype(np.int64),
            "first_child": first,
            "n_children": count,
            "children": np.array(flat or [0], dtype=np.int64),
            "dealt": np.array(dealt, dtype=np.int64),
            "row": np.array(self.row, dtype=np.int64),
        }
        self.__dict__["_arrays"] = made
        return dict(made)


def _check_sizes(sizes: Sequence[float | str]) -> list[float | str]:
    out: list[float | str] = []
    for s in sizes:
        if s == "allin":
            out.append("allin")
        elif isinstance(s, (int, float)) and not isinstance(s, bool) and 0 < float(s) <= 100:
            out.append(float(s))
        else:
            raise SubgameError(f"a bet size is a pot fraction in (0, 100] or 'allin', got {s!r}")
    return out


def build_tree(
    spec: SubgameSpec,
    sizes: Sequence[float | str] = (0.5, 1.0, "allin"),
    max_raises: int = 2,
    extra: Mapping[tuple[str, ...], Sequence[int]] | None = None,
    river_sizes: Sequence[float | str] | None = None,
    river_max_raises: int | None = None,
    turn_sizes: Sequence[float | str] | None = None,
    turn_max_raises: int | None = None,
) -> Tree:
    """The subgame's betting tree (see the module docstring). ``extra`` maps a path of action labels
    (``'k'`` check, ``'c'`` call, ``'f'`` fold, ``'b<to>'`` bet or raise to a total contribution of
    ``to`` chips, ``'d<card>'`` a card dealt) to raise-to amounts added at that node, even past
    ``max_raises``. ``sizes`` and ``max_raises`` shape the first round; in a turn or flop subgame
    ``river_sizes`` and ``river_max_raises`` the river's, and in a flop subgame ``turn_sizes`` and
    ``turn_max_raises`` the turn's (each default: as the round before it). A later round with no bet
    (no sizes, or no raise allowed, and nothing inserted) has no decision: its card is dealt and the
    hand goes on to the next card or the showdown, as if both players checked."""
    if len(spec.board) != 3 and (turn_sizes is not None or turn_max_raises is not None):
        raise SubgameError(f"turn_sizes and turn_max_raises shape a flop subgame's turn; the board has {len(spec.board)} cards")
    first_sizes = _check_sizes(sizes)
    mid_sizes = first_sizes if turn_sizes is None else _check_sizes(turn_sizes)
    mid_raises = max_raises if turn_max_raises is None else turn_max_raises
    late_sizes = (mid_sizes if len(spec.board) == 3 else first_sizes) if river_sizes is None else _check_sizes(river_sizes)
    late_raises = (mid_raises if len(spec.board) == 3 else max_raises) if river_max_raises is None else river_max_raises
    if min(max_raises, mid_raises, late_raises) < 0:
        raise SubgameError(
            f"max_raises, turn_max_raises and river_max_raises are >= 0, got {max_raises!r}, {turn_max_raises!r}, "
            f"{river_max_raises!r}"
        )
    # each round of the subgame, from its first: (sizes, most bets and raises), by the cards dealt so far
    rounds = [(first_sizes, max_raises), (mid_sizes, mid_raises), (late_sizes, late_raises)]
    if len(spec.board) == 4:
        rounds = [rounds[0], rounds[2]]
    extra = dict(extra or {})
    used: set[tuple[str, ...]] = set()
    tree = Tree(spec)
    total = (spec.contrib[0] + spec.stacks[0], spec.contrib[1] + spec.stacks[1])
    cap = min(total)  # nobody can put in more than the other can match

    def add(kind: int, player: int, contrib: tuple[int, int], cards: tuple[int, int], parent: int) -> int:
        tree.kind.append(kind)
        tree.player.append(player)
        tree.contrib.append(contrib)
        tree.children.append([])
        tree.labels.append(())
        tree.turn.append(cards[0])
        tree.river.append(cards[1])
        tree.row.append(-1)
        tree.parent.append(parent)
        return len(tree.kind) - 1

    def street_over(contrib: tuple[int, int], cards: tuple[int, int], parent: int, path: tuple[str, ...]) -> int:
        """After a call or check-check: a showdown, or a chance node dealing the next card (then its
        round, or straight on to the showdown when a player is all in)."""
        board = spec.board + tuple(c for c in cards if c >= 0)
        if len(board) == 5:
            return add(SHOWDOWN, -1, contrib, cards, parent)
        node = add(CHANCE, -1, contrib, cards, parent)
        labels = []
        for card in range(52):
            if card in board:
                continue
            dealt = (card, -1) if len(board) == 3 else (cards[0], card)
            after = path + (f"d{card}",)
            sizes_next, raises_next = rounds[sum(c >= 0 for c in dealt)]
            checked = (not sizes_next or raises_next == 0) and not any(k[: len(after)] == after for k in extra)
            if contrib[0] >= cap or checked:  # all in, or a round with no bet in the tree: no decision
                kid = street_over(contrib, dealt, node, after)
            else:
                kid = decision(spec.first, contrib, 0, spec.big_blind, False, dealt, node, after)
            tree.children[node].append(kid)
            labels.append(f"d{card}")
        tree.labels[node] = tuple(labels)
        return node

    def decision(
        p: int,
        contrib: tuple[int, int],
        raises: int,
        last_raise: int,
        acted: bool,
        cards: tuple[int, int],
        parent: int,
        path: tuple[str, ...],
    ) -> int:
        node = add(DECISION, p, contrib, cards, parent)
        me, opp = contrib[p], contrib[1 - p]
        round_sizes, round_raises = rounds[sum(c >= 0 for c in cards)]

        def put(to: int) -> tuple[int, int]:
            return (to, contrib[1]) if p == 0 else (contrib[0], to)

        labels = ["f", "c"] if opp > me else ["k"]
        targets: list[int] = []
        if opp < cap and me < cap:
            if raises < round_raises:
                for s in round_sizes:
                    to = cap if s == "allin" else int(round(opp + float(s) * 2 * opp))  # 2 * opp: the pot after a call
                    targets.append(min(max(to, opp + last_raise), cap))
            if path in extra:
                used.add(path)
            for to in extra.get(path, ()):
                if not (opp < int(to) <= cap):
                    raise SubgameError(
                        f"an inserted bet at {path!r} raises to more than {opp} and at most {cap}, got {to!r}"
                    )
                targets.append(int(to))
        labels += [f"b{to}" for to in sorted(set(targets))]
        tree.row[node] = tree.n_rows  # this node's rows are reserved before any child's
        tree.n_rows += len(labels)
        kids = []
        for label in labels:
            if label == "f":
                kid = add(FOLD, p, contrib, cards, node)
            elif label == "c" or (label == "k" and acted):
                kid = street_over(put(opp), cards, node, path + (label,))
            elif label == "k":
                kid = decision(1 - p, contrib, raises, last_raise, True, cards, node, path + ("k",))
            else:
                to = int(label[1:])
                kid = decision(
                    1 - p, put(to), raises + 1, max(last_raise, to - opp), True, cards, node, path + (label,)
                )
            kids.append(kid)
        tree.children[node] = kids
        tree.labels[node] = tuple(labels)
        return node

    decision(spec.first, spec.contrib, 0, spec.big_blind, False, (-1, -1), -1, ())
    if set(extra) - used:  # an observed bet left out would be played off the tree: refuse
        raise SubgameError(
            f"inserted bets at {sorted(set(extra) - used)!r}: no decision there where a bet or raise is possible"
        )
    return tree
