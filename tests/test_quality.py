"""The code base stays ruff- and mypy-clean (the habit of both style anchors)."""

from __future__ import annotations

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
