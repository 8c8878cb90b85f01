"""Fixtures for the tsume tests (helpers live in :mod:`helpers`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import Row, read_rows


@pytest.fixture(scope="session")
def tsume_rows(shared_data: Path) -> list[Row]:
    return read_rows(shared_data / "tsume" / "tsume.tsv")
