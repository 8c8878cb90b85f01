"""Explanations in words, in the user's language: why a move is illegal, why a declaration is
refused, how a game ended.

The decisions come from the rules core (:func:`shogiban.rules.illegal_reason`,
:meth:`shogiban.Board.can_declare_win`, :meth:`shogiban.Board.outcome`); this module only puts
them into words.  The web lessons use the same texts.

>>> from shogiban import Board, Move
>>> board = Board("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
>>> illegal_reason(board, Move.from_usi("P*5e"), "en")
('nifu', 'two pawns on file 5 (二歩): you already have an unpromoted pawn on that file')
>>> illegal_reason(board, Move.from_usi("P*5e"), "ja")[1]
'二歩です。５筋にはすでに成っていない自分の歩があります'
"""

from __future__ import annotations

from shogiban import rules
from shogiban.board import Board
from shogiban.move import Move
from shogiban.notation.names import FULLWIDTH_DIGITS, KANJI_DIGITS, LONG_PIECE_NAMES, SIDE_NAMES
from shogiban.outcome import EnteringKingRule, Outcome, Termination
from shogiban.pieces import Color, PieceType
from shogiban.play.i18n import Language, translate
from shogiban.squares import SQUARE_NAMES, Square, square_file, square_rank


def square_label(square: Square, language: Language) -> str:
    """*square* as the language writes it: ``7f`` in English, ``７六`` in Japanese and Chinese."""
    if language == "en":
        return SQUARE_NAMES[square]
    return FULLWIDTH_DIGITS[square_file(square) - 1] + KANJI_DIGITS[square_rank(square) - 1]


def file_label(file: int, language: Language) -> str:
    """File *file* (1..9) in words: ``file 7``, ``７筋``, ``第7筋``."""
    shown = str(file) if language != "ja" else FULLWIDTH_DIGITS[file - 1]
    return translate(language, "file", file=shown)


def piece_name(piece_type: int, language: Language) -> str:
    """The full name of a piece type (``pawn``, ``歩兵``, ``龍王`` ...)."""
    return LONG_PIECE_NAMES[language][PieceType(piece_type)]


def side_name(color: Color | int, language: Language, *, handicap: bool = False) -> str:
    """Sente/gote (先手/後手), or 下手/上手 in a handicap game."""
    if handicap:
        return translate(language, "side.shitate" if color == Color.BLACK else "side.uwate")
    return SIDE_NAMES[language][int(color)]


def illegal_reason(board: Board, move: Move, language: Language) -> tuple[str, str] | None:
    """``(code, text)`` saying why *move* is illegal for the side to move, or None if it is legal.

    *code* is the core's stable code (``nifu``, ``uchifuzume``, ``dead_piece``, ...), *text* the
    reason in *language*.
    """
    found = rules.illegal_reason(board, move)
    if found is None:
        return None
    code = found[0]
    return code, _reason_text(board, move, code, language)


def reason_for_code(board: Board, move: Move, code: str, language: Language) -> str:
    """The reason in *language* for the core's refusal *code* of *move* on *board* (as carried by
    :class:`shogiban.IllegalMoveError`)."""
    return _reason_text(board, move, code, language)


def _reason_text(board: Board, move: Move, code: str, language: Language) -> str:
    to = move.to_square
    params: dict[str, object] = {"square": square_label(to, language)}
    if move.from_square is not None:
        params["from_square"] = square_label(move.from_square, language)
        piece = board.piece_at(move.from_square)
        params["piece"] = piece_name(piece.piece_type, language) if piece else ""
    elif move.drop is not None:
        params["piece"] = piece_name(move.drop, language)
    key = code
    if code == "occupied":
        key = "occupied_drop" if move.is_drop() else "occupied_own"
    elif code == "dead_piece":
        key = "dead_piece_drop" if move.is_drop() else "dead_piece_move"
    elif code == "nifu":
        params["file"] = file_label(square_file(to), language)
    elif code == "cannot_promote":
        piece = board.piece_at(move.from_square) if move.from_square is not None else None
        kind_can_promote = piece is not None and 1 <= piece.piece_type <= 6
        key = "cannot_promote_zone" if kind_can_promote else "cannot_promote_kind"
    if f"reason.{key}" not in _KNOWN_REASON_KEYS:
        key = "illegal"
    return translate(language, f"reason.{key}", **params)


_KNOWN_REASON_KEYS = frozenset(
    f"reason.{k}"
    for k in (
        "no_piece_in_hand", "occupied_drop", "occupied_own", "dead_piece_drop", "dead_piece_move", "nifu",
        "uchifuzume", "no_piece", "not_your_piece", "bad_piece_move", "cannot_promote_kind",
        "cannot_promote_zone", "self_check", "game_over", "illegal",
    )
)


def declaration_refusal(board: Board, language: Language) -> str | None:
    """Why the side to move cannot declare an entering-king win (in *language*), or None if it
    can.  The decision is the core's (:meth:`Board.can_declare_win`); this names the first unmet
    condition."""
    if board.can_declare_win():
        return None
    rule = board.entering_king_rule
    color = board.turn
    if rule is EnteringKingRule.NONE:
        return translate(language, "declare.no_rule")
    king = board.king_square(color)
    in_camp = king is not None and (square_rank(king) <= 3 if color == Color.BLACK else square_rank(king) >= 7)
    if not in_camp:
        return translate(language, "declare.king_not_in_camp")
    if board.is_check():
        return translate(language, "declare.in_check")
    points, pieces = rules.declaration_points(board, color)
    if pieces < 10:
        return translate(language, "declare.too_few_pieces", pieces=pieces)
    return translate(language, "declare.too_few_points", points=points, need=_points_needed(board, rule, color))


def _points_needed(board: Board, rule: EnteringKingRule, color: Color) -> int:
    """Points a declaration needs to win under *rule* (the thresholds of the CSA 27-point and the
    24-point rules, lowered for the handicap giver in the ``*_HANDICAP`` variants)."""
    adjust = 0
    if rule in (EnteringKingRule.POINTS_27_HANDICAP, EnteringKingRule.POINTS_24_HANDICAP) and color == Color.WHITE:
        adjust = rules.missing_material(board)
    if rule in (EnteringKingRule.POINTS_27, EnteringKingRule.POINTS_27_HANDICAP):
        return (28 if color == Color.BLACK else 27) - adjust
    return 31 - adjust


def explain_outcome(
    outcome: Outcome,
    board: Board,
    language: Language,
    *,
    handicap: bool = False,
    declarer: Color | None = None,
) -> str:
    """How the game ended, in a sentence or two of *language*.

    *board* is the final position (for the points of a declaration or an impasse count);
    *declarer* is the side that declared an entering-king win (the side to move by default).
    """
    winner = outcome.winner
    names = {
        "winner": side_name(winner, language, handicap=handicap) if winner is not None else "",
        "loser": side_name(winner.other, language, handicap=handicap) if winner is not None else "",
    }
    term = outcome.termination
    if term is Termination.ENTERING_KING:
        side = declarer if declarer is not None else board.turn
        points = board.declaration_points(side)
        if winner is None:
            return translate(
                language, "end.entering_king_draw", side=side_name(side, language, handicap=handicap), points=points
            )
        return translate(language, "end.entering_king_win", points=points, **names)
    if term is Termination.IMPASSE:
        black_points = rules.material(board, Color.BLACK)
        white_points = rules.material(board, Color.WHITE) + rules.missing_material(board)
        result = (
            translate(language, "end.impasse_draw")
            if winner is None
            else translate(language, "end.impasse_win", winner=names["winner"])
        )
        return translate(
            language, "end.impasse", black_points=black_points, white_points=white_points, result=result
        )
    if term is Termination.ILLEGAL_MOVE:
        return translate(language, "end.illegal_move", detail=outcome.detail, **names)
    return translate(language, f"end.{term.value}", **names)
