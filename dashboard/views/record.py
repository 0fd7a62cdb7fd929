"""Record: a referee records a game at the table, card by card, on a phone.

Each tap is one line of the game's observed log, kept in the store's draft as it is
recorded (:mod:`dashboard.recording.live`), so a reload, a lost connection, a restarted
server or a second phone takes the game up where it stands, and two phones never
record one turn twice. Before a line is recorded the page says what the rules make of
it, in the replay's own words: the referee tells the table and picks again (nothing is
recorded), or records it as it happened. When the game ends its log is taken in like
an uploaded file, and the referee can download it.

Laid out for a phone held in one hand (390×844): one column, big buttons, the maze a
chart whose cells a tap picks; every tap is also a button, which is how the tests drive
the page. A referee opens it from the table's card (``record?code=…``, the code of
:func:`analytics.records.referee_access`) and records that table only, for as long as
the code is not revoked; the organiser, logged in, records any table, or a game of no
tournament by naming its players.
"""

from __future__ import annotations

import streamlit as st

from analytics.records import CODE_PARAMETER
from dashboard import access
from dashboard.i18n import _
from dashboard.recording import screen

st.set_page_config(layout="centered", initial_sidebar_state="collapsed")
code = st.query_params.get(CODE_PARAMETER)
if code:
    screen.show_table(code)
elif access.is_organiser():
    screen.show()
else:
    st.title(_("Record a table"))
    st.caption(_("Open this page from your table's card (its QR code), or log in as the organiser."))
    access.gate()
