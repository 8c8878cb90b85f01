"""A position a request names: a start SFEN and the USI moves played from it, replayed and
checked by the rules core (run it off the event loop: it replays every move)."""

from __future__ import annotations

from collections.abc import Sequence

from shogiban.board import Board
from shogiban.errors import ShogibanError
from shogiban.web.schema import RequestError, excerpt


def replayed(sfen: str | None, moves: Sequence[str], *, sfen_code: str = "invalid_sfen",
             move_code: str = "invalid_move") -> Board:
    """The position after *moves* from *sfen* (the start position when None or empty).

    >>> replayed(None, ["7g7f", "3c3d"]).ply
    2

    :raises RequestError: *sfen_code* (400) for an SFEN that does not read, *move_code* (400) for
        a move that does not read or is not legal, quoting it and its number.
    """
    try:
        board = Board(sfen) if sfen else Board()
    except (ShogibanError, ValueError) as error:
        raise RequestError(sfen_code, f"invalid sfen {excerpt(sfen)}: {excerpt(str(error), 120)}", 400) from None
    for number, usi in enumerate(moves, 1):
        try:
            board.push(board.parse_usi(usi))
        except (ShogibanError, ValueError) as error:
            raise RequestError(move_code, f"move {number} {excerpt(usi)}: {excerpt(str(error), 120)}", 400) from None
    return board
