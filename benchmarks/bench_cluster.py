"""Batch analysis throughput: positions analysed per second for N games with ``--jobs 1``,
``--jobs 2`` and on a local two-worker Ray (``--cluster ray``), all in one run so the ratios
compare like with like on a noisy machine.

The games are the first N long enough games of ../shared/data/usi_games/lishogi_prod_500.usi
(amateur games from lishogi), written as CSA files; each position is searched by the built-in
engine to a fixed depth (deterministic: the three runs must give the same analysis, which is
checked).  Ray's start-up is reported apart from its throughput.

    python benchmarks/bench_cluster.py --games 100 --depth 3
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from pathlib import Path

from shogiban.analysis.batch import BatchOptions, EngineSpec, FileResult, record_jobs, run_batch
from shogiban.analysis.cluster import run_on_ray
from shogiban.engines import Limit
from shogiban.kifu import read_game, write_game

GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "usi_games" / "lishogi_prod_500.usi"


def write_games(folder: Path, count: int, min_plies: int = 40) -> int:
    folder.mkdir(parents=True)
    written = 0
    for line in GAMES.read_text().splitlines():
        if written >= count:
            break
        if not line or line.startswith("#") or len(line.split()) < min_plies:
            continue
        record = write_game(read_game("position startpos moves " + line), "csa")
        path = folder / f"game{written:03d}.csa"
        if isinstance(record, bytes):
            path.write_bytes(record)
        else:
            path.write_text(record)
        written += 1
    return written


def timed(results: list[FileResult], started: float) -> tuple[float, int]:
    return time.perf_counter() - started, sum(result.positions for result in results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--depth", type=int, default=3)
    args = parser.parse_args()
    if not GAMES.exists():
        print(f"needs {GAMES}", file=sys.stderr)
        return 2
    print("command:", shlex.join([sys.executable, *sys.argv]))
    options = BatchOptions(engine=EngineSpec.parse("builtin:8"), limit=Limit(depth=args.depth), cache_path=None)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        count = write_games(folder / "games", args.games)
        rows = []
        analyses = []
        for label, run in (
            ("--jobs 1", lambda out: run_batch(record_jobs(folder / "games", out), options, workers=1)),
            ("--jobs 2", lambda out: run_batch(record_jobs(folder / "games", out), options, workers=2)),
            ("--cluster ray (2 workers)",
             lambda out: run_on_ray(record_jobs(folder / "games", out), options, workers=2)),
        ):
            started = time.perf_counter()
            results = list(run(folder / label.split()[0].strip("-")))
            seconds, positions = timed(results, started)
            failed = [r for r in results if r.status != "done"]
            rows.append((label, seconds, positions, len(failed)))
            analyses.append([r.data for r in results])
        print(f"{count} games, depth {args.depth}, built-in engine level 8")
        base = rows[0][2] / rows[0][1]
        for label, seconds, positions, failed in rows:
            rate = positions / seconds
            print(f"{label:28s} {positions:6d} positions in {seconds:6.1f} s = {rate:7.1f} positions/s "
                  f"({rate / base:.2f}x --jobs 1){'; FAILED ' + str(failed) if failed else ''}")
        same = analyses[0] == analyses[1] == analyses[2]
        print(f"the three runs gave the same analysis: {same}")
        return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
