"""Checking moves for the side to move, generated straight from the bitboards.

A mate search by continuous checks (王手の連続) spends most of its time at attacker nodes, where
only checks may be played; producing every legal move and keeping those that check costs a
push/test/pop per move.  :func:`check_codes` builds the checks directly:

* drops on the squares from which the dropped piece would attack the king (二歩, dead pieces and
  打ち歩詰め respected through the core's drop masks);
* direct checks: a board move that lands where the piece, promoted or not, attacks the king;
* discovered checks: a piece that alone blocks one of the mover's sliders from the king, moving
  off that line (the mover's king too, to a safe square).

Moves of pieces pinned to the mover's own king stay on the pin line.  When the mover is itself
in check, every legal move is generated and filtered instead (a rare case in mate search).
"""

from __future__ import annotations

from shogiban.bitboard import BETWEEN, BISHOP_RAYS, FULL, KING8, RAYS, ROOK_RAYS, STEP, ZONE, E, N, S, W
from shogiban.move import MOVES, Move
from shogiban.position import (
    DEAD_END,
    DROP_ALLOWED,
    PROMOTION_FLAG,
    Position,
    _bishop_attack,
    _ray,
    _rook_attack,
    piece_attacks,
)

__all__ = ["check_codes", "generate_checks", "gives_check_codes_slow"]

_RN, _RS, _RW, _RE = RAYS[N], RAYS[S], RAYS[W], RAYS[E]


def _add_codes(out: list[int], frm: int, dests: int, flag: int) -> None:
    """Append moves from *frm* to every square of *dests*, with the promotion *flag*."""
    base = frm << 7 | flag
    while dests:
        low = dests & -dests
        dests ^= low
        out.append(base | (low.bit_length() - 1))


def check_codes(pos: Position) -> list[int]:
    """Codes of every legal move of the side to move that checks the opponent's king.

    Returns an empty list when the opponent has no king.
    """
    color = pos._turn
    enemy = color ^ 1
    ksq = pos._kings[enemy]
    if ksq < 0:
        return []
    occ_all = pos._occ
    own = occ_all[color]
    occupied = own | occ_all[enemy]
    bb = pos._bb
    board = pos._board
    my_king = pos._kings[color]
    pinned = 0
    pin_lines: dict[int, int] = {}
    if my_king >= 0:
        checkers, pinned, pin_lines = pos._checkers_and_pins(my_king, color, occupied)
        if checkers:
            return gives_check_codes_slow(pos)
    o = color << 4
    m = enemy << 4  # a piece of the other colour on ksq mirrors the steps that reach it
    rook_k = _rook_attack(ksq, occupied)
    bishop_k = _bishop_attack(ksq, occupied)
    lance_k = _ray(S if color == 0 else N, ksq, occupied)
    king8 = KING8[ksq]
    gold_k = STEP[7 | m][ksq]
    # Squares from which each piece code of ours attacks the king.
    target = [0] * 16
    target[1] = STEP[1 | m][ksq]
    target[2] = lance_k
    target[3] = STEP[3 | m][ksq]
    target[4] = STEP[4 | m][ksq]
    target[5] = bishop_k
    target[6] = rook_k
    target[7] = gold_k
    target[9] = target[10] = target[11] = target[12] = gold_k
    target[13] = bishop_k | king8
    target[14] = rook_k | king8
    out: list[int] = []

    # -- drops --------------------------------------------------------------------------------
    hand = pos._hands[color]
    add_drops = pos._add_drops
    empty = FULL ^ occupied
    allowed = DROP_ALLOWED[color]
    if hand[1]:
        mask = target[1] & empty & allowed[1]
        if mask:
            mask = pos._pawn_drop_mask(mask, color)
            if mask:
                add_drops(out, 1, mask)
    for pt in (2, 3, 4, 5, 6, 7):
        if hand[pt]:
            mask = target[pt] & empty & allowed[pt]
            if mask:
                add_drops(out, pt, mask)

    # -- discovered-check candidates: our single blockers between a slider of ours and the king
    snipers = (ROOK_RAYS[ksq] & (bb[6 | o] | bb[14 | o])) | (BISHOP_RAYS[ksq] & (bb[5 | o] | bb[13 | o]))
    snipers |= (_RS[ksq] if color == 0 else _RN[ksq]) & bb[2 | o]
    blockers: dict[int, int] = {}
    between_k = BETWEEN[ksq]
    while snipers:
        low = snipers & -snipers
        snipers ^= low
        line = between_k[low.bit_length() - 1]
        inner = line & occupied
        if inner and not inner & (inner - 1) and inner & own:
            blockers[inner.bit_length() - 1] = line

    # -- board moves ----------------------------------------------------------------------------
    zone = ZONE[color]
    notown = FULL ^ own
    pieces = own
    if my_king >= 0:
        pieces ^= 1 << my_king
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        sq = low.bit_length() - 1
        piece = board[sq]
        pt = piece & 15
        dests = piece_attacks(piece, sq, occupied) & notown
        if low & pinned:
            dests &= pin_lines[sq]
        if not dests:
            continue
        blocked = blockers.get(sq)
        off_line = dests & ~blocked if blocked is not None else 0
        if pt <= 6:
            promo_ok = dests if low & zone else dests & zone
            plain = (dests & target[pt] | off_line) & ~DEAD_END[piece]
            promo = promo_ok & (target[pt + 8] | off_line)
            if promo:
                _add_codes(out, sq, promo, PROMOTION_FLAG)
            if plain:
                _add_codes(out, sq, plain, 0)
        else:
            plain = dests & target[pt] | off_line
            if plain:
                _add_codes(out, sq, plain, 0)

    # -- our king discovering a check -------------------------------------------------------------
    if my_king >= 0 and my_king in blockers:
        king_line = blockers[my_king]
        king_codes: list[int] = []
        pos._king_moves(king_codes, my_king, color, own, occupied)
        out.extend(code for code in king_codes if not king_line >> (code & 127) & 1)
    return out


def gives_check_codes_slow(pos: Position) -> list[int]:
    """Every legal move of the side to move that checks, by filtering all legal moves."""
    out = []
    push, pop, in_check = pos._push, pos._pop, pos._in_check
    for code in pos._legal_codes():
        push(code)
        if in_check():
            out.append(code)
        pop()
    return out


def generate_checks(board: Position) -> list[Move]:
    """Every legal checking move of the side to move, as :class:`~shogiban.move.Move` objects.

    >>> from shogiban import Board
    >>> sorted(m.usi() for m in generate_checks(Board("3k5/9/3P5/9/9/9/9/9/9 b G 1")))
    ['6c6b', '6c6b+', 'G*5a', 'G*5b', 'G*6b', 'G*7a', 'G*7b']
    """
    moves: list[Move] = []
    for code in check_codes(board):
        move = MOVES[code]
        assert move is not None
        moves.append(move)
    return moves
