"""SFEN: read leniently, write canonically.

>>> parse_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").turn
0
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from shogiban.errors import InvalidSfenError
from shogiban.position import SPEEDUPS
from shogiban.zobrist import MAX_HAND

STARTING_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

_LETTER_TYPE = {"P": 1, "L": 2, "N": 3, "S": 4, "B": 5, "R": 6, "G": 7, "K": 8}
_TYPE_LETTER = {v: k for k, v in _LETTER_TYPE.items()}
_HAND_ORDER = (6, 5, 7, 4, 3, 2, 1)  # R B G S N L P
# The compiled reader and writer take the common well-formed cases and return None for the rest.
_c_parse_sfen: Callable[[str], tuple[list[int], int, list[list[int]], int] | None] | None = (
    SPEEDUPS.parse_sfen if SPEEDUPS else None
)
_c_make_sfen: Callable[[list[int], int, list[list[int]], int | None], str | None] | None = (
    SPEEDUPS.make_sfen if SPEEDUPS else None
)


@dataclass
class SfenParts:
    """The fields of an SFEN: piece codes for squares 0..80, side, hands, move number."""

    board: list[int]
    turn: int
    hands: list[list[int]] = field(default_factory=lambda: [[0] * 8, [0] * 8])
    move_number: int = 1


def parse_sfen(sfen: str) -> SfenParts:
    """Parse *sfen*, accepting any hand order, multi-digit counts, repeated letters, runs of
    whitespace (or URL underscores), a leading ``sfen`` and a missing move number.

    :raises InvalidSfenError: saying what is wrong and where.
    """
    if _c_parse_sfen is not None:
        fields = _c_parse_sfen(sfen)
        if fields is not None:
            return SfenParts(*fields)
    return _py_parse_sfen(sfen)


def _py_parse_sfen(sfen: str) -> SfenParts:
    """The pure-Python reader: the reference, and the one that explains every error."""
    if not isinstance(sfen, str):
        raise InvalidSfenError(f"invalid sfen: {sfen!r} is not a string")
    text = sfen.strip()
    if " " not in text and "_" in text:
        text = text.replace("_", " ")
    fields = text.split()
    if fields and fields[0] == "sfen":
        fields = fields[1:]
    if fields == ["startpos"]:
        fields = STARTING_SFEN.split()
    if not 3 <= len(fields) <= 4:
        raise InvalidSfenError(
            f"invalid sfen: {sfen!r} (expected 3 or 4 fields: board, side to move, hands, move number;"
            f" got {len(fields)})"
        )
    board = _parse_board(sfen, fields[0])
    if fields[1] not in ("b", "w"):
        raise InvalidSfenError(f"invalid sfen: {sfen!r} (side to move {fields[1]!r} must be 'b' or 'w')")
    hands = _parse_hands(sfen, fields[2])
    move_number = 1
    if len(fields) == 4:
        if not fields[3].isdigit():
            raise InvalidSfenError(f"invalid sfen: {sfen!r} (move number {fields[3]!r} is not a number)")
        move_number = max(1, int(fields[3]))
    return SfenParts(board, 0 if fields[1] == "b" else 1, hands, move_number)


# Ranks repeat a lot across positions ("9", "ppppppppp", "1r5b1"): remember the ones seen.
_RANK_CACHE: dict[str, tuple[int, ...]] = {}


def _parse_board(sfen: str, text: str) -> list[int]:
    ranks = text.split("/")
    if len(ranks) != 9:
        raise InvalidSfenError(f"invalid sfen: {sfen!r} (board has {len(ranks)} ranks, expected 9)")
    board: list[int] = []
    cache = _RANK_CACHE
    for r, rank_text in enumerate(ranks):
        known = cache.get(rank_text)
        if known is not None:
            board += known
            continue
        cells: list[int] = []
        promoted = False
        for ch in rank_text:
            if promoted and not ch.isalpha():
                raise InvalidSfenError(f"invalid sfen: {sfen!r} ('+' in rank {r + 1} is not followed by a piece)")
            if ch.isdigit() and ch != "0":
                cells.extend([0] * int(ch))
            elif ch == "+":
                promoted = True
            elif ch.upper() in _LETTER_TYPE:
                pt = _LETTER_TYPE[ch.upper()]
                if promoted:
                    if pt > 6:
                        raise InvalidSfenError(
                            f"invalid sfen: {sfen!r} ('+{ch}' in rank {r + 1}: gold and king do not promote)"
                        )
                    pt += 8
                    promoted = False
                cells.append(pt | (0 if ch.isupper() else 16))
            else:
                raise InvalidSfenError(f"invalid sfen: {sfen!r} (unexpected {ch!r} in rank {r + 1} {rank_text!r})")
        if promoted:
            raise InvalidSfenError(f"invalid sfen: {sfen!r} ('+' at the end of rank {r + 1})")
        if len(cells) != 9:
            raise InvalidSfenError(
                f"invalid sfen: {sfen!r} (rank {r + 1} {rank_text!r} has {len(cells)} squares, expected 9)"
            )
        board.extend(cells)
        if len(cache) < 65536:
            cache[rank_text] = tuple(cells)
    return board


def _parse_hands(sfen: str, text: str) -> list[list[int]]:
    hands = [[0] * 8, [0] * 8]
    if text == "-":
        return hands
    count = ""
    for ch in text:
        if ch.isdigit():
            count += ch
            continue
        pt = _LETTER_TYPE.get(ch.upper())
        if pt is None or pt == 8:
            raise InvalidSfenError(f"invalid sfen: {sfen!r} ({ch!r} cannot be in a hand {text!r})")
        color = 0 if ch.isupper() else 1
        hands[color][pt] += int(count) if count else 1
        if hands[color][pt] > MAX_HAND:
            raise InvalidSfenError(f"invalid sfen: {sfen!r} (too many {ch!r} in hand {text!r})")
        count = ""
    if count:
        raise InvalidSfenError(f"invalid sfen: {sfen!r} (count {count!r} at the end of hand {text!r} has no piece)")
    return hands


_ROW_CACHE: dict[tuple[int, ...], str] = {}


def _make_row(cells: tuple[int, ...]) -> str:
    row = ""
    empty = 0
    for code in cells:
        if not code:
            empty += 1
            continue
        if empty:
            row += str(empty)
            empty = 0
        pt = code & 15
        letter = ("+" + _TYPE_LETTER[pt - 8]) if pt > 8 else _TYPE_LETTER[pt]
        row += letter if code < 16 else letter.lower()
    if empty:
        row += str(empty)
    return row


def make_sfen(board: list[int], turn: int, hands: list[list[int]], move_number: int | None = 1) -> str:
    """Write the canonical SFEN (hands in R B G S N L P order, sente first)."""
    if _c_make_sfen is not None:
        text = _c_make_sfen(board, turn, hands, move_number)
        if text is not None:
            return text
    return _py_make_sfen(board, turn, hands, move_number)


def _py_make_sfen(board: list[int], turn: int, hands: list[list[int]], move_number: int | None = 1) -> str:
    """The pure-Python writer: the reference, and the one for unusual input."""
    rows = []
    cache = _ROW_CACHE
    for r in range(9):
        cells = tuple(board[r * 9:r * 9 + 9])
        row = cache.get(cells)
        if row is None:
            row = _make_row(cells)
            if len(cache) < 65536:
                cache[cells] = row
        rows.append(row)
    hand = ""
    for color in (0, 1):
        for pt in _HAND_ORDER:
            n = hands[color][pt]
            if n:
                letter = _TYPE_LETTER[pt] if color == 0 else _TYPE_LETTER[pt].lower()
                hand += (str(n) if n > 1 else "") + letter
    text = f"{'/'.join(rows)} {'bw'[turn]} {hand or '-'}"
    return text if move_number is None else f"{text} {move_number}"
