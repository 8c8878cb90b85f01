"""The board as text for terminals, with kanji pieces (or letters in English).

>>> from shogiban import Board
>>> board = Board()
>>> board.push_usi("7g7f")
Move.from_usi('7g7f')
>>> print(text_board(board, last_move=board.peek()))
後手の持駒：なし
   ９  ８  ７  ６  ５  ４  ３  ２  １
+------------------------------------+
| v香 v桂 v銀 v金 v玉 v金 v銀 v桂 v香|一
|  ・ v飛  ・  ・  ・  ・  ・ v角  ・|二
| v歩 v歩 v歩 v歩 v歩 v歩 v歩 v歩 v歩|三
|  ・  ・  ・  ・  ・  ・  ・  ・  ・|四
|  ・  ・  ・  ・  ・  ・  ・  ・  ・|五
|  ・  ・* 歩  ・  ・  ・  ・  ・  ・|六
|  歩  歩  ・  歩  歩  歩  歩  歩  歩|七
|  ・  角  ・  ・  ・  ・  ・  飛  ・|八
|  香  桂  銀  金  玉  金  銀  桂  香|九
+------------------------------------+
先手の持駒：なし
最終手：▲７六歩
手番：後手

Each square takes four terminal columns: a last-move marker (``*``), the owner (`` `` for sente,
``v`` for gote) and a double-width kanji (``・`` when empty).  In English the pieces are western
letters (``+P``, `` K``) and the coordinates ``9..1`` and ``a..i``.  The piece-name tables come from
:mod:`shogiban.notation.names` (``PIECE_NAMES``, ``LONG_PIECE_NAMES``), which the terminal and web
user interfaces share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shogiban.move import Move
from shogiban.notation.names import (
    FILE_LABELS,
    LONG_PIECE_NAMES,
    PIECE_NAMES,
    RANK_LABELS,
    SIDE_NAMES,
    WESTERN_PIECE_LETTERS,
    Language,
    check_language,
    kanji_number,
)
from shogiban.pieces import PieceType, is_gote, type_of

if TYPE_CHECKING:
    from shogiban.board import Board

__all__ = ["LONG_PIECE_NAMES", "PIECE_NAMES", "last_move_text", "text_board"]

#: Words of the text board per language: hand, none, last move, side to move, check.
WORDS: Final[dict[Language, dict[str, str]]] = {
    "ja": {"hand": "の持駒：", "none": "なし", "last": "最終手：", "turn": "手番：", "check": "王手"},
    "zh-hant": {"hand": "的持駒：", "none": "無", "last": "最後一手：", "turn": "輪到：", "check": "王手"},
    "zh-hans": {"hand": "的持驹：", "none": "无", "last": "最后一手：", "turn": "轮到：", "check": "王手"},
    "en": {"hand": " in hand: ", "none": "none", "last": "Last move: ", "turn": "To move: ", "check": "Check"},
}


def _cell(code: int, language: Language) -> str:
    """Owner sign and a two-column piece glyph (``'v歩'``, ``' +P'``)."""
    if not code:
        return " ・" if language != "en" else "  ."
    sign = "v" if is_gote(code) else " "
    pt = PieceType(type_of(code))
    if language == "en":
        return sign + f"{WESTERN_PIECE_LETTERS[pt]:>2}"
    return sign + PIECE_NAMES[language][pt]


def _hand(board: Board, color: int, language: Language) -> str:
    hand = board.hand(color)
    if not hand:
        return WORDS[language]["none"]
    if language == "en":
        return " ".join(WESTERN_PIECE_LETTERS[pt] + (str(n) if n > 1 else "") for pt, n in hand.items())
    return "\u3000".join(PIECE_NAMES[language][pt] + (kanji_number(n) if n > 1 else "") for pt, n in hand.items())


def last_move_text(board: Board, move: Move, *, language: str = "ja") -> str:
    """The move that led to *board*: KI2 (``▲７六歩``) or, in English, Hosking notation.

    When *move* is the board's last pushed move it is written from the position before it;
    otherwise it is rebuilt from the position after it.
    """
    lang = check_language(language)
    on_stack = board.ply > 0 and board.peek() == move
    if lang == "en":
        if on_stack:
            from shogiban.notation.western import make_western

            before = board.copy()
            before.pop()
            return make_western(before, move)
        return move.usi()
    from shogiban.notation.bod import _last_move_text

    return _last_move_text(board, move)


def text_board(
    board: Board, *, language: str = "ja", last_move: Move | None = None, flipped: bool = False
) -> str:
    """The board with both hands, coordinates, the last move and the side to move, as text.

    :param language: ``"ja"``, ``"zh-hant"``, ``"zh-hans"`` or ``"en"``.
    :param last_move: marked with ``*`` on its destination and written below the board.
    :param flipped: gote's side at the bottom.
    :raises ValueError: for an unknown language.
    """
    lang = check_language(language)
    words = WORDS[lang]
    sides = SIDE_NAMES[lang]
    files = list(range(9, 0, -1))
    ranks = list(range(1, 10))
    if flipped:
        files.reverse()
        ranks.reverse()
    top, bottom = (0, 1) if flipped else (1, 0)
    lines = [f"{sides[top]}{words['hand']}{_hand(board, top, lang)}"]
    pad = "   " if lang == "en" else "  "  # full-width digits take two columns
    lines.append(" " + "".join(pad + FILE_LABELS[lang][f - 1] for f in files))
    frame = "+" + "-" * 36 + "+"
    lines.append(frame)
    marked = last_move.to_square if last_move is not None else -1
    for rank in ranks:
        cells = []
        for file in files:
            sq = (rank - 1) * 9 + 9 - file
            cells.append(("*" if sq == marked else " ") + _cell(board.piece_codes[sq], lang))
        lines.append("|" + "".join(cells) + "|" + RANK_LABELS[lang][rank - 1])
    lines.append(frame)
    lines.append(f"{sides[bottom]}{words['hand']}{_hand(board, bottom, lang)}")
    if last_move is not None:
        lines.append(words["last"] + last_move_text(board, last_move, language=lang))
    turn = words["turn"] + sides[board.turn]
    if board.is_check():
        turn += ("  " if lang != "en" else ", ") + words["check"]
    lines.append(turn)
    return "\n".join(lines)
