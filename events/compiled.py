"""Which replay runs: the compiled core or the pure-Python sources.

An install with a C compiler compiles the replay's hot modules with mypyc (``setup.py``:
``CORE``); each then sits beside its ``.py`` source as an extension module, and Python
imports the extension. The two are the same code, give the same results, and are both
tested; the compiled one is faster, the source one is what pdb, coverage and a
traceback's source lines need.

``SABOTEUR_PURE_PYTHON=1`` in the environment chooses the sources: the package
(``events/__init__.py``) then puts :class:`SourceFinder` first on ``sys.meta_path``,
before any module of the package is imported, and every ``events.*`` module loads from
its ``.py`` file even where a compiled one sits beside it. It is all or nothing: a
compiled module calls the compiled modules of its group directly, so a mix of the two
would hold two kinds of every class.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from types import ModuleType
from typing import Final

PURE_PYTHON: Final = "SABOTEUR_PURE_PYTHON"
"""The environment variable that chooses the pure-Python sources (any value but ``0``)."""

PACKAGE: Final = "events"


def pure_python_chosen() -> bool:
    """Whether the environment asks for the pure-Python sources."""
    return os.environ.get(PURE_PYTHON, "") not in ("", "0")


class SourceFinder(MetaPathFinder):
    """Finds the package's modules among its ``.py`` sources only (compiled bytecode in
    ``__pycache__`` still serves), never among its extension modules."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or not fullname.startswith(PACKAGE + "."):
            return None
        for entry in path:
            finder = importlib.machinery.FileFinder(
                entry, (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
            )
            spec = finder.find_spec(fullname)
            if spec is not None:
                return spec
        return None


def load_sources() -> None:
    """Makes every ``events.*`` module imported from now on load from its source."""
    if not any(isinstance(finder, SourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from an extension module, not from Python source."""
    return isinstance(module.__spec__.loader if module.__spec__ else None, importlib.machinery.ExtensionFileLoader)


def core() -> str:
    """``"compiled"`` when the replay in use is the compiled core, ``"pure Python"``
    when it runs from its sources."""
    from events import replay

    return "compiled" if is_compiled(replay) else "pure Python"
