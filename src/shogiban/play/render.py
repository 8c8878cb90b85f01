"""The terminal board: pieces, both hands, coordinates, the last move and check, with ``rich``.

Cells are four columns wide: a ``v`` before gote's pieces (as in KIF board diagrams, so the board
reads without colours), the piece, and a ``*`` after the last move's destination when colours are
off.  With colours, gote's pieces are red, the last move's squares are lit and a checked king is
marked.

>>> from shogiban import Board
>>> from rich.console import Console
>>> console = Console(width=60, no_color=True, highlight=False)
>>> with console.capture() as capture:
...     console.print(BoardView(Board(), "en").renderable())
>>> print(capture.get().splitlines()[3])
   |v香 v桂 v銀 v金 v玉 v金 v銀 v桂 v香 | a
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.text import Text

from shogiban.board import Board
from shogiban.i18n import Language, side_name, translate
from shogiban.move import Move
from shogiban.notation.names import (
    FILE_LABELS,
    HAND_LABELS,
    PIECE_NAMES,
    RANK_LABELS,
    WESTERN_PIECE_LETTERS,
    kanji_number,
)
from shogiban.pieces import Color, Piece, PieceType

#: Styles of the coloured board (rich style strings).
STYLES: dict[str, str] = {
    "board": "on #e9c98b",
    "frame": "#6b4a1b on #e9c98b",
    "black": "bold #101010",
    "white": "bold #b01010",
    "empty": "#a88a50",
    "last_to": "on #f4e46a",
    "last_from": "on #d8b76e",
    "check": "bold white on #c02020",
    "label": "bold",
    "mark_black": "bold",
    "mark_white": "bold #b01010",
}

BLACK_MARK = "☗"
WHITE_MARK = "☖"


@dataclass
class BoardView:
    """What to draw: a position and how.

    :param language: language of the labels (``en`` uses western coordinates ``7g``).
    :param letters: draw pieces as western letters (``P``, ``+R``; lowercase for gote) instead
        of kanji.
    :param colors: use colours (off: the ``v`` and ``*`` marks carry the information).
    """

    board: Board
    language: Language
    last_move: Move | None = None
    flipped: bool = False
    letters: bool = False
    colors: bool = True
    player_names: tuple[str, str] = ("", "")
    """Names shown after 先手/後手 (sente, gote)."""
    side_names: tuple[str, str] | None = None
    """Override of the side names (下手/上手 in handicap games)."""
    status: list[str] = field(default_factory=list)
    """Extra lines printed under the board (clocks, move number ...)."""

    def renderable(self) -> RenderableType:
        """The board as a rich renderable: gote's hand, the board, sente's hand and the status."""
        top, bottom = (Color.BLACK, Color.WHITE) if self.flipped else (Color.WHITE, Color.BLACK)
        parts: list[RenderableType] = [self._hand_line(top), self._files_line(), self._frame_line()]
        parts += [self._rank_line(row) for row in range(9)]
        parts += [self._frame_line(), self._hand_line(bottom)]
        parts += [Text(line) for line in self.status]
        return Group(*parts)

    # -- pieces -----------------------------------------------------------------------------------

    def piece_label(self, piece: Piece) -> str:
        """The two-column label of *piece* (a kanji, or a letter pair such as ``+P``/`` p``)."""
        if self.letters:
            letters = WESTERN_PIECE_LETTERS[piece.piece_type]
            letters = letters if piece.color == Color.BLACK else letters.lower()
            return letters.rjust(2)
        return PIECE_NAMES[self.language][piece.piece_type]

    def _style(self, name: str) -> str:
        return STYLES[name] if self.colors else ""

    # -- lines ------------------------------------------------------------------------------------

    def _columns(self) -> list[int]:
        """Board columns left to right: 0 is file 9 (sente's view)."""
        return list(range(8, -1, -1)) if self.flipped else list(range(9))

    def _files_line(self) -> Text:
        labels = FILE_LABELS[self.language]
        text = Text("    ")
        for col in self._columns():
            label = labels[8 - col]
            wide = ord(label) > 0xFF
            # Put the label over the piece: after the marker column, padded to the cell's 4 columns.
            cell = " " + label + " " if wide else ("  " + label + " " if self.letters else " " + label + "  ")
            text.append(cell, style=self._style("label"))
        text.rstrip()
        return text

    def _frame_line(self) -> Text:
        text = Text("   ")
        text.append("+" + "-" * 36 + "+", style=self._style("frame"))
        return text

    def _rank_line(self, row: int) -> Text:
        rank = 8 - row if self.flipped else row
        text = Text("   ")
        text.append("|", style=self._style("frame"))
        last_to = self.last_move.to_square if self.last_move is not None else None
        last_from = self.last_move.from_square if self.last_move is not None else None
        checked_king = None
        if self.board.is_check():
            checked_king = self.board.king_square(self.board.turn)
        for col in self._columns():
            square = rank * 9 + col
            text.append_text(self._cell(square, last_to, last_from, checked_king))
        text.append("|", style=self._style("frame"))
        text.append(" " + RANK_LABELS[self.language][rank], style=self._style("label"))
        return text

    def _cell(self, square: int, last_to: int | None, last_from: int | None, checked_king: int | None) -> Text:
        piece = self.board.piece_at(square)
        background = self._style("board")
        if square == last_to:
            background = self._style("last_to")
        elif square == last_from:
            background = self._style("last_from")
        marker_after = "*" if square == last_to and not self.colors else " "
        if piece is None:
            body = "  ." if self.letters else " ・"
            return Text(body + marker_after, style=f"{self._style('empty')} {background}".strip())
        gote = piece.color == Color.WHITE
        before = "v" if gote and not self.letters else " "
        style = self._style("white" if gote else "black")
        if square == checked_king:
            style = self._style("check")
            background = ""
        text = Text(before, style=f"{style} {background}".strip())
        text.append(self.piece_label(piece), style=f"{style} {background}".strip())
        text.append(marker_after, style=background)
        return text

    def _hand_line(self, color: Color) -> Text:
        mark = BLACK_MARK if color == Color.BLACK else WHITE_MARK
        side = self.side_names[color] if self.side_names else _side_name(color, self.language)
        name = self.player_names[color]
        text = Text(" ")
        text.append(f"{mark} {side}", style=self._style("mark_black" if color == Color.BLACK else "mark_white"))
        if name:
            text.append(f" ({name})")
        colon = ": " if self.language == "en" else "："
        text.append(f"  {HAND_LABELS[self.language]}{colon}")
        hand = self.board.hand(color)
        if not hand:
            text.append(translate("terminal.board.hand_none", self.language))
        else:
            items = []
            for piece_type, count in hand.items():
                label = self.piece_label(Piece(PieceType(piece_type), color)).strip()
                if count > 1:
                    label += f"×{count}" if self.language == "en" or self.letters else kanji_number(count)
                items.append(label)
            text.append(" ".join(items))
        return text


def _side_name(color: Color, language: Language) -> str:
    return side_name(color, language)

