"""Western move notation in three styles.

* ``"hodges"`` (default; George Hodges, *Shogi* magazine, 1976, the form most English books and
  sites use): letters for ranks: ``P-7f``, ``Bx3c+``, ``S*5b``, ``+Bx2b``, ``G7h-7g``.
* ``"hosking"`` (Tony Hosking, *The Art of Shogi*, 1996, and lishogi's "Western"):
  numbers for files and ranks: ``P-76``, ``Bx33+``, ``S*52``, ``+Bx22``, ``G78-77``.
* ``"kitao"`` (Kitao-Kawasaki): kanji pieces, numbers for squares, the origin in parentheses and
  the destination left out when it is the previous move's (as 同 in Japanese): ``歩-76``,
  ``角x33+``, ``銀*52``, ``+銀-44``, ``金(78)-77``, ``歩x``.

In every style ``-`` is a plain move, ``x`` a capture, ``*`` a drop; ``+`` after the square is a
promotion and ``=`` a promotion declined (written only when promotion was possible).  The origin
is written only when another piece of the same kind could legally move to the same square.

:func:`parse_western` reads all three styles and their common variants (no hyphen: ``P76``;
lowercase letters; ``D``/``H``/``T`` for dragon, horse and tokin; kanji in the Hosking/Hodges
layout), and checks the move is legal.

>>> from shogiban import Board
>>> board = Board()
>>> make_western(board, board.parse_usi("7g7f")), make_western(board, board.parse_usi("7g7f"), style="hosking")
('P-7f', 'P-76')
>>> parse_western(board, "G6i-5h")
Move.from_usi('6i5h')

:raises InvalidMoveError: for text that is not a move.
:raises IllegalMoveError: for a move that is not legal here.
:raises AmbiguousMoveError: for text that several legal moves match (origin missing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

from shogiban.errors import AmbiguousMoveError, InvalidMoveError, Refusal
from shogiban.move import Move, board_move, drop_move
from shogiban.notation._legal import illegal, legal_codes, legal_moves_to, legal_origins, reaching, refusal_of
from shogiban.notation.excerpt import excerpt
from shogiban.notation.names import (
    ALIASES_BY_LENGTH,
    DIGIT_VALUES,
    GOTE_MARKS,
    PIECE_ALIASES,
    SENTE_MARKS,
    WESTERN_PIECE_LETTERS,
)
from shogiban.pieces import ENGLISH_NAMES, PieceType, code_of, owner_of, promote, type_of
from shogiban.squares import RANK_LETTERS, SQUARE_NAMES, Square

if TYPE_CHECKING:
    from shogiban.board import Board

__all__ = ["KITAO_PIECE_NAMES", "STYLES", "Style", "make_western", "parse_western"]

Style = Literal["hosking", "hodges", "kitao"]
#: The styles :func:`make_western` writes.
STYLES: Final[tuple[Style, ...]] = ("hosking", "hodges", "kitao")

P = PieceType
#: Kitao-Kawasaki piece names: one kanji, ``+`` before the promoted minor pieces.
KITAO_PIECE_NAMES: Final[dict[PieceType, str]] = {
    P.PAWN: "歩", P.LANCE: "香", P.KNIGHT: "桂", P.SILVER: "銀", P.GOLD: "金", P.BISHOP: "角", P.ROOK: "飛",
    P.KING: "玉", P.PROM_PAWN: "と", P.PROM_LANCE: "+香", P.PROM_KNIGHT: "+桂", P.PROM_SILVER: "+銀",
    P.PROM_BISHOP: "馬", P.PROM_ROOK: "龍",
}
_LETTER_TYPES: Final[dict[str, PieceType]] = {
    "P": P.PAWN, "L": P.LANCE, "N": P.KNIGHT, "S": P.SILVER, "G": P.GOLD, "B": P.BISHOP, "R": P.ROOK,
    "K": P.KING, "D": P.PROM_ROOK, "H": P.PROM_BISHOP, "T": P.PROM_PAWN,
}
_SPACES = " \u3000\t"


def _square_text(sq: int, style: Style) -> str:
    file, rank = 9 - sq % 9, sq // 9 + 1
    return f"{file}{RANK_LETTERS[rank - 1]}" if style == "hodges" else f"{file}{rank}"


def _previous(board: Board, previous_to: Square | None) -> int | None:
    if previous_to is None:
        return board.peek().to_square if board.ply else None
    return previous_to if 0 <= previous_to < 81 else None


def make_western(
    board: Board, move: Move, *, style: Style = "hodges", previous_to: Square | None = None
) -> str:
    """Western text of the legal *move* in *style* (``"hodges"``, ``"hosking"`` or ``"kitao"``).

    :param previous_to: destination of the previous move (default: the board's last move); only
        the Kitao-Kawasaki style uses it, leaving the destination out (``歩x``).
    :raises IllegalMoveError: if *move* is not legal on *board*.
    :raises ValueError: for an unknown style.
    """
    if style not in STYLES:
        raise ValueError(f"unknown western style: {style!r} (expected one of {', '.join(STYLES)})")
    legal = legal_codes(board)
    if move.code not in legal:
        raise illegal(board, refusal_of(board, move), move)
    names = KITAO_PIECE_NAMES if style == "kitao" else WESTERN_PIECE_LETTERS
    to = move.to_square
    if move.drop is not None:
        return f"{names[move.drop]}*{_square_text(to, style)}"
    frm = move.from_square
    assert frm is not None
    squares = board.piece_codes
    pt = type_of(squares[frm])
    rivals = any(f != frm for f in legal_origins(board, to, pt))
    origin = ""
    if rivals:
        origin = f"({_square_text(frm, style)})" if style == "kitao" else _square_text(frm, style)
    action = "x" if squares[to] else "-"
    dest = _square_text(to, style)
    if style == "kitao" and to == _previous(board, previous_to):
        dest = ""
    promotion = "+" if move.promotion else "=" if move.with_promotion().code in legal else ""
    return f"{names[PieceType(pt)]}{origin}{action}{dest}{promotion}"


# -- reading ------------------------------------------------------------------------------------


def _invalid(text: str, why: str) -> InvalidMoveError:
    return InvalidMoveError(f"invalid western move: {excerpt(text)} ({why})")


def _read_piece(text: str, s: str, i: int) -> tuple[PieceType, int]:
    promoted = False
    if s.startswith("+", i):
        promoted = True
        i += 1
    if i < len(s) and s[i].upper() in _LETTER_TYPES:
        pt = _LETTER_TYPES[s[i].upper()]
        i += 1
    else:
        alias = next((a for a in ALIASES_BY_LENGTH if s.startswith(a, i)), None)
        if alias is None:
            raise _invalid(text, "expected a piece such as P, +B or 歩")
        pt = PIECE_ALIASES[alias]
        i += len(alias)
    if promoted:
        if not 1 <= pt <= 6:
            raise _invalid(text, f"a {ENGLISH_NAMES[pt]} has no promoted form")
        pt = promote(pt)
    return pt, i


def _read_square(s: str, i: int) -> tuple[int | None, int]:
    if i + 1 < len(s) and s[i] in DIGIT_VALUES:
        file = DIGIT_VALUES[s[i]]
        r = s[i + 1]
        if r in DIGIT_VALUES:
            rank = DIGIT_VALUES[r]
        elif r.lower() in RANK_LETTERS:
            rank = RANK_LETTERS.index(r.lower()) + 1
        else:
            return None, i
        return (rank - 1) * 9 + 9 - file, i + 2
    return None, i


def _tokenize(text: str) -> tuple[int | None, PieceType, int | None, str, int | None, str]:
    """(color mark, piece, origin, action, destination, promotion suffix)."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"invalid western move: {excerpt(text)} (not a string)")
    s = text.strip(_SPACES + "\r\n")
    i = 0
    color = None
    if s[:1] and s[0] in SENTE_MARKS + GOTE_MARKS:
        color = 0 if s[0] in SENTE_MARKS else 1
        i = 1
    pt, i = _read_piece(text, s, i)
    first: int | None
    bracketed = s.startswith("(", i)
    if bracketed:
        first, j = _read_square(s, i + 1)
        if first is None or not s.startswith(")", j):
            raise _invalid(text, "expected an origin like (77)")
        i = j + 1
    else:
        first, i = _read_square(s, i)
    action = ""
    if i < len(s) and s[i] in "-x×*'":
        action = {"×": "x", "'": "*"}.get(s[i], s[i])
        i += 1
    second, i = _read_square(s, i)
    suffix = ""
    if i < len(s) and s[i] in "+=":
        suffix = s[i]
        i += 1
    if i != len(s):
        raise _invalid(text, f"unexpected {excerpt(s[i:])}")
    origin, dest = (first, second) if second is not None or bracketed else (None, first)
    return color, pt, origin, action, dest, suffix


def parse_western(board: Board, text: str, *, previous_to: Square | None = None) -> Move:
    """Parse western text in any of the styles and check that it is legal on *board*.

    :param previous_to: for Kitao-Kawasaki text without destination (``歩x``); default: the
        board's last move.
    :raises InvalidMoveError: if *text* is not a move.
    :raises IllegalMoveError: if no legal move fits.
    :raises AmbiguousMoveError: if several legal moves fit.
    """
    color, pt, origin, action, dest, suffix = _tokenize(text)
    if color is not None and color != board.side_to_move:
        side = ("sente", "gote")[board.side_to_move]
        raise illegal(board, Refusal("wrong_side", {"side": side}, "it is the other side's turn"), text=text)
    if dest is None:
        dest = _previous(board, previous_to) if action == "x" else None
        if dest is None:
            raise _invalid(text, "expected a destination square like 76 or 7f")
    here = legal_moves_to(board, dest)
    squares = board.piece_codes
    board_moves = [m for m in here if (f := m.from_square) is not None and type_of(squares[f]) == pt]
    if action == "*" or (not board_moves and not action and origin is None and not suffix):
        if pt > 7:
            raise _invalid(text, f"a {ENGLISH_NAMES[pt]} cannot be dropped")
        drop = drop_move(dest, pt)
        if drop in here:
            return drop
        raise illegal(board, refusal_of(board, drop), drop, text)
    matches = [m for m in board_moves if origin is None or m.from_square == origin]
    chosen = [m for m in matches if m.promotion == (suffix == "+")]
    if len(chosen) == 1:
        return chosen[0]
    if len(chosen) > 1:
        candidates = tuple(chosen)
        options = ", ".join(m.usi() for m in candidates)
        raise AmbiguousMoveError(
            f"ambiguous move: {excerpt(text)} in {board.sfen()} (could be {options}; add the origin)",
            candidates,
        )
    name = ENGLISH_NAMES[pt]
    if matches or (origin is not None and origin != dest):
        # One move is named: the refusal push_usi gives it (dead_piece, cannot_promote, self_check ...).
        frm = matches[0].from_square if matches else origin
        assert frm is not None
        piece = squares[frm]
        if not matches and piece and owner_of(piece) == board.side_to_move and type_of(piece) != pt:
            refusal = Refusal(
                "wrong_piece", {"from_square": frm, "square": dest, "piece": pt},
                f"the piece on {SQUARE_NAMES[frm]} is a {ENGLISH_NAMES[type_of(piece)]}, not a {name}",
            )
            raise illegal(board, refusal, text=text)
        named = board_move(frm, dest, suffix == "+")
        raise illegal(board, refusal_of(board, named), named, text)
    reach = reaching(board, code_of(pt, board.side_to_move), dest) if origin is None else []
    if len(reach) == 1:  # one piece of the kind could go there by its movement (it is pinned ...)
        named = board_move(reach[0], dest, suffix == "+")
        raise illegal(board, refusal_of(board, named), named, text)
    if origin is not None:
        refusal = Refusal("bad_piece_move", {"from_square": origin, "square": dest, "piece": pt},
                          f"no {name} on {SQUARE_NAMES[origin]} can move to {SQUARE_NAMES[dest]}")
    else:
        refusal = Refusal("no_such_move", {"square": dest, "piece": pt}, f"no {name} can move to {SQUARE_NAMES[dest]}")
    raise illegal(board, refusal, text=text)
