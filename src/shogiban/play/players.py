"""Who plays a side at the terminal: a person, the built-in engine, or a USI engine program.

Engines follow the game's one player protocol (:class:`shogiban.game.players.Player`):
``async choose(state)`` returns the action to apply; their limits come from the game clock
(:func:`shogiban.game.clock_limit`) and their failures become actions
(:func:`~shogiban.game.players.decision_from_error`), as in the web server and the match runner.
``suggest`` finds a hint.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Protocol

from shogiban.board import Board
from shogiban.engines import Limit
from shogiban.errors import EngineError
from shogiban.game import GameState, clock_limit
from shogiban.game.limits import DEFAULT_MOVETIME
from shogiban.game.players import Decision, decision_from_error, decision_from_result
from shogiban.move import Move

if TYPE_CHECKING:
    from shogiban.engine import Engine
    from shogiban.engines import SimpleEngine

__all__ = ["BuiltinEnginePlayer", "EnginePlayer", "HumanPlayer", "UsiEnginePlayer"]


class HumanPlayer:
    """A person typing at the terminal (the session reads the input and makes the decisions)."""

    def __init__(self, name: str = "") -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"HumanPlayer({self.name!r})"


class EnginePlayer(Protocol):
    """A computer player."""

    name: str

    async def choose(self, state: GameState) -> Decision:
        """The engine's decision for the side to move in *state* (a failure as an action too)."""

    def suggest(self, board: Board, seconds: float) -> Move | None:
        """A move for the side to move, found in about *seconds* (a hint); None if none."""

    def game_over(self, result: str) -> None:
        """Tell the engine the game ended: ``win``, ``lose`` or ``draw`` from its side."""

    def close(self) -> None:
        """Release the engine (stop its process)."""


class BuiltinEnginePlayer:
    """The built-in engine (:class:`shogiban.engine.Engine`) at a level from 1 to 8.

    :param movetime: seconds per move when the game has no clock (None: one second).
    """

    def __init__(self, level: int, *, movetime: float | None = None, seed: int | None = None, name: str = "") -> None:
        from shogiban.engine import Engine

        self.engine: Engine = Engine(level=level, seed=seed)
        self.movetime = movetime
        self.name = name or f"shogiban {level}"

    async def choose(self, state: GameState) -> Decision:
        """See :meth:`EnginePlayer.choose`."""
        try:
            result = self.engine.search(state.board(), clock_limit(state.clock, movetime=self.movetime))
        except EngineError as error:
            return decision_from_error(state, error, self.name)
        return decision_from_result(state, result)

    def suggest(self, board: Board, seconds: float) -> Move | None:
        """See :meth:`EnginePlayer.suggest`."""
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

    async def choose(self, state: GameState) -> Decision:
        """See :meth:`EnginePlayer.choose`."""
        try:
            result = self.engine.play(state.board(), clock_limit(state.clock, movetime=self.movetime))
        except EngineError as error:
            return decision_from_error(state, error, self.name)
        return decision_from_result(state, result)

    def suggest(self, board: Board, seconds: float) -> Move | None:
        """See :meth:`EnginePlayer.suggest` (the time sent as byoyomi, never ``movetime``)."""
        return self.engine.play(board, Limit(btime=0, wtime=0, byoyomi=seconds or DEFAULT_MOVETIME)).move

    def game_over(self, result: str) -> None:
        """Send ``gameover``."""
        self.engine.game_over(result)

    def close(self) -> None:
        """Quit the engine process."""
        self.engine.quit()
