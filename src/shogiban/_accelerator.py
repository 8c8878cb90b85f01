"""Loading the optional C accelerator ``shogiban._speedups``, and refusing a stale one.

The build (``hatch_build.py``) compiles the digest of the C sources into the module as
``SOURCE_DIGEST``.  Where those sources sit beside the package (an editable install or a checkout),
a module whose digest differs from theirs was built from other sources: it is refused with a
warning, and the pure-Python core runs instead, until the package is reinstalled.  An installed
wheel ships no C sources, so there is nothing to compare and its module is used.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from pathlib import Path
from types import ModuleType

#: Where the C sources are in a checkout (absent from installed wheels).
SOURCE_DIR = Path(__file__).with_name("_speedups_c")
_SOURCE_SUFFIXES = (".c", ".h")


def source_digest(folder: Path) -> str:
    """SHA-256 of the C sources in *folder*: each ``*.c`` and ``*.h`` by name, then its bytes.

    ``hatch_build.py`` computes the same (the build cannot import this package); the tests check
    that the two agree on the module they built.
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.iterdir() if p.suffix in _SOURCE_SUFFIXES and p.is_file()):
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def stale_reason(module: ModuleType, folder: Path = SOURCE_DIR) -> str | None:
    """Why *module* does not match the C sources in *folder*, or None when it does (or when
    there are no sources to compare with)."""
    if not folder.is_dir():
        return None
    built = getattr(module, "SOURCE_DIGEST", None)
    if not isinstance(built, str):
        return "it records no source digest"
    current = source_digest(folder)
    if built != current:
        return f"it was built from other sources (digest {built[:12]}, the sources in {folder} have {current[:12]})"
    return None


def load() -> ModuleType | None:
    """The compiled module, unless absent, stale, or SHOGIBAN_PURE_PYTHON=1 asks for pure Python."""
    if os.environ.get("SHOGIBAN_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from shogiban import _speedups
    except ImportError:
        return None
    reason = stale_reason(_speedups)
    if reason is not None:
        warnings.warn(
            f"shogiban: not using the compiled accelerator {_speedups.__file__}: {reason}; running the "
            "pure-Python core (same results, slower).  Reinstall to rebuild it: pip install -e .",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return _speedups
