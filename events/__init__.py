"""The domain: the log's events, the cards, the rules and the replay that judges a log.

The replay's hot modules may be compiled (``setup.py``); ``SABOTEUR_PURE_PYTHON=1`` makes
them load from their ``.py`` sources instead, for pdb, coverage and tracebacks with
source lines (:mod:`events.compiled`). It is read here, before any of them is imported.
"""

from events.compiled import load_sources, pure_python_chosen

if pure_python_chosen():
    load_sources()
