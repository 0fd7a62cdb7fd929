"""Who may use the organiser's pages: a password, compared in constant time.

The password is ``$SABOTEUR_ADMIN_PASSWORD``, else ``SABOTEUR_ADMIN_PASSWORD`` in the
Streamlit secrets (``.streamlit/secrets.toml``). With neither set the organiser's pages
stay shut and say how to open them. A session that gave the right password keeps it
until it logs out; the password itself is never kept in the session.
"""

from __future__ import annotations

import hmac
import os
from typing import Final

import streamlit as st

SETTING: Final = "SABOTEUR_ADMIN_PASSWORD"
_FLAG: Final = "organiser"


def configured_password() -> str | None:
    """The organiser's password, from the environment or the secrets; ``None`` if unset."""
    value = os.environ.get(SETTING)
    if value:
        return value
    try:
        secret = st.secrets.get(SETTING)
    except FileNotFoundError:  # no secrets file at all (StreamlitSecretNotFoundError is one)
        return None
    return str(secret) if secret else None


def matches(given: str, expected: str) -> bool:
    """Constant-time comparison (``hmac.compare_digest``) of two passwords.

    >>> matches("gold", "gold"), matches("gold", "stone")
    (True, False)
    """
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def is_organiser() -> bool:
    """Whether this session gave the organiser's password (and one is still set)."""
    return bool(st.session_state.get(_FLAG)) and configured_password() is not None


def log_out() -> None:
    st.session_state[_FLAG] = False


def gate() -> bool:
    """Lay out the password form unless this session is the organiser's; whether the
    organiser's page may go on."""
    expected = configured_password()
    if expected is None:
        st.info(
            "The organiser's pages are not enabled. To enable them, start the dashboard with a password in "
            f'the environment (`{SETTING}=… saboteur dashboard`) or put `{SETTING} = "…"` in '
            "`.streamlit/secrets.toml`."
        )
        return False
    if is_organiser():
        return True
    with st.form("organiser_login"):
        given = st.text_input("Organiser password", type="password")
        submitted = st.form_submit_button("Log in")
    if submitted:
        if matches(given, expected):
            st.session_state[_FLAG] = True
            st.rerun()
        st.error("That is not the organiser's password.")
    return False
