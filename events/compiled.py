"""Which replay runs: the compiled core or the pure-Python sources (see :mod:`events`).

``python -m events.compiled`` says which one an install imports.
"""

from __future__ import annotations

from importlib.machinery import ExtensionFileLoader
from types import ModuleType


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from an extension module, not from Python source."""
    return module.__spec__ is not None and isinstance(module.__spec__.loader, ExtensionFileLoader)


def core() -> str:
    """``"compiled"`` when the replay in use is the compiled core, ``"pure Python"``
    when it runs from its sources."""
    from events import replay

    return "compiled" if is_compiled(replay) else "pure Python"


if __name__ == "__main__":
    from events import replay

    print(f"the {core()} core: {replay.__file__}")
