"""Where the test data lives (a plain module, importable from any test directory).

``shared_data_dir()`` is the shared corpus (``../shared/data`` beside the checkout, as CI has it,
or ``$SHOGIBAN_SHARED_DATA``; ``SHOGIBAN_SHARED_DATA=none`` hides it, as on a fresh clone with nothing
beside it); GPL-licensed files stay there.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST_DATA = Path(__file__).resolve().parent / "data"


def shared_data_dir() -> Path | None:
    """``$SHOGIBAN_SHARED_DATA`` or ``../shared/data`` next to the repository, if present."""
    env = os.environ.get("SHOGIBAN_SHARED_DATA")
    if env == "none":
        return None
    candidates = [Path(env)] if env else []
    candidates.append(ROOT.parent / "shared" / "data")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None
