"""``saboteur dashboard``: the Streamlit dashboard over the store."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Final

import typer

from cli.store import DbOption
from ingest.limits import MAX_UPLOAD_MIB
from ingest.store import default_path

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
LOOPBACK: Final = "127.0.0.1"
"""Served to this machine only unless ``--address`` says otherwise."""


def command(port: int, db: Path, address: str = LOOPBACK) -> list[str]:
    """The ``streamlit run`` command line (headless: it prints the address to open)."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.address",
        address,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--client.toolbarMode",
        "viewer",
        "--server.maxUploadSize",  # the limit `saboteur ingest` keeps to
        str(MAX_UPLOAD_MIB),
        "--",
        "--db",
        str(db),
    ]


def dashboard_command(
    db: DbOption = None,
    port: Annotated[int, typer.Option("--port", help="The port to serve the dashboard on.")] = 8501,
    address: Annotated[
        str,
        typer.Option(
            "--address",
            help="The address to listen on: 127.0.0.1 serves this machine only; 0.0.0.0 every network it is on.",
        ),
    ] = LOOPBACK,
) -> None:
    """Serve the dashboard (standings, roles, players, rounds, replay; upload and audit
    for the organiser, whose password is $SABOTEUR_ADMIN_PASSWORD).

    It opens the store for one query at a time, so `saboteur ingest` runs beside it.
    It listens on this machine only unless `--address` opens it to a network.
    """
    path = (db if db is not None else default_path()).resolve()
    env = {**os.environ, "SABOTEUR_DB": str(path)}
    host = f"[{address}]" if ":" in address else address  # an IPv6 address in a URL
    typer.echo(f"dashboard on http://{host}:{port} over {path} (Ctrl-C stops it)")
    sys.stdout.flush()
    line = command(port, path, address)
    if os.name == "posix":  # become the server: a signal to this process reaches Streamlit itself
        os.execve(line[0], line, env)
    try:
        code = subprocess.call(line, env=env)
    except KeyboardInterrupt:
        code = 0
    raise typer.Exit(code)
