from __future__ import annotations

from collections.abc import Iterator

import pytest

from shogiban.engines import SimpleEngine


@pytest.fixture(scope="module")
def engine() -> Iterator[SimpleEngine]:
    with SimpleEngine.builtin(level=8, seed=0, hash_mb=16) as running:
        yield running
