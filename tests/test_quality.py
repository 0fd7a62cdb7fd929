"""The code base stays ruff- and mypy-clean (the habit of both style anchors)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return found


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [
            _tool("ruff"),
            "check",
            "events",
            "cli",
            "ingest",
            "analytics",
            "dashboard",
            "tests",
            "fuzz",
            "examples",
            "benchmarks",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    result = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_docstring_example_runs() -> None:
    """An example in a docstring is a claim about the code; nothing ran most of them, and
    some had gone stale (a score sheet's line counter's example was not even one: its
    ``\\r`` and ``\\n`` were real line ends in the docstring). Run in a fresh interpreter
    on the modules as written (not the compiled ones, whose docstrings are theirs too)."""
    packages = ("events", "ingest", "analytics", "dashboard", "cli")
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for package in packages
        for path in (ROOT / package).rglob("*.py")
        if ">>> " in path.read_text(encoding="utf-8") and "views" not in path.parts  # a page runs when imported
    )
    script = (
        "import doctest, importlib, sys\n"
        "failed = []\n"
        "for name in sys.argv[1:]:\n"
        "    result = doctest.testmod(importlib.import_module(name))\n"
        "    if result.failed or not result.attempted:\n"
        "        failed.append(name)\n"
        "print(' '.join(failed))\n"
    )
    env = {**os.environ, "SABOTEUR_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, "-c", script, *modules], capture_output=True, text=True, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(modules) > 20 and done.stdout.strip() == "", done.stdout[-3000:]
