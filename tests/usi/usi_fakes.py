"""Helpers for driving the scripted fake engine (``tests/fakes/usi_engine.py``)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

FAKE_ENGINE = Path(__file__).resolve().parent.parent / "fakes" / "usi_engine.py"

HANDSHAKE = """\
< usi
> id name FakeEngine
> id author Tester
> option name USI_Hash type spin default 256 min 1 max 4096
> option name Skill Level type spin default 20 min 0 max 20
> option name MultiPV type spin default 1 min 1 max 5
> usiok
"""
"""The start of most scripts: the ``usi`` handshake with three options."""


@dataclass
class Fake:
    """A fake engine's command line and its log."""

    command: list[str]
    log_path: Path

    def log(self) -> list[str]:
        """Lines of the log (``recv:``/``send:``/``END``/``MISMATCH``...)."""
        return self.log_path.read_text(encoding="utf-8").splitlines() if self.log_path.exists() else []

    def received(self) -> list[str]:
        """The commands the engine read."""
        return [line[5:] for line in self.log() if line.startswith("recv:")]

    def assert_complete(self) -> None:
        """The script ran to its end and nothing unexpected was sent."""
        log = self.log()
        problems = [line for line in log if line.startswith(("MISMATCH", "EXTRA", "BAD"))]
        assert not problems, "\n".join(log)
        assert "END" in log, "\n".join(log)


def make_fake(directory: Path, script: str, name: str = "fake") -> Fake:
    """Write *script* (each line left-stripped) into *directory* and return the fake engine that plays it."""
    n = len(list(directory.glob(f"{name}*.script")))
    script_path = directory / f"{name}{n}.script"
    lines = [line.lstrip() for line in script.splitlines()]  # parts may be indented differently
    script_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log_path = directory / f"{name}{n}.log"
    return Fake([sys.executable, str(FAKE_ENGINE), str(script_path), str(log_path)], log_path)


FAKES_DIR = FAKE_ENGINE.parent
if str(FAKES_DIR) not in sys.path:
    # The stand-in backend lives beside the fake engine so that its subprocess script can use it.
    sys.path.insert(0, str(FAKES_DIR))

STANDIN_USI = [sys.executable, str(FAKES_DIR / "standin_usi.py")]
"""Command line of our USI server with the stand-in backend."""
