"""The fuzzing suite's one fixture: a bench (a store and a scratch folder) per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fuzz.bench import Bench


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bench]:
    """The bench the module's targets share; its last store is verified at the end."""
    shared = Bench(tmp_path_factory.mktemp("fuzz"))
    yield shared
    shared.close()
