"""An ACPC client that seats one of our agents at any ACPC dealer (the reference's or ours).

The agent sees exactly what it sees in the arena: on its turn the client replays the hand
so far into an exact-mode :mod:`holdem_env.env.nlhe_v1` table dealt from the cards the
dealer has shown it (its own hole cards and the board; every other card a placeholder it
never observes) and asks ``agent.act(observation, info)``. Its action id goes back as
``f``, ``c`` or ``r<N>`` (``N``: the raise-to converted to the whole-hand total the protocol
uses). At the end of each hand the client scores the hand on the engine from the final
state (showdown cards included) and calls the agent's ``end_hand`` hook.

If the dealer reports an opponent's action that docs/RULES.md does not allow (the ACPC
minimum-raise rule is looser after a short all-in), the hand cannot be mirrored; the
client then answers ``c`` (always valid) for the rest of that hand and says so on ``log``.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from holdem_env.acpc.game import AcpcHand, deck_for, replay_matchstate, table_for
from holdem_env.acpc.protocol import MAX_LINE, VERSION_LINE, ACPCError, GameDef, MatchState, parse_matchstate
from holdem_env.engine.cards import card_str
from holdem_env.env.nlhe_v1 import raw_env

__all__ = ["AcpcClient", "HandResult", "connect_and_play"]


@dataclass(frozen=True)
class HandResult:
    """One finished hand as the client saw it: its position and its chips won (engine payoff)."""

    hand: int
    position: int
    payoff: int
    state: str


@dataclass
class AcpcClient:
    """Plays ``agent`` on a dealer connection; ``log`` receives warnings."""

    game: GameDef
    agent: Any
    seed: int = 0
    log: Callable[[str], None] | None = None
    results: list[HandResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.table, self.stacks = table_for(self.game)
        self.n = self.game.num_players
        kwargs: dict[str, Any] = {}
        if not self.game.no_limit:
            kwargs["raise_cap"] = self.table.raise_cap
        self.env = raw_env(
            num_players=self.n, small_blind=self.table.small_blind, big_blind=self.table.big_blind,
            buy_in=self.table.buy_in, betting=self.table.betting, action_mode="exact", reward_unit="chips", **kwargs,
        )
        self._started: int | None = None
        self._broken: int | None = None
        self._cache: tuple[int, AcpcHand, list[tuple[str, int]]] | None = None

    def _warn(self, text: str) -> None:
        if self.log is not None:
            self.log(text)

    def respond(self, line: str) -> str | None:
        """The answer to one line from the dealer (``None``: not our turn, or not a state)."""
        if not line.startswith("MATCHSTATE:"):
            return None
        state, _ = parse_matchstate(line, self.n, self.game.no_limit)
        if self._broken == state.hand:  # whose turn is unknown: 'c' is valid whenever asked, ignored otherwise
            return f"{line}:c"
        try:
            acpc = self._advance(state)
            if acpc.hand.is_over:  # scored on the true cards (the running hand's unseen cards are fillers)
                self._finish(state, replay_matchstate(self.game, self.table, self.stacks, state), line)
                return None
        except ACPCError as exc:
            self._broken = state.hand
            self._cache = None
            self._warn(f"hand {state.hand}: cannot mirror the hand ({exc}); answering 'c' in it")
            return f"{line}:c"
        if acpc.actor != state.position:
            return None
        return f"{line}:{self._decide(state, acpc)}"

    def _advance(self, state: MatchState) -> AcpcHand:
        """The hand at ``state``: the previous state's hand with the new actions, or a fresh replay."""
        actions = [a for r in state.betting for a in r]
        cached = self._cache
        if cached is not None and cached[0] == state.hand and actions[: len(cached[2])] == cached[2]:
            acpc = cached[1]
            for kind, size in actions[len(cached[2]):]:
                acpc.apply(kind, size)
        else:
            acpc = replay_matchstate(self.game, self.table, self.stacks, state)
        self._cache = (state.hand, acpc, actions)
        return acpc

    def _finish(self, state: MatchState, acpc: AcpcHand, line: str) -> None:
        payoffs = acpc.hand.payoffs
        assert payoffs is not None
        payoff = int(payoffs[state.position])
        self.results.append(HandResult(state.hand, state.position, payoff, line))
        hook = getattr(self.agent, "end_hand", None)
        if hook is not None:
            hand = acpc.hand
            hook({
                "seat": state.position,
                "payoff": payoff,
                "board": tuple(card_str(c) for c in hand.board),
                "shown": {p: tuple(state.hole[p]) for p in range(self.n) if p != state.position and state.hole[p]},
            })

    def _decide(self, state: MatchState, acpc: AcpcHand) -> str:
        env = self.env
        deck = deck_for(self.n, state.hole, [c for r in state.board for c in r])  # the cards seen so far
        env.reset(options={"deck": list(deck), "button": self.n - 1, "stacks": list(self.stacks)})
        if self._started != state.hand:
            self._started = state.hand
            set_rng = getattr(self.agent, "set_rng", None)
            if set_rng is not None:
                set_rng(np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(state.hand,))))
            hook = getattr(self.agent, "start_hand", None)
            if hook is not None:
                hook(env.infos[env.possible_agents[state.position]])
        for ev in acpc.hand.events:
            kind = getattr(ev, "kind", None)
            if kind is None:
                continue
            value = kind.value
            env.step(0 if value == "fold" else 1 if value in ("check", "call") else ev.to + 1)
        name = env.possible_agents[state.position]
        assert env.agent_selection == name, "the mirror env is out of step with the dealer's state"
        observation = env.observe(name)
        info = env.infos[name]
        mask = observation["action_mask"]
        action = self.agent.act(observation, info)
        ok = isinstance(action, (int, np.integer)) and not isinstance(action, bool) and 0 <= action < len(mask) and mask[action]
        if not ok:
            self._warn(f"hand {state.hand}: the agent returned {action!r}, which is not legal; answering the timeout action")
            return "c" if info["legal"]["check"] else "f"
        a = int(action)
        if a == 0:
            return "f"
        if a == 1:
            return "c"
        seat = state.position
        if not self.game.no_limit:
            return "r"
        before = acpc.hand.contributions[seat] - acpc.hand.street_bet_of(seat)
        return f"r{before + a - 1}"


def _lines(sock: socket.socket) -> Any:
    """Lines from a socket (bounded: an over-long line is an error)."""
    buf = bytearray()
    while True:
        cut = buf.find(b"\n")
        if cut >= 0:
            line = bytes(buf[:cut]).rstrip(b"\r")
            del buf[: cut + 1]
            yield line.decode("ascii", "replace")
            continue
        if len(buf) > MAX_LINE:
            raise ACPCError(f"the dealer sent a line longer than {MAX_LINE} bytes")
        data = sock.recv(65536)
        if not data:
            return
        buf += data


def connect_and_play(
    host: str,
    port: int,
    client: AcpcClient,
    *,
    secret: str | None = None,
    timeout: float | None = None,
    on_hand: Callable[[HandResult], object] | None = None,
) -> list[HandResult]:
    """Connect, shake hands (``VERSION:2.0.0``, then ``SECRET:...`` if given), play until the dealer closes."""
    sock = socket.create_connection((host, port), timeout=timeout)
    sock.settimeout(None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        hello = VERSION_LINE + "\r\n" + (f"SECRET:{secret}\r\n" if secret is not None else "")
        sock.sendall(hello.encode())
        seen = len(client.results)
        for line in _lines(sock):
            if line.startswith("# refused"):
                raise ACPCError(f"the dealer {line[2:]}")
            if line[:1] in ("#", ";") or not line:
                continue
            answer = client.respond(line)
            if answer is not None:
                sock.sendall((answer + "\r\n").encode())
            while on_hand is not None and seen < len(client.results):
                on_hand(client.results[seen])
                seen += 1
    except (ConnectionResetError, BrokenPipeError):
        pass
    finally:
        sock.close()
    return client.results
