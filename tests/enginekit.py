"""Test helpers for the engine: stacked decks, table builders and state snapshots."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from holdem_env.engine.cards import parse_cards
from holdem_env.engine.config import TableConfig
from holdem_env.engine.state import HandState


def stacked_deck(
    n: int,
    button: int,
    holes: dict[int, str],
    board: str = "",
    dealt_in: list[bool] | None = None,
) -> list[int]:
    """A 52-card order that deals ``holes`` (seat -> "AsKd") and ``board`` (up to 5 cards)
    following the dealing rules: one card at a time from the first seat left of the button,
    then burn + flop, burn + turn, burn + river. Unnamed positions get unused cards."""
    din = dealt_in or [True] * n
    order = [(button + k) % n for k in range(1, n + 1) if din[(button + k) % n]]
    k = len(order)
    slots: list[int | None] = [None] * (2 * k + 8)
    for j, s in enumerate(order):
        if s in holes:
            a, b = parse_cards(holes[s])
            slots[j], slots[j + k] = a, b
    board_ids = parse_cards(board) if board else ()
    board_pos = [2 * k + 1, 2 * k + 2, 2 * k + 3, 2 * k + 5, 2 * k + 7]
    for pos, c in zip(board_pos, board_ids, strict=False):
        slots[pos] = c
    used = {c for c in slots if c is not None}
    spare = iter(c for c in range(52) if c not in used)
    deck = [c if c is not None else next(spare) for c in slots]
    deck.extend(spare)
    assert len(deck) == 52 and len(set(deck)) == 52
    return deck


def make_state(
    n: int = 3,
    *,
    sb: int = 5,
    bb: int = 10,
    buy_in: int = 1000,
    button: int = 0,
    stacks: list[int] | None = None,
    holes: dict[int, str] | None = None,
    board: str = "",
    dealt_in: list[bool] | None = None,
    antes: list[int] | None = None,
    **config: object,
) -> HandState:
    """A hand on a small table with a stacked deck (default: the sorted deck)."""
    cfg = TableConfig(num_players=n, small_blind=sb, big_blind=bb, buy_in=buy_in, **config)  # type: ignore[arg-type]
    deck = stacked_deck(n, button, holes or {}, board, dealt_in)
    return HandState(cfg, button=button, stacks=stacks, deck=deck, dealt_in=dealt_in, antes=antes)


def snapshot(s: HandState) -> tuple:
    """Everything observable about a state, to check that an illegal action changed nothing."""
    return (
        s.actor,
        s.street,
        s.stacks,
        s.street_bets,
        s.contributions,
        s.folded,
        s.is_all_in,
        s.pot,
        s.current_bet,
        s.last_full_raise,
        s.board,
        s.events,
        s.is_over,
        s.legal_actions() if not s.is_over else None,
    )


def check_down(s: HandState) -> None:
    """Call or check until the hand ends."""
    while not s.is_over:
        if s.legal_actions().check:
            s.check()
        else:
            s.call()


def default_sigint() -> None:
    """A child process's ``preexec_fn``: Ctrl-C back to its default, whatever this process inherited
    (a shell's background job ignores SIGINT, and its children would never see the Ctrl-C a test sends)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def play_passively(session: Any, hands: int) -> None:
    """Play ``hands`` hands of a play-table ``session``: the bots act, the person checks or calls."""
    for _ in range(hands):
        session.start_hand()
        while session.hand_running:
            if session.bot_on_turn():
                session.bot_act()
            else:
                session.act("check" if session.view()["legal"]["check"] else "call")


def seat0_decisions(
    env: Any, agent: Any, opponent: Any, hands: int, *, seed: int = 0, alternate_button: bool = False
) -> Iterator[tuple[int, Any, Any, int]]:
    """Play ``hands`` hands of the AEC ``env`` (``agent`` in seat 0, ``opponent`` in the others; hand
    ``h`` dealt from ``seed + h``, the button moving between seats 0 and 1 when ``alternate_button``);
    yield ``(hand, observation, info, action)`` at each of the agent's decisions."""
    for hand in range(hands):
        env.reset(seed=seed + hand, options={"button": hand % 2} if alternate_button else None)
        start = getattr(agent, "start_hand", None)
        if start is not None:
            start(env.infos["player_0"])
        for name in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if name == "player_0":
                action = agent.act(obs, info)
                yield hand, obs, info, action
            else:
                action = opponent.act(obs, info)
            env.step(action)
