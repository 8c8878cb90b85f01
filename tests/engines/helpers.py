"""Engines for the shared behavioural suite: the built-in engine in this process, the built-in
engine through ``shogiban usi``, and our USI server with the stand-in backend (``tests/fakes``).

The helpers of the USI tests (``tests/usi/usi_fakes.py``: the scripted fake engine, the stand-in
server's command line) are shared, so their folder goes on the import path.
"""

from __future__ import annotations

import sys
from pathlib import Path

USI_TESTS = Path(__file__).resolve().parent.parent / "usi"
if str(USI_TESTS) not in sys.path:
    sys.path.insert(0, str(USI_TESTS))

from usi_fakes import HANDSHAKE, STANDIN_USI, Fake, make_fake  # noqa: E402

from shogiban.engines import SimpleEngine  # noqa: E402
from shogiban.usi.match_engines import builtin_command  # noqa: E402

KINDS = ("builtin", "shogiban-usi", "standin-usi")
"""The engines every behavioural test runs against."""

__all__ = ["HANDSHAKE", "KINDS", "Fake", "command", "make_fake", "open_engine"]


def command(kind: str) -> list[str]:
    """The USI command line of *kind* (not for ``builtin``, which runs in this process)."""
    return builtin_command(8, seed=0) if kind == "shogiban-usi" else list(STANDIN_USI)


def open_engine(kind: str, **timeouts: float) -> SimpleEngine:
    """A blocking engine of *kind* (*timeouts*: ``timeout``, ``search_timeout``)."""
    if kind == "builtin":
        return SimpleEngine.builtin(level=8, seed=0, **timeouts)
    return SimpleEngine.popen_usi(command(kind), **timeouts)
