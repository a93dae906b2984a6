"""Hand histories at the edges: huge amounts, deep nesting, oversized hands, streaming (issue 14)."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import pytest

from holdem_env.cli import main
from holdem_env.engine.errors import PHHError
from holdem_env.formats.phh import (
    MAX_ACTIONS,
    MAX_HAND_BYTES,
    PHHHand,
    loads,
    loads_each,
)
from holdem_env.formats.phh_stream import iter_file, iter_sections

DATA = Path(__file__).resolve().parent / "data" / "phh"

HAND = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [{stack}, 200]
actions = ["d dh p1 AsKs", "d dh p2 7h2c", "p2 {action}", "p1 f"]
"""


def _hand(stack: str = "200", action: str = "cbr 6") -> str:
    return HAND.format(stack=stack, action=action)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_hand(action="cbr 1e2000000"), r"bet/raise amount '1e2000000' must be below 10\*\*15"),
        (_hand(action="cbr 1e999999999"), r"must be below 10\*\*15"),
        (_hand(action="cbr " + "9" * 5000), "is not an amount: too long"),
        (_hand(stack="1e5000"), r"starting_stacks\[0\]=Decimal\('1E\+5000'\) is invalid: amounts must be below"),
        (_hand(stack="9" * 5000), "a number has too many digits"),
        (_hand(stack="9" * 40), r"starting_stacks\[0\]=<integer of 40 digits> is invalid: amounts must be below"),
        ("variant = " + "[" * 50_000 + "]" * 50_000, "nested too deeply"),
    ],
)
def test_out_of_range_input_is_a_phh_error(text: str, message: str) -> None:
    with pytest.raises(PHHError, match=message) as exc:
        loads(text)
    assert len(str(exc.value)) < 500


def test_hand_size_and_action_limits() -> None:
    actions = ", ".join(['"p1 cc"'] * (MAX_ACTIONS + 1))
    with pytest.raises(PHHError, match=f"actions has {MAX_ACTIONS + 3} entries: a hand holds at most {MAX_ACTIONS}"):
        loads(_hand().replace('"p2 cbr 6", "p1 f"', actions))
    with pytest.raises(PHHError, match="a hand holds at most 1000000"):
        loads(_hand() + "#" * MAX_HAND_BYTES)


def _names_and_stacks(items) -> list[tuple[str | None, object]]:
    return [(n, h.starting_stacks if isinstance(h, PHHHand) else str(h)) for n, h in items]


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.phh*")), ids=lambda p: p.name)
def test_streaming_reader_agrees_with_the_whole_file_reader(path: Path) -> None:
    text = path.read_text()
    try:
        expected = _names_and_stacks(loads_each(text))
    except PHHError as exc:
        expected = [(None, str(exc))]
    assert _names_and_stacks(iter_file(path)) == expected


def test_sections_stream_one_at_a_time() -> None:
    hands = "".join(f"[h{i}]\n" + _hand(stack=str(100 + i)) for i in range(3))
    stream = iter_sections(io.StringIO(hands))
    assert next(stream)[0] == "h0"  # the first hand comes before the rest is read
    assert [(n, h.starting_stacks[0]) for n, h in stream] == [("h1", 101), ("h2", 102)]


def test_an_oversized_section_is_skipped_in_bounded_memory(tmp_path: Path) -> None:
    padding = ("#" + "x" * 998 + "\n") * (20 * MAX_HAND_BYTES // 1000)  # 20 MB of comment lines
    path = tmp_path / "big.phhs"
    sections = ["[a]\n" + _hand(), "[big]\n" + _hand() + padding, "[b]\n" + _hand(stack="150"), "[a]\n" + _hand()]
    path.write_text("".join(sections))
    del sections
    del padding
    tracemalloc.start()
    try:
        items = list(iter_file(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [n for n, _ in items] == ["a", "big", "b", "a"]
    assert isinstance(items[0][1], PHHHand) and items[2][1].starting_stacks == (150, 200)
    assert "larger than 1000000 characters" in str(items[1][1])
    assert "section name is used twice" in str(items[3][1])
    assert peak < 4 * MAX_HAND_BYTES  # the 20 MB section was never held whole


def test_replay_batch_reports_every_file(tmp_path: Path, capsys) -> None:
    (tmp_path / "a_deep.phh").write_text("variant = " + "[" * 50_000 + "]" * 50_000)
    (tmp_path / "b_huge.phh").write_text(_hand(action="cbr 1e2000000"))
    (tmp_path / "c_binary.phh").write_bytes(b"\xff\xfe\x00\x01")
    (tmp_path / "d_good.phhs").write_text("[x]\n" + _hand() + "[y]\n" + _hand(stack="1e5000"))
    assert main(["replay", "--json", str(tmp_path)]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(Path(r["path"]).name, r["hand"]) for r in rows] == [
        ("a_deep.phh", None), ("b_huge.phh", None), ("c_binary.phh", None), ("d_good.phhs", "x"), ("d_good.phhs", "y"),
    ]
    assert "nested too deeply" in rows[0]["error"] and "below 10**15" in rows[1]["error"]
    assert "not UTF-8" in rows[2]["error"] and "below 10**15" in rows[4]["error"]
    assert rows[3]["finishing_stacks"] == [198, 202]  # p1 (big blind) folds to a raise
