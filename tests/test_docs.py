"""The documentation that ships with the product agrees with the code.

Users read ``docs/log-format.md`` and ``docs/rules.md``, never the project's spec, so
these tests are driven by the code: the log schema (every event, field and value), the
finding codes with their rules, the rule ids the checks cite, the card, role and hand
tables, the CLI's commands. Adding an event, a field, a code or a rule without
documenting it fails here, and so does a link in the docs that leads nowhere.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import pytest
import typer.main

from cli.main import app
from events import cards
from events.audit import AuditReport, audit
from events.findings import Code, Finding, Unlisted
from events.logfile import parse_line
from events.records.schemas import SCHEMAS
from events.rules import RULES
from events.schema import EVENT_TYPES, json_schema
from events.state import Outcome
from events.tables import BASE_ROLE_DECK, TOURNAMENT_ROLES, hand_size

ROOT: Final = Path(__file__).resolve().parent.parent
DOCS: Final = ROOT / "docs"
LOG_FORMAT: Final = DOCS / "log-format.md"
RULES_DOC: Final = DOCS / "rules.md"
README: Final = ROOT / "README.md"
PRODUCT: Final = ("events", "ingest", "analytics", "cli", "dashboard")
"""The packages whose rule ids and finding codes users meet."""

RULE_ID: Final = re.compile(r"\bR-[A-Z]+\d+\b")
LINK: Final = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ANCHOR_TAG: Final = re.compile(r"<a (?:id|name)=\"([^\"]+)\"")
HEADING: Final = re.compile(r"^(#{1,6}) +(.*?) *#*$")


# -- reading markdown -------------------------------------------------------------------


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text lowercased, punctuation dropped,
    spaces made hyphens (``### `game_started` `` → ``game_started``)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@dataclass(frozen=True)
class Section:
    level: int
    title: str
    body: str


def prose_lines(text: str) -> Iterator[tuple[bool, str]]:
    """Each line with whether it lies in a fenced code block (headings there are not)."""
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            yield True, line
        else:
            yield fenced, line


@cache
def sections(path: Path) -> tuple[Section, ...]:
    """Every heading of a document with its text up to the next heading of its level
    or above."""
    lines = list(prose_lines(path.read_text(encoding="utf-8")))
    heads = [
        (i, len(m[1]), m[2]) for i, (fenced, line) in enumerate(lines) if not fenced and (m := HEADING.match(line))
    ]
    found = []
    for k, (i, level, title) in enumerate(heads):
        end = next((j for j, lv, _ in heads[k + 1 :] if lv <= level), len(lines))
        found.append(Section(level, title, "\n".join(line for _, line in lines[i + 1 : end])))
    return tuple(found)


def section(path: Path, title: str) -> Section:
    matching = [s for s in sections(path) if s.title == title]
    assert len(matching) == 1, f"{path.name} needs exactly one heading {title!r}"
    return matching[0]


@cache
def anchors(path: Path) -> frozenset[str]:
    """Every anchor a link may name in a document: heading slugs (with GitHub's
    ``-1``, ``-2`` for repeats) and explicit ``<a id>`` tags."""
    seen: dict[str, int] = {}
    found = set(ANCHOR_TAG.findall(path.read_text(encoding="utf-8")))
    for s in sections(path):
        base = slug(s.title)
        found.add(base if base not in seen else f"{base}-{seen[base]}")
        seen[base] = seen.get(base, 0) + 1
    return frozenset(found)


def mentions(text: str, name: object) -> bool:
    """Whether ``name`` appears in code style (`` `name` ``) in ``text``."""
    return f"`{name}`" in text


def table_rows(text: str) -> list[list[str]]:
    """The rows of the markdown tables in ``text`` (headers too), as stripped cells."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"^\|[-| :]+\|$", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def links(text: str) -> list[str]:
    """Link targets outside fenced code."""
    prose = "\n".join(line for fenced, line in prose_lines(text) if not fenced)
    return LINK.findall(prose)


def rule_anchor(rule: str) -> str:
    return rule.lower()


def differences(what: str, documented: Collection[str], in_code: Collection[str]) -> str:
    return (
        f"{what} documented but not in the code: {sorted(set(documented) - set(in_code))}; "
        f"in the code but not documented: {sorted(set(in_code) - set(documented))}"
    )


# -- what the code says ----------------------------------------------------------------


@cache
def product_sources() -> tuple[str, ...]:
    return tuple(p.read_text(encoding="utf-8") for package in PRODUCT for p in sorted((ROOT / package).rglob("*.py")))


@cache
def rule_ids_in_code() -> frozenset[str]:
    """Every rule id the product's code cites, and every rule :data:`RULES` names."""
    found = {rule for text in product_sources() for rule in RULE_ID.findall(text)}
    return frozenset(found | RULES.keys() | {c.rule for c in Code if c.rule.startswith("R-")})


_CITED: Final = (
    re.compile(r"Code\.([A-Z_]+)\s*,\s*\"(R-[A-Z]+\d+)\""),
    re.compile(r"Code\.([A-Z_]+)\s*,(?:(?!Code\.)[^\n]*\n){0,3}?[^\n]*?\brule=\"(R-[A-Z]+\d+)\""),
)
"""A check citing its rule beside its code: ``Breach(Code.X, "R-…"`` or a report's
``rule="R-…"`` a few lines after ``Code.X``."""


@cache
def codes_with_rules() -> frozenset[tuple[Code, str]]:
    """Each finding code with every rule it is reported under: its own rule and the
    rules the checks cite beside it."""
    pairs = {(code, code.rule) for code in Code if code.rule.startswith("R-")}
    for text in product_sources():
        for pattern in _CITED:
            pairs.update((Code[name], rule) for name, rule in pattern.findall(text))
    return frozenset(pairs)


def event_schemas() -> dict[str, dict[str, Any]]:
    """Each event type's JSON Schema, from the published schema of a log line."""
    schema = json_schema()
    mapping = schema["discriminator"]["mapping"]
    return {kind: schema["$defs"][ref.rsplit("/", 1)[1]] for kind, ref in mapping.items()}


_SUBSCHEMAS: Final = ("items", "prefixItems", "additionalProperties", "anyOf", "oneOf", "allOf")


def walk(schema: object, defs: dict[str, Any], seen: frozenset[str] = frozenset()) -> Iterator[tuple[str, object]]:
    """Every field name (``("field", name)``) and every value (``("value", v)``) a JSON
    Schema allows within ``schema``, following ``$ref`` s into ``defs``."""
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if isinstance(ref, str) and (name := ref.rsplit("/", 1)[1]) not in seen:
        yield from walk(defs[name], defs, seen | {name})
    for value in [*schema.get("enum", ()), *([schema["const"]] if "const" in schema else [])]:
        yield "value", value
    for name, prop in schema.get("properties", {}).items():
        yield "field", name
        yield from walk(prop, defs, seen)
    for key in _SUBSCHEMAS:
        child = schema.get(key)
        for sub in child if isinstance(child, list) else [child]:
            yield from walk(sub, defs, seen)


COMMON_FIELDS: Final = frozenset.intersection(*(frozenset(s["properties"]) for s in event_schemas().values()))
"""Fields every event has (``type``, ``at``): described once, not in each event."""


def event_section(kind: str) -> Section:
    return section(LOG_FORMAT, f"`{kind}`")


# -- events and fields -------------------------------------------------------------------


def test_the_documented_events_are_the_events_of_the_schema() -> None:
    documented = {s.title.strip("`") for s in sections(LOG_FORMAT) if s.level == 3 and re.fullmatch(r"`\w+`", s.title)}
    assert set(EVENT_TYPES) == set(event_schemas())
    assert documented == set(EVENT_TYPES), differences("events", documented, EVENT_TYPES)


@pytest.mark.parametrize("kind", sorted(EVENT_TYPES))
def test_every_field_of_an_event_is_in_its_section(kind: str) -> None:
    """Top-level and nested fields alike (``options.self_break``, ``setup_card.card``)."""
    schema = event_schemas()[kind]
    defs = json_schema()["$defs"]
    body = event_section(kind).body
    names = set(schema["properties"]) - COMMON_FIELDS
    names |= {name for prop in schema["properties"].values() for what, name in walk(prop, defs) if what == "field"}
    missing = sorted(str(n) for n in names if not mentions(body, n))
    assert not missing, f"docs/log-format.md, section `{kind}`, does not describe {missing}"


@pytest.mark.parametrize("kind", sorted(EVENT_TYPES))
def test_every_value_a_field_takes_is_documented(kind: str) -> None:
    """Every code a field allows (a role, a winner, an ``error`` kind, a card) is named
    in the event's section or among the identifiers and codes."""
    schema = event_schemas()[kind]
    defs = json_schema()["$defs"]
    shared = section(LOG_FORMAT, "Identifiers and codes").body
    body = event_section(kind).body
    fields = [prop for name, prop in schema["properties"].items() if name != "type"]
    values = {v for prop in fields for what, v in walk(prop, defs) if what == "value" and isinstance(v, str)}
    missing = sorted(v for v in values if not mentions(body, v) and not mentions(shared, v))
    assert not missing, f"docs/log-format.md does not name these values of `{kind}`: {missing}"


def test_the_fields_of_every_line_are_described_once() -> None:
    body = section(LOG_FORMAT, "Fields on every line").body
    assert COMMON_FIELDS, "every event has a `type`"
    assert all(mentions(body, name) for name in COMMON_FIELDS)


def test_the_card_catalogue_matches_the_code() -> None:
    """Every card code of the deck with its copies, and the goal cards."""
    body = section(LOG_FORMAT, "Card codes").body
    rows = {row[0]: row[-1] for row in table_rows(body)}
    expected = {f"`{code}`": str(copies) for code, copies in cards.DECK.items()}
    expected |= {f"`{code}`": "1" for code in cards.GOAL_SIDES}
    assert {code: rows.get(code) for code in expected} == expected
    assert set(rows) <= set(expected) | {"code"}, "a card in the docs that the catalogue does not have"


def test_every_recording_is_explained() -> None:
    """The values of ``recording`` each have their place; observed has its section."""
    values = {v for what, v in walk(event_schemas()["game_started"]["properties"]["recording"], {}) if what == "value"}
    assert values == {"full", "observed"}
    observed = section(LOG_FORMAT, "Observed recording").body
    for kind in ("round_started", "discard", "draw", "goal_revealed", "round_ended"):
        assert mentions(observed, kind), f"the observed section says nothing of `{kind}`"


# -- findings ---------------------------------------------------------------------------


@cache
def violations() -> dict[str, list[str]]:
    """The rows of the violations table by code (``code`` → its cells)."""
    rows = table_rows(section(LOG_FORMAT, "Violations").body)
    return {row[0].strip("`"): row for row in rows if row[0] != "code"}


def test_the_violations_table_holds_the_codes_and_no_others() -> None:
    expected = {code.value for code in Code} | {Unlisted.code}
    assert set(violations()) == expected, differences("codes", violations(), expected)


@pytest.mark.parametrize("code", list(Code), ids=str)
def test_every_code_has_its_severity_and_links_its_rule(code: Code) -> None:
    row = violations().get(code.value)
    assert row is not None, f"`{code}` is not in the violations table of docs/log-format.md"
    severity, rules = row[1], row[-1]
    assert severity == code.severity, f"`{code}` is a {code.severity}; the table says {severity}"
    if code.rule.startswith("R-"):
        assert f"(rules.md#{rule_anchor(code.rule)})" in rules, f"`{code}` must link [{code.rule}]"
    else:  # a rule of the format itself: a section of log-format.md
        local = [target for target in LINK.findall(rules) if target.startswith("#")]
        assert local, f"`{code}` must link the section of log-format.md it breaks"


@pytest.mark.parametrize("pair", sorted(codes_with_rules()), ids=lambda p: f"{p[0]}-{p[1]}")
def test_every_rule_a_code_is_reported_under_is_linked_and_says_so(pair: tuple[Code, str]) -> None:
    """A check citing a rule beside a code: the code's row links the rule, and the
    rule's text in docs/rules.md names the code."""
    code, rule = pair
    assert f"(rules.md#{rule_anchor(rule)})" in violations()[code.value][-1], f"`{code}` must also link {rule}"
    assert mentions(rule_text(rule), code.value), f"docs/rules.md, {rule}, must say it is reported as `{code}`"


def test_the_audit_report_is_described() -> None:
    body = section(LOG_FORMAT, "Audit report").body
    finding = Finding(Code.MISSED_DRAW, 1, "a message")
    outcome = Outcome(1, "nobody", None, {}, ())
    keys = {*AuditReport.model_fields, *finding.as_report(), *outcome.as_report()}
    missing = sorted(key for key in keys if not mentions(body, key))
    assert not missing, f"the audit report section does not describe {missing}"
    for status in ("clean", "violations", "unreadable"):
        assert mentions(body, status)


# -- rules ------------------------------------------------------------------------------


def rule_text(rule: str) -> str:
    """A rule's text in docs/rules.md: from its anchor to the next rule's."""
    text = RULES_DOC.read_text(encoding="utf-8")
    start = text.find(f'<a id="{rule_anchor(rule)}"></a>')
    assert start >= 0, f"docs/rules.md has no anchor for {rule}"
    end = text.find('<a id="r-', start + 1)
    return text[start : end if end >= 0 else len(text)]


@pytest.mark.parametrize("rule", sorted(rule_ids_in_code()))
def test_every_rule_the_code_cites_is_explained(rule: str) -> None:
    text = rule_text(rule)
    heading = next(line for line in text.splitlines() if line.startswith("#"))
    assert re.match(rf"^### {rule} \S", heading), f"{rule}'s anchor must stand above its heading, not {heading!r}"
    assert "**Reported as**" in text, f"docs/rules.md, {rule}: say which findings report it, or why none does"


def test_the_rules_explained_are_the_rules_of_the_code() -> None:
    documented = {a.upper() for a in ANCHOR_TAG.findall(RULES_DOC.read_text(encoding="utf-8"))}
    assert documented == rule_ids_in_code(), differences("rules", documented, rule_ids_in_code())


def test_the_role_and_hand_tables_match_the_code() -> None:
    """R-S1's role counts and R-S4's hand sizes, as ``events.tables`` deals them."""
    dash = "–"
    for row in table_rows(rule_text("R-S1")):
        if not row[0].isdigit():
            continue
        n = int(row[0])
        assert (int(row[1]), int(row[2])) == BASE_ROLE_DECK[n], f"R-S1 base row for {n} players"
        tournament = TOURNAMENT_ROLES.get(n)
        expected = tuple(str(k) for k in tournament) if tournament else (dash, dash, dash)
        assert tuple(row[3:6]) == expected, f"R-S1 tournament row for {n} players"
    documented = {int(row[0]) for row in table_rows(rule_text("R-S1")) if row[0].isdigit()}
    assert documented == set(BASE_ROLE_DECK)
    sizes = {int(row[0]): int(row[1]) for row in table_rows(rule_text("R-S4")) if row[0].isdigit()}
    assert sizes == {n: hand_size(n) for n in BASE_ROLE_DECK}


# -- links, examples, commands -------------------------------------------------------------


def documents() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("doc", documents(), ids=lambda p: p.name)
def test_every_local_link_resolves(doc: Path) -> None:
    for target in links(doc.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        where = (doc.parent / path).resolve() if path else doc
        assert where.exists(), f"{doc.name}: link to {target}: no such file"
        if anchor:
            assert where.suffix == ".md", f"{doc.name}: link to {target}: an anchor in a file that is not markdown"
            assert anchor in anchors(where), f"{doc.name}: link to {target}: no such anchor in {where.name}"


def test_the_readme_points_at_the_docs_that_ship() -> None:
    readme = README.read_text(encoding="utf-8")
    assert "shared/spec" not in readme, "users have no shared/ folder: point at docs/"
    for name in ("docs/log-format.md", "docs/rules.md"):
        assert f"({name})" in readme, f"the README must link {name}"
    for doc in sorted(DOCS.glob("*.md")):
        assert "shared/spec" not in doc.read_text(encoding="utf-8"), f"{doc.name} points at the spec folder"


def example_blocks() -> list[list[str]]:
    """The ``jsonl`` code blocks of docs/log-format.md, as lines."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in LOG_FORMAT.read_text(encoding="utf-8").splitlines():
        if current is None and line == "```jsonl":
            current = []
        elif current is not None and line == "```":
            blocks.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_every_example_line_is_a_valid_event() -> None:
    blocks = example_blocks()
    assert blocks, "docs/log-format.md shows example logs in ```jsonl blocks"
    for block in blocks:
        for number, line in enumerate(block, start=1):
            parsed = parse_line(number, line)
            assert parsed.error is None, f"example line {line[:60]}…: {parsed.error.message}"


def test_every_example_log_audits_as_the_docs_say() -> None:
    """A block that starts a game is a log's beginning: nothing wrong in it but the
    end of the file and the referee's notes."""
    logs = [block for block in example_blocks() if '"type":"game_started"' in block[0]]
    assert logs
    for block in logs:
        findings = audit(block, name="example.jsonl").findings
        assert {f.code.value for f in findings} <= {Code.INCOMPLETE.value, "table_incident"}, [
            f.describe() for f in findings
        ]


@cache
def commands() -> dict[str, set[str]]:
    """Every ``saboteur`` command path (``tournament cut``) with its options."""
    found: dict[str, set[str]] = {}

    def visit(command: Any, path: str) -> None:
        # list_commands and get_command, not .commands: the root loads its commands lazily (cli/lazy.py)
        for name in command.list_commands(None) if hasattr(command, "list_commands") else ():
            sub = command.get_command(None, name)
            here = f"{path} {name}".strip()
            found[here] = {opt for param in sub.params for opt in getattr(param, "opts", ()) if opt.startswith("-")}
            visit(sub, here)

    visit(typer.main.get_command(app), "")
    return found


@pytest.mark.parametrize("doc", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_every_command_the_docs_name_exists(doc: Path) -> None:
    """`` `saboteur audit --json FILE…` ``: the command and each option it is given."""
    for span in re.findall(r"`(saboteur [^`]+)`", doc.read_text(encoding="utf-8")):
        words = span.split()[1:]
        path = ""
        while words and f"{path} {words[0]}".strip() in commands():
            path = f"{path} {words.pop(0)}".strip()
        assert path, f"{doc.name}: `{span}` names no saboteur command"
        options = [w.split("=")[0] for w in words if w.startswith("--")]
        unknown = [o for o in options if o not in commands()[path]]
        assert not unknown, f"{doc.name}: `{span}`: saboteur {path} has no {unknown}"


def test_every_stream_s_schema_is_pointed_at() -> None:
    body = section(LOG_FORMAT, "Other streams").body
    for stream in SCHEMAS:
        if stream != "log":
            assert f"saboteur schema --stream {stream}" in body
