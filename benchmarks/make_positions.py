"""Write benchmarks/positions.sfen: 1,000 varied positions from seeded random playouts.

Each playout starts from the start position and plays 0-160 random legal moves, preferring
captures now and then so hands fill up as in real games.  Run once; the file is kept in the repo
so every benchmark run measures the same positions.
"""

from __future__ import annotations

import random
from pathlib import Path

from shogiban import Board


def main() -> None:
    rng = random.Random(20261201)
    lines = []
    while len(lines) < 1000:
        board = Board()
        plies = rng.randrange(0, 161)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if not m.is_drop() and board.piece_at(m.to_square) is not None]
            pool = captures if captures and rng.random() < 0.5 else moves
            board.push(rng.choice(pool))
        if board.outcome() is None:
            lines.append(board.sfen())
    Path(__file__).with_name("positions.sfen").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
