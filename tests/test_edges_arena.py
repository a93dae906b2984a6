"""The arena at the edges: isolated agents, plug-ins from the current directory, bounded matches (issue 14)."""

from __future__ import annotations

import gc
import os
import stat
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from holdem_env.agents.base import AgentError, AgentSpecError
from holdem_env.agents.isolation import IsolatedAgent, plain_info
from holdem_env.cli import main
from holdem_env.engine.errors import ConfigError
from holdem_env.fileutil import atomic_write_text, remove_stale_temp_files
from holdem_env.training.arena import MAX_HANDS, ArenaConfig, run_match


class Snoop:
    """Plays check/call, but only after making sure it cannot reach the engine."""

    def act(self, observation, info) -> int:
        from holdem_env.engine.state import HandState

        assert not any(isinstance(o, HandState) for o in gc.get_objects()), "the engine is reachable"
        assert type(info["view"]) is dict and type(info["legal"]) is dict
        assert set(observation) == {"observation", "action_mask"}
        return 1


class Hangs:
    def act(self, observation, info) -> int:
        time.sleep(60)
        return 1


class ReturnsText:
    def act(self, observation, info):
        return "call"


def test_isolated_agents_play_the_same_match_as_in_process_ones() -> None:
    plain = run_match(ArenaConfig(agents=("tag", "random"), hands=8, seed=3))
    isolated = run_match(ArenaConfig(agents=("tag", "random"), hands=8, seed=3, isolate_agents=True))
    np.testing.assert_array_equal(plain.group_net, isolated.group_net)
    assert [r["stats"] for r in plain.rows] == [r["stats"] for r in isolated.rows]


def test_an_isolated_agent_cannot_reach_the_engine() -> None:
    result = run_match(ArenaConfig(agents=(f"{__name__}:Snoop", "random"), hands=4, seed=1, isolate_agents=True))
    assert result.rows[0]["hands"] == 4
    with pytest.raises(AgentError, match="the engine is reachable"):  # the same agent in-process can
        run_match(ArenaConfig(agents=(f"{__name__}:Snoop", "random"), hands=2, seed=1))


def test_an_isolated_agent_that_hangs_is_stopped() -> None:
    from holdem_env import nlhe_v1

    env = nlhe_v1.raw_env(num_players=2)
    env.reset(seed=0)
    agent = IsolatedAgent(f"{__name__}:Hangs", timeout=1.0)
    with pytest.raises(AgentError, match=r"did not answer act within 1 s"):
        agent.act(env.observe(env.agent_selection), env.infos[env.agent_selection])
    with pytest.raises(AgentError, match="not running"):
        agent.act(env.observe(env.agent_selection), env.infos[env.agent_selection])
    agent.close()


def test_isolated_agent_errors() -> None:
    with pytest.raises(AgentSpecError, match=r"failed in its worker: AgentSpecError: .*tightness=-1 is invalid"):
        IsolatedAgent("tag(tightness=-1)")
    with pytest.raises(AgentSpecError, match="not an agent class"):
        IsolatedAgent("os:system(command='true')")
    with pytest.raises(ConfigError, match="timeout"):
        IsolatedAgent("random", timeout=0)
    with pytest.raises(AgentError, match=r"raised TypeError: act returned str, not an integer action id"):
        run_match(ArenaConfig(agents=(f"{__name__}:ReturnsText", "random"), hands=2, seed=1, isolate_agents=True))


def test_plain_info_copies_the_view_as_plain_data() -> None:
    from holdem_env import nlhe_v1

    env = nlhe_v1.raw_env(num_players=3)
    env.reset(seed=4, options={"button": 0})
    info = env.infos[env.agent_selection]
    plain = plain_info(info)
    assert plain["view"] == {k: (tuple(v) if isinstance(v, (list, tuple)) else v) for k, v in info["view"].items()}
    assert type(plain["view"]) is dict and type(plain["legal"]) is dict
    with pytest.raises(TypeError, match="cannot send a"):
        plain_info({"view": {"x": object()}})


# -- plug-in modules from the current directory ---------------------------------------------------------
def test_eval_finds_a_plug_in_next_to_the_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    (tmp_path / "edges_mybots.py").write_text(
        "class AlwaysCall:\n    def act(self, observation, info):\n        return 1\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    args = ["eval", "edges_mybots:AlwaysCall", "random", "--hands", "4", "--workers", "1", "--no-progress"]
    assert main(args) == 0, capsys.readouterr().err
    assert "edges_mybots:AlwaysCall" in capsys.readouterr().out
    assert sys.path[-1] == str(tmp_path)  # after the installed packages: a local file shadows nothing
    assert main([*args, "--isolate-agents"]) == 0, capsys.readouterr().err


# -- bounded matches -----------------------------------------------------------------------------------
def test_a_huge_match_is_refused_before_anything_is_built(capsys) -> None:
    with pytest.raises(ConfigError, match=f"hands=1000000000 is invalid: must be an integer in 1..{MAX_HANDS}"):
        ArenaConfig(agents=("random",), hands=10**9)
    assert main(["eval", "random", "random", "--hands", str(10**9), "--no-progress"]) == 2
    assert "must be an integer in 1..10000000" in capsys.readouterr().err


def test_work_is_generated_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    from holdem_env.training import arena

    sent: list[list[int]] = []
    real = arena._play_chunk

    def spy(cfg, groups, keep):
        sent.append(groups)
        if len(sent) == 3:
            raise KeyboardInterrupt  # stop the match early: later chunks must not exist yet
        return real(cfg, groups, keep)

    monkeypatch.setattr(arena, "_play_chunk", spy)
    with pytest.raises(KeyboardInterrupt):
        run_match(ArenaConfig(agents=("random", "random"), hands=MAX_HANDS, seed=0))
    assert [len(g) for g in sent] == [64, 64, 64] and sent[2][0] == 128


# -- files ---------------------------------------------------------------------------------------------
def test_atomic_write_never_touches_the_umask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = os.umask(0o027)
    try:
        def no_umask(mask: int) -> int:
            raise AssertionError("os.umask changes the mask of every thread")

        monkeypatch.setattr(os, "umask", no_umask)
        atomic_write_text(tmp_path / "a.txt", "x")
        monkeypatch.undo()
        assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o640
    finally:
        os.umask(old)


def test_stale_temp_files_are_removed(tmp_path: Path) -> None:
    (tmp_path / "state.json.abc123.tmp").write_text("{")
    (tmp_path / "keep.json").write_text("{}")
    (tmp_path / "sub.tmp").mkdir()
    removed = remove_stale_temp_files(tmp_path)
    assert [p.name for p in removed] == ["state.json.abc123.tmp"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.json", "sub.tmp"]


def test_eval_refuses_a_spec_that_is_not_an_agent_before_running_it(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "os:system(command='touch x')", "random", "--hands", "2", "--no-progress"]) == 2
    assert "'os:system' is a builtin_function_or_method, not an agent class" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
