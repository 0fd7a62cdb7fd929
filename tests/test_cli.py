"""``saboteur audit`` and ``saboteur schema`` (event-log.md, "Audit report").

Most tests drive the typer app in process with ``CliRunner``; one runs the installed
``saboteur`` script, as a user or another tool would.
"""

from __future__ import annotations

import gzip
import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner, Result

from cli import stats
from cli.main import app
from events.builder import LogBuilder
from ingest.store import Store

ROOT = Path(__file__).resolve().parent.parent

DATA = Path(__file__).parent / "data"
GOOD = DATA / "good" / "tournament_3_rounds.jsonl"
REPORT_KEYS = {"file", "game_id", "status", "errors", "warnings", "counts", "violations", "rounds"}
"""The spec's keys, and the full counts (``errors``, ``warnings``, ``counts`` by code):
the list holds the first 1,000 findings of each code, the counts all of them."""
VIOLATION_KEYS = {"code", "line", "round", "player", "rule", "severity", "message", "values"}
"""The spec's keys, and ``values``: what the message is made of, the same in every
language (issue 33; docs/log-format.md, "Audit report")."""
ROUND_KEYS = {"round", "winner", "connector", "scores", "stars"}
MISSED_AT = 52


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(app, [str(arg) for arg in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def reports(result: Result) -> list[dict[str, Any]]:
    """The lines of ``audit --json``, each one JSON object."""
    return [json.loads(line) for line in result.stdout.splitlines()]


def missed_draw_log() -> LogBuilder:
    """bob ends a turn without drawing while the pile has 12 cards; cem plays on."""
    log = LogBuilder(players=6, game_id="nl-open-2026:r1:t3").deal(start="bob")
    for _ in range(24):  # 36 cards in the pile after dealing six hands of five
        log.discard(log.turn)
    assert log.round.pile_count == 12
    log.discard("bob", draw=False).discard("cem")
    assert log.line - 1 == MISSED_AT  # cem's card stands where bob's draw was due
    return log


def folder(tmp_path: Path, logs: dict[str, str]) -> Path:
    """A folder of files by relative path; a ``.gz`` name is written gzip-compressed."""
    root = tmp_path / "logs"
    for name, content in logs.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8")
        path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return root


# -- audit --json --------------------------------------------------------------------


def test_audit_json_prints_one_report_per_file_in_the_spec_shape(tmp_path: Path) -> None:
    logs = {
        "a_good.jsonl": GOOD.read_text(),
        "b_bad.jsonl": missed_draw_log().text(),
        "c/nested/d_good.jsonl.gz": GOOD.read_text(),
        "notes.txt": "not a log",
        "e.json": "{}",
        "f.jsonl.bak": "",
    }
    root = folder(tmp_path, logs)
    result = invoke("audit", "--json", root)
    assert result.exit_code == 1
    lines = reports(result)
    assert [Path(r["file"]).relative_to(root).as_posix() for r in lines] == [
        "a_good.jsonl",
        "b_bad.jsonl",
        "c/nested/d_good.jsonl.gz",
    ]
    for report in lines:
        assert set(report) == REPORT_KEYS
        for violation in report["violations"]:
            assert set(violation) == VIOLATION_KEYS
        for outcome in report["rounds"]:
            assert set(outcome) == ROUND_KEYS
    good, bad, packed = lines
    assert (good["status"], good["violations"], good["game_id"]) == ("clean", [], "fixture:good:tournament")
    assert packed["rounds"] == good["rounds"]
    assert good["rounds"][0] == {
        "round": 1,
        "winner": "gold_diggers",
        "connector": "cem",
        "scores": {"ann": 2, "bob": 2, "cem": 3, "dia": 0, "eve": 0, "fay": 0},
        "stars": ["cem"],
    }
    assert bad["status"] == "violations"
    assert bad["game_id"] == "nl-open-2026:r1:t3"
    assert bad["violations"][0] == {
        "code": "missed_draw",
        "line": MISSED_AT,
        "round": 1,
        "player": "bob",
        "rule": "R-T2",
        "severity": "error",
        "message": "bob ended the turn without drawing; the pile had 12 cards",
        "values": {"player": "bob", "count": 12},
    }
    assert bad["violations"][-1]["severity"] == "warning"  # incomplete: the file stops
    assert bad["rounds"] == []


def test_audit_in_a_pool_reports_every_file_in_order_and_says_how_many_cores(tmp_path: Path) -> None:
    """Two workers give the reports one gives, in the files' order, and say so."""
    logs = {f"{k:02d}.jsonl": (missed_draw_log().text() if k % 3 == 0 else GOOD.read_text()) for k in range(12)}
    logs["07.jsonl"] = ""
    root = folder(tmp_path, logs)
    alone, pooled = invoke("audit", "--json", "--workers", "1", root), invoke("audit", "--json", "--workers", "2", root)
    assert reports(pooled) == reports(alone)
    assert [Path(r["file"]).name for r in reports(pooled)] == sorted(logs)
    assert pooled.exit_code == alone.exit_code == 2
    assert "audited 12 files on 2 cores" in pooled.stderr
    assert "audited 12 files on 1 core " in alone.stderr
    text = invoke("audit", "--workers", "2", root)
    assert text.stdout.index("00.jsonl") < text.stdout.index("07.jsonl") < text.stdout.index("11.jsonl")


def test_audit_json_names_each_file_given(tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    one.write_text(GOOD.read_text())
    result = invoke("audit", "--json", one, GOOD)
    assert result.exit_code == 0
    assert [r["file"] for r in reports(result)] == [str(one), str(GOOD)]


def test_audit_json_is_one_line_a_file_for_every_reader_whatever_a_note_holds(tmp_path: Path) -> None:
    """A referee's note holding a raw U+2028 (or U+2029, U+0085: JSON may hold them raw)
    was written raw into its report, and ``splitlines`` (this file's :func:`reports`)
    read that report as two broken lines. They are written escaped; the text is the
    same once read."""
    breakers = "one\u2028two\u2029three\x85four"
    noted = LogBuilder(players=5, game_id="t:r1:t1").deal(start="ann").note("other", note=breakers, player="ann")
    (tmp_path / "noted.jsonl").write_text("\n".join(noted.lines) + "\n", encoding="utf-8")
    result = invoke("audit", "--json", tmp_path / "noted.jsonl", GOOD)
    assert result.stdout.count("\n") == 2 and not {"\u2028", "\u2029", "\x85"} & set(result.stdout)
    first, second = reports(result)
    assert any(breakers in finding["message"] for finding in first["violations"]), first["violations"]
    assert second["file"] == str(GOOD)


@pytest.mark.parametrize(
    ("files", "status"),
    [
        ({"a.jsonl": "good"}, 0),
        ({"a.jsonl": "good", "b.jsonl": "incomplete"}, 0),
        ({"a.jsonl": "good", "b.jsonl": "bad"}, 1),
        ({"a.jsonl": "good", "b.jsonl": "unreadable"}, 2),
        ({"a.jsonl": "unreadable", "b.jsonl": "bad"}, 2),
        ({"a.jsonl": "bad", "b.jsonl": "unreadable", "c.jsonl": "good"}, 2),
    ],
)
def test_exit_status(tmp_path: Path, files: dict[str, str], status: int) -> None:
    content = {
        "good": GOOD.read_text(),
        "incomplete": (DATA / "bad" / "incomplete.jsonl").read_text(),
        "bad": missed_draw_log().text(),
        "unreadable": "",
    }
    root = folder(tmp_path, {name: content[kind] for name, kind in files.items()})
    assert invoke("audit", "--json", root).exit_code == status
    assert invoke("audit", root).exit_code == status


def test_strict_stops_each_file_at_its_first_error(tmp_path: Path) -> None:
    log = missed_draw_log()
    log.raw({"type": "discard", "player": "zed", "card": "map"})  # a second error
    root = folder(tmp_path, {"a.jsonl": log.text(), "b.jsonl": log.text()})
    lenient = reports(invoke("audit", "--json", root))
    assert [len([v for v in r["violations"] if v["severity"] == "error"]) for r in lenient] == [2, 2]
    result = invoke("audit", "--json", "--strict", root)
    assert result.exit_code == 1
    strict = reports(result)
    assert len(strict) == 2  # every file, each stopped at its own first error
    for report in strict:
        assert [(v["code"], v["line"]) for v in report["violations"]] == [("missed_draw", MISSED_AT)]


def test_a_nonexistent_path_is_unreadable(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.jsonl"
    result = invoke("audit", "--json", missing)
    assert result.exit_code == 2
    [report] = reports(result)
    assert report["file"] == str(missing)
    assert report["status"] == "unreadable"
    assert [v["code"] for v in report["violations"]] == ["malformed"]
    readable = invoke("audit", missing)
    assert readable.exit_code == 2
    assert "unreadable" in readable.stdout


def test_a_nonexistent_path_beside_good_logs_still_exits_2(tmp_path: Path) -> None:
    result = invoke("audit", "--json", GOOD, tmp_path / "nowhere.jsonl")
    assert result.exit_code == 2
    assert [r["status"] for r in reports(result)] == ["clean", "unreadable"]


def test_a_folder_without_logs_exits_2(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no logs here")
    assert invoke("audit", tmp_path).exit_code == 2


def test_audit_without_paths_is_a_usage_error() -> None:
    assert invoke("audit").exit_code == 2


# -- the readable report ----------------------------------------------------------------


def test_the_readable_report_shows_each_violation_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "t3.jsonl"
    path.write_text(missed_draw_log().text())
    result = invoke("audit", path)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert str(path) in lines[0]
    assert "nl-open-2026:r1:t3" in lines[0]
    expected = (
        f"line {MISSED_AT} · round 1 · bob · missed_draw (R-T2): "
        "bob ended the turn without drawing; the pile had 12 cards"
    )
    assert expected in [line.strip() for line in lines]


def test_the_readable_report_shows_each_rounds_outcome() -> None:
    result = invoke("audit", GOOD)
    assert result.exit_code == 0
    assert "clean" in result.stdout
    rounds = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("round ")]
    assert len(rounds) == 3
    assert "gold diggers" in rounds[0] and "cem 3" in rounds[0]
    assert "selfish dwarf" in rounds[1] and "dia 4" in rounds[1]
    assert "saboteurs" in rounds[2] and "eve 3" in rounds[2] and "fay 3" in rounds[2]


def test_markup_in_a_log_is_printed_as_written(tmp_path: Path) -> None:
    """Rich markup in a message (an unknown field named ``[red]``) is text, not style."""
    log = LogBuilder(players=6).deal()
    log.raw({"type": "discard", "player": "ann", "card": "map", "[bold]x[/bold]": 1})
    path = tmp_path / "markup.jsonl"
    path.write_text(log.text())
    result = invoke("audit", path)
    assert "[bold]x[/bold]" in result.stdout


def test_a_lone_surrogate_in_a_key_never_gives_a_traceback(tmp_path: Path) -> None:
    """``"\\ud800"`` is valid JSON but not Unicode text; a duplicate key of it is
    named verbatim in the message, which stdout (UTF-8) cannot encode."""
    log = LogBuilder(players=6).deal()
    log.raw('{"type":"discard","player":"ann","card":"map","\\ud800":1,"\\ud800":2}')
    path = tmp_path / "surrogate.jsonl"
    path.write_text(log.text())
    for args in (("audit", "--json", path), ("audit", path)):
        assert invoke(*args).exit_code == 1
    [report] = reports(invoke("audit", "--json", path))
    assert report["violations"][0]["line"] == 3


# -- the installed script ------------------------------------------------------------------


def test_the_installed_script_audits_a_folder(tmp_path: Path) -> None:
    script = shutil.which("saboteur", path=str(Path(sys.executable).parent)) or shutil.which("saboteur")
    if script is None:
        pytest.skip("the saboteur script is not installed (pip install -e .)")
    root = folder(tmp_path, {"a.jsonl": GOOD.read_text(), "b.jsonl.gz": missed_draw_log().text(), "c.jsonl": ""})
    done = subprocess.run([script, "audit", "--json", str(root)], capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr
    assert done.returncode == 2
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(Path(r["file"]).name, r["status"]) for r in lines] == [
        ("a.jsonl", "clean"),
        ("b.jsonl.gz", "violations"),
        ("c.jsonl", "unreadable"),
    ]
    assert all(set(r) == REPORT_KEYS for r in lines)
    assert lines[2]["violations"][0]["line"] == 1  # an empty file's finding is at line 1


def test_every_stats_command_takes_the_same_filter_options() -> None:
    """The filter options are declared once (``cli.stats._filters``), and so are where
    they are read from (``cli.stats._source``: the store or a lake); both reach every
    ``stats`` command, each beside its own options."""
    group = typer.main.get_group(stats.app)
    filters = ["--tournament", "--stage", "--ruleset", "--since", "--until", "--clean-only", "--min-n"]
    own = {"roles": [], "players": [], "games": ["--only"]}
    for name, command in group.commands.items():
        options = [o for param in command.params for o in param.opts]
        assert options == ["--db", "--lake", "--wait", *filters, "--format", *own[name], "--lang"], name


def test_the_cli_loads_the_pdf_library_only_to_print_a_pdf() -> None:
    """Every command starts by importing the CLI; fpdf alone took some 0.7 s of it, for
    ``tournament standings --format pdf`` only, so it is imported there."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, cli.main; print(sorted(m for m in sys.modules if m.startswith('fpdf')))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"


def test_a_group_of_options_stands_in_the_place_of_its_parameter(tmp_path: Path) -> None:
    """``cli.options.grouped``: ``--db`` and ``--wait`` are declared once and stand where
    a command names ``store``; the command gets the store they name. A command without
    the parameter is refused when it is declared, not when it runs."""
    from cli.options import grouped, opened_store, with_store

    got: list[Store] = []

    @with_store
    def command(tournament: str, *, store: Store) -> None:
        got.append(store)

    assert list(inspect.signature(command).parameters) == ["tournament", "db", "wait"]
    command(tournament="t", db=tmp_path / "x.duckdb", wait=2.5)
    assert got[0].path == tmp_path / "x.duckdb" and got[0].wait == 2.5
    with pytest.raises(TypeError, match="no parameter 'store'"):
        grouped("store", opened_store)(lambda tournament: None)


def test_by_default_a_few_small_files_are_audited_in_this_process_and_large_ones_on_every_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pool costs more to start than a few games take to audit: by default a run gets
    a worker per 2 MiB of files at most, one per core at most, and ``--workers`` as told."""
    from ingest.workers import SHARE_BYTES, size_of, workers_for

    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: set(range(8)))
    assert workers_for(12, None, 180_000) == 1
    assert workers_for(12, None, SHARE_BYTES + 1) == 2
    assert workers_for(12, None, 100 * SHARE_BYTES) == 8  # the cores
    assert workers_for(3, None, 100 * SHARE_BYTES) == 3  # the files
    assert workers_for(12, 4, 1_000) == 4  # as told
    assert workers_for(12) == 8  # no size known: every core
    root = folder(tmp_path, {f"{k:02d}.jsonl": GOOD.read_text() for k in range(12)})
    assert size_of([*root.iterdir(), root / "gone.jsonl"]) == 12 * GOOD.stat().st_size
    assert "audited 12 files on 1 core " in invoke("audit", root).stderr


@pytest.mark.parametrize("command", ["ingest", "audit"])
def test_a_path_it_cannot_read_is_judged_with_the_others_not_refused_up_front(tmp_path: Path, command: str) -> None:
    """A file of many named on the command line that cannot be read is that file's
    rejection (or finding), and the others go on: the option parser refused the whole
    run ("path 'np.jsonl' is not readable", exit 2, nothing ingested). Run as a user
    who cannot read the file: root gives up its right to read any file (setpriv)."""
    good, shut = tmp_path / "ok.jsonl", tmp_path / "shut.jsonl"
    good.write_text(LogBuilder(players=3, ruleset="base").text(), encoding="utf-8")
    shut.write_bytes(good.read_bytes())
    shut.chmod(0)
    args = [sys.executable, "-m", "cli.main", command, str(good), str(shut)]
    if command == "ingest":
        args += ["--db", str(tmp_path / "s.duckdb")]
    if os.geteuid() == 0:
        args = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *args]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == (2 if command == "audit" else 1), done.stdout + done.stderr  # audit: 2 for unreadable
    said = " ".join((done.stdout + done.stderr).split())
    assert "Permission denied" in said and "not readable" not in said
    assert "Traceback" not in said  # python -m cli.main ran the command before the module's end was read


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (("simulate", "game", "-o", "g.jsonl", "--game-id", "bad:id!"), "--game-id"),
        (("simulate", "tournament", "-o", "made", "--id", "bad!id"), "--id"),
        (("simulate", "tournament", "-o", "made", "--name", "W" * 201), "--name"),
    ],
    ids=["game-id", "tournament-id", "tournament-name"],
)
def test_simulate_refuses_an_id_or_a_name_the_format_refuses_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...], option: str
) -> None:
    """It said pydantic's validation error, after making the tournament's folder."""
    monkeypatch.chdir(tmp_path)
    result = invoke(*command)
    assert result.exit_code == 2 and f"Invalid value for {option}" in result.output, result.output
    assert "ValidationError" not in result.output
    assert not (tmp_path / "made").exists() and not (tmp_path / "g.jsonl").exists()


def test_no_worker_is_no_way_to_ingest(tmp_path: Path) -> None:
    """``ingest --workers 0`` was taken (``audit`` refused it): a usage error, and the
    store is not made."""
    log = tmp_path / "g.jsonl"
    log.write_text(LogBuilder(players=5).deal().text(), encoding="utf-8")
    for command in (["ingest", "--db", str(tmp_path / "s.duckdb")], ["audit"]):
        result = CliRunner().invoke(app, [*command, str(log), "--workers", "0"])
        assert result.exit_code == 2 and "--workers" in result.output, (command, result.output)
    assert not (tmp_path / "s.duckdb").exists()


def test_the_dashboard_shows_no_visitor_a_traceback() -> None:
    """A fault on a public page showed every visitor its traceback: the server's paths
    and the text that broke it. The server is started to say the error's type only (the
    traceback goes to its own log)."""
    from cli.dashboard import command

    started = command(8501, Path("ledger.duckdb"))
    shown = started.index("--client.showErrorDetails")
    assert started[shown + 1] == "type"
    from streamlit import config

    assert "type" in config._config_options_template["client.showErrorDetails"].description  # a value it takes


def test_seat_help_names_every_method_it_takes() -> None:
    """``seat --method random`` is taken (and named when a method is mistyped), but the
    help named mixed and swiss alone."""
    from typing import get_args

    from analytics.seating import Method

    result = CliRunner().invoke(app, ["tournament", "seat", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for method in get_args(Method):
        assert f"{method} (" in result.output, method
