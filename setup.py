"""The build: the replay's core compiled to C by mypyc when a C compiler is at hand.

Everything else about the package is in ``pyproject.toml``. The modules of ``CORE`` are
the audit's hot path — reading lines, the replay, the maze, the rule checks — and mypyc
compiles the same typed source to C extension modules, which replay a log about one and
a half times as fast (``benchmarks/replay.py``). Nothing else is compiled: the visitors,
the models, the store and the dashboard stay pure Python.

The compile is an option, never a condition of installing. Without a C compiler or
Python's headers, without mypyc (``--no-build-isolation`` in an environment without
mypy), if the compile fails, or with ``SABOTEUR_PURE_PYTHON=1`` set at install, the
package installs as pure Python and says so here. The same variable at run time makes
an installed compiled core load from its ``.py`` sources (``events.compiled``).
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CORE = [
    "events/cards.py",
    "events/logfile.py",
    "events/maze.py",
    "events/state.py",
    "events/replay.py",
    "events/structs.py",
    "events/observe.py",
    "events/rules/actions.py",
    "events/rules/ending.py",
    "events/rules/goals.py",
    "events/rules/placement.py",
    "events/rules/scoring.py",
    "events/rules/setup.py",
    "events/rules/turns.py",
]
"""The compiled modules. ``events/visitor.py`` cannot be one: the product's visitors
subclass its interpreted base class."""

SHARED_LIBRARY = "events._core"
"""mypyc's group: the shared library ``events/_core__mypyc…so`` that holds the compiled
code, beside one small module of the same name for each ``.py`` of ``CORE``."""

BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
"""The commands that build extensions: setuptools also runs this file only to read the
metadata (``egg_info``, ``dist_info``), which needs no compile."""


def warn(why: str) -> None:
    print(
        f"\n*** saboteur-ledger: {why}; installing the pure-Python replay (the same results, slower). ***\n",
        file=sys.stderr,
    )


def missing_compiler() -> str | None:
    """Why no C extension can be built here, or ``None`` when a C file that includes
    ``Python.h`` compiles."""
    from distutils.ccompiler import new_compiler
    from distutils.errors import CCompilerError, DistutilsError
    from distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe.c"
        probe.write_text("#include <Python.h>\nint main(void) { return 0; }\n")
        try:
            compiler.compile([str(probe)], output_dir=folder, include_dirs=[sysconfig.get_paths()["include"]])
        except (CCompilerError, DistutilsError, OSError) as error:
            return f"no working C compiler with Python's headers ({error})"
    return None


def why_pure() -> str | None:
    """Why this build stays pure Python, or ``None`` when it compiles the core."""
    if os.environ.get("SABOTEUR_PURE_PYTHON", "") not in ("", "0"):
        return "SABOTEUR_PURE_PYTHON is set"
    try:
        import mypyc.build  # noqa: F401 — only asking whether it is there
    except ImportError:
        return "mypyc is not installed (it comes with mypy)"
    return missing_compiler()


def remove_compiled() -> None:
    """Deletes the compiled modules an earlier editable build left beside the sources:
    they would be imported instead of the ``.py`` files."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in [*CORE, SHARED_LIBRARY.replace(".", "/") + "__mypyc.py"]:
        Path(name).with_suffix(suffix).unlink(missing_ok=True)


def compiled_core() -> list[Extension]:
    """The extension modules of ``CORE``, or none when they cannot be built here."""
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    why = why_pure()
    if why is not None:
        warn(why)
        remove_compiled()
        return []
    from mypyc.build import mypycify

    try:
        return mypycify(CORE, opt_level="3", group_name=SHARED_LIBRARY)
    except (Exception, SystemExit) as error:
        # mypy's type check (its errors are printed above) or mypyc itself
        warn(f"mypyc could not compile the core ({error!r})")
        remove_compiled()
        return []


class BuildCore(build_ext):
    """Builds the compiled core, or warns and leaves the package pure Python if the C
    compiler fails on it: a half-built core (the shared library without a module, or a
    module without it) would not import, so whatever was built is removed."""

    def run(self) -> None:
        from distutils.errors import CCompilerError, DistutilsError

        try:
            super().run()
        except (CCompilerError, DistutilsError, OSError) as error:
            warn(f"the compile failed ({error})")
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            remove_compiled()


setup(ext_modules=compiled_core(), cmdclass={"build_ext": BuildCore})
