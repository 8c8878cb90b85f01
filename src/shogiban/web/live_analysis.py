"""Live analysis of any position for the analysis board: the ``/ws/analysis`` websocket.

A viewer sends ``{"type": "analyse", "id", "sfen", "moves", "lines"}``
(:class:`~shogiban.web.schema.LiveAnalyse`) and gets ``live`` messages
(:class:`~shogiban.web.messages.LiveMessage`): the best *lines* (1-5, MultiPV) with score,
depth, nodes and each move in every notation, a few times a second while the search runs, then
``done`` when its time is up (the page asks again to go on), or ``stopped`` after
``{"type": "stop"}``, a new request or the page leaving.

The search runs in an engine process, never in the web process: the built-in engine as a USI
engine (``python -m shogiban usi``) or the USI engine the server was started with, driven by the
USI client (its deadlines; the process dies with the server).  With several web processes and
``shogiban worker``s on Redis, the search runs on a worker instead
(:class:`RemoteLive`, implemented by :class:`shogiban.web.job_queue.QueuedLive`).

Bounds (:class:`LiveSettings`): one search per connection (a new request replaces the running
one); at most :attr:`LiveSettings.searches` at once on the server, more refused with ``busy``,
never queued; each search at most :attr:`LiveSettings.seconds`; at most
:data:`SEND_EVERY` between two messages of a search (the newest lines win); requests per
connection rate-limited (a flood is refused with ``too_fast``, then the connection closed);
live connections per address capped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.routing import BaseRoute
from starlette.websockets import WebSocket

from shogiban.board import Board
from shogiban.engines.limit import Limit
from shogiban.engines.results import InfoDict
from shogiban.errors import EngineError, ShogibanError
from shogiban.move import Move
from shogiban.notation.forms import move_forms
from shogiban.web.connections import Connection, read_messages, run_connection
from shogiban.web.messages import LiveLine, LiveMessage, encode_message, error_message
from shogiban.web.positions import replayed
from shogiban.web.rates import ConcurrencyLimit, ServerLimits, TokenBucket
from shogiban.web.rooms import Role
from shogiban.web.routing import CheckedWebSocketRoute, client_address
from shogiban.web.schema import LiveAnalyse, LiveStop, RequestError, read_live_message

log = logging.getLogger(__name__)

#: The longest one request searches (the page asks again to go on).
LIVE_SECONDS = 30.0
#: The most time between two messages of a running search, seconds (at most 4 a second).
SEND_EVERY = 0.25
#: Moves of each line sent (an engine's line may be much longer).
LINE_MOVES = 12
#: Seconds a stopped search may take to give its engine back before the process is killed.
STOP_SECONDS = 5.0


class LiveBusyError(ShogibanError):
    """The server runs its share of live searches (refused, not queued)."""

    code = "busy"


@dataclass(frozen=True, slots=True)
class LiveSettings:
    """The server's bounds on live analysis (``create_app(live=...)``)."""

    searches: int = 2
    """Searches at once on this server (each an engine process; more are refused as busy)."""
    seconds: float = LIVE_SECONDS
    """The longest one request searches."""
    connections_per_address: int = 4
    """Live-analysis websockets one address may hold."""
    request_burst: int = 10
    """Requests (analyse or stop) one connection may send at once ..."""
    requests_per_second: float = 2.0
    """... and per second on average; past that they are refused (``too_fast``)."""
    refusals_before_close: int = 20
    """Requests refused in a row for their rate before the connection is closed (1008)."""
    command: tuple[str, ...] | None = None
    """The engine (a USI command line); None: the built-in engine as a USI engine."""


def builtin_command() -> tuple[str, ...]:
    """The built-in engine as a USI engine in a process of its own."""
    return (sys.executable, "-m", "shogiban", "usi")


def live_position(sfen: str | None, moves: Sequence[str]) -> Board:
    """The position of a request: *sfen* (the start position when None) and *moves* played.

    :raises RequestError: ``invalid_sfen`` or ``invalid_move`` for an SFEN or a move that does not
        read or is illegal (as a record sent to be analysed).
    """
    return replayed(sfen, moves)


def live_lines(board: Board, infos: Sequence[InfoDict]) -> list[LiveLine]:
    """The lines of *infos* (one per MultiPV rank) as the pages get them: sente's score, the
    first :data:`LINE_MOVES` moves in USI and in every notation."""
    lines: list[LiveLine] = []
    for rank, info in enumerate(infos, 1):
        score = info["score"].black()
        position = board.copy()
        pv: list[str] = []
        forms: list[dict[str, str]] = []
        for move in info.get("pv", [])[:LINE_MOVES]:
            if not position.is_legal(move):
                break  # an engine's line past a move it got wrong is not shown
            forms.append(move_forms(position, move))
            pv.append(move.usi())
            position.push(move)
        lines.append(LiveLine(
            multipv=info.get("multipv", rank), depth=info.get("depth", 0), nodes=info.get("nodes", 0),
            score_cp=score.cp, score_mate=score.mate if score.is_mate() else None,
            win_rate=round(score.win_rate(), 4), pv=pv, forms=forms,
        ))
    return lines


# -- where searches run ---------------------------------------------------------------------------


class LiveSearches(Protocol):
    """Runs live searches: in this server's engine processes (:class:`LiveEngines`) or on
    ``shogiban worker``s (:class:`shogiban.web.job_queue.QueuedLive`)."""

    name: str

    def search(self, board: Board, lines: int, seconds: float,
               searchmoves: Sequence[Move] = ()) -> AsyncGenerator[list[InfoDict], None]:
        """A search: the lines so far (best first) each time they change, until *seconds* are
        up; closing the generator stops it and frees its place.  With *searchmoves*, only those
        moves are searched.

        :raises LiveBusyError: (at the first step) when the server runs its share of searches.
        :raises EngineError: when the engine fails.
        """
        ...  # pragma: no cover - protocol

    async def close(self) -> None:
        """Stop every search and engine."""
        ...  # pragma: no cover - protocol


class LiveEngines:
    """Engine processes for live analysis, at most *searches* at once; a process whose search
    ended well is kept for the next one."""

    def __init__(self, command: Sequence[str] | None = None, searches: int = 2) -> None:
        self.command = tuple(command or builtin_command())
        self.searches = searches
        self.name = "shogiban" if command is None else self.command[0].rsplit("/", 1)[-1]
        self._busy = 0
        self._idle: list[tuple[Any, Any]] = []
        self._stopping: set[asyncio.Task[None]] = set()

    async def _engine(self) -> tuple[Any, Any]:
        while self._idle:
            transport, engine = self._idle.pop()
            if engine.alive:
                return transport, engine
            transport.close()
        from shogiban.usi import popen_usi

        transport, engine = await popen_usi(list(self.command))
        self.name = engine.id.get("name") or self.name
        return transport, engine

    async def search(self, board: Board, lines: int, seconds: float,
                     searchmoves: Sequence[Move] = ()) -> AsyncGenerator[list[InfoDict], None]:
        if self._busy >= self.searches:
            raise LiveBusyError(f"the server runs {self.searches} live analyses already: try again in a moment")
        self._busy += 1
        handle: tuple[Any, Any] | None = None
        running = None
        try:
            handle = await self._engine()
            running = await handle[1].analysis(board, Limit(time=seconds), multipv=lines,
                                               searchmoves=list(searchmoves) or None)
            latest: dict[int, InfoDict] = {}
            async for info in running:
                if "pv" in info and "score" in info and info["pv"]:
                    latest[info.get("multipv", 1)] = info
                    yield [latest[rank] for rank in sorted(latest)]
        except BaseException:
            if handle is not None:
                # Stopped (or failed): the engine is given back once it has answered the stop, in
                # a task of its own (a cancelled viewer does not wait for it).
                task = asyncio.create_task(self._give_back(handle, running))
                self._stopping.add(task)
                task.add_done_callback(self._stopping.discard)
                handle = None
            else:
                self._busy -= 1
            raise
        finally:
            if handle is not None:
                self._idle.append(handle)
                self._busy -= 1

    async def _give_back(self, handle: tuple[Any, Any], running: Any) -> None:
        transport, engine = handle
        try:
            if running is None:
                raise EngineError("the search did not start")
            running.stop()
            await asyncio.wait_for(running.wait(), STOP_SECONDS)
        except (EngineError, TimeoutError, asyncio.CancelledError, Exception):
            with contextlib.suppress(Exception):
                await engine.kill()
            transport.close()
        else:
            self._idle.append(handle)
        finally:
            self._busy -= 1

    async def close(self) -> None:
        if self._stopping:  # searches being stopped give their engines back (or kill them) first
            await asyncio.wait(set(self._stopping), timeout=STOP_SECONDS + 1)
        idle, self._idle = self._idle, []
        for transport, engine in idle:
            with contextlib.suppress(Exception):
                await engine.quit()
            transport.close()


# -- one viewer -----------------------------------------------------------------------------------


class LiveViewer:
    """One connection's live analysis: at most one search; a new request replaces it."""

    def __init__(self, engines: Mapping[str, LiveSearches], send: Callable[[LiveMessage], None],
                 settings: LiveSettings, cpu: Executor | None = None) -> None:
        self.engines = engines
        self.send = send
        self.settings = settings
        self.cpu = cpu
        self._task: asyncio.Task[None] | None = None
        self._id: int | None = None
        self._name = ""

    def start(self, request: LiveAnalyse) -> None:
        """Search *request*'s position (the running search, if any, stops)."""
        self.stop()
        self._id = request.id
        self._task = asyncio.create_task(self._run(request))

    def stop(self) -> None:
        """Stop the running search, if any (its viewer is told ``stopped``)."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            assert self._id is not None
            self.send(LiveMessage(id=self._id, status="stopped", engine=self._name))

    async def _run(self, request: LiveAnalyse) -> None:
        loop = asyncio.get_running_loop()
        searches = self.engines.get(request.engine)
        if searches is None:
            self.send(LiveMessage(id=request.id, status="failed", engine=request.engine, code="no_engine"))
            return
        name = self._name = searches.name
        try:
            board = await loop.run_in_executor(self.cpu, live_position, request.sfen, request.moves)
        except RequestError as error:
            self.send(LiveMessage(id=request.id, status="failed", engine=name, code=error.code))
            return
        if not any(True for _ in board.legal_moves):
            self.send(LiveMessage(id=request.id, status="done", engine=name))  # mated, or no move: nothing to search
            return
        lines: list[LiveLine] = []
        unsent: list[InfoDict] | None = None
        last_sent = 0.0
        search = searches.search(board, request.lines, self.settings.seconds)
        try:
            async for infos in search:
                unsent = infos
                if time.monotonic() - last_sent < SEND_EVERY:
                    continue  # the newest lines go out with the next message
                lines = await loop.run_in_executor(self.cpu, live_lines, board, infos)
                self.send(LiveMessage(id=request.id, status="running", engine=searches.name, lines=lines))
                last_sent, unsent = time.monotonic(), None
        except LiveBusyError as error:
            self.send(LiveMessage(id=request.id, status="failed", engine=name, code=error.code))
            return
        except EngineError as error:
            log.warning("live analysis failed: %s", error)
            self.send(LiveMessage(id=request.id, status="failed", engine=searches.name, code=error.code))
            return
        finally:
            await search.aclose()
        if unsent is not None:
            lines = await loop.run_in_executor(self.cpu, live_lines, board, unsent)
        self.send(LiveMessage(id=request.id, status="done", engine=searches.name, lines=lines))

    def close(self) -> None:
        """The connection ended: stop its search quietly."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()


# -- the websocket ---------------------------------------------------------------------------------


def live_routes(
    searches: Callable[[], Mapping[str, LiveSearches]], settings: LiveSettings, limits: ServerLimits,
    foreign_origin: Callable[[WebSocket], bool], cpu: Callable[[], Executor | None],
) -> list[BaseRoute]:
    """The ``/ws/analysis`` route (see the module docstring).  *searches* gives the engines by
    name (``builtin``, ``usi``) and *cpu* the executor for positions and notations; both are
    read when a connection opens (the app builds them at startup)."""
    per_address = ConcurrencyLimit(settings.connections_per_address)

    async def refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
        await websocket.send_text(encode_message(error_message(code, message)))
        await websocket.close(code=close_code)

    async def live_socket(websocket: WebSocket, params: dict[str, Any]) -> None:
        await websocket.accept()
        if foreign_origin(websocket):
            await refuse(websocket, "bad_origin", "connections from other sites are not accepted", 4403)
            return
        engines = searches()
        if not engines:
            await refuse(websocket, "no_engine", "this server has no engine for live analysis", 1011)
            return
        address = client_address(websocket)
        if not per_address.enter(address):
            await refuse(websocket, "busy", "too many live analyses from your address", 1013)
            return
        connection = Connection(websocket, Role.SPECTATOR, max_bytes=limits.queued_bytes,
                                send_seconds=limits.send_seconds)
        viewer = LiveViewer(engines, connection.send, settings, cpu())
        try:
            await run_connection(connection, read_messages(
                connection, TokenBucket(settings.request_burst, settings.requests_per_second),
                settings.refusals_before_close, lambda data: _answer(connection, viewer, data),
                too_fast="too many requests: slow down"))
        finally:
            viewer.close()
            per_address.leave(address)

    return [CheckedWebSocketRoute("/ws/analysis", live_socket)]


async def _answer(connection: Connection, viewer: LiveViewer, data: str | bytes | None) -> None:
    """Check one request of the live socket and carry it out (a refused one is answered)."""
    try:
        message = read_live_message(data)
    except RequestError as error:
        connection.send(error_message(error.code, str(error)))
        return
    if isinstance(message, LiveStop):
        viewer.stop()
    else:
        viewer.start(message)
