"""What a finding says, before it is put into words.

The replay reports a breach as a sentence *and its values*: the English sentence with
named blanks (``%(player)s laid a broken %(tool)s in front of themselves``), which is
also its id in every language's catalogue, and the values that fill them (a player, a
tool, a cell, a list of players, a count). Findings keep the code and the values
(``Finding.said``, ``--json``'s ``values``); the words are made where they are shown, in
the reader's language. English is
made here (:meth:`Said.english`), the other languages by :mod:`events.language` from
the same id and values.

A value's *name* says what it is, so a language can say it its own way: a ``player``
(or ``target``, ``turn``, ``connector``…) is a player id that a page shows by display name, a
``tool`` is one of pick, lamp and cart, a ``cell`` is an (x, y) pair, a name ending in
``s`` holding a tuple is a list (``players``, ``tools``). Where a count decides the
sentence's form, :attr:`Said.plural` is the English plural sentence and :attr:`count`
names the value that decides it, as ``ngettext`` takes them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final, TypeAlias

CELL_NAMES: Final = frozenset({"cell"})
"""Values that are cells, written ``(x, y)``."""
WINNERS: Final = {
    "gold_diggers": "the gold diggers",
    "saboteurs": "the saboteurs",
    "selfish_dwarf": "the selfish dwarf",
    "nobody": "nobody",
}
STAGES: Final = {"preliminary": "preliminaries", "semifinal": "semi-final", "final": "final"}
WORDS: Final[dict[str, dict[str, str]]] = {
    "winner": WINNERS,
    "claimed_winner": WINNERS,
    "stage": STAGES,
    "earlier": STAGES,
}
"""Values that are codes with English words of their own, by the value's name."""


@dataclass(frozen=True, slots=True)
class Said:
    """A sentence of the replay: its English form (the catalogue id), its values, and
    for a sentence with two forms the English plural and the value that chooses."""

    text: str
    values: tuple[tuple[str, Value], ...] = ()
    plural: str | None = None
    count: str | None = None

    def __post_init__(self) -> None:
        if (self.plural is None) != (self.count is None):
            raise ValueError("a plural sentence names the value that chooses its form, and only then")

    @property
    def named(self) -> dict[str, Value]:
        return dict(self.values)

    def english(self) -> str:
        """The sentence in English, its values written the English way."""
        values = self.named
        template = self.text
        if self.plural is not None and self.count is not None and values.get(self.count) != 1:
            template = self.plural
        return template % {name: english_value(name, value) for name, value in values.items()}


Value: TypeAlias = str | int | tuple[int, int] | tuple[str, ...] | tuple[Said, ...] | None
"""What fills a blank: text (a player id, a card code, a tool, a slot), a number, a
cell, a list of texts, or a list of sentences (``round 1 scores: %(scores)s``, each
score a sentence of its own)."""


def say(text: str, plural: str | None = None, count: str | None = None, /, **values: Value) -> Said:
    """``Said(text, values)``: the form a check writes its sentence in; ``plural`` and
    ``count`` (given by position, so a value may be called ``count``) for a sentence with
    two forms."""
    return Said(text, tuple(values.items()), plural, count)


def sentence(text: str) -> str:
    """Mark an English sentence written apart from its :func:`say` (in a table), so the
    catalogues' extractor finds it; the text itself, unchanged."""
    return text


class Refusal(ValueError):
    """A value refused with a reason a person can act on, as a sentence (so a page or a
    command says it in its reader's language); ``str()`` is its English."""

    def __init__(self, said: Said) -> None:
        super().__init__(said.english())
        self.said = said

    def __reduce__(self) -> tuple[type[Refusal], tuple[object, ...]]:
        return type(self), (self.said,)


def problem(text: str) -> Said:
    """A problem in words made elsewhere (the schema's parser, a file that cannot be
    read): its text is the one value, shown as it is in every language."""
    return Said("%(problem)s", (("problem", text),))


def english_value(name: str, value: Value) -> str:
    """One value as the English sentences write it: a cell as ``(x, y)``, a list as
    ``a, b and c``, a number with thousands marked."""
    if value is None:
        return ""
    if isinstance(value, tuple):
        if name in CELL_NAMES:
            return f"({value[0]}, {value[1]})"
        if value and isinstance(value[0], Said):
            return ", ".join(part.english() for part in value if isinstance(part, Said))
        return joined([str(v) for v in value])
    if isinstance(value, str) and name in WORDS:
        return WORDS[name].get(value, value)
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def joined(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def stored(said: Said) -> str:
    """``said`` as the store keeps it beside a finding's English message (a JSON text):
    its sentence, plural and values, so a page can put it into any language later.
    :func:`read_stored` reads it back as it was."""
    return json.dumps(_encoded(said), ensure_ascii=False, separators=(",", ":"))


def _encoded(said: Said) -> dict[str, object]:
    values: dict[str, object] = {}
    for name, value in said.values:
        if isinstance(value, tuple):
            values[name] = [_encoded(v) if isinstance(v, Said) else v for v in value]
        else:
            values[name] = value
    found: dict[str, object] = {"text": said.text, "values": values}
    if said.plural is not None:
        found |= {"plural": said.plural, "count": said.count}
    return found


def read_stored(text: str) -> Said:
    """A sentence as :func:`stored` wrote it; a :class:`ValueError` that says what is
    wrong for anything else (a store is a file like any other)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"a stored sentence is not JSON: {exc}") from None
    return _decoded(data)


def _decoded(data: object) -> Said:
    if not isinstance(data, dict) or not isinstance(data.get("text"), str) or not isinstance(data.get("values"), dict):
        raise ValueError("a stored sentence is an object with a text and its values")
    plural, count = data.get("plural"), data.get("count")
    if not (plural is None or isinstance(plural, str)) or not (count is None or isinstance(count, str)):
        raise ValueError("a stored sentence's plural and count are texts")
    values: list[tuple[str, Value]] = []
    for name, value in data["values"].items():
        values.append((name, _value(name, value)))
    return Said(data["text"], tuple(values), plural, count)


def _value(name: str, value: object) -> Value:
    if value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, list):
        if name in CELL_NAMES and len(value) == 2 and all(type(v) is int for v in value):
            return (value[0], value[1])
        if all(isinstance(v, dict) for v in value):
            return tuple(_decoded(v) for v in value)
        if all(isinstance(v, str) for v in value):
            return tuple(value)
    raise ValueError(f"a stored sentence's value {name!r} is not a text, a number, a cell or a list of them")


def read_stored_all(text: str) -> tuple[Said, ...]:
    """Sentences kept together as a JSON list of what :func:`stored` writes (the
    standings' reasons for a place)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"stored sentences are not JSON: {exc}") from None
    if not isinstance(data, list):
        raise ValueError("stored sentences are a list of them")
    return tuple(_decoded(item) for item in data)
