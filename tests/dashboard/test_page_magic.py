"""A page script says only what it means to: Streamlit's "magic" writes every bare
expression statement of a page script on the page, so a string after a name (an
attribute docstring, as the rest of the code keeps them) shows up as text to the
reader. A page script's own docstring, and a function's or a class's, are not shown."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

DASHBOARD: Final = Path(__file__).resolve().parents[2] / "dashboard"
SCRIPTS: Final = sorted([DASHBOARD / "app.py", *(DASHBOARD / "views").glob("*.py")])


def shown_strings(body: list[ast.stmt], docstring_allowed: bool) -> Iterator[int]:
    """The lines of string statements that magic writes on the page, walked as
    Streamlit walks them (``streamlit.runtime.scriptrunner.magic``): into functions,
    ``with``, loops, ``if``, ``try`` and ``match``; in a class, into its methods only."""
    for index, node in enumerate(body):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            if not (index == 0 and docstring_allowed):
                yield node.lineno
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from shown_strings(node.body, docstring_allowed=True)
        elif isinstance(node, ast.ClassDef):
            for method in node.body:
                if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield from shown_strings(method.body, docstring_allowed=True)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                yield from shown_strings(case.body, docstring_allowed=False)
        else:
            blocks = [getattr(node, name, []) for name in ("body", "orelse", "finalbody")]
            blocks += [handler.body for handler in getattr(node, "handlers", [])]
            for block in blocks:
                yield from shown_strings(block, docstring_allowed=False)


@pytest.mark.parametrize(
    "script",
    [pytest.param(path, id=path.name) for path in SCRIPTS if path.name != "__init__.py"],
)
def test_a_page_script_writes_no_string_by_magic(script: Path) -> None:
    tree = ast.parse(script.read_text(encoding="utf-8"))
    assert list(shown_strings(tree.body, docstring_allowed=True)) == []
