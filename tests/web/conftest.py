"""Fixtures for the web tests: an app on an in-memory or file database, a stand-in engine, and
websocket helpers."""

from __future__ import annotations

import asyncio
import os
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

# Starlette suggests httpx2 for its test client; httpx works the same for these tests.
warnings.filterwarnings("ignore", message=".*httpx2.*")

from starlette.testclient import TestClient, WebSocketTestSession  # noqa: E402
from tests.web.live_server import RedisServer, start_redis  # noqa: E402

from shogiban.web.app import create_app  # noqa: E402
from shogiban.web.thinking import ThinkRequest, ThinkResult  # noqa: E402


@dataclass
class StandInEngine:
    """A stand-in for the built-in engine: plays scripted moves (USI, or "resign", "win",
    "illegal:<usi>", "fail"), then the first legal move.  Records every request."""

    script: list[str] = field(default_factory=list)
    delay: float = 0.0
    calls: list[ThinkRequest] = field(default_factory=list)
    released: list[str] = field(default_factory=list)

    async def think(self, request: ThinkRequest) -> ThinkResult:
        from shogiban.errors import EngineError

        self.calls.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.script:
            step = self.script.pop(0)
            if step == "resign":
                return ThinkResult(move=None)
            if step == "win":
                return ThinkResult(move=None, declare_win=True)
            if step == "fail":
                raise EngineError("stand-in engine crashed")
            if step.startswith("illegal:"):
                return ThinkResult(move=step[8:])
            return ThinkResult(move=step)
        board = request.board()
        move = next(iter(board.legal_moves))
        return ThinkResult(move=move.usi(), score_cp=12)

    async def release(self, game_id: str) -> None:
        self.released.append(game_id)

    async def close(self) -> None:
        """Nothing to stop."""


POSTGRES_URL_VARIABLE = "SHOGIBAN_TEST_POSTGRES_URL"


def postgres_url() -> str:
    """An empty PostgreSQL database for one test, from ``$SHOGIBAN_TEST_POSTGRES_URL`` (set by
    ``.ci/run``, which starts Debian's PostgreSQL); the test skips when there is none."""
    url = os.environ.get(POSTGRES_URL_VARIABLE)
    if not url:
        pytest.skip(f"PostgreSQL tests need ${POSTGRES_URL_VARIABLE} (e.g. postgresql+psycopg://user:pw@localhost/db)")
    pytest.importorskip("psycopg", reason="PostgreSQL tests need the psycopg driver (the test extra)")
    from sqlalchemy import create_engine
    from sqlalchemy.exc import OperationalError

    from shogiban.web.store import Base

    engine = create_engine(url)
    try:
        Base.metadata.drop_all(engine)
    except OperationalError as error:
        pytest.fail(f"${POSTGRES_URL_VARIABLE} is set but PostgreSQL cannot be reached: {error}")
    finally:
        engine.dispose()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def durable_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A database that outlives a server: a SQLite file, and PostgreSQL when available."""
    if request.param == "postgresql":
        return postgres_url()
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def engine() -> StandInEngine:
    """The stand-in engine of the app fixtures."""
    return StandInEngine()


@pytest.fixture
def make_client(engine: StandInEngine) -> Iterator[Callable[..., TestClient]]:
    """``make_client(database_url="sqlite://", **create_app_options)``: a started TestClient
    (closed at the end of the test)."""
    opened: list[TestClient] = []

    def make(database_url: str = "sqlite://", **options: Any) -> TestClient:
        options.setdefault("engines", engine)
        options.setdefault("heartbeat", 3600.0)
        client = TestClient(create_app(database_url=database_url, **options))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """A started client on a fresh in-memory database."""
    return make_client()


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    """Create a game; returns the answer (id, token, color, ...).  Clears the cookie jar so each
    connection says who it is explicitly."""
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    client.cookies.clear()
    answer: dict[str, Any] = response.json()
    return answer


def invite_of(game: dict[str, Any]) -> str:
    """The invitation secret of a friend's game, from its ``invite_url``."""
    url: str = game["invite_url"]
    return url.split("?invite=", 1)[1]


def receive(ws: WebSocketTestSession, kind: str | tuple[str, ...]) -> dict[str, Any]:
    """The next message of type *kind*, skipping presence notes (and other kinds)."""
    kinds = (kind,) if isinstance(kind, str) else kind
    for _ in range(50):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in kinds:
            return message
        if message["type"] == "error" and "error" not in kinds:
            raise AssertionError(f"unexpected error: {message}")
    raise AssertionError(f"no {kind} message")


def join_as(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    """Read the first state, say hello with *token*, return the state for that role."""
    state = receive(ws, "state")
    if token is not None:
        ws.send_json({"type": "hello", "token": token})
        state = receive(ws, "state")
    return state


def play(ws: WebSocketTestSession, usi: str, ply: int) -> dict[str, Any]:
    """Send a move and return its ``move`` broadcast, or the error (other messages are skipped)."""
    ws.send_json({"type": "move", "usi": usi, "ply": ply})
    for _ in range(50):
        message = receive(ws, ("move", "error"))
        if message["type"] == "error" or (message["move"]["usi"] == usi and message["move"]["ply"] == ply + 1):
            return message
    raise AssertionError(f"no answer to {usi}")


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A private redis-server for the module's tests (start_redis: no saving, a free port)."""
    server = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.stop()
