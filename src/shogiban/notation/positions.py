"""Boards from SFEN text that came from a record or a command: bounded and with bounded errors.

:class:`~shogiban.Board` quotes the whole SFEN in its errors and turns every number with
:func:`int`; text from a file may be megabytes long or hold a 5,000-digit move number.
:func:`board_from_sfen` refuses such text before parsing and quotes only an excerpt.

>>> board_from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").sfen()
'4k4/9/9/9/9/9/9/9/4K4 b - 1'
>>> board_from_sfen("9/9 b - " + "1" * 5000)
Traceback (most recent call last):
...
shogiban.errors.InvalidSfenError: invalid sfen: '9/9 b - 11111111111111111111111111111111'… (longer than any position)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from shogiban.errors import InvalidSfenError
from shogiban.notation.excerpt import excerpt
from shogiban.sfen import SfenParts, parse_sfen

if TYPE_CHECKING:
    from shogiban.board import Board

__all__ = ["MAX_SFEN_LENGTH", "board_from_sfen", "sfen_parts"]

#: No position needs more: 9 ranks of 9 promoted pieces, every piece in hand, a 9-digit number.
MAX_SFEN_LENGTH: Final = 256
_LONG_NUMBER = re.compile(r"\d{10}")


def board_from_sfen(sfen: str, *, lenient: bool = True) -> Board:
    """The board of *sfen* (``lenient`` as for :class:`~shogiban.Board`).

    :raises InvalidSfenError: if *sfen* cannot be read; the message quotes an excerpt only.
    """
    from shogiban.board import Board

    _check_size(sfen)
    try:
        return Board(sfen, lenient=lenient)
    except ValueError as error:
        raise InvalidSfenError(_shortened(str(error), sfen)) from None


def sfen_parts(sfen: str) -> SfenParts:
    """The fields of *sfen* (:func:`shogiban.sfen.parse_sfen`: syntax only, no rule checks).

    :raises InvalidSfenError: if *sfen* cannot be read; the message quotes an excerpt only.
    """
    _check_size(sfen)
    try:
        return parse_sfen(sfen)
    except ValueError as error:
        raise InvalidSfenError(_shortened(str(error), sfen)) from None


def _check_size(sfen: str) -> None:
    if len(sfen) > MAX_SFEN_LENGTH:
        raise InvalidSfenError(f"invalid sfen: {excerpt(sfen)} (longer than any position)")
    if _LONG_NUMBER.search(sfen):
        raise InvalidSfenError(f"invalid sfen: {excerpt(sfen)} (a number of more than 9 digits)")


def _shortened(message: str, sfen: str) -> str:
    """*message* with the full quote of *sfen* replaced by an excerpt."""
    quoted = repr(sfen)
    if quoted in message:
        return message.replace(quoted, excerpt(sfen), 1)
    return f"invalid sfen: {excerpt(sfen)}"
