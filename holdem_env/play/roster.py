"""Who sits at a play table: the default opponents (five styles) and the learned bots that can sit.

Kept free of heavy imports so that ``holdem play --help`` can list the learned bots.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_OPPONENTS", "LEARNED_BOTS", "LearnedBot", "learned_bots_for"]

#: The five opponents of the default six-seat table, each a style of its own (seated in an
#: order drawn from the seed; the person is not told who is who). Tuned so that each plays
#: (VPIP) at least 10% of hands over 100 hands, also against a person who raises every hand
#: (tests/test_play_bots.py):
#:
#: - ``tag(tightness=0.75)``: tight-aggressive, a six-handed opening range; raises what it plays;
#: - ``lag``: loose-aggressive, plays ~40% and raises most; bets and bluffs often;
#: - ``calling-station``: plays ~60%, hardly ever raises, calls down;
#: - ``tight-passive(play=0.24)``: plays a fifth of hands, mostly calls, rarely bets;
#: - ``cfr-lite``: the learned six-max policy (abstracted CFR).
DEFAULT_OPPONENTS = ("tag(tightness=0.75)", "lag", "calling-station", "tight-passive(play=0.24)", "cfr-lite")


@dataclass(frozen=True)
class LearnedBot:
    """A learned policy that can sit at a play table: its agent ``spec`` and the table sizes it was trained for."""

    spec: str
    players: tuple[int, ...]
    about: str


#: The learned bots a play table can seat, by name. Add an entry when a trained policy lands.
LEARNED_BOTS: dict[str, LearnedBot] = {
    "cfr-lite": LearnedBot("cfr-lite", (6,), "abstracted CFR, the six-max policy"),
    "ppo": LearnedBot("ppo", (2,), "the shipped heads-up PPO policy"),
    "cfr-search": LearnedBot("cfr-search", (2,), "heads-up: an MCCFR blueprint with safe turn and river re-solving"),
    "ppo-6max": LearnedBot("ppo-6max", (6,), "the six-max PPO policy (population-trained; still loses to tag)"),
}


def learned_bots_for(players: int) -> list[str]:
    """The names of the learned bots trained for a table of ``players`` seats that are registered agents."""
    # late import: the agent registry is not needed to print `holdem play --help`
    from holdem_env.agents.base import registered_agents

    names = set(registered_agents())
    return [name for name, bot in LEARNED_BOTS.items() if players in bot.players and bot.spec in names]
