"""Which language a reader asked for, as a code this product speaks.

Kept apart from :mod:`events.language` (which loads the catalogues and Babel, a fifth
of a second) so a command's ``--help`` can tell the language it is asked in without
them.
"""

from __future__ import annotations

from typing import Final

LANGUAGES: Final = ("en", "nl", "de", "nb")
"""The languages a finding can be read in; English first, the sentences' own."""
ENGLISH: Final = "en"
ENVIRONMENT: Final = "SABOTEUR_LANG"
"""The variable that picks the command line's language when ``--lang`` does not."""


def language_code(text: str) -> str:
    """``text``'s language as this product's code: a locale as systems write it
    (``nl_NL.UTF-8``, ``de-AT``) by its language, Norwegian (``no``, ``nn``) as bokmål.
    Not necessarily one of :data:`LANGUAGES`.

    >>> language_code("de-AT"), language_code("nl_NL.UTF-8"), language_code("no"), language_code(" NB ")
    ('de', 'nl', 'nb', 'nb')
    """
    picked = text.strip().lower()
    if picked not in LANGUAGES:
        picked = picked.replace("-", "_").split(".", 1)[0].split("_", 1)[0]
    return {"no": "nb", "nn": "nb"}.get(picked, picked)
