"""Every command speaks the language asked for (issue 33): run as an organiser runs them
on a tournament day — simulate, ingest, audit, standings, findings, the record, the
statistics, verify, and their refusals — with ``--lang nl|de|nb``, no English word is
left in what they print for people.

The check cannot be fooled by a string missing from the catalogue: it does not look the
output up in the catalogue but reads it for English words that none of the three
languages has (*the*, *and*, *with*, *round*, *players*…). What is data stays as it is
and is left out of the reading: ids (``sim-open-3``, ``sim:…``), codes with an
underscore (``table_incident``), paths, hashes, and the values typed by people.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import duckdb
import pytest
from click.testing import Result
from typer.testing import CliRunner

from cli.main import app
from events.said import read_stored
from events.simulate.recording import NOTE_WORDS
from events.simulate.tournament import simulate_tournament

LANGUAGES: Final = ("nl", "de", "nb")
_ENGLISH: Final = """the and with which that this from round rounds table tables players player points stars star
    findings
    finding games game win wins penalty penalties nothing every there were seats seat stage ended
    cards card why here files file accepted rejected duplicate events event ok checked head chain uploads
    recorded rules ruleset trials low high share mean median most fewest turns action role roles gold digger
    saboteur dwarf selfish map rockfall maps rockfalls expected tournament record reason details"""
ENGLISH_ONLY: Final = frozenset(_ENGLISH.split())
"""English words that are no word of Dutch, German or Norwegian (bokmål); *saboteur* and
*tournament* aside where a language writes them alike: see :data:`SHARED`."""
SHARED: Final = {
    "nl": {"saboteur", "saboteurs", "details", "uploads", "map"},
    "de": {"saboteur", "saboteurs", "details", "uploads", "gold", "median"},
    "nb": {"saboteur", "saboteurs", "median"},
}
"""Words a language writes as English does (*Saboteur*, Dutch and German *Details*,
German *Gold*, Dutch *map*: a folder)."""
DATA: Final = re.compile(
    r"[\w.-]*[_/:=@|\\][^\s]*|\b[0-9a-f]{12,}\b|sim-open-\d+|--[a-z-]+"
    r"|saboteur (?:tournament |archive |checkpoint |stats |simulate )?[a-z-]+"
    r"|table, csv, json(?:, parquet, pdf)?|\btournament (?:create|log|cut|seat|penalty|check)\b"
)
"""Tokens that are data, not words: ids, codes, paths, options and their values,
hashes, the commands a sentence names."""


@dataclass(frozen=True)
class Day:
    logs: Path
    db: Path
    tournament: str
    run: Callable[..., Result]


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Day:
    """A 12-player tournament's preliminary round with referee notes (findings to
    list), simulated once and ingested in English; each test reads it in a language."""
    root = tmp_path_factory.mktemp("day")
    record = simulate_tournament(
        root / "logs", players=12, preliminary_rounds=2, seed=11, cut=6, final_rounds=1, referee_notes=0.05
    )
    runner = CliRunner()

    def run(*args: str) -> Result:
        result = runner.invoke(app, list(args), env={"COLUMNS": "400"})
        assert "Traceback" not in result.output, result.output
        return result

    db = root / "ledger.duckdb"
    assert run("ingest", str(root / "logs"), "--db", str(db)).exit_code in (0, 1)
    return Day(root / "logs", db, record.id, run)


def english_in(text: str, lang: str) -> list[str]:
    """The English words in ``text`` that ``lang`` does not share, the referees' notes
    left out (the simulator writes their free text in English: people's words, as typed)."""
    for note in filter(None, NOTE_WORDS):
        text = text.replace(note, " ")
    words = re.findall(r"[A-Za-zÀ-ÿ]+", DATA.sub(" ", text))
    return sorted({w for w in words if w.lower() in ENGLISH_ONLY - SHARED[lang]})


def commands(day: Day) -> dict[str, tuple[str, ...]]:
    db = ("--db", str(day.db))
    return {
        "standings": ("standings", day.tournament, "--why", *db),
        "findings": ("findings", day.tournament, *db),
        "findings of every game": ("findings", *db),
        "check": ("tournament", "check", day.tournament, *db),
        "log": ("tournament", "log", day.tournament, *db),
        "stats roles": ("stats", "roles", *db),
        "stats players": ("stats", "players", *db),
        "stats games": ("stats", "games", *db),
        "verify": ("verify", *db),
        "audit": ("audit", str(day.logs), "--workers", "1"),
        "ingest again": ("ingest", str(day.logs), *db, "--workers", "1"),
        "no such tournament": ("standings", "nobody-cup", *db),
        "no such findings": ("findings", "nobody-cup", *db),
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_command_speaks_the_language_asked_for(day: Day, lang: str) -> None:
    left: dict[str, list[str]] = {}
    for name, command in commands(day).items():
        result = day.run(*command, "--lang", lang)
        english = english_in(result.output, lang)
        if english:
            left[name] = english
    assert not left, left


def test_the_control_finds_english_where_no_language_is_asked_for(day: Day) -> None:
    """The same commands in English are caught by the same reading: the check sees words."""
    for name, command in commands(day).items():
        if name in ("no such tournament", "no such findings", "check", "verify"):
            continue
        assert english_in(day.run(*command).output, "nl"), name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_option_says_why_in_the_language(day: Day, lang: str) -> None:
    """Click frames a usage error in its own English ("Invalid value for"); the reason
    after it is the command's, in the language asked for."""
    for command in (
        ("stats", "games", "--only", "nope", "--db", str(day.db)),
        ("simulate", "game", "-o", str(day.logs / "x.jsonl"), "--players", "99"),
        ("standings", day.tournament, "--format", "xml", "--db", str(day.db)),
        ("stats", "roles", "--since", "yesterday", "--db", str(day.db)),
        ("stats", "roles", "--format", "xml", "--db", str(day.db)),  # a choice: Click said why in English
        ("stats", "players", "--stage", "semi", "--db", str(day.db)),
    ):
        result = day.run(*command, "--lang", lang)
        assert result.exit_code == 2, result.output
        reason = " ".join(result.output.split()).split("Invalid value for", 1)[1]
        reason = re.sub(r"[│╰─╯]", " ", reason.split(":", 1)[1])
        assert not english_in(reason, lang), (command, reason)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_file_and_an_early_cut_say_why_in_the_language(lang: str, tmp_path: Path) -> None:
    """Why a file was refused (another version of a game stored already, a file that
    cannot be read) and what a cut waits for were English in every language: written
    as text where the rest of the line was a sentence."""
    made = simulate_tournament(tmp_path / "logs", players=12, preliminary_rounds=2, seed=3)
    db = ("--db", str(tmp_path / "s.duckdb"))
    runner = CliRunner()

    def run(*args: str) -> Result:
        return runner.invoke(app, [*args, *db, "--lang", lang], env={"COLUMNS": "400"})

    first = tmp_path / "logs" / "r1-t1.jsonl"
    assert run("ingest", str(tmp_path / "logs" / "tournament.json"), str(first)).exit_code == 0
    other = tmp_path / "other" / "r1-t1.jsonl"  # the same game, written down otherwise
    other.parent.mkdir()
    text = first.read_text(encoding="utf-8")
    other.write_text(re.sub(r'"at":"20(\d\d)', r'"at":"19\1', text, count=1), encoding="utf-8")
    for command in (
        ("ingest", str(other), "--workers", "1"),
        ("ingest", str(tmp_path / "missing.jsonl"), "--workers", "1"),
        ("tournament", "cut", made.id),
    ):
        result = run(*command)
        assert result.exit_code == 1, result.output
        assert "--supersede" in result.output or "missing" in result.output or "cut" in command, result.output
        assert not english_in(result.output.replace("No such file or directory", ""), lang), (command, result.output)
    report = json.loads(
        duckdb.connect(db[1], read_only=True).execute("SELECT report FROM uploads ORDER BY upload_id").fetchall()[2][0]
    )
    assert read_stored(report["rejected_said"]).english() == report["rejected"]  # a page says it in its language


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_store_that_cannot_be_used_is_said_in_the_language(day: Day, lang: str, tmp_path: Path) -> None:
    """A store missing, not a store, or busy ends a command in one line (exit 2), in
    the language asked for: the line was said after the command's language was put
    back, in English."""
    missing = tmp_path / "nowhere.duckdb"
    not_a_store = tmp_path / "notes.duckdb"
    not_a_store.write_text("not a database", encoding="utf-8")
    for command in (
        ("verify", "--db", str(missing)),
        ("stats", "roles", "--db", str(missing)),
        ("standings", day.tournament, "--db", str(not_a_store)),
        ("findings", "--db", str(not_a_store)),
    ):
        result = day.run(*command, "--lang", lang)
        assert result.exit_code == 2, result.output
        line = " ".join(result.output.split()).split(".duckdb: ", 1)[1]
        assert not english_in(line, lang), (command, line)


def _command_paths() -> list[tuple[str, ...]]:
    """Every command and group of ``saboteur``, as typed before ``--help``."""
    import click
    import typer

    root = typer.main.get_command(app)
    context = click.Context(root)
    paths: list[tuple[str, ...]] = [()]
    for name in root.list_commands(context):
        command = root.get_command(context, name)
        paths.append((name,))
        for sub in getattr(command, "commands", {}):
            paths.append((name, sub))
    return paths


HELP_DATA: Final = re.compile(
    r"^\s*Usage:.*$|\[[^\]\n]*\]|<[^>\n]*>|\{[^}\n]*\}|^│\s+(?:\*\s+)?[\w-]+|\b[A-Z]{2,}\b|\btournament[ -][a-z-]+",
    re.M,
)
"""What a help shows that is not its words: Click's "Usage:" line (the command-line
library's own), values and metavars in brackets or capitals, each panel row's first
word (an argument's or a command's name), and the commands and values a help names
(``tournament seat``, ``--stream tournament-file``)."""
CODES: Final = frozenset({"tournament", "table", "player"})
"""Option values a help names as they are typed (``--ruleset tournament``,
``table,player``)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_help_speaks_the_language_asked_for(lang: str) -> None:
    """``saboteur --lang nl … --help``: each command's help, its options' and Typer's
    words around them in the language; the same in English is caught by the same
    reading (the control below)."""
    runner = CliRunner()
    left: dict[str, list[str]] = {}
    for path in _command_paths():
        shown = runner.invoke(app, ["--lang", lang, *path, "--help"], env={"COLUMNS": "400"})
        assert shown.exit_code == 0, (path, shown.output)
        english = [w for w in english_in(HELP_DATA.sub(" ", shown.output), lang) if w.lower() not in CODES]
        if english:
            left[" ".join(path) or "saboteur"] = english
        control = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "400"})
        assert english_in(HELP_DATA.sub(" ", control.output), lang), path
    assert not left, left


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["--lang", "nb-NO"], {}, "Vis denne meldingen"),
        (["--lang", "no"], {}, "Vis denne meldingen"),
        ([], {"SABOTEUR_LANG": "de_DE.UTF-8"}, "Diese Hilfe zeigen"),
        ([], {"SABOTEUR_LANG": "nl_BE"}, "Toon dit bericht"),
    ],
)
def test_a_help_speaks_the_language_a_locale_names(args: list[str], env: dict[str, str], said: str) -> None:
    """``SABOTEUR_LANG=de_DE.UTF-8`` or ``--lang nb-NO``: the commands spoke German or
    Norwegian, their help English."""
    shown = CliRunner().invoke(app, [*args, "standings", "--help"], env={"COLUMNS": "200", **env})
    assert shown.exit_code == 0 and said in shown.output, shown.output


def test_one_of_a_thing_is_said_in_the_singular(tmp_path: Path) -> None:
    """ "1 rondes", "1 Uploads", "1 opplastinger": a sentence of several counts put each
    count's noun in its plural whatever the count."""
    runner = CliRunner()
    log, db = tmp_path / "g.jsonl", tmp_path / "s.duckdb"
    wrote = runner.invoke(app, ["--lang", "nb", "simulate", "game", "--rounds", "1", "-o", str(log)])
    assert wrote.exit_code == 0 and ", 1 runde ved et bord" in wrote.output, wrote.output
    assert runner.invoke(app, ["ingest", str(log), "--db", str(db)]).exit_code == 0
    checked = runner.invoke(app, ["--lang", "de", "verify", "--db", str(db)], env={"COLUMNS": "400"})
    assert "; 1 Upload, Kopf der Uploads" in checked.output, checked.output


def test_a_time_refused_says_which_times_are_taken_in_the_language(tmp_path: Path) -> None:
    """The times taken, "(ISO 8601: … (UTC when no zone is given))", stood English inside
    the Dutch sentence that refused a time."""
    said = CliRunner().invoke(
        app,
        ["--lang", "nl", "stats", "roles", "--db", str(tmp_path / "s.duckdb"), "--since", "gisteren"],
        env={"COLUMNS": "400"},
    )
    assert said.exit_code == 2 and "(UTC als er geen zone staat)" in said.output, said.output


def test_a_key_or_checkpoint_refused_is_said_in_the_language(tmp_path: Path) -> None:
    """The checkpoint's refusals were English text alone, whatever the language."""
    runner = CliRunner()
    key = tmp_path / "organiser.key"
    assert runner.invoke(app, ["checkpoint", "keygen", "--key", str(key)]).exit_code == 0
    again = runner.invoke(app, ["--lang", "nl", "checkpoint", "keygen", "--key", str(key)], env={"COLUMNS": "400"})
    assert again.exit_code == 2 and "bestaat al: een sleutel wordt nooit vervangen" in again.output, again.output
    not_json = tmp_path / "head.json"
    not_json.write_text("{", encoding="utf-8")
    public = str(key) + ".pub"
    read = runner.invoke(
        app,
        [
            "--lang",
            "de",
            "verify",
            "--db",
            str(tmp_path / "s.duckdb"),
            "--checkpoint",
            str(not_json),
            "--public-key",
            public,
        ],
        env={"COLUMNS": "400"},
    )
    assert read.exit_code == 2 and "head.json: kein Checkpoint (kein JSON" in read.output, read.output


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_are_written_as_the_language_writes_them(day: Day, lang: str) -> None:
    """docs/languages.md: a rate of 0.600 is ``0,600`` in Dutch, German and Norwegian,
    and a German reading ``1.500`` reads fifteen hundred; the store's counts have their
    thousands marked as the language marks them."""
    roles = day.run("stats", "roles", "--db", str(day.db), "--lang", lang).output
    assert re.search(r"\b0,\d{3}\b", roles) and not re.search(r"\b0\.\d{3}\b", roles), roles
    checked = day.run("verify", "--db", str(day.db), "--lang", lang).output
    with duckdb.connect(str(day.db), read_only=True) as con:
        (events,) = con.execute("SELECT count(*) FROM events").fetchone() or (0,)
    # not written bare as a number (a hash beside it may hold its digits: 4afa6112205b…)
    assert events >= 1000 and not re.search(rf"(?<![0-9a-f]){events}(?![0-9a-f])", checked), checked
    assert {"nl": f"{events:,}".replace(",", "."), "de": f"{events:,}".replace(",", ".")}.get(
        lang, f"{events:,}".replace(",", "\xa0")
    ) in checked, checked


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_two_columns_share_a_head_in_the_language(lang: str) -> None:
    """Dutch called a finding's line and its rule both "regel", and every language
    called a player's seat and their rank by one word: a table with both read as two
    columns of the same thing. Heads that differ in English differ in every language
    (a singular and its plural aside: "game" and "games" are one word in Norwegian)."""
    from analytics.headings import COLUMNS, heading

    shared: dict[str, set[str]] = {}
    for column in COLUMNS:
        shared.setdefault(heading(column, lang), set()).add(heading(column).removesuffix("s"))
    assert {head: english for head, english in shared.items() if len(english) > 1} == {}


def test_a_language_may_be_named_as_a_locale(day: Day, monkeypatch: pytest.MonkeyPatch) -> None:
    """``SABOTEUR_LANG=nl_NL`` or ``de-AT`` (as a system names its locale, and as the
    dashboard takes a browser's) was refused, exit 2: it is the language it names."""
    from events.language import chosen

    assert [chosen(code) for code in ("nl_NL", "de-AT", "nb_NO.UTF-8", "NO", "en_GB")] == ["nl", "de", "nb", "nb", "en"]
    with pytest.raises(ValueError, match="'fr' is not a language"):
        chosen("fr_FR")
    monkeypatch.setenv("SABOTEUR_LANG", "de-AT")
    result = day.run("findings", day.tournament, "--db", str(day.db))
    assert result.exit_code == 0 and not english_in(result.output, "de"), result.output
