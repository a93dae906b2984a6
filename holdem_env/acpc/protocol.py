"""The ACPC protocol 2.0.0 text formats: game definitions, MATCHSTATE lines, actions, STATE log lines.

Checked against the protocol document and ``game.c`` of the ACPC server code (University of
Alberta, 2011): a game definition is a ``GAMEDEF ... END GAMEDEF`` block of case-insensitive
``key = values`` lines; a match state is ``MATCHSTATE:<position>:<hand>:<betting>:<cards>``,
the betting rounds separated by ``/``, each action ``f``, ``c`` (``k`` reads as ``c``) or
``r<N>`` (``b`` reads as ``r``) where ``N`` is the raiser's total commitment over the whole
hand (no-limit; a limit raise has no size); the cards are the hole cards by position,
``|``-separated, then each round's board cards after a ``/``. Position 0 is the first seat
after the button. Nothing here touches sockets or the engine (see :mod:`holdem_env.acpc.game`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from holdem_env.engine.errors import HoldemError

__all__ = [
    "ACPCError",
    "GameDef",
    "MatchState",
    "VERSION_LINE",
    "MAX_LINE",
    "parse_gamedef",
    "parse_action",
    "format_action",
    "parse_matchstate",
    "format_value",
    "parse_state_line",
    "StateLine",
    "HEADS_UP_NO_LIMIT",
    "NAMED_GAMES",
]

#: What a client sends first.
VERSION_LINE = "VERSION:2.0.0"
#: Longest line either side may send (the reference's READBUF_LEN is 4096).
MAX_LINE = 4096
#: The largest stack the reference accepts (no stack given: "infinite").
INT32_MAX = 2**31 - 1


class ACPCError(HoldemError):
    """Text that is not valid ACPC protocol: the message says what was read and what is allowed."""


@dataclass(frozen=True)
class GameDef:
    """One ACPC game definition; lists are per position (``blind``, ``stack``) or per round."""

    betting: str  # "limit" or "nolimit"
    num_players: int
    num_rounds: int
    stack: tuple[int, ...]
    blind: tuple[int, ...]
    raise_size: tuple[int, ...]
    first_player: tuple[int, ...]  # 0-based positions, one per round
    max_raises: tuple[int, ...]
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    num_board_cards: tuple[int, ...]

    @property
    def no_limit(self) -> bool:
        return self.betting == "nolimit"

    def to_text(self) -> str:
        """The definition as a GAMEDEF block the reference dealer reads."""
        lines = ["GAMEDEF", self.betting, f"numPlayers = {self.num_players}", f"numRounds = {self.num_rounds}"]
        if any(s != INT32_MAX for s in self.stack):
            lines.append("stack = " + " ".join(map(str, self.stack)))
        lines.append("blind = " + " ".join(map(str, self.blind)))
        if not self.no_limit:
            lines.append("raiseSize = " + " ".join(map(str, self.raise_size)))
        lines.append("firstPlayer = " + " ".join(str(p + 1) for p in self.first_player))
        if any(m != 255 for m in self.max_raises):
            lines.append("maxRaises = " + " ".join(map(str, self.max_raises)))
        lines += [
            f"numSuits = {self.num_suits}", f"numRanks = {self.num_ranks}", f"numHoleCards = {self.num_hole_cards}",
            "numBoardCards = " + " ".join(map(str, self.num_board_cards)), "END GAMEDEF",
        ]
        return "\n".join(lines) + "\n"


def _ints(key: str, rest: str, lo: int, hi: int) -> tuple[int, ...]:
    items = rest.replace("=", " ").split()
    try:
        values = tuple(int(x) for x in items)
    except ValueError:
        raise ACPCError(f"game definition: {key} {rest.strip()!r} is invalid: expected whole numbers") from None
    if not values or any(not lo <= v <= hi for v in values):
        raise ACPCError(f"game definition: {key} {rest.strip()!r} is invalid: expected numbers in {lo}..{hi}")
    return values


_KEYS = (  # longest prefixes first, as the reference matches prefixes in this order
    "stack", "blind", "raisesize", "limit", "nolimit", "numplayers", "numrounds", "firstplayer", "maxraises",
    "numsuits", "numranks", "numholecards", "numboardcards",
)


def parse_gamedef(text: str) -> GameDef:
    """Read a game definition (the reference's ``readGame`` rules; errors name the field)."""
    raw: dict[str, tuple[int, ...]] = {}
    betting = "limit"  # the reference's default
    for line in text.splitlines():
        stripped = line.strip()
        low = stripped.lower()
        if not stripped or stripped.startswith("#") or low.startswith("gamedef"):
            continue
        if low.startswith("end gamedef"):
            break
        key = next((k for k in _KEYS if low.startswith(k)), None)
        if key is None:
            raise ACPCError(f"game definition: line {stripped!r} is not understood: allowed keys are {', '.join(_KEYS)}")
        if key in ("limit", "nolimit"):
            betting = key
            continue
        hi = INT32_MAX if key in ("stack", "blind", "raisesize") else 255
        raw[key] = _ints(key, stripped[len(key):], 0, hi)
    for need in ("numplayers", "numrounds", "blind", "numsuits", "numranks", "numholecards", "numboardcards"):
        if need not in raw:
            raise ACPCError(f"game definition: {need} is missing")
    n, rounds = raw["numplayers"][0], raw["numrounds"][0]
    if not 2 <= n <= 10:
        raise ACPCError(f"game definition: numPlayers {n} is invalid: must be in 2..10")
    if not 1 <= rounds <= 4:
        raise ACPCError(f"game definition: numRounds {rounds} is invalid: must be in 1..4")

    def per(key: str, count: int, default: int | None) -> tuple[int, ...]:
        values = raw.get(key)
        if values is None:
            if default is None:
                raise ACPCError(f"game definition: {key} is missing")
            return (default,) * count
        if len(values) < count:
            raise ACPCError(f"game definition: {key} has {len(values)} values, needs {count}")
        return values[:count]

    first = per("firstplayer", rounds, 1)
    if any(not 1 <= p <= n for p in first):
        raise ACPCError(f"game definition: firstPlayer {first} is invalid: each must be in 1..{n}")
    game = GameDef(
        betting=betting, num_players=n, num_rounds=rounds,
        stack=per("stack", n, INT32_MAX), blind=per("blind", n, None),
        raise_size=per("raisesize", rounds, None) if betting == "limit" else (0,) * rounds,
        first_player=tuple(p - 1 for p in first), max_raises=per("maxraises", rounds, 255),
        num_suits=raw["numsuits"][0], num_ranks=raw["numranks"][0], num_hole_cards=raw["numholecards"][0],
        num_board_cards=per("numboardcards", rounds, None),
    )
    for p in range(n):
        if game.blind[p] > game.stack[p]:
            raise ACPCError(f"game definition: the blind of position {p} ({game.blind[p]}) exceeds its stack")
    return game


HEADS_UP_NO_LIMIT = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 20000 20000
blind = 100 50
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""

#: Games known by name (the reference's file names without ``.game``, and short names).
NAMED_GAMES: dict[str, str] = {
    "holdem.nolimit.2p.reverse_blinds": HEADS_UP_NO_LIMIT,
    "nolimit": HEADS_UP_NO_LIMIT,
    "holdem.limit.2p.reverse_blinds": (
        "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 4\nblind = 10 5\nraiseSize = 10 10 20 20\n"
        "firstPlayer = 2 1 1 1\nmaxRaises = 3 4 4 4\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
        "numBoardCards = 0 3 1 1\nEND GAMEDEF\n"
    ),
    "holdem.limit.3p": (
        "GAMEDEF\nlimit\nnumPlayers = 3\nnumRounds = 4\nblind = 5 10 0\nraiseSize = 10 10 20 20\n"
        "firstPlayer = 3 1 1 1\nmaxRaises = 3 4 4 4\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
        "numBoardCards = 0 3 1 1\nEND GAMEDEF\n"
    ),
    "holdem.nolimit.3p": (
        "GAMEDEF\nnolimit\nnumPlayers = 3\nnumRounds = 4\nstack = 20000 20000 20000\nblind = 50 100 0\n"
        "firstPlayer = 3 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\n"
        "END GAMEDEF\n"
    ),
}
NAMED_GAMES["limit"] = NAMED_GAMES["holdem.limit.2p.reverse_blinds"]


# -- actions -----------------------------------------------------------------------------------

_ACTION = re.compile(r"([fckbrFCKBR])(\d{0,10})")


def parse_action(text: str, no_limit: bool) -> tuple[str, int]:
    """``("f"|"c"|"r", size)`` from an action string; ``size`` is 0 except for a no-limit raise."""
    m = _ACTION.fullmatch(text.strip())
    if m is None:
        raise ACPCError(f"action {text[:40]!r} is invalid: expected 'f', 'c' or 'r<N>' (N: total chips for the hand)")
    kind = {"f": "f", "c": "c", "k": "c", "b": "r", "r": "r"}[m.group(1).lower()]
    digits = m.group(2)
    if kind == "r" and no_limit:
        if not digits:
            raise ACPCError(f"action {text!r} is invalid: a no-limit raise needs its size, 'r<N>'")
        return kind, int(digits)
    if digits and kind != "r":
        raise ACPCError(f"action {text!r} is invalid: only a raise takes a size")
    return kind, 0


def format_action(kind: str, size: int, no_limit: bool) -> str:
    return f"r{size}" if kind == "r" and no_limit else kind


def _split_betting(text: str, no_limit: bool) -> list[list[tuple[str, int]]]:
    rounds: list[list[tuple[str, int]]] = []
    for part in text.split("/"):
        actions: list[tuple[str, int]] = []
        pos = 0
        while pos < len(part):
            m = _ACTION.match(part, pos)
            if m is None or (m.group(1).lower() in "fck" and m.group(2)):
                raise ACPCError(f"betting {text[:80]!r} is invalid at character {pos}: expected f, c or r<N>")
            actions.append(parse_action(m.group(0), no_limit))
            pos = m.end()
        rounds.append(actions)
    return rounds


_CARD = re.compile(r"[2-9TJQKA][cdhs]")


def _cards(text: str, what: str) -> tuple[str, ...]:
    if len(text) % 2 or not all(_CARD.fullmatch(text[i:i + 2]) for i in range(0, len(text), 2)):
        raise ACPCError(f"{what} {text[:40]!r} is invalid: expected cards like 'As' or '9h'")
    return tuple(text[i:i + 2] for i in range(0, len(text), 2))


@dataclass(frozen=True)
class MatchState:
    """A parsed ``MATCHSTATE`` (or the state part of a ``STATE`` log line)."""

    position: int
    hand: int
    betting: list[list[tuple[str, int]]] = field(hash=False)
    hole: tuple[tuple[str, ...], ...]  # per position; () when not shown
    board: tuple[tuple[str, ...], ...]  # per round reached

    @property
    def round(self) -> int:
        return len(self.betting) - 1


def _parse_cards_field(cards: str, num_players: int) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    hole_text, *board_text = cards.split("/")
    holes = hole_text.split("|")
    if len(holes) != num_players:
        raise ACPCError(f"cards {cards[:60]!r}: {len(holes)} hole-card groups for {num_players} players")
    hole = tuple(_cards(h, "hole cards") for h in holes)
    board = ((),) + tuple(_cards(b, "board cards") for b in board_text)
    return hole, board


def parse_matchstate(line: str, num_players: int, no_limit: bool) -> tuple[MatchState, str]:
    """The state of a ``MATCHSTATE:...`` line and what follows it (``""`` or ``":<action>"``)."""
    text = line.rstrip("\r\n")
    parts = text.split(":")
    if len(parts) < 5 or parts[0] != "MATCHSTATE":
        raise ACPCError(f"line {text[:60]!r} is not a match state: expected MATCHSTATE:<position>:<hand>:<betting>:<cards>")
    if not (parts[1].isdigit() and parts[2].isdigit()) or len(parts[1]) > 3 or len(parts[2]) > 10:
        raise ACPCError(f"line {text[:60]!r}: position and hand number must be whole numbers")
    position, hand = int(parts[1]), int(parts[2])
    if position >= num_players:
        raise ACPCError(f"line {text[:60]!r}: position {position} is not in 0..{num_players - 1}")
    betting = _split_betting(parts[3], no_limit)
    hole, board = _parse_cards_field(parts[4], num_players)
    if len(board) > len(betting):
        raise ACPCError(f"line {text[:60]!r}: board cards for more rounds than the betting reached")
    rest = ":" + ":".join(parts[5:]) if len(parts) > 5 else ""
    return MatchState(position, hand, betting, hole, board), rest


def format_value(value: float) -> str:
    """A chip value as the reference prints it (``%.6f`` without trailing zeros)."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class StateLine:
    """A parsed ``STATE:`` log line: the hand, the values and names in position order."""

    state: MatchState
    values: tuple[float, ...]
    names: tuple[str, ...]


def parse_state_line(line: str, num_players: int, no_limit: bool) -> StateLine:
    """Read ``STATE:<hand>:<betting>:<cards>:<values>:<names>`` (the reference's log line)."""
    parts = line.rstrip("\r\n").split(":")
    if len(parts) != 6 or parts[0] != "STATE":
        raise ACPCError(f"line {line[:60]!r} is not a STATE log line")
    state, _ = parse_matchstate(f"MATCHSTATE:0:{parts[1]}:{parts[2]}:{parts[3]}", num_players, no_limit)
    values = tuple(float(v) for v in parts[4].split("|"))
    names = tuple(parts[5].split("|"))
    if len(values) != num_players or len(names) != num_players:
        raise ACPCError(f"line {line[:60]!r}: expected {num_players} values and names")
    return StateLine(state, values, names)
