"""Saving the game played at the terminal: its record with players, handicap and result.

The format follows the file name's extension (``.kif``, ``.kifu``, ``.ki2``, ``.csa``, ``.jkf``,
``.usi``, ``.sfen`` ...), as :func:`shogiban.kifu.save_game` decides.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from shogiban.kifu import Game, GameNode, save_game
from shogiban.kifu.results import result_from_outcome
from shogiban.pieces import Color

if TYPE_CHECKING:
    from shogiban.play.session import GameSession


def session_game(session: GameSession) -> Game:
    """The record of *session*: its moves, players, handicap and result."""
    board = session.board
    game = Game.from_board(board)
    handicap = session.options.handicap is not None
    game.headers["開始日時"] = datetime.datetime.now().strftime("%Y/%m/%d %H:%M:%S")
    black_key, white_key = ("下手", "上手") if handicap else ("先手", "後手")
    game.headers[black_key] = session.players[Color.BLACK].name or "sente"
    game.headers[white_key] = session.players[Color.WHITE].name or "gote"
    outcome = session.outcome
    if outcome is not None and board.outcome() is None:
        # Resignation, time, abandonment: the board does not know them, the record should.
        node: GameNode = game.root
        while node.variations:
            node = node.variations[0]
        node.add_result(result_from_outcome(outcome, board.turn))
    return game


def save_record(path: Path, session: GameSession) -> Path:
    """Write *session*'s game to *path* in the format its extension names; returns the path.

    :raises shogiban.KifuParseError: for an extension that names no record format.
    :raises OSError: if the file cannot be written.
    """
    return save_game(session_game(session), path)
