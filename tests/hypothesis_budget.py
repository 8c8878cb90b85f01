"""How many examples a Hypothesis property tries: all of them in the compiled run, a third in the
pure-Python run.

CI runs the fast suite twice: once with the compiled accelerator, then again with
``SHOGIBAN_PURE_PYTHON=1`` (``.ci/run``), where the same properties run through the Python core,
several times slower.  The first run tries every property with its full count; the second keeps
every property and every assertion, on a third of the examples (never fewer than
:data:`MINIMUM`), so that it checks the Python code on the same kinds of input without spending its
time budget on repeating the search.
"""

from __future__ import annotations

import os

#: True in the run on the pure-Python core (the accelerator switched off).
PURE_PYTHON = os.environ.get("SHOGIBAN_PURE_PYTHON", "") not in ("", "0")
#: The fewest examples a property tries in the pure-Python run.
MINIMUM = 10


def examples(count: int) -> int:
    """*count* in the compiled run; a third of it (at least :data:`MINIMUM`, at most *count*)
    under ``SHOGIBAN_PURE_PYTHON=1``."""
    if not PURE_PYTHON:
        return count
    return min(count, max(MINIMUM, count // 3))
