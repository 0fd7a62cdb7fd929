"""The domain: the log's events, the cards, the rules and the replay that judges a log.

An install with a C compiler compiles the replay's hot modules with mypyc (``setup.py``:
``CORE``); each then sits beside its ``.py`` source as an extension module, and Python
imports the extension (:mod:`events.compiled` says which core is in use). The two are
the same code, give the same results, and are both tested; the compiled one is faster,
the source one is what pdb, coverage and a traceback's source lines need.

``SABOTEUR_PURE_PYTHON=1`` in the environment chooses the sources: it is read here,
before any module of the package is imported, and puts :class:`SourceFinder` first on
``sys.meta_path``, so that every ``events.*`` module loads from its ``.py`` file even
where a compiled one sits beside it. It is all or nothing: a compiled module calls the
other compiled modules of its group directly, so a mix would hold two kinds of every
class.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from types import ModuleType
from typing import Final

PURE_PYTHON: Final = "SABOTEUR_PURE_PYTHON"
"""The environment variable that chooses the pure-Python sources (any value but ``0``)."""


class SourceFinder(MetaPathFinder):
    """Finds the package's modules among their ``.py`` sources only (their bytecode in
    ``__pycache__`` still serves), never among the extension modules beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if path is None or not fullname.startswith(__name__ + "."):
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
            if spec is not None:
                return spec
        return None


if os.environ.get(PURE_PYTHON, "") not in ("", "0"):
    sys.meta_path.insert(0, SourceFinder())
