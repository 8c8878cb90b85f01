"""Zobrist keys: a position key covers the board, both hands and the side to move."""

from __future__ import annotations

import random

_rng = random.Random(0x5B0617)  # fixed seed: keys are stable across runs and processes
#: Maximum hand count the key tables cover (more than the 18 pawns of a full set, for lenient set-ups).
MAX_HAND = 81

PIECE_SQUARE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_rng.getrandbits(64) if code & 15 else 0 for _ in range(81)) for code in range(32)
)
HAND: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_rng.getrandbits(64) if n else 0 for n in range(MAX_HAND + 1)) for _pt in range(8))
    for _color in range(2)
)
WHITE_TO_MOVE: int = _rng.getrandbits(64)
