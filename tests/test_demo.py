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
