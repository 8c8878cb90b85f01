"""BOD board diagrams (局面図), as Kifu for Windows writes them and KIF/KI2 files embed them.

:func:`make_bod` writes::

    後手の持駒：なし
      ９ ８ ７ ６ ５ ４ ３ ２ １
    +---------------------------+
    |v香v桂v銀v金v玉v金v銀v桂v香|一
    | ・v飛 ・ ・ ・ ・ ・v角 ・|二
    ...
    +---------------------------+
    先手の持駒：飛　角二　歩十八
    手数＝1  ▲７六歩  まで
    後手番

Each square is two characters: a space (sente) or ``v`` (gote) and the piece kanji, `` ・`` for
an empty square.  Hands list kanji counts separated by U+3000 (``なし`` when empty).  The
``手数＝`` footer is written only when ``last_move`` or ``move_number`` is given; the turn line
(``後手番``) whenever gote is to move (and ``下手番`` when the labels are the handicap ones
下手/上手 and sente is to move, since readers may assume the giver starts).

:func:`parse_bod` reads leniently: ``なし``, ``残りの駒全部`` (that side holds every piece not on the
board or in the other hand, as in tsume), hands separated by U+3000, ASCII spaces or nothing,
kanji or arabic counts, 先手/後手 or 下手/上手 labels, the turn from a ``後手番``/``上手番``/
``先手番``/``下手番`` line, else from the mark of the move in the ``手数＝`` footer (``▲`` just
played: gote to move), else sente.  Header lines (``先手：name``), comments and blank lines are
skipped; reading stops at the first move line.  A whole KIF text may be passed.

>>> from shogiban import Board
>>> board = parse_bod(make_bod(Board("4k4/9/9/9/9/9/9/9/4K4 w R18p 1")))
>>> board.sfen()
'4k4/9/9/9/9/9/9/9/4K4 w R18p 1'

:raises KifuParseError: with the line number and line, for a diagram that cannot be read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from shogiban.errors import InvalidSfenError, KifuParseError
from shogiban.move import Move
from shogiban.notation.excerpt import excerpt
from shogiban.notation.japanese import japanese_square, make_ki2_move
from shogiban.notation.names import (
    BOD_PIECE_NAMES,
    DIGIT_VALUES,
    GOTE_MARKS,
    KANJI_DIGITS,
    KIF_PIECE_NAMES,
    PIECE_ALIASES,
    SENTE_MARKS,
    kanji_number,
    parse_kanji_number,
)
from shogiban.notation.safetext import one_line
from shogiban.pieces import HAND_TYPES, PIECE_COUNTS, WHITE, PieceType, code_of, is_gote, type_of, unpromote
from shogiban.sfen import make_sfen

if TYPE_CHECKING:
    from shogiban.board import Board

__all__ = ["make_bod", "parse_bod"]

_FRAME = "+---------------------------+"
_FILES_LINE = "  ９ ８ ７ ６ ５ ４ ３ ２ １"
_SPACES = " \u3000\t"
_BLACK_LABELS = ("先手", "下手")
_WHITE_LABELS = ("後手", "上手")
# Linear patterns (no lazy group before optional spaces; the hand text is stripped by hand) and
# numbers of at most 9 digits, which int() always takes.
_HAND_RE = re.compile(r"^\s*(先手|後手|下手|上手)の持駒\s*[：:](.*)$")
_TURN_RE = re.compile(r"^\s*(先手|後手|下手|上手)番\s*$")
_MOVE_NUMBER_RE = re.compile(r"^\s*手数\s*[＝=]\s*([0-9]{1,9})(?![0-9])(.*)$")
_STOP_RE = re.compile(r"^\s*(手数-{2,}|[0-9]+\s+\S|変化[：:]|[▲△☗☖▽]\S)")
_CELL_PIECES = {name: pt for pt, name in BOD_PIECE_NAMES.items()} | {
    alias: pt for alias, pt in PIECE_ALIASES.items() if len(alias) == 1
}
_EMPTY_CELLS = "・*＊"
_HAND_ALIASES = tuple(
    sorted((a for a, pt in PIECE_ALIASES.items() if pt <= 7), key=len, reverse=True)
)
_NUMBER_CHARS = KANJI_DIGITS + "十" + "".join(c for c in DIGIT_VALUES if c not in KANJI_DIGITS)
_HAND_SEPARATORS = _SPACES + "、,，・"
_REMAINING = ("残りの駒全部", "残り全部", "残りすべて", "残り全て")


# -- writing ------------------------------------------------------------------------------------


def _hand_text(hand: dict[PieceType, int]) -> str:
    if not hand:
        return "なし"
    return "\u3000".join(
        BOD_PIECE_NAMES[pt] + (kanji_number(n) if n > 1 else "") for pt, n in hand.items()
    )


def _last_move_text(board: Board, move: Move) -> str:
    """The footer move in KI2 form when *move* is the board's last move, else rebuilt from the
    position after it (destination, piece before the move, 成/打)."""
    if board.ply and board.peek() == move:
        before = board.copy()
        before.pop()
        return make_ki2_move(before, move)
    mark = "△" if board.turn == 0 else "▲"
    piece = type_of(board.piece_codes[move.to_square])
    if move.drop is not None:
        return f"{mark}{japanese_square(move.to_square)}{KIF_PIECE_NAMES[move.drop]}打"
    kind = unpromote(piece) if move.promotion else PieceType(piece) if piece else None
    name = KIF_PIECE_NAMES[kind] if kind else ""
    return f"{mark}{japanese_square(move.to_square)}{name}{'成' if move.promotion else ''}"


def make_bod(
    board: Board,
    *,
    last_move: Move | None = None,
    move_number: int | None = None,
    names: tuple[str, str] = ("先手", "後手"),
) -> str:
    """The BOD diagram of *board* (lines ending in ``\\n``).

    :param last_move: the move that led here, written in the ``手数＝`` footer.
    :param move_number: the 手数 of that footer: how many moves were played to reach the
        position (default with *last_move*: ``board.move_number - 1``).
    :param names: the side labels, ``("先手", "後手")`` or ``("下手", "上手")`` for handicap games.
    """
    black, white = (one_line(name).strip() for name in names)  # a name is part of a line
    lines = [f"{white}の持駒：{_hand_text(board.hand(1))}", _FILES_LINE, _FRAME]
    for r in range(9):
        cells = []
        for code in board.piece_codes[r * 9:r * 9 + 9]:
            if not code:
                cells.append(" ・")
            else:
                cells.append(("v" if is_gote(code) else " ") + BOD_PIECE_NAMES[PieceType(type_of(code))])
        lines.append("|" + "".join(cells) + "|" + KANJI_DIGITS[r])
    lines += [_FRAME, f"{black}の持駒：{_hand_text(board.hand(0))}"]
    if last_move is not None or move_number is not None:
        number = move_number if move_number is not None else board.move_number - 1
        footer = f"手数＝{number}"
        if last_move is not None:
            footer += f"  {_last_move_text(board, last_move)}"
        lines.append(footer + "  まで")
    if board.turn == 1:
        lines.append(f"{white}番")
    elif black != "先手":
        lines.append(f"{black}番")
    return "\n".join(lines) + "\n"


# -- reading ------------------------------------------------------------------------------------


def _error(message: str, lineno: int, line: str) -> KifuParseError:
    return KifuParseError(f"invalid bod: line {lineno}: {message}: {excerpt(line)}", lineno, line)


def _parse_hand(content: str, lineno: int, line: str) -> dict[int, int] | None:
    """Counts per piece type, or None for 残りの駒全部 (all remaining pieces)."""
    text = content.strip(_SPACES)
    if text in ("", "なし", "無し"):
        return {}
    if text.startswith(_REMAINING):
        return None
    hand: dict[int, int] = {}
    i = 0
    while i < len(text):
        if text[i] in _HAND_SEPARATORS:
            i += 1
            continue
        alias = next((a for a in _HAND_ALIASES if text.startswith(a, i)), None)
        if alias is None:
            raise _error(f"expected a piece in hand at {excerpt(text[i:])}", lineno, line)
        i += len(alias)
        start = i
        while i < len(text) and text[i] in _NUMBER_CHARS:
            i += 1
        try:
            count = parse_kanji_number(text[start:i]) if i > start else 1
        except ValueError:
            raise _error(f"bad count {excerpt(text[start:i])}", lineno, line) from None
        pt = int(PIECE_ALIASES[alias])
        hand[pt] = hand.get(pt, 0) + count
    return hand


def _parse_row(text: str, lineno: int, line: str) -> list[int]:
    """The 9 piece codes of a board row ``| ・v飛 ・ ... |二``."""
    bar = "|｜"
    start = next((i for i, c in enumerate(text) if c in bar), -1)
    end = max(text.rfind("|"), text.rfind("｜"))
    inner = text[start + 1:end] if end > start else text[start + 1:]
    cells: list[int] = []
    i = 0
    while i < len(inner):
        c = inner[i]
        if c in "vV^":
            piece = inner[i + 1:i + 2]
            if piece not in _CELL_PIECES:
                raise _error(f"expected a piece after 'v', got {excerpt(piece)}", lineno, line)
            cells.append(code_of(_CELL_PIECES[piece], WHITE))
            i += 2
        elif c in _SPACES:
            i += 1
        elif c in _EMPTY_CELLS:
            cells.append(0)
            i += 1
        elif c in _CELL_PIECES:
            cells.append(int(_CELL_PIECES[c]))
            i += 1
        else:
            raise _error(f"unexpected {excerpt(c)} in a board row", lineno, line)
    if len(cells) != 9:
        raise _error(f"a board row needs 9 squares, found {len(cells)}", lineno, line)
    return cells


def parse_bod(text_or_lines: str | Iterable[str], *, lenient: bool = True, first_lineno: int = 1) -> Board:
    """Read a BOD diagram (or the start of a KIF/KI2 file holding one) into a :class:`Board`.

    The move number of the board is the ``手数＝`` value plus one.

    :param lenient: accept positions the rules call impossible (two pawns on a file in a
        puzzle, too many pieces ...); with ``lenient=False`` they raise :class:`KifuParseError`.
    :param first_lineno: line number of the first line, for error messages.
    :raises KifuParseError: with ``lineno`` and ``line`` if the diagram cannot be read.
    """
    from shogiban.board import Board

    lines = text_or_lines.splitlines() if isinstance(text_or_lines, str) else list(text_or_lines)
    squares: list[int] = []
    hands: list[dict[int, int] | None] = [{}, {}]
    remaining: int | None = None
    turn: int | None = None
    footer_turn: int | None = None
    played = 0
    board_lineno = first_lineno
    last = (first_lineno, "")
    for index, raw in enumerate(lines):
        line = raw.rstrip("\r\n")
        lineno = first_lineno + index
        stripped = line.strip(_SPACES)
        if not stripped or stripped[0] in "#*&":
            continue
        if _STOP_RE.match(line):
            break
        last = (lineno, line)
        if stripped[0] in "|｜":
            if len(squares) >= 81:
                raise _error("more than 9 board rows", lineno, line)
            if not squares:
                board_lineno = lineno
            squares.extend(_parse_row(stripped, lineno, line))
            continue
        hand_match = _HAND_RE.match(line)
        if hand_match:
            color = 0 if hand_match.group(1) in _BLACK_LABELS else 1
            hand = _parse_hand(hand_match.group(2), lineno, line)
            if hand is None:
                remaining = color
            hands[color] = hand
            continue
        turn_match = _TURN_RE.match(line)
        if turn_match:
            turn = 0 if turn_match.group(1) in _BLACK_LABELS else 1
            continue
        number_match = _MOVE_NUMBER_RE.match(line)
        if number_match:
            played = int(number_match.group(1))
            rest = number_match.group(2)
            if any(c in rest for c in SENTE_MARKS):
                footer_turn = 1
            elif any(c in rest for c in GOTE_MARKS):
                footer_turn = 0
            continue
        # Anything else (header lines, the file-number line, the frame) is not part of the position.
    if not squares:
        raise _error("no board diagram (rows starting with '|')", last[0], last[1])
    if len(squares) != 81:
        raise _error(f"the board has {len(squares) // 9} rows, expected 9", last[0], last[1])
    hand_lists = [[0] * 8, [0] * 8]
    for color in (0, 1):
        for pt, n in (hands[color] or {}).items():
            hand_lists[color][pt] = n
    if remaining is not None:
        _give_remaining(squares, hand_lists, remaining, board_lineno, lines[board_lineno - first_lineno])
    side = turn if turn is not None else footer_turn if footer_turn is not None else 0
    sfen = make_sfen(squares, side, hand_lists, played + 1)
    try:
        return Board(sfen, lenient=lenient)
    except InvalidSfenError as error:
        raise _error(str(error), board_lineno, lines[board_lineno - first_lineno]) from None


def _give_remaining(squares: list[int], hands: list[list[int]], color: int, lineno: int, line: str) -> None:
    """Give *color* every piece that is neither on the board nor in the other hand."""
    for pt in HAND_TYPES:
        used = sum(1 for code in squares if code and unpromote(type_of(code)) == pt) + hands[color ^ 1][pt]
        left = PIECE_COUNTS[pt] - used
        if left < 0:
            name = KIF_PIECE_NAMES[pt]
            raise _error(f"more than {PIECE_COUNTS[pt]} {name} outside the remaining pieces", lineno, line)
        hands[color][pt] = left
