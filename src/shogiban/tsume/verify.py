"""Replay a mate line and check it obeys the tsume rules, independently of the search."""

from __future__ import annotations

from shogiban.move import Move
from shogiban.position import Position
from shogiban.tsume.futile import evasion_codes

__all__ = ["check_mate_line"]


def check_mate_line(position: Position, moves: list[Move], *, conventions: bool = True) -> str | None:
    """Why *moves* is not a mate line from *position* (attacker to move), or None if it is one.

    Every attacker move must be legal and check; every defender move must be a legal reply that
    counts (not a futile interposition under *conventions*); the final position must leave the
    defender in check with no reply that counts.  *position* is restored before returning.
    """
    if not moves:
        return "the line is empty"
    if len(moves) % 2 == 0:
        return f"the line has {len(moves)} plies: a mate line ends with an attacker move"
    played = 0
    try:
        for ply, move in enumerate(moves):
            if move.code not in position._legal_codes():
                return f"ply {ply + 1} {move.usi()!r} is illegal"
            if ply % 2 == 1 and move.code not in evasion_codes(position, conventions):
                return f"ply {ply + 1} {move.usi()!r} is a futile interposition, which does not count"
            position._push(move.code)
            played += 1
            if ply % 2 == 0 and not position._in_check():
                return f"ply {ply + 1} {move.usi()!r} does not give check"
        replies = evasion_codes(position, conventions)
        if replies:
            return f"the final position is not mate: the defender can still play {len(replies)} move(s)"
        return None
    finally:
        for _ in range(played):
            position._pop()
