"""The legal move codes of a position, remembered for the last few positions.

Writing a move and reading it back (or writing it in several notations) asks for the legal
moves of the same position again and again; generating them is the costly part, so the codes
of the last few positions are kept, keyed by the Zobrist key and the occupancy (legal moves
depend only on the position: board, hands and side to move).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shogiban.position import Position

_CACHE_SIZE = 8
_cache: dict[tuple[int, int, int, int], list[int]] = {}


def legal_codes(position: Position) -> list[int]:
    """The legal move codes of *position* (do not modify the list)."""
    key = (position._hash, position._occ[0], position._occ[1], position._turn)
    codes = _cache.get(key)
    if codes is None:
        codes = position._legal_codes()
        if len(_cache) >= _CACHE_SIZE:
            _cache.clear()
        _cache[key] = codes
    return codes
