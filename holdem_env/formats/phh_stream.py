"""Reading hand-history files hand by hand, so that a file of any size replays in bounded memory.

:func:`iter_file` yields the hands of a ``.phh`` or ``.phhs`` file one at a time. A ``.phhs``
file is cut at its section headers (a line ``[name]`` or ``["name"]``, where ``name`` has no
dot) and each section is parsed on its own by :mod:`holdem_env.formats.phh`, so memory
holds one hand at a time: at most :data:`~holdem_env.formats.phh.MAX_HAND_BYTES` of text
(a larger section is reported as an error and skipped without being held). Sub-tables of a
hand (``[name.extra]``) stay with their hand.

A file whose first section header comes after top-level fields (a plain ``.phh`` document)
is one hand and obeys the same size limit. Section headers inside multi-line strings are
not supported (PHH does not use multi-line strings); such a file reports TOML errors for the
sections it cuts apart, never a wrong hand.

>>> import io
>>> hand = 'antes = [0, 0]\\nblinds_or_straddles = [1, 2]\\nmin_bet = 2\\nstarting_stacks = [200, 200]\\n'
>>> hand += 'actions = ["d dh p1 AsKs", "d dh p2 7h2c", "p2 f"]\\n'
>>> text = '[a]\\nvariant = "NT"\\n' + hand + '[b]\\nvariant = "PO"\\n' + hand
>>> [(name, type(item).__name__) for name, item in iter_sections(io.StringIO(text))]
[('a', 'PHHHand'), ('b', 'PHHError')]
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from holdem_env.engine.errors import PHHError
from holdem_env.formats.phh import MAX_HAND_BYTES, PHHHand, _hand_from_table, _parse_toml

__all__ = ["iter_file", "iter_sections"]

_HEADER = re.compile(r'^\[\s*([A-Za-z0-9_-]+|"[^"\\\n]*")\s*\]\s*(#.*)?$')
_CHUNK = 1 << 16  # longest piece of a line read at once


def iter_file(path: str | Path) -> Iterator[tuple[str | None, PHHHand | PHHError]]:
    """The hands of a hand-history file, one at a time: ``(section name or None, hand or its error)``.

    A file that cannot be opened or is not UTF-8 yields one ``(None, PHHError)`` (hands
    before a decoding error are still yielded).
    """
    try:
        fh = open(path, encoding="utf-8", newline="")
    except OSError as exc:
        yield None, PHHError(f"cannot read the file: {exc.strerror}")
        return
    try:
        yield from iter_sections(fh)
    except UnicodeDecodeError as exc:
        yield None, PHHError(f"not UTF-8 text ({exc.reason})")
    finally:
        fh.close()


def iter_sections(stream: TextIO) -> Iterator[tuple[str | None, PHHHand | PHHError]]:
    """:func:`iter_file` on an open text stream."""
    name: str | None = None  # section being collected; None before the first header
    parts: list[str] = []
    size = 0
    too_big = False
    seen: set[str] = set()
    started = False  # a section header was met
    preamble = False  # top-level fields before any header: a plain .phh document
    at_line_start = True
    while True:
        piece = stream.readline(_CHUNK)
        if not piece:
            break
        header = _HEADER.match(piece.rstrip("\r\n")) if at_line_start and not preamble else None
        at_line_start = piece.endswith("\n")
        if header is not None:
            if started:
                yield from _finish(name, parts, too_big, seen, started)
            name = _section_name(header.group(1))
            started, parts, size, too_big = True, [piece], len(piece), False
            continue
        if not started and not preamble and piece.strip() and not piece.lstrip().startswith("#"):
            preamble = True  # the whole file is one document from here on
        size += len(piece)
        if size > MAX_HAND_BYTES:
            too_big, parts = True, []
        elif not too_big:
            parts.append(piece)
    if started or preamble:
        yield from _finish(name, parts, too_big, seen, started, preamble=preamble)
    else:
        yield None, PHHError("the document holds no hand: expected a 'variant' field or [sections] of hands")


def _section_name(raw: str) -> str:
    if raw.startswith('"'):
        try:
            return str(tomllib.loads(f"k = {raw}")["k"])
        except tomllib.TOMLDecodeError:
            return raw.strip('"')
    return raw


def _finish(
    name: str | None, parts: list[str], too_big: bool, seen: set[str], started: bool, *, preamble: bool = False
) -> Iterator[tuple[str | None, PHHHand | PHHError]]:
    """Parse one collected section (or the whole plain document) into its hand or error."""
    label = name if started and not preamble else None
    if too_big:
        yield label, PHHError(f"the hand is larger than {MAX_HAND_BYTES} characters, the limit per hand")
        return
    if not started or preamble:
        text = "".join(parts)
        if not text.strip():
            return
        try:
            doc = _parse_toml(text)
            if "variant" not in doc:
                raise PHHError(
                    "top-level fields come before any [section] and there is no 'variant': "
                    "a .phhs file holds only [sections], one hand each"
                )
            yield None, _hand_from_table(doc, None)
        except PHHError as exc:
            yield None, exc
        return
    assert name is not None
    if name in seen:
        yield label, PHHError("the section name is used twice: section names must be unique")
        return
    seen.add(name)
    try:
        doc = _parse_toml("".join(parts))
        table = doc.get(name)
        if len(doc) != 1 or not isinstance(table, dict):
            raise PHHError("a section must hold one hand's fields")
        yield label, _hand_from_table(table, name)
    except PHHError as exc:
        yield label, exc
