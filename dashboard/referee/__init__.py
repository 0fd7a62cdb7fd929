"""The referee's page: recording a table from a phone that may lose the network.

Streamlit's Record page needs its websocket for every tap; this page does not. It is a
small page of its own (``static/``), served beside the dashboard on the same port
(:mod:`dashboard.serve`), that keeps every entry on the phone first and sends it to an
idempotent endpoint (:mod:`dashboard.referee.routes`); the server side of an entry is
:mod:`dashboard.referee.desk`, its wire format :mod:`dashboard.referee.wire`.
"""
