"""``saboteur dashboard``: the Streamlit dashboard over the store."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from cli.store import DbOption
from ingest.limits import MAX_UPLOAD_MIB
from ingest.store import default_path

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"


def command(port: int, db: Path) -> list[str]:
    """The ``streamlit run`` command line (headless: it prints the address to open)."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
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
) -> None:
    """Serve the dashboard (standings, roles, players, rounds, replay; upload and audit
    for the organiser, whose password is $SABOTEUR_ADMIN_PASSWORD).

    It opens the store for one query at a time, so `saboteur ingest` runs beside it.
    """
    path = (db if db is not None else default_path()).resolve()
    env = {**os.environ, "SABOTEUR_DB": str(path)}
    typer.echo(f"dashboard on http://localhost:{port} over {path} (Ctrl-C stops it)")
    sys.stdout.flush()
    line = command(port, path)
    if os.name == "posix":  # become the server: a signal to this process reaches Streamlit itself
        os.execve(line[0], line, env)
    try:
        code = subprocess.call(line, env=env)
    except KeyboardInterrupt:
        code = 0
    raise typer.Exit(code)
