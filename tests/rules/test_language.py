"""Findings in Dutch, German and Norwegian (issue 33): the catalogues of
``events/locales`` hold every sentence the replay can say, translated, with the same
blanks; every kind of finding reads in every language; ``saboteur audit --lang``
prints them, and ``--json`` keeps the codes and values whatever the language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from cli.main import app
from events.audit import audit
from events.builder import LogBuilder
from events.findings import Code
from events.language import LANGUAGES, LOCALES, catalogue, chosen, describe, sentences, template, words
from events.said import Said, say
from events.schema import dump_event
from events.simulate.game import quick_game
from events.simulate.mutate import MUTATIONS, mutate

TRANSLATED = LANGUAGES[1:]
BLANK = re.compile(r"%\((\w+)\)s")


def _ids(catalog: object) -> set[object]:
    return {(m.context, m.id) if m.context else m.id for m in catalog if m.id}  # type: ignore[attr-defined]


def test_the_template_holds_every_sentence_the_code_says() -> None:
    """``findings.pot`` is what ``python -m events.language`` makes of the code now: a
    sentence added without bringing the catalogues up to date fails here."""
    with (LOCALES / "findings.pot").open("rb") as source:
        written = _ids(read_po(source))
    assert written == _ids(template())
    assert "%(player)s drew in %(turn)s's turn" in sentences()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_sentence_is_translated_with_the_same_blanks(lang: str) -> None:
    with (LOCALES / lang / "LC_MESSAGES" / "findings.po").open("rb") as source:
        catalog = read_po(source, locale=lang)
    assert _ids(catalog) == _ids(template())
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, (lang, message.id)
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), (lang, message.id)
        blanks = set(BLANK.findall(ids[0]))
        for string in strings:
            assert set(BLANK.findall(string)) == blanks, (lang, message.id, string)


def _broken_logs() -> dict[str, list[str]]:
    """A log broken each way the mutations know, by mutation."""
    found: dict[str, list[str]] = {}
    for seed in range(30):
        for ruleset in ("tournament", "base"):
            lines = [dump_event(e) for e in quick_game(6, ruleset, 2, seed=seed)]
            for name in MUTATIONS:
                if name not in found and (broken := mutate(lines, name, seed=5)) is not None:
                    found[name] = broken.lines
    return found


@pytest.fixture(scope="module")
def broken_logs() -> dict[str, list[str]]:
    return _broken_logs()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_kind_of_finding_reads_in_every_language(lang: str, broken_logs: dict[str, list[str]]) -> None:
    """Each finding is put into the language's words from its sentence and values:
    translated (not the English), and naming the same players and cards."""
    codes: set[str] = set()
    book = catalogue(lang)
    for lines in broken_logs.values():
        for finding in audit(lines).findings:
            assert finding.said is not None
            codes.add(finding.code)
            text = words(finding.said, lang)
            assert text and "%(" not in text
            if finding.said.text != "%(problem)s":
                assert book.gettext(finding.said.text) != finding.said.text or finding.said.plural, finding.said.text
            for name, value in finding.said.values:
                if isinstance(value, str) and name in ("card", "turn"):
                    assert value in text, (lang, text, value)
    assert len(codes) >= 12, codes  # the mutations reach most codes; each was put into words above


def test_values_are_written_the_language_s_way() -> None:
    said = say(
        "%(target)s has no broken %(tool)s to repair (broken: %(tools)s)",
        target="ann",
        tool="pick",
        tools=("lamp", "cart"),
    )
    assert words(said, "de", {"ann": "Ann Müller"}) == (
        "vor Ann Müller liegt keine zerbrochene Spitzhacke zum Reparieren (zerbrochen: Lampe und Lore)"
    )
    assert words(said, "nl") == "ann heeft geen kapot gereedschap (houweel) om te repareren (kapot: lamp en karretje)"
    count = say("the pile had %(count)s card", "the pile had %(count)s cards", "count", count=12345)
    assert words(count, "en") == "the pile had 12,345 cards"
    # an id the catalogue lacks is said in English, its values still in the language
    assert words(say("%(winner)s won", winner="selfish_dwarf"), "nb") == "den egoistiske dvergen won"


def test_a_player_whose_id_is_nobody_is_that_player_not_no_one() -> None:
    """ "nobody" stands for no player only where a round may have no connector; as a
    player's id it is that player ("nobody is not registered" read "niemand is niet
    ingeschreven": no one is not registered)."""
    connector = say(
        "the connector is %(connector)s, not %(claimed_connector)s", connector="ann", claimed_connector="nobody"
    )
    assert words(connector, "nl").endswith("niet door niemand"), words(connector, "nl")
    player = say("%(player)s is not registered in %(tournament)s", player="nobody", tournament="cup")
    assert words(player, "nl").startswith("nobody "), words(player, "nl")
    assert words(player, "de", {"nobody": "Nobody Ferreira"}).startswith("Nobody Ferreira "), words(player, "de")


def test_the_systems_reason_a_file_cannot_be_used_is_said_in_the_language() -> None:
    """The system's reason (``strerror``) stayed English inside the reader's sentence: "het
    bestand kan niet gelezen worden: No such file or directory"."""
    unread = say("cannot read the file: %(problem)s", problem="No such file or directory")
    assert words(unread, "nl") == "het bestand kan niet gelezen worden: bestand of map bestaat niet"
    assert words(unread, "de").endswith(": Datei oder Ordner existiert nicht")
    assert words(unread, "en") == "cannot read the file: No such file or directory"
    other = say("cannot read the file: %(problem)s", problem="Exec format error")  # one not listed: as it is
    assert words(other, "nb").endswith(": Exec format error")


def test_the_language_is_asked_for_or_taken_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SABOTEUR_LANG", raising=False)
    assert chosen(None) == "en" and chosen("DE") == "de" and chosen("no") == "nb"
    monkeypatch.setenv("SABOTEUR_LANG", "nl")
    assert chosen(None) == "nl" and chosen("en") == "en"
    with pytest.raises(ValueError, match="'fr' is not a language of Saboteur Ledger: en, nl, de, nb"):
        chosen("fr")


def test_cli_audit_speaks_the_language_asked_for(tmp_path: Path, broken_logs: dict[str, list[str]]) -> None:
    log = tmp_path / "t3.jsonl"
    log.write_text("\n".join(broken_logs["skip_draw"]) + "\n")
    runner = CliRunner()
    english = runner.invoke(app, ["audit", str(log)])
    german = runner.invoke(app, ["audit", str(log), "--lang", "de"])
    assert english.exit_code == german.exit_code == 1
    assert "ended the turn without drawing" in english.stdout
    assert "beendete den Zug ohne zu ziehen" in german.stdout and "Zeile" in german.stdout
    reports = [
        json.loads(runner.invoke(app, ["audit", str(log), "--json", "--lang", lang]).stdout) for lang in ("en", "nb")
    ]
    first = [(v["code"], v["line"], v["values"]) for v in reports[0]["violations"]]
    assert first == [(v["code"], v["line"], v["values"]) for v in reports[1]["violations"]]  # codes and values stay
    assert any(v["code"] == Code.MISSED_DRAW for v in reports[1]["violations"])
    missed = next(v for v in reports[1]["violations"] if v["code"] == Code.MISSED_DRAW)
    assert "avsluttet turen uten å trekke" in missed["message"] and set(missed["values"]) == {"player", "count"}
    refused = runner.invoke(app, ["audit", str(log), "--lang", "fr"])
    assert refused.exit_code == 2 and "not a language" in refused.output


def test_a_finding_is_described_in_the_language(broken_logs: dict[str, list[str]]) -> None:
    finding = next(f for f in audit(broken_logs["skip_draw"]).findings if f.code == Code.MISSED_DRAW)
    assert describe(finding) == finding.describe()  # English: as the finding itself says
    assert describe(finding, "nl", {finding.player or "": "Bram"}).startswith(f"regel {finding.line} · ronde ")


REFUSED: dict[str, bytes] = {
    "empty.jsonl": b"",
    "not-json.jsonl": b"{not json\n",
    "array.jsonl": b"[1, 2]\n",
    "no-type.jsonl": b'{"at": "2026-11-29T14:03:11Z"}\n',
    "wrong-first.jsonl": b'{"type": "draw", "player": "ann", "card": "NS"}\n',
    "sheet.csv": b"game_id,round,player\n",
    "empty.csv": b"",
    "notes.txt": b"hello",
    "bad.jsonl.gz": b"not gzip at all",
    "tournament.json": b'{"id": 3}',
}
"""Files the ingest refuses whole, one for each kind of reason."""


@pytest.mark.parametrize("lang", TRANSLATED)
def test_why_a_file_is_refused_reads_in_every_language(lang: str) -> None:
    """The store's and the upload's reasons (issue 33): each refused file's reason is a
    sentence the catalogue translates, the English message its English."""
    from ingest.sources import prepare_bytes

    book = catalogue(lang)
    for name, raw in REFUSED.items():
        prepared = prepare_bytes(name, raw)
        assert prepared.status == "unreadable" and prepared.said is not None, name
        said = prepared.said
        assert said.english() == prepared.message, name
        assert said.text == "%(problem)s" or book.gettext(said.text) != said.text, (name, said.text)
        assert words(said, lang) != said.english(), (name, words(said, lang))


def test_cli_ingest_and_findings_speak_the_language_asked_for(
    tmp_path: Path, broken_logs: dict[str, list[str]]
) -> None:
    """``saboteur ingest --lang nl`` and ``saboteur findings --lang de`` (issue 33): their
    headings, outcomes and reasons in the language, the findings' messages from their
    stored sentences; the ids, codes and file names as they are; English by default."""
    files = tmp_path / "in"
    files.mkdir()
    (files / "t3.jsonl").write_text("\n".join(broken_logs["skip_draw"]) + "\n")
    (files / "kapot.jsonl").write_bytes(b"[1, 2]\n")
    db = tmp_path / "ledger.duckdb"
    runner = CliRunner()
    dutch = runner.invoke(app, ["ingest", str(files), "--db", str(db), "--lang", "nl", "-v"], env={"COLUMNS": "300"})
    assert dutch.exit_code == 1, dutch.output
    out = " ".join(dutch.stdout.split())
    assert "bestanden die aandacht vragen" in out and "geweigerd" in out and "aanvaard met bevindingen" in out
    assert "een array, geen JSON-object" in out and "kapot.jsonl" in out
    assert "beëindigde de beurt zonder te trekken" in out  # -v: each finding in Dutch
    assert "files needing attention" not in out and "rejected" not in out
    german = runner.invoke(app, ["findings", "--db", str(db), "--lang", "de"], env={"COLUMNS": "300"})
    assert german.exit_code == 0, german.output
    text = " ".join(german.stdout.split())
    assert "Befunde aller Partien" in text and "beendete den Zug ohne zu ziehen" in text and "missed_draw" in text
    english = runner.invoke(app, ["findings", "--db", str(db), "--format", "json"])
    assert any("ended the turn without drawing" in row["message"] for row in json.loads(english.stdout))
    nb = runner.invoke(app, ["findings", "--db", str(db), "--format", "json", "--lang", "nb"])
    assert any("avsluttet turen uten å trekke" in row["message"] for row in json.loads(nb.stdout))


def test_why_the_record_refuses_a_command_reads_in_every_language(tmp_path: Path) -> None:
    """The tournament record's refusals (issue 33): each a sentence the catalogue
    translates, as the Audit page and ``--lang`` show it; ``str()`` stays its English."""
    from analytics import records
    from analytics.records import RecordError
    from events.simulate.tournament import simulate_tournament
    from ingest.pipeline import ingest
    from ingest.store import Store

    simulate_tournament(tmp_path / "logs", players=8, preliminary_rounds=1, seed=2)
    store = Store(tmp_path / "ledger.duckdb")
    ingest([tmp_path / "logs"], store, workers=1)
    tid = "sim-open-2"
    refused = [
        lambda: records.penalty(store, tid, "nobody-here", 1, "late"),
        lambda: records.penalty(store, "no-such-cup", "x", 1, "late"),
        lambda: records.dismiss(store, tid, "feedfacecafe", "seen"),
        lambda: records.correct(store, tid, "no-game", 1, "x", 1, "typo"),
        lambda: records.begin_cut(store, tid, "final"),
        lambda: records.create(store, tid, name="Again"),
    ]
    for attempt in refused:
        with pytest.raises(RecordError) as caught:
            attempt()
        said = caught.value.said
        assert said.english() == str(caught.value)
        for lang in TRANSLATED:
            assert words(said, lang) != said.english(), (lang, said.text)


def test_cli_tournament_commands_speak_the_language_asked_for(tmp_path: Path) -> None:
    """``saboteur tournament … --lang`` (issue 33): what a record command did, and why it
    refused, in the language; English without it."""
    from events.simulate.tournament import simulate_tournament

    simulate_tournament(tmp_path / "logs", players=8, preliminary_rounds=1, seed=2)
    db = str(tmp_path / "ledger.duckdb")
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(tmp_path / "logs"), "--db", db]).exit_code == 0
    players = json.loads((tmp_path / "logs" / "tournament.json").read_text())["players"]
    someone = players[0]["id"]
    args = ["tournament", "penalty", "sim-open-2", someone, "--points", "1", "--reason", "te laat", "--db", db]
    dutch = runner.invoke(app, [*args, "--lang", "nl"], env={"COLUMNS": "300"})
    assert dutch.exit_code == 0, dutch.output
    assert f"vastgelegd: straf 1 voor {someone}" in dutch.output and "now at version" not in dutch.output
    german = runner.invoke(
        app,
        ["tournament", "dismiss", "sim-open-2", "feedfacecafe", "--reason", "x", "--db", db, "--lang", "de"],
        env={"COLUMNS": "300"},
    )
    assert german.exit_code == 1 and "kein Befund feedfacecafe ist gespeichert" in german.output
    english = runner.invoke(app, ["tournament", "check", "sim-open-2", "--db", db])
    assert english.exit_code == 0 and "every game matches its published seating" in english.output
    norwegian = runner.invoke(app, ["tournament", "check", "sim-open-2", "--db", db, "--lang", "nb"])
    assert "alle spill stemmer med den publiserte bordplasseringen" in norwegian.output


def test_cli_verify_rebuild_log_and_checkpoint_speak_the_language_asked_for(tmp_path: Path) -> None:
    from events.simulate.tournament import simulate_tournament

    simulate_tournament(tmp_path / "logs", players=8, preliminary_rounds=1, seed=4)
    db = str(tmp_path / "ledger.duckdb")
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(tmp_path / "logs"), "--db", db]).exit_code == 0
    dutch = runner.invoke(app, ["verify", "--db", db, "--lang", "nl"])
    assert dutch.exit_code == 0 and "in orde: " in dutch.output and "gebeurtenissen, kop van de keten" in dutch.output
    rebuilt = runner.invoke(app, ["rebuild", "--db", db, "--lang", "de"])
    assert rebuilt.exit_code == 0 and "neu aufgebaut bis Ereignis" in rebuilt.output
    log = runner.invoke(app, ["tournament", "log", "sim-open-4", "--db", db, "--lang", "de"], env={"COLUMNS": "300"})
    assert log.exit_code == 0 and "sim-open-4: die Turnierakte" in log.output and "Einzelheiten" in log.output
    key = tmp_path / "organiser.key"
    made = runner.invoke(app, ["checkpoint", "keygen", "--key", str(key), "--lang", "nb"])
    assert made.exit_code == 0 and "nøkkelens fingeravtrykk" in made.output
    english = runner.invoke(app, ["verify", "--db", db])
    assert "ok: " in english.output and "events, chain head" in english.output


def test_cli_simulate_and_observe_speak_the_language_asked_for(tmp_path: Path) -> None:
    runner = CliRunner()
    log = tmp_path / "g.jsonl"
    made = runner.invoke(app, ["simulate", "game", "-o", str(log), "--players", "5", "--lang", "de"])
    assert made.exit_code == 0 and "geschrieben: " in made.output and "Runden an einem Tisch mit 5" in made.output
    seen = tmp_path / "seen.jsonl"
    assert runner.invoke(app, ["observe", str(log), "-o", str(seen)]).exit_code == 0
    again = runner.invoke(app, ["observe", str(seen), "--lang", "nl"])
    assert again.exit_code == 2 and "al een waargenomen log" in again.output


def _plain_texts(said: Said) -> list[str]:
    """The texts a sentence holds that no catalogue translates: a ``problem`` given as
    a string (:func:`events.said.problem`), at any depth."""
    found = [value for name, value in said.values if name == "problem" and isinstance(value, str)]
    for _, value in said.values:
        if isinstance(value, tuple):
            for part in value:
                if isinstance(part, Said):
                    found.extend(_plain_texts(part))
    return found


def _header(**fields: object) -> str:
    obj = json.loads(dump_event(quick_game(6, "tournament", 1, seed=1)[0]))
    obj.update(fields)
    return json.dumps(obj)


def _after_a_deal(line: str) -> list[str]:
    return [*LogBuilder(players=6).deal(start="ann").lines, line]


MALFORMED_LINES = {
    "a full log's discard without its card": _after_a_deal('{"type":"discard","player":"ann","card":null}'),
    "a full log's draw without its card": _after_a_deal('{"type":"draw","player":"ann","card":null}'),
    "a tool named on a single repair": _after_a_deal(
        '{"type":"play_tool","player":"ann","card":"repair_lamp","target":"bob","tool":"lamp"}'
    ),
    "a stranger's score": _after_a_deal(
        '{"type":"round_ended","round":1,"winner":"nobody","connector":null,"scores":{"zed":0}}'
    ),
    "a time that is no day": _after_a_deal(
        '{"type":"discard","player":"ann","card":"map","at":"2026-02-30T10:00:00Z"}'
    ),
    "NaN": _after_a_deal('{"type":"discard","player":"ann","card":NaN}'),
    "rows for seven of six": [_header(options={"roles": {"saboteur": 3, "gold_digger": 3, "selfish_dwarf": 1}})],
    "a player twice": [_header(players=["ann", "ann", "bob", "cem", "dia", "eve"])],
    "eleven players": [_header(players=[f"p{n}" for n in range(11)])],
    "a base option in a tournament": [_header(options={"next_round_starter": "any"})],
}


@pytest.mark.parametrize("case", list(MALFORMED_LINES))
@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_malformed_line_is_said_in_the_language_to_its_last_word(lang: str, case: str) -> None:
    """What the schema finds wrong with a line (a card a full log must name, a map
    short of a player, the header's limits, a time that is no day, NaN) was written in
    English and put into the sentence as a value: "veld `card`: a full log names the
    card discarded face down…" in a Dutch audit, and untranslatable for other tools
    reading ``--json``. Each is a sentence of the catalogue now, at every depth."""
    lines = MALFORMED_LINES[case]
    found = [f for f in audit(lines).findings if f.code == Code.MALFORMED and f.line == len(lines)]
    assert found
    for finding in found:
        assert finding.said is not None
        assert _plain_texts(finding.said) == [], finding.said
        assert words(finding.said, lang) != finding.message
