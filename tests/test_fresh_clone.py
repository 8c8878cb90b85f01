"""A clone with nothing beside it collects every test: the ones that need the shared corpus skip
with their reason instead of failing at collection (``.ci/run`` also runs the fast suite so)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpus import ROOT


@pytest.mark.slow
def test_the_suite_collects_without_the_shared_corpus() -> None:
    env = {**os.environ, "SHOGIBAN_SHARED_DATA": "none"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    tail = result.stdout[-2000:] + result.stderr[-2000:]
    assert result.returncode == 0, tail
    assert "error" not in result.stdout.splitlines()[-1].lower(), tail
