"""Whole-game analysis on the engine workers (issue 30): with a live ``shogiban worker`` taking
the ``analysis`` queue, a finished game's analysis runs there (the same result as in the web
process), its progress reaches the page and it can be cancelled; without one it runs in the web
process as before."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import receive
from tests.web.live_server import RedisServer
from tests.web.test_game_analysis import MOVES, TINY, analysis_messages, finished_game, wait_status
from tests.web.test_workers import Worker, start_worker

from shogiban.engines.limit import Limit
from shogiban.sfen import STARTING_SFEN
from shogiban.web.game_analysis import AnalysisJob, AnalysisSettings, run_analysis

pytestmark = [
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs Debian's redis-server"),
    pytest.mark.skipif(
        any(__import__("importlib").util.find_spec(name) is None for name in ("redis", "rq")),
        reason="needs the redis and rq packages (pip install shogiban[scale])",
    ),
]

#: A second a position: an analysis of :data:`MOVES` takes several seconds (time to cancel it).
SLOW = Limit(time=1.0)


@pytest.fixture(scope="module")
def worker(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    started = start_worker(tmp_path_factory.mktemp("worker"), redis_server.url, "analyst")
    try:
        yield started
    finally:
        started.stop()


def local_result(game_id: str) -> dict[str, object]:
    """The local path's analysis of :data:`MOVES` at :data:`TINY` (run here, in this process)."""
    return run_analysis(AnalysisJob(0, game_id, STARTING_SFEN, MOVES, TINY, 8, 1000)).result


def wait_log(worker: Worker, text: str, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while text not in worker.log_text():
        assert time.monotonic() < deadline, f"no {text!r} in the worker's log: {worker.log_text()[-2000:]}"
        time.sleep(0.05)


def test_a_finished_game_is_analysed_on_the_worker_as_in_process(
    make_client: Callable[..., TestClient], redis_server: RedisServer, worker: Worker,
) -> None:
    client = make_client(redis_url=redis_server.url, analysis=AnalysisSettings(limit=TINY, poll_seconds=0.01))
    game_id = finished_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws, "state")
        assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
        messages = analysis_messages(ws, "done")
    assert [m["done"] for m in messages] == sorted(m["done"] for m in messages)
    assert all(m["total"] == len(MOVES) + 1 for m in messages)
    wait_log(worker, f"analysed game {game_id}")
    assert f"analysing game {game_id}" in worker.log_text()
    result = messages[-1]["result"]
    assert result == local_result(game_id)
    assert client.get(f"/api/games/{game_id}/analysis").json()["result"] == result  # stored


def test_a_running_analysis_on_the_worker_reports_progress_and_can_be_cancelled(
    make_client: Callable[..., TestClient], redis_server: RedisServer, worker: Worker,
) -> None:
    client = make_client(redis_url=redis_server.url, analysis=AnalysisSettings(limit=SLOW, poll_seconds=0.05))
    game_id = finished_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws, "state")
        assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
        seen = []
        while not seen or seen[-1]["done"] < 1:  # a position done, reported by the worker
            seen.append(receive(ws, "analysis"))
            assert seen[-1]["status"] in ("queued", "running"), seen
        assert f"analysing game {game_id}" in worker.log_text()
        cancelled_at = time.monotonic()
        assert client.delete(f"/api/games/{game_id}/analysis").json()["status"] == "cancelled"
        assert analysis_messages(ws, "cancelled")
    wait_log(worker, f"analysed game {game_id}")
    assert time.monotonic() - cancelled_at < 3.0  # it stopped within a search or so, not at the end
    assert f"analysed game {game_id}" in worker.log_text()
    assert "(cancelled)" in worker.log_text()
    assert client.get(f"/api/games/{game_id}/analysis").json() == {"status": "none"}  # nothing stored


def test_without_a_live_analysis_worker_the_web_process_analyses(
    make_client: Callable[..., TestClient], redis_server: RedisServer, worker: Worker,
) -> None:
    # Another database of the same Redis: no worker's heartbeat there.
    url = redis_server.url.rsplit("/", 1)[0] + "/1"
    client = make_client(redis_url=url, analysis=AnalysisSettings(limit=TINY, poll_seconds=0.01))
    game_id = finished_game(client)
    assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
    result = wait_status(client, game_id, "done")["result"]
    assert result == local_result(game_id)
    assert f"game {game_id}" not in worker.log_text()


def test_a_bad_game_is_refused_once_with_its_code(redis_server: RedisServer, worker: Worker) -> None:
    from shogiban.errors import EngineError
    from shogiban.web.job_queue import QueuedAnalyses

    async def main() -> EngineError:
        analyses = QueuedAnalyses(redis_server.url)
        job = AnalysisJob(1, "badgame", "not a position", ("7g7f",), TINY, 1, 1000)
        try:
            with pytest.raises(EngineError) as refused:
                await analyses.analyse(job, lambda done, total: None, lambda: False, 0.05)
            assert analyses.queued_jobs == 1  # not sent again
            return refused.value
        finally:
            await analyses.close()

    error = asyncio.run(main())
    assert getattr(error, "code", None) == "invalid_sfen"
    assert worker.log_text().count("analysing game badgame") == 1


@pytest.mark.slow
def test_a_lost_analysis_worker_is_replaced_then_the_analysis_fails_cleanly(
    make_client: Callable[..., TestClient], redis_server: RedisServer, tmp_path: Path,
) -> None:
    url = redis_server.url.rsplit("/", 1)[0] + "/2"
    workers = [start_worker(tmp_path, url, name, "--queues", "analysis") for name in ("first", "second")]
    try:
        client = make_client(redis_url=url, analysis=AnalysisSettings(limit=SLOW, poll_seconds=0.05))
        game_id = finished_game(client)
        assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
        for _ in workers:  # kill whichever is analysing, twice: the second one took it again
            kill_the_one_analysing(workers, game_id)
        failed = wait_status(client, game_id, "failed", seconds=20)
        assert failed["code"] == "worker_lost"
    finally:
        for started in workers:
            started.stop()


@pytest.mark.slow
def test_a_lost_analysis_worker_with_none_left_is_replaced_by_the_web_process(
    make_client: Callable[..., TestClient], redis_server: RedisServer, tmp_path: Path,
) -> None:
    url = redis_server.url.rsplit("/", 1)[0] + "/3"
    alone = start_worker(tmp_path, url, "alone", "--queues", "analysis")
    try:
        client = make_client(redis_url=url, analysis=AnalysisSettings(limit=SLOW, poll_seconds=0.05))
        game_id = finished_game(client)
        assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
        kill_the_one_analysing([alone], game_id)
        done = wait_status(client, game_id, "done", seconds=30)
        assert done["result"]["cancelled"] is False
        assert "analysed game" not in alone.log_text()  # the web process did it
    finally:
        alone.stop()


def kill_the_one_analysing(workers: list[Worker], game_id: str) -> None:
    """``kill -9`` the live worker that is analysing *game_id* (once one is)."""
    deadline = time.monotonic() + 15
    while not (busy := [w for w in workers if w.process.poll() is None
                        and f"analysing game {game_id}" in w.log_text()]):
        assert time.monotonic() < deadline, "no worker took the analysis"
        time.sleep(0.05)
    os.kill(busy[0].process.pid, signal.SIGKILL)
    busy[0].process.wait()
