"""Live analysis on the engine workers (issue 30): with a ``shogiban worker`` taking the ``live``
queue, a viewer's lines come from it, and stopping the viewer stops the worker's search."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator

import pytest
from starlette.testclient import TestClient
from tests.web.live_server import RedisServer
from tests.web.test_live_analysis import live_messages
from tests.web.test_workers import Worker, start_worker

from shogiban import Board
from shogiban.engines.score import PovScore, Score
from shogiban.move import Move
from shogiban.pieces import Color
from shogiban.web.live_analysis import LiveSettings
from shogiban.web.live_queue import info_from_values, info_values

pytestmark = [
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs Debian's redis-server"),
    pytest.mark.skipif(
        any(__import__("importlib").util.find_spec(name) is None for name in ("redis", "rq")),
        reason="needs the redis and rq packages (pip install shogiban[scale])",
    ),
]


def test_a_line_crosses_the_queue_unchanged() -> None:
    board = Board()
    board.push(Move.from_usi("7g7f"))
    for score in (Score(cp=-35), Score(mate=-3), Score(mate=None, winning=True)):
        line = {"multipv": 2, "depth": 5, "nodes": 1234, "score": PovScore(score, Color.WHITE),
                "pv": [Move.from_usi("3c3d"), Move.from_usi("2g2f")]}
        assert info_from_values(info_values(line), board) == line  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def live_worker(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    started = start_worker(tmp_path_factory.mktemp("live-worker"), redis_server.url, "watcher", "--queues", "live")
    try:
        yield started
    finally:
        started.stop()


def wait_log(worker: Worker, text: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while text not in worker.log_text():
        assert time.monotonic() < deadline, f"no {text!r} in the worker's log: {worker.log_text()[-2000:]}"
        time.sleep(0.05)


@pytest.mark.timeout(120)
def test_the_lines_come_from_the_worker(
    make_client: Callable[..., TestClient], redis_server: RedisServer, live_worker: Worker,
) -> None:
    client = make_client(redis_url=redis_server.url, live=LiveSettings(searches=1, seconds=1.5))
    with client.websocket_connect("/ws/analysis") as ws:
        ws.send_json({"type": "analyse", "id": 3, "moves": ["7g7f"], "lines": 3})
        final = live_messages(ws, 3)[-1]
    assert final["status"] == "done"
    assert [line["multipv"] for line in final["lines"]] == [1, 2, 3]
    assert all(line["forms"][0]["usi"] == line["pv"][0] for line in final["lines"])
    wait_log(live_worker, "searching 3 lines live")
    wait_log(live_worker, "ended a live search")


@pytest.mark.timeout(120)
def test_stopping_the_viewer_stops_the_workers_search(
    make_client: Callable[..., TestClient], redis_server: RedisServer, live_worker: Worker,
) -> None:
    client = make_client(redis_url=redis_server.url, live=LiveSettings(searches=1, seconds=60))
    ended = live_worker.log_text().count("ended a live search")
    with client.websocket_connect("/ws/analysis") as ws:
        ws.send_json({"type": "analyse", "id": 4, "lines": 1})
        first = live_messages_running(ws, 4)
        assert first["lines"]
        ws.send_json({"type": "stop"})
        assert live_messages(ws, 4)[-1]["status"] == "stopped"
    deadline = time.monotonic() + 15  # far less than the search's 60 s
    while live_worker.log_text().count("ended a live search") == ended:
        assert time.monotonic() < deadline, live_worker.log_text()[-2000:]
        time.sleep(0.05)


def live_messages_running(ws: object, number: int) -> dict[str, object]:
    """The first ``running`` message of request *number* with lines."""
    from tests.web.conftest import receive

    while True:
        message = receive(ws, "live")  # type: ignore[arg-type]
        if message["id"] == number and message["status"] == "running" and message["lines"]:
            return message
        assert message["status"] == "running", message
