"""The docs run: every ```python block of README.md and docs/ runs alone, and the README stays a quickstart.

Each block runs by itself in a fresh interpreter (this venv's Python) with a temporary folder as
its working directory, so a block must import what it uses. A block whose first line is
``# cwd: repository root`` runs in the repository root instead (for files such as
``tests/data/phh/``). A block that cannot run here (it needs a browser, trains for minutes, ...)
starts with ``# not run: <why>`` and is not run; the reason must be given.

The README is a quickstart: at most 200 lines, and no benchmark figures (every figure lives in
``benchmarks/BENCHMARKS.md``; a ``±`` is the sign of one). The site's own build (``make docs``,
``mkdocs build --strict``) is part of ``make test``; here the nav is checked to hold every page.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
NOT_RUN = "# not run:"
REPO_CWD = "# cwd: repository root"
TIMEOUT_S = 120  # per block; blocks are written to take seconds
README_MAX_LINES = 200


@dataclass(frozen=True)
class Block:
    """One fenced ```python block: where it starts (the first code line, 1-based) and its code."""

    path: Path
    line: int
    code: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path}:{self.line}"

    @property
    def first_line(self) -> str:
        return self.code.lstrip("\n").split("\n", 1)[0].strip()


_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


def python_blocks(path: Path) -> list[Block]:
    """The ```python blocks of a Markdown file, dedented by their fence's indentation."""
    blocks = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, lang = match.groups()
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        if end == len(lines):
            raise AssertionError(f"{path}:{i + 1}: the code block opened here is never closed")
        if lang in ("python", "py"):
            body = [line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : end]]
            blocks.append(Block(path, i + 2, "\n".join(body) + "\n"))
        i = end + 1
    return blocks


def doc_files() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def all_blocks() -> list[Block]:
    return [block for path in doc_files() for block in python_blocks(path)]


def run_block(block: Block, tmp_path: Path) -> None:
    """Run one block in a fresh interpreter; fail with the block's file and line when it fails."""
    script = tmp_path / "doc_block.py"
    script.write_text(block.code, encoding="utf-8")
    cwd = ROOT if block.first_line == REPO_CWD else tmp_path
    try:
        done = subprocess.run(
            [sys.executable, str(script)], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{block.where}: the block ran longer than {TIMEOUT_S} s (docs blocks must take seconds)")
    if done.returncode != 0:
        pytest.fail(f"{block.where}: the block failed (exit {done.returncode}):\n{done.stderr[-3000:]}")


RUNNABLE = [b for b in all_blocks() if not b.first_line.startswith(NOT_RUN)]


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.where for b in RUNNABLE])
def test_block_runs(block: Block, tmp_path: Path) -> None:
    run_block(block, tmp_path)


def test_blocks_not_run_say_why() -> None:
    skipped = [b for b in all_blocks() if b.first_line.startswith(NOT_RUN)]
    for block in skipped:
        assert block.first_line[len(NOT_RUN) :].strip(), f"{block.where}: '{NOT_RUN}' needs a reason after the colon"
    assert len(skipped) < len(RUNNABLE), "most blocks must run"


def test_there_are_blocks_to_run() -> None:
    assert any(b.path == README for b in RUNNABLE), "the README's quickstart has a Python block that runs"
    assert len(RUNNABLE) >= 8


def test_extractor_and_runner_report_file_and_line(tmp_path: Path) -> None:
    """The harness itself: blocks found with their first code line, a failing one named by file and line."""
    doc = tmp_path / "page.md"
    doc.write_text(
        "# t\n\n```python\nprint('ok')\n```\n\n```bash\nexit 1\n```\n\n- item\n\n    ```python\n    raise SystemExit(3)\n    ```\n",
        encoding="utf-8",
    )
    blocks = python_blocks(doc)
    assert [(b.line, b.code) for b in blocks] == [(4, "print('ok')\n"), (14, "raise SystemExit(3)\n")]
    run_block(blocks[0], tmp_path)
    with pytest.raises(pytest.fail.Exception, match=r"page\.md:14: the block failed \(exit 3\)"):
        run_block(blocks[1], tmp_path)
    (tmp_path / "open.md").write_text("```python\nx = 1\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="never closed"):
        python_blocks(tmp_path / "open.md")


def test_readme_is_a_quickstart() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES, f"README.md has {len(text.splitlines())} lines: at most 200"
    assert "±" not in text, "README.md quotes a measured figure: figures live in benchmarks/BENCHMARKS.md"
    for command in ("make venv", "make train", "make test", "holdem play", "holdem eval"):
        assert command in text, f"the README's quickstart lost {command!r}"


def test_readme_links_point_to_files() -> None:
    """The README is read on GitHub and PyPI, outside the site (whose build checks its own links)."""
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    local = [t for t in targets if "://" not in t]
    assert local, "the README links to the docs pages"
    for target in local:
        assert (ROOT / target).exists(), f"README.md links to {target}, which does not exist"


def test_docs_quote_no_benchmark_figures() -> None:
    for path in sorted(DOCS.rglob("*.md")):
        assert "±" not in path.read_text(encoding="utf-8"), f"{path.relative_to(ROOT)} quotes a measured figure"


def _nav_pages(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in _nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return []


def test_every_docs_page_is_in_the_nav() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = _nav_pages(config["nav"])
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert sorted(nav) == pages, f"mkdocs.yml's nav {sorted(nav)} differs from the pages in docs/ {pages}"


def test_griffe_extension_turns_rest_into_markdown() -> None:
    pytest.importorskip("griffe")
    sys.path.insert(0, str(DOCS))
    try:
        from griffe_holdem import markdown_of  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(DOCS))
    text = "Any object with::\n\n    def act(...)\n\nSee :mod:`holdem_env.agents.base` and :class:`~x.Y`.\n\n>>> a[1]['b']\n2\n\nAfter."
    assert markdown_of(text) == (
        "Any object with:\n\n    def act(...)\n\nSee `holdem_env.agents.base` and `x.Y`.\n\n\n```pycon\n>>> a[1]['b']\n2\n```\n\nAfter."
    )
    table = "Keys\n\n====  =====\nname  meaning\n====  =====\n``a``   one\n====  =====\nafter"
    assert markdown_of(table) == (
        "Keys\n\n\n```text\n====  =====\nname  meaning\n====  =====\n``a``   one\n====  =====\n```\n\nafter"
    )
