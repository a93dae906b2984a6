"""The subgame solver's compiled core gives exactly the numbers of its ``.py`` source, and the numbers the core gave before it was made faster."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from holdem_env._build import build_info
from holdem_env.agents.cfr_search import resolve as resolve_module
from holdem_env.agents.cfr_search.resolve import Subgame, resolve
from holdem_env.agents.cfr_search.tree import SubgameSpec
from holdem_env.engine.ranges import NUM_HOLDINGS, blocked_by, uniform_range

SOURCE = Path(resolve_module.__file__).with_name("_subgame.py")
COMPILED = "holdem_env.agents.cfr_search._subgame" in build_info()["compiled"]
BOARD = (3, 17, 29, 44)
TREE = {"sizes": (1.0, "allin"), "max_raises": 1, "river_sizes": (0.5, "allin"), "river_max_raises": 2}

#: sha256 (first 16 hex digits) of the average strategy sums and regrets after :func:`solve_small`, and its
#: exploitability, as the core gave them before the speed-ups of issue 26 (its .py source, run as Python).
BEFORE = {"plain": ("c2f58ea52c31eff2", 1579.674142169468), "gadget": ("3e3c4067242d5db9", 1555.6779988297455)}


def source_core() -> type:
    """``SubgameCore`` from the ``.py`` source, run as Python."""
    loader = importlib.machinery.SourceFileLoader("_subgame_source", str(SOURCE))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module.SubgameCore  # type: ignore[no-any-return]


def solve_small(core: type, gadget: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """A turn subgame over 40 holdings with random ranges: 3 iterations over every river, then 2 that walk
    12 sampled rivers; with ``gadget``, safe re-solving for player 0 against random values."""
    rng = np.random.default_rng(11)
    holdings = np.flatnonzero(~blocked_by(list(BOARD)))[rng.choice(1128, 40, replace=False)]
    ranges = np.vstack(
        [uniform_range(BOARD) * rng.random(NUM_HOLDINGS), uniform_range(BOARD) * rng.random(NUM_HOLDINGS)]
    )
    spec = SubgameSpec(board=BOARD, contrib=(1000, 1000), stacks=(9000, 9000))
    saved = resolve_module.SubgameCore
    resolve_module.SubgameCore = core  # type: ignore[misc]
    try:
        if gadget:
            values = np.full(NUM_HOLDINGS, np.nan)
            values[holdings] = rng.normal(0.0, 300.0, len(holdings))
            sub = resolve(spec, 0, ranges[0], values, 3, holdings=holdings, **TREE)  # type: ignore[arg-type]
        else:
            sub = Subgame(spec, ranges, holdings=holdings, **TREE)  # type: ignore[arg-type]
            sub.solve(3)
        sub.solve(2, rivers=12, rng=np.random.default_rng(5))
        return np.array(sub.core.avg), np.array(sub.core.regret), sub.exploitability()
    finally:
        resolve_module.SubgameCore = saved  # type: ignore[misc]


def digest(avg: np.ndarray, regret: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(avg).tobytes() + np.ascontiguousarray(regret).tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("gadget", [False, True])
def test_the_source_and_the_compiled_core_give_the_numbers_of_the_core_before_the_speed_ups(gadget: bool) -> None:
    avg, regret, expl = solve_small(source_core(), gadget)
    assert (digest(avg, regret), expl) == BEFORE["gadget" if gadget else "plain"]
    if not COMPILED:
        pytest.skip("the solver core is not compiled here: its source alone was checked")
    compiled: Any = resolve_module.SubgameCore
    a = solve_small(compiled, gadget)
    assert np.array_equal(a[0], avg) and np.array_equal(a[1], regret) and a[2] == expl
