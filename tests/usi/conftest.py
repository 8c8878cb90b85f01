"""Fixtures for the USI tests: scripted fake engines run as real subprocesses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from usi_fakes import Fake, make_fake


@pytest.fixture
def fake(tmp_path: Path) -> Callable[[str], Fake]:
    """A factory: script text -> :class:`Fake` engine that plays it."""
    return lambda script: make_fake(tmp_path, script)
