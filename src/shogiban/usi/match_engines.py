"""The engines of an engine match: any USI engine, or the built-in engine (as its own ``shogiban usi``
subprocess, or in-process), behind one small interface for what a match does with an engine
process (:class:`MatchEngine`: start it, restart it after a crash, search, count its speed).

These are not players: in a game every side decides through the game core's one player protocol,
:class:`shogiban.game.Player`, as :class:`shogiban.usi.match.MatchPlayer` over a match engine.

Player specifications, as ``shogiban match`` takes them:

* ``builtin:LEVEL`` -- the built-in engine at level 1..8;
* ``NAME`` defined with ``--engine NAME=COMMAND`` (options ``--option NAME.Key=Value``);
* anything else -- a command line, run as a USI engine.

>>> spec = parse_player("builtin:3", {})
>>> spec.name, spec.level
('builtin-3', 3)
>>> parse_player("fsf", {"fsf": "/usr/games/fairy-stockfish"}).command
['/usr/games/fairy-stockfish']
"""

from __future__ import annotations

import shlex
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from shogiban.board import Board
from shogiban.engines import InfoDict, Limit, PlayResult, SimpleEngine
from shogiban.errors import EngineError, EngineMoveError, EngineTerminatedError, ShogibanError

if TYPE_CHECKING:
    from shogiban.engine import BuiltinSearch


@dataclass(frozen=True)
class PlayerSpec:
    """How to start one player."""

    name: str
    """Short name for scores and records."""
    command: list[str] | None = None
    """A USI engine's command line (None for the in-process built-in engine)."""
    options: dict[str, str] = field(default_factory=dict)
    """``setoption`` values sent after the handshake."""
    level: int | None = None
    """The built-in engine's level (for ``builtin:LEVEL``)."""


def builtin_command(level: int, seed: int | None = None) -> list[str]:
    """Command line of our own engine as a USI subprocess (``python -m shogiban.usi.server``)."""
    command = [sys.executable, "-m", "shogiban.usi.server", "--level", str(level)]
    return command + (["--seed", str(seed)] if seed is not None else [])


def parse_player(
    text: str, engines: Mapping[str, str], *, in_process: bool = False, seed: int | None = None
) -> PlayerSpec:
    """The :class:`PlayerSpec` for *text* (see the module docstring).

    :raises ShogibanError: for a bad level or an empty command.
    """
    if text.startswith("builtin"):
        _, _, level_text = text.partition(":")
        try:
            level = int(level_text or "8")
        except ValueError:
            raise ShogibanError(f"invalid player: {text!r} (expected builtin:LEVEL with LEVEL 1..8)") from None
        if not 1 <= level <= 8:
            raise ShogibanError(f"invalid player: {text!r} (level must be 1..8)")
        return PlayerSpec(f"builtin-{level}", None if in_process else builtin_command(level, seed), {}, level)
    command = shlex.split(engines.get(text, text))
    if not command:
        raise ShogibanError(f"invalid player: {text!r} (empty command)")
    name = text if text in engines else command[0].rsplit("/", 1)[-1]
    return PlayerSpec(name, command)


class MatchEngine(Protocol):
    """An engine in a match: its process and its searches (a side's decisions are
    :class:`shogiban.usi.match.MatchPlayer`'s, on the game's player protocol)."""

    name: str
    """Name in scores and records."""
    nodes: int
    """Nodes searched over the match (as the engine reported them)."""
    seconds: float
    """Seconds searched over the match (as the engine reported them)."""
    start_error: Exception | None
    """Why the last start failed, if it did."""

    def start(self) -> None:
        """Start (or restart) the engine if it is not running; a failure is kept in
        :attr:`start_error` and the player loses at its first move."""

    def new_game(self) -> None:
        """Prepare for a new game."""

    def play(self, board: Board, limit: Limit, *, timeout: float | None) -> PlayResult:
        """The player's move; :class:`EngineError` if it crashes, hangs or plays nonsense."""

    def game_over(self, result: str) -> None:
        """Tell the player the result (``win``, ``lose`` or ``draw``, its own point of view)."""

    def close(self) -> None:
        """Stop the engine."""


def _record_speed(player: MatchEngine, info: InfoDict) -> None:
    if "nodes" in info and "time" in info:
        player.nodes += info["nodes"]
        player.seconds += info["time"]


class UsiPlayer:
    """A USI engine subprocess driven by :class:`SimpleEngine`; restarted after a crash."""

    def __init__(self, spec: PlayerSpec, *, timeout: float = 10.0, isready_timeout: float = 60.0) -> None:
        assert spec.command is not None
        self.name = spec.name
        self.spec = spec
        self.timeout = timeout
        self.isready_timeout = isready_timeout
        self.engine: SimpleEngine | None = None
        self.start_error: Exception | None = None
        self.restarts = 0
        self.nodes = 0
        self.seconds = 0.0

    def start(self) -> None:
        """Start the engine unless it runs; a failure is kept and reported at its first move."""
        if self.engine is not None and self.engine.alive:
            return
        if self.engine is not None:
            self.engine.quit()
            self.restarts += 1
        self.engine = None
        try:
            engine = SimpleEngine.popen_usi(self.spec.command or [], timeout=self.timeout,
                                            isready_timeout=self.isready_timeout)
        except (OSError, EngineError) as error:
            self.start_error = error
            return
        try:
            engine.configure(dict(self.spec.options))
        except EngineError as error:
            engine.quit()
            self.start_error = error
            return
        self.start_error = None
        self.engine = engine

    def new_game(self) -> None:
        """Sync with ``isready`` now, before the clock runs; ``usinewgame`` goes before the first search.

        A failure here is kept; the engine then loses at its first move.
        """
        if self.engine is not None and self.engine.alive:
            try:
                self.engine.new_game()
                self.engine.ping()
            except EngineError as error:
                self.start_error = error

    def play(self, board: Board, limit: Limit, *, timeout: float | None) -> PlayResult:
        """The engine's move."""
        if self.engine is None or not self.engine.alive:
            raise EngineTerminatedError(f"{self.name}: engine could not be started: {self.start_error}")
        result = self.engine.play(board, limit, timeout=timeout)
        _record_speed(self, result.info)
        return result

    def game_over(self, result: str) -> None:
        """``gameover``; errors of a dead engine are ignored (it is restarted for the next game)."""
        if self.engine is not None and self.engine.alive:
            try:
                self.engine.game_over(result)
            except EngineError:
                return

    def close(self) -> None:
        """Quit the engine."""
        if self.engine is not None:
            self.engine.quit()
            self.engine = None


class InProcessPlayer:
    """The built-in engine in this process (no crash isolation, shares this process's core)."""

    def __init__(self, spec: PlayerSpec, *, seed: int | None = None) -> None:
        self.name = spec.name
        self.level = spec.level or 8
        self.seed = seed
        self.start_error: Exception | None = None
        self.nodes = 0
        self.seconds = 0.0
        self._engine: BuiltinSearch | None = None

    def start(self) -> None:
        """Build the engine."""
        from shogiban.engine import BuiltinSearch

        if self._engine is None:
            self._engine = BuiltinSearch(self.level, seed=self.seed)

    def new_game(self) -> None:
        """Clear the engine's tables."""
        if self._engine is not None:
            self._engine.new_game()

    def play(self, board: Board, limit: Limit, *, timeout: float | None) -> PlayResult:
        """Search in this thread; a timer sets the stop flag at *timeout*."""
        self.start()
        assert self._engine is not None
        stop = threading.Event()
        timer = threading.Timer(timeout, stop.set) if timeout is not None else None
        if timer is not None:
            timer.start()
        try:
            found = self._engine.search(board, limit, stop=stop)
        finally:
            if timer is not None:
                timer.cancel()
        _record_speed(self, found.info)
        if found.move is not None and not board.is_legal(found.move):
            text = found.move.usi()
            raise EngineMoveError(f"{self.name} played an illegal move: {text!r} in {board.sfen()}", text, found.move)
        return found

    def game_over(self, result: str) -> None:
        """Nothing to tell."""

    def close(self) -> None:
        """Drop the engine."""
        self._engine = None


def make_player(spec: PlayerSpec, *, timeout: float = 10.0, seed: int | None = None) -> MatchEngine:
    """The match engine for *spec*."""
    if spec.command is None:
        return InProcessPlayer(spec, seed=seed)
    return UsiPlayer(spec, timeout=timeout)
