"""An ACPC-compatible dealer on the engine: one TCP port per seat, hands dealt from a seed, faults contained.

Like the reference dealer, seat ``s`` plays position ``(s - h) mod n`` in hand ``h`` (the
seats rotate round the table every hand), every seat is sent the ``MATCHSTATE`` after each
action and at the end of the hand, and only the position on turn answers. Deals come from
``numpy.random.SeedSequence(seed, spawn_key=(g,))`` with ``g = h // n`` in duplicate mode
(each deal is played ``n`` times, every seat in every position) and ``g = h`` otherwise.

Nothing a client sends can stop the match: lines are bounded (:data:`MAX_LINE`), bytes
that are not text, a late answer, a malformed or illegal action all become the rules'
timeout action (check if free, else fold), written to the event log; lines from a seat
not on turn, and answers to an earlier state, are logged and ignored; a seat that
disconnects times out for the rest of the match unless it reconnects with its secret.
Optional per-seat secrets (off by default, as the protocol has none): a client then sends
``SECRET:<secret>`` right after ``VERSION:2.0.0``; a wrong or missing one is refused, as is
a second connection to a taken seat. A seat is only ever sent its own position's view.
"""

from __future__ import annotations

import hmac
import selectors
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from holdem_env.acpc.game import AcpcHand, table_for
from holdem_env.acpc.protocol import (
    MAX_LINE,
    NAMED_GAMES,
    ACPCError,
    GameDef,
    format_value,
    parse_action,
    parse_gamedef,
)
from holdem_env.engine.cards import shuffled_deck
from holdem_env.engine.errors import ConfigError, PHHError
from holdem_env.formats.phh import dumps, from_record

__all__ = ["DealerConfig", "Dealer", "MatchResult", "load_game", "run_match", "MAX_PENDING", "MAX_IGNORED_LOGGED"]

#: Connections per seat allowed to be shaking hands at once (more are refused: a connection flood).
MAX_PENDING = 4
#: Ignored lines logged per seat per hand (a client flooding lines leaves a bounded log).
MAX_IGNORED_LOGGED = 5


@dataclass
class DealerConfig:
    """What to play and how. Times are seconds; ``ports`` 0 means any free port."""

    game: GameDef
    hands: int
    seed: int = 0
    ports: Sequence[int] = ()
    host: str = "127.0.0.1"
    names: Sequence[str] = ()
    duplicate: bool = True
    t_response: float = 10.0
    t_hand: float = 600.0
    t_connect: float | None = None  # None: wait for ever for the seats to connect
    t_handshake: float = 10.0
    secrets: Sequence[str | None] = ()
    match_name: str = "match"

    def __post_init__(self) -> None:
        n = self.game.num_players
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or self.hands < 1:
            raise ConfigError("hands", self.hands, "must be a positive whole number")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ConfigError("seed", self.seed, "must be a whole number >= 0")
        self.ports = tuple(self.ports) or (0,) * n
        if len(self.ports) != n or any(not 0 <= p <= 65535 for p in self.ports):
            raise ConfigError("ports", list(self.ports), f"must be {n} port numbers in 0..65535 (one per seat)")
        self.names = tuple(self.names) or tuple(f"seat{i + 1}" for i in range(n))
        if len(self.names) != n or any(not s or any(ch in s for ch in ":|\r\n ") for s in self.names):
            raise ConfigError("names", list(self.names), f"must be {n} names without ':', '|' or spaces")
        self.secrets = tuple(self.secrets) or (None,) * n
        if len(self.secrets) != n:
            raise ConfigError("secrets", "<hidden>", f"must give {n} secrets (one per seat) or none")
        for name in ("t_response", "t_hand", "t_handshake"):
            if not getattr(self, name) > 0:
                raise ConfigError(name, getattr(self, name), "must be a positive number of seconds")
        table_for(self.game)  # refuses games the engine cannot play, with the reason


@dataclass
class MatchResult:
    """Chips won per seat (over the whole match), per duplicate group, and the fault counts."""

    names: tuple[str, ...]
    totals: list[int]
    groups: list[list[int]]
    hands: int
    timeouts: list[int]
    events: list[str] = field(default_factory=list)

    def score_line(self) -> str:
        """The reference's last line: ``SCORE:<v1>|<v2>...:<name1>|<name2>...`` in seat order."""
        return "SCORE:" + "|".join(format_value(v) for v in self.totals) + ":" + "|".join(self.names)


class _Conn:
    """One TCP connection with a bounded input buffer."""

    def __init__(self, sock: socket.socket, seat: int) -> None:
        self.sock = sock
        self.seat = seat
        self.buf = bytearray()
        self.discarding = False  # inside an over-long line: drop bytes up to its end
        self.lines: list[bytes | None] = []  # complete lines; None marks an over-long one
        self.closed = False
        self.version = False
        self.authed = False
        self.deadline = 0.0

    def feed(self, data: bytes) -> None:
        self.buf += data
        while True:
            cut = self.buf.find(b"\n")
            if cut < 0:
                if len(self.buf) > MAX_LINE:
                    if not self.discarding:
                        self.lines.append(None)
                    self.discarding = True
                    self.buf.clear()
                return
            line = bytes(self.buf[:cut]).rstrip(b"\r")
            del self.buf[: cut + 1]
            if self.discarding:
                self.discarding = False
                continue
            self.lines.append(line if len(line) <= MAX_LINE else None)


class Dealer:
    """Runs one match; ``log`` receives every event line (faults, refusals, reconnections)."""

    def __init__(self, config: DealerConfig, *, log: Callable[[str], None] | None = None) -> None:
        self.cfg = config
        self.game = config.game
        self.n = config.game.num_players
        self.table, self.stacks = table_for(config.game)
        self._log = log
        self.events: list[str] = []
        self.sel = selectors.DefaultSelector()
        self.listeners: list[socket.socket] = []
        self.seats: list[_Conn | None] = [None] * self.n
        self.ever_connected = [False] * self.n
        self.pending: list[_Conn] = []
        self._ignored_count = [0] * self.n
        for s, port in enumerate(config.ports):
            lst = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                lst.bind((config.host, port))
            except OSError as exc:
                self.close()
                raise ConfigError("ports", port, f"cannot listen on {config.host}:{port} ({exc.strerror})") from None
            lst.listen(8)
            lst.setblocking(False)
            self.listeners.append(lst)
            self.sel.register(lst, selectors.EVENT_READ, ("listen", s))
        self.ports = [lst.getsockname()[1] for lst in self.listeners]

    # -- plumbing ------------------------------------------------------------------------

    def event(self, text: str) -> None:
        self.events.append(text)
        if self._log is not None:
            self._log(text)

    def close(self) -> None:
        for conn in [*self.seats, *self.pending]:
            if conn is not None:
                self._drop(conn)
        for lst in self.listeners:
            try:
                self.sel.unregister(lst)
            except (KeyError, ValueError):
                pass
            lst.close()
        self.listeners = []
        self.sel.close()

    def _drop(self, conn: _Conn) -> None:
        if conn.closed:
            return
        conn.closed = True
        try:
            self.sel.unregister(conn.sock)
        except (KeyError, ValueError):
            pass
        conn.sock.close()
        if conn in self.pending:
            self.pending.remove(conn)
        if self.seats[conn.seat] is conn:
            self.seats[conn.seat] = None

    def _accept(self, seat: int) -> None:
        try:
            sock, addr = self.listeners[seat].accept()
        except OSError:
            return
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        taken = self.seats[seat] is not None
        can_rejoin = not self.ever_connected[seat] or self.cfg.secrets[seat] is not None
        crowded = sum(c.seat == seat for c in self.pending) >= MAX_PENDING
        if taken or not can_rejoin or crowded:
            why = (
                "the seat is taken" if taken else "the seat left and has no secret to rejoin with" if not can_rejoin
                else f"{MAX_PENDING} connections are already shaking hands for it"
            )
            self.event(f"REFUSED seat {seat + 1}: connection from {addr[0]}:{addr[1]}: {why}")
            try:
                sock.send(b"# refused: " + why.encode() + b"\r\n")
            except OSError:
                pass
            sock.close()
            return
        conn = _Conn(sock, seat)
        conn.deadline = time.monotonic() + self.cfg.t_handshake
        self.pending.append(conn)
        self.sel.register(sock, selectors.EVENT_READ, ("conn", conn))

    def _read(self, conn: _Conn) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            where = "seat" if self.seats[conn.seat] is conn else "connection for seat"
            self.event(f"DISCONNECTED {where} {conn.seat + 1}" + (": times out from now on" if where == "seat" else ""))
            self._drop(conn)
            return
        conn.feed(data)

    def _handshake(self, conn: _Conn) -> None:
        secret = self.cfg.secrets[conn.seat]
        while conn.lines and not conn.closed:
            raw = conn.lines.pop(0)
            line = raw.decode("ascii", "replace") if raw is not None else ""
            if not conn.version:
                if raw is None or not line.startswith("VERSION:2."):
                    self.event(f"REFUSED seat {conn.seat + 1}: first line must be VERSION:2.0.0, got {line[:40]!r}")
                    self._drop(conn)
                    return
                conn.version = True
                conn.authed = secret is None
            elif not conn.authed:
                given = line[len("SECRET:"):] if line.startswith("SECRET:") else ""
                if secret is None or not hmac.compare_digest(given.encode(), secret.encode()):
                    self.event(f"REFUSED seat {conn.seat + 1}: wrong or missing SECRET")
                    self._drop(conn)
                    return
                conn.authed = True
            if conn.version and conn.authed:
                rejoin = self.ever_connected[conn.seat]
                self.pending.remove(conn)
                conn.lines.clear()
                self.seats[conn.seat] = conn
                self.ever_connected[conn.seat] = True
                self.event(f"{'RECONNECTED' if rejoin else 'CONNECTED'} seat {conn.seat + 1}")
                return

    def _pump(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for socket activity and handle it."""
        for key, _ in self.sel.select(max(0.0, timeout)):
            kind, what = key.data
            if kind == "listen":
                self._accept(what)
            else:
                self._read(what)
        now = time.monotonic()
        for conn in list(self.pending):
            if not conn.closed:
                self._handshake(conn)
            if not conn.closed and conn in self.pending and now > conn.deadline:
                self.event(f"REFUSED seat {conn.seat + 1}: no handshake within {self.cfg.t_handshake:g} s")
                self._drop(conn)

    def _send(self, seat: int, text: str) -> None:
        conn = self.seats[seat]
        if conn is None:
            return
        data = (text + "\r\n").encode()
        try:
            conn.sock.setblocking(True)
            conn.sock.settimeout(self.cfg.t_response)
            conn.sock.sendall(data)
            conn.sock.setblocking(False)
        except OSError:
            self.event(f"DISCONNECTED seat {seat + 1}: sending failed; times out from now on")
            self._drop(conn)

    def wait_for_seats(self) -> None:
        """Block until every seat has connected and shaken hands (or ``t_connect`` passes)."""
        start = time.monotonic()
        while not all(self.seats):
            left = None if self.cfg.t_connect is None else self.cfg.t_connect - (time.monotonic() - start)
            if left is not None and left <= 0:
                missing = [s + 1 for s in range(self.n) if self.seats[s] is None]
                raise ConfigError("t_connect", self.cfg.t_connect, f"seats {missing} did not connect in time")
            self._pump(0.5 if left is None else min(0.5, left))

    # -- the match -------------------------------------------------------------------------

    def _answer(self, seat: int, asked: str, deadline: float) -> tuple[str, int] | str:
        """The action of ``seat`` for state ``asked``, or the reason it becomes a timeout."""
        while True:
            for s, conn in enumerate(self.seats):
                if conn is None or s == seat:
                    continue
                while conn.lines:
                    raw = conn.lines.pop(0)
                    self._ignored(s, f"out-of-turn message {self._show(raw)}")
            conn = self.seats[seat]
            if conn is None:
                return "disconnected"
            while conn.lines:
                raw = conn.lines.pop(0)
                if raw is None:
                    return f"line longer than {MAX_LINE} bytes"
                try:
                    line = raw.decode("ascii")
                except UnicodeDecodeError:
                    return f"bytes that are not ASCII text {self._show(raw)}"
                if line[:1] in ("#", ";"):
                    continue
                if not line.startswith(asked + ":"):
                    if line.startswith("MATCHSTATE:"):
                        self._ignored(seat, f"answer to another state {self._show(raw)}")
                        continue
                    return f"malformed answer {self._show(raw)}"
                try:
                    return parse_action(line[len(asked) + 1:], self.game.no_limit)
                except ACPCError as exc:
                    return str(exc)
            left = deadline - time.monotonic()
            if left <= 0:
                return "no answer in time"
            self._pump(left)

    def _ignored(self, seat: int, what: str) -> None:
        self._ignored_count[seat] += 1
        if self._ignored_count[seat] <= MAX_IGNORED_LOGGED:
            more = "; further ignored lines this hand are not logged" if self._ignored_count[seat] == MAX_IGNORED_LOGGED else ""
            self.event(f"IGNORED seat {seat + 1}: {what}{more}")

    @staticmethod
    def _show(raw: bytes | None) -> str:
        return "(over-long line)" if raw is None else repr(raw[:60])[1:]

    def _deal(self, hand_no: int) -> tuple[int, ...]:
        group = hand_no // self.n if self.cfg.duplicate else hand_no
        return shuffled_deck(np.random.default_rng(np.random.SeedSequence(self.cfg.seed, spawn_key=(group,))))

    def play(
        self,
        *,
        log_file: IO[str] | None = None,
        phh_file: IO[str] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> MatchResult:
        """Play every hand (the seats must be connected: :meth:`wait_for_seats`)."""
        cfg, n = self.cfg, self.n
        totals = [0] * n
        groups: list[list[int]] = []
        timeouts = [0] * n
        if log_file is not None:
            log_file.write(
                f"# name/game/hands/seed {cfg.match_name} game {cfg.hands} {cfg.seed}\n"
                f"#--t_response {int(cfg.t_response * 1000)}\n#--t_hand {int(cfg.t_hand * 1000)}\n"
            )
        for h in range(cfg.hands):
            seat_of = [(p + h) % n for p in range(n)]  # position -> seat (player0Seat = h mod n)
            acpc = AcpcHand(self.game, self.table, self.stacks, self._deal(h), h)
            hand_left = [cfg.t_hand] * n
            self._ignored_count = [0] * n
            told_gone: set[int] = set()
            while acpc.actor is not None:
                states = [acpc.matchstate(p) for p in range(n)]
                for p in range(n):
                    self._send(seat_of[p], states[p])
                pos = acpc.actor
                seat = seat_of[pos]
                start = time.monotonic()
                if self.seats[seat] is None:
                    self._pump(0.0)  # a reconnection may be waiting
                    if self.seats[seat] is not None:
                        self._send(seat, states[pos])  # it rejoined after this state went out
                got: tuple[str, int] | str = "disconnected" if self.seats[seat] is None else self._answer(
                    seat, states[pos], start + min(cfg.t_response, max(0.0, hand_left[seat]))
                )
                hand_left[seat] -= time.monotonic() - start
                if not isinstance(got, str):
                    try:
                        acpc.apply(*got)
                        continue
                    except ACPCError as exc:
                        got = str(exc)
                timeouts[seat] += 1
                did = acpc.timeout()
                if got != "disconnected" or seat not in told_gone:
                    told_gone.add(seat) if got == "disconnected" else None
                    self.event(f"TIMEOUT seat {seat + 1} hand {h}: {got}; played {did!r}")
            payoffs = acpc.hand.payoffs
            assert payoffs is not None
            names = [cfg.names[seat_of[p]] for p in range(n)]
            if log_file is not None:
                log_file.write(acpc.state_line(names) + "\n")
            if phh_file is not None:
                self._write_phh(phh_file, acpc, names, h)
            for p in range(n):
                self._send(seat_of[p], acpc.matchstate(p))
                totals[seat_of[p]] += int(payoffs[p])
            group = h // n if cfg.duplicate else h
            if group == len(groups):
                groups.append([0] * n)
            for p in range(n):
                groups[group][seat_of[p]] += int(payoffs[p])
            if progress is not None:
                progress(h + 1)
        result = MatchResult(tuple(cfg.names), totals, groups, cfg.hands, timeouts, self.events)
        if log_file is not None:
            log_file.write(result.score_line() + "\n")
            log_file.flush()
        return result

    def _write_phh(self, out: IO[str], acpc: AcpcHand, names: list[str], h: int) -> None:
        try:
            text = dumps(from_record(acpc.hand.record(), players=names))
        except PHHError as exc:
            self.event(f"PHH: hand {h} not written: {exc}")
            return
        out.write(f"[{h}]\n{text}\n")


def load_game(name_or_file: str) -> GameDef:
    """A game by name (:data:`~holdem_env.acpc.protocol.NAMED_GAMES`, ``.game`` optional) or from a file."""
    key = name_or_file[:-5] if name_or_file.endswith(".game") else name_or_file
    if key in NAMED_GAMES and not Path(name_or_file).is_file():
        return parse_gamedef(NAMED_GAMES[key])
    path = Path(name_or_file)
    if not path.is_file():
        raise ConfigError("game", name_or_file, "must be a game definition file or one of " + ", ".join(sorted(NAMED_GAMES)))
    return parse_gamedef(path.read_text(errors="replace"))


def run_match(config: DealerConfig, **kwargs: Any) -> MatchResult:
    """Listen, wait for every seat, play, close (for scripts and tests)."""
    dealer = Dealer(config)
    try:
        dealer.wait_for_seats()
        return dealer.play(**kwargs)
    finally:
        dealer.close()
