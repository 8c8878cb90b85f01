"""Positions the engine's equivalence tests share: the benchmark's fixed positions and random
games biased towards captures (so that hands fill up and positions get tactical)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from shogiban import Board

POSITIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "positions.sfen"


def benchmark_sfens(count: int) -> list[str]:
    """The first *count* positions of ``benchmarks/positions.sfen``."""
    lines = [line.split("#")[0].strip() for line in POSITIONS.read_text().splitlines()]
    return [line for line in lines if line][:count]


def random_game(rng: random.Random, plies: int, capture_rate: float) -> Iterator[tuple[int, Board]]:
    """One random game from the start, at most *plies* long: after each move, its ply index and
    the board (the same object each time: copy what you keep).  A capture, when there is one,
    is chosen with probability *capture_rate*."""
    board = Board()
    for ply in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return
        captures = [m for m in moves if board._board[m.code & 127]]
        board.push(rng.choice(captures if captures and rng.random() < capture_rate else moves))
        yield ply, board
