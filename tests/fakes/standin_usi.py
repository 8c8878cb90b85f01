"""Our USI server with the stand-in backend, as a subprocess: ``python standin_usi.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from standin_backend import StandInBackend

from shogiban.usi.server import serve

if __name__ == "__main__":
    sys.exit(serve(StandInBackend()))
