"""``shogiban usi`` as a GUI sees it: does the last ``info ... pv`` before ``bestmove`` name the
move played, and how much of the byoyomi is left when ``bestmove`` arrives?

    python benchmarks/bench_usi_info.py                       # 40 moves at 300 ms, 20 at 1000 ms
    python benchmarks/bench_usi_info.py --moves 100 --byoyomi 300 1000 --level 8

The engine plays itself from the start position (``--random-plies`` seeded random moves first,
so games differ), one ``go btime 0 wtime 0 byoyomi N`` per move, exactly as ShogiGUI and cshogi's
runner send it.  For every move the script records the last ``info`` line carrying a ``pv`` and
the wall time from writing ``go`` to reading ``bestmove`` (pipes included, as a GUI measures it).
A *mismatch* is a move whose last pv does not start with the move played (a GUI then shows a line
and score that are not the engine's; cshogi's runner resigns on such a score).  *Spare* is the
byoyomi minus that wall time: below zero the engine lost on time.

Prints, per byoyomi: moves, mismatches (and the rate), and the minimum, 5th percentile and median
spare time in milliseconds.  The machine is shared: run it beside whatever else is running, and
compare runs made together.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

from shogiban import Board
from shogiban.usi.wire import position_command


class Engine:
    """``python -m shogiban usi`` on raw pipes (no client in between)."""

    def __init__(self, level: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "shogiban", "usi", "--level", str(level), "--seed", "1"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )
        self.send("usi")
        self.read_until("usiok")
        self.send("isready")
        self.read_until("readyok")
        self.send("usinewgame")

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, word: str) -> list[str]:
        assert self.process.stdout is not None
        lines: list[str] = []
        for raw in self.process.stdout:
            line = raw.rstrip("\n")
            lines.append(line)
            if line.split(" ", 1)[0] == word:
                return lines
        raise RuntimeError(f"the engine ended before {word!r}: {lines[-5:]}")

    def close(self) -> None:
        self.send("quit")
        self.process.wait(timeout=30)


def play(engine: Engine, byoyomi_ms: int, moves: int, random_plies: int, rng: random.Random) -> tuple[int, list[float]]:
    """Self-play *moves* engine moves; returns (mismatches, spare seconds per move)."""
    mismatches = 0
    spares: list[float] = []
    board = Board()
    while len(spares) < moves:
        if board.outcome() is not None or board.move_number > 200:
            board = Board()
            engine.send("usinewgame")
        if board.move_number <= random_plies:
            board.push(rng.choice(sorted(board.legal_moves, key=lambda m: m.usi())))
            continue
        engine.send(position_command(board))
        start = time.perf_counter()
        engine.send(f"go btime 0 wtime 0 byoyomi {byoyomi_ms}")
        lines = engine.read_until("bestmove")
        spares.append(byoyomi_ms / 1000 - (time.perf_counter() - start))
        best = lines[-1].split()[1]
        pv_lines = [line.split() for line in lines if line.startswith("info") and " pv " in line]
        if best not in ("resign", "win") and (not pv_lines or pv_lines[-1][pv_lines[-1].index("pv") + 1] != best):
            mismatches += 1
        if best in ("resign", "win"):
            board = Board()
            engine.send("usinewgame")
            continue
        board.push_usi(best)
    return mismatches, spares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, nargs="+", default=[40, 20], help="moves per byoyomi (in order)")
    parser.add_argument("--byoyomi", type=int, nargs="+", default=[300, 1000], help="milliseconds")
    parser.add_argument("--level", type=int, default=8)
    parser.add_argument("--random-plies", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engine = Engine(args.level)
    try:
        header = ("byoyomi", 8), ("moves", 6), ("mismatch", 9), ("rate", 6), ("min spare", 10), ("p5 spare", 9)
        print(" ".join(f"{name:>{width}}" for name, width in header), f"{'median':>7}")
        for index, byoyomi in enumerate(args.byoyomi):
            moves = args.moves[min(index, len(args.moves) - 1)]
            mismatches, spares = play(engine, byoyomi, moves, args.random_plies, rng)
            ordered = sorted(spares)
            p5 = ordered[max(0, int(len(ordered) * 0.05) - 1)]
            print(f"{byoyomi:>6}ms {len(spares):>6} {mismatches:>9} {mismatches / len(spares):>6.1%} "
                  f"{ordered[0] * 1000:>8.0f}ms {p5 * 1000:>7.0f}ms {statistics.median(spares) * 1000:>5.0f}ms")
    finally:
        engine.close()


if __name__ == "__main__":
    main()
