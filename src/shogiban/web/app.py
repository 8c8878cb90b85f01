"""The Starlette application: pages, the JSON API, the game websocket and the static files.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(database_url="sqlite://", engines=None)) as client:
...     client.post("/api/games", json={"mode": "local"}).json()["color"]
'b'

HTTP API (errors are ``{"type": "error", "code", "message"}`` with a 4xx status, 503 when the
server is busy or its storage fails):

* ``GET  /api/config`` -- levels, engines, handicaps.
* ``GET  /healthz`` -- the process answers; ``GET /readyz`` -- and its database does (else 503
  ``not_ready``).
* ``POST /api/games`` -- new game (see :func:`shogiban.web.newgame.parse_new_game`); sets the
  player's cookie and returns ``{id, token, color, url, private_url}``, and for a friend's game
  ``invite_url``: the friend's single-use invitation (``url`` only lets people watch).
* ``GET  /api/games/{id}`` -- the game as the cookie's holder sees it (the ``state`` message; a
  player also gets ``token``, and ``invite_url`` while the friend's seat is open).
* ``POST /api/games/{id}/join`` -- ``{"invite"}``: take the open seat of a friend's game.
* ``GET  /api/games/{id}/record.{kif|ki2|csa|jkf|sfen}`` -- download.
* ``POST|GET|DELETE /api/games/{id}/analysis`` -- whole-game analysis of a finished game: start it
  (202; the stored result at once, 200, when there is one), where it is, cancel it (see
  :mod:`shogiban.web.game_analysis`).
* ``POST /api/records/analysis`` -- ``{"sfen", "moves"}``: analyse a record's main line (from the
  record viewer); answers its ``key`` (the sha256 of the normalised record) and status, 202, or at
  once the stored result, 200, when that record was analysed before.
  ``GET|DELETE /api/records/analysis/{key}`` -- where it is (with the record's moves), cancel it.
* ``POST /api/records`` -- read a record (raw file body, or JSON ``{"text"}``) into the viewer's tree.
* ``POST /api/records/export?format=kif`` -- convert a record (same body) for download.
* ``WS   /ws/games/{id}`` -- play and watch; see :mod:`shogiban.web.messages`.
* ``GET  /games/{id}/analysis`` -- the page reviewing a finished game's analysis
  (``static/js/pages/analysis.js``); ``GET /records/analysis/{key}`` -- the same page for a record.

Every route is a :class:`~shogiban.web.routing.CheckedRoute`: its parameters and body are
declared in :mod:`shogiban.web.schema` and checked before the handler runs.  Records are read and
written in worker processes (:mod:`shogiban.web.parsing`); rates are limited per connection and
per address (:mod:`shogiban.web.rates`).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import shlex
import time
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from shogiban.errors import ShogibanError
from shogiban.handicaps import HANDICAPS
from shogiban.web.bus import RedisBus
from shogiban.web.connections import Admission, Connection, read_messages, run_connection
from shogiban.web.editor import routes as editor_routes
from shogiban.web.editor import solver_pool
from shogiban.web.game_analysis import RECORD_PREFIX, AnalysisService, AnalysisSettings, prepare_record
from shogiban.web.i18n_routes import routes as i18n_routes
from shogiban.web.lease import CHECK_SECONDS as LEASE_CHECK_SECONDS
from shogiban.web.lease import RedisLeases
from shogiban.web.live_analysis import LiveEngines, LiveSearches, LiveSettings, live_routes
from shogiban.web.messages import (
    AnalysisMessage,
    ClientMessage,
    ErrorMessage,
    PongMessage,
    encode_message,
    error_message,
    parse_client_message,
)
from shogiban.web.newgame import parse_new_game
from shogiban.web.pages import STATIC, render_error_page, render_shell
from shogiban.web.parsing import ParseJob, ParsePool, ParseReply
from shogiban.web.practice import practice_routes
from shogiban.web.rates import ConcurrencyLimit, RateLimiter, ServerLimits, TokenBucket
from shogiban.web.records import RecordLimits, room_record
from shogiban.web.records import routes as record_routes
from shogiban.web.rooms import GameRoom, Role, RoomError, RoomManager, Services
from shogiban.web.routing import (
    Checked,
    CheckedRoute,
    CheckedWebSocketRoute,
    Upload,
    Uploaded,
    classify,
    client_address,
    error_response,
    exception_handlers,
)
from shogiban.web.schema import (
    EXPORT_QUERY,
    GAME_ID,
    GAME_PAGE_QUERY,
    JOIN,
    MAX_UPLOAD_BYTES,
    NEW_GAME,
    RECORD_ANALYSIS,
    RECORD_FORMAT,
    RECORD_KEY,
    RequestError,
    excerpt,
)
from shogiban.web.store import AsyncStore, GameStore, StoredRecord, default_database_url
from shogiban.web.thinking import BuiltinEngines, Thinker, UsiEngines, engine_available

log = logging.getLogger(__name__)

COOKIE_PREFIX = "sb_"
#: Seconds the database may take to answer a readiness probe.
READY_SECONDS = 2.0
_SENTINEL = object()

__all__ = ["Connection", "cookie_name", "create_app", "error_response"]


def cookie_name(game_id: str) -> str:
    """The cookie holding a player's token for *game_id* (a checked id: letters and digits)."""
    return COOKIE_PREFIX + game_id


def _foreign_origin(headers: Any, host: str | None) -> bool:
    """Whether a request comes from a page of another site (its ``Origin`` names another host):
    such requests may not create, join or play games with this browser's cookies."""
    origin: str | None = headers.get("origin")
    if origin == "null":
        return True  # a sandboxed or file page
    if not origin or host is None:
        return False  # not a browser page (scripts, tests) or no host to compare with
    hosts = {host.lower(), str(headers.get("x-forwarded-host", "")).lower()}  # behind a proxy
    try:
        netloc = urlsplit(origin).netloc.lower()
    except ValueError:  # an Origin that is not a URL at all
        return True
    return netloc not in hosts


def _set_token_cookie(response: Response, request: Request, game_id: str, token: str) -> None:
    # Secure when the visitor came over HTTPS (behind a proxy: its X-Forwarded-Proto, which
    # uvicorn believes from 127.0.0.1), so the token never travels in clear afterwards.
    response.set_cookie(
        cookie_name(game_id), token, max_age=400 * 24 * 3600, path="/", httponly=True, samesite="lax",
        secure=request.url.scheme == "https",
    )


def _reply_response(reply: ParseReply) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{reply.filename}"'} if reply.filename else None
    return Response(reply.body, status_code=reply.status, media_type=reply.media_type, headers=headers)


def _error_of(error: Exception) -> ErrorMessage:
    _, code, message = classify(error)
    params = getattr(error, "params", None)
    return error_message(code, message, params if isinstance(params, Mapping) else None)


async def _dispatch(room: GameRoom, connection: Connection, message: ClientMessage) -> None:
    if message["type"] == "move":
        text = message.get("text")
        if text is not None:
            await room.play_text(connection.role, text, message["ply"])
        else:
            await room.play(connection.role, message["usi"], message["ply"])
    elif message["type"] == "resign":
        await room.resign(connection.role)
    elif message["type"] == "undo":
        await room.undo(connection.role, message["ply"])
    elif message["type"] == "decline_undo":
        await room.decline_undo(connection.role)
    elif message["type"] == "hint":
        await room.hint(connection, message["ply"])
    elif message["type"] == "declare":
        await room.declare(connection.role, message["ply"])
    elif message["type"] == "impasse":
        await room.impasse(connection.role, message["ply"])
    elif message["type"] == "hello":
        token = message["token"]
        role = room.role_of(token)
        if token and role is Role.SPECTATOR:
            raise RoomError("bad_token", "this token does not belong to a player of this game")
        if token:
            connection.role = role
        connection.send(room.state_for(connection.role))
        room.broadcast_presence()
    elif message["type"] == "ping":
        connection.send(PongMessage())


def create_app(
    *,
    database_url: str | None = None,
    engine_command: str | None = None,
    engines: Thinker | object | None = _SENTINEL,
    usi: Thinker | None = None,
    workers: int | None = None,
    heartbeat: float = 2.0,
    now: Callable[[], float] = time.time,
    limits: ServerLimits | None = None,
    parse_pool: ParsePool | None = None,
    record_limits: RecordLimits | None = None,
    redis_url: str | None = None,
    analysis: AnalysisSettings | None = None,
    live: LiveSettings | None = None,
) -> Starlette:
    """Build the application.

    :param database_url: SQLAlchemy URL (default :func:`shogiban.web.store.default_database_url`).
    :param engine_command: a USI engine command line offered as an opponent.
    :param engines: the built-in engine service (default: a process pool, when the engine is
        installed; None for none).  Tests pass a stand-in.
    :param usi: a USI engine service (default: from *engine_command*).
    :param workers: engine worker processes (default: CPU count - 1).
    :param heartbeat: seconds between the "server alive" notes used to discount downtime.
    :param limits: rates and sizes (default :class:`~shogiban.web.rates.ServerLimits`).
    :param parse_pool: the record workers (default: a pool per *limits*, closed with the app;
        one passed in is left running).
    :param record_limits: how large uploaded records may be.
    :param redis_url: ``redis://HOST:PORT/N`` when this is one of several web processes on one
        database: each stored change is announced there, and games changed elsewhere are reloaded
        (:mod:`shogiban.web.bus`).
    :param analysis: the whole-game analysis' limit and queue (default
        :class:`~shogiban.web.game_analysis.AnalysisSettings`).
    :param live: the bounds of live analysis (default
        :class:`~shogiban.web.live_analysis.LiveSettings`).
    """
    url = database_url or default_database_url()
    limits = limits or ServerLimits()
    record_limits = record_limits or RecordLimits()
    live_settings = live or LiveSettings()
    state: dict[str, Any] = {}
    learn_routes = _learn_routes()
    admission = Admission(limits)
    game_starts = RateLimiter(limits.game_burst, limits.games_per_minute / 60, limits.tracked_addresses)
    uploads = RateLimiter(limits.upload_burst, limits.uploads_per_minute / 60, limits.tracked_addresses)
    analysis_requests = RateLimiter(limits.analysis_burst, limits.analyses_per_minute / 60, limits.tracked_addresses)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = AsyncStore(GameStore(url))
        if engines is _SENTINEL:
            builtin: Thinker | None = BuiltinEngines(workers) if engine_available() else None
            if builtin is not None and redis_url:
                from shogiban.web.job_queue import queued_engines

                builtin = queued_engines(builtin, redis_url)  # `shogiban worker`s think, when there are any
        else:
            builtin = engines  # type: ignore[assignment]
        usi_service = usi
        if usi_service is None and engine_command:
            usi_service = UsiEngines(engine_command)
        usi_name = getattr(usi_service, "name", None)
        cpu = ThreadPoolExecutor(max_workers=2, thread_name_prefix="shogiban-cpu")
        pool = parse_pool or ParsePool(limits.parse_workers, deadline=limits.parse_seconds, memory=limits.parse_memory)
        solver = solver_pool(limits)
        app.state.solver, app.state.solving = solver, ConcurrencyLimit(limits.solves_per_address)
        services = Services(store=store, engines=builtin, usi=usi_service, usi_name=usi_name, now=now, cpu=cpu)
        rooms = RoomManager(services)
        bus: RedisBus | None = None
        watcher: asyncio.Task[None] | None = None
        if redis_url:
            bus = RedisBus(redis_url, rooms.changed, on_resume=rooms.reload_all)
            await bus.start()  # BusError: the server does not start, and says why
            services.bus = bus
            services.leases = RedisLeases(bus.client, bus.origin)
        remote_analyses = None
        if redis_url:
            from shogiban.web.job_queue import queued_analyses

            remote_analyses = queued_analyses(redis_url)  # `shogiban worker`s analyse, when there are any
        analyses = AnalysisService(store, notify_analysis, analysis, remote=remote_analyses)
        live_engines: dict[str, LiveSearches] = {}
        if engine_available() or live_settings.command is not None:
            live_engines["builtin"] = LiveEngines(live_settings.command, live_settings.searches)
            if redis_url and live_settings.command is None:
                from shogiban.web.live_queue import queued_live

                # `shogiban worker`s search, when there are any
                live_engines["builtin"] = queued_live(live_engines["builtin"], redis_url, live_settings.searches)
        if engine_command:
            live_engines["usi"] = LiveEngines(shlex.split(engine_command), live_settings.searches)
        state.update(store=store, services=services, rooms=rooms, cpu=cpu, pool=pool, bus=bus, analyses=analyses,
                     live=live_engines)
        app.state.rooms = rooms
        app.state.store = store
        previous = await store.run(store.store.last_heartbeat)
        await store.run(store.store.heartbeat, now())
        restored = await rooms.restore(previous)
        if restored:
            log.info("restored %d games in progress", restored)
        beat = asyncio.create_task(_heartbeat(store, heartbeat, now))
        if services.leases is not None:
            watcher = asyncio.create_task(rooms.watch_owners(LEASE_CHECK_SECONDS))
        try:
            yield
        finally:
            beat.cancel()
            if watcher is not None:
                watcher.cancel()
            rooms.close()
            await analyses.close()
            if bus is not None:
                with contextlib.suppress(Exception):
                    await rooms.release_all()  # the others take over at once
                await bus.close()
            with contextlib.suppress(Exception):
                await store.run(store.store.heartbeat, now())
            for engines_of_live in live_engines.values():
                await engines_of_live.close()
            for service in (builtin, usi_service):
                if service is not None:
                    await service.close()
            if parse_pool is None:
                await pool.close()
            await solver.close()
            cpu.shutdown(wait=True)
            store.close()

    def rooms() -> RoomManager:
        manager: RoomManager = state["rooms"]
        return manager

    def notify_analysis(game_id: str, message: AnalysisMessage) -> None:
        # Only a room loaded here has subscribers here (a page elsewhere asks with GET).
        room = rooms().rooms.get(game_id)
        if room is not None:
            for subscriber in list(room.subscribers):
                subscriber.send(message)

    async def parse(job: ParseJob) -> Response:
        pool: ParsePool = state["pool"]
        return _reply_response(await pool.run(job))

    def refuse_foreign(connection: HTTPConnection) -> None:
        if _foreign_origin(connection.headers, connection.headers.get("host")):
            raise RequestError("bad_origin", "requests from other sites are not accepted", 403)

    def limit_uploads(request: Request) -> None:
        if not uploads.allow(client_address(request), time.monotonic()):
            raise RequestError("too_fast", "too many records at once: please wait a little", 429)

    def limit_analyses(request: Request) -> None:
        if not analysis_requests.allow(client_address(request), time.monotonic()):
            raise RequestError("too_fast", "too many analysis requests at once: please wait a little", 429)

    async def known_room(game_id: str) -> GameRoom:
        room = await rooms().get(game_id)
        if room is None:
            raise RequestError("unknown_game", f"unknown game: {excerpt(game_id)}", 404)
        return room

    async def page_home(request: Request, checked: Checked) -> Response:
        return render_shell(request, page="play", show_learn=bool(learn_routes))

    async def page_record(request: Request, checked: Checked) -> Response:
        return render_shell(request, page="record", title_key="ui.record.title", show_learn=bool(learn_routes))

    async def page_game(request: Request, checked: Checked) -> Response:
        game_id: str = checked.params["game_id"]
        token, invite = checked.query.get("token"), checked.query.get("invite")
        data: dict[str, Any] = {"game_id": game_id}
        if token or invite:
            room = await known_room(game_id)
            clean = f"/game/{game_id}"
            if token:
                # A player's own link: the token must belong to this game before it becomes a cookie.
                if room.role_of(token) is Role.SPECTATOR:
                    return render_error_page(request, status=403, code="bad_token",
                                             message="this link does not belong to a player of this game",
                                             link=(clean, "ui.game.watch"))
                response = RedirectResponse(clean, status_code=303)
                _set_token_cookie(response, request, game_id, token)
                return response
            if room.role_of(request.cookies.get(cookie_name(game_id))) is not Role.SPECTATOR:
                return RedirectResponse(clean, status_code=303)  # a player opening the invitation again
            if not room.invite_matches(invite):
                return render_error_page(request, status=403, code="bad_invite",
                                         message="this invitation is not valid for this game (it may have been used)",
                                         link=(clean, "ui.game.watch"))
            data["invite"] = invite
        return render_shell(request, page="game", title_key="ui.game.title", data=data, show_learn=bool(learn_routes))

    async def page_analysis(request: Request, checked: Checked) -> Response:
        game_id: str = checked.params["game_id"]
        await known_room(game_id)  # an unknown game: the 404 error page
        return render_shell(request, page="analysis", title_key="ui.analysis.title", data={"game_id": game_id},
                            show_learn=bool(learn_routes))

    async def page_record_analysis(request: Request, checked: Checked) -> Response:
        key: str = checked.params["key"]
        await known_record(key)  # an unknown record: the 404 error page
        return render_shell(request, page="analysis", title_key="ui.analysis.title", data={"record_key": key},
                            show_learn=bool(learn_routes))

    async def healthz(request: Request, checked: Checked) -> Response:
        """The process is alive and answering (for a load balancer's liveness probe)."""
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request, checked: Checked) -> Response:
        """The process can serve games: its database answers within a deadline."""
        store: AsyncStore = state["store"]
        try:
            await asyncio.wait_for(store.run(store.store.ping), READY_SECONDS)
        except (SQLAlchemyError, TimeoutError) as error:
            log.warning("not ready: the database cannot be reached: %s", error)
            raise RequestError("not_ready", "the database cannot be reached", 503) from None
        bus: RedisBus | None = state.get("bus")
        if bus is not None and not await bus.reachable():
            raise RequestError("not_ready", "Redis cannot be reached", 503)
        return JSONResponse({"status": "ready", "database": "ok", "redis": "ok" if bus is not None else None})

    async def api_config(request: Request, checked: Checked) -> Response:
        services: Services = state["services"]
        return JSONResponse({
            "levels": list(range(1, 9)),
            "engine": services.engines is not None,
            "usi": (getattr(services.usi, "name", None) or services.usi_name) if services.usi is not None else None,
            "handicaps": [{"japanese": h.japanese, "english": h.english, "sfen": h.sfen} for h in HANDICAPS],
            "learn": bool(learn_routes),
        })

    async def api_create(request: Request, checked: Checked) -> Response:
        services: Services = state["services"]
        refuse_foreign(request)
        loop = asyncio.get_running_loop()
        # Replaying up to 2,000 start moves is work for a thread, not for the event loop.
        setup = await loop.run_in_executor(state["cpu"], lambda: parse_new_game(
            checked.body, usi_available=services.usi is not None))
        if setup.mode == "computer" and setup.opponent == "engine" and services.engines is None:
            raise RequestError("no_engine", "the built-in engine is not available on this server")
        if not game_starts.allow(client_address(request), time.monotonic()):
            raise RequestError("too_fast", "too many new games at once: please wait a little", 429)
        room, token = await rooms().create(setup)
        body = {
            "id": room.id,
            "token": token,
            "color": "bw"[setup.color],
            "url": f"/game/{room.id}",
            "private_url": f"/game/{room.id}?token={token}",
        }
        if room.invite is not None:
            body["invite_url"] = f"/game/{room.id}?invite={room.invite}"
        response = JSONResponse(body, status_code=201)
        _set_token_cookie(response, request, room.id, token)
        return response

    async def api_game(request: Request, checked: Checked) -> Response:
        game_id: str = checked.params["game_id"]
        room = await known_room(game_id)
        token = request.cookies.get(cookie_name(game_id))
        role = room.role_of(token)
        body: dict[str, Any] = room.state_for(role).model_dump(mode="json")
        if role is not Role.SPECTATOR:
            body["token"] = token
            if room.invite is not None and room.open_seat is not None:
                body["invite_url"] = f"/game/{game_id}?invite={room.invite}"
        return JSONResponse(body)

    async def api_join(request: Request, checked: Checked) -> Response:
        game_id: str = checked.params["game_id"]
        refuse_foreign(request)
        room = await known_room(game_id)
        color, token = await room.join(request.cookies.get(cookie_name(game_id)), checked.body.get("invite"))
        response = JSONResponse({"id": game_id, "color": "bw"[color], "token": token,
                                 "private_url": f"/game/{game_id}?token={token}"})
        _set_token_cookie(response, request, game_id, token)
        return response

    async def api_record(request: Request, checked: Checked) -> Response:
        room = await known_room(checked.params["game_id"])
        limit_uploads(request)
        # Copied here (a few lists); built and written in a worker.
        return await parse(ParseJob("room", fmt=checked.params["fmt"], room=room_record(room), limits=record_limits))

    async def api_read_record(request: Request, checked: Checked) -> Response:
        limit_uploads(request)
        upload: Uploaded = checked.body
        return await parse(ParseJob("tree", upload.data, upload.is_json, limits=record_limits))

    async def api_export_record(request: Request, checked: Checked) -> Response:
        limit_uploads(request)
        upload: Uploaded = checked.body
        job = ParseJob("export", upload.data, upload.is_json, fmt=checked.query["format"], limits=record_limits)
        return await parse(job)

    async def finished_room(game_id: str) -> GameRoom:
        room = await known_room(game_id)
        if room.status != "over":
            raise RequestError("game_not_over", "this game is not over: it can be analysed when it ends", 409)
        return room

    def analysis_response(message: AnalysisMessage, status_code: int = 200) -> Response:
        return JSONResponse(message.model_dump(mode="json", exclude={"type", "v"}), status_code=status_code)

    async def stored_analysis(room: GameRoom) -> Response | None:
        stored = await state["analyses"].stored(room.id)
        if stored is None:
            return None
        analysed = [position.get("move") for position in stored.result.get("positions", ())][1:]
        if analysed != [played.usi for played in room.state.moves]:
            return None  # the game changed since (an undo after its end): that analysis is not of it
        total = len(stored.result.get("positions", ()))
        return analysis_response(AnalysisMessage(status="done", done=total, total=total, result=stored.result))

    async def api_start_analysis(request: Request, checked: Checked) -> Response:
        game_id: str = checked.params["game_id"]
        refuse_foreign(request)
        limit_analyses(request)
        room = await finished_room(game_id)
        answer = await stored_analysis(room)
        if answer is not None:
            return answer
        if not engine_available():
            raise RequestError("no_engine", "the built-in engine is not available on this server", 503)
        analyses: AnalysisService = state["analyses"]
        moves = tuple(played.usi for played in room.state.moves)
        return analysis_response(analyses.start(game_id, room.state.start_sfen, moves), 202)

    async def api_analysis(request: Request, checked: Checked) -> Response:
        game_id: str = checked.params["game_id"]
        room = await known_room(game_id)
        analyses: AnalysisService = state["analyses"]
        current = analyses.status(game_id)
        if current is not None and current.status != "failed":
            return analysis_response(current)
        answer = await stored_analysis(room)
        if answer is not None:
            return answer
        return analysis_response(current) if current is not None else JSONResponse({"status": "none"})

    async def api_cancel_analysis(request: Request, checked: Checked) -> Response:
        game_id: str = checked.params["game_id"]
        refuse_foreign(request)
        await known_room(game_id)
        analyses: AnalysisService = state["analyses"]
        cancelled = analyses.cancel(game_id)
        return analysis_response(cancelled) if cancelled is not None else JSONResponse({"status": "none"})

    async def known_record(key: str) -> StoredRecord:
        store: AsyncStore = state["store"]
        record = await store.run(store.store.load_record, key)
        if record is None:
            raise RequestError("unknown_record", f"unknown record analysis: {excerpt(key)}", 404)
        return record

    def record_answer(record: StoredRecord, message: AnalysisMessage | None, status_code: int = 200) -> Response:
        """Where the record's analysis is (``none``: never asked here, or cancelled), with the
        record itself (its moves in every notation, the positions at its ends), for the page."""
        body: dict[str, Any] = {"status": "none"}
        if message is not None:
            body = message.model_dump(mode="json", exclude={"type", "v"})
        body.update(key=record.key, url=f"/records/analysis/{record.key}", start_sfen=record.start_sfen,
                    moves=record.moves, position={"sfen": record.end_sfen})
        return JSONResponse(body, status_code=status_code)

    def record_status(record: StoredRecord) -> tuple[AnalysisMessage | None, int]:
        analyses: AnalysisService = state["analyses"]
        current = analyses.status(RECORD_PREFIX + record.key)
        if current is not None and current.status != "failed":
            return current, 202
        if record.analysis is not None:
            total = len(record.analysis.result.get("positions", ()))
            return AnalysisMessage(status="done", done=total, total=total, result=record.analysis.result), 200
        return current, 200

    async def api_start_record_analysis(request: Request, checked: Checked) -> Response:
        refuse_foreign(request)
        limit_analyses(request)
        analyses: AnalysisService = state["analyses"]
        store: AsyncStore = state["store"]
        body = checked.body
        loop = asyncio.get_running_loop()
        # Replaying up to a thousand moves (and writing each in every notation) is a thread's work.
        record = await loop.run_in_executor(state["cpu"], prepare_record, body["sfen"], body["moves"],
                                            analyses.settings.max_positions)
        stored = await store.run(store.store.load_record, record.key)
        if stored is not None:
            message, status_code = record_status(stored)
            if message is not None and message.status in ("done", "queued", "running"):
                return record_answer(stored, message, status_code)
            record = stored
        if not engine_available():
            raise RequestError("no_engine", "the built-in engine is not available on this server", 503)
        if stored is None:  # stored before its analysis starts, whose result updates it
            await store.run(store.store.add_record, record)
        moves = tuple(entry["usi"] for entry in record.moves)
        message = analyses.start(RECORD_PREFIX + record.key, record.start_sfen, moves,
                                 save=store.store.save_record_analysis)
        return record_answer(record, message, 202)

    async def api_record_analysis(request: Request, checked: Checked) -> Response:
        record = await known_record(checked.params["key"])
        message, _ = record_status(record)
        return record_answer(record, message)

    async def api_cancel_record_analysis(request: Request, checked: Checked) -> Response:
        refuse_foreign(request)
        record = await known_record(checked.params["key"])
        analyses: AnalysisService = state["analyses"]
        cancelled = analyses.cancel(RECORD_PREFIX + record.key)
        return record_answer(record, cancelled)

    async def game_socket(websocket: WebSocket, params: dict[str, Any]) -> None:
        game_id: str = params["game_id"]
        await websocket.accept()
        if _foreign_origin(websocket.headers, websocket.headers.get("host")):
            refusal = error_message("bad_origin", "connections from other sites are not accepted")
            await websocket.send_text(encode_message(refusal))
            await websocket.close(code=4403)
            return
        room = await rooms().get(game_id)
        if room is None:
            unknown = error_message("unknown_game", f"unknown game: {excerpt(game_id)}")
            await websocket.send_text(encode_message(unknown))
            await websocket.close(code=4404)
            return
        role = room.role_of(websocket.cookies.get(cookie_name(game_id)))
        address = client_address(websocket)
        refusal_reason = admission.admit(address, game_id, role)
        if refusal_reason is not None:
            await websocket.send_text(encode_message(error_message("busy", refusal_reason)))
            await websocket.close(code=1013)  # try again later
            return
        connection = Connection(websocket, role, max_bytes=limits.queued_bytes, send_seconds=limits.send_seconds)
        room.subscribe(connection)
        try:
            await run_connection(connection, read_messages(
                connection, TokenBucket(limits.message_burst, limits.messages_per_second),
                limits.refusals_before_close, lambda data: _answer(room, connection, data)))
        finally:
            room.unsubscribe(connection)
            admission.leave(address, game_id, role)
            rooms().forget_if_idle(room)

    routes: list[BaseRoute] = [
        CheckedRoute("/", page_home, page=True),
        CheckedRoute("/record", page_record, page=True),
        CheckedRoute("/game/{game_id}", page_game, params={"game_id": GAME_ID}, query=GAME_PAGE_QUERY, page=True),
        CheckedRoute("/games/{game_id}/analysis", page_analysis, params={"game_id": GAME_ID}, page=True),
        CheckedRoute("/api/config", api_config),
        CheckedRoute("/healthz", healthz),
        CheckedRoute("/readyz", readyz),
        CheckedRoute("/api/games", api_create, methods=["POST"], body=NEW_GAME),
        CheckedRoute("/api/games/{game_id}", api_game, params={"game_id": GAME_ID}),
        CheckedRoute("/api/games/{game_id}/join", api_join, methods=["POST"], params={"game_id": GAME_ID}, body=JOIN),
        CheckedRoute("/api/games/{game_id}/record.{fmt}", api_record,
                     params={"game_id": GAME_ID, "fmt": RECORD_FORMAT}),
        CheckedRoute("/api/games/{game_id}/analysis", api_start_analysis, methods=["POST"],
                     params={"game_id": GAME_ID}),
        CheckedRoute("/api/games/{game_id}/analysis", api_analysis, params={"game_id": GAME_ID}),
        CheckedRoute("/api/games/{game_id}/analysis", api_cancel_analysis, methods=["DELETE"],
                     params={"game_id": GAME_ID}),
        CheckedRoute("/records/analysis/{key}", page_record_analysis, params={"key": RECORD_KEY}, page=True),
        CheckedRoute("/api/records/analysis", api_start_record_analysis, methods=["POST"], body=RECORD_ANALYSIS),
        CheckedRoute("/api/records/analysis/{key}", api_record_analysis, params={"key": RECORD_KEY}),
        CheckedRoute("/api/records/analysis/{key}", api_cancel_record_analysis, methods=["DELETE"],
                     params={"key": RECORD_KEY}),
        CheckedRoute("/api/records", api_read_record, methods=["POST"], body=Upload(MAX_UPLOAD_BYTES)),
        CheckedRoute("/api/records/export", api_export_record, methods=["POST"], query=EXPORT_QUERY,
                     body=Upload(MAX_UPLOAD_BYTES)),
        CheckedWebSocketRoute("/ws/games/{game_id}", game_socket, params={"game_id": GAME_ID}),
        *i18n_routes,
        *editor_routes,
        *record_routes,
        *live_routes(lambda: state.get("live") or {}, live_settings, limits,
                     lambda socket: _foreign_origin(socket.headers, socket.headers.get("host")),
                     lambda: state.get("cpu")),
        *practice_routes(lambda: state.get("live") or {}, lambda: state.get("cpu"), limits.tracked_addresses),
        *learn_routes,
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=exception_handlers())


async def _answer(room: GameRoom, connection: Connection, data: str | bytes | None) -> None:
    """Check one message of a game's websocket and carry it out; anything refused is answered
    with an ``error`` (the connection stays open)."""
    try:
        message = parse_client_message(data)
        # Shielded: a client dropped meanwhile must not cut a move off between its store and its swap.
        await asyncio.shield(_dispatch(room, connection, message))
    except (RoomError, ShogibanError, SQLAlchemyError) as error:
        connection.send(_error_of(error))
    except Exception as error:  # a bug must not cost the player the connection; classify() logs it
        connection.send(_error_of(error))


async def _heartbeat(store: AsyncStore, every: float, now: Callable[[], float]) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            await store.run(store.store.heartbeat, now())
        except Exception as error:  # the database may be briefly unavailable; keep beating
            log.warning("heartbeat failed: %s", error)


def _learn_routes() -> list[BaseRoute]:
    """The lessons' and puzzles' routes, when that part is installed."""
    try:
        learn = importlib.import_module("shogiban.web.learn")
    except ModuleNotFoundError as error:
        if error.name == "shogiban.web.learn":
            return []
        raise
    return list(learn.routes)
