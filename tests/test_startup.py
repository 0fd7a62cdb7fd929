"""The ``saboteur`` command starts quickly: each command imports what it needs, when it
runs (``cli/lazy.py``). A command is run in a fresh interpreter and the modules it
loaded are read at its exit; none of the heavy libraries a command does not need may
be among them. (How long the start-up takes is measured, not tested: see the README.)
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest
from typer.main import get_command

from cli.main import Root, app
from events.logfile import write_log
from events.simulate.game import quick_game

HEAVY: Final = ("dask", "distributed", "streamlit", "polars", "pyarrow", "fpdf", "cryptography", "duckdb", "PIL")
"""Libraries that cost a start-up a tenth of a second or more each."""

_RUN: Final = """
import json, sys
from cli.main import app
try:
    app(sys.argv[1:], prog_name="saboteur")
except SystemExit as end:
    code = end.code
else:
    code = 0
heavy = sorted({name.split(".")[0] for name in sys.modules} & set(json.loads(HEAVY)))
print("\\n" + json.dumps({"code": code, "heavy": heavy, "models": "events.schema" in sys.modules}))
"""


def ended(*args: str) -> dict[str, object]:
    """Run ``saboteur ARGS`` in a fresh interpreter: its exit status, the heavy libraries
    it had imported when it ended, and whether it had built the log's models."""
    script = _RUN.replace("json.loads(HEAVY)", repr(list(HEAVY)))
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120, cwd=Path.cwd()
    )
    last = done.stdout.strip().splitlines()[-1]
    result: dict[str, object] = json.loads(last)
    return result


def loaded(*args: str) -> tuple[int, list[str]]:
    """Run ``saboteur ARGS`` in a fresh interpreter: its exit status and the heavy
    libraries it had imported when it ended."""
    result = ended(*args)
    code, heavy = result["code"], result["heavy"]
    assert isinstance(code, int | None) and isinstance(heavy, list), result
    return int(code or 0), [str(name) for name in heavy]


@pytest.fixture(scope="module")
def one_round(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("startup") / "one-round.jsonl"
    path.write_text(write_log(quick_game(players=5, rounds=1, seed=1)), encoding="utf-8")
    return path


def test_the_help_loads_none_of_the_heavy_libraries() -> None:
    assert loaded("--help") == (0, [])


def test_the_help_builds_none_of_the_logs_models() -> None:
    """Pydantic's building of the log's models (``events.schema``) is a third of a bare
    ``saboteur --help``: the help named a tournament's stages through them."""
    help_run = ended("--help")
    assert help_run["code"] in (0, None) and help_run["models"] is False, help_run


def test_an_audit_of_a_small_log_loads_none_of_the_heavy_libraries(one_round: Path) -> None:
    code, heavy = loaded("audit", str(one_round))
    assert code in (0, 1)
    assert heavy == []


def test_a_command_of_the_store_loads_what_it_needs() -> None:
    """The check itself is no blind one: a command that opens the store does load DuckDB."""
    code, heavy = loaded("verify", "--db", "/nonexistent/store.duckdb")
    assert code == 2
    assert "duckdb" in heavy


@pytest.mark.parametrize("name", sorted(Root.lazy))
def test_a_commands_summary_in_the_help_is_its_own(name: str) -> None:
    """What ``saboteur --help`` lists of a command without importing it is the first
    paragraph of the command's own help (a docstring changed must change both)."""
    command = Root.lazy[name].load(name)
    own = inspect.cleandoc(command.help or "").split("\n\n")[0].replace("\n", " ").strip()
    assert Root.lazy[name].summary == own
    assert command.name == name


def test_every_command_is_listed_once_in_its_place() -> None:
    group = get_command(app)
    assert isinstance(group, Root)
    assert group.list_commands(group.make_context("saboteur", ["--help"], resilient_parsing=True)) == list(Root.order)
    assert set(Root.lazy) | {"audit", "schema"} == set(Root.order)


_STORE: Final = """
import json, sys
from pathlib import Path
from ingest.pipeline import ingest
from ingest.stats import IngestStats
from ingest.store import Store
stats = IngestStats()
results = ingest([Path(sys.argv[1])], Store(Path(sys.argv[2])), workers=int(sys.argv[3]), stats=stats)
loaded = sorted({name.split(".")[0] for name in sys.modules} & {"polars", "pandas"})
print(json.dumps({"outcomes": sorted({r.outcome for r in results}), "workers": stats.workers, "loaded": loaded}))
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_storing_files_loads_neither_polars_nor_pandas(tmp_path: Path, workers: int) -> None:
    """The writer, alone or with a pool, makes its rows' Arrow arrays without Polars or
    pandas (``ingest.arrays``): some 35 and 50 MiB of every process of an ingest, the
    workers forked from it included. Seventeen games are two tasks of the pool's, so
    two workers are started (one task would keep only one busy)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for seed in range(1, 18):
        (logs / f"g{seed:02}.jsonl").write_text(write_log(quick_game(players=5, rounds=1, seed=seed)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _STORE, str(logs), str(tmp_path / "s.duckdb"), str(workers)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path.cwd(),
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"outcomes": ["accepted"], "workers": workers, "loaded": []}


def test_a_ctrl_c_while_the_command_loads_ends_it_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C in the tenths of a second Python spends loading the command line (a
    command typed by mistake, stopped at once) printed a ``KeyboardInterrupt`` traceback
    through whichever module was loading: the entry point ends it with status 130."""
    import builtins

    from cli import start

    loading = builtins.__import__

    def interrupted(name: str, *args: object, **kwargs: object) -> object:
        if name == "cli.main":
            raise KeyboardInterrupt
        return loading(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.delitem(sys.modules, "cli.main")
    monkeypatch.setattr(builtins, "__import__", interrupted)
    with pytest.raises(SystemExit) as ended:
        start.main()
    assert ended.value.code == start.STOPPED == 130
    assert "Traceback" not in capsys.readouterr().err


def test_the_command_enters_by_its_quiet_entry_point() -> None:
    """``saboteur`` is ``cli.start:main`` (the installed script runs it)."""
    import tomllib

    scripts = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"
    ]["scripts"]
    assert scripts == {"saboteur": "cli.start:main"}
