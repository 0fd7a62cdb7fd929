"""The fuzzing suite: valid game logs, score sheets and tournament files, mutated.

Beside the tests, not instead of them: the tests pin what each bad input must produce;
this suite throws many more at ``saboteur ingest`` and asserts only what must hold for
any input (no traceback, a verdict for every file, a store that a rejected file leaves
as it was). ``python -m pytest`` runs it briefly; ``HYPOTHESIS_PROFILE=long python -m
pytest fuzz/`` runs it for about an hour (see :mod:`fuzz.settings`).
"""
