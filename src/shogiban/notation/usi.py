"""USI ``position`` commands: ``position startpos moves 7g7f 3c3d`` and
``position sfen <sfen> moves ...``.

Single USI moves are :meth:`Move.from_usi <shogiban.move.Move.from_usi>` / :meth:`Move.usi
<shogiban.move.Move.usi>`; this module reads and writes whole position commands, validating every
move.

>>> board, moves = parse_position_command("position startpos moves 7g7f 3c3d")
>>> board.sfen()
'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3'
>>> make_position_command(board)
'position startpos moves 7g7f 3c3d'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from shogiban.errors import IllegalMoveError, InvalidMoveError, ShogibanError
from shogiban.move import Move
from shogiban.notation._legal import refusal_of
from shogiban.notation.excerpt import excerpt
from shogiban.notation.positions import board_from_sfen
from shogiban.sfen import STARTING_SFEN

if TYPE_CHECKING:
    from shogiban.board import Board

__all__ = ["InvalidCommandError", "make_position_command", "parse_position_command"]

_START_FIELDS = STARTING_SFEN.split()[:3]


class InvalidCommandError(ShogibanError):
    """A USI command that is not of the expected form."""

    code = "invalid_command"


def parse_position_command(text: str) -> tuple[Board, list[Move]]:
    """Read a USI ``position`` command (the word ``position`` may be left out).

    Returns the board **after** the moves (its move stack holds them, so repetitions are
    known, and :attr:`~shogiban.board.Board.starting_sfen` gives the start) and the moves.

    :raises InvalidCommandError: if the command is not ``[position] startpos|sfen ... [moves ...]``.
    :raises InvalidSfenError: if the SFEN is malformed or impossible.
    :raises InvalidMoveError: naming the bad token and its index in the move list.
    :raises IllegalMoveError: naming the illegal move, its index and the reason.
    """

    if not isinstance(text, str):
        raise InvalidCommandError(f"invalid position command: {excerpt(text)} (not a string)")
    tokens = text.split()
    if tokens[:1] == ["position"]:
        tokens = tokens[1:]
    if not tokens or tokens[0] not in ("startpos", "sfen"):
        raise InvalidCommandError(
            f"invalid position command: {excerpt(text)} (expected 'position startpos' or 'position sfen <sfen>')"
        )
    if "moves" in tokens:
        cut = tokens.index("moves")
        head, move_tokens = tokens[:cut], tokens[cut + 1:]
    else:
        head, move_tokens = tokens, []
    if head[0] == "startpos":
        if len(head) != 1:
            raise InvalidCommandError(
                f"invalid position command: {excerpt(text)} (unexpected {excerpt(head[1])} after startpos)"
            )
        sfen = STARTING_SFEN
    else:
        if len(head) == 1:
            raise InvalidCommandError(f"invalid position command: {excerpt(text)} (sfen is missing)")
        sfen = " ".join(head[1:])
    board = board_from_sfen(sfen, lenient=False)
    moves: list[Move] = []
    for index, token in enumerate(move_tokens):
        try:
            move = Move.from_usi(token)
        except InvalidMoveError:
            raise InvalidMoveError(
                f"invalid usi move {excerpt(token)} at index {index} of the moves in {excerpt(text)}"
            ) from None
        if not board.is_legal(move):
            refusal = refusal_of(board, move)
            raise IllegalMoveError(
                f"illegal move {excerpt(token)} at index {index} of the moves in {excerpt(text)}:"
                f" {refusal.message} in {board.sfen()}",
                refusal=refusal, move=move,
            )
        board.push(move)
        moves.append(move)
    return board, moves


def make_position_command(board_or_start_sfen: Board | str, moves: Iterable[Move | str] = ()) -> str:
    """Write ``position startpos|sfen <sfen> [moves ...]``.

    Given a :class:`~shogiban.board.Board`, the command starts from its starting SFEN and plays
    its move stack followed by *moves*; given an SFEN (or ``"startpos"``), it plays *moves* from
    there.  ``startpos`` is written whenever the start is the even-game start position.  Every
    move is checked.

    :raises InvalidSfenError: if the SFEN is malformed.
    :raises InvalidMoveError: if a move string is not USI.
    :raises IllegalMoveError: if a move is illegal (naming its index).
    """
    from shogiban.board import Board

    if isinstance(board_or_start_sfen, Board):
        start = board_or_start_sfen.starting_sfen
        played: list[Move | str] = [*board_or_start_sfen.move_stack, *moves]
    else:
        start = STARTING_SFEN if board_or_start_sfen.strip() == "startpos" else board_or_start_sfen
        played = list(moves)
    board = board_from_sfen(start, lenient=False)
    texts = []
    for index, item in enumerate(played):
        move = item if isinstance(item, Move) else Move.from_usi(item)
        if not board.is_legal(move):
            refusal = refusal_of(board, move)
            raise IllegalMoveError(
                f"illegal move {move.usi()!r} at index {index}: {refusal.message} in {board.sfen()}",
                refusal=refusal, move=move,
            )
        board.push(move)
        texts.append(move.usi())
    fields = board.starting_sfen.split()
    head = "position startpos" if fields[:3] == _START_FIELDS else f"position sfen {board.starting_sfen}"
    return f"{head} moves {' '.join(texts)}" if texts else head
