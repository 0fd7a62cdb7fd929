"""``saboteur dashboard``: the Streamlit dashboard over the store."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Final

import typer

from cli.options import DbOption
from cli.speech import speaking, told
from events.said import say
from ingest.limits import MAX_UPLOAD_MIB
from ingest.store import default_path

APP = Path(__file__).resolve().parent.parent / "dashboard" / "serve.py"
LOOPBACK: Final = "127.0.0.1"
"""Served to this machine only unless ``--address`` says otherwise."""
EVERY_NETWORK: Final = ("0.0.0.0", "::")
_ROUTED: Final = ("192.0.2.1", 9)
"""An address of TEST-NET-1 (RFC 5737), never reached: only asked the way to."""
PASSWORD_VARIABLE: Final = "SABOTEUR_ADMIN_PASSWORD"
"""The organiser's password (``dashboard.access.SETTING``)."""
LINK_VARIABLE: Final = "SABOTEUR_SIGN_IN_LINK"
"""The token of the organiser's one-time sign-in link (``dashboard.access.LINK_SETTING``)."""
PROXIES_VARIABLE: Final = "SABOTEUR_TRUSTED_PROXIES"
"""The trusted proxies handed to the server (``dashboard.access.PROXIES_SETTING``)."""
LINGER_VARIABLE: Final = "SABOTEUR_STORE_LINGER"
LINGER: Final = 2.0
"""Seconds the server keeps the store open after its last job (``$SABOTEUR_STORE_LINGER``
changes it; 0 closes it after every job)."""
FIND_ADDRESS: Final = "`hostname -I` (Linux), `ipconfig getifaddr en0` (macOS) or `ipconfig` (Windows)"
SECRETS_FILES: Final = (Path("~/.streamlit/secrets.toml"), Path(".streamlit/secrets.toml"))
"""Where Streamlit reads the secrets (the server's folder last, overriding the home's),
as ``dashboard.access`` finds the password in them."""


def has_password() -> bool:
    """Whether the server will have an organiser's password: ``$SABOTEUR_ADMIN_PASSWORD``,
    else ``SABOTEUR_ADMIN_PASSWORD`` in a Streamlit secrets file (as
    ``dashboard.access.configured_password`` reads them). A file that cannot be read
    counts as none here; the server says what is wrong with it."""
    if os.environ.get(PASSWORD_VARIABLE):
        return True
    import tomllib

    found: object = None
    for place in SECRETS_FILES:
        try:
            with place.expanduser().open("rb") as file:
                secrets_read = tomllib.load(file)
        except (OSError, tomllib.TOMLDecodeError):
            continue
        if PASSWORD_VARIABLE in secrets_read:
            found = secrets_read[PASSWORD_VARIABLE]
    return bool(found)


def network_address() -> str | None:
    """This machine's address on the network its default route leads to (a venue's
    router), or ``None`` without one. "Connecting" a UDP socket only picks the route:
    nothing is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_ROUTED)
        except OSError:
            return None
        found = probe.getsockname()[0]
    return str(found) if found and not str(found).startswith("127.") else None


def command(port: int, db: Path, address: str = LOOPBACK, lake: str | None = None) -> list[str]:
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
        # a fault's traceback (the server's paths, a store's text) is the server's log's,
        # not every visitor's: the page says an error of what type happened, no more
        "--client.showErrorDetails",
        "type",
        # the pages' own colours (the roles' marks, the maze, a finding's severity) are
        # chosen to stand out against a light page: on Streamlit's dark theme, which a
        # browser set to dark got, the saboteur's red and the selfish dwarf's blue stood
        # at 2.4:1 and 2.7:1 against the page (WCAG 1.4.11 asks 3:1)
        "--theme.base",
        "light",
        "--server.maxUploadSize",  # the limit `saboteur ingest` keeps to
        str(MAX_UPLOAD_MIB),
        # a server at a venue runs some ten pages a second (the phones' taps, the
        # spectators' live parts): Streamlit's full garbage collection after every run
        # took two fifths of its processor time, and watching the sources for changes
        # (a developer's convenience) another tenth
        "--runner.postScriptGC",
        "false",
        "--server.fileWatcherType",
        "none",
        "--",
        "--db",
        str(db),
        *(["--lake", lake] if lake is not None else []),
    ]


@speaking
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
    lake: Annotated[
        str | None,
        typer.Option(
            "--lake",
            help="A lake (folder or fsspec URL) for the Roles page to read, read-only; other pages need a store.",
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="A reverse proxy (address or CIDR network; again for more) whose X-Forwarded-For names the "
            "client for the organiser login's lockout. Off by default: the socket's address counts.",
        ),
    ] = None,
) -> None:
    """Serve the dashboard (standings, roles, players, rounds, replay; upload and audit
    for the organiser, whose password is $SABOTEUR_ADMIN_PASSWORD).

    It keeps the store open only while it is busy and lets go at once for another
    command that waits for it, so `saboteur ingest` runs beside it.
    It listens on this machine only unless `--address` opens it to a network.
    """
    path = (db if db is not None else default_path()).resolve()
    given, hint = trusted_proxy or [], "--trusted-proxy"
    if not given and os.environ.get(PROXIES_VARIABLE, "").strip():  # the same, comma-separated: checked alike
        given, hint = [part for part in os.environ[PROXIES_VARIABLE].split(",") if part.strip()], f"${PROXIES_VARIABLE}"
    proxies = _networks(given, hint)
    # the server keeps the store open between its jobs for a moment (ingest.gate): a
    # phone's tap then costs no opening and closing of the file
    env = {LINGER_VARIABLE: str(LINGER), **os.environ, "SABOTEUR_DB": str(path)}
    if proxies:
        env[PROXIES_VARIABLE] = ",".join(proxies)
    host = f"[{address}]" if ":" in address else address  # an IPv6 address in a URL
    url = f"http://{host}:{port}"
    if lake is not None:
        serving = say("dashboard on %(url)s over the lake %(lake)s (Ctrl-C stops it)", url=url, lake=lake)
    else:
        serving = say("dashboard on %(url)s over %(store)s (Ctrl-C stops it)", url=url, store=str(path))
    typer.echo(told(serving))
    if address in EVERY_NETWORK:
        found = network_address()
        if found is not None:
            said = say("phones on this network open %(url)s (the referee cards' --url)", url=f"http://{found}:{port}")
        else:
            said = say(
                "phones on this network open %(url)s, ADDRESS this machine's: %(find)s",
                url=f"http://ADDRESS:{port}",
                find=FIND_ADDRESS,
            )
        typer.echo(told(said))
    if has_password():
        # the organiser's way in past the door, which anyone in the hall can keep shut:
        # this terminal is theirs alone (dashboard.access._signed_in_by_link)
        env[LINK_VARIABLE] = secrets.token_urlsafe(24)
        # the host the server's own lines name (Streamlit's "Local URL" for every network):
        # a cookie is kept per host, and a sign-in at localhost is none at 127.0.0.1
        here = "localhost" if address in EVERY_NETWORK else host
        link = f"http://{here}:{port}/upload?sign_in={env[LINK_VARIABLE]}"
        once = say("the organiser signs in once by %(url)s, past any lockout (keep it to yourself)", url=link)
        typer.echo(told(once))
    sys.stdout.flush()
    line = command(port, path, address, lake)
    if os.name == "posix":  # become the server: a signal to this process reaches Streamlit itself
        os.execve(line[0], line, env)
    try:
        code = subprocess.call(line, env=env)
    except KeyboardInterrupt:
        code = 0
    raise typer.Exit(code)


def _networks(given: list[str], hint: str) -> list[str]:
    """``--trusted-proxy`` values (or ``$SABOTEUR_TRUSTED_PROXIES``'s, ``hint`` says which)
    as networks (``10.0.0.7`` is ``10.0.0.7/32``), or a usage error naming the one that
    is none: a server started with a setting it cannot use believed no proxy at all."""
    import ipaddress

    found = []
    for text in given:
        try:
            found.append(str(ipaddress.ip_network(text.strip(), strict=False)))
        except ValueError:
            said = say("%(written)s is not an address or a network (CIDR)", written=repr(text))
            raise typer.BadParameter(told(said), param_hint=hint) from None
    return found
