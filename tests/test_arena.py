"""The arena: duplicate mechanics, determinism across workers, misbehaving agents, ``holdem eval``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from holdem_env.agents.base import AgentError, AgentSpecError
from holdem_env.cli import main
from holdem_env.engine.errors import ConfigError
from holdem_env.formats.phh import load_file
from holdem_env.training.arena import ArenaConfig, format_table, lineup_of, run_match


class CheckOrFold:
    """Checks when free, else folds -- except that it returns id 9999 (no such action) on the flop."""

    def act(self, observation, info) -> int:
        if info["view"]["street"] == "flop":
            return 9999
        return 1 if info["legal"]["check"] else 0


class Crashes:
    def act(self, observation, info) -> int:
        raise RuntimeError("boom")


def test_duplicate_groups_replay_the_same_deal_with_rotated_seats() -> None:
    result = run_match(ArenaConfig(agents=("tag", "random", "random"), hands=12, seed=5), keep_records=True)
    records = result.records
    assert len(records) == 12
    for g in range(4):
        group = records[3 * g : 3 * g + 3]
        assert len({r.deck for r in group}) == 1  # the same deck ...
        assert {r.button for r in group} == {0}  # ... the same button ...
        for seat in range(3):  # ... so every seat holds the same cards in every rotation
            assert len({r.hole_cards[seat] for r in group}) == 1
    assert len({r.deck for r in records[::3]}) == 4  # a new deal per group
    plain = run_match(
        ArenaConfig(agents=("random", "random", "random"), hands=6, seed=5, duplicate=False), keep_records=True
    )
    assert len({r.deck for r in plain.records}) == 6


def test_each_contestant_plays_every_seat_of_a_group() -> None:
    # With a pure caller in one seat, the seat that calls everything moves with the rotation.
    spec = f"{__name__}:CallOnly"
    result = run_match(ArenaConfig(agents=(spec, "random", "random"), hands=3, seed=1), keep_records=True)
    others: set[str] = set()
    for rotation, record in enumerate(result.records):
        caller_seat = (0 - rotation) % 3  # contestant 0 sits at seat (0 - rotation) mod n
        kinds = {str(e.kind.value) for e in record.events if getattr(e, "seat", None) == caller_seat and hasattr(e, "kind")}
        assert kinds and kinds <= {"check", "call"}
        others |= {str(e.kind.value) for e in record.events if hasattr(e, "kind") and e.seat != caller_seat}
    assert others - {"check", "call"}  # the random seats raise or fold: a wrong seat map shows


class CallOnly:
    def act(self, observation, info) -> int:
        return 1


@pytest.mark.parametrize("spec", ["random", "tag"])
def test_identical_agents_break_exactly_even_in_duplicate_heads_up(spec: str) -> None:
    result = run_match(ArenaConfig(agents=(spec, spec), hands=40, seed=11))
    assert result.group_net.shape == (20, 2)
    assert np.count_nonzero(result.group_net) == 0  # every group, not just on average
    assert result.rows[0]["mbb_per_hand"] == 0.0 and result.rows[0]["opponent"] == spec


def test_results_identical_for_one_and_two_workers() -> None:
    cfg = {"agents": ("tag", "random", "random"), "hands": 30, "seed": 21}
    one = run_match(ArenaConfig(workers=1, **cfg))
    two = run_match(ArenaConfig(workers=2, **cfg))
    np.testing.assert_array_equal(one.group_net, two.group_net)
    assert one.rows == two.rows
    assert (one.group_net.sum(axis=1) == 0).all()


def test_lineup_repeats_specs_and_rows_aggregate_by_spec() -> None:
    assert lineup_of(["tag", "random"], 5) == ["tag", "random", "tag", "random", "tag"]
    result = run_match(ArenaConfig(agents=("tag", "random"), players=4, hands=8, seed=2))
    assert [r["agent"] for r in result.rows] == ["tag", "random"]
    assert {r["opponent"] for r in result.rows} == {"field"}
    assert {r["seats"] for r in result.rows} == {2}
    # Chips are conserved: the two specs' results cancel.
    assert result.rows[0]["mbb_per_hand"] == pytest.approx(-result.rows[1]["mbb_per_hand"])
    assert "tag" in format_table(result) and "mbb/hand" in format_table(result)


@pytest.mark.parametrize("workers", [1, 2])
def test_illegal_action_stops_the_match_naming_agent_hand_and_action(workers: int) -> None:
    spec = f"{__name__}:CheckOrFold"
    with pytest.raises(AgentError, match=r"agent '.*CheckOrFold' \(seat \d\) returned action 9999, which is not legal .* in hand \d+") as info:
        run_match(ArenaConfig(agents=(spec, "random"), hands=40, seed=1, workers=workers))
    assert info.value.action == 9999 and info.value.agent == spec


def test_agent_exception_is_reported_with_the_agent_and_hand() -> None:
    with pytest.raises(AgentError, match=r"Crashes' \(seat \d\) raised RuntimeError: boom in hand 0"):
        run_match(ArenaConfig(agents=(f"{__name__}:Crashes", "random"), hands=2, seed=1))


def test_on_illegal_timeout_counts_timed_out_turns() -> None:
    spec = f"{__name__}:Crashes"
    result = run_match(ArenaConfig(agents=(spec, "random"), hands=20, seed=1, on_illegal="timeout"), keep_records=True)
    row = {r["agent"]: r for r in result.rows}[spec]
    # Every decision of the crashing agent (contestant 0, at seat -rotation mod 2) is a timeout.
    decisions = sum(
        1
        for i, r in enumerate(result.records)
        for e in r.events
        if hasattr(e, "kind") and getattr(e, "seat", None) == (0 - i % 2) % 2
    )
    assert row["stats"]["timeouts"] == decisions > 0
    flagged = sum(1 for r in result.records for e in r.events if getattr(e, "timeout", False))
    assert 0 < flagged <= decisions  # recorded as timeouts by the env where an id was masked out
    assert row["stats"]["vpip"] == 0.0  # a timed-out turn only ever checks or folds


def test_bad_config_is_refused_with_the_field_named() -> None:
    with pytest.raises(ConfigError, match="players=11"):
        ArenaConfig(agents=("tag",), players=11)
    with pytest.raises(ConfigError, match="3 agents do not fit 2 seats"):
        ArenaConfig(agents=("tag", "tag", "tag"), players=2)
    with pytest.raises(AgentSpecError, match="unknown agent 'bogus'"):
        ArenaConfig(agents=("tag", "bogus"))
    with pytest.raises(ConfigError, match="on_illegal"):
        ArenaConfig(agents=("tag", "random"), on_illegal="ignore")
    with pytest.raises(ConfigError, match="duplicate='no' is invalid: must be True"):
        ArenaConfig(agents=("tag", "random"), duplicate="no")  # a truthy string must not mean duplicate
    with pytest.raises(ConfigError, match="history_dir"):
        ArenaConfig(agents=("tag", "random"), history_dir=3)  # type: ignore[arg-type]


def test_holdem_eval_cli_writes_json_and_phh_history(tmp_path, capsys) -> None:
    out, hist = tmp_path / "r.json", tmp_path / "hands"
    status = main([
        "eval", "tag", "random", "--hands", "10", "--seed", "7", "--workers", "1",
        "--no-progress", "--json", str(out), "--history", str(hist),
    ])
    assert status == 0
    text = capsys.readouterr().out
    assert "tag" in text and "±95%" in text
    data = json.loads(out.read_text())
    assert data["config"]["seed"] == 7 and data["config"]["hands_played"] == 10
    rows = {r["agent"]: r for r in data["results"]}
    assert rows["tag"]["opponent"] == "random" and rows["tag"]["hands"] == 10
    assert set(rows["tag"]["stats"]) >= {"vpip", "pfr", "three_bet", "af", "wtsd", "wsd"}
    assert rows["tag"]["mbb_per_hand"] == pytest.approx(-rows["random"]["mbb_per_hand"])
    files = sorted(hist.glob("*.phh"))
    assert len(files) == 10
    hand = load_file(files[0])[0]
    assert set(hand.players) == {"tag", "random"}


def test_holdem_eval_cli_refuses_unusable_output_paths_before_playing(tmp_path, capsys) -> None:
    status = main(["eval", "tag", "random", "--hands", "2", "--no-progress", "--json", str(tmp_path / "no" / "r.json")])
    assert status == 2 and "does not exist" in capsys.readouterr().err
    afile = tmp_path / "afile"
    afile.write_text("x")
    status = main(["eval", "tag", "random", "--hands", "2", "--no-progress", "--history", str(afile)])
    assert status == 2 and "is a file: give a folder" in capsys.readouterr().err
    assert afile.read_text() == "x"


def test_holdem_eval_cli_unknown_agent_exits_2(capsys) -> None:
    assert main(["eval", "tag", "nosuchbot", "--no-progress"]) == 2
    assert "unknown agent 'nosuchbot'" in capsys.readouterr().err


def test_holdem_eval_tensorboard_logs_running_results(tmp_path) -> None:
    pytest.importorskip("torch")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    logdir = tmp_path / "tb"
    assert main(["eval", "random", "random", "--hands", "8", "--workers", "1", "--no-progress", "--tensorboard", str(logdir)]) == 0
    acc = EventAccumulator(str(logdir))
    acc.Reload()
    tags = acc.Tags()["scalars"]
    assert "eval/0_random/mbb_per_hand" in tags
    assert acc.Scalars("eval/0_random/mbb_per_hand")[-1].value == 0.0  # mirrored duplicate: exactly even


def test_history_falls_back_to_json_records_for_pot_limit(tmp_path) -> None:
    from holdem_env.engine.record import HandRecord

    cfg = ArenaConfig(agents=("random", "random"), hands=4, seed=2, betting="pot-limit", history_dir=str(tmp_path))
    result = run_match(cfg, keep_records=True)
    files = sorted(tmp_path.glob("hand_*.json"))
    assert len(files) == 4 and not list(tmp_path.glob("*.phh"))
    assert HandRecord.from_json(files[0].read_text()).payoffs == result.records[0].payoffs


class Hooked:
    """Records the optional hooks (class-level log: the arena builds its own instances)."""

    log: list = []

    def start_hand(self, info) -> None:
        Hooked.log.append(("start", info["view"]["seat"], tuple(info["view"]["hole_cards"])))

    def act(self, observation, info) -> int:
        return 1

    def end_hand(self, result) -> None:
        Hooked.log.append(("end", result["seat"], result["payoff"]))


def test_json_results_leave_out_the_raw_hud_counters() -> None:
    result = run_match(ArenaConfig(agents=("tag", "random"), hands=4, seed=3))
    row = result.rows[0]
    assert row["hud_counts"]["hands"] == 4 and row["hud_counts"]["vpip"] == round(row["stats"]["vpip"] * 4)
    assert all("hud_counts" not in r for r in result.to_json_dict()["results"])


def test_optional_start_and_end_hooks_are_called_once_per_hand() -> None:
    Hooked.log = []
    spec = f"{__name__}:Hooked"
    result = run_match(ArenaConfig(agents=(spec, "random"), hands=10, seed=6), keep_records=True)
    starts = [e for e in Hooked.log if e[0] == "start"]
    ends = [e for e in Hooked.log if e[0] == "end"]
    assert len(starts) == len(ends) == 10
    for i, (start, end, record) in enumerate(zip(starts, ends, result.records, strict=True)):
        seat = (0 - i % 2) % 2  # contestant 0's seat in rotation i % 2
        assert start[1] == end[1] == seat
        assert end[2] == record.payoffs[seat]
    assert sum(e[2] for e in ends) == result.group_net[:, 0].sum()


def test_the_table_prints_long_specs_whole_and_keeps_its_columns() -> None:
    long_spec = "tag(tightness=1.3, aggression=1.2)"  # longer than the default 24-character column
    result = run_match(ArenaConfig(agents=(long_spec, "random"), players=2, hands=4, seed=1))
    lines = format_table(result).splitlines()
    header, rows = lines[2], lines[3:5]
    assert rows[0].startswith(long_spec + " ")  # the agent column, whole
    agent_width = header.index("vs")
    assert rows[1][agent_width:].startswith(long_spec + " ")  # the opponent column, whole
    hands_end = header.index("hands") + len("hands")  # right-aligned numbers end under their header
    for line, row in zip(rows, result.rows, strict=True):
        assert line[:hands_end].endswith(str(row["hands"]))
