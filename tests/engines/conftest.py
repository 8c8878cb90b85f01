"""Fixtures of the engines tests (helpers live in :mod:`helpers`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shogiban.engines import SimpleEngine

from .helpers import KINDS, Fake, make_fake, open_engine


@pytest.fixture(scope="module", params=KINDS)
def engine(request: pytest.FixtureRequest) -> Iterator[SimpleEngine]:
    """One engine of each kind, shared by a module's tests (they leave its options as they found them)."""
    opened = open_engine(request.param)
    yield opened
    opened.quit()


@pytest.fixture
def fake(tmp_path: Path) -> Callable[[str], Fake]:
    """A factory: script text -> scripted fake USI engine."""
    return lambda script: make_fake(tmp_path, script)
