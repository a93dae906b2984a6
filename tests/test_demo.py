"""The README's demo command runs end to end and its round-trip checks pass."""

from __future__ import annotations

import re

from holdem_env.cli import main
from holdem_env.cli.demo import STYLES, lineup


def test_demo_plays_hands_and_replays_the_bundled_history(capsys) -> None:
    assert main(["demo", "--hands", "3", "--players", "6", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("== demo hand") == 3
    assert "Tom Dwan (p3): 1109500 (+556000)" in out


def test_demo_seats_tag_lag_and_calling_stations_at_a_6_max_table(capsys) -> None:
    assert [spec for _, spec in lineup(6)] == ["tag", "lag", "calling-station"] * 2
    assert set(STYLES) == {"tag", "lag", "calling-station"}
    assert main(["demo", "--hands", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    hands = out.split("== demo hand")[1:]
    assert len(hands) == 2
    for hand in hands:  # every bot is dealt in, under its own name, in each hand
        seated = re.findall(r"^  seat \d: (\S+) \(p\d\)", hand, flags=re.M)
        assert sorted(seated) == sorted(name for name, _ in lineup(6)), hand
    net = re.search(r"^after 2 hands: (.*)$", out, flags=re.M)
    assert net is not None
    amounts = dict(re.findall(r"(\S+) ([+-]\d+)", net.group(1)))
    assert set(amounts) == {name for name, _ in lineup(6)} and sum(int(v) for v in amounts.values()) == 0


def test_demo_output_is_a_function_of_the_seed(capsys) -> None:
    outs = []
    for seed in (4, 4, 5):
        assert main(["demo", "--hands", "2", "--seed", str(seed), "--players", "3"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and outs[0] != outs[2]


def test_demo_rejects_negative_hand_count(capsys) -> None:
    assert main(["demo", "--hands", "-1"]) == 2
    assert "--hands must be >= 0" in capsys.readouterr().err


def test_unknown_command_is_a_clear_error(capsys) -> None:
    import pytest

    with pytest.raises(SystemExit) as exc:
        main(["frobnicate"])
    assert exc.value.code == 2
    assert "unknown command 'frobnicate'" in capsys.readouterr().err


def test_demo_bad_arguments_exit_2_with_a_message_and_print_no_hand(capsys, tmp_path) -> None:
    bad_phh = tmp_path / "bad.phh"
    bad_phh.write_text("not = [toml", encoding="utf-8")
    cases = [
        (["--players", "11"], "--players: num_players=11 is invalid: must be an integer in 2..10"),
        (["--seed", "-1"], "--seed must be >= 0 (got -1)"),
        (["--phh", str(tmp_path / "missing.phh")], "cannot read the file"),
        (["--phh", str(bad_phh)], "not valid TOML"),
    ]
    for extra, message in cases:
        assert main(["demo", "--hands", "1", *extra]) == 2
        captured = capsys.readouterr()
        assert message in captured.err
        assert "== demo hand" not in captured.out
