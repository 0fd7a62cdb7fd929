"""Bad input made from good: Hypothesis strategies that mutate a valid file.

Each strategy takes the bytes of a valid file and returns bytes that differ from it in
one way a hostile or careless uploader would: bytes flipped, cut or spliced in; lines
dropped, doubled, swapped or replaced; one field of a JSON line or a CSV row given a
hostile value; the JSON tree of a tournament file restructured. Starting from valid
files keeps most examples close to the audit's edges instead of failing at byte one.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from typing import Any, Final

from hypothesis import strategies as st

Draw = Callable[[st.SearchStrategy[Any]], Any]

HOSTILE_TEXT: Final = (
    "",
    " ",
    '=HYPERLINK("http://evil.example","win")',
    "-1",
    "+1",
    "@SUM(1+1)",
    "0",
    "1e9",
    "9999999999999999999999",
    "-9223372036854775809",
    "NaN",
    "٣",  # an Arabic-Indic digit: int() reads it
    "1_000",
    "0x10",
    "true",
    '"',
    '""',
    "a,b",
    "\r\n",
    "\x00",
    "\ufeff",
    "\u202e",
    "x" * 70_000,
    "x" * 140_000,
)
"""Field values that have broken parsers somewhere: formulas, numbers past every
integer type, digits int() reads, quotes, separators, NUL, BOM, RTL, sizes past the
line limit (64 KiB) and the csv module's field limit (128 KiB)."""

HOSTILE_LINES: Final = (
    b"",
    b"\xef\xbb\xbf",
    b"\x00",
    b"\xff\xfe",
    b"{}",
    b"[]",
    b"null",
    b"1e99999",
    b"NaN",
    b'"\\ud800"',
    b'{"type":"game_started"}',
    b'{"type":"draw","type":"draw"}',
    b'{"type":"round_started","round":1e400}',
    b"[" * 50_000 + b"]" * 50_000,
    b'{"a":' * 5_000 + b"1" + b"}" * 5_000,
    b"x" * (70 * 1024),
    b"\r",
)
"""Whole lines that have broken parsers somewhere: not JSON, JSON that is no object,
duplicate keys, numbers past a float, lone surrogates, deep nesting, a line past the
64 KiB limit, a BOM or a carriage return alone."""

BOUNDARY_INTEGERS: Final = (-1, 0, 2**31 - 1, 2**31, -(2**31) - 1, 2**63, -(2**63) - 1, 2**64, 10**30)
"""Integers at the edges of the store's column types (INTEGER, BIGINT) and past them."""

JSON_VALUES: Final[st.SearchStrategy[Any]] = st.recursive(
    st.none()
    | st.booleans()
    | st.sampled_from(BOUNDARY_INTEGERS)
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats()
    | st.sampled_from(HOSTILE_TEXT)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=8,
)
"""Any JSON value, NaN and infinities included (``json.dumps`` writes them)."""


EDITS: Final = st.sampled_from((1, 1, 1, 1, 2, 3))
"""How many edits one example makes: mostly one, since a second usually breaks the file
before the first is reached."""


# -- bytes ------------------------------------------------------------------------------


@st.composite
def byte_edits(draw: Draw, seed: bytes) -> bytes:
    """``seed`` with one to three edits (:data:`EDITS`): a byte flipped, a range cut out, random bytes
    spliced in, the tail cut off, or a range repeated."""
    data = bytearray(seed)
    for _ in range(draw(EDITS)):
        at = draw(st.integers(0, len(data)))
        end = draw(st.integers(at, min(len(data), at + 4096)))
        match draw(st.sampled_from(("flip", "cut", "splice", "truncate", "repeat"))):
            case "flip" if at < len(data):
                data[at] ^= 1 << draw(st.integers(0, 7))
            case "cut":
                del data[at:end]
            case "splice":
                data[at:at] = draw(st.binary(min_size=1, max_size=64))
            case "truncate":
                del data[at:]
            case "repeat":
                data[at:at] = data[at:end] * draw(st.integers(1, 50))
    return bytes(data)


# -- lines ------------------------------------------------------------------------------


@st.composite
def line_edits(draw: Draw, seed: bytes) -> bytes:
    """``seed`` with one to three line edits: a line dropped, doubled, swapped with
    another, replaced by a hostile line or random bytes, or one inserted; line ends
    sometimes ``\\r\\n``."""
    lines = seed.split(b"\n")
    for _ in range(draw(EDITS)):
        at = draw(st.integers(0, len(lines) - 1)) if lines else 0
        match draw(st.sampled_from(("drop", "double", "swap", "replace", "insert"))):
            case "drop" if lines:
                del lines[at]
            case "double" if lines:
                lines.insert(at, lines[at])
            case "swap" if lines:
                other = draw(st.integers(0, len(lines) - 1))
                lines[at], lines[other] = lines[other], lines[at]
            case "replace" if lines:
                lines[at] = draw(st.sampled_from(HOSTILE_LINES) | st.binary(max_size=80))
            case _:
                lines.insert(at, draw(st.sampled_from(HOSTILE_LINES)))
    end = draw(st.sampled_from((b"\n", b"\r\n")))
    return end.join(lines)


# -- fields -----------------------------------------------------------------------------


@st.composite
def json_line_edits(draw: Draw, seed: bytes) -> bytes:
    """A game log with one to three of its JSON lines changed field by field: a value
    replaced by any JSON value, a node deep in it changed, a number set to an edge, a
    field dropped, an unknown field added, or the ``type`` swapped for another event's."""
    lines = seed.split(b"\n")
    types = sorted({json.loads(line)["type"] for line in lines if line.strip()})
    for _ in range(draw(EDITS)):
        at = draw(st.integers(0, len(lines) - 1))
        if not lines[at].strip():
            continue
        event = json.loads(lines[at])
        key = draw(st.sampled_from(sorted(event)))
        match draw(st.sampled_from(("value", "nested", "number", "drop", "add", "type"))):
            case "value":
                event[key] = draw(JSON_VALUES)
            case "nested":
                event = tree_edit(draw, event)
            case "number":
                event = number_edit(draw, event)
            case "drop":
                del event[key]
            case "add":
                event[draw(st.text(min_size=1, max_size=12))] = draw(JSON_VALUES)
            case _:
                event["type"] = draw(st.sampled_from(types))
        lines[at] = json.dumps(event, separators=(",", ":"), ensure_ascii=draw(st.booleans())).encode(
            "utf-8", "surrogatepass"
        )
    return b"\n".join(lines)


@st.composite
def csv_field_edits(draw: Draw, seed: bytes) -> bytes:
    """A score sheet with one to three cells of its rows (or header) given a hostile
    value or random text, quoted or not."""
    lines = seed.decode("utf-8").split("\n")
    for _ in range(draw(EDITS)):
        at = draw(st.integers(0, len(lines) - 1))
        cells = lines[at].split(",")
        column = draw(st.integers(0, len(cells) - 1))
        value = draw(st.sampled_from(HOSTILE_TEXT) | st.text(max_size=30))
        if draw(st.booleans()):
            value = '"' + value.replace('"', '""') + '"'
        cells[column] = value
        lines[at] = ",".join(cells)
    return "\n".join(lines).encode("utf-8", "surrogatepass")


# -- JSON trees -------------------------------------------------------------------------


def _paths(tree: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node's path from the root (keys and indexes), the root's ``()`` first."""
    children: list[tuple[Any, Any]] = []
    if isinstance(tree, dict):
        children = sorted(tree.items())
    elif isinstance(tree, list):
        children = list(enumerate(tree))
    return [path] + [p for key, child in children for p in _paths(child, (*path, key))]


def tree_edit(draw: Draw, tree: Any) -> Any:
    """``tree`` (decoded JSON) with one node changed, chosen among all nodes alike (so
    mostly leaves: a name, a number, an id): the node replaced (:func:`_node_edit`), or
    removed from its object or list, doubled in its list, or given an unknown sibling."""
    path = draw(st.sampled_from(_paths(tree)))
    if not path:
        return _node_edit(draw, tree)
    parent, key = _at(tree, path[:-1]), path[-1]
    match draw(st.sampled_from(("edit", "edit", "edit", "edit", "remove", "double", "sibling"))):
        case "remove":
            del parent[key]
        case "double" if isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(parent[key])))
        case "sibling" if isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=12))] = draw(JSON_VALUES)
        case _:
            parent[key] = _node_edit(draw, parent[key])
    return tree


def _node_edit(draw: Draw, node: Any) -> Any:
    """A node replaced: most often by one of its own kind at an edge (a number past a
    column's type, a hostile text, an empty or long list), else by any JSON value, the
    node in a list, or the node as a string."""
    match draw(st.sampled_from(("kin", "kin", "kin", "kin", "kin", "value", "wrap", "stringify"))):
        case "kin" if _is_integer(node):
            return draw(st.sampled_from(BOUNDARY_INTEGERS))
        case "kin" if isinstance(node, str):
            return draw(st.sampled_from(HOSTILE_TEXT) | st.text(max_size=20))
        case "kin" if isinstance(node, list):
            return draw(st.sampled_from(([], node * 2, node * 20, [node])))
        case "wrap":
            return [node]
        case "stringify":
            return json.dumps(node)
        case _:
            return draw(JSON_VALUES)


def number_edit(draw: Draw, tree: Any) -> Any:
    """``tree`` with one of its integers (a round, points, a seed) set to one at the edge
    of a store column's type or past it: the kind of value that passes a model without
    a bound and then breaks the write of a whole batch."""
    numbers = [path for path in _paths(tree) if _is_integer(_at(tree, path))]
    if not numbers:
        return tree
    path = draw(st.sampled_from(numbers))
    value = draw(st.sampled_from(BOUNDARY_INTEGERS))
    if not path:
        return value
    _at(tree, path[:-1])[path[-1]] = value
    return tree


def _at(tree: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        tree = tree[key]
    return tree


def _is_integer(node: Any) -> bool:
    return isinstance(node, int) and not isinstance(node, bool)


@st.composite
def json_number_edits(draw: Draw, seed: bytes) -> bytes:
    """A JSON file with one to three of its integers at an edge (:func:`number_edit`)."""
    tree = json.loads(seed)
    for _ in range(draw(EDITS)):
        tree = number_edit(draw, tree)
    return json.dumps(tree, indent=1).encode("utf-8")


@st.composite
def json_tree_edits(draw: Draw, seed: bytes) -> bytes:
    """A JSON file with one to three nodes of its tree changed (:func:`tree_edit`),
    written back compact or indented, ASCII or not."""
    tree = json.loads(seed)
    for _ in range(draw(EDITS)):
        tree = tree_edit(draw, tree)
    indent = draw(st.sampled_from((None, 1)))
    return json.dumps(tree, indent=indent, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")


# -- wrappers ---------------------------------------------------------------------------


def gzipped(data: bytes) -> bytes:
    """``data`` compressed as ``.jsonl.gz`` holds it (no time stamp: the same bytes each run)."""
    return gzip.compress(data, mtime=0)


FILE_NAMES: Final[st.SearchStrategy[bytes]] = st.binary(min_size=1, max_size=48).map(
    lambda name: b"_" + name.replace(b"/", b"_").replace(b"\x00", b"_")
)
"""A file name as a file system stores it: any bytes but ``/`` and NUL, UTF-8 or not."""
