"""The log's events as msgspec Structs, made from the pydantic models: the audit's reading.

The audit reads every line of a log once and then only reads the fields of its events;
msgspec decodes a block of lines straight from the bytes into Structs in a fraction of
the time pydantic takes to validate them. The Structs are not written by hand: they are
made here from the models of :mod:`events.schema` — the same fields, types, literals,
patterns and bounds — so the two cannot drift apart, and a test decodes the same lines
both ways.

A Struct refuses at least what its model refuses, and anything it refuses (or anything
the models judge with more than field types: a ``null`` in a field that may only be left
out, a key written twice) goes the pydantic way, which words every finding. So the two
readings give the same findings; only the objects differ. A Struct has the fields of its
model and its ``type`` (a class attribute), and the checking replay reads nothing else:
it handles both alike, by their ``type``. ``game_started`` has no Struct: the header is
read once, by pydantic, which checks what no field type says (a player seated twice).
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from operator import attrgetter
from typing import Annotated, Any, Final, Literal, Union, get_args, get_origin

import annotated_types
import msgspec
from pydantic import BaseModel, StringConstraints, TypeAdapter, ValidationError, WithJsonSchema
from pydantic.fields import FieldInfo

from events.schema import EVENT_MODELS, NESTED_KEYS, Event, GameStarted

_BOUNDS: Final = {
    annotated_types.Ge: "ge",
    annotated_types.Le: "le",
    annotated_types.Gt: "gt",
    annotated_types.Lt: "lt",
    annotated_types.MinLen: "min_length",
    annotated_types.MaxLen: "max_length",
}


def _meta(constraints: Sequence[object]) -> dict[str, Any]:
    """The msgspec ``Meta`` arguments saying what pydantic's constraints say.

    A constraint with no msgspec equal (a validator) raises ``TypeError``: a model that
    needs one has no Struct, rather than a Struct that lets more through.
    """
    meta: dict[str, Any] = {}
    for constraint in constraints:
        if isinstance(constraint, FieldInfo):
            meta.update(_meta(constraint.metadata))
        elif isinstance(constraint, StringConstraints):
            for name in ("pattern", "min_length", "max_length"):
                if getattr(constraint, name) is not None:
                    meta[name] = getattr(constraint, name)
            if any(getattr(constraint, name) for name in ("strip_whitespace", "to_upper", "to_lower", "ascii_only")):
                raise TypeError(f"no msgspec equal of {constraint!r}")
        elif type(constraint) in _BOUNDS:
            name = _BOUNDS[type(constraint)]
            meta[name] = getattr(constraint, name)
        elif not isinstance(constraint, WithJsonSchema):  # documentation only
            raise TypeError(f"no msgspec equal of {constraint!r}")
    return meta


def _annotation(annotation: Any, constraints: Sequence[object] = ()) -> Any:
    """The msgspec type of a pydantic field's type (and the field's own constraints)."""
    meta = _meta(constraints)
    origin = get_origin(annotation)
    if origin is Annotated:
        base, *more = get_args(annotation)
        return _annotation(base, [*more, *constraints])
    if origin is Union or origin is types.UnionType:
        found: Any = Union[tuple(_annotation(arg) for arg in get_args(annotation))]  # noqa: UP007
    elif origin is list:
        found = list[_annotation(get_args(annotation)[0])]  # type: ignore[misc]
    elif origin is dict:
        key, value = get_args(annotation)
        found = dict[_annotation(key), _annotation(value)]  # type: ignore[misc]
    elif origin is Literal or annotation in (str, int, bool, type(None)):
        found = annotation
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        found = _struct(annotation)
    else:
        raise TypeError(f"no msgspec equal of {annotation!r}")
    return Annotated[found, msgspec.Meta(**meta)] if meta else found


def _pattern(info: FieldInfo) -> str | None:
    """The pattern of a field that is a patterned string (or ``null``) and nothing more:
    ``at``, ``player`` and the like, which :func:`patterns_hold` checks a block at a time."""
    annotation, constraints = info.annotation, list(info.metadata)
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [arg for arg in get_args(annotation) if arg is not type(None)]
        annotation = rest[0] if len(rest) == 1 else annotation
    if get_origin(annotation) is Annotated:
        annotation, *more = get_args(annotation)
        constraints += more
    if annotation is not str:
        return None
    meta = _meta(constraints)
    pattern: str | None = meta.pop("pattern", None)
    return pattern if not meta else None


def _struct(model: type[BaseModel], tag: str | None = None) -> type[msgspec.Struct]:
    """A frozen, closed Struct with the fields of ``model``; tagged by ``type`` for an
    event. Fields that may be left out default to ``None``. An event's patterned string
    fields are plain strings here (:func:`patterns_hold` checks them a block at a time,
    several times faster than msgspec calling the pattern on each)."""
    fields: list[Any] = []
    for name, info in model.model_fields.items():
        if name == "type" and tag is not None:
            continue
        if tag is not None and _pattern(info) is not None:
            kind: Any = str | None if get_origin(info.annotation) in (Union, types.UnionType) else str
        else:
            kind = _annotation(info.annotation, info.metadata)
        fields.append((name, kind) if info.is_required() else (name, kind, None))
    namespace = {"__doc__": model.__doc__, "type": tag} if tag is not None else {"__doc__": model.__doc__}
    return msgspec.defstruct(
        model.__name__,
        fields,
        namespace=namespace,
        kw_only=True,
        frozen=True,
        forbid_unknown_fields=True,
        gc=False,
        tag_field="type" if tag is not None else None,
        tag=tag,
    )


def _tag(model: type[Event]) -> str:
    tag: str = get_args(model.model_fields["type"].annotation)[0]
    return tag


STRUCTS: Final = {model: _struct(model, _tag(model)) for model in EVENT_MODELS if model is not GameStarted}
"""The Struct of every event model but the header's."""
_ANY_EVENT: Final[Any] = Union[tuple(STRUCTS.values())]  # noqa: UP007
_DECODER: Final = msgspec.json.Decoder(types.GenericAlias(list, (_ANY_EVENT,)))
_OPTIONAL: Final = {
    STRUCTS[model]: tuple(name for name, info in model.model_fields.items() if not info.is_required())
    for model in STRUCTS
}
"""The fields that may be left out, by Struct: a ``None`` there means left out (or a
``null`` written, which only pydantic words)."""
_REQUIRED_KEYS: Final = {
    STRUCTS[model]: sum(info.is_required() for info in model.model_fields.values()) for model in STRUCTS
}
_NESTED: Final = {STRUCTS[model]: keys for model, keys in NESTED_KEYS.items() if model in STRUCTS}
_AT: Final = attrgetter("at")
_FLAT: Final = frozenset(
    struct for struct, optional in _OPTIONAL.items() if optional == ("at",) and struct not in _NESTED
)
"""Structs whose keys are their required fields and ``at``: the lines of play."""


Patterned = tuple["attrgetter[Any]", frozenset[type[msgspec.Struct]], TypeAdapter[list[Any]]]


def _patterned() -> list[Patterned]:
    """For each patterned string field of the events (``at``, ``player``, …): how to
    read it, the Structs that have it, and pydantic's own check of a list of its values
    (the model's type: the same pattern, matched by the same engine)."""
    found: dict[str, tuple[Any, set[type[msgspec.Struct]]]] = {}
    for model, struct in STRUCTS.items():
        for name, info in model.model_fields.items():
            if _pattern(info) is not None:
                annotation = Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
                found.setdefault(name, (annotation, set()))[1].add(struct)
    return [
        (attrgetter(name), frozenset(holders), TypeAdapter(list[annotation]))  # type: ignore[valid-type]
        for name, (annotation, holders) in found.items()
    ]


_PATTERNED: Final = _patterned()
_EVERY: Final = frozenset(STRUCTS.values())


def patterns_hold(events: Sequence[Any]) -> bool:
    """Whether every patterned string field of ``events`` matches its pattern, checked
    by pydantic a field at a time over the whole block (msgspec would call Python's
    ``re`` on each value, which costs more than decoding the block)."""
    for read, holders, check in _PATTERNED:
        values = list(map(read, events)) if holders == _EVERY else [read(e) for e in events if type(e) in holders]
        try:
            check.validate_python(values, strict=True)
        except ValidationError:
            return False
    return True


def decode_block(joined: bytes) -> list[Any] | None:
    """The events of a JSON array of log lines, or ``None`` if msgspec refuses any."""
    try:
        events: list[Any] = _DECODER.decode(joined)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        return None
    return events


def keys_in(events: Sequence[Any]) -> int:
    """How many keys the lines of ``events`` hold, nested ones included, as
    :func:`events.schema.keys_in` counts them for models: a line that names a field
    twice holds one key more than this (JSON decoders keep the last)."""
    given = sum(map(_REQUIRED_KEYS.__getitem__, map(type, events)))
    given += len(events) - list(map(_AT, events)).count(None)
    return given + sum(_rest_keys(event) for event in events if type(event) not in _FLAT)


def _rest_keys(event: Any) -> int:
    optional = sum(getattr(event, name) is not None for name in _OPTIONAL[type(event)] if name != "at")
    nested = _NESTED.get(type(event))
    return optional + (nested(event) if nested is not None else 0)
