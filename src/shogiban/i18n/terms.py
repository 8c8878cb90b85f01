"""Shogi words in a language, from the catalogue: squares, files, pieces, sides.

These turn the plain values a refusal or an outcome carries (``"5e"``, ``7``, ``"pawn"``,
``Color.BLACK``) into what a reader of the language expects (``５五``, ``７筋``, ``歩兵``,
``先手``).  The web's JavaScript does the same from the same catalogue keys.

>>> square_label("7f", "ja"), file_label(7, "ja"), file_label(7, "zh-hant"), file_label(7, "en")
('７六', '７筋', '第7筋', 'file 7')
>>> piece_name("+R", "zh-hans"), piece_name("silver", "zh-hans"), side_name("b", "ja", handicap=True)
('龙王', '银将', '下手')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from shogiban.i18n.catalogue import template, translate
from shogiban.i18n.languages import Language
from shogiban.pieces import ENGLISH_NAMES, Color, PieceType
from shogiban.squares import SQUARE_NAMES, Square, parse_square, square_file, square_rank

#: Parameter names whose value is a square (``"5e"`` or a square index).
SQUARE_PARAMS: Final = frozenset({"square", "from_square", "to_square"})

_SFEN_LETTERS: Final = {"P": 1, "L": 2, "N": 3, "S": 4, "B": 5, "R": 6, "G": 7, "K": 8}


def square_label(square: Square | str, language: Language | str) -> str:
    """*square* as the language writes it: ``7f`` in English, ``７六`` in Japanese and Chinese.

    :raises ValueError: if *square* is not a square.
    """
    index = parse_square(square) if isinstance(square, str) else square
    if not 0 <= index < len(SQUARE_NAMES):
        raise ValueError(f"invalid square: {square!r}")
    files, ranks = template("format.files", language), template("format.ranks", language)
    return files[square_file(index) - 1] + ranks[square_rank(index) - 1]


def file_label(file: int | str, language: Language | str) -> str:
    """File *file* (1..9) in words: ``file 7``, ``７筋``, ``第7筋``.

    :raises ValueError: if *file* is not 1..9.
    """
    number = int(file)
    if not 1 <= number <= 9:
        raise ValueError(f"invalid file: {file!r}")
    return translate("format.file", language, file=template("format.file_digits", language)[number - 1])


def piece_type_of(value: object) -> PieceType:
    """The piece type *value* names: a :class:`PieceType` (or its number), its name (``prom_rook``),
    an SFEN symbol (``+R``, ``p``) or an English name (``dragon``).

    :raises ValueError: if *value* names no piece type.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return PieceType(value)
    if isinstance(value, str):
        text = value.strip()
        if text.upper() in PieceType.__members__:
            return PieceType[text.upper()]
        if text.lower() in ENGLISH_NAMES[1:]:
            return PieceType(ENGLISH_NAMES.index(text.lower()))
        promoted, letter = text.startswith("+"), text.lstrip("+").upper()
        if letter in _SFEN_LETTERS and len(text) == 1 + promoted and not (promoted and letter in "GK"):
            return PieceType(_SFEN_LETTERS[letter] + (8 if promoted else 0))
    raise ValueError(f"not a piece: {str(value)[:20]!r}")


def piece_name(piece: object, language: Language | str) -> str:
    """The full name of a piece type in *language* (``pawn``, ``歩兵``, ``龍王`` ...); *piece* is
    anything :func:`piece_type_of` reads."""
    return translate(f"piece.{piece_type_of(piece).name.lower()}", language)


def side_name(color: object, language: Language | str, *, handicap: bool = False) -> str:
    """Sente/gote (先手/後手), or shitate/uwate (下手/上手) in a handicap game; *color* is a
    :class:`Color`, 0/1, ``"b"``/``"w"``, ``"black"``/``"white"`` or ``"sente"``/``"gote"``.

    :raises ValueError: if *color* names no side.
    """
    black = _is_black(color)
    if handicap:
        return translate("side.shitate" if black else "side.uwate", language)
    return translate("side.sente" if black else "side.gote", language)


def _is_black(color: object) -> bool:
    if isinstance(color, int) and not isinstance(color, bool) and color in (0, 1):
        return Color(color) == Color.BLACK
    if isinstance(color, str) and color.lower() in ("b", "black", "sente", "w", "white", "gote"):
        return color.lower() in ("b", "black", "sente")
    raise ValueError(f"not a side: {str(color)[:20]!r}")


def localize(params: Mapping[str, object], language: Language | str) -> dict[str, object]:
    """*params* with the values of known names put into words: squares (``square``,
    ``from_square``, ``to_square``), ``file``, ``piece`` and ``side``.  Other values, and values
    that do not read as what their name says, are kept as they are."""
    words: dict[str, object] = {}
    for name, value in params.items():
        try:
            if name in SQUARE_PARAMS and isinstance(value, (int, str)):
                words[name] = square_label(value, language)
            elif name == "file" and isinstance(value, (int, str)):
                words[name] = file_label(value, language)
            elif name == "piece":
                words[name] = piece_name(value, language)
            elif name == "side":
                words[name] = side_name(value, language)
            else:
                words[name] = value
        except ValueError:
            words[name] = value
    return words
