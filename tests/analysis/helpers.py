"""Shared helpers of the analysis tests: an engine wrapper that counts its searches."""

from __future__ import annotations

from collections.abc import Sequence

from shogiban.board import Board
from shogiban.engines import InfoDict, Limit, SimpleEngine
from shogiban.move import Move


class CountingEngine:
    """A :class:`SimpleEngine` whose searches are counted (and their positions kept)."""

    def __init__(self, engine: SimpleEngine) -> None:
        self.engine = engine
        self.calls: list[str] = []
        self.new_games = 0

    @property
    def name(self) -> str:
        return self.engine.name

    def analyse(
        self, board: Board, limit: Limit, *, multipv: int, searchmoves: Sequence[Move] | None = None,
    ) -> list[InfoDict]:
        self.calls.append(board.sfen(move_number=False))
        return self.engine.analyse(board, limit, multipv=multipv, searchmoves=searchmoves)

    def new_game(self) -> None:
        self.new_games += 1
        self.engine.new_game()
