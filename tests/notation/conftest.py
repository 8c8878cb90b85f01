"""Fixtures for the notation tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from notation_helpers import lishogi_games


@pytest.fixture(scope="session")
def games(shared_data: Path) -> list[list[str]]:
    """The 500 lishogi games (GPL, read from the shared corpus)."""
    return lishogi_games(shared_data)
