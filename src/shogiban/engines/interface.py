"""The :class:`Engine` protocol: what every engine offers, the USI client
(:class:`shogiban.usi.UsiProtocol`) and the in-process built-in engine
(:class:`shogiban.engines.BuiltinEngine`) alike.

Every method is a coroutine run on one event loop; commands run one at a time, and a new command
ends a running analysis or ponder search first.  No call waits for ever: each search has a
deadline (:meth:`Limit.deadline`, or ``timeout=``), after which the engine is stopped, and an
engine that still does not answer is given up (:class:`EngineTimeoutError`).  Errors:
:class:`EngineError` and its subclasses (``code`` ``engine_error``, ``engine_terminated``,
``engine_timeout``, ``engine_move``), and :class:`ValueError` for a limit that cannot be used
(``play`` with an infinite limit, ``analyse`` with one that never ends).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol, overload

from shogiban.board import Board
from shogiban.engines.analysis import AnalysisResult
from shogiban.engines.limit import Limit, Seconds, to_seconds
from shogiban.engines.options import ConfigValue, Options
from shogiban.engines.results import InfoDict, MateResult, PlayResult
from shogiban.move import Move


class Engine(Protocol):
    """An engine driven from asyncio (see the module docstring)."""

    @property
    def id(self) -> dict[str, str]:
        """``name`` and ``author`` (USI ``id``)."""
        ...  # pragma: no cover - protocol

    @property
    def name(self) -> str:
        """A short name for messages."""
        ...  # pragma: no cover - protocol

    @property
    def options(self) -> Options:
        """The options the engine declares."""
        ...  # pragma: no cover - protocol

    @property
    def alive(self) -> bool:
        """Whether the engine still takes commands."""
        ...  # pragma: no cover - protocol

    async def configure(self, options: Mapping[str, ConfigValue]) -> None:
        """Set options, checked against :attr:`options`.

        :raises EngineError: for an unknown option or a value that does not fit.
        """
        ...  # pragma: no cover - protocol

    async def ping(self) -> None:
        """Wait until the engine is ready (USI ``isready``)."""
        ...  # pragma: no cover - protocol

    async def new_game(self) -> None:
        """The next search starts a new game (the engine forgets the previous one)."""
        ...  # pragma: no cover - protocol

    async def game_over(self, result: str) -> None:
        """The game ended: *result* is ``win``, ``lose`` or ``draw`` for the engine."""
        ...  # pragma: no cover - protocol

    async def play(
        self, board: Board, limit: Limit, *, ponder: bool = False, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> PlayResult:
        """The engine's move in *board* under *limit* (only *searchmoves*, if given, are considered).

        With ``ponder=True`` the engine goes on thinking on its expected reply until the next
        command.  *timeout* replaces the limit's deadline.
        """
        ...  # pragma: no cover - protocol

    @overload
    async def analyse(
        self, board: Board, limit: Limit, *, multipv: None = None, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> InfoDict: ...

    @overload
    async def analyse(
        self, board: Board, limit: Limit, *, multipv: int, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> list[InfoDict]: ...

    async def analyse(
        self, board: Board, limit: Limit, *, multipv: int | None = None, searchmoves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> InfoDict | list[InfoDict]:
        """Analyse *board* until *limit*: the info of the best line, or with *multipv* a list of
        the last info of each of that many lines, best first (fewer if there are fewer moves)."""
        ...  # pragma: no cover - protocol

    async def analysis(
        self, board: Board, limit: Limit | None = None, *, multipv: int | None = None,
        searchmoves: Iterable[Move] | None = None, timeout: float | None = None,
    ) -> AnalysisResult:
        """Start analysing *board* (until stopped, without a *limit*) and return the running analysis."""
        ...  # pragma: no cover - protocol

    async def mate(
        self, board: Board, limit: Limit | Seconds | None = None, *, timeout: float | None = None
    ) -> MateResult:
        """Look for a mate for the side to move (USI ``go mate``) within *limit*'s time (a
        :class:`Limit` or seconds; none: until the search timeout)."""
        ...  # pragma: no cover - protocol

    async def stop_pondering(self) -> None:
        """End a ponder search, if any."""
        ...  # pragma: no cover - protocol

    async def quit(self) -> None:
        """End any search and the engine; later calls raise :class:`EngineTerminatedError`."""
        ...  # pragma: no cover - protocol

    async def kill(self) -> None:
        """End the engine at once (a process is killed); later calls raise :class:`EngineError`."""
        ...  # pragma: no cover - protocol


def mate_seconds(limit: Limit | Seconds | None) -> float | None:
    """The time of a mate search for *limit*: its ``time`` (a Limit), the seconds given, or None
    (as long as it takes: ``go mate infinite``)."""
    if limit is None:
        return None
    if isinstance(limit, Limit):
        return None if limit.time is None or limit.infinite else to_seconds(limit.time)
    return to_seconds(limit)


__all__ = ["Engine", "mate_seconds"]
