"""Checkpoints: the chain's heads published outside the store, signed by the organiser.

A chain recomputed from its first event is consistent in itself, and so is one cut
short: no check inside the file can see either. A head published earlier can: the one
``saboteur verify`` prints (``--expect-head``), or a checkpoint file the organiser
signs with an Ed25519 key (:func:`publish`, ``saboteur checkpoint publish``). Each
becomes an :class:`Anchor` that :mod:`ingest.verify` requires the chain still to hold
at its place. What that proves, and what it cannot: ``docs/chain.md``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, Literal

import orjson
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from pydantic import ValidationError

from events.records.tournament import Checkpoint
from events.said import Refusal, say
from ingest.chain import moment_text
from ingest.store import Store

FORMAT: Final = "saboteur-checkpoint/1"
"""The ``format`` of a checkpoint file, and part of what its signature covers."""


class CheckpointError(Refusal):
    """A key or checkpoint file that cannot be used: one line naming it, a sentence the
    command says in its reader's language."""


@dataclass(frozen=True, slots=True)
class Anchor:
    """A head published outside the store, which its chain must still hold: an event's
    hash (``strand`` ``"events"``, at position ``at`` if given), an upload's link hash
    (``"uploads"``, at upload ``at``), or either (``None``: a bare ``--expect-head``).
    ``source`` names where it came from, for the report."""

    head: str
    source: str
    strand: Literal["events", "uploads"] | None = None
    at: int | None = None


# -- keys ------------------------------------------------------------------------------


def fingerprint(public: Ed25519PublicKey) -> str:
    """The SHA-256 of the raw public key, hex: how a checkpoint names its signer."""
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()


def keygen(key: Path, public: Path) -> str:
    """A new Ed25519 key pair: the private key to ``key`` (PEM, readable by its owner
    only), the public one to ``public`` (PEM); refuses to replace either. Returns the
    public key's fingerprint."""
    private = Ed25519PrivateKey.generate()
    secret = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    shared = private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    for path in (key, public):
        if path.exists():
            raise CheckpointError(
                say("%(file)s exists: a key is never replaced (choose another --key)", file=str(path))
            )
    try:
        descriptor = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(secret)
        public.write_bytes(shared)
    except OSError as exc:
        said = say(
            "%(file)s: cannot write it: %(problem)s", file=str(exc.filename or key), problem=str(exc.strerror or exc)
        )
        raise CheckpointError(said) from None
    return fingerprint(private.public_key())


def _pem(path: Path, load: Callable[[bytes], object]) -> object:
    """What ``load`` makes of the PEM file ``path`` (``None``: nothing it can read)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        said = say("%(file)s: cannot read the key: %(problem)s", file=str(path), problem=str(exc.strerror or exc))
        raise CheckpointError(said) from None
    try:
        return load(data)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        return None


def private_key(path: Path) -> Ed25519PrivateKey:
    """The organiser's private key from a PEM file (unencrypted, as :func:`keygen`
    writes it)."""
    key = _pem(path, lambda data: serialization.load_pem_private_key(data, None))
    if isinstance(key, Ed25519PrivateKey):
        return key
    raise CheckpointError(say("%(file)s: not an Ed25519 private key (PEM)", file=str(path)))


def public_key(path: Path) -> Ed25519PublicKey:
    """An organiser's public key from a PEM file (as :func:`keygen` writes it)."""
    key = _pem(path, serialization.load_pem_public_key)
    if isinstance(key, Ed25519PublicKey):
        return key
    raise CheckpointError(say("%(file)s: not an Ed25519 public key (PEM)", file=str(path)))


# -- checkpoints -------------------------------------------------------------------------


def _signed(checkpoint: Checkpoint) -> bytes:
    """What a checkpoint's signature covers: its fields but the signature, with its
    format, as canonical JSON (sorted keys, no spaces)."""
    fields = checkpoint.model_dump(exclude={"signature"})
    return orjson.dumps({"format": FORMAT, **fields}, option=orjson.OPT_SORT_KEYS)


def publish(store: Store, key: Ed25519PrivateKey, *, at: datetime | None = None) -> Checkpoint:
    """The store's heads as they stand (read-only), signed with ``key``."""
    with store.connect(read_only=True) as con:
        position, head = store.head(con)
        uploads, uploads_head = store.uploads_head(con)
    unsigned = Checkpoint.model_construct(
        position=position,
        head=head,
        uploads=uploads,
        uploads_head=uploads_head,
        published_at=moment_text(at or datetime.now(UTC)),
        key=fingerprint(key.public_key()),
        signature="",
    )
    signature = base64.b64encode(key.sign(_signed(unsigned))).decode("ascii")
    return Checkpoint.model_validate(unsigned.model_dump() | {"signature": signature})


def write(path: Path, checkpoint: Checkpoint) -> None:
    """A checkpoint file: its format, then the checkpoint's fields, as JSON."""
    text = json.dumps({"format": FORMAT, **checkpoint.model_dump()}, indent=2) + "\n"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        said = say("%(file)s: cannot write it: %(problem)s", file=str(path), problem=str(exc.strerror or exc))
        raise CheckpointError(said) from None


def read(path: Path) -> Checkpoint:
    """A checkpoint file, as :func:`write` writes it (its signature not yet checked)."""
    try:
        data = json.loads(path.read_bytes())
    except OSError as exc:
        said = say(
            "%(file)s: cannot read the checkpoint: %(problem)s", file=str(path), problem=str(exc.strerror or exc)
        )
        raise CheckpointError(said) from None
    except (ValueError, RecursionError):  # RecursionError: nested past what json reads
        raise CheckpointError(
            say("%(file)s: not a checkpoint (not JSON, or nested too deeply)", file=str(path))
        ) from None
    if not isinstance(data, dict) or data.pop("format", None) != FORMAT:
        raise CheckpointError(
            say('%(file)s: not a checkpoint (no "format": "%(format)s")', file=str(path), format=FORMAT)
        )
    try:
        return Checkpoint.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "the checkpoint"
        said = say(
            "%(file)s: not a checkpoint: `%(where)s`: %(problem)s",
            file=str(path),
            where=where,
            problem=str(first["msg"]),
        )
        raise CheckpointError(said) from None


def signed_by(checkpoint: Checkpoint, key: Ed25519PublicKey) -> bool:
    """Whether ``key`` signed the checkpoint as it reads now."""
    if checkpoint.key != fingerprint(key):
        return False
    try:
        key.verify(base64.b64decode(checkpoint.signature), _signed(checkpoint))
    except InvalidSignature:
        return False
    return True


def anchors(checkpoint: Checkpoint, source: str) -> tuple[Anchor, Anchor]:
    """What a checkpoint pins: the event head at its position, the uploads' head at
    its upload."""
    return (
        Anchor(checkpoint.head, source, "events", checkpoint.position),
        Anchor(checkpoint.uploads_head, source, "uploads", checkpoint.uploads),
    )
