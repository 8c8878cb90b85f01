"""Print the test files that read the shared corpus (../shared/data), one per line.

A test reads it through the ``shared_data`` fixture, ``corpus.shared_data_dir()`` or a path
named "shared"; a folder whose conftest or helpers read it counts as a whole.  ``.ci/run`` runs
these on a clone with nothing beside it, where they must skip with their reason: every other test
behaves there as in the runs before it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

READS_SHARED = re.compile(r'shared_data|SHARED_DATA|"shared"')


def main(root: Path) -> None:
    tests = root / "tests"
    found = [p for p in tests.rglob("*.py") if READS_SHARED.search(p.read_text(encoding="utf-8"))]
    folders = {p.parent for p in found if p.parent != tests and not p.name.startswith("test_")}
    files = {p for p in found if p.name.startswith("test_")}
    files |= {f for folder in folders for f in folder.rglob("test_*.py")}
    # Paths, not folders: pytest given a folder after files from a sibling folder collects the
    # folder's conftest.py as a test module and stops on an import-file mismatch.
    print("\n".join(str(f.relative_to(root)) for f in sorted(files)))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd())
