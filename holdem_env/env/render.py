"""The text render of ``nlhe_v1``: the table as a few lines, hole cards shown only to the render's viewer.

:func:`render_text` draws what :meth:`holdem_env.env.nlhe_v1.raw_env.render` returns in the
``"ansi"`` mode (and prints in ``"human"``): the hand, the board, one line per seat (stack, bet,
position, status, cards) and who is to act or the payoffs. A seat's hole cards appear only for
the ``render_viewer`` (a seat or ``"all"``) and at showdown.
"""

from __future__ import annotations

from collections.abc import Sequence

from holdem_env.engine.cards import card_str
from holdem_env.engine.config import TableConfig
from holdem_env.engine.state import HandState
from holdem_env.env._core import STREET_NAMES, hole_strs

__all__ = ["render_text"]


def _seat_tags(state: HandState, seat: int) -> str:
    tags = []
    if seat == state.button:
        tags.append("BTN")
    if seat == state.small_blind_seat:
        tags.append("SB")
    if seat == state.big_blind_seat:
        tags.append("BB")
    return "/".join(tags)


def render_text(
    state: HandState | None,
    config: TableConfig,
    *,
    hand_number: int,
    agents: Sequence[str],
    dealt: Sequence[bool],
    all_in: Sequence[bool],
    actor: int | None,
    viewer: int | str | None,
) -> str:
    """The table as text: ``state`` (the hand, None before the first), ``config``, the env's
    ``hand_number``, its ``agents``, the seats ``dealt`` in and ``all_in`` (the env's flags, which
    follow the action events), the seat to act and the render's ``viewer`` (a seat or ``"all"``)."""
    if state is None:
        return "nlhe_v1: no hand dealt yet (call reset())"
    cfg = config
    street = STREET_NAMES[min(int(state.street), 4)]
    ante = f" ante {cfg.ante}" if cfg.ante else ""
    lines = [
        f"nlhe_v1 hand {hand_number}  {cfg.betting.value}  blinds {cfg.small_blind}/{cfg.big_blind}{ante}"
        f"  street: {street}  pot: {state.pot}",
        "board: " + (" ".join(card_str(c) for c in state.board) or "-"),
    ]
    shown = state.shown if state.is_over else {}
    n = cfg.num_players
    for s in range(n):
        if not dealt[s]:
            status, cards = "out", ""
        else:
            status = "folded" if state.folded[s] else ("all-in" if all_in[s] else "")
            if s in shown:
                cards = " ".join(card_str(c) for c in shown[s])
            elif viewer == "all" or viewer == s:
                cards = " ".join(hole_strs(state.hole_cards_of(s)))
            else:
                cards = "?? ??"
        turn = ">" if s == actor else " "
        lines.append(
            f"{turn} seat {s} {agents[s]:<10} stack {state.stacks[s]:>6}  "
            f"bet {state.street_bets[s]:>5}  {_seat_tags(state, s):<7} {status:<6} {cards}"
        )
    if actor is not None:
        lines.append(f"to act: {agents[actor]}")
    else:
        payoffs = state.payoffs
        assert payoffs is not None  # no actor: the hand is over
        lines.append("hand over: " + ", ".join(f"seat {s} {payoffs[s]:+d}" for s in range(n) if dealt[s]))
    return "\n".join(lines)
