"""Peak memory of ``shogiban convert`` per input byte (issue 21, finding 14).

    python benchmarks/bench_convert_memory.py [--moves 20000] [--comment-every 1] [--to jkf kif csa]

A long legal game is generated (random quiet moves that neither capture nor check and never
reach a position seen before, so no sennichite ends it), written as CSA and as KIF with a comment
on every ``--comment-every``-th move, and each file is converted by ``shogiban convert`` in a
fresh subprocess; the figures are the child's peak RSS (``VmHWM`` of ``/proc/self/status``), its growth over
its RSS once shogiban's record modules are imported, and that growth per input byte and per move.
The generated game is cached in ``/tmp`` by its length and seed.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over fork and exec (the parent's peak would show).
_CHILD = """
import sys, time
def hwm():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
sys.argv = ["shogiban", *sys.argv[1:]]
from shogiban.cli import main
import shogiban.kifu, shogiban.commands.convert  # what convert imports: not counted
base = hwm()
t = time.perf_counter()
if sys.argv[1] != "--idle":
    try:
        main()
    except SystemExit:
        pass
took = time.perf_counter() - t
peak = hwm()
print(f"RESULT {base} {peak} {took:.3f}", file=sys.stderr)
"""


def long_game(moves: int, seed: int) -> list[str]:
    """USI moves of a legal game of *moves* moves without capture, check or repeated position."""
    cache = Path(tempfile.gettempdir()) / f"shogiban-long-game-{moves}-{seed}.json"
    if cache.exists():
        return list(json.loads(cache.read_text()))
    from shogiban.board import Board

    rng = random.Random(seed)
    board = Board()
    seen = {board.zobrist_hash()}
    played: list[str] = []
    while len(played) < moves:
        candidates = [m for m in board.legal_moves if not board.piece_codes[m.to_square]]
        rng.shuffle(candidates)
        for move in candidates:
            if board.gives_check(move):
                continue
            board.push(move)
            key = board.zobrist_hash()
            if key not in seen:
                seen.add(key)
                played.append(move.usi())
                break
            board.pop()
        else:
            raise SystemExit(f"the generated game got stuck after {len(played)} moves")
    cache.write_text(json.dumps(played))
    return played


def write_inputs(usi: list[str], comment_every: int, folder: Path) -> dict[str, Path]:
    from shogiban.kifu import read_usi, write_game

    game = read_usi("position startpos moves " + " ".join(usi))
    if game.errors:
        raise SystemExit(f"the generated game does not replay: {game.errors[0]}")
    if comment_every:
        for i, node in enumerate(game.mainline(), 1):
            if i % comment_every == 0:
                node.comment = f"評価値 {i % 997 - 500} 読み筋 ７六歩 ３四歩"
    paths = {}
    for fmt in ("csa", "kif"):
        path = folder / f"long.{fmt}"
        data = write_game(game, fmt)
        assert isinstance(data, bytes)
        path.write_bytes(data)
        paths[fmt] = path
    return paths


def run_child(args: list[str]) -> tuple[int, int, float]:
    """(RSS after import, peak RSS, seconds) of ``shogiban *args*`` in a fresh interpreter, in KiB."""
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, check=False,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    line = next((x for x in proc.stderr.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise SystemExit(f"convert failed: {proc.stderr[-2000:]}")
    _, base, peak, took = line.split()
    return int(base), int(peak), float(took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--comment-every", type=int, default=1)
    parser.add_argument("--to", nargs="+", default=["jkf", "kif", "csa"])
    options = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    t = time.perf_counter()
    usi = long_game(options.moves, options.seed)
    print(f"game of {len(usi)} moves ready in {time.perf_counter() - t:.1f} s")
    idle, _, _ = run_child(["--idle"])
    print(f"interpreter with shogiban imported: {idle / 1024:.1f} MiB")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        inputs = write_inputs(usi, options.comment_every, folder)
        print(f"{'input':<6}{'to':<5}{'bytes':>11}{'peak MiB':>10}{'growth MiB':>11}{'B/byte':>8}{'B/move':>8}{'s':>7}")
        for source, path in inputs.items():
            size = path.stat().st_size
            for target in options.to:
                out = folder / f"out.{target}"
                base, peak, took = run_child(["convert", str(path), str(out), "--overwrite"])
                growth = (peak - base) * 1024
                print(f"{source:<6}{target:<5}{size:>11,}{peak / 1024:>10.1f}{growth / 2**20:>11.1f}"
                      f"{growth / size:>8.1f}{growth / len(usi):>8.0f}{took:>7.2f}")


if __name__ == "__main__":
    main()
