"""The README's demo command runs end to end and its round-trip checks pass."""

from __future__ import annotations

from holdem_env.cli import main


def test_demo_plays_hands_and_replays_the_bundled_history(capsys) -> None:
    assert main(["demo", "--hands", "3", "--players", "6", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("== demo hand") == 3
    assert "Tom Dwan (p3): 1109500 (+556000)" in out


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
