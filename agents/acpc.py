"""The ``acpc`` agent: a bot in any language, speaking the ACPC protocol, plays through our arena.

The agent is a one-seat ACPC dealer. It listens on 127.0.0.1 and either launches the bot::

    holdem eval "acpc(command='./mybot {game} {host} {port}')" tag --players 2

(``{host}``, ``{port}`` and ``{game}``, a game-definition file written for the table, are
filled in; the reference's ``example_player`` takes exactly ``GAME HOST PORT``) or, with
``port=N`` and no command, waits for a bot you start yourself to connect there. The bot
first sends ``VERSION:2.0.0``; on each of our seat's turns it is sent the ``MATCHSTATE`` of
its position (from the seat's own view: its cards, the board, the public actions) and its
answer ``f``/``c``/``r<N>`` becomes our action id. Only the seat's view crosses the socket.

A late answer (``timeout`` seconds), a closed connection or a broken line raises
:class:`~holdem_env.agents.base.AgentError` (``holdem eval --on-illegal timeout`` turns it
into a timed-out turn). A raise the table does not allow becomes the nearest allowed one (a
call when none is), a fold when checking is free a check, as the reference dealer corrects
them. The table must be one ACPC can describe (docs/acpc.md): no antes, equal starting
stacks. Final states are not sent (ACPC bots ignore them). ``close()`` stops the program.
"""

from __future__ import annotations

import contextlib
import shlex
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from holdem_env.acpc.protocol import MAX_LINE, ACPCError, GameDef, parse_action, parse_gamedef
from holdem_env.agents.base import AgentError
from holdem_env.engine.actions import LegalActions
from holdem_env.env.nlhe_v1 import DEFAULT_BET_SIZES, discrete_raise_amounts

__all__ = ["AcpcAgent", "gamedef_for_view"]

_STREETS = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}


def gamedef_for_view(view: Mapping[str, Any], starting: int, limit: bool) -> GameDef:
    """The ACPC game of the table a seat view comes from (positions: 0 = first seat after the button)."""
    n = len(view["stacks"])
    sb, bb = int(view["small_blind"]), int(view["big_blind"])
    blind = [bb, sb] if n == 2 else [sb, bb] + [0] * (n - 2)
    first = "2 1 1 1" if n == 2 else "3 1 1 1"
    lines = ["GAMEDEF", "limit" if limit else "nolimit", f"numPlayers = {n}", "numRounds = 4",
             "stack = " + " ".join([str(starting)] * n), "blind = " + " ".join(map(str, blind)), f"firstPlayer = {first}"]
    if limit:
        lines += [f"raiseSize = {bb} {bb} {2 * bb} {2 * bb}", "maxRaises = 3 4 4 4"]
    lines += ["numSuits = 4", "numRanks = 13", "numHoleCards = 2", "numBoardCards = 0 3 1 1", "END GAMEDEF"]
    return parse_gamedef("\n".join(lines))


class AcpcAgent:
    """See the module docstring. ``command``: the bot's command line; ``port``: 0 = any free port."""

    def __init__(self, command: str | None = None, port: int = 0, timeout: float = 10.0,
                 connect_timeout: float = 30.0, limit: bool = False) -> None:
        if command is None and not port:
            raise ACPCError("acpc agent: give command='./bot {game} {host} {port}' or port=N (a bot you start)")
        if not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ACPCError(f"acpc agent: timeout={timeout!r} is invalid: must be a positive number of seconds")
        self.command, self.port, self.timeout, self.limit = command, int(port), float(timeout), bool(limit)
        self.connect_timeout = float(connect_timeout)
        self._sock: socket.socket | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self._buf = bytearray()
        self._hand = -1
        self._new = False
        self._last_history: tuple[Any, ...] | None = None

    # -- connection --------------------------------------------------------------------------

    def _connect(self, game: GameDef) -> socket.socket:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(1)
        listener.settimeout(self.connect_timeout)
        host, port = listener.getsockname()
        if self.command is not None:
            self._dir = tempfile.TemporaryDirectory(prefix="holdem-acpc-")
            game_file = Path(self._dir.name) / "table.game"
            game_file.write_text(game.to_text())
            args = [a.format(host=host, port=port, game=str(game_file)) for a in shlex.split(self.command)]
            try:
                self._proc = subprocess.Popen(args, stdin=subprocess.DEVNULL)
            except OSError as exc:
                listener.close()
                raise AgentError(f"acpc agent: cannot start {args[0]!r}: {exc}") from None
        try:
            sock, _ = listener.accept()
        except OSError:
            raise AgentError(f"acpc agent: no bot connected to {host}:{port} within {self.connect_timeout:g} s") from None
        finally:
            listener.close()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock = sock
        hello = self._line(self.connect_timeout)
        if not hello.startswith("VERSION:2."):
            self.close()
            raise AgentError(f"acpc agent: the bot's first line must be VERSION:2.0.0, got {hello[:40]!r}")
        return sock

    def _line(self, timeout: float) -> str:
        sock = self._sock
        assert sock is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            if len(self._buf) > MAX_LINE:
                raise AgentError(f"acpc agent: the bot sent a line longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AgentError(f"acpc agent: no answer from the bot within {timeout:g} s")
            sock.settimeout(left)
            try:
                data = sock.recv(65536)
            except TimeoutError:
                continue
            except OSError as exc:
                raise AgentError(f"acpc agent: the connection failed: {exc}") from None
            if not data:
                raise AgentError("acpc agent: the bot closed the connection")
            self._buf += data
        raw, _, rest = bytes(self._buf).partition(b"\n")
        self._buf = bytearray(rest)
        return raw.rstrip(b"\r").decode("ascii", "replace")

    def close(self) -> None:
        """Close the connection and stop the bot's process."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._proc is not None:
            with contextlib.suppress(OSError):
                self._proc.terminate()
                self._proc.wait(timeout=5)
            self._proc = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # -- playing -----------------------------------------------------------------------------

    def start_hand(self, info: Mapping[str, Any]) -> None:
        self._hand += 1
        self._last_history = None
        self._new = True

    def _matchstate(self, view: Mapping[str, Any]) -> tuple[str, list[int], int]:
        """The seat's MATCHSTATE, each position's chips from earlier rounds, and the seat's position."""
        n = len(view["stacks"])
        button = int(view["button"])
        position = (int(view["seat"]) - button - 1) % n
        seat_of = [(button + 1 + p) % n for p in range(n)]
        pos_of = {s: p for p, s in enumerate(seat_of)}
        sb, bb = int(view["small_blind"]), int(view["big_blind"])
        street_total = [0] * n
        if n == 2:
            street_total[0], street_total[1] = bb, sb
        else:
            street_total[0], street_total[1] = sb, bb
        prior = [0] * n
        rounds: list[str] = [""]
        for seat, street, kind, to in view["history"]:
            r = _STREETS[street]
            while len(rounds) <= r:
                rounds.append("")
                prior = [prior[p] + street_total[p] for p in range(n)]
                street_total = [0] * n
            p = pos_of[int(seat)]
            if kind == "fold":
                rounds[r] += "f"
            elif kind in ("check", "call"):
                rounds[r] += "c"
                street_total[p] = int(to)
            else:
                street_total[p] = int(to)
                rounds[r] += "r" if self.limit else f"r{prior[p] + int(to)}"
        current = _STREETS.get(view["street"], len(rounds) - 1)
        while len(rounds) <= current:
            rounds.append("")
            prior = [prior[p] + street_total[p] for p in range(n)]
        hole = ["".join(view["hole_cards"]) if p == position else "" for p in range(n)]
        board = list(view["board"])
        cards = "|".join(hole) + "".join("/" + "".join(part) for part in (board[:3], board[3:4], board[4:5])[:current])
        return f"MATCHSTATE:{position}:{self._hand}:{'/'.join(rounds)}:{cards}", prior, position

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        view, legal = info["view"], info["legal"]
        key = (tuple(view["hole_cards"]), tuple(view["history"]))
        last = self._last_history
        if self._new:
            self._new = False
        elif self._hand < 0 or (last is not None and (last[0] != key[0] or key[1][: len(last[1])] != last[1])):
            self._hand += 1  # a new hand, also without the start_hand hook
        self._last_history = key
        if self._sock is None:
            # the first decision is preflop: a stack plus its street bet is the starting stack
            starting = max(int(s) + int(b) for s, b in zip(view["stacks"], view["street_bets"], strict=True))
            self._connect(gamedef_for_view(view, starting, self.limit))
        state, prior, position = self._matchstate(view)
        try:
            assert self._sock is not None
            self._sock.sendall((state + "\r\n").encode())
        except OSError as exc:
            raise AgentError(f"acpc agent: sending to the bot failed: {exc}") from None
        while True:
            line = self._line(self.timeout)
            if line[:1] in ("#", ";"):
                continue
            if line.startswith(state + ":"):
                break
        try:
            kind, size = parse_action(line[len(state) + 1:], not self.limit)
        except ACPCError as exc:
            raise AgentError(f"acpc agent: {exc}") from None
        return self._action_id(kind, size - prior[position], observation, legal, view)

    @staticmethod
    def _action_id(kind: str, to: int, observation: Mapping[str, Any], legal: Mapping[str, Any],
                   view: Mapping[str, Any]) -> int:
        mask = observation["action_mask"]
        if kind == "f" and mask[0] and legal["fold"]:
            return 0
        if kind != "r" or not legal["min_raise_to"]:  # None (or 0) when no raise is allowed
            return 1
        lo, hi = int(legal["min_raise_to"]), int(legal["max_raise_to"])
        to = min(max(to, lo), hi)
        if len(mask) > hi + 1:  # exact mode: one id per raise-to
            return to + 1 if mask[to + 1] else 1
        la = LegalActions(seat=int(view["seat"]), fold=bool(legal["fold"]), check=bool(legal["check"]),
                          call=int(legal["call"]), min_raise_to=lo, max_raise_to=hi)
        seat = int(view["seat"])
        amounts = discrete_raise_amounts(
            la, pot=int(view["pot"]), current_bet=int(view["current_bet"]),
            all_in_to=int(view["street_bets"][seat]) + int(view["stacks"][seat]), bet_sizes=DEFAULT_BET_SIZES,
        )
        options = [(abs(a - to), 2 + i) for i, a in enumerate(amounts) if a is not None and 2 + i < len(mask) and mask[2 + i]]
        return min(options)[1] if options else 1
