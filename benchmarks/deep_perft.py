"""Deep perft: the rows of the shared perft table too big for the test suite.

    python benchmarks/deep_perft.py [--max-nodes N] [--table ../shared/data/perft/perft.tsv]

By default it runs every row above 30 million nodes (start position depth 6 = 547,581,517 and
YaneuraOu's "matsuri" depth 4 = 516,925,165): each takes a long while in pure Python.  Prints
each row's count, whether it matches, and the time.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from shogiban import Board


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = Path(__file__).resolve().parent
    parser.add_argument("--table", type=Path, default=here.parent.parent / "shared/data/perft/perft.tsv")
    parser.add_argument("--min-nodes", type=int, default=30_000_001)
    parser.add_argument("--max-nodes", type=int, default=10**12)
    args = parser.parse_args()
    failures = 0
    for line in args.table.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split("\t")
        sfen, depth, nodes = fields[0], int(fields[2]), int(fields[3])
        if not args.min_nodes <= nodes <= args.max_nodes:
            continue
        start = time.perf_counter()
        got = Board(sfen, lenient=True).perft(depth)
        elapsed = time.perf_counter() - start
        ok = got == nodes
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} depth {depth} {got:>12,} (expected {nodes:,}) {elapsed:8.1f} s  {sfen}",
              flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
