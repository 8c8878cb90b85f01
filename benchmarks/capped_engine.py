# SPDX-License-Identifier: MIT
"""The built-in engine at level 8 capped at a node count per move, as a USI engine (ladder experiments).

    python benchmarks/capped_engine.py NODES [--seed N]

``shogiban match a b --engine a="python benchmarks/capped_engine.py 3000" --engine b="python
benchmarks/capped_engine.py 1000"`` plays two budgets against each other (the match's own
``--nodes`` would cap both players alike); benchmarks/strength.md has what they measured.
"""

from __future__ import annotations

import sys
from dataclasses import replace

from shogiban.engine import levels


def main(argv: list[str]) -> int:
    """Run the USI server with level 8 limited to ``argv[0]`` nodes per move."""
    if not argv or not argv[0].isdigit() or int(argv[0]) < 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    # The server looks the profile up when it searches: replacing the table's entry is enough.
    levels.LEVELS[8] = replace(levels.LEVELS[8], max_nodes=int(argv[0]))
    from shogiban.usi.server import main as serve

    return serve(["--level", "8", *argv[1:]])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
