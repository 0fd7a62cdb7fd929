"""Parts of a page that keep themselves up to date while games are played.

A referee records a game at the table, and a game ends and is taken in, while people
watch the public pages: a part of a page made :func:`live` is a Streamlit fragment
that runs again every :data:`REFRESH` seconds, on its own, so nobody has to reload,
and says beneath itself when it was last updated (the server's clock and zone): a
phone left open on a page shows how fresh it is.
Each run reads the store as any page run does (``dashboard.data``: a stat of the file,
then a read-only connection for one query only when it changed), so a watching page
never holds the file that the recording page or ``saboteur ingest`` writes.

The widgets outside the part keep what the user chose: a fragment's run lays out only
the fragment, with the arguments of the page's last full run.

A switch in the sidebar stops the updates (WCAG 2.2.2: content that updates by itself
can be paused): a screen reader's user, or anyone reading a long table, is not moved
under every few seconds. Stopped, it stays so on every page of the session until
switched on again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime
from typing import Final, ParamSpec

import streamlit as st

from dashboard import i18n, sentences
from dashboard.i18n import _
from dashboard.markup import escape
from ingest.store import StoreBusy, StoreError

P = ParamSpec("P")

REFRESH: Final = 5.0
"""Seconds between the runs of a live part of a page."""

PAUSED: Final = "live_paused"
"""The session's choice to stop the updates (kept apart from the switch's own state,
which Streamlit forgets on a page that does not show it)."""
SWITCH: Final = "live_switch"


def paused() -> bool:
    """Whether the session stopped the live parts' updates."""
    return bool(st.session_state.get(PAUSED, False))


def live(body: Callable[P, None]) -> Callable[P, None]:
    """``body`` as a part of the page that runs again every :data:`REFRESH` seconds,
    unless the sidebar's switch stopped it.

    A run of the part alone is not inside the entry file's handling of a busy or
    unreadable store (``app.py``), so the part says so itself, where it stands, and
    the next run tries again.
    """
    st.sidebar.toggle(
        _("Update by itself"),
        value=not paused(),
        key=SWITCH,
        on_change=_switched,
        help=_(
            "This page updates itself every %(seconds)s seconds. Switch it off to read without the page "
            "changing under you; on again to follow the games."
        )
        % {"seconds": i18n.number(REFRESH)},
    )

    @functools.wraps(body)
    def part(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            body(*args, **kwargs)
        except StoreBusy:
            st.info(_("The database is busy: another process is writing it. This part shows again in a few seconds."))
        except StoreError as exc:
            st.error(
                _("The store cannot be read: %(problem)s") % {"problem": escape(sentences.said(exc.said, exc.problem))}
            )
        else:
            now = i18n.time(datetime.now().astimezone())
            if paused():
                st.caption(_("Updates stopped (the switch in the sidebar); last updated %(time)s") % {"time": now})
            else:
                st.caption(_("Last updated %(time)s") % {"time": now})

    return st.fragment(part, run_every=None if paused() else REFRESH)


def _switched() -> None:
    st.session_state[PAUSED] = not st.session_state[SWITCH]
