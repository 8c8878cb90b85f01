"""The board as an SVG picture: kanji pieces on pentagons, both hands, coordinates, the last
move, a check marker, arrows and highlighted squares.

>>> from shogiban import Board
>>> svg = board_svg(Board(), arrows=[(56, 47)])
>>> svg.startswith("<svg") and svg.endswith("</svg>")
True

``Board._repr_svg_`` calls :func:`board_svg`, so boards show as pictures in Jupyter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final
from xml.sax.saxutils import escape

from shogiban.move import Move
from shogiban.notation.names import FILE_LABELS, PIECE_NAMES, RANK_LABELS, SIDE_NAMES, Language, check_language
from shogiban.pieces import PieceType, is_gote, type_of
from shogiban.squares import Square

if TYPE_CHECKING:
    from shogiban.board import Board

__all__ = ["Arrow", "board_svg"]

#: An arrow: (from, to) or (from, to, colour); *from* may be None to point at a square from
#: nowhere (a drop), drawn as a ring.
Arrow = tuple[Square | None, Square] | tuple[Square | None, Square, str]

CELL: Final = 40  # width and height of a square in SVG units
STAND: Final = 52  # width of a piece stand
GAP: Final = 12
LABEL: Final = 22  # room for the coordinates
BOARD: Final = 9 * CELL
COLORS: Final[dict[str, str]] = {
    "board": "#f2c77a", "line": "#3d2b16", "piece": "#fbe7b5", "piece_edge": "#5a4020", "text": "#1a1a1a",
    "promoted": "#c0141c", "last_move": "#9acd32", "highlight": "#4aa3df", "check": "#e0201b",
    "arrow": "#1f7a1f", "stand": "#e3b568", "coordinate": "#3d2b16",
}
_FONT = "'Noto Serif CJK JP','Noto Serif JP','Yu Mincho','Hiragino Mincho ProN','MS Mincho',serif"


def _pentagon(cx: float, cy: float, scale: float) -> str:
    """Points of a shogi piece shape around (cx, cy), pointing up."""
    w, h = 0.78 * CELL * scale, 0.9 * CELL * scale
    top, shoulder, bottom = cy - h / 2, cy - h / 2 + 0.26 * h, cy + h / 2
    points = [
        (cx, top), (cx + 0.4 * w, shoulder), (cx + 0.5 * w, bottom),
        (cx - 0.5 * w, bottom), (cx - 0.4 * w, shoulder),
    ]
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _piece(cx: float, cy: float, pt: PieceType, gote: bool, language: Language, scale: float = 1.0) -> str:
    """A piece centred on (cx, cy); gote's pieces are turned round."""
    name = PIECE_NAMES[language][pt]
    color = COLORS["promoted"] if pt > 8 else COLORS["text"]
    size = 0.56 * CELL * scale
    rotate = f' transform="rotate(180 {cx:.1f} {cy:.1f})"' if gote else ""
    return (
        f'<g class="piece"{rotate}>'
        f'<polygon points="{_pentagon(cx, cy, scale)}" fill="{COLORS["piece"]}" stroke="{COLORS["piece_edge"]}" '
        f'stroke-width="1"/>'
        f'<text x="{cx:.1f}" y="{cy + 0.06 * CELL * scale:.1f}" font-size="{size:.1f}" fill="{color}" '
        f'text-anchor="middle" dominant-baseline="middle">{escape(name)}</text></g>'
    )


class _Layout:
    """Where things go: the board, its coordinates and the two stands."""

    def __init__(self, flipped: bool, coordinates: bool) -> None:
        self.flipped = flipped
        self.left = STAND + GAP
        self.top = LABEL if coordinates else GAP
        self.width = self.left + BOARD + (LABEL if coordinates else GAP) + GAP + STAND
        self.height = self.top + BOARD + GAP

    def cell(self, sq: int) -> tuple[float, float]:
        """Top-left corner of square *sq*."""
        col, row = sq % 9, sq // 9
        if self.flipped:
            col, row = 8 - col, 8 - row
        return self.left + col * CELL, self.top + row * CELL

    def center(self, sq: int) -> tuple[float, float]:
        x, y = self.cell(sq)
        return x + CELL / 2, y + CELL / 2


def _stand(board: Board, color: int, layout: _Layout, language: Language) -> list[str]:
    """A piece stand: gote's (or the upper player's) on the left, top-aligned; the other on the
    right, bottom-aligned.  Counts above one are written beside the piece, up to two digits."""
    upper = 0 if layout.flipped else 1
    x = GAP / 2 if color == upper else layout.width - STAND - GAP / 2
    parts = [
        f'<rect class="stand" x="{x:.1f}" y="{layout.top:.1f}" width="{STAND - GAP / 2:.1f}" height="{BOARD}" '
        f'fill="{COLORS["stand"]}" rx="4"/>'
    ]
    mark = "☖" if color else "☗"
    side = SIDE_NAMES[language][color]
    items = list(board.hand(color).items())
    cx = x + (STAND - GAP / 2) / 2 - 6
    title_y = layout.top + 14 if color == upper else layout.top + BOARD - 8
    parts.append(
        f'<text class="side" x="{x + (STAND - GAP / 2) / 2:.1f}" y="{title_y:.1f}" font-size="11" '
        f'text-anchor="middle" fill="{COLORS["text"]}">{mark}{escape(side)}</text>'
    )
    for index, (pt, count) in enumerate(items):
        offset = 46 + index * CELL * 0.95
        cy = layout.top + offset if color == upper else layout.top + BOARD - offset
        parts.append(_piece(cx, cy, pt, color == upper, language, scale=0.8))
        if count > 1:
            parts.append(
                f'<text class="count" x="{cx + 0.42 * CELL:.1f}" y="{cy + 0.3 * CELL:.1f}" font-size="13" '
                f'font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="{COLORS["text"]}">'
                f"{count}</text>"
            )
    return parts


def _coordinates(layout: _Layout, language: Language) -> list[str]:
    parts = []
    for col in range(9):
        file = 9 - col if not layout.flipped else col + 1
        x = layout.left + col * CELL + CELL / 2
        parts.append(
            f'<text class="file" x="{x:.1f}" y="{layout.top - 6:.1f}" font-size="14" text-anchor="middle" '
            f'fill="{COLORS["coordinate"]}">{escape(FILE_LABELS[language][file - 1])}</text>'
        )
    for row in range(9):
        rank = row + 1 if not layout.flipped else 9 - row
        y = layout.top + row * CELL + CELL / 2
        parts.append(
            f'<text class="rank" x="{layout.left + BOARD + LABEL / 2:.1f}" y="{y + 5:.1f}" font-size="14" '
            f'text-anchor="middle" fill="{COLORS["coordinate"]}">{escape(RANK_LABELS[language][rank - 1])}</text>'
        )
    return parts


def _arrow(layout: _Layout, arrow: Arrow, index: int) -> list[str]:
    frm, to = arrow[0], arrow[1]
    color = arrow[2] if len(arrow) > 2 else COLORS["arrow"]
    tx, ty = layout.center(to)
    if frm is None or frm == to:
        return [f'<circle class="arrow" cx="{tx:.1f}" cy="{ty:.1f}" r="{CELL * 0.42:.1f}" fill="none" '
                f'stroke="{escape(color)}" stroke-width="4" opacity="0.8"/>']
    fx, fy = layout.center(frm)
    marker = f"arrowhead{index}"
    return [
        f'<marker id="{marker}" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" '
        f'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{escape(color)}"/></marker>',
        f'<line class="arrow" x1="{fx:.1f}" y1="{fy:.1f}" x2="{tx:.1f}" y2="{ty:.1f}" stroke="{escape(color)}" '
        f'stroke-width="6" stroke-linecap="round" opacity="0.8" marker-end="url(#{marker})"/>',
    ]


def board_svg(
    board: Board,
    *,
    last_move: Move | None = None,
    arrows: Iterable[Arrow] = (),
    squares: Iterable[Square] | Mapping[Square, str] = (),
    flipped: bool = False,
    coordinates: bool = True,
    language: str = "ja",
    size: int | None = None,
) -> str:
    """An SVG picture of *board*.

    :param last_move: its squares are shaded (default: the board's last move, if any).
    :param arrows: ``(from, to)`` or ``(from, to, colour)`` squares; ``from=None`` rings *to*.
    :param squares: squares to highlight, or a mapping square -> colour.
    :param flipped: gote's side at the bottom.
    :param coordinates: write the file and rank labels.
    :param language: ``"ja"``, ``"zh-hant"``, ``"zh-hans"`` or ``"en"`` (kanji pieces with the
        western coordinates 9..1 and a..i).
    :param size: width in pixels (the height follows); default: the natural size.
    :raises ValueError: for an unknown language.
    """
    lang = check_language(language)
    layout = _Layout(flipped, coordinates)
    if last_move is None and board.ply:
        last_move = board.peek()
    width = size if size is not None else layout.width
    height = round(width * layout.height / layout.width)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {layout.width} {layout.height}" '
        f'width="{width}" height="{height}" font-family="{_FONT}">',
        f'<rect class="board" x="{layout.left}" y="{layout.top}" width="{BOARD}" height="{BOARD}" '
        f'fill="{COLORS["board"]}"/>',
    ]
    if last_move is not None:
        for sq in (last_move.from_square, last_move.to_square):
            if sq is not None:
                x, y = layout.cell(sq)
                parts.append(f'<rect class="last-move" x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                             f'fill="{COLORS["last_move"]}" opacity="0.55"/>')
    fills = squares.items() if isinstance(squares, Mapping) else ((sq, COLORS["highlight"]) for sq in squares)
    for sq, color in fills:
        x, y = layout.cell(sq)
        parts.append(f'<rect class="highlight" x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                     f'fill="{escape(color)}" opacity="0.5"/>')
    if board.is_check():
        king = board.king_square(board.turn)
        if king is not None:
            cx, cy = layout.center(king)
            parts.append(f'<circle class="check" cx="{cx:.1f}" cy="{cy:.1f}" r="{CELL * 0.48:.1f}" '
                         f'fill="{COLORS["check"]}" opacity="0.6"/>')
    for i in range(10):
        x, y = layout.left + i * CELL, layout.top + i * CELL
        width_line = 2 if i in (0, 9) else 1
        parts.append(f'<line x1="{x}" y1="{layout.top}" x2="{x}" y2="{layout.top + BOARD}" '
                     f'stroke="{COLORS["line"]}" stroke-width="{width_line}"/>')
        parts.append(f'<line x1="{layout.left}" y1="{y}" x2="{layout.left + BOARD}" y2="{y}" '
                     f'stroke="{COLORS["line"]}" stroke-width="{width_line}"/>')
    parts.extend(  # the four star points
        f'<circle cx="{layout.left + i * CELL}" cy="{layout.top + j * CELL}" r="2.5" fill="{COLORS["line"]}"/>'
        for i in (3, 6) for j in (3, 6)
    )
    if coordinates:
        parts += _coordinates(layout, lang)
    for sq, code in enumerate(board.piece_codes):
        if code:
            cx, cy = layout.center(sq)
            gote = is_gote(code) != flipped
            parts.append(_piece(cx, cy, PieceType(type_of(code)), gote, lang))
    for color in (0, 1):
        parts += _stand(board, color, layout, lang)
    for index, arrow in enumerate(arrows):
        parts += _arrow(layout, arrow, index)
    parts.append("</svg>")
    return "".join(parts)
