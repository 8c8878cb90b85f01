"""Rules-core benchmark: shogiban side by side with cshogi and python-shogi (when installed).

    python benchmarks/bench_core.py [--repeat 7] [--full] [--clock cpu]

Every row times the same work for every library, on the 1,000 fixed positions of
``benchmarks/positions.sfen``:

* legal-move lists/s: ``list(board.legal_moves)`` on each position, each list built and dropped
  at once (nothing kept between positions or repetitions; each library hands back its own move
  objects: shogiban's interned ``Move``, cshogi's ints, python-shogi's ``Move``);
* push+pop /s: every legal move of every position pushed and popped, with the moves listed
  before timing (for every library alike);
* SFEN parse+write /s: ``Board(sfen)`` then ``board.sfen()``;
* perft(4) bulk / no bulk: perft from the start position counted by one Python loop for every
  library (``python_perft``: the library's legal-move list, push, pop), with the last ply counted
  as the list's length (bulk) or pushed and popped too (no bulk);
* shogiban's own C counter (not comparable): ``Board.perft(4)``, shogiban's compiled counter
  (its Python one in the pure-Python build), shown alone: the peers offer nothing alike;
* import s: ``import`` in a fresh interpreter, median of ``--repeat`` (at least 5) interpreters;
* bytes/Board (RSS): growth of the resident set size (``/proc/self/statm``) while a fresh
  interpreter that has imported only the library makes ``--boards`` boards, divided by their
  number, median of 3 interpreters: memory allocated by C and C++ code counts, which
  ``tracemalloc`` (Python's allocator only) would miss.

Every timed figure is the median of ``--repeat`` runs, the libraries interleaved within each
run; ratios compare libraries measured in the same run.  python-shogi is slow, so it times 100
positions, at most three runs, and its perft runs at depth 3 and is scaled by the
depth-4/depth-3 node ratio unless ``--full`` is given.  ``--clock cpu`` times with the process's
CPU time instead of the wall clock, which a busy shared machine disturbs less (it leaves out the
time the process waits for a core).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
POSITIONS = [line for line in Path(__file__).with_name("positions.sfen").read_text().splitlines() if line]


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


class Adapter:
    """How to drive one library."""

    name = ""

    def board(self, sfen: str) -> Any:
        raise NotImplementedError

    def legal(self, board: Any) -> list[Any]:
        raise NotImplementedError

    def push(self, board: Any, move: Any) -> None:
        raise NotImplementedError

    def pop(self, board: Any) -> None:
        raise NotImplementedError

    def sfen(self, board: Any) -> str:
        raise NotImplementedError


class Shogiban(Adapter):
    name = "shogiban"

    def __init__(self) -> None:
        import shogiban

        self.mod = shogiban

    def board(self, sfen: str) -> Any:
        return self.mod.Board(sfen)

    def legal(self, board: Any) -> list[Any]:
        return list(board.legal_moves)

    def push(self, board: Any, move: Any) -> None:
        board.push(move)

    def pop(self, board: Any) -> None:
        board.pop()

    def sfen(self, board: Any) -> str:
        return str(board.sfen())

    def perft_bulk(self, board: Any, depth: int) -> int:
        return int(board.perft(depth))


class Cshogi(Adapter):
    name = "cshogi"

    def __init__(self) -> None:
        import cshogi  # type: ignore[import-untyped]

        self.mod = cshogi

    def board(self, sfen: str) -> Any:
        return self.mod.Board(sfen)

    def legal(self, board: Any) -> list[Any]:
        return list(board.legal_moves)

    def push(self, board: Any, move: Any) -> None:
        board.push(move)

    def pop(self, board: Any) -> None:
        board.pop()

    def sfen(self, board: Any) -> str:
        return str(board.sfen())


class PythonShogi(Adapter):
    name = "python-shogi"

    def __init__(self) -> None:
        import shogi  # type: ignore[import-untyped]

        self.mod = shogi

    def board(self, sfen: str) -> Any:
        return self.mod.Board(sfen)

    def legal(self, board: Any) -> list[Any]:
        return list(board.legal_moves)

    def push(self, board: Any, move: Any) -> None:
        board.push(move)

    def pop(self, board: Any) -> None:
        board.pop()

    def sfen(self, board: Any) -> str:
        return str(board.sfen())


def python_perft(lib: Adapter, board: Any, depth: int, bulk: bool) -> int:
    """Perft driven from Python with the library's push/pop (what a Python caller can do)."""
    if depth == 0:
        return 1
    moves = lib.legal(board)
    if bulk and depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        lib.push(board, move)
        total += python_perft(lib, board, depth - 1, bulk)
        lib.pop(board)
    return total


def import_time(module: str, repeat: int) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(repeat)]
    return statistics.median(runs)


# Run in a fresh interpreter for each library: import it, make one board (so that lazily built
# tables are not counted), then read the resident set size before and after making N boards.
MEMORY_PROBE = """
import gc, os, sys
module, count, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lib = __import__(module)
sfens = [line for line in open(path).read().splitlines() if line]
sfens = [sfens[i % len(sfens)] for i in range(count)]
boards = [None] * count
warm = lib.Board(sfens[0])
page = os.sysconf("SC_PAGE_SIZE")

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * page

gc.collect()
before = rss()
for i, sfen in enumerate(sfens):
    boards[i] = lib.Board(sfen)
gc.collect()
print((rss() - before) / count)
"""


def memory_per_board(module: str, count: int, runs: int = 3) -> float:
    """Bytes of resident memory per board, C and C++ allocations included (Linux only: NaN elsewhere)."""
    if not Path("/proc/self/statm").exists():
        return float("nan")
    path = str(Path(__file__).with_name("positions.sfen"))
    samples = [
        float(subprocess.run([sys.executable, "-c", MEMORY_PROBE, module, str(count), path],
                             capture_output=True, text=True, check=True).stdout)
        for _ in range(runs)
    ]
    return statistics.median(samples)


Workload = tuple[Callable[[], object], float, bool]  # (run once, units of work or scale, is a rate)


def own_counter_label() -> str:
    from shogiban import position

    kind = "Python" if position.SPEEDUPS is None else "C"
    return f"perft(4) s, shogiban's own {kind} counter (not comparable)"


def workloads(lib: Adapter, full: bool) -> dict[str, Workload]:
    """What to time for one library: each metric's workload, its size, and whether it is a rate."""
    slow = lib.name == "python-shogi"  # about 200 times slower: smaller samples
    sfens = POSITIONS[:100] if slow else POSITIONS
    boards = [lib.board(s) for s in sfens]
    pairs = [(b, lib.legal(b)) for b in boards]
    count = sum(len(m) for _, m in pairs)

    def push_pop() -> None:
        for b, moves in pairs:
            for m in moves:
                lib.push(b, m)
                lib.pop(b)

    def legal_lists() -> None:
        for b in boards:
            lib.legal(b)  # built and dropped at once, as a caller that looks and moves on does

    start = lib.board(START)
    loads: dict[str, Workload] = {
        "legal lists/s": (legal_lists, len(boards), True),
        "push+pop /s": (push_pop, count, True),
        "sfen parse+write /s": (lambda: [lib.sfen(lib.board(s)) for s in sfens], len(sfens), True),
    }
    if slow and not full:
        scale = 719_731 / 25_470  # python-shogi's perft(3), scaled by the node ratio
        loads["perft(4) bulk s"] = (lambda: python_perft(lib, start, 3, True), scale, False)
        loads["perft(4) no bulk s"] = (lambda: python_perft(lib, start, 3, False), scale, False)
    else:
        loads["perft(4) bulk s"] = (lambda: python_perft(lib, start, 4, True), 1, False)
        loads["perft(4) no bulk s"] = (lambda: python_perft(lib, start, 4, False), 1, False)
    if isinstance(lib, Shogiban):
        loads[own_counter_label()] = (lambda: lib.perft_bulk(start, 4), 1, False)
    return loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--full", action="store_true", help="python-shogi perft(4) for real (about 15 s each)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="what to time with (default: wall)")
    parser.add_argument("--boards", type=int, default=5000, help="boards made per interpreter for bytes/Board")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    libs: list[Adapter] = [Shogiban()]
    for cls in (Cshogi, PythonShogi):
        try:
            libs.append(cls())
        except ImportError:
            print(f"({cls.name} not installed: skipped)")
    modules = {"shogiban": "shogiban", "cshogi": "cshogi", "python-shogi": "shogi"}
    loads = {lib.name: workloads(lib, args.full) for lib in libs}
    samples: dict[str, dict[str, list[float]]] = {lib.name: {m: [] for m in loads[lib.name]} for lib in libs}
    # Interleave the libraries within each repetition, so that a shared, noisy machine loads them
    # alike; python-shogi is slow, so it gets three repetitions at most.
    for rep in range(args.repeat):
        for lib in libs:
            if lib.name == "python-shogi" and rep >= 3:
                continue
            for metric, (run, _, _) in loads[lib.name].items():
                gc.collect()
                start = clock()
                run()
                samples[lib.name][metric].append(clock() - start)
    results: dict[str, dict[str, float]] = {}
    for lib in libs:
        r: dict[str, float] = {}
        for metric, (_, units, is_rate) in loads[lib.name].items():
            elapsed = statistics.median(samples[lib.name][metric])
            r[metric] = units / elapsed if is_rate else elapsed * units
        r["import s"] = import_time(modules[lib.name], max(5, args.repeat))
        r["bytes/Board (RSS)"] = memory_per_board(modules[lib.name], args.boards)
        results[lib.name] = r
    names = list(results)
    metrics = list(results["shogiban"])  # every metric: the peers lack only shogiban's own counter
    width = max(len(m) for m in metrics) + 2
    print(f"{'metric':<{width}}" + "".join(f"{n:>14}" for n in names) + "".join(f"{'vs ' + n:>17}" for n in names[1:]))
    for metric in metrics:
        row = f"{metric:<{width}}"
        row += "".join(f"{results[n][metric]:>14.4g}" if metric in results[n] else f"{'-':>14}" for n in names)
        for other in names[1:]:
            if metric in results[other]:
                row += f"{results['shogiban'][metric] / results[other][metric]:>17.3g}"
            else:
                row += f"{'-':>17}"
        print(row)
    print("(ratios are shogiban / peer: above 1 is better for rates, worse for seconds and bytes)")


if __name__ == "__main__":
    main()
