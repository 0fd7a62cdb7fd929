"""The referee page's web edge (dashboard/referee/routes.py), in process through
Starlette's test client: its files, the cards' pictures, and each endpoint's answer to
bodies good and hostile — parsed whole first, refused with where and why, nothing done.
"""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from dashboard.recording.table import seated_game_id
from dashboard.referee.desk import picture_edition, picture_key, pictures
from dashboard.referee.routes import Referee
from dashboard.referee.wire import MAX_BODY
from events.logfile import parse_line
from events.maze import tunnel
from ingest.drafts import read_draft
from ingest.store import Store
from tests.venue.morning import Table, morning


@pytest.fixture(scope="session")
def seated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Table]:
    folder = tmp_path_factory.mktemp("routes")
    tables = morning(folder / "venue.duckdb", 1)
    return folder / "venue.duckdb", tables[0]


@pytest.fixture
def store(seated: tuple[Path, Table], tmp_path: Path) -> Store:
    shutil.copy(seated[0], tmp_path / "venue.duckdb")
    return Store(tmp_path / "venue.duckdb")


@pytest.fixture
def client(store: Store) -> TestClient:
    return TestClient(Starlette(routes=Referee(lambda: store).routes()))


def test_the_page_its_script_and_its_service_worker_are_served_fresh(client: TestClient) -> None:
    page = client.get("/referee?code=anything")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script src="/referee/app.js"' in page.text
    script = client.get("/referee/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert script.headers["cache-control"] == "no-cache"
    worker = client.get("/referee/sw.js")
    assert worker.headers["service-worker-allowed"] == "/referee"
    assert client.get("/referee/app.css").status_code == 200


def test_a_cards_picture_is_kept_for_good_and_a_made_up_one_is_not_found(client: TestClient) -> None:
    where = pictures("en")
    drawn = client.get(f"{where}{picture_key(tunnel('NES', False))}.svg")
    assert drawn.status_code == 200 and drawn.headers["content-type"].startswith("image/svg+xml")
    assert "immutable" in drawn.headers["cache-control"]
    goal = client.get(f"{where}%3F~goal~0~0~1~0~0.svg")  # a face-down goal's key holds a "?"
    assert goal.status_code == 200
    assert client.get(f"{where}%3Cscript%3E~tunnel~0~7~1~1~0.svg").status_code == 404
    # digits of other scripts ("²", "①") are digits to str.isdigit, not to int(): no server error
    for odd in ("NES~tunnel~0~%C2%B2~1~1~0", "NES~tunnel~0~%E2%91%A0~1~1~0"):
        assert client.get(f"{where}{odd}.svg").status_code == 404
        assert client.get(f"/referee/picture/{odd}.svg").status_code == 404
    assert client.get(f"/referee/picture/{picture_edition('en')}/xx/NES~tunnel~0~13~1~1~0.svg").status_code == 404


def test_a_cards_words_are_its_phones_language_whoever_asked_first(client: TestClient) -> None:
    """The goal's, the start's and the setup card's words are the page's language: the
    pictures were kept by their key alone, so the first phone to ask for one set its
    words for every phone (a Dutch referee's "GOUD" on a German one's), and the phone
    kept them for good whatever the pictures became. The address names the language and
    how they are drawn (a picture drawn anew is a new address)."""
    gold = "goal_gold~goal~0~13~1~1~0"
    dutch = client.get(f"{pictures('nl')}{gold}.svg")
    german = client.get(f"{pictures('de')}{gold}.svg")
    assert dutch.status_code == german.status_code == 200
    assert ">GOUD<" in dutch.text and ">GOLD<" in german.text, (dutch.text, german.text)
    assert pictures("nl") != pictures("de") and pictures("nl").startswith("/referee/picture/")
    # an address of pictures drawn otherwise (a table kept on the phone from before) is
    # answered as they are drawn now, and asked again next time
    stale = client.get(f"/referee/picture/000000000000/nl/{gold}.svg")
    assert ">GOUD<" in stale.text and stale.headers["cache-control"] == "no-cache"
    # a page from before the addresses named them: the browser's language, not kept
    before = client.get(f"/referee/picture/{gold}.svg", headers={"Accept-Language": "nb"})
    assert before.headers["cache-control"] == "no-cache" and "Accept-Language" in before.headers["vary"]
    assert ">GOUD<" not in before.text and ">GOLD<" not in before.text


def test_a_code_that_opens_no_table_is_told_so(client: TestClient) -> None:
    for code in ("", "x" * 32, "x" * 500):
        answer = client.get("/referee/api/table", params={"code": code})
        assert answer.status_code == 403
    begun = client.post("/referee/api/begin", json={"code": "x" * 32})
    assert begun.status_code == 403 and begun.json()["status"] == "closed"
    assert client.get("/referee/api/log", params={"code": "x" * 32}).status_code == 403


def test_the_games_log_is_downloaded_as_it_stands(client: TestClient, seated: tuple[Path, Table]) -> None:
    """The README says the referee can download the game's log: the page offered no way."""
    _, table = seated
    assert client.get("/referee/api/log", params={"code": table.code}).status_code == 422  # not begun
    client.post("/referee/api/begin", json={"code": table.code})
    log = client.get("/referee/api/log", params={"code": table.code})
    assert log.status_code == 200 and log.headers["cache-control"] == "no-store"
    name = table.game_id.replace(":", "-") + ".jsonl"
    assert log.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert [json.loads(line)["type"] for line in log.text.splitlines()] == ["game_started"]


def test_an_entry_goes_in_once_and_a_stale_one_is_a_conflict(
    client: TestClient, store: Store, seated: tuple[Path, Table]
) -> None:
    _, table = seated
    view = client.get("/referee/api/table", params={"code": table.code})
    assert view.status_code == 200 and view.json()["state"] is None
    assert view.headers["cache-control"] == "no-store"
    begun = client.post("/referee/api/begin", json={"code": table.code}).json()
    version = begun["state"]["version"]
    deal = _deal(table.players[0])
    body = {"code": table.code, "entry": uuid.uuid4().hex, "base": version, "tap": {"kind": "event", "event": deal}}
    first = client.post("/referee/api/entries", json=body)
    assert first.status_code == 200 and first.json()["status"] == "recorded"
    again = client.post("/referee/api/entries", json=body)
    assert again.status_code == 200 and again.json()["state"]["version"] == version + 1
    stale = {**body, "entry": uuid.uuid4().hex}
    conflict = client.post("/referee/api/entries", json=stale)
    assert conflict.status_code == 409 and conflict.json()["theirs"]
    draft = read_draft(store, table.game_id)
    assert draft is not None and len(draft.lines) == 2


def _deal(start_player: str) -> dict[str, object]:
    """An observed deal's entry, started by ``start_player``."""
    return {
        "type": "round_started",
        "round": 1,
        "start_player": start_player,
        "roles": None,
        "set_aside_role": None,
        "goals": None,
        "setup_card": {"card": "NESW", "rotated": False, "turned_over": ["NESW"]},
        "hands": None,
        "draw_pile": None,
    }


def test_an_entry_naming_a_player_not_at_the_table_is_refused_checked_or_not(
    client: TestClient, store: Store, seated: tuple[Path, Table]
) -> None:
    """The log format calls a line naming anyone but the game's players malformed: sent
    unchecked, a deal started by a player of another table and a discard by one were
    recorded (200), and the game was stored with them; a round's end naming a stranger
    was refused. Now every entry naming one is refused alike (422), with the same
    sentence, and nothing is recorded; what the rules judge (a seated player out of
    turn) is still recorded, with its finding."""
    _, table = seated
    other = "p07"  # seated at table 2 of the morning
    assert other not in table.players
    version = client.post("/referee/api/begin", json={"code": table.code}).json()["state"]["version"]

    def send(event: dict[str, object], *, check: bool) -> dict[str, object]:
        body = {"code": table.code, "entry": uuid.uuid4().hex, "base": version, "check": check}
        answer = client.post("/referee/api/entries", json={**body, "tap": {"kind": "event", "event": event}})
        return {"status_code": answer.status_code, **answer.json()}

    for check in (False, True):
        stranger = send(_deal(other), check=check)
        assert stranger["status_code"] == 422 and stranger["status"] == "refused", stranger
        assert stranger["problem"] == f"not a player of this game: {other}"
    dealt = send(_deal(table.players[0]), check=False)
    assert dealt["status_code"] == 200 and dealt["status"] == "recorded"
    version += 1
    strangers = [
        {"type": "discard", "player": other, "card": None},
        {"type": "draw", "player": other, "card": None},
        {"type": "play_tool", "player": table.players[0], "card": "break_lamp", "target": other},
        {"type": "play_path", "player": other, "card": "NESW", "x": 1, "y": 0, "rotated": False},
        {"type": "referee_note", "player": other, "error": "other", "note": "at the wrong table"},
    ]
    for event in strangers:
        for check in (False, True):
            answer = send(event, check=check)
            assert answer["status_code"] == 422 and answer["status"] == "refused", (event, answer)
            assert answer["problem"] == f"not a player of this game: {other}"
    draft = read_draft(store, table.game_id)
    assert draft is not None and [json.loads(line)["type"] for line in draft.lines] == ["game_started", "round_started"]
    # the rules' own findings are not malformed: a seated player out of turn is recorded
    late = send({"type": "discard", "player": table.players[2], "card": None}, check=False)
    assert late["status_code"] == 200 and late["status"] == "recorded" and late["findings"], late


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        (b"{not json", 422, "the body"),
        (b'{"code": "c", "entry": "short", "base": 0, "tap": {"kind": "undo"}}', 422, "entry"),
        (b'{"code": "c", "entry": "abcdefgh12", "base": -1, "tap": {"kind": "undo"}}', 422, "base"),
        (b'{"code": "c", "entry": "abcdefgh12", "base": 0, "tap": {"kind": "undo"}, "admin": true}', 422, "admin"),
        (b'{"code": "c", "entry": "abcdefgh12", "base": 0, "tap": {"kind": "fly"}}', 422, "tap"),
        (
            b'{"code": "c", "entry": "abcdefgh12", "base": 0, '
            b'"tap": {"kind": "event", "event": {"type": "game_started"}}}',
            422,
            "tap.event",
        ),
        # times of the right shape that name no moment: the server's own fault (500) before
        (
            b'{"code": "c", "entry": "abcdefgh12", "base": 0, "tap": {"kind": "undo"}, "at": "2026-02-30T10:00:00Z"}',
            422,
            "at",
        ),
        (
            b'{"code": "c", "entry": "abcdefgh12", "base": 0, "tap": {"kind": "undo"}, '
            b'"sent_at": "2026-12-06T10:29:60Z"}',
            422,
            "sent_at",
        ),
        (
            b'{"code": "c", "entry": "abcdefgh12", "base": 0, "tap": {"kind": "undo"}, '
            b'"at": "2026-12-06T10:29:00+01:60"}',
            422,
            "at",
        ),
    ],
)
def test_a_body_that_is_not_an_entry_is_refused_with_where_and_why(
    client: TestClient, body: bytes, status: int, said: str
) -> None:
    answer = client.post("/referee/api/entries", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == status
    assert answer.json()["status"] == "refused"
    assert answer.json()["problem"].startswith(said)


def test_a_body_larger_than_an_entry_can_be_is_refused_unread(client: TestClient) -> None:
    answer = client.post("/referee/api/entries", content=b"x" * (MAX_BODY + 1))
    assert answer.status_code == 413
    assert "KiB" in answer.json()["problem"]


def test_a_fault_of_the_servers_own_is_an_answer_not_a_traceback(
    store: Store, seated: tuple[Path, Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    referee = Referee(lambda: store)
    client = TestClient(Starlette(routes=referee.routes()), raise_server_exceptions=False)

    def broken(sent: object) -> None:
        raise RuntimeError("a bug in the desk at /srv/secret")

    monkeypatch.setattr(referee.desk, "send", broken)
    body = {"code": seated[1].code, "entry": uuid.uuid4().hex, "base": 1, "tap": {"kind": "undo"}}
    answer = client.post("/referee/api/entries", json=body)
    assert answer.status_code == 500
    assert answer.json()["status"] == "refused"
    assert "tell the organiser" in answer.json()["problem"]
    assert "secret" not in answer.text and "Traceback" not in answer.text


def test_a_phone_is_answered_in_its_language(client: TestClient, seated: tuple[Path, Table]) -> None:
    """Issue 33: the page's own texts (``/referee/api/words``) and what the server says
    of the game — the turn, the entries — in the language the page asks for, else the
    browser's; the codes and the log stay as they are."""
    _, table = seated
    german = client.get("/referee/api/words", params={"lang": "de"}).json()
    assert german["lang"] == "de" and german["words"]["Path card"] == "Pfadkarte"
    assert german["plurals"]["%(num)s entry waits for you"] == [
        "%(num)s Eintrag wartet auf dich",
        "%(num)s Einträge warten auf dich",
    ]
    browser = client.get("/referee/api/words", headers={"Accept-Language": "fr-FR,nb;q=0.8,en;q=0.5"}).json()
    assert browser["lang"] == "nb" and browser["words"]["Begin recording"] != "Begin recording"
    assert client.get("/referee/api/words").json()["lang"] == "en"
    begun = client.post("/referee/api/begin", params={"lang": "nl"}, json={"code": table.code}).json()
    dutch = client.get("/referee/api/table", params={"code": table.code, "lang": "nl"}).json()["state"]
    english = client.get("/referee/api/table", params={"code": table.code}).json()["state"]
    assert begun["status"] == "recorded" and dutch["version"] == english["version"]
    assert dutch["due"]["kind"] == english["due"]["kind"] == "round"
    assert dutch["due"]["words"] != english["due"]["words"] and "ronde 1" in dutch["due"]["words"].lower()
    refused = client.get("/referee/api/table", params={"code": "", "lang": "de"})
    assert refused.status_code == 403 and "Diese Karte öffnet keinen Tisch" in refused.json()["problem"]


def test_a_table_labelled_as_the_hall_labels_it_is_recorded(store: Store, seated: tuple[Path, Table]) -> None:
    """A seating's labels are the hall's: "Table 2" made a game id with a space, which
    no log may have, and beginning the table answered a server error (500). The game
    id takes the label's other characters as "-" (and a digest, so "Table-2" is another
    game); the log keeps the label as it is."""
    from analytics.records import issue_referee_codes
    from tests.venue.morning import ROUND, TOURNAMENT, organiser

    everyone = [f"p{n:02d}" for n in range(1, 37)]  # the morning's round 1: six tables of six
    seating = store.path.parent / "hall.csv"
    seating.write_text(
        "table,player\n" + "".join(f"Table {i // 6 + 1},{p}\n" for i, p in enumerate(everyone)), encoding="utf-8"
    )
    organiser(
        "tournament",
        "seat",
        TOURNAMENT,
        "--round",
        str(ROUND),
        "--from-csv",
        seating,
        "--replace",
        "--reason",
        "the hall's labels",
        "--db",
        store.path,
    )
    [code] = issue_referee_codes(store, TOURNAMENT, ROUND, ["Table 1"])
    client = TestClient(Starlette(routes=Referee(lambda: store).routes()), raise_server_exceptions=False)
    begun = client.post("/referee/api/begin", json={"code": code.code})
    assert begun.status_code == 200 and begun.json()["status"] == "recorded", begun.text
    game_id = seated_game_id(TOURNAMENT, ROUND, "Table 1")
    assert game_id.startswith(f"{TOURNAMENT}:r{ROUND}:tTable-1-")
    header = parse_line(1, read_draft(store, game_id).lines[0]).event
    assert header.table == "Table 1" and list(header.players) == everyone[:6]
