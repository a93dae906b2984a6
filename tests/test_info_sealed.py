"""An agent sees only its own seat: nothing it is handed leads back to the engine.

A cheating agent searches everything it receives (observation and info) by the known routes:
attributes, ``__dict__``, ``__slots__``, closures and ``__globals__`` of any callable, and
every object :func:`gc.get_referents` reaches from there (a bounded walk). Classes and modules
are not followed: they are shared code that any agent can import anyway (an agent in the env's
own process can always reach the env through the interpreter, e.g. ``gc.get_objects()``; that
is documented, and out of scope here). It must find no ``HandState``, table, env, generator,
deck, and no other seat's hidden hole cards. Played in the arena against ``tag`` it does no
better than ``tag`` against ``tag``; with a leak planted on purpose it wins, which shows the
search and the exploit work.
"""

from __future__ import annotations

import gc
import pickle
import types
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pytest

from holdem_env import nlhe_v1
from holdem_env.agents.tag import TagAgent
from holdem_env.engine.cards import card_str
from holdem_env.engine.state import HandState
from holdem_env.engine.table import Table
from holdem_env.training.arena import ArenaConfig, run_match

_FORBIDDEN = (HandState, Table, nlhe_v1.raw_env, np.random.Generator, np.random.BitGenerator)


def reachable(roots: Iterable[Any], limit: int = 50_000) -> list[Any]:
    """Every object reachable from ``roots`` by the routes an agent could take (bounded,
    breadth first: what is near the roots is always searched)."""
    seen: set[int] = set()
    out: list[Any] = []
    stack = deque(roots)
    while stack and len(out) < limit:
        obj = stack.popleft()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, (type, types.ModuleType)):
            continue  # shared code: importable by anyone, not per-hand data
        out.append(obj)
        stack.extend(gc.get_referents(obj))
        try:  # the explicit routes (objects with odd __getattr__ are searched by referents alone)
            d = getattr(obj, "__dict__", None)
            if isinstance(d, dict):
                stack.append(d)
            for cls in type(obj).__mro__:
                slots = cls.__dict__.get("__slots__", ())
                for name in (slots,) if isinstance(slots, str) else slots:
                    try:
                        stack.append(object.__getattribute__(obj, name))
                    except (AttributeError, TypeError):
                        pass
        except Exception:
            pass
        if isinstance(obj, types.FunctionType):
            stack.extend(cell.cell_contents for cell in obj.__closure__ or () if _filled(cell))
            stack.append(obj.__globals__)
        elif isinstance(obj, types.MethodType):
            stack.extend((obj.__self__, obj.__func__))
        elif isinstance(obj, (types.BuiltinMethodType, types.MethodWrapperType)):
            stack.append(getattr(obj, "__self__", None))
    return out


def _filled(cell: types.CellType) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:  # an empty cell
        return False
    return True


def secrets_in(observation: Any, info: Any) -> tuple[list[Any], set[str]]:
    """``(forbidden objects and decks found, card strings found)`` in what an agent received."""
    found: list[Any] = []
    cards: set[str] = set()
    card_names = {card_str(c) for c in range(52)}
    for obj in reachable([observation, info]):
        if isinstance(obj, _FORBIDDEN):
            found.append(obj)
        elif isinstance(obj, (list, tuple)) and len(obj) == 52 and sorted(map(repr, obj)) == sorted(
            map(repr, range(52))
        ):
            found.append(obj)  # a deck order
        elif isinstance(obj, str) and obj in card_names:
            cards.add(obj)
    return found, cards


# ---------------------------------------------------------------------------- the search works


class _Slotted:
    __slots__ = ("hidden",)

    def __init__(self, hidden: Any) -> None:
        self.hidden = hidden


def test_the_search_finds_a_planted_hand_state_by_every_route() -> None:
    state = HandState(nlhe_v1.raw_env(num_players=2).config, seed=3)

    def closure() -> Any:
        return state

    def uses_global() -> None: ...

    plants = {
        "globals": types.FunctionType(uses_global.__code__, {"planted": state}),
        "attribute": types.SimpleNamespace(x=state),
        "slots": _Slotted(state),
        "closure": closure,
        "nested": ({"a": [state]},),
        "bound method": state.copy,
    }
    for route, plant in plants.items():
        found, _ = secrets_in({}, {"legal": {}, "view": plant})
        assert any(isinstance(f, HandState) for f in found), route
    found, _ = secrets_in({}, {"deck": list(np.random.default_rng(1).permutation(52).tolist())})
    assert found, "a deck order must be recognised"
    _, cards = secrets_in({}, {"view": ("As", "Kd", "preflop")})
    assert cards == {"As", "Kd"}


# ---------------------------------------------------------------------------- the env is sealed


def _hidden_cards(env: Any, seat: int) -> set[str]:
    """Other seats' hole cards that ``seat`` may not see now (not shown at showdown)."""
    st = env.unwrapped.state_object
    shown = st.shown if st.is_over else {}
    out: set[str] = set()
    for s, cards in enumerate(st.hole_cards):
        if s != seat and cards and s not in shown:
            out |= {card_str(c) for c in cards}
    return out


@pytest.mark.parametrize("action_mode", ["exact", "discrete"])
def test_nothing_an_agent_receives_reaches_the_engine_or_hidden_cards(action_mode: str) -> None:
    env = nlhe_v1.env(num_players=6, action_mode=action_mode)
    raw = env.unwrapped
    env.reset(seed=17)
    rng = np.random.default_rng(17)
    buffer = raw._dyn
    checked = 0
    for _ in range(12):
        env.reset()
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            seat = raw.agent_name_mapping[agent]
            found, cards = secrets_in(obs, info)
            assert found == [], f"{agent} reached {type(found[0]).__name__}"
            assert not cards & _hidden_cards(env, seat), f"{agent} saw another seat's hidden cards"
            for arr in (obs["observation"], obs["action_mask"]):
                assert not np.shares_memory(arr, buffer)  # a copy, not a window on the env's buffer
            view = info["view"]
            assert set(view["hole_cards"]) <= cards and view["seat"] == seat
            pickle.loads(pickle.dumps(info))  # plain data: it pickles
            checked += 1
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 100


def test_infos_of_waiting_seats_are_sealed_too() -> None:
    env = nlhe_v1.raw_env(num_players=4, action_mode="exact")
    env.reset(seed=2)
    env.step(1)
    for agent, info in env.infos.items():
        seat = env.agent_name_mapping[agent]
        found, cards = secrets_in(env.observe(agent), info)
        assert found == [] and not cards & _hidden_cards(env, seat)


# ---------------------------------------------------------------------------- in the arena


def _exploit(state: HandState, seat: int, mask: np.ndarray, legal: Mapping[str, Any]) -> int:
    """With the engine state in hand: play the hand out passively on a copy to see who wins,
    then shove when winning and fold (or check) when losing."""
    future = state.copy()
    while not future.is_over:
        future.check() if future.can_check() else future.call()
    if future.payoffs[seat] > 0:  # type: ignore[index]
        raises = np.flatnonzero(mask[2:])
        return int(raises[-1]) + 2 if len(raises) else 1
    return 0 if legal["fold"] else 1


class Cheater(TagAgent):
    """``tag``, except that it searches everything it is handed and exploits an engine state."""

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        found, _ = secrets_in(observation, info)
        states = [f for f in found if isinstance(f, HandState)]
        if states:
            seat = int(info["view"]["seat"])
            return _exploit(states[0], seat, np.asarray(observation["action_mask"]), info["legal"])
        return super().act(observation, info)


def _cheater_row(hands: int) -> dict[str, Any]:
    result = run_match(ArenaConfig(agents=(f"{__name__}:Cheater", "tag"), hands=hands, seed=4, workers=1))
    return result.rows[0]


def test_the_cheater_does_no_better_than_tag_against_tag() -> None:
    baseline = run_match(ArenaConfig(agents=("tag", "tag"), hands=60, seed=4, workers=1)).rows[0]
    assert baseline["mbb_per_hand"] == 0.0  # duplicate heads-up: identical agents break exactly even
    row = _cheater_row(60)
    assert row["mbb_per_hand"] - row["ci95"] <= baseline["mbb_per_hand"]
    assert row["mbb_per_hand"] == 0.0  # it found nothing, so it played exactly like tag


def test_the_cheater_wins_when_a_leak_is_planted(monkeypatch: pytest.MonkeyPatch) -> None:
    real = nlhe_v1.raw_env._seat_view

    def leaky(self: Any, seat: int) -> dict[str, Any]:
        return {**real(self, seat), "leak": self._state}  # what v0's live view amounted to

    monkeypatch.setattr(nlhe_v1.raw_env, "_seat_view", leaky)
    row = _cheater_row(300)
    assert row["mbb_per_hand"] - row["ci95"] > 0
