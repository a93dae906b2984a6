"""Local actors pinned to one CPU each (LocalActors(pin=True), what RolloutWorkers(pin=True) starts)."""

from __future__ import annotations

import os

import pytest

from holdem_env.training.backends import LocalActors, cpus_for

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity on this platform")


def test_cpus_for_takes_the_allowed_cpus_in_turn() -> None:
    allowed = sorted(os.sched_getaffinity(0))
    got = cpus_for(len(allowed) + 2)
    assert got[: len(allowed)] == allowed and got[len(allowed) :] == allowed[:2]
    assert cpus_for(0) == []


def test_pinned_actors_run_on_one_cpu_each_and_unpinned_ones_anywhere() -> None:
    where = __import__("pinkit").Where
    parent = sorted(os.sched_getaffinity(0))
    for pin in (True, False):
        actors = LocalActors(where, [{}, {}], name="where", pin=pin)
        try:
            actors.submit("cpus", [(), ()])
            answers = actors.gather()
        finally:
            actors.close()
        if pin:
            assert answers == [[c] for c in cpus_for(2)]
        else:
            assert answers == [parent, parent]
