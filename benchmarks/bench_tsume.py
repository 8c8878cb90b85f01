"""Benchmark the tsume solver on the shared corpus (default: the 9- and 11-move problems).

    /work/venv/bin/python benchmarks/bench_tsume.py                   # 9 and 11 moves, 20 s each
    /work/venv/bin/python benchmarks/bench_tsume.py --lengths 1,3,5,7 --timeout 2
    /work/venv/bin/python benchmarks/bench_tsume.py --every 10 --no-cshogi

Reports, per length and overall: problems solved in time (mate found, line verified by replay),
how many agree with the recorded length, median and 95th-percentile solve time and nodes per
second; side by side with cshogi's ``DfPn`` (game rules, no 無駄合, no shortest-mate guarantee)
when cshogi is installed.  Times are wall-clock seconds on a possibly shared machine: quote
medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from shogiban import Board
from shogiban.tsume import check_mate_line, solve

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "tsume" / "tsume.tsv"


@dataclass
class Run:
    """One problem's outcome for one solver."""

    solved: bool
    agrees: bool
    seconds: float
    nodes: int


def read_rows(path: Path, lengths: set[str], every: int) -> list[tuple[str, str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        cells = line.split("\t")
        if cells[2] in lengths:
            rows.append((cells[0], cells[1], cells[2]))
    return rows[::every]


def run_shogiban(sfen: str, length: int, timeout: float, conventions: bool) -> Run:
    board = Board(sfen, lenient=True)
    start = time.perf_counter()
    result = solve(board, timeout=timeout, conventions=conventions)
    seconds = time.perf_counter() - start
    solved = result.status == "mate" and check_mate_line(board, result.moves, conventions=conventions) is None
    return Run(solved, solved and result.length == length, seconds, result.nodes)


def run_cshogi(sfen: str, length: int, timeout: float) -> Run | None:
    try:
        import cshogi
    except ImportError:
        return None
    board = cshogi.Board(sfen)
    dfpn = cshogi.DfPn()
    dfpn.set_max_depth(max(31, length + 10))
    # cshogi has no time limit: bound the nodes by what it searches in about the timeout.
    dfpn.set_max_search_node(int(timeout * 300_000))
    start = time.perf_counter()
    found = dfpn.search(board)
    seconds = time.perf_counter() - start
    pv_length = len(dfpn.get_pv(board)) if found else 0
    solved = bool(found) and seconds <= timeout
    return Run(solved, solved and pv_length == length, seconds, int(dfpn.searched_node))


def summary(name: str, runs: list[Run]) -> str:
    if not runs:
        return f"{name:>9}: no problems"
    times = sorted(r.seconds for r in runs)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    rates = [r.nodes / r.seconds for r in runs if r.seconds > 0 and r.nodes]
    solved = sum(r.solved for r in runs)
    agrees = sum(r.agrees for r in runs)
    return (
        f"{name:>9}: solved {solved}/{len(runs)} ({100 * solved / len(runs):.1f}%), "
        f"recorded length {agrees}/{len(runs)}, median {statistics.median(times):.3f} s, "
        f"p95 {p95:.3f} s, max {times[-1]:.2f} s, "
        f"median {statistics.median(rates) if rates else 0:,.0f} nodes/s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="tsume.tsv of the shared data")
    parser.add_argument("--lengths", default="9,11", help="recorded lengths to run (default 9,11)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per problem (default 20)")
    parser.add_argument("--every", type=int, default=1, help="take every N-th problem (default: all)")
    parser.add_argument("--plain", action="store_true", help="game rules: every interposition counts")
    parser.add_argument("--no-cshogi", action="store_true", help="skip the cshogi comparison")
    parser.add_argument("--verbose", action="store_true", help="one line per problem")
    args = parser.parse_args(argv)
    if not args.corpus.is_file():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    rows = read_rows(args.corpus, set(args.lengths.split(",")), max(1, args.every))
    ours: dict[str, list[Run]] = {}
    theirs: dict[str, list[Run]] = {}
    for ident, sfen, recorded in rows:
        mine = run_shogiban(sfen, int(recorded), args.timeout, not args.plain)
        ours.setdefault(recorded, []).append(mine)
        other = None if args.no_cshogi else run_cshogi(sfen, int(recorded), args.timeout)
        if other is not None:
            theirs.setdefault(recorded, []).append(other)
        if args.verbose:
            extra = f"  cshogi {other.seconds:.3f} s {other.nodes} nodes" if other else ""
            print(f"{ident:<16} {recorded:>3} {'ok ' if mine.solved else 'NO '} {mine.seconds:7.3f} s "
                  f"{mine.nodes:>7} nodes{extra}")
    print(f"tsume benchmark: {len(rows)} problems, timeout {args.timeout:g} s, "
          f"{'game rules' if args.plain else 'tsume conventions'}")
    for length in sorted(ours, key=int):
        print(f"-- {length} moves")
        print(summary("shogiban", ours[length]))
        if length in theirs:
            print(summary("cshogi", theirs[length]))
    if len(ours) > 1:
        print("-- all")
        print(summary("shogiban", [r for runs in ours.values() for r in runs]))
        if theirs:
            print(summary("cshogi", [r for runs in theirs.values() for r in runs]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
