"""The defender's replies to a check, with futile interpositions (無駄合) left out.

Tsume convention (SPECS g.1 rule 5) does not count an interposition that the attacker "simply
captures" when the mate then goes on without the captured piece.  This module applies the part of
that rule every tsume composer and solver agrees on (合い効かず):

    A **drop** between the king and a single distant checker is futile when the checker can
    legally capture the dropped piece and the defender is then mated, counting futile
    interpositions as no defence again (so a chain of interpositions along the whole line is
    futile when the one next to the king is).

Interpositions by moving a piece on the board (移動合) always count, as do drops the checker
cannot take, drops that another defender piece could recapture after the capture, and drops on a
line where the capture leaves the king a flight.  Futility is decided per square, with the
dropped piece whose loss leaves the defender's hand richest (mated-ness only gets easier as the
defender's hand shrinks, so a square futile for that piece is futile for every piece).

Everything works on a :class:`~shogiban.position.Position` in place (push, test, pop) and on int
move codes.
"""

from __future__ import annotations

from shogiban.bitboard import BIT, KING8, ZONE
from shogiban.position import (
    DEAD_END,
    PROMOTION_FLAG,
    Position,
    piece_attacks,
)

__all__ = ["EvasionCache", "evasion_codes", "is_futile_drop", "is_mated", "is_mated_after_check", "king_has_flight"]

#: Memo of results by full position key (board, both hands, side to move).
EvasionCache = dict[int, list[int]]

# Drop preference when the counts tie: keep the pieces that drop anywhere.
_TIE_ORDER = (0, 0, 1, 2, 3, 5, 6, 4)


def evasion_codes(pos: Position, conventions: bool = True, cache: EvasionCache | None = None) -> list[int]:
    """The defender's legal moves (side to move, in check), futile drops removed under *conventions*.

    With *cache*, results are memoised by the position's full Zobrist key.
    """
    if cache is not None:
        found = cache.get(pos._hash)
        if found is not None:
            return found
    codes = pos._legal_codes()
    if conventions and codes and codes[-1] >> 7 & 127 >= 81:
        codes = _without_futile_drops(pos, codes, cache)
    if cache is not None:
        cache[pos._hash] = codes
    return codes


def is_mated(pos: Position, conventions: bool = True, cache: EvasionCache | None = None) -> bool:
    """Whether the side to move is in check and has no reply that counts."""
    return pos._in_check() and is_mated_after_check(pos, conventions, cache)


def is_mated_after_check(pos: Position, conventions: bool = True, cache: EvasionCache | None = None) -> bool:
    """Whether the side to move, known to be in check, has no reply that counts.

    Cheaper than :func:`evasion_codes`: futility is only looked at when every reply is a drop.
    """
    if cache is not None:
        found = cache.get(pos._hash)
        if found is not None:
            return not found
    codes = pos._legal_codes()
    if not codes:
        return True
    if codes[0] >> 7 & 127 < 81 or not conventions:
        return False
    return not evasion_codes(pos, conventions, cache)


def king_has_flight(pos: Position) -> bool:
    """Whether the king of the side to move can step to (or capture on) a square no enemy piece
    attacks: a cheap proof that a check is not mate."""
    color = pos._turn
    ksq = pos._kings[color]
    if ksq < 0:
        return False
    flights = KING8[ksq] & ~pos._occ[color]
    if not flights:
        return False
    occupied = (pos._occ[0] | pos._occ[1]) ^ BIT[ksq]  # the king does not shield its own flight
    attacked = pos._is_attacked
    enemy = color ^ 1
    while flights:
        low = flights & -flights
        flights ^= low
        if not attacked(low.bit_length() - 1, enemy, occupied):
            return True
    return False


def _without_futile_drops(pos: Position, codes: list[int], cache: EvasionCache | None) -> list[int]:
    color = pos._turn
    ksq = pos._kings[color]
    occupied = pos._occ[0] | pos._occ[1]
    checkers = pos._attackers(ksq, color ^ 1, occupied)
    if not checkers or checkers & (checkers - 1):
        return codes  # not a single check: not an interposition at all
    csq = checkers.bit_length() - 1
    first_drop = len(codes)
    while first_drop and codes[first_drop - 1] >> 7 & 127 >= 81:
        first_drop -= 1
    kept = codes[:first_drop]
    by_square: dict[int, list[int]] = {}
    for code in codes[first_drop:]:
        drops = by_square.get(code & 127)
        if drops is None:
            by_square[code & 127] = [code]
        else:
            drops.append(code)
    hand = pos._hands[color]
    for sq, drops in by_square.items():
        if _king_escapes_capture(pos, csq, sq, ksq):
            kept.extend(drops)
            continue
        # The representative drop: the piece the defender holds most of.
        rep = drops[0]
        rep_rank = (0, 0)
        for code in drops:
            pt = (code >> 7) - 81
            rank = (hand[pt], _TIE_ORDER[pt])
            if rank > rep_rank:
                rep, rep_rank = code, rank
        if not is_futile_drop(pos, rep, csq, cache):
            kept.extend(drops)
    return kept


def _king_escapes_capture(pos: Position, csq: int, sq: int, ksq: int) -> bool:
    """Whether, once the checker on *csq* has taken a piece dropped on *sq*, the king (on *ksq*)
    can step to a safe square or take the checker, whatever the checker promoted to."""
    defender = pos._turn
    attacker = defender ^ 1
    piece = pos._board[csq]
    occupied = (pos._occ[0] | pos._occ[1] | BIT[sq]) ^ BIT[csq] ^ BIT[ksq]
    flights = KING8[ksq] & ~pos._occ[defender]
    if not flights:
        return False
    reach = piece_attacks(piece, sq, occupied)
    pt = piece & 15
    if 1 <= pt <= 6 and (ZONE[attacker] >> csq & 1 or ZONE[attacker] >> sq & 1):
        reach |= piece_attacks(piece + 8, sq, occupied)
    flights &= ~reach
    if not flights:
        return False
    bb = pos._bb
    bb[piece] ^= BIT[csq]  # the checker has left its square
    try:
        while flights:
            low = flights & -flights
            flights ^= low
            if not pos._is_attacked(low.bit_length() - 1, attacker, occupied):
                return True
        return False
    finally:
        bb[piece] ^= BIT[csq]


def capture_codes(pos: Position, frm: int, to: int) -> list[int]:
    """The ways the piece on *frm* can move to *to* (promotion choices), best first."""
    piece = pos._board[frm]
    pt = piece & 15
    base = to | frm << 7
    color = piece >> 4
    if 1 <= pt <= 6 and (ZONE[color] >> frm & 1 or ZONE[color] >> to & 1):
        if pt >= 5 or DEAD_END[piece] >> to & 1:
            return [base | PROMOTION_FLAG]  # a promoted bishop/rook attacks everything it did
        return [base | PROMOTION_FLAG, base]
    return [base]


def is_futile_drop(pos: Position, drop: int, checker_sq: int, cache: EvasionCache | None = None) -> bool:
    """Whether the defender's *drop* (a legal interposition against the piece on *checker_sq*) is
    futile: the checker takes it and the defender is mated (under the same convention)."""
    to = drop & 127
    pos._push(drop)
    try:
        attacker = pos._turn
        for capture in capture_codes(pos, checker_sq, to):
            pos._push(capture)
            try:
                king = pos._kings[attacker]
                if king >= 0 and pos._is_attacked(king, attacker ^ 1, pos._occ[0] | pos._occ[1]):
                    return False  # the checker is pinned to the attacker's own king
                if not pos._in_check():
                    continue  # a lance that promotes on the way stops checking
                if is_mated_after_check(pos, True, cache):
                    return True
            finally:
                pos._pop()
        return False
    finally:
        pos._pop()
