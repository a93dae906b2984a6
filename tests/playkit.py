"""Test helpers for the play server: simple deterministic bots and a scripted session."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from enginekit import stacked_deck

from holdem_env.play.session import HUMAN_SEAT, PlayConfig, PlaySession

__all__ = ["CallAgent", "call_session", "play_until_human", "finish_hand", "stacked_deck"]


class CallAgent:
    """Checks when free, otherwise calls (all in for less included): every hand goes to showdown."""

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        return 1


def call_session(players: int = 6, seed: int = 1, **kwargs: Any) -> PlaySession:
    """A session whose bots all check or call."""
    config = PlayConfig(players=players, opponents=("tag",) * (players - 1), seed=seed, bot_delay=0.0, **kwargs)
    return PlaySession(config, agents=[CallAgent() for _ in range(players - 1)])


def play_until_human(session: PlaySession) -> None:
    """Let the bots act until the person is on turn or the hand is over."""
    while session.bot_on_turn():
        session.bot_act()


def finish_hand(session: PlaySession) -> None:
    """Play the hand out: the person checks when free and otherwise folds."""
    while session.hand_running:
        if session.bot_on_turn():
            session.bot_act()
        else:
            legal = session.view()["legal"]
            session.act("check" if legal["check"] else "fold")
    assert session.actor is None and HUMAN_SEAT == 0
