"""`holdem replay`: JSON lines, --check summary, readable text, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from holdem_env.cli import main
from holdem_env.engine.errors import PHHError
from holdem_env.formats import SAMPLE_HISTORY
from holdem_env.formats.phh import PHHActionError, loads
from holdem_env.formats.replay import replay

DATA = Path(__file__).parent / "data" / "phh"
GOOD = sorted(DATA.glob("*.phh")) + [SAMPLE_HISTORY, DATA / "two_hands.phhs"]


def _lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_json_check_on_good_files_matches_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["replay", "--json", "--check", *map(str, GOOD)])
    rows = _lines(capsys.readouterr().out)
    assert status == 0
    *hands, summary = rows
    assert len(hands) == len(GOOD) + 1  # the .phhs holds two hands
    by_path = {(Path(r["path"]).name, r["hand"]): r for r in hands}
    assert by_path[("pluribus_60_88.phh", None)]["finishing_stacks"] == [9950, 10138, 10000, 10000, 9775, 10137]
    assert by_path[("pluribus_60_88.phh", None)]["match"] is True
    assert by_path[("decimal_blinds.phh", None)]["finishing_stacks"] == [58.75, 37.25, 51.85]
    assert by_path[("two_hands.phhs", "heads-up")]["finishing_stacks"] == [230, 0]
    assert by_path[("two_hands.phhs", "four-handed")]["finishing_stacks"] == [494, 489, 518, 499]
    assert by_path[("dwan-ivey-2009.phh", None)]["finishing_stacks"] == [572100, 1997500, 1109500]
    assert "match" not in by_path[("dwan-ivey-2009.phh", None)]  # no finishing_stacks in the file
    n = len(hands)
    assert summary["summary"] == f"{n} hands, {n - 1} match, 0 differ, 0 errors"


def test_json_error_names_the_action_index_and_exit_one(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "malformed" / "illegal_action.phh"
    status = main(["replay", "--json", str(path)])
    (row,) = _lines(capsys.readouterr().out)
    assert status == 1
    assert row["path"] == str(path) and row["hand"] is None
    assert row["error"].startswith("action 4 'p1 cbr 9': ") and row["action_index"] == 4
    assert "finishing_stacks" not in row


def test_directory_is_searched_recursively_and_errors_are_counted(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["replay", "--json", "--check", str(DATA)])
    rows = _lines(capsys.readouterr().out)
    assert status == 1
    *hands, summary = rows
    errors = {Path(r["path"]).name: r["error"] for r in hands if "error" in r}
    assert set(errors) == {p.name for p in (DATA / "malformed").glob("*.phh*")}
    # One bad section of a .phhs does not hide the good one.
    sections = {r["hand"]: r for r in hands if Path(r["path"]).name == "one_bad_section.phhs"}
    assert sections["good"]["finishing_stacks"] == [98, 102] and sections["good"]["match"] is True
    assert sections["bad"]["error"].startswith("variant='NL' is not supported")
    assert "not valid TOML" in errors["bad_toml.phh"]
    assert "missing required field 'starting_stacks'" in errors["missing_field.phh"]
    assert errors["unknown_action.phh"].startswith("action 3 'p3 raise 6': unknown action")
    assert errors["out_of_turn.phh"].startswith("action 4 'p3 cbr 12': it is p1's turn")
    assert "straddle" in errors["straddle.phh"]
    assert errors["unknown_showdown.phh"] == "the result depends on unknown cards: p2's hole cards are unknown"
    assert summary["errors"] == len(errors) and summary["differ"] == 0
    assert summary["hands"] == len(hands)


def test_check_reports_a_difference_and_exits_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (DATA / "pluribus_41_5.phh").read_text().replace("[9950, 10025,", "[9950, 10026,")
    bad = tmp_path / "changed.phh"
    bad.write_text(text)
    status = main(["replay", "--check", str(bad)])
    out = capsys.readouterr().out
    assert status == 1
    assert "check: DIFFER" in out
    assert out.rstrip().splitlines()[-1] == "1 hands, 0 match, 1 differ, 0 errors"


def test_missing_path_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["replay", "--json", str(tmp_path / "nope.phh")])
    (row,) = _lines(capsys.readouterr().out)
    assert status == 1 and row["error"] == "no such file or directory"


def test_text_output_reads_street_by_street(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["replay", str(SAMPLE_HISTORY)])
    out = capsys.readouterr().out
    assert status == 0
    lines = out.splitlines()
    assert lines[0].endswith("NT 3 players, blinds 1000/2000")
    assert "  seat 3: Tom Dwan (p3) stack 553500, cards 7h 6h [button, ante 500]" in lines
    # Antonius's cards are not in the file: shown as unknown, not as the filler cards.
    assert "  seat 2: Patrik Antonius (p2) stack 2000000, cards ?? ?? [posts 2000, ante 500]" in lines
    order = [next(i for i, ln in enumerate(lines) if ln.startswith(h)) for h in ("Preflop:", "Flop: [Jc 3d 5c]",
             "Turn: [Jc 3d 5c 4h]", "River: [Jc 3d 5c 4h Jh]", "main pot", "Result:")]
    assert order == sorted(order)
    assert "  Tom Dwan (p3) raises to 7000" in lines
    assert "  Patrik Antonius (p2) folds" in lines
    assert "  uncalled 572100 returned to Phil Ivey (p1)" in lines
    assert "  Tom Dwan (p3): 1109500 (+556000)" in lines


def test_subprocess_entry_point(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "holdem_env.cli", "replay", "--json", "--check", str(DATA / "pluribus_30_27.phh")],
        capture_output=True, text=True, timeout=120, cwd=Path(__file__).parent.parent,
    )
    assert proc.returncode == 0, proc.stderr
    row, summary = _lines(proc.stdout)
    assert row["finishing_stacks"] == [9950, 9800, 0, 10000, 10000, 20250]
    assert summary["summary"] == "1 hands, 1 match, 0 differ, 0 errors"


# --------------------------------------------------------------------------- no-op checks PokerKit writes


def _pokerkit_hand_with_a_no_op_check() -> tuple[str, list[int]]:
    """A hand PokerKit plays and writes: p1 is all-in preflop; on the flop p2 folds, which leaves p3
    alone with chips -- PokerKit still asks p3 to act and records its check. Returns the PHH text
    and PokerKit's finishing stacks."""
    import warnings

    from pokerkit import Automation, HandHistory, Mode, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    game = NoLimitTexasHoldem(automations, True, 0, (5, 10), 10, mode=Mode.CASH_GAME)
    state = game((15, 100, 100), 3)
    for cards in ("7sJs", "3d8d", "4dTh"):
        state.deal_hole(cards)
    state.complete_bet_or_raise_to(20)  # p3
    state.check_or_call()  # p1, all-in for 15
    state.check_or_call()  # p2
    state.deal_board("3c6hQh")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state.fold()  # p2
    state.check_or_call()  # p3: the check our engine never asks for
    state.deal_board("6s")
    state.deal_board("Kd")
    assert not state.status
    return HandHistory.from_game_state(game, state).dumps(), list(state.stacks)


def test_pokerkit_no_op_check_is_accepted_with_a_note_and_refused_under_strict(tmp_path: Path, capsys) -> None:
    text, pokerkit_stacks = _pokerkit_hand_with_a_no_op_check()
    actions = loads(text).actions
    assert [a.text for a in actions][-6:-4] == ["p2 f", "p3 cc"]  # PokerKit did write the check
    result = replay(loads(text))
    assert list(result.finishing_stacks) == pokerkit_stacks == [45, 80, 90]
    (note,) = result.notes
    assert "'p3 cc'" in note and "all-in" in note
    with pytest.raises(PHHActionError, match="already over: p3 checks while everyone else"):
        replay(loads(text), repair=False)

    path = tmp_path / "pokerkit.phh"
    path.write_text(text)
    assert main(["replay", "--json", str(path)]) == 0
    (row,) = _lines(capsys.readouterr().out)
    assert row["finishing_stacks"] == [45, 80, 90] and len(row["notes"]) == 1
    assert main(["replay", "--json", "--strict", str(path)]) == 1
    (row,) = _lines(capsys.readouterr().out)
    assert "already over" in row["error"] and row["action_index"] == 8


def test_a_fold_or_bet_after_the_hand_is_over_is_still_refused() -> None:
    text, _ = _pokerkit_hand_with_a_no_op_check()
    hand = loads(text.replace("'p3 cc'", "'p3 f'"))
    with pytest.raises(PHHActionError, match="the hand is already over$"):
        replay(hand)
    hand = loads(text.replace("'p2 f', 'p3 cc'", "'p2 cc', 'p3 cc', 'p1 cc'"))
    with pytest.raises(PHHError):
        replay(hand)
