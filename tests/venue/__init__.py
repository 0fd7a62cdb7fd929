"""A venue day in miniature (issue 29): the pieces the venue benchmark
(``benchmarks/venue.py``) and the fault tests (``tests/dashboard/test_venue_faults.py``)
share — the referee's taps for a whole game, a phone in headless Chromium, a spectator
that speaks Streamlit's own protocol without a browser, the server started as an
organiser starts it, and a proxy that cuts the network on command."""
