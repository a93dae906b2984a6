"""Griffe extension for the API reference: the mapped packages, and reST docstrings as Markdown.

1. setup.py installs the repository's top-level ``agents/`` and ``training/`` folders as
   ``holdem_env.agents`` and ``holdem_env.training`` (``package_dir``). Griffe, which reads the
   sources for mkdocstrings, sees only the folders on disk, so when it has read
   ``holdem_env/__init__.py`` this extension loads the two folders (same docstring parser, same
   extensions) and attaches them to it: ``::: holdem_env.agents.base`` then resolves, and so do
   the imports between the packages.
2. The docstrings are written in reStructuredText habits (``code``, :mod:`x` roles, doctest
   lines, simple tables, ``::`` before an indented block); mkdocstrings renders Markdown. Each
   docstring gets its doctest runs fenced as ``pycon`` code, its simple tables (``===`` borders)
   fenced as text, its roles turned into inline code and a closing ``::`` turned into ``:`` (the
   docstring in the source is unchanged).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import griffe

MAPPED = ("agents", "training")  # as setup.py's MAPPED
_TABLE_BORDER = re.compile(r"^=+( +=+)+$")
_ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|obj|exc|const):`~?([^`]+)`")


def markdown_of(text: str) -> str:
    """A reST-flavoured docstring as Markdown: doctests and tables fenced, roles as code, ``::`` as ``:``."""
    out: list[str] = []
    in_doctest = False
    table_borders = 0  # borders seen in the simple table being copied (a table has three)
    for line in text.splitlines():
        stripped = line.strip()
        if table_borders or (_TABLE_BORDER.match(stripped) and not in_doctest):
            if not table_borders:
                out += ["", "```text"]
            out.append(line)
            if _TABLE_BORDER.match(stripped):
                table_borders += 1
            if table_borders == 3:
                out += ["```", ""]
                table_borders = 0
            continue
        if stripped.startswith(">>>") and not in_doctest:
            out += ["", "```pycon"]
            in_doctest = True
        elif in_doctest and not stripped:
            out += ["```", ""]
            in_doctest = False
            continue
        if in_doctest:
            out.append(line)
            continue
        line = _ROLE.sub(r"`\1`", line)
        if line.endswith("::") and stripped != "::":
            line = line[:-1]
        out.append(line)
    if in_doctest or table_borders:
        out.append("```")
    return "\n".join(out)


class HoldemDocs(griffe.Extension):
    """Attach the mapped folders to ``holdem_env`` and turn every docstring into Markdown."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of(obj.docstring.value)

    def on_module_members(self, *, node: Any, mod: griffe.Module, agent: Any, **kwargs: Any) -> None:
        if mod.path != "holdem_env" or not isinstance(agent, griffe.Visitor):
            return
        root = Path(str(mod.filepath)).parent.parent
        loader = griffe.GriffeLoader(
            extensions=agent.extensions,
            search_paths=[root],
            docstring_parser=agent.docstring_parser,
            docstring_options=agent.docstring_options,
            lines_collection=agent.lines_collection,
            allow_inspection=False,  # the .py sources, never the compiled build's extension modules
        )
        for folder in MAPPED:
            package = loader.load(folder)
            if not isinstance(package, griffe.Module):
                raise TypeError(f"griffe loaded {folder!r} as {type(package).__name__}, expected a module")
            mod.set_member(folder, package)
