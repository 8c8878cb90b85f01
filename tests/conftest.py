"""Shared fixtures.

``shared_data`` is the project's shared test corpus (``../shared/data`` beside the checkout, as CI
has it).  GPL-licensed files stay there; tests that need them skip with a reason when it is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST_DATA = Path(__file__).resolve().parent / "data"


def shared_data_dir() -> Path | None:
    """``$SHOGIBAN_SHARED_DATA`` or ``../shared/data`` next to the repository, if present."""
    env = os.environ.get("SHOGIBAN_SHARED_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(ROOT.parent / "shared" / "data")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of the shared corpus; skips the test when it is not there."""
    found = shared_data_dir()
    if found is None:
        pytest.skip("../shared/data is absent: the GPL-licensed shared corpus is only in the workspace and CI")
    return found


@pytest.fixture(scope="session")
def test_data() -> Path:
    """Path of the MIT-licensed data kept in this repository (tests/data)."""
    return TEST_DATA
