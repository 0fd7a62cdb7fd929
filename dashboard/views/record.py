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
the page. The organiser records any table; the taps run as callbacks, before the page
is laid out again, so a tap always acts on the screen it was made on.
"""

from __future__ import annotations

import streamlit as st

from dashboard import access
from dashboard.recording import screen

st.set_page_config(layout="centered", initial_sidebar_state="collapsed")
if not access.is_organiser():
    st.title("Record a table")
    access.gate()
    st.stop()
screen.show()
