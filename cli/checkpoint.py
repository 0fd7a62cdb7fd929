"""``saboteur checkpoint keygen|publish``: the organiser's key, and the chain's heads
published outside the store, signed with it (``docs/chain.md``).

A checkpoint is checked by ``saboteur verify --checkpoint FILE --public-key PEM``;
publishing one also records it in the tournament's record (``tournament log``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from analytics import records
from cli.errors import refuse
from cli.options import with_writing_store
from cli.output import Terminal as Console
from cli.paths import checked_output, output_path
from cli.speech import speaking, told
from events.records.tournament import CheckpointPublished
from events.said import say
from ingest import checkpoint
from ingest.store import Store

app = typer.Typer(
    rich_markup_mode="markdown",  # a docstring's lines join into one paragraph, wrapped to the terminal
    help="The organiser's key, and signed checkpoints of the chain's heads.",
    no_args_is_help=True,
)


@app.command()
@speaking
def keygen(
    key: Annotated[Path, typer.Option("--key", help="Where to write the private key (PEM, owner-only).")] = Path(
        "checkpoint.key"
    ),
    public: Annotated[
        Path | None, typer.Option("--public-key", help="Where to write the public key (default: KEY.pub).")
    ] = None,
) -> None:
    """Make the organiser's Ed25519 key pair; never replaces a key."""
    shared = public if public is not None else key.with_name(key.name + ".pub")
    fingerprint = checkpoint.keygen(key, shared)
    console = Console(soft_wrap=True)
    made = say("private key %(key)s (keep it off the server), public key %(public)s", key=str(key), public=str(shared))
    console.print(escape(told(made)))
    console.print(escape(told(say("key fingerprint %(fingerprint)s", fingerprint=fingerprint))))


def _tournament(store: Store, named: str | None) -> str | None:
    """The tournament whose record keeps the checkpoint: the one named, else the only
    one stored (``None``: the store holds none)."""
    with store.connect(read_only=True) as con:
        held = [str(t) for (t,) in con.execute("SELECT tournament FROM tournaments ORDER BY tournament").fetchall()]
    if named is not None:
        if named not in held:
            raise refuse(told(say("no tournament %(tournament)s is stored", tournament=named)), 2)
        return named
    if len(held) > 1:
        many = say(
            "the store holds %(count)s tournaments (%(tournaments)s): name one with --tournament",
            count=len(held),
            tournaments=", ".join(held),
        )
        raise refuse(told(many), 2)
    return held[0] if held else None


@app.command()
@speaking
@with_writing_store
def publish(
    key: Annotated[Path, typer.Option("--key", help="The organiser's private key (saboteur checkpoint keygen).")],
    output: Annotated[
        Path, typer.Option("-o", "--output", help="The checkpoint file to write and publish.", parser=output_path)
    ],
    tournament: Annotated[
        str | None,
        typer.Option(help="The tournament whose record notes the checkpoint (default: the only one stored)."),
    ] = None,
    *,
    store: Store,
) -> None:
    """Sign the chain's heads as they stand, write them to a file to publish, and note
    the checkpoint in the tournament's record."""
    checked_output(output)
    signer = checkpoint.private_key(key)
    target = _tournament(store, tournament)
    published = checkpoint.publish(store, signer)
    # written aside, moved into place once the record has it: a record that could not be
    # written (a full disk) left a file published that no record notes
    aside = output.with_name(f".{output.name}.{os.getpid()}.part")
    checkpoint.write(aside, published)
    try:
        recorded = records.append(store, target, [CheckpointPublished.of(published)]) if target is not None else None
    except records.RecordError as exc:
        aside.unlink(missing_ok=True)
        raise refuse(told(exc.said), 1) from None
    except BaseException:
        aside.unlink(missing_ok=True)
        raise
    os.replace(aside, output)
    console = Console(soft_wrap=True)
    written = say(
        "checkpoint %(file)s: event position %(position)s, head %(head)s; upload %(upload)s, uploads head "
        "%(uploads_head)s; key %(key)s",
        file=str(output),
        position=str(published.position),
        head=published.head,
        upload=str(published.uploads),
        uploads_head=published.uploads_head,
        key=published.key,
    )
    console.print(escape(told(written)))
    if recorded is None:
        console.print(told(say("no tournament is stored: the checkpoint is in no record")))
        return
    noted = say(
        "recorded in %(stream)s, now at version %(version)s", stream=recorded.stream, version=str(recorded.version)
    )
    console.print(escape(told(noted)))
