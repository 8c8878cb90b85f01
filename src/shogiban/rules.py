"""The shogi-specific rules, kept readable: the one single-move legality checker and its
refusals, repetition and perpetual check, and the entering-king (入玉) and impasse (持将棋) counts.

:func:`play_checked` is the checker: the board (``push_legal``, ``push_usi``, ``check_move``),
the record readers and the notations all ask it, so a move is refused with the same
:class:`~shogiban.errors.Refusal` code whichever way it came.  Move generation itself lives in
:mod:`shogiban.position`, where the same rules are applied with bitboards.
:func:`declaration_status` is the one place the declaration conditions and thresholds live.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from shogiban.bitboard import BETWEEN, BISHOP_RAYS, BIT, RAYS, ROOK_RAYS, STEP, ZONE
from shogiban.errors import Refusal
from shogiban.move import MOVES as _MOVES
from shogiban.move import Move
from shogiban.outcome import EnteringKingRule, Outcome, Termination
from shogiban.pieces import ENGLISH_NAMES, Color
from shogiban.position import DEAD_END, DROP_ALLOWED, KIND, SPEEDUPS, Position
from shogiban.squares import SQUARE_NAMES, square_file

if TYPE_CHECKING:
    from shogiban.board import Board

SIDE_NAMES = ("sente", "gote")
#: Full material without kings: 34 small pieces at 1 point and 4 big pieces at 5.
FULL_MATERIAL = 54
BIG_TYPES = (5, 6)


# Ray directions of a lance: towards rank 1 for sente, rank 9 for gote.
_LANCE_RAYS = (RAYS[0], RAYS[1])
_FILE_MASKS = tuple(sum(BIT[r * 9 + (sq % 9)] for r in range(9)) for sq in range(81))
_LINES = tuple(ROOK_RAYS[sq] | BISHOP_RAYS[sq] for sq in range(81))
_c_legal_codes = SPEEDUPS.legal_codes if SPEEDUPS is not None else None


def reaches(position: Position, piece: int, frm: int, to: int) -> bool:
    """Whether *piece* (a piece code) on *frm* could move to *to* by its movement, ignoring
    pins, checks and what stands on *to*."""
    if STEP[piece][frm] >> to & 1:
        return True
    kind = KIND[piece]
    if not kind:
        return False
    if kind == 1:
        ray = _LANCE_RAYS[piece >> 4][frm]
    elif kind in (2, 4):
        ray = BISHOP_RAYS[frm]
    else:
        ray = ROOK_RAYS[frm]
    return bool(ray >> to & 1) and not BETWEEN[frm][to] & (position._occ[0] | position._occ[1])


def in_promotion_zone(square: int, color: int) -> bool:
    """Whether *square* lies in *color*'s promotion zone (the enemy camp: ranks 1-3 for sente,
    7-9 for gote)."""
    return bool(ZONE[color] >> square & 1)


def promotion_allowed(piece: int, frm: int, to: int) -> bool:
    """Whether the piece code *piece* may promote moving from *frm* to *to*: it has a promoted
    form and one of the two squares is in its owner's promotion zone."""
    return 1 <= piece & 15 <= 6 and bool((ZONE[piece >> 4] >> frm | ZONE[piece >> 4] >> to) & 1)


def promotion_required(piece: int, to: int) -> bool:
    """Whether the piece code *piece* must promote on reaching *to* (unpromoted, it could never
    move again: a pawn or lance on the last rank, a knight on the last two)."""
    return bool(DEAD_END[piece] >> to & 1)


# Legal move codes of the last few positions, keyed by the Zobrist key and the occupancy (legal
# moves depend only on board, hands and side to move): writing a move and reading it back, or in
# several notations, asks for the same position's moves again and again.
_CACHE_SIZE = 8
_legal_cache: dict[tuple[int, int, int, int], list[int]] = {}


def legal_codes(position: Position) -> list[int]:
    """The legal move codes of *position*, remembered for the last few positions (do not modify
    the list)."""
    occ = position._occ
    key = (position._hash, occ[0], occ[1], position._turn)
    codes = _legal_cache.get(key)
    if codes is None:
        codes = position._legal_codes()
        if len(_legal_cache) >= _CACHE_SIZE:
            _legal_cache.clear()
        _legal_cache[key] = codes
    return codes


def legal_moves_to(position: Position, to: int) -> list[Move]:
    """The legal moves (board moves and drops) to the square *to*, in move-list order."""
    return [_MOVES[c] for c in legal_codes(position) if c & 127 == to]  # type: ignore[misc]


def legal_origins(position: Position, to: int, piece_type: int) -> list[int]:
    """Squares of the side to move's pieces of *piece_type* with a legal move to *to*."""
    board = position._board
    found = []
    for c in legal_codes(position):
        if c & 127 == to:
            frm = c >> 7 & 127
            if frm < 81 and board[frm] & 15 == piece_type and frm not in found:
                found.append(frm)
    return found


# Where a piece may step to a square from: the steps of the same piece of the other colour.
_STEP_FROM = tuple(STEP[piece ^ 16] for piece in range(32))


def reaching(position: Position, piece: int, to: int) -> list[int]:
    """Squares, in increasing order, of the pieces *piece* (a piece code) that could move to
    *to* by their movement (:func:`reaches`)."""
    kind = KIND[piece]
    bb = position._bb[piece]
    if not kind:
        bb &= _STEP_FROM[piece][to]  # only squares a step away can hold one
    found = []
    while bb:
        low = bb & -bb
        frm = low.bit_length() - 1
        bb ^= low
        if not kind or reaches(position, piece, frm, to):
            found.append(frm)
    return found


def play_checked(position: Position, code: int, in_check: bool | None = None) -> str | None:
    """The single-move legality checker: play the move *code* if the rules allow it and return
    None, else leave *position* unchanged and return the refusal code (see :func:`check_move`).

    The tests run in the order of :func:`check_move`'s codes, cheapest first.  *in_check* says
    whether the side to move is in check, when the caller knows: not in check, only a king move
    or a move off a line through the king can expose the king, so the costly self-check test is
    skipped for the rest (the record readers pass it along from move to move).
    """
    to = code & 127
    frm = code >> 7 & 127
    color = position._turn
    squares = position._board
    if frm >= 81:
        pt = frm - 81
        if not position._hands[color][pt]:
            return "no_piece_in_hand"
        if squares[to]:
            return "occupied"
        if not DROP_ALLOWED[color][pt] >> to & 1:
            return "dead_piece"
        if pt == 1 and position._bb[1 | color << 4] & _FILE_MASKS[to]:
            return "nifu"
        piece = 0
    else:
        target = squares[to]
        if target & 15 == 8 and target >> 4 != color:
            return "king_capture"  # only a lenient start position offers one, whatever moves
        piece = squares[frm]
        if not piece:
            return "no_piece"
        if piece >> 4 != color:
            return "not_your_piece"
        if target and target >> 4 == color:
            return "occupied"
        if not reaches(position, piece, frm, to):
            return "bad_piece_move"
        if code >> 14:
            if not 1 <= piece & 15 <= 6 or not (ZONE[color] >> frm & 1 or ZONE[color] >> to & 1):
                return "cannot_promote"
        elif DEAD_END[piece] >> to & 1:
            return "dead_piece"
    position._push(code)
    ksq = position._kings[color]
    # Not in check, only a king move or a move off a line through the king can expose it.
    exposed = in_check is not False or piece & 15 == 8 or (frm < 81 and _LINES[ksq] >> frm & 1)
    if ksq >= 0 and exposed and position._is_attacked(ksq, color ^ 1, position._occ[0] | position._occ[1]):
        position._pop()
        return "self_check"
    if frm == 82:
        eksq = position._kings[color ^ 1]
        if eksq >= 0 and to == (eksq - 9 if color else eksq + 9):
            # Only a pawn dropped in front of the king checks it; _is_pawn_drop_mate drops it itself.
            position._pop()
            if position._is_pawn_drop_mate(to):
                return "uchifuzume"
            position._push(code)
    return None


def gives_check_after(position: Position, code: int) -> bool:
    """Whether the move *code*, just played on *position*, checks the side now to move."""
    to = code & 127
    frm = code >> 7 & 127
    color = position._turn ^ 1
    eksq = position._kings[color ^ 1]
    if eksq < 0:
        return False
    if reaches(position, position._board[to], to, eksq):
        return True
    # A discovered check: the move left a line through the enemy king.
    return frm < 81 and bool(_LINES[eksq] >> frm & 1) and position._is_attacked(
        eksq, color, position._occ[0] | position._occ[1]
    )


#: What :func:`push_if_legal` returns: illegal (0, false), legal and not a check, legal and a
#: check, legal (whether it checks is not known).
ILLEGAL: Final = 0
LEGAL: Final = 1
CHECK: Final = 2
PLAYED: Final = 3


def push_if_legal(position: Position, code: int, in_check: bool | None = None) -> int:
    """Play the move *code* on *position* if it is legal and return :data:`LEGAL`, :data:`CHECK`
    when it gives check, or :data:`PLAYED` when that is not worked out; else leave the position
    unchanged and return :data:`ILLEGAL` (0, so the result reads as a bool).

    The test is :func:`play_checked`, or with the accelerator the compiled legal-move list (each
    position of a record is new: no cache).  The record readers check every move this way.

    :param in_check: whether the side to move is in check, when the caller knows (None: it is
        worked out when needed).
    """
    if _c_legal_codes is not None:
        if code in _c_legal_codes(position):
            position.push_code(code)
            return PLAYED
        return ILLEGAL
    if play_checked(position, code, in_check) is not None:
        return ILLEGAL
    return CHECK if gives_check_after(position, code) else LEGAL


def check_move(position: Position, move: Move) -> Refusal | None:
    """Why the rules refuse *move* for the side to move, or None if it is legal.

    The codes (keys of the catalogue's ``rules.`` domain): ``no_piece_in_hand``, ``occupied``,
    ``dead_piece``, ``nifu``, ``king_capture``, ``no_piece``, ``not_your_piece``,
    ``bad_piece_move``, ``cannot_promote``, ``self_check``, ``uchifuzume``.  The parameters name
    ``square`` (the destination), ``from_square``, ``file`` and ``piece`` (a piece type) as ints.

    >>> from shogiban import Board
    >>> check_move(Board("4k4/9/9/9/9/9/4P4/9/4K4 b P 1"), Move.from_usi("P*5e")).code
    'nifu'
    """
    code = move.code
    if _c_legal_codes is not None and code in _c_legal_codes(position):
        return None
    refused = play_checked(position, code)
    if refused is None:
        position._pop()
        return None
    return describe_refusal(position, move, refused)


def describe_refusal(position: Position, move: Move, code: str) -> Refusal:
    """The :class:`Refusal` for the rules' refusal *code* of *move* (with its parameters and
    English sentence)."""
    to = move.to_square
    frm = move.code >> 7 & 127
    dest = SQUARE_NAMES[to]
    params: dict[str, str | int] = {"square": to}
    if frm >= 81:
        pt = frm - 81
        params["piece"] = pt
        name = ENGLISH_NAMES[pt]
        message = {
            "no_piece_in_hand": f"no {name} in hand",
            "occupied": f"cannot drop on {dest}: the square is occupied",
            "dead_piece": f"a {name} dropped on {dest} could never move",
            "nifu": f"two pawns on file {square_file(to)}",
        }.get(code, "")
        if code == "nifu":
            params["file"] = square_file(to)
    else:
        params["from_square"] = frm
        piece = position._board[frm]
        if piece:
            params["piece"] = piece & 15
        name = ENGLISH_NAMES[piece & 15]
        origin = SQUARE_NAMES[frm]
        message = {
            "no_piece": f"no piece on {origin}",
            "not_your_piece": f"the piece on {origin} belongs to {SIDE_NAMES[position._turn ^ 1]}",
            "occupied": f"{dest} holds your own piece",
            "king_capture": "a king cannot be captured",
            "bad_piece_move": f"a {name} on {origin} cannot move to {dest}",
            "cannot_promote": f"a {name} cannot promote" if not 1 <= piece & 15 <= 6 else
            f"cannot promote: neither {origin} nor {dest} is in the promotion zone",
            "dead_piece": f"a {name} on {dest} could never move again: it must promote",
        }.get(code, "")
    if not message:
        message = {"self_check": "leaves the king in check", "uchifuzume": "pawn drop mate (打ち歩詰め)"}.get(
            code, "illegal move"
        )
    return Refusal(code, params, message)


def illegal_reason(position: Position, move: Move) -> tuple[str, str] | None:
    """Deprecated: use :func:`check_move`, whose :class:`Refusal` carries the code, the
    parameters and the sentence.  ``(code, reason)`` if *move* is illegal, else None."""
    warnings.warn("rules.illegal_reason is deprecated: use rules.check_move", DeprecationWarning, stacklevel=2)
    refusal = check_move(position, move)
    return None if refusal is None else (refusal.code, refusal.message)


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


@dataclass(frozen=True, slots=True)
class DeclarationStatus:
    """Where a declaration (入玉宣言) by the side to move stands under a rule: each condition,
    the points of both sides, the thresholds, and what declaring would give.

    >>> from shogiban import Board
    >>> status = declaration_status(Board(), EnteringKingRule.POINTS_27)
    >>> status.may_declare, status.refusal.code, status.win_points
    (False, 'king_not_in_camp', 28)
    """

    rule: EnteringKingRule
    color: Color
    """The side to move, who would declare."""
    king_in_camp: bool
    in_check: bool
    pieces_in_camp: tuple[int, int]
    """Pieces (king excluded) each side has in its enemy camp, sente first."""
    points: tuple[int, int]
    """Declaration points of each side (hand plus pieces in the enemy camp), sente first."""
    win_points: int
    """Points the side to move needs to win (0 with no rule in force)."""
    draw_points: int | None
    """Points the side to move needs for a draw (24-point rules), else None."""
    outcome: Outcome | None
    """What declaring now gives (a win, or a 持将棋 draw), None if the declaration fails."""
    refusal: Refusal | None
    """The first unmet condition, None when declaring gives :attr:`outcome`."""

    @property
    def may_declare(self) -> bool:
        """Whether the side to move may declare now (for a win or a draw)."""
        return self.outcome is not None

    @property
    def wins(self) -> bool:
        """Whether declaring now wins."""
        return self.outcome is not None and self.outcome.winner is not None


def declaration_thresholds(position: Position, rule: EnteringKingRule, color: int) -> tuple[int, int | None]:
    """``(win, draw)``: the points *color* needs under *rule* to win by declaring, and for a
    draw (None where the rule has no draw): 28 / 27 under the 27-point rule, 31 / 24 under the
    24-point rule, the handicap giver's (gote's) lowered by the pieces the handicap removed in
    the ``*_HANDICAP`` variants."""
    if rule is EnteringKingRule.NONE:
        return 0, None
    adjust = 0
    if rule in (EnteringKingRule.POINTS_27_HANDICAP, EnteringKingRule.POINTS_24_HANDICAP) and color == 1:
        adjust = missing_material(position)
    if rule in (EnteringKingRule.POINTS_27, EnteringKingRule.POINTS_27_HANDICAP):
        return (28 if color == 0 else 27) - adjust, None
    return 31 - adjust, 24 - adjust


def declaration_status(position: Position, rule: EnteringKingRule) -> DeclarationStatus:
    """Every fact of a declaration by the side to move under *rule* (see :class:`DeclarationStatus`);
    the one place the thresholds and conditions are worked out."""
    color = position._turn
    side = SIDE_NAMES[color]
    black, white = declaration_points(position, 0), declaration_points(position, 1)
    points, pieces = (black, white)[color]
    ksq = position._kings[color]
    in_camp = ksq >= 0 and bool(ZONE[color] >> ksq & 1)
    in_check = position._in_check()
    win, draw = declaration_thresholds(position, rule, color)
    outcome: Outcome | None = None
    refusal: Refusal | None = None
    if rule is EnteringKingRule.NONE:
        refusal = Refusal("no_declaration_rule", {}, "no entering-king rule is in force")
    elif not in_camp:
        refusal = Refusal("king_not_in_camp", {"side": side}, f"{side}'s king is not in the enemy camp")
    elif in_check:
        refusal = Refusal("declare_in_check", {"side": side}, f"{side}'s king is in check")
    elif pieces < 10:
        refusal = Refusal("too_few_pieces", {"pieces": pieces}, f"only {pieces} pieces in the enemy camp (10 needed)")
    elif points >= win:
        outcome = Outcome(Termination.ENTERING_KING, Color(color), f"{side} declared with {points} points")
    elif draw is not None and points >= draw:
        outcome = Outcome(Termination.ENTERING_KING, None, f"{side} declared with {points} points: 持将棋")
    elif draw is None:
        refusal = Refusal("too_few_points", {"points": points, "need": win}, f"{points} points ({win} needed)")
    else:
        refusal = Refusal(
            "too_few_points", {"points": points, "need": draw},
            f"{points} points ({draw} needed for a draw, {win} to win)",
        )
    return DeclarationStatus(
        rule, Color(color), in_camp, in_check, (black[1], white[1]), (black[0], white[0]), win, draw, outcome, refusal
    )


def declaration_result(position: Position, rule: EnteringKingRule) -> tuple[Outcome | None, str]:
    """Deprecated: use :func:`declaration_status` (its ``outcome`` and ``refusal``).  What a
    declaration by the side to move would give under *rule*, with the reason it fails."""
    warnings.warn(
        "rules.declaration_result is deprecated: use rules.declaration_status", DeprecationWarning, stacklevel=2
    )
    status = declaration_status(position, rule)
    return status.outcome, status.refusal.message if status.refusal is not None else ""


def impasse_points(position: Position) -> tuple[int, int]:
    """The 24-point counts (持将棋) of sente and gote: all pieces on the board and in hand,
    the pieces a handicap removed credited to the giver (gote)."""
    return material(position, 0), material(position, 1) + missing_material(position)


def impasse_outcome(position: Position) -> Outcome:
    """The 24-point count (持将棋) of all pieces on the board and in hand, by agreement: both
    >= 24 is a draw, fewer loses.  Pieces a handicap removed count for the giver (gote)."""
    black, white = impasse_points(position)
    detail = f"sente {black} points, gote {white} points"
    if (black >= 24 and white >= 24) or (black < 24 and white < 24):
        return Outcome(Termination.IMPASSE, None, detail)
    return Outcome(Termination.IMPASSE, Color.WHITE if black < 24 else Color.BLACK, detail)
