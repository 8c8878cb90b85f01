"""Who plays a side: a person at the terminal, the built-in engine, or a USI engine program.

Engines are driven through one small interface, :class:`EnginePlayer`: ``choose`` a move for the
game (within the clock) and ``suggest`` one for a hint.  A USI engine's limits come from
:func:`shogiban.usi.clocks.engine_limit`, as in the web server and the match runner.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from shogiban.board import Board
from shogiban.move import Move
from shogiban.usi.clocks import ClockState, engine_limit

if TYPE_CHECKING:
    from shogiban.engine import Engine
    from shogiban.engines import SimpleEngine

__all__ = ["BuiltinEnginePlayer", "ClockState", "EngineAnswer", "EnginePlayer", "HumanPlayer", "UsiEnginePlayer"]


@dataclass(frozen=True, slots=True)
class EngineAnswer:
    """An engine's decision: a move, a resignation (``move`` None) or a declaration."""

    move: Move | None
    """The move, or None when the engine resigns or declares."""
    declare_win: bool = False
    """The engine declares an entering-king win (入玉宣言)."""


class HumanPlayer:
    """A person typing at the terminal."""

    def __init__(self, name: str = "") -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"HumanPlayer({self.name!r})"


class EnginePlayer(Protocol):
    """A computer player."""

    name: str

    def choose(self, board: Board, clock: ClockState | None) -> EngineAnswer:
        """The engine's decision for the side to move on *board* (None: no clock)."""

    def suggest(self, board: Board, seconds: float) -> Move | None:
        """A move for the side to move, found in about *seconds* (a hint); None if none."""

    def game_over(self, result: str) -> None:
        """Tell the engine the game ended: ``win``, ``lose`` or ``draw`` from its side."""

    def close(self) -> None:
        """Release the engine (stop its process)."""


class BuiltinEnginePlayer:
    """The built-in engine (:class:`shogiban.engine.Engine`) at a level from 1 to 8.

    :param movetime: seconds per move when the game has no clock (None: the engine's default).
    """

    def __init__(self, level: int, *, movetime: float | None = None, seed: int | None = None, name: str = "") -> None:
        from shogiban.engine import Engine

        self.engine: Engine = Engine(level=level, seed=seed)
        self.movetime = movetime
        self.name = name or f"shogiban {level}"

    def choose(self, board: Board, clock: ClockState | None) -> EngineAnswer:
        """See :meth:`EnginePlayer.choose`."""
        from shogiban.engines import Limit

        if clock is None:
            limit = Limit(time=self.movetime)
        else:
            limit = engine_limit(clock)
        result = self.engine.search(board, limit)
        return EngineAnswer(result.move, declare_win=result.declared_win)

    def suggest(self, board: Board, seconds: float) -> Move | None:
        """See :meth:`EnginePlayer.suggest`."""
        from shogiban.engines import Limit

        return self.engine.search(board, Limit(time=seconds)).move

    def game_over(self, result: str) -> None:
        """Forget the game (the next one starts afresh)."""
        self.engine.new_game()

    def close(self) -> None:
        """Nothing to release."""


class UsiEnginePlayer:
    """A USI engine program started with a command line such as ``/usr/games/gpsusi``."""

    def __init__(self, command: str, *, movetime: float | None = None, name: str = "") -> None:
        from shogiban.engines import SimpleEngine

        self.engine: SimpleEngine = SimpleEngine.popen_usi(shlex.split(command))
        self.movetime = movetime
        self.name = name or self.engine.name or shlex.split(command)[0].rsplit("/", 1)[-1]

    def choose(self, board: Board, clock: ClockState | None) -> EngineAnswer:
        """See :meth:`EnginePlayer.choose`."""
        limit = engine_limit(clock, movetime=self.movetime if clock is None else None)
        result = self.engine.play(board, limit)
        if result.declared_win:
            return EngineAnswer(None, declare_win=True)
        return EngineAnswer(None if result.resigned else result.move)

    def suggest(self, board: Board, seconds: float) -> Move | None:
        """See :meth:`EnginePlayer.suggest`."""
        return self.engine.play(board, engine_limit(movetime=seconds)).move

    def game_over(self, result: str) -> None:
        """Send ``gameover``."""
        self.engine.game_over(result)

    def close(self) -> None:
        """Quit the engine process."""
        self.engine.quit()

