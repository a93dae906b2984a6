"""The ACPC dealer and client: formats, self-play, faults a client can commit, seat authentication.

Every connection is over loopback (127.0.0.1). Faults (garbage bytes, over-long lines, slow
clients, out-of-turn lines, illegal actions, disconnections) must each leave a log line and
the match must still play every hand; a seat only ever receives its own position's cards.
"""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.acpc.client import AcpcClient, connect_and_play
from holdem_env.acpc.dealer import Dealer, DealerConfig, MatchResult, load_game
from holdem_env.acpc.game import AcpcHand, deck_for, replay_matchstate, table_for
from holdem_env.acpc.protocol import (
    ACPCError,
    parse_action,
    parse_gamedef,
    parse_matchstate,
    parse_state_line,
)
from holdem_env.agents.base import make_agent
from holdem_env.engine.cards import shuffled_deck
from holdem_env.engine.errors import ConfigError

NL = load_game("nolimit")
L3 = load_game("holdem.limit.3p")


# --------------------------------------------------------------------------- formats


def test_named_games_map_to_the_engine_tables() -> None:
    table, stacks = table_for(NL)
    assert (table.num_players, table.small_blind, table.big_blind, stacks) == (2, 50, 100, (20000, 20000))
    table3, _ = table_for(L3)
    assert table3.betting.value == "fixed-limit" and table3.raise_cap == 4 and table3.big_blind == 10
    assert parse_gamedef(NL.to_text()) == NL and parse_gamedef(L3.to_text()) == L3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("numBoardCards = 0 3 1 1", "numBoardCards = 0 3 1 2"), "only Texas Hold'em"),
        (("blind = 100 50", "blind = 50 100"), "blind 50 100 is not supported"),
        (("firstPlayer = 2 1 1 1", "firstPlayer = 1 2 2 2"), "firstPlayer 1 2 2 2 is not supported"),
        (("numPlayers = 2", "numPlayers = 11"), "numPlayers 11 is invalid"),
        (("stack = 20000 20000", "stack = 20000 x"), "stack"),
        (("nolimit", "nolimit\nfoo = 3"), "not understood"),
    ],
)
def test_unsupported_or_broken_game_definitions_say_why(change: tuple[str, str], message: str) -> None:
    text = NL.to_text().replace(*change)
    with pytest.raises(ACPCError, match=message):
        table_for(parse_gamedef(text))


def test_actions_read_as_the_reference_reads_them() -> None:
    assert parse_action("r250", True) == ("r", 250)
    assert parse_action("b250", True) == ("r", 250)
    assert parse_action("k", True) == ("c", 0) and parse_action("C", False) == ("c", 0)
    assert parse_action("r", False) == ("r", 0)
    for bad in ("r", "x", "c5", "r-3", "", "r12x"):
        with pytest.raises(ACPCError):
            parse_action(bad, True)


def test_matchstate_parts() -> None:
    state, rest = parse_matchstate("MATCHSTATE:1:31:cc/r250:|9hQd/8dAs8s:c", 2, True)
    assert (state.position, state.hand, state.round, rest) == (1, 31, 1, ":c")
    assert state.betting == [[("c", 0), ("c", 0)], [("r", 250)]]
    assert state.hole == ((), ("9h", "Qd")) and state.board == ((), ("8d", "As", "8s"))
    for bad in ("MATCHSTATE:2:0::|", "MATCHSTATE:0:0:x:|", "MATCHSTATE:0:0::Zz|", "STATE:0:0::|", "MATCHSTATE:0:0:c"):
        with pytest.raises(ACPCError):
            parse_matchstate(bad, 2, True)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), limit=st.booleans(), choices=st.lists(st.integers(0, 99), min_size=40, max_size=40))
def test_a_dealt_hand_survives_its_log_line(seed: int, limit: bool, choices: list[int]) -> None:
    """Any hand the engine plays, written as a STATE line and read back, replays to the same line and payoffs."""
    import numpy as np

    game = L3 if limit else NL
    table, stacks = table_for(game)
    acpc = AcpcHand(game, table, stacks, shuffled_deck(np.random.default_rng(seed)), 3)
    for c in choices:
        if acpc.actor is None:
            break
        legal = acpc.hand.legal_actions()
        seat = acpc.actor
        if c < 15 and legal.fold:
            acpc.apply("f", 0)
        elif c < 60 or legal.min_raise_to is None:
            acpc.apply("c", 0)
        else:
            lo, hi = legal.min_raise_to, legal.max_raise_to
            to = lo + (hi - lo) * (c - 60) // 40  # type: ignore[operator]
            acpc.apply("r", acpc.hand.contributions[seat] - acpc.hand.street_bet_of(seat) + to)
    while acpc.actor is not None:
        acpc.apply("c", 0)
    names = [f"p{i}" for i in range(game.num_players)]
    line = acpc.state_line(names)
    parsed = parse_state_line(line, game.num_players, game.no_limit)
    again = replay_matchstate(game, table, stacks, parsed.state)
    assert again.state_line(names) == line
    assert tuple(again.hand.payoffs) == tuple(acpc.hand.payoffs)  # type: ignore[arg-type]
    assert sum(parsed.values) == 0


def test_an_illegal_action_changes_nothing() -> None:
    table, stacks = table_for(NL)
    acpc = AcpcHand(NL, table, stacks, deck_for(2, [("As", "Ad"), ("Kc", "Kd")], []), 0)
    with pytest.raises(ACPCError, match="not legal"):
        acpc.apply("r", 150)  # below the minimum raise-to of 200
    with pytest.raises(ACPCError, match="not legal"):
        acpc.apply("r", 20001)
    assert acpc.betting() == "" and acpc.actor == 1
    acpc.apply("r", 300)
    assert acpc.matchstate(0) == "MATCHSTATE:0:0:r300:AsAd|"


# --------------------------------------------------------------------------- a match


class _Match:
    """A dealer playing in a background thread, its events and its log."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("game", NL)
        kwargs.setdefault("t_response", 5.0)
        self.events: list[str] = []
        self.dealer = Dealer(DealerConfig(**kwargs), log=self.events.append)
        self.log = io.StringIO()
        self.result: MatchResult | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.dealer.wait_for_seats()
            self.result = self.dealer.play(log_file=self.log)
        except BaseException as exc:  # reported by finish()
            self.error = exc
        finally:
            self.dealer.close()

    def finish(self) -> MatchResult:
        self.thread.join(timeout=float(__import__("os").environ.get("ACPC_TEST_JOIN", "300")))
        assert not self.thread.is_alive(), f"the dealer did not finish: {self.events}"
        assert self.error is None, self.error
        assert self.result is not None
        states = [x for x in self.log.getvalue().splitlines() if x.startswith("STATE:")]
        assert len(states) == self.result.hands
        assert sum(self.result.totals) == 0
        return self.result


def _client(port: int, spec: str = "always-call", *, secret: str | None = None, game: Any = NL) -> tuple[AcpcClient, threading.Thread]:
    client = AcpcClient(game, make_agent(spec))
    thread = threading.Thread(target=connect_and_play, args=("127.0.0.1", port, client), kwargs={"secret": secret}, daemon=True)
    thread.start()
    return client, thread


class _RawBot(threading.Thread):
    """A hand-written client: calls when on turn, and runs ``misbehave(sock, line, turn)`` first on each turn;
    when that returns True the turn is considered handled. Records every line it receives."""

    def __init__(self, port: int, misbehave: Callable[[socket.socket, str, int], bool] | None = None,
                 hello: bytes = b"VERSION:2.0.0\r\n", game: Any = NL) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(hello)
        self.misbehave = misbehave
        self.game = game
        self.table, self.stacks = table_for(game)
        self.received: list[str] = []
        self.start()

    def run(self) -> None:
        turn = 0
        buf = b""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return
                buf += data
                while b"\n" in buf:
                    raw, buf = buf.split(b"\n", 1)
                    line = raw.decode().rstrip("\r")
                    self.received.append(line)
                    if not line.startswith("MATCHSTATE"):
                        continue
                    state, _ = parse_matchstate(line, self.game.num_players, self.game.no_limit)
                    acpc = replay_matchstate(self.game, self.table, self.stacks, state)
                    if acpc.actor != state.position:
                        continue
                    turn += 1
                    if self.misbehave is not None and self.misbehave(self.sock, line, turn):
                        continue
                    self.sock.sendall(f"{line}:c\r\n".encode())
        except OSError:
            return


def test_two_of_our_agents_play_a_match_and_the_clients_agree_with_the_log() -> None:
    m = _Match(hands=40, seed=3)
    (c1, t1), (c2, t2) = _client(m.dealer.ports[0], "tag"), _client(m.dealer.ports[1], "random")
    result = m.finish()
    t1.join(30)
    t2.join(30)
    assert result.totals == [sum(r.payoff for r in c1.results), sum(r.payoff for r in c2.results)]
    assert result.score_line() == f"SCORE:{result.totals[0]}|{result.totals[1]}:seat1|seat2"
    assert result.timeouts == [0, 0] and sorted(m.events) == ["CONNECTED seat 1", "CONNECTED seat 2"]
    # seats rotate: seat 1 is position 0 in even hands, position 1 in odd ones (the reference's rotation)
    assert [r.position for r in c1.results[:4]] == [0, 1, 0, 1]
    # duplicate: hands 2k and 2k+1 deal the same cards to the same positions
    lines = [parse_state_line(x, 2, True) for x in m.log.getvalue().splitlines() if x.startswith("STATE")]
    assert lines[0].state.hole == lines[1].state.hole and lines[0].state.hole != lines[2].state.hole


def _timeout_events(m: _Match, seat: int) -> list[str]:
    return [e for e in m.events if e.startswith(f"TIMEOUT seat {seat}")]


@pytest.mark.parametrize(
    ("what", "send", "reason"),
    [
        ("garbage bytes", b"\xff\xfe\x00garbage\r\n", "not ASCII"),
        ("an over-long line", b"A" * 10000 + b"\r\n", "longer than"),
        ("a malformed answer", b"hello dealer\r\n", "malformed answer"),
        ("an illegal raise", None, "not legal"),
        ("a bad action", None, "invalid"),
    ],
)
def test_a_bad_answer_is_a_logged_timeout_and_the_match_goes_on(what: str, send: bytes | None, reason: str) -> None:
    m = _Match(hands=6, seed=1)
    _client(m.dealer.ports[0])

    def misbehave(sock: socket.socket, line: str, turn: int) -> bool:
        if turn != 1:
            return False
        if what == "an illegal raise":
            sock.sendall(f"{line}:r101\r\n".encode())
        elif what == "a bad action":
            sock.sendall(f"{line}:x7\r\n".encode())
        else:
            assert send is not None
            sock.sendall(send)
        return True

    _RawBot(m.dealer.ports[1], misbehave)
    result = m.finish()
    events = _timeout_events(m, 2)
    assert len(events) == 1 and reason in events[0], m.events
    assert result.timeouts == [0, 1]


def test_a_slow_client_times_out_and_its_late_answer_is_ignored() -> None:
    m = _Match(hands=4, seed=2, t_response=0.3)
    _client(m.dealer.ports[0])

    def misbehave(sock: socket.socket, line: str, turn: int) -> bool:
        if turn == 1:
            sock.sendall(line[:20].encode())  # half a line, then nothing (a slow-loris client)
            return True
        if turn == 2:
            sock.sendall(b"\r\n")  # finishes the stale line: an answer to another state
        return False

    _RawBot(m.dealer.ports[1], misbehave)
    result = m.finish()
    assert any("no answer in time" in e for e in _timeout_events(m, 2)), m.events
    assert result.hands == 4


def test_out_of_turn_lines_are_logged_and_ignored() -> None:
    m = _Match(hands=3, seed=4)
    _client(m.dealer.ports[0])

    def misbehave(sock: socket.socket, line: str, turn: int) -> bool:
        sock.sendall(f"{line}:c\r\nMATCHSTATE:0:0::|:c\r\n".encode())  # the answer, then a line nobody asked for
        return True

    _RawBot(m.dealer.ports[1], misbehave)
    result = m.finish()
    assert any(e.startswith(("IGNORED seat 2",)) for e in m.events), m.events
    assert result.timeouts == [0, 0]


def test_a_flood_of_lines_leaves_a_bounded_log_and_the_match_goes_on() -> None:
    m = _Match(hands=4, seed=11)
    _client(m.dealer.ports[0])

    def misbehave(sock: socket.socket, line: str, turn: int) -> bool:
        sock.sendall(f"{line}:c\r\n".encode() + b"MATCHSTATE:9:9::|:c\r\n" * 200)  # the answer, then 200 junk lines
        return True

    _RawBot(m.dealer.ports[1], misbehave)
    result = m.finish()
    ignored = [e for e in m.events if e.startswith("IGNORED seat 2")]
    assert 0 < len(ignored) <= 5 * result.hands, len(ignored)
    assert any("not logged" in e for e in ignored)


def test_a_connection_flood_is_refused_beyond_a_few_pending_handshakes() -> None:
    m = _Match(hands=2, seed=12, t_handshake=30.0)
    idle = [socket.create_connection(("127.0.0.1", m.dealer.ports[0]), timeout=30) for _ in range(6)]
    while sum(e.startswith("REFUSED seat 1") for e in m.events) < 2:
        threading.Event().wait(0.01)
    for s in idle:
        s.close()
    while sum(e.startswith("DISCONNECTED connection for seat 1") for e in m.events) < 4:  # the pending ones are gone
        threading.Event().wait(0.01)
    _RawBot(m.dealer.ports[0])
    _RawBot(m.dealer.ports[1])
    m.finish()
    refused = [e for e in m.events if e.startswith("REFUSED seat 1")]
    assert any("already shaking hands" in e for e in refused), m.events


def test_a_client_that_disconnects_times_out_for_the_rest_of_the_match() -> None:
    m = _Match(hands=8, seed=5)
    _client(m.dealer.ports[0])

    def misbehave(sock: socket.socket, line: str, turn: int) -> bool:
        if turn == 2:
            sock.close()
            return True
        return False

    _RawBot(m.dealer.ports[1], misbehave)
    result = m.finish()
    assert any(e.startswith("DISCONNECTED seat 2") for e in m.events)
    assert result.timeouts[1] >= 5  # it is on turn at least once in each remaining hand
    assert not any(e.startswith("RECONNECTED") for e in m.events)


def test_seats_are_sent_only_their_own_cards() -> None:
    m = _Match(hands=30, seed=6)
    bots = [_RawBot(m.dealer.ports[0]), _RawBot(m.dealer.ports[1])]
    m.finish()
    for bot in bots:
        bot.join(30)
        shown_any = False
        for line in bot.received:
            state, _ = parse_matchstate(line, 2, True)
            acpc = replay_matchstate(NL, *table_for(NL), state)
            others = [p for p in range(2) if p != state.position and state.hole[p]]
            assert state.hole[state.position], line
            if others:
                shown_any = True
                assert acpc.hand.is_over and not any(acpc.hand.folded), line  # only at a showdown
        assert shown_any  # calling stations reach showdowns


# --------------------------------------------------------------------------- authentication


def test_with_secrets_a_wrong_or_missing_secret_is_refused_and_the_right_one_plays() -> None:
    m = _Match(hands=4, seed=7, secrets=("alpha", "beta"), t_handshake=2.0)
    wrong = _RawBot(m.dealer.ports[0], hello=b"VERSION:2.0.0\r\nSECRET:beta\r\n")
    missing = _RawBot(m.dealer.ports[1], hello=b"VERSION:2.0.0\r\nMATCHSTATE:0:0::|:c\r\n")
    wrong.join(30)
    missing.join(30)
    assert not any(line.startswith("MATCHSTATE") for line in wrong.received + missing.received)
    _client(m.dealer.ports[0], secret="alpha")
    _client(m.dealer.ports[1], secret="beta")
    m.finish()
    refused = [e for e in m.events if e.startswith("REFUSED")]
    assert len(refused) == 2 and all("SECRET" in e for e in refused), m.events


def test_a_second_connection_to_a_taken_seat_is_refused() -> None:
    m = _Match(hands=3, seed=8)
    first = _RawBot(m.dealer.ports[0])
    while "CONNECTED seat 1" not in m.events:
        threading.Event().wait(0.01)
    second = _RawBot(m.dealer.ports[0])
    second.join(30)
    assert second.received and second.received[0].startswith("# refused: the seat is taken")
    client = AcpcClient(NL, make_agent("random"))
    with pytest.raises(ACPCError, match="refused: the seat is taken"):
        connect_and_play("127.0.0.1", m.dealer.ports[0], client)
    _RawBot(m.dealer.ports[1])
    m.finish()
    first.join(30)
    assert any(e.startswith("REFUSED seat 1") and "taken" in e for e in m.events)


def _hold_until(m: _Match, prefix: str) -> Callable[[socket.socket, str, int], bool]:
    """A seat that, from its second turn on, answers only once the dealer has logged ``prefix`` (no race with the end)."""

    def hold(sock: socket.socket, line: str, turn: int) -> bool:
        while turn >= 2 and not any(e.startswith(prefix) for e in m.events):
            threading.Event().wait(0.01)
        return False

    return hold


def test_a_seat_reconnects_with_its_secret_but_not_without_one() -> None:
    m = _Match(hands=10, seed=9, secrets=("s1", "s2"), t_response=60.0)
    _RawBot(m.dealer.ports[0], _hold_until(m, "RECONNECTED seat 2"), hello=b"VERSION:2.0.0\r\nSECRET:s1\r\n")
    gone = threading.Event()

    def misbehave(sock: socket.socket, line: str, turn: int) -> bool:
        if turn == 1:
            sock.close()
            gone.set()
            return True
        return False

    _RawBot(m.dealer.ports[1], misbehave, hello=b"VERSION:2.0.0\r\nSECRET:s2\r\n")
    gone.wait(30)
    while not any(e.startswith("DISCONNECTED seat 2") for e in m.events):
        threading.Event().wait(0.01)
    back = _RawBot(m.dealer.ports[1], hello=b"VERSION:2.0.0\r\nSECRET:s2\r\n")
    result = m.finish()
    back.join(30)
    assert any(e == "RECONNECTED seat 2" for e in m.events), m.events
    assert any(line.startswith("MATCHSTATE") for line in back.received)
    assert result.hands == 10


def test_without_secrets_a_seat_that_left_cannot_come_back() -> None:
    m = _Match(hands=6, seed=10, t_response=60.0)
    _RawBot(m.dealer.ports[0], _hold_until(m, "REFUSED seat 2"))

    def misbehave(sock: socket.socket, line: str, turn: int) -> bool:
        if turn == 1:
            sock.close()
            return True
        return False

    _RawBot(m.dealer.ports[1], misbehave)
    while not any(e.startswith("DISCONNECTED seat 2") for e in m.events):
        threading.Event().wait(0.01)
    again = _RawBot(m.dealer.ports[1])
    m.finish()
    again.join(30)
    assert any(e.startswith("REFUSED seat 2") for e in m.events), m.events


def test_bad_dealer_settings_are_refused() -> None:
    with pytest.raises(ConfigError, match="ports"):
        DealerConfig(game=NL, hands=10, ports=(1, 2, 3))
    with pytest.raises(ConfigError, match="hands"):
        DealerConfig(game=NL, hands=0)
    with pytest.raises(ConfigError, match="names"):
        DealerConfig(game=NL, hands=3, names=("a|b", "c"))
    with pytest.raises(ConfigError, match="game"):
        load_game("no-such-game")
    out = subprocess.run([sys.executable, "-m", "holdem_env.cli", "dealer", "--hands", "5", "--ports", "1,x"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "--ports '1,x' is invalid" in out.stderr and "Traceback" not in out.stderr


# --------------------------------------------------------------------------- the command line


def test_holdem_dealer_and_two_holdem_connect_processes(tmp_path: Any) -> None:
    exe = [sys.executable, "-m", "holdem_env.cli"]
    dealer = subprocess.Popen(
        [*exe, "dealer", "--hands", "20", "--seed", "3", "--no-progress", "--log", str(tmp_path / "m.log"),
         "--phh", str(tmp_path / "m.phhs")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    clients = [
        subprocess.Popen([*exe, "connect", "127.0.0.1", port, spec], stdout=subprocess.PIPE, text=True)
        for port, spec in zip(ports, ["tag", "calling-station"], strict=True)
    ]
    out, _ = dealer.communicate(timeout=300)
    outs = [c.communicate(timeout=60)[0] for c in clients]
    assert dealer.returncode == 0
    score = out.strip().splitlines()[-1]
    assert score.startswith("SCORE:") and score.endswith(":seat1|seat2")
    assert (tmp_path / "m.log").read_text().strip().splitlines()[-1] == score
    totals = [int(v) for v in score.split(":")[1].split("|")]
    assert [o.strip() for o in outs] == [f"20 hands, {t:+d} chips" for t in totals]
    assert (tmp_path / "m.phhs").read_text().count("[") >= 20
