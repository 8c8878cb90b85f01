"""The shogi-specific rules, kept readable: why a move is illegal, repetition and perpetual
check, and the entering-king (入玉) and impasse (持将棋) counts.

Move generation itself lives in :mod:`shogiban.position`, where the same rules are applied with
bitboards; the functions here explain a refusal and decide game ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shogiban.bitboard import BIT, STEP, ZONE, bishop_attack, ray_attack, rook_attack
from shogiban.move import Move
from shogiban.outcome import EnteringKingRule, Outcome, Termination
from shogiban.pieces import ENGLISH_NAMES, Color
from shogiban.position import DEAD_END, DROP_ALLOWED, KIND, Position
from shogiban.squares import SQUARE_NAMES, square_file

if TYPE_CHECKING:
    from shogiban.board import Board

SIDE_NAMES = ("sente", "gote")
#: Full material without kings: 34 small pieces at 1 point and 4 big pieces at 5.
FULL_MATERIAL = 54
BIG_TYPES = (5, 6)


def _reach(position: Position, piece: int, sq: int) -> int:
    """Squares *piece* on *sq* attacks on the current board."""
    occupied = position._occ[0] | position._occ[1]
    kind = KIND[piece]
    if kind == 0:
        return STEP[piece][sq]
    if kind == 1:
        return ray_attack(1 if piece & 16 else 0, sq, occupied)
    slide = bishop_attack(sq, occupied) if kind in (2, 4) else rook_attack(sq, occupied)
    return slide | STEP[piece][sq]


def illegal_reason(position: Position, move: Move) -> tuple[str, str] | None:
    """``(code, reason)`` if *move* is illegal for the side to move, else None.

    Codes: ``no_piece_in_hand``, ``occupied``, ``dead_piece``, ``nifu``, ``uchifuzume``,
    ``no_piece``, ``not_your_piece``, ``bad_piece_move``, ``cannot_promote``, ``self_check``.
    """
    color = position._turn
    to = move.to_square
    code = move.code
    board = position._board
    frm = code >> 7 & 127
    if frm >= 81:
        pt = frm - 81
        name = ENGLISH_NAMES[pt]
        if not position._hands[color][pt]:
            return "no_piece_in_hand", f"no {name} in hand"
        if board[to]:
            return "occupied", f"cannot drop on {SQUARE_NAMES[to]}: the square is occupied"
        if not DROP_ALLOWED[color][pt] >> to & 1:
            return "dead_piece", f"a {name} dropped on {SQUARE_NAMES[to]} could never move"
        if pt == 1 and position._bb[1 | color << 4] & _file_mask(to):
            return "nifu", f"two pawns on file {square_file(to)}"
    else:
        piece = board[frm]
        if not piece:
            return "no_piece", f"no piece on {SQUARE_NAMES[frm]}"
        if piece >> 4 != color:
            return "not_your_piece", f"the piece on {SQUARE_NAMES[frm]} belongs to {SIDE_NAMES[color ^ 1]}"
        name = ENGLISH_NAMES[piece & 15]
        if board[to] and board[to] >> 4 == color:
            return "occupied", f"{SQUARE_NAMES[to]} holds your own piece"
        if not _reach(position, piece, frm) >> to & 1:
            return "bad_piece_move", f"a {name} on {SQUARE_NAMES[frm]} cannot move to {SQUARE_NAMES[to]}"
        if move.promotion:
            if not 1 <= piece & 15 <= 6:
                return "cannot_promote", f"a {name} cannot promote"
            if not (ZONE[color] >> frm & 1 or ZONE[color] >> to & 1):
                return "cannot_promote", (
                    f"cannot promote: neither {SQUARE_NAMES[frm]} nor {SQUARE_NAMES[to]} is in the promotion zone"
                )
        elif DEAD_END[piece] >> to & 1:
            return "dead_piece", f"a {name} on {SQUARE_NAMES[to]} could never move again: it must promote"
    position._push(code)
    try:
        in_check = position._kings[color] >= 0 and position._is_attacked(
            position._kings[color], color ^ 1, position._occ[0] | position._occ[1]
        )
        if in_check:
            return "self_check", "leaves the king in check"
        if frm == 82 and position._in_check() and not position._has_legal_move():
            return "uchifuzume", "pawn drop mate (打ち歩詰め)"
    finally:
        position._pop()
    if code not in position._legal_codes():  # pragma: no cover - the checks above are complete
        return "illegal", "illegal move"
    return None


def _file_mask(sq: int) -> int:
    col = sq % 9
    return sum(BIT[r * 9 + col] for r in range(9))


# -- repetition -------------------------------------------------------------------------------


def repetition_outcome(board: Board) -> Outcome | None:
    """千日手 when the current position occurred four times; a perpetual-check loss when one side
    gave check with every move since the position's first occurrence (even when the escaping side
    made the fourth occurrence); a draw otherwise."""
    if board._rep.get(board._hash, 0) < 4:
        return None
    stack = board._stack
    n = len(stack)
    first = next(k for k in range(n) if stack[k][2] == board._hash)
    # Walk back on a copy and note, for each move since the first occurrence, whether it checked.
    probe = board.copy()
    all_checks = [True, True]
    moved = [False, False]
    for _ in range(n - first):
        mover = probe._turn ^ 1
        moved[mover] = True
        if not probe._in_check():
            all_checks[mover] = False
        probe._pop()
    checker = [c for c in (0, 1) if moved[c] and all_checks[c]]
    if len(checker) == 1:
        loser = checker[0]
        return Outcome(
            Termination.PERPETUAL_CHECK,
            Color(loser ^ 1),
            f"perpetual check: {SIDE_NAMES[loser]} gave check with every move of the repetition",
        )
    return Outcome(Termination.REPETITION, None, "four-fold repetition (千日手)")


# -- entering king and impasse ------------------------------------------------------------------


def _points(pt: int) -> int:
    return 5 if pt in BIG_TYPES or pt - 8 in BIG_TYPES else 1


def material(position: Position, color: int) -> int:
    """Points of all of *color*'s pieces on the board and in hand (big 5, others 1, king 0)."""
    total = sum(_points(pt) * n for pt, n in enumerate(position._hands[color]) if pt)
    for piece in position._board:
        if piece and piece >> 4 == color and piece & 15 != 8:
            total += _points(piece & 15)
    return total


def missing_material(position: Position) -> int:
    """Points of the pieces missing from the full set (those a handicap removed)."""
    return max(0, FULL_MATERIAL - material(position, 0) - material(position, 1))


def declaration_points(position: Position, color: int) -> tuple[int, int]:
    """``(points, pieces)``: *color*'s hand plus its pieces in the enemy camp (king excluded), and
    how many pieces it has in the camp."""
    points = sum(_points(pt) * n for pt, n in enumerate(position._hands[color]) if pt)
    pieces = 0
    zone = ZONE[color]
    for sq in range(81):
        piece = position._board[sq]
        if piece and piece >> 4 == color and piece & 15 != 8 and zone >> sq & 1:
            points += _points(piece & 15)
            pieces += 1
    return points, pieces


def declaration_result(position: Position, rule: EnteringKingRule) -> tuple[Outcome | None, str]:
    """What a declaration by the side to move would give under *rule*: an outcome (a win, or a
    draw under the 24-point rule) or None with the reason it fails."""
    color = position._turn
    side = SIDE_NAMES[color]
    if rule is EnteringKingRule.NONE:
        return None, "no entering-king rule is in force"
    ksq = position._kings[color]
    if ksq < 0 or not ZONE[color] >> ksq & 1:
        return None, f"{side}'s king is not in the enemy camp"
    if position._in_check():
        return None, f"{side}'s king is in check"
    points, pieces = declaration_points(position, color)
    if pieces < 10:
        return None, f"only {pieces} pieces in the enemy camp (10 needed)"
    adjust = 0
    if rule in (EnteringKingRule.POINTS_27_HANDICAP, EnteringKingRule.POINTS_24_HANDICAP) and color == 1:
        adjust = missing_material(position)
    if rule in (EnteringKingRule.POINTS_27, EnteringKingRule.POINTS_27_HANDICAP):
        need = (28 if color == 0 else 27) - adjust
        if points >= need:
            return Outcome(Termination.ENTERING_KING, Color(color), f"{side} declared with {points} points"), ""
        return None, f"{points} points ({need} needed)"
    win, draw = 31 - adjust, 24 - adjust
    if points >= win:
        return Outcome(Termination.ENTERING_KING, Color(color), f"{side} declared with {points} points"), ""
    if points >= draw:
        return Outcome(Termination.ENTERING_KING, None, f"{side} declared with {points} points: 持将棋"), ""
    return None, f"{points} points ({draw} needed for a draw, {win} to win)"


def impasse_outcome(position: Position) -> Outcome:
    """The 24-point count (持将棋) of all pieces on the board and in hand, by agreement: both
    >= 24 is a draw, fewer loses.  Pieces a handicap removed count for the giver (gote)."""
    black = material(position, 0)
    white = material(position, 1) + missing_material(position)
    detail = f"sente {black} points, gote {white} points"
    if (black >= 24 and white >= 24) or (black < 24 and white < 24):
        return Outcome(Termination.IMPASSE, None, detail)
    return Outcome(Termination.IMPASSE, Color.WHITE if black < 24 else Color.BLACK, detail)
