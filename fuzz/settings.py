"""How long the fuzzing runs: a Hypothesis profile chosen by ``$HYPOTHESIS_PROFILE``.

- ``ci`` (the default): a few dozen examples per target, the same ones every run
  (derandomised), so ``python -m pytest`` stays quick and a failure is reproducible.
- ``long``: thousands of random examples per target, about an hour on one core; the
  examples that fail are kept in ``.hypothesis/`` and tried first the next time.

The profile is applied to the fuzz targets alone (:data:`FUZZ`), never loaded globally,
so the property tests under ``tests/`` keep their own settings.
"""

from __future__ import annotations

import os
from typing import Final

from hypothesis import HealthCheck, settings

_SLOW_INPUT: Final = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile(
    "ci", max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=_SLOW_INPUT
)
settings.register_profile("long", max_examples=3_000, deadline=None, print_blob=True, suppress_health_check=_SLOW_INPUT)

PROFILE: Final = os.environ.get("HYPOTHESIS_PROFILE", "ci")
FUZZ: Final = settings(settings.get_profile(PROFILE))
"""The settings every fuzz target runs under."""
