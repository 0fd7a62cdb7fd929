"""Both replays are tested: the compiled core an install builds, and the pure-Python sources.

An install with a C compiler compiles the replay's hot modules with mypyc (``setup.py``),
and the suite then runs on them. Here it is shown which one each run uses, that
``SABOTEUR_PURE_PYTHON=1`` does load every ``events`` module from its source, and the
rules, the replay and the property tests run again on the sources, so a difference
between the two (mypyc compiles the same code with stricter types) fails the suite. A
run that expects the compiled core (``.ci/run`` sets ``SABOTEUR_EXPECT_COMPILED=1``)
fails if it is not the one in use: a missing compiler cannot leave CI testing only one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Final

import pytest

from events import PURE_PYTHON, replay
from events.compiled import core, is_compiled
from tests.simulate.strategies import RERUN

ROOT: Final = Path(__file__).resolve().parent.parent
EXPECT_COMPILED: Final = os.environ.get("SABOTEUR_EXPECT_COMPILED", "") not in ("", "0")

PURE_SUITE: Final = [
    "tests/rules",
    "tests/simulate/test_properties.py",
    "tests/simulate/test_observed.py",
    "tests/test_visitor.py",
    "tests/test_bad_input.py",
    "tests/test_fixtures.py",
    "tests/test_examples.py",
]
"""What runs again on the sources when the suite runs compiled: every rule's legal and
illegal cases, the replay of both recordings, the property tests of whole simulated
games (each mutation reported at its line, both recordings alike), the bad and the
fixture logs; the properties on a third of their examples
(:func:`tests.simulate.strategies.examples`). Not the simulator's own tests (``tests/simulate/test_simulate.py``: how
it seats tables, what its games hold, its command), whose replays of simulated games
the property tests make too: some 17 s of a run on the sources."""

LOADERS: Final = """
import importlib, json, pkgutil, sys
import events
for module in pkgutil.walk_packages(events.__path__, "events."):
    if not module.name.endswith("__mypyc"):  # mypyc's shared library: the compiled modules import it
        importlib.import_module(module.name)
print(json.dumps({
    name: type(module.__spec__.loader).__name__
    for name, module in sys.modules.items()
    if name.startswith("events.") and module.__spec__ is not None
}))
"""
"""Imports every module of the package and prints the loader of each one imported."""


def loaders(*, pure: bool) -> dict[str, str]:
    """The loader of every ``events`` module in a fresh interpreter, with or without the
    switch to the sources."""
    env = {k: v for k, v in os.environ.items() if k != PURE_PYTHON}
    if pure:
        env[PURE_PYTHON] = "1"
    result = subprocess.run(
        [sys.executable, "-c", LOADERS], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    found: dict[str, str] = json.loads(result.stdout)
    return found


def built() -> bool:
    """Whether a compiled replay sits beside its source for this interpreter."""
    folder = Path(replay.__file__).parent
    return any((folder / f"replay{suffix}").exists() for suffix in EXTENSION_SUFFIXES)


def test_the_switch_loads_every_module_from_its_source() -> None:
    found = loaders(pure=True)
    assert "events.replay" in found and "events.rules.turns" in found
    assert {name: loader for name, loader in found.items() if loader != "SourceFileLoader"} == {}


def test_without_the_switch_a_built_core_is_the_one_imported() -> None:
    if not built():
        pytest.skip("no compiled core was built beside the sources (pure-Python install)")
    found = loaders(pure=False)
    compiled = {name for name, loader in found.items() if loader == "ExtensionFileLoader"}
    assert {"events.replay", "events.maze", "events.logfile", "events.rules.turns"} <= compiled
    assert "events._core__mypyc" in compiled
    assert found["events.visitor"] == "SourceFileLoader"  # subclassed by interpreted visitors


def test_this_run_uses_the_compiled_core_when_it_is_expected() -> None:
    if not EXPECT_COMPILED:
        pytest.skip("SABOTEUR_EXPECT_COMPILED is not set")
    assert is_compiled(replay), (
        f"the compiled core was expected but {replay.__file__} is in use: was there no C compiler at install? "
        "(pip install -v -e . says why)"
    )
    assert core() == "compiled"


PURE_PARTS: Final = {
    "the tournament's rules": ["tests/rules/test_tournament.py"],
    "the sentences and the structs": ["tests/rules/test_language.py", "tests/rules/test_structs.py"],
    "the other rules": [
        "tests/rules",
        "--ignore=tests/rules/test_tournament.py",
        "--ignore=tests/rules/test_language.py",
        "--ignore=tests/rules/test_structs.py",
    ],
    "the properties and the logs": [part for part in PURE_SUITE if not part.startswith("tests/rules")],
}
""":data:`PURE_SUITE` in four runs of some 15 to 20 s of processor each, one test each:
as one test it was the suite's longest (118 s on two busy cores), and a worker ran it
alone at the end of a run while the other had nothing left to take. Each file of
:data:`PURE_SUITE` is in exactly one part (:func:`test_the_parts_rerun_every_file_once`);
a rule file added later falls in "the other rules"."""


def files(arguments: list[str]) -> Counter[str]:
    """The test files a pytest command line of paths (and ``--ignore=``) collects."""
    ignored = {ROOT / part.removeprefix("--ignore=") for part in arguments if part.startswith("--ignore=")}
    found: Counter[str] = Counter()
    for part in arguments:
        if part.startswith("--"):
            continue
        path = ROOT / part
        for file in sorted(path.glob("test_*.py")) if path.is_dir() else [path]:
            if file not in ignored:
                found[str(file.relative_to(ROOT))] += 1
    return found


def test_the_parts_rerun_every_file_once() -> None:
    everything = files(PURE_SUITE)
    assert "tests/rules/test_turns.py" in everything and "tests/test_examples.py" in everything
    parts = Counter[str]()
    for arguments in PURE_PARTS.values():
        parts.update(files(arguments))
    assert parts == everything


@pytest.mark.parametrize("part", list(PURE_PARTS))
def test_the_rules_and_the_replay_pass_on_the_pure_python_sources(part: str) -> None:
    if not is_compiled(replay):
        pytest.skip("this run is on the pure-Python sources already")
    env = {**os.environ, PURE_PYTHON: "1", RERUN: "1"}
    result = subprocess.run(
        # one process: this test runs beside the suite's other worker already
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *PURE_PARTS[part]],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout.splitlines()[-1]


def test_no_compiled_module_is_older_than_its_source() -> None:
    """An editable install compiles once: a module edited since is still imported
    compiled, and the suite would test the old code. Run the install again."""
    folder = Path(replay.__file__).parent
    stale = [
        str(source.relative_to(folder.parent))
        for source in sorted(folder.rglob("*.py"))
        for suffix in EXTENSION_SUFFIXES
        if (compiled := source.with_suffix(suffix)).exists() and compiled.stat().st_mtime < source.stat().st_mtime
    ]
    assert stale == [], f"edited since they were compiled (pip install -e . compiles them again): {stale}"
