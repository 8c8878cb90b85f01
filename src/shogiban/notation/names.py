"""Piece names, digits and side names in Japanese, Chinese and English.

These tables are shared by the move notations, BOD diagrams, the text board, the SVG board and
the user interfaces.  Every table is keyed by :class:`~shogiban.pieces.PieceType`.

>>> PIECE_NAMES["ja"][PieceType.PROM_ROOK], PIECE_NAMES["zh-hans"][PieceType.PROM_ROOK]
('龍', '龙')
>>> PIECE_ALIASES["成銀"] == PIECE_ALIASES["全"] == PieceType.PROM_SILVER
True
>>> kanji_number(18)
'十八'
"""

from __future__ import annotations

from typing import Final, Literal

from shogiban.notation.excerpt import excerpt
from shogiban.pieces import PieceType

Language = Literal["ja", "zh-hant", "zh-hans", "en"]
#: The languages the boards and UIs know.
LANGUAGES: Final[tuple[Language, ...]] = ("ja", "zh-hant", "zh-hans", "en")

P = PieceType

#: Kanji numerals 一..九 (index 0 is rank/number 1).
KANJI_DIGITS: Final = "一二三四五六七八九"
#: Full-width digits １..９ (index 0 is file 1).
FULLWIDTH_DIGITS: Final = "１２３４５６７８９"
#: Digit characters users write, mapped to their value: ASCII, full-width and kanji.
DIGIT_VALUES: Final[dict[str, int]] = {
    **{str(i + 1): i + 1 for i in range(9)},
    **{c: i + 1 for i, c in enumerate(FULLWIDTH_DIGITS)},
    **{c: i + 1 for i, c in enumerate(KANJI_DIGITS)},
}

#: KIF and KI2 move text: the moving piece as written (promoted minor pieces take two kanji).
KIF_PIECE_NAMES: Final[dict[PieceType, str]] = {
    P.PAWN: "歩", P.LANCE: "香", P.KNIGHT: "桂", P.SILVER: "銀", P.GOLD: "金", P.BISHOP: "角",
    P.ROOK: "飛", P.KING: "玉", P.PROM_PAWN: "と", P.PROM_LANCE: "成香", P.PROM_KNIGHT: "成桂",
    P.PROM_SILVER: "成銀", P.PROM_BISHOP: "馬", P.PROM_ROOK: "龍",
}

#: One kanji per piece, as in BOD diagrams (``杏 圭 全`` for the promoted minor pieces).
BOD_PIECE_NAMES: Final[dict[PieceType, str]] = {
    **KIF_PIECE_NAMES, P.PROM_LANCE: "杏", P.PROM_KNIGHT: "圭", P.PROM_SILVER: "全",
}

#: Formal Japanese names (歩兵, 香車, ..., 竜王).
FULL_PIECE_NAMES: Final[dict[PieceType, str]] = {
    P.PAWN: "歩兵", P.LANCE: "香車", P.KNIGHT: "桂馬", P.SILVER: "銀将", P.GOLD: "金将", P.BISHOP: "角行",
    P.ROOK: "飛車", P.KING: "玉将", P.PROM_PAWN: "と金", P.PROM_LANCE: "成香", P.PROM_KNIGHT: "成桂",
    P.PROM_SILVER: "成銀", P.PROM_BISHOP: "竜馬", P.PROM_ROOK: "竜王",
}

#: Every spelling of a piece users and programs write (Japanese short and formal names, old and
#: new character forms, printing abbreviations, Chinese forms) -> piece type.
PIECE_ALIASES: Final[dict[str, PieceType]] = {
    # Unpromoted pieces.
    "歩": P.PAWN, "步": P.PAWN, "歩兵": P.PAWN, "步兵": P.PAWN,
    "香": P.LANCE, "香車": P.LANCE, "香车": P.LANCE,
    "桂": P.KNIGHT, "桂馬": P.KNIGHT, "桂马": P.KNIGHT,
    "銀": P.SILVER, "银": P.SILVER, "銀将": P.SILVER, "銀將": P.SILVER, "银将": P.SILVER,
    "金": P.GOLD, "金将": P.GOLD, "金將": P.GOLD,
    "角": P.BISHOP, "角行": P.BISHOP,
    "飛": P.ROOK, "飞": P.ROOK, "飛車": P.ROOK, "飞车": P.ROOK,
    "玉": P.KING, "王": P.KING, "玉将": P.KING, "王将": P.KING, "玉將": P.KING, "王將": P.KING,
    # Promoted pieces.
    "と": P.PROM_PAWN, "と金": P.PROM_PAWN, "成歩": P.PROM_PAWN, "成步": P.PROM_PAWN,
    "成香": P.PROM_LANCE, "杏": P.PROM_LANCE,
    "成桂": P.PROM_KNIGHT, "圭": P.PROM_KNIGHT, "今": P.PROM_KNIGHT,
    "成銀": P.PROM_SILVER, "成银": P.PROM_SILVER, "全": P.PROM_SILVER,
    "馬": P.PROM_BISHOP, "马": P.PROM_BISHOP, "竜馬": P.PROM_BISHOP, "龍馬": P.PROM_BISHOP, "龙马": P.PROM_BISHOP,
    "竜": P.PROM_ROOK, "龍": P.PROM_ROOK, "龙": P.PROM_ROOK, "竜王": P.PROM_ROOK, "龍王": P.PROM_ROOK,
    "龙王": P.PROM_ROOK,
}
#: Longest alias first, so that ``成銀`` is read before ``成`` could be taken for a suffix.
ALIASES_BY_LENGTH: Final[tuple[str, ...]] = tuple(sorted(PIECE_ALIASES, key=len, reverse=True))

#: One-character piece names per language (terminal and SVG boards).
PIECE_NAMES: Final[dict[Language, dict[PieceType, str]]] = {
    "ja": dict(BOD_PIECE_NAMES),
    "zh-hant": {**BOD_PIECE_NAMES, P.PAWN: "步"},
    "zh-hans": {
        **BOD_PIECE_NAMES, P.PAWN: "步", P.SILVER: "银", P.ROOK: "飞", P.PROM_BISHOP: "马", P.PROM_ROOK: "龙",
    },
    # English boards keep the kanji pieces (as players' sets do) with western coordinates.
    "en": dict(BOD_PIECE_NAMES),
}

#: Formal piece names per language; English gives the usual English names.
LONG_PIECE_NAMES: Final[dict[Language, dict[PieceType, str]]] = {
    "ja": dict(FULL_PIECE_NAMES),
    "zh-hant": {
        P.PAWN: "步兵", P.LANCE: "香車", P.KNIGHT: "桂馬", P.SILVER: "銀將", P.GOLD: "金將", P.BISHOP: "角行",
        P.ROOK: "飛車", P.KING: "玉將", P.PROM_PAWN: "と金", P.PROM_LANCE: "成香", P.PROM_KNIGHT: "成桂",
        P.PROM_SILVER: "成銀", P.PROM_BISHOP: "龍馬", P.PROM_ROOK: "龍王",
    },
    "zh-hans": {
        P.PAWN: "步兵", P.LANCE: "香车", P.KNIGHT: "桂马", P.SILVER: "银将", P.GOLD: "金将", P.BISHOP: "角行",
        P.ROOK: "飞车", P.KING: "玉将", P.PROM_PAWN: "と金", P.PROM_LANCE: "成香", P.PROM_KNIGHT: "成桂",
        P.PROM_SILVER: "成银", P.PROM_BISHOP: "龙马", P.PROM_ROOK: "龙王",
    },
    "en": {
        P.PAWN: "pawn", P.LANCE: "lance", P.KNIGHT: "knight", P.SILVER: "silver", P.GOLD: "gold",
        P.BISHOP: "bishop", P.ROOK: "rook", P.KING: "king", P.PROM_PAWN: "tokin", P.PROM_LANCE: "promoted lance",
        P.PROM_KNIGHT: "promoted knight", P.PROM_SILVER: "promoted silver", P.PROM_BISHOP: "horse",
        P.PROM_ROOK: "dragon",
    },
}

#: Western piece letters (Hodges/Hosking): ``P``, ``+P``, ...
WESTERN_PIECE_LETTERS: Final[dict[PieceType, str]] = {
    P.PAWN: "P", P.LANCE: "L", P.KNIGHT: "N", P.SILVER: "S", P.GOLD: "G", P.BISHOP: "B", P.ROOK: "R",
    P.KING: "K", P.PROM_PAWN: "+P", P.PROM_LANCE: "+L", P.PROM_KNIGHT: "+N", P.PROM_SILVER: "+S",
    P.PROM_BISHOP: "+B", P.PROM_ROOK: "+R",
}

#: Side names per language: (sente, gote).
SIDE_NAMES: Final[dict[Language, tuple[str, str]]] = {
    "ja": ("先手", "後手"),
    "zh-hant": ("先手", "後手"),
    "zh-hans": ("先手", "后手"),
    "en": ("Sente", "Gote"),
}

#: "Pieces in hand" per language.
HAND_LABELS: Final[dict[Language, str]] = {"ja": "持駒", "zh-hant": "持駒", "zh-hans": "持驹", "en": "hand"}

#: File labels 1..9 (index 0 is file 1) and rank labels (index 0 is rank 1 = a) per language.
FILE_LABELS: Final[dict[Language, str]] = {
    "ja": FULLWIDTH_DIGITS, "zh-hant": FULLWIDTH_DIGITS, "zh-hans": FULLWIDTH_DIGITS, "en": "123456789",
}
RANK_LABELS: Final[dict[Language, str]] = {
    "ja": KANJI_DIGITS, "zh-hant": KANJI_DIGITS, "zh-hans": KANJI_DIGITS, "en": "abcdefghi",
}

#: Marks before a move: sente (black) first.
SENTE_MARKS: Final = "▲☗"
GOTE_MARKS: Final = "△☖▽"


def check_language(language: str) -> Language:
    """Return *language* if it is known.

    :raises ValueError: for an unknown language.
    """
    if language not in LANGUAGES:
        raise ValueError(f"unknown language: {language!r} (expected one of {', '.join(LANGUAGES)})")
    return language


def kanji_number(n: int) -> str:
    """Kanji numeral for 1..99 as used in hands: ``二``, ``十``, ``十八``."""
    if not 1 <= n <= 99:
        raise ValueError(f"invalid count: {n!r} (expected 1..99)")
    tens, ones = divmod(n, 10)
    text = "" if tens == 0 else ("十" if tens == 1 else KANJI_DIGITS[tens - 1] + "十")
    return text + (KANJI_DIGITS[ones - 1] if ones else "")


def parse_kanji_number(text: str) -> int:
    """Value of a kanji numeral (``十八``), or of ASCII or full-width digits (``18``, ``１８``).

    :raises ValueError: if *text* is not a number from 1 to 99.
    """
    if text and len(text) <= 2 and all(c in DIGIT_VALUES and c not in KANJI_DIGITS for c in text):
        return int("".join(str(DIGIT_VALUES[c]) for c in text))
    value = 0
    if text.count("十") > 1 or not text or any(c not in KANJI_DIGITS and c != "十" for c in text):
        raise ValueError(f"invalid kanji number: {excerpt(text)}")
    if "十" in text:
        tens, _, ones = text.partition("十")
        value = (DIGIT_VALUES[tens] if tens else 1) * 10
        if len(tens) > 1 or len(ones) > 1:
            raise ValueError(f"invalid kanji number: {excerpt(text)}")
        value += DIGIT_VALUES[ones] if ones else 0
    elif len(text) == 1:
        value = DIGIT_VALUES[text]
    else:
        raise ValueError(f"invalid kanji number: {excerpt(text)}")
    return value
