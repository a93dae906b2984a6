"""Walks an AEC env through whole hands and hands each decision to the caller, who steps.

The loop every driver of ``nlhe_v1`` writes (``reset``, ``agent_iter``, ``last``, ``step(None)``
for seats whose hand ended) in one place: :func:`decisions` yields ``(observation, info)`` at each
turn and the caller answers with ``env.step(action)`` before asking for the next one.

>>> from holdem_env import nlhe_v1
>>> env = nlhe_v1.env(num_players=2)
>>> turns = 0
>>> for obs, info in decisions(env, hands=3, seed=1):
...     env.step(1)  # check or call: every hand sees four streets, two turns each
...     turns += 1
>>> turns
24
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pettingzoo import AECEnv

__all__ = ["decisions"]


def decisions(
    env: AECEnv,
    hands: int | None = None,
    seed: int | None = None,
    options: Callable[[int], dict[str, Any] | None] | None = None,
) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Yield ``(observation, info)`` at every decision of ``hands`` hands (``None``: for ever).

    Hand ``h`` starts with ``env.reset(seed=seed + h)`` when ``seed`` is given, else with
    ``env.reset()`` (the env's generator carries on from its last seeding); ``options(h)``, when
    given, is that reset's ``options`` (e.g. ``{"stacks": [...]}``; ``None`` for none). Seats whose hand has
    ended are stepped with ``None`` here; at every yielded decision the caller must step the env
    once (with the acting seat's action) before it asks for the next.
    """
    h = 0
    while hands is None or h < hands:
        env.reset(seed=None if seed is None else seed + h, options=None if options is None else options(h))
        h += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            yield obs, info
