"""Shared fixtures.

``shared_data`` is the project's shared test corpus (``../shared/data`` beside the checkout, as CI
has it).  GPL-licensed files stay there; tests that need them skip with a reason when it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import TEST_DATA, shared_data_dir


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
