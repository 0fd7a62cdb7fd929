"""A real store for the dashboard's tests: a small simulated tournament, ingested once.

The session's store holds the tournament's description, two of its games mutated so the
audit has findings to show (a wrong score, a skipped draw), the other games but one —
``r2-t2.jsonl`` is held back so a test can upload it and watch the standings change —
and a game without a tournament whose log stops in the middle of its first round. Each
test gets its own copy of the file.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Final

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block

from cli.dashboard import LINGER, LINGER_VARIABLE
from dashboard.markup import JOINER
from events.builder import LogBuilder
from events.records import dump
from events.records.draft import EntryRecorded
from events.simulate.mutate import mutate
from events.simulate.tournament import simulate_tournament
from ingest import gate as gates
from ingest.drafts import Draft, read_draft, start_draft, stream_of
from ingest.pipeline import ingest
from ingest.store import NewEvent, Store
from tests.ingest.observed_logs import note_line, observed
from tests.venue.server import Server

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboard" / "app.py"
TOURNAMENT = "sim-open-1"
HELD_BACK = "r2-t2.jsonl"
UNFINISHED = "test:unfinished"
PASSWORD = "correct horse battery staple"


@dataclass(frozen=True)
class Sample:
    """What the session's store was made from."""

    db: Path
    logs: Path
    held_back: Path
    wrong_score_line: int
    skipped_draw_line: int
    unfinished_hand: tuple[str, ...]
    """The hand of the player whose card was not in it, in the unfinished round."""


def unfinished_log() -> tuple[list[str], tuple[str, ...]]:
    """A tournament-rules game that stops in its first round, after a card played that
    was not in the player's hand (whose message names the hand)."""
    log = LogBuilder(players=6, ruleset="tournament", game_id=UNFINISHED)
    log.deal(start="ann", hands={"cem": ["break_lamp", "repair_pick_cart", "NEx", "EWx", "Nx"]})
    log.discard("ann")
    log.discard("bob")
    hand = tuple(log.hand("cem"))
    log.raw({"type": "play_path", "player": "cem", "card": "NESW", "x": 1, "y": 0, "rotated": False})
    log.draw("cem")
    return log.lines, hand


@pytest.fixture(scope="session")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    root = tmp_path_factory.mktemp("dashboard")
    sim = root / "sim"
    simulate_tournament(sim, players=12, preliminary_rounds=2, seed=1)
    load = root / "load"
    load.mkdir()
    for path in sim.iterdir():
        if path.name != HELD_BACK:
            shutil.copy(path, load / path.name)
    wrong = mutate((load / "r1-t1.jsonl").read_text().splitlines(), "mis_score", seed=1)
    # the final's third round ends before its pile: a draw forgotten there leaves every later line true
    skipped = mutate((load / "final.jsonl").read_text().splitlines(), "skip_draw", seed=1)
    assert wrong is not None and skipped is not None
    (load / "r1-t1.jsonl").write_text("".join(line + "\n" for line in wrong.lines))
    (load / "final.jsonl").write_text("".join(line + "\n" for line in skipped.lines))
    lines, hand = unfinished_log()
    (load / "unfinished.jsonl").write_text("".join(line + "\n" for line in lines))
    return Sample(stored(load, root / "base.duckdb"), sim, sim / HELD_BACK, wrong.line, skipped.line, hand)


def stored(folder: Path, db: Path) -> Path:
    """``db`` with every file of ``folder`` ingested (each accepted)."""
    results = ingest([folder], Store(db), workers=1)
    assert {r.outcome for r in results} <= {"accepted", "accepted_with_findings"}, results
    return db


def in_use(store: Path, copy: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of ``store`` at ``copy``, named by ``$SABOTEUR_DB`` as the CLI names it;
    no organiser's password set."""
    shutil.copy(store, copy)
    monkeypatch.setenv("SABOTEUR_DB", str(copy))
    monkeypatch.delenv("SABOTEUR_ADMIN_PASSWORD", raising=False)
    return copy


@pytest.fixture
def db(sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's copy of the store."""
    return in_use(sample.db, tmp_path / "ledger.duckdb", monkeypatch)


# -- a store of hostile text (issue 10, point 5) ------------------------------------------

IMAGE = "![px](http://example.invalid/x.png)"
LINK = "[Organiser login](http://example.invalid)"
MIXED = "**Bold** _Ann_ <b>html</b> :smile: $x$ www.example.invalid"
HOSTILE_NAMES = (IMAGE, LINK, MIXED)
TOURNAMENT_NAME = f"{LINK} Open"
HOSTILE_GAME = "test:hostile"


@dataclass(frozen=True)
class Hostile:
    """The sample tournament named in Markdown, with three players' display names
    Markdown (ids in ``players``, in the order of :data:`HOSTILE_NAMES`), and a game of
    no tournament whose finished round has findings quoting Markdown from its log."""

    db: Path
    players: tuple[str, ...]


def hostile_log() -> list[str]:
    """A finished round whose findings quote log text: a card and a player that are
    Markdown."""
    log = LogBuilder(players=5, ruleset="tournament", game_id=HOSTILE_GAME)
    log.deal(start="ann")
    log.raw({"type": "play_path", "player": "ann", "card": LINK, "x": 1, "y": 0, "rotated": False})
    log.raw({"type": "play_path", "player": IMAGE, "card": "NESW", "x": 1, "y": 0, "rotated": False})
    log.discard("ann")
    log.pass_out()
    log.end_round()
    return log.lines


@pytest.fixture(scope="session")
def hostile_sample(sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Hostile:
    root = tmp_path_factory.mktemp("hostile")
    logs = root / "logs"
    shutil.copytree(sample.logs, logs)
    description = json.loads((logs / "tournament.json").read_text())
    description["name"] = TOURNAMENT_NAME
    for person, name in zip(description["players"], HOSTILE_NAMES, strict=False):
        person["name"] = name
    (logs / "tournament.json").write_text(json.dumps(description))
    (logs / "hostile.jsonl").write_text("".join(line + "\n" for line in hostile_log()))
    players = tuple(person["id"] for person in description["players"][: len(HOSTILE_NAMES)])
    return Hostile(stored(logs, root / "hostile.duckdb"), players)


@pytest.fixture
def hostile(hostile_sample: Hostile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Hostile:
    """This test's copy of the hostile store."""
    return Hostile(in_use(hostile_sample.db, tmp_path / "hostile.duckdb", monkeypatch), hostile_sample.players)


# -- a store with an observed game (issue 11, points 5 and 6) ------------------------------

OBSERVED_GAME = "sim-open-1:r1:t1"
NOTE_AFTER = 5
"""The observed game's referee's note follows this line of its observed log."""


@dataclass(frozen=True)
class Observed:
    """The sample tournament with its game :data:`OBSERVED_GAME` as an observed log, in
    whose first round the referee noted ``noted`` at line ``note_line``."""

    db: Path
    full_log: Path
    noted: str
    note_line: int = NOTE_AFTER + 1


@pytest.fixture(scope="session")
def observed_sample(sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Observed:
    root = tmp_path_factory.mktemp("observed")
    logs = root / "logs"
    shutil.copytree(sample.logs, logs)
    full = logs / "r1-t1.jsonl"
    text = full.read_text()
    noted = json.loads(text.splitlines()[0])["players"][1]
    full.write_text(observed(text, notes={NOTE_AFTER: note_line(noted)}))
    return Observed(stored(logs, root / "observed.duckdb"), sample.logs / "r1-t1.jsonl", noted)


@pytest.fixture
def observed_db(observed_sample: Observed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Observed:
    """This test's copy of the store with an observed game."""
    copy = in_use(observed_sample.db, tmp_path / "observed.duckdb", monkeypatch)
    return Observed(copy, observed_sample.full_log, observed_sample.noted)


@pytest.fixture
def as_served(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The store kept open between a page's jobs, as ``saboteur dashboard`` keeps it:
    its ``$SABOTEUR_STORE_LINGER``, which every run of the app reads
    (:func:`dashboard.data.keep_store_open`), so a tap's append costs no opening and
    closing of the file. Put back to a command's way (closed after every job) after."""
    monkeypatch.setenv(LINGER_VARIABLE, str(LINGER))
    gates.linger(LINGER)
    try:
        yield
        assert gates.lingering() == LINGER, "a run of the app closed the store after every job: not as served"
    finally:
        gates.linger(0.0)


@pytest.fixture
def organiser(monkeypatch: pytest.MonkeyPatch) -> str:
    """The organiser's password, set as the dashboard reads it."""
    monkeypatch.setenv("SABOTEUR_ADMIN_PASSWORD", PASSWORD)
    return PASSWORD


def run_page(page: str | None = None, **state: object) -> AppTest:
    """The app run on one page (``None``: the default one), with ``state`` in its session."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in state.items():
        at.session_state[key] = value
    if page is not None:
        at.switch_page(f"views/{page}.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def record_at_once(store: Store, game_id: str, lines: Sequence[str], draft: Draft | None = None) -> Draft:
    """The draft of ``game_id`` with ``lines`` recorded (those ``draft`` holds skipped),
    the rest appended in one transaction: the events a phone's taps append one line at a
    time (``ingest.drafts.record_line``, tested line by line in
    ``tests/ingest/test_drafts.py``), as a test sets a table up. A line a transaction
    costs some 0.1 s: a whole game's, 20 s of the suite each time."""
    if draft is None:
        draft = start_draft(store, game_id, lines[0])
    stream = stream_of(game_id)
    new = [EntryRecorded(type="entry_recorded", line=line) for line in lines[len(draft.lines) :]]
    if new:
        with store.connect(drafts_only=True) as con:  # as a tap's: the pages' caches of the records stay good
            store.append(con, stream, draft.version, [NewEvent(stream, e.type, dump(e)) for e in new], rows={})
    found = read_draft(store, game_id)
    assert found is not None and list(found.lines) == list(lines)
    return found


@pytest.fixture
def open_page(db: Path) -> Iterator[Callable[..., AppTest]]:
    """``open_page("replay", **session_state)``: the app run on one page over ``db``."""
    yield run_page


def log_in(at: AppTest, password: str) -> AppTest:
    """Give the password on an organiser's page."""
    at.text_input[0].input(password)
    at.button[0].click()
    return at.run()


def maze(at: AppTest) -> str:
    """The replay's picture of the maze (the SVG inside its Markdown block)."""
    (block,) = [m.value for m in at.markdown if 'class="maze-picture"' in m.value]
    return block[block.index("<svg") : block.index("</svg>") + len("</svg>")]


def page_text(at: AppTest | Block) -> str:
    """Every piece of text the page (or one of its blocks: ``at.main``) shows, tables
    included, as one string."""
    parts: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "error", "warning", "info", "success", "code"):
        parts.extend(str(e.value) for e in getattr(at, kind))
    parts.extend(f"{m.label} {m.value}" for m in at.metric)
    for table in at.dataframe:
        frame = table.value
        parts.append(" ".join(str(c) for c in frame.columns))
        parts.append(frame.to_csv(index=False))
    return "\n".join(parts)


# -- what Markdown shows -------------------------------------------------------------

_COMMONMARK: Final = MarkdownIt("commonmark")
ACTIVE: Final = frozenset({"link_open", "image", "html_inline", "html_block"})
"""Tokens that make Markdown more than text: a link, an image, raw HTML."""
REWRITTEN: Final = re.compile(r"https?:/|www\.|[\w.+-]@[\w-]|:[A-Za-z_+-][\w+-]*:|:material/", re.IGNORECASE)
"""Text that Streamlit's plugins would turn into a link, an emoji or an icon after
parsing (GFM's literal autolinks, emoji and icon shortcodes), which CommonMark leaves be."""


TEXT_HTML: Final = frozenset({"table", "thead", "tbody", "tr", "th", "td", "ol", "li", "strong"})
"""The HTML a page writes around text itself (``dashboard.markup.html_table`` and
``html_list``): these elements, without attributes, the text in them escaped."""


class TextHtml(HTMLParser):
    """A block of HTML as a reader meets it: the rows of its table (the header row
    first), the items of its list, and ``other``: every element or attribute that is
    not :data:`TEXT_HTML`."""

    def __init__(self, block: str) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.items: list[str] = []
        self.other: list[str] = []
        self.loose: list[str] = []  # text outside any cell or item
        self._text: list[str] | None = None
        self.feed(block)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TEXT_HTML or attrs:
            self.other.append(f"<{tag} {attrs}>")
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td", "li"):
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "td", "li") and self._text is not None:
            (self.rows[-1] if tag != "li" else self.items).append("".join(self._text))
            self._text = None

    def handle_data(self, data: str) -> None:
        (self._text if self._text is not None else self.loose).append(data)

    @property
    def ours(self) -> bool:
        """Only text in :data:`TEXT_HTML`: what a page writes, user text escaped in it."""
        return not self.other and not "".join(self.loose).strip() and bool(self.rows or self.items)

    @property
    def text(self) -> str:
        """Its text: a line a row (cells parted by `` | ``) or an item."""
        return "\n".join([*(" | ".join(cells) for cells in self.rows), *self.items])


@dataclass(frozen=True)
class Shown:
    """Markdown as a reader meets it: its text, and the kinds of token it parsed into
    (``text_html``: a block of HTML that is only text, :class:`TextHtml`)."""

    text: str
    tokens: frozenset[str]
    rewritten: str
    """The text Streamlit's plugins read: a block of HTML's too, whose icons Streamlit
    finds all the same (``:material/warning:`` showed as ``:material_warning:`` in the
    standings' table)."""

    @property
    def plain(self) -> bool:
        """Nothing but text: no link, image or HTML, and nothing a plugin would rewrite."""
        return not (self.tokens & ACTIVE) and REWRITTEN.search(self.rewritten) is None


def shown(markdown: str) -> Shown:
    """Parse ``markdown`` (CommonMark, by markdown-it) into what it shows."""
    tokens: set[str] = set()
    blocks: list[str] = []
    rewritten: list[str] = []
    for token in _COMMONMARK.parse(markdown):
        if token.type == "html_block" and (html := TextHtml(token.content)).ours:
            tokens.add("text_html")
            blocks.append(html.text)
            rewritten.append(html.text)
            continue
        tokens.add(token.type)
        parts = []
        for child in token.children or ():
            tokens.add(child.type)
            if child.type in ("text", "code_inline"):
                parts.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append("\n")
        if token.type in ("code_block", "fence", "html_block"):
            parts.append(token.content)
        if parts:
            blocks.append("".join(parts))
            rewritten.append(blocks[-1])
    return Shown("\n".join(blocks), frozenset(tokens), "\n".join(rewritten))


def markdown_of(at: AppTest) -> list[str]:
    """Every string the page hands to Streamlit as Markdown: text elements, alerts,
    headings, metric labels and values, expander labels."""
    found: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "error", "warning", "info", "success"):
        found.extend(str(e.value) for e in getattr(at, kind))
    for m in at.metric:
        found.extend((str(m.label), str(m.value)))
    found.extend(str(e.label) for e in at.expander)
    return found


def visible(markdown: str) -> str:
    """The text a reader sees, the invisible word joiners taken out."""
    return shown(markdown).text.replace(JOINER, "")


_CELL_BORDER: Final = re.compile(r"(?<!\\)\|")
"""A border between two cells of a Markdown table's row (an escaped ``\\|`` is text)."""


def markdown_tables(at: AppTest) -> list[list[list[str]]]:
    """Every table the page shows through Markdown (a Markdown table, or one of
    :class:`TextHtml`), as rows of cells as a reader sees them (the header row first,
    the rule row left out)."""
    found = []
    for block in (m.value for m in at.markdown):
        if block.startswith("<table>") and (html := TextHtml(block)).ours:
            found.append([[cell.replace(JOINER, "") for cell in cells] for cells in html.rows])
            continue
        lines = block.splitlines()
        if len(lines) < 2 or not lines[0].startswith("| ") or not re.fullmatch(r"\|( --- \|)+", lines[1]):
            continue
        rows = [lines[0], *lines[2:]]
        found.append([[visible(cell.strip()) for cell in _CELL_BORDER.split(line)[1:-1]] for line in rows])
    return found


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """``saboteur dashboard`` over ``tmp_path/venue.duckdb``, as an organiser starts it
    (not started yet: a test sets the morning up first); stopped at the end."""
    made = Server(tmp_path / "venue.duckdb", tmp_path)
    try:
        yield made
    finally:
        made.stop()
