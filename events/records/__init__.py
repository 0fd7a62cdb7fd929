"""The records of a tournament, beside its game logs: the tournament's own stream
(``tournament:<id>``) and the games that come in on a score sheet (``game:<id>``).

As with the log (:mod:`events.schema`), each event is a frozen pydantic model, closed
(``extra="forbid"``) and strict, joined in a union discriminated on ``type``; events
are built and read as these models, never as loose dicts. What a model holds is what
the store keeps: :func:`dump` writes the payload, with only the fields an event was
given, byte for byte as the ledger has always stored it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter


class Record(BaseModel):
    """Strict, closed and frozen, like a log line."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def dump(record: Record) -> str:
    """The stored payload of an event: compact JSON, only the fields it was given, in
    the model's order, text as written (not escaped to ASCII)."""
    return record.model_dump_json(exclude_unset=True)


def published_schema(adapter: TypeAdapter[Any], name: str, title: str, description: str) -> dict[str, Any]:
    """The JSON Schema of one event of a stream, as published beside the log's
    (``events/<name>``, ``saboteur schema --stream``)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": name,
        "title": title,
        "description": description,
        **adapter.json_schema(),
    }
