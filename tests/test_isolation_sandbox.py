"""Isolation that isolates (issue 27): hostile isolated agents cannot read, signal or outlive the arena, nor flood it.

The agents in :mod:`isolation_probes` really try: a ``/proc/<pid>/mem`` read of the arena
and of the rival worker, SIGKILL to the rival, a grandchild in a session of its own, a
flood of fake result lines. Each test fails on an arena whose workers are plain processes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

from holdem_env.agents.base import AgentError
from holdem_env.agents.isolation import IsolatedAgent
from holdem_env.agents.sandbox import _ARCH, WorkerLimits, _seccomp_program, cpu_seconds_of
from holdem_env.training.arena import ArenaConfig, format_table, run_match

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the confinement is Linux's")


def _match(*agents: str, hands: int = 4, on_illegal: str = "raise", **kw):
    return run_match(ArenaConfig(agents=agents, hands=hands, seed=1, isolate_agents=True, on_illegal=on_illegal, **kw))


def test_an_isolated_agent_cannot_read_the_arenas_memory_nor_its_rivals() -> None:
    result = _match("isolation_probes:MemReader", "random")  # raises AgentError if any read succeeded
    assert result.rows[0]["hands"] == 4
    # the probe itself works: outside the sandbox this process may read a plain child's memory
    from isolation_probes import read_memory

    assert read_memory(os.getpid()) == 4096


def test_an_isolated_agent_cannot_kill_its_rival_or_signal_the_arena() -> None:
    result = _match("isolation_probes:Killer", "random", hands=6)  # raises if a signal got through
    assert [r["stats"]["timeouts"] for r in result.rows] == [0, 0]


def test_every_descendant_of_a_worker_dies_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("H7_PID_FILE", str(pid_file))
    _match("isolation_probes:Forker", "random", hands=2)
    pids = [int(p) for p in pid_file.read_text().split()]
    assert pids

    def alive(pid: int) -> bool:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        return state not in ("Z", "X")

    import time

    for _ in range(50):  # SIGKILL is delivered asynchronously
        if not any(alive(p) for p in pids):
            break
        time.sleep(0.1)
    assert not any(alive(p) for p in pids)


def test_agents_output_does_not_reach_the_terminal(capfd: pytest.CaptureFixture[str]) -> None:
    result = _match("isolation_probes:Printer", "random", hands=2)
    print(format_table(result))
    out, err = capfd.readouterr()
    assert "FAKE-RESULT" not in out + err
    assert "isolation_probes:Printer" in out


def test_a_dead_worker_times_out_for_the_rest_of_the_match_and_is_named() -> None:
    result = _match("isolation_probes:Dies", "random", hands=6, on_illegal="timeout")
    dies, rnd = result.rows
    assert dies["hands"] == rnd["hands"] == 6
    assert dies["stats"]["timeouts"] >= 1 and rnd["stats"]["timeouts"] == 0
    assert "seat" in dies["first_error"] and "exited with status 3" in dies["first_error"]
    assert rnd["first_error"] is None
    assert "first error: seat" in format_table(result)
    assert result.to_json_dict()["results"][0]["first_error"] == dies["first_error"]


def test_under_raise_the_error_names_the_agent_that_died() -> None:
    with pytest.raises(AgentError, match=r"'isolation_probes:Dies' .*exited with status 3") as info:
        _match("isolation_probes:Dies", "random", hands=6)
    assert info.value.agent == "isolation_probes:Dies"


def test_memory_is_limited() -> None:
    from holdem_env import nlhe_v1

    env = nlhe_v1.raw_env(num_players=2)
    env.reset(seed=0)
    name = env.agent_selection
    with IsolatedAgent("isolation_probes:Greedy", limits=WorkerLimits(memory_bytes=2 << 30)) as agent:
        with pytest.raises(AgentError, match="raised MemoryError"):
            agent.act(env.observe(name), env.infos[name])


def test_cpu_seconds_are_read_from_proc() -> None:
    used = cpu_seconds_of(os.getpid())
    assert used is not None and used > 0
    assert cpu_seconds_of(2**22 + 12345) is None


@pytest.mark.parametrize("arch", sorted(_ARCH))
def test_the_seccomp_program_is_well_formed(arch: str) -> None:
    code = np.frombuffer(_seccomp_program(_ARCH[arch]), dtype=np.dtype([("op", "<u2"), ("jt", "u1"), ("jf", "u1"), ("k", "<u4")]))
    n = len(code)
    assert n < 4096
    for i, ins in enumerate(code):  # every jump lands inside the program; it ends in a return
        if ins["op"] & 0x07 == 0x05:
            assert i + 1 + max(ins["jt"], ins["jf"]) < n
    assert code[-1]["op"] == 0x06


def _first_decision():
    from holdem_env import nlhe_v1

    env = nlhe_v1.raw_env(num_players=2)
    env.reset(seed=0)
    name = env.agent_selection
    return env.observe(name), env.infos[name]


def test_cpu_time_per_decision_is_limited() -> None:
    obs, info = _first_decision()
    with IsolatedAgent("isolation_probes:Spinner", timeout=120, limits=WorkerLimits(cpu_seconds=1)) as agent:
        with pytest.raises(AgentError, match=r"killed by SIGXCPU|CPU seconds during act \(limit 1\)"):
            agent.act(obs, info)


def test_open_files_are_limited() -> None:
    obs, info = _first_decision()
    with IsolatedAgent("isolation_probes:FileHog", limits=WorkerLimits(open_files=64)) as agent:
        with pytest.raises(AgentError, match="Too many open files"):
            agent.act(obs, info)
