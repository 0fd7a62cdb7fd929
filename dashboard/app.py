"""The Saboteur Ledger dashboard's pages: ``saboteur dashboard`` serves them, with the
referee page beside them (``dashboard/serve.py``).

    streamlit run dashboard/serve.py [-- --db PATH]   # or $SABOTEUR_DB, else ./saboteur.duckdb
    streamlit run dashboard/app.py -- --lake URL      # or $SABOTEUR_LAKE: the Roles page over a lake

This entry file only routes (``st.navigation``): each page lays itself out from
``dashboard.data``, which keeps the store open only while the server is busy and lets
go at once for another process, so ``saboteur ingest`` can write beside a running
dashboard. Standings, Roles, Players, Rounds and
Replay are public and read-only; Upload and Audit ask for the organiser's password.
Over a lake (issue 15) the Roles page reads its statistics from the lake, read-only, and
opens first; every other page needs the store and says so.

The page files live in ``views/``, not ``pages/``: Streamlit takes a ``pages/`` folder
beside the entry file for its older multipage mode and, on a fresh server, runs a page
file named in the address directly, without this file's routing and checks.
"""

from __future__ import annotations

import streamlit as st

from dashboard import access, data, i18n, sentences, widgets
from dashboard.i18n import _
from dashboard.markup import escape
from ingest.lake.layout import Unusable
from ingest.store import StoreBusy, StoreError

st.set_page_config(page_title="Saboteur Ledger", page_icon=widgets.page_icon(), layout="wide")

data.keep_store_open()  # as the server was started: saboteur dashboard keeps it open between jobs
organiser = access.is_organiser()
lake = data.lake_url()
i18n.picker()  # the language, before any title is written
upload = st.Page("views/upload.py", title=_("Upload"), icon=":material/upload_file:", url_path="upload")
record = st.Page(
    "views/record.py",
    title=_("Record"),
    icon=":material/edit_note:",
    url_path="record",
    visibility="visible" if organiser else "hidden",  # a referee opens it from the table's card
)
roles = st.Page(  # over a lake, the one page there is to open
    "views/roles.py", title=_("Roles"), icon=":material/theater_comedy:", url_path="roles", default=lake is not None
)
page = st.navigation(
    {
        _("Tournament"): [
            st.Page("views/standings.py", title=_("Standings"), icon=":material/leaderboard:", default=lake is None),
            st.Page("views/round.py", title=_("Round"), icon=":material/event_seat:", url_path="round"),
            st.Page(
                "views/tables.py", title=_("Tables in play"), icon=":material/table_restaurant:", url_path="tables"
            ),
            roles,
            st.Page("views/players.py", title=_("Players"), icon=":material/person:", url_path="players"),
            st.Page("views/rounds.py", title=_("Rounds"), icon=":material/list_alt:", url_path="rounds"),
            st.Page("views/replay.py", title=_("Replay"), icon=":material/play_circle:", url_path="replay"),
        ],
        _("Organiser"): [
            upload,
            st.Page("views/audit.py", title=_("Audit"), icon=":material/fact_check:", url_path="audit"),
            record,
        ],
    }
)

# each page's own name first in the browser's tab and a screen reader's window list
# (WCAG 2.4.2): "Saboteur Ledger" alone named every page alike
st.set_page_config(page_title=f"{page.title} · Saboteur Ledger")

named = data.db_path() if organiser else data.db_path().name  # the server's folders are the organiser's to see
with st.sidebar:
    if lake is not None:
        st.caption(_("Lake, read-only: %(lake)s") % {"lake": escape(lake)})
    elif organiser:
        st.caption(_("Store: `%(store)s`") % {"store": named} + "  \n" + _("Signed in as the organiser."))
        st.button(_("Log out"), on_click=access.log_out)
    else:
        st.caption(_("Store: `%(store)s`") % {"store": named})
    access.keep_cookie()  # a reload or a typed address finds the organiser still signed in

if lake is not None and page.url_path != roles.url_path:
    st.title(page.title)
    st.info(_("This page needs the store: the dashboard is reading a lake, which only the Roles page shows."))
    st.stop()

if lake is None and not data.exists() and page.url_path != upload.url_path:
    st.title(page.title)
    none = _(
        "There is no store at `%(store)s` yet. Ingest files with `saboteur ingest PATH… --db %(store)s`, "
        "or upload them on the Upload page as the organiser."
    )
    st.info(none % {"store": named})
    st.stop()

widgets.page_style()  # a long name breaks in a table's cell, headings' sizes, on every page
try:
    page.run()
except StoreBusy:  # its message names the file: a public page does not
    st.error(_("The database is busy: another process is writing it. The page shows again when you reload it."))
except StoreError as exc:  # damaged, not a store, another version: what is wrong, without the server's path
    st.error(_("The store cannot be read: %(problem)s") % {"problem": escape(sentences.said(exc.said, exc.problem))})
except Unusable as exc:  # a record that is not one, a part that cannot be read, an object store out of reach
    st.error(_("The lake cannot be read: %(problem)s") % {"problem": escape(sentences.said(exc.said, str(exc)))})
