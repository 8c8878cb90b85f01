"""Rules-core benchmark: shogiban side by side with cshogi and python-shogi (when installed).

    python benchmarks/bench_core.py [--repeat 7] [--full] [--clock cpu]

Measures, on the 1,000 fixed positions of ``benchmarks/positions.sfen``: legal-move lists per
second, push+pop pairs per second, SFEN parse+write per second; perft(4) from the start position
with and without counting the last ply in bulk; import time; memory per Board.  Every figure is
the median of ``--repeat`` runs; ratios compare libraries measured in the same run.  python-shogi
is slow, so its perft runs at depth 3 and is scaled by the depth-4/depth-3 node ratio unless
``--full`` is given.  ``--clock cpu`` times with the process's CPU time instead of the wall clock,
which a busy shared machine disturbs less (it leaves out the time the process waits for a core).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
POSITIONS = [line for line in Path(__file__).with_name("positions.sfen").read_text().splitlines() if line]


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


class Adapter:
    """How to drive one library."""

    name = ""

    def board(self, sfen: str) -> Any: ...
    def legal(self, board: Any) -> list[Any]: ...
    def push(self, board: Any, move: Any) -> None: ...
    def pop(self, board: Any) -> None: ...
    def sfen(self, board: Any) -> str: ...


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
        import cshogi

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
        import shogi

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


def memory_per_board(lib: Adapter) -> float:
    sfens = POSITIONS[:200]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    boards = [lib.board(s) for s in sfens]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del boards
    return (after - before) / len(sfens)


Workload = tuple[Callable[[], object], float, bool]  # (run once, units of work or scale, is a rate)


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

    start = lib.board(START)
    loads: dict[str, Workload] = {
        "legal lists/s": (lambda: [lib.legal(b) for b in boards], len(boards), True),
        "push+pop /s": (push_pop, count, True),
        "sfen parse+write /s": (lambda: [lib.sfen(lib.board(s)) for s in sfens], len(sfens), True),
    }
    if slow and not full:
        scale = 719_731 / 25_470  # python-shogi's perft(3), scaled by the node ratio
        loads["perft(4) bulk s"] = (lambda: python_perft(lib, start, 3, True), scale, False)
        loads["perft(4) no bulk s"] = (lambda: python_perft(lib, start, 3, False), scale, False)
    else:
        if isinstance(lib, Shogiban):
            loads["perft(4) bulk s"] = (lambda: lib.perft_bulk(start, 4), 1, False)
        else:
            loads["perft(4) bulk s"] = (lambda: python_perft(lib, start, 4, True), 1, False)
        loads["perft(4) no bulk s"] = (lambda: python_perft(lib, start, 4, False), 1, False)
    return loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--full", action="store_true", help="python-shogi perft(4) for real (about 15 s each)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="what to time with (default: wall)")
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
        r["import s"] = import_time(modules[lib.name], 5)
        r["bytes/Board"] = memory_per_board(lib)
        results[lib.name] = r
    names = list(results)
    metrics = list(results[names[0]])
    print(f"{'metric':<22}" + "".join(f"{n:>16}" for n in names) + "".join(f"{'vs ' + n:>18}" for n in names[1:]))
    for metric in metrics:
        row = f"{metric:<22}" + "".join(f"{results[n][metric]:>16.4g}" for n in names)
        for other in names[1:]:
            ours, theirs = results["shogiban"][metric], results[other][metric]
            row += f"{ours / theirs:>18.3g}"
        print(row)
    print("(ratios are shogiban / peer: above 1 is better for rates, worse for seconds and bytes)")


if __name__ == "__main__":
    main()
