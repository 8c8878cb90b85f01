"""Engine workers on a Redis job queue (issue 30, first part): ``shogiban worker`` thinks the
computer moves and hints of the web processes; a dead worker's job is thought again elsewhere."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tests.web.live_server import SRC, LiveServer, RedisServer, free_port, start_redis, start_server

from shogiban.board import Board
from shogiban.errors import EngineError
from shogiban.move import Move
from shogiban.sfen import STARTING_SFEN
from shogiban.web.thinking import ThinkRequest, ThinkResult

pytestmark = [
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs Debian's redis-server"),
    pytest.mark.skipif(
        any(__import__("importlib").util.find_spec(name) is None for name in ("redis", "rq")),
        reason="needs the redis and rq packages (pip install shogiban[scale])",
    ),
]


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    name: str
    log: Path

    def log_text(self) -> str:
        return self.log.read_text("utf-8", "replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # RQ: a warm shutdown
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_worker(tmp: Path, redis_url: str, name: str, *extra: str) -> Worker:
    """``shogiban worker`` in a subprocess, once its heartbeat is in Redis."""
    import redis

    from shogiban.web.job_queue import QUEUES, workers_key

    log = tmp / f"worker-{name}.log"
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    process = subprocess.Popen(
        [sys.executable, "-m", "shogiban", "worker", "--redis", redis_url, "--name", name, *extra],
        env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    worker = Worker(process, name, log)
    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + 60
    try:
        while not any(client.zscore(workers_key(queue), name) is not None for queue in QUEUES):
            if process.poll() is not None:
                raise RuntimeError(f"shogiban worker exited: {worker.log_text()[-2000:]}")
            assert time.monotonic() < deadline, "the worker never sent its heartbeat"
            time.sleep(0.1)
    finally:
        client.close()
    return worker


@dataclass
class LocalEngines:
    """The in-process engines' stand-in: says it answered."""

    calls: list[ThinkRequest] = field(default_factory=list)

    async def think(self, request: ThinkRequest) -> ThinkResult:
        self.calls.append(request)
        return ThinkResult(move="resign-from-local")

    async def release(self, game_id: str) -> None:
        pass

    async def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def worker(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    started = start_worker(tmp_path_factory.mktemp("worker"), redis_server.url, "solo")
    try:
        yield started
    finally:
        started.stop()


def legal(sfen: str, moves: tuple[str, ...], usi: str) -> bool:
    board = Board(sfen)
    for played in moves:
        board.push_legal(Move.from_usi(played))
    return Move.from_usi(usi) in set(board.legal_moves)


def test_a_worker_answers_with_a_legal_move(redis_server: RedisServer, worker: Worker) -> None:
    from shogiban.web.job_queue import QueuedEngines

    async def main() -> tuple[ThinkResult, int]:
        engines = QueuedEngines(local, redis_server.url)
        try:
            result = await engines.think(ThinkRequest(STARTING_SFEN, ("7g7f",), level=1, movetime=0.2, game_id="g1"))
            return result, engines.queued_jobs
        finally:
            await engines.close()

    local = LocalEngines()
    result, queued = asyncio.run(main())
    assert local.calls == []  # thought by the worker
    assert queued == 1
    assert result.move is not None
    assert legal(STARTING_SFEN, ("7g7f",), result.move)
    assert "answered" in worker.log_text()


def test_computer_moves_go_before_hints(redis_server: RedisServer, worker: Worker) -> None:
    from shogiban.web.job_queue import QueuedEngines

    async def ask(engines: QueuedEngines, game: str, hint: bool, after: float, level: int = 1,
                  movetime: float = 0.05) -> None:
        await asyncio.sleep(after)
        await engines.think(ThinkRequest(STARTING_SFEN, (), level=level, movetime=movetime, game_id=game, hint=hint))

    async def main() -> None:
        engines = QueuedEngines(LocalEngines(), redis_server.url)
        try:
            await asyncio.gather(
                ask(engines, "busy", False, 0.0, level=8, movetime=1.5),  # keeps the only worker busy
                ask(engines, "hint-1", True, 0.3), ask(engines, "hint-2", True, 0.4),
                ask(engines, "move-1", False, 0.6), ask(engines, "move-2", False, 0.7),
            )
        finally:
            await engines.close()

    before = worker.log_text()
    asyncio.run(main())
    answered = [line.split(" for game ")[1].split()[0] for line in worker.log_text()[len(before):].splitlines()
                if " answered " in line]
    assert answered == ["busy", "move-1", "move-2", "hint-1", "hint-2"], answered


def test_a_bad_sfen_is_refused_once_with_its_error(redis_server: RedisServer, worker: Worker) -> None:
    from shogiban.web.job_queue import QueuedEngines

    async def main() -> int:
        engines = QueuedEngines(LocalEngines(), redis_server.url)
        try:
            with pytest.raises(EngineError, match=r"refused.*sfen"):
                await engines.think(ThinkRequest("not a position", (), level=1, movetime=0.1, game_id="poison"))
            return engines.queued_jobs
        finally:
            await engines.close()

    assert asyncio.run(main()) == 1  # not retried
    # The worker lives on and takes the next job.
    test_a_worker_answers_with_a_legal_move(redis_server, worker)


def test_a_crashing_engine_process_is_answered_and_the_worker_lives_on(redis_server: RedisServer,
                                                                       worker: Worker) -> None:
    import redis
    from rq import Queue

    from shogiban.web.job_queue import MOVES_QUEUE, REPLY_PREFIX

    client = redis.Redis.from_url(redis_server.url)
    try:
        moves = Queue(MOVES_QUEUE, connection=client)
        job = moves.enqueue_call("os._exit", args=(3,), job_id="crashing", failure_ttl=60)  # the horse dies
        reply = client.blpop([REPLY_PREFIX + job.id], timeout=30)  # the horse died: the worker says so at once
        assert reply is not None
        assert json.loads(reply[1])["code"] == "engine_failed"
    finally:
        client.close()
    assert worker.process.poll() is None
    test_a_worker_answers_with_a_legal_move(redis_server, worker)


@pytest.mark.slow
def test_a_hanging_engine_loses_on_its_deadline_and_the_worker_lives_on(redis_server: RedisServer,
                                                                         worker: Worker) -> None:
    from shogiban.errors import EngineTimeoutError
    from shogiban.web.job_queue import QUEUE_MARGIN, QueuedEngines

    async def main() -> float:
        engines = QueuedEngines(LocalEngines(), redis_server.url)
        try:
            thinking = asyncio.ensure_future(engines.think(
                ThinkRequest(STARTING_SFEN, (), level=8, movetime=1.0, game_id="hangs")))
            horse = ""
            while not horse:  # the worker's work horse, once it has forked it
                await asyncio.sleep(0.05)
                horse = subprocess.run(["pgrep", "-P", str(worker.process.pid)], capture_output=True,
                                       text=True).stdout.strip()
            os.kill(int(horse.split()[0]), signal.SIGSTOP)  # the engine hangs
            started = time.monotonic()
            with pytest.raises(EngineTimeoutError):
                await thinking
            return time.monotonic() - started
        finally:
            await engines.close()

    waited = asyncio.run(main())
    assert waited < 1.0 + 1.0 + QUEUE_MARGIN + 1.0  # the search's time, its grace, the queue's margin
    assert worker.process.poll() is None
    test_a_worker_answers_with_a_legal_move(redis_server, worker)  # the hung horse was stopped


@pytest.mark.slow
def test_a_job_whose_workers_die_twice_fails_cleanly(redis_server: RedisServer, tmp_path: Path) -> None:
    from shogiban.errors import EngineTerminatedError
    from shogiban.web.job_queue import QueuedEngines

    url = redis_server.url.rsplit("/", 1)[0] + "/8"
    workers = [start_worker(tmp_path, url, name) for name in ("first", "second")]

    async def kill_the_one_thinking(skip: set[str]) -> str:
        while True:
            for w in workers:
                if w.name not in skip and "thinking for game twice" in w.log_text():
                    os.kill(w.process.pid, signal.SIGKILL)
                    return w.name
            await asyncio.sleep(0.05)

    async def main() -> None:
        engines = QueuedEngines(local, url)
        try:
            thinking = asyncio.ensure_future(engines.think(
                ThinkRequest(STARTING_SFEN, (), level=8, movetime=10, game_id="twice")))
            first = await kill_the_one_thinking(set())
            await kill_the_one_thinking({first})  # the retry, on the other worker
            with pytest.raises(EngineTerminatedError, match="lost twice"):
                await thinking
        finally:
            await engines.close()

    local = LocalEngines()
    try:
        asyncio.run(main())
    finally:
        for w in workers:
            w.stop()
    assert local.calls == []  # failed, not thought a third time
    assert jobs_left(url) == dict.fromkeys(jobs_left(url), 0)


def test_a_cancelled_think_stops_its_job(redis_server: RedisServer, worker: Worker) -> None:
    from shogiban.web.job_queue import QueuedEngines

    async def main() -> None:
        engines = QueuedEngines(LocalEngines(), redis_server.url)
        try:
            thinking = asyncio.ensure_future(engines.think(
                ThinkRequest(STARTING_SFEN, (), level=8, movetime=20, game_id="undone")))
            await asyncio.sleep(1.0)
            thinking.cancel()  # as a room does after an undo
            with pytest.raises(asyncio.CancelledError):
                await thinking
        finally:
            await engines.close()

    started = time.monotonic()
    asyncio.run(main())
    deadline = time.monotonic() + 10
    while any(jobs_left(redis_server.url).values()):
        assert time.monotonic() < deadline, jobs_left(redis_server.url)
        time.sleep(0.1)
    test_a_worker_answers_with_a_legal_move(redis_server, worker)  # at once: the search was stopped
    assert time.monotonic() - started < 10


def test_a_job_discarded_before_its_worker_began_it_is_dropped(redis_server: RedisServer, worker: Worker) -> None:
    """The race behind a cancelled think that ran its whole time under load: discard_job found
    the job still queued and deleted it while a worker had just taken it.  The worker's horse
    must drop such a job instead of thinking it (here for 20 s)."""
    import redis
    from rq import Queue
    from rq.job import Job, JobStatus

    from shogiban.web.job_queue import MOVES_QUEUE, REPLY_PREFIX, discard_job, request_payload, run_think

    client = redis.Redis.from_url(redis_server.url)
    try:
        discard_job(client, "raced")  # the web side gave up on it; no job by that id is left
        request = ThinkRequest(STARTING_SFEN, (), level=8, movetime=20, game_id="raced")
        # As if the worker had taken the job just before the discard: it reaches the worker anyway.
        Queue(MOVES_QUEUE, connection=client).enqueue_call(
            run_think, args=(request_payload(request) | {"reply": "raced"},), job_id="raced", timeout=30)
        job = Job.fetch("raced", connection=client)
        deadline = time.monotonic() + 60
        while job.get_status(refresh=True) not in (JobStatus.FINISHED, JobStatus.FAILED):
            assert time.monotonic() < deadline, job.get_status()
            time.sleep(0.1)
        assert job.return_value() == {"discarded": True}
        assert client.lrange(REPLY_PREFIX + "raced", 0, -1) == []  # not even "started"
        assert "dropped job raced" in worker.log_text()
    finally:
        client.close()


def test_without_a_live_worker_the_web_process_thinks_in_process(redis_server: RedisServer) -> None:
    from shogiban.web.job_queue import QueuedEngines

    empty = redis_server.url.rsplit("/", 1)[0] + "/5"  # a database no worker watches

    async def main() -> ThinkResult:
        engines = QueuedEngines(local, empty)
        try:
            return await engines.think(ThinkRequest(STARTING_SFEN, (), level=1, movetime=0.1))
        finally:
            await engines.close()

    local = LocalEngines()
    assert asyncio.run(main()).move == "resign-from-local"
    assert len(local.calls) == 1


def test_a_computer_move_is_not_sent_to_a_queue_no_worker_takes(redis_server: RedisServer, tmp_path: Path) -> None:
    from shogiban.web.job_queue import QueuedEngines

    url = redis_server.url.rsplit("/", 1)[0] + "/7"
    hints_only = start_worker(tmp_path, url, "hints-only", "--queues", "hints")

    async def main() -> tuple[ThinkResult, ThinkResult]:
        engines = QueuedEngines(local, url)
        try:
            move = await engines.think(ThinkRequest(STARTING_SFEN, (), level=1, movetime=0.1))
            hint = await engines.think(ThinkRequest(STARTING_SFEN, (), level=1, movetime=0.1, hint=True))
            return move, hint
        finally:
            await engines.close()

    local = LocalEngines()
    try:
        move, hint = asyncio.run(main())
    finally:
        hints_only.stop()
    assert move.move == "resign-from-local"  # in-process
    assert hint.move is not None
    assert legal(STARTING_SFEN, (), hint.move)  # by the worker
    assert len(local.calls) == 1


def test_without_redis_the_web_process_thinks_in_process() -> None:
    from shogiban.web.job_queue import QueuedEngines

    async def main() -> ThinkResult:
        engines = QueuedEngines(local, f"redis://127.0.0.1:{free_port()}/0")
        try:
            return await engines.think(ThinkRequest(STARTING_SFEN, (), level=1, movetime=0.1))
        finally:
            await engines.close()

    local = LocalEngines()
    assert asyncio.run(main()).move == "resign-from-local"


def test_a_full_queue_refuses_hints_and_thinks_moves_in_process(redis_server: RedisServer) -> None:
    import redis

    from shogiban.web.job_queue import HINTS_QUEUE, MOVES_QUEUE, QueuedEngines, workers_key

    url = redis_server.url.rsplit("/", 1)[0] + "/6"
    client = redis.Redis.from_url(url)
    for queue in (MOVES_QUEUE, HINTS_QUEUE):
        client.zadd(workers_key(queue), {"idle": time.time() + 60})  # a worker that takes nothing
        client.rpush(f"rq:queue:{queue}", "a", "b")

    async def main() -> ThinkResult:
        engines = QueuedEngines(local, url, max_queued=2)
        try:
            with pytest.raises(EngineError, match="busy") as refused:
                await engines.think(ThinkRequest(STARTING_SFEN, (), level=1, movetime=0.1, hint=True))
            assert refused.value.code == "busy"
            return await engines.think(ThinkRequest(STARTING_SFEN, (), level=1, movetime=0.1))
        finally:
            await engines.close()

    local = LocalEngines()
    try:
        assert asyncio.run(main()).move == "resign-from-local"
    finally:
        client.flushdb()
        client.close()


def test_a_worker_without_its_redis_says_which_and_what_to_do() -> None:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    url = f"redis://127.0.0.1:{free_port()}/0"
    done = subprocess.run([sys.executable, "-m", "shogiban", "worker", "--redis", url],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"cannot reach Redis at {url}" in done.stderr
    assert "start redis-server" in done.stderr


# -- two web processes, two workers ---------------------------------------------------------------

def until_ply(ws: object, ply: int, timeout: float = 30.0) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"ply {ply} never arrived"
        message: dict[str, object] = json.loads(ws.recv(timeout=left))  # type: ignore[attr-defined]
        position = message.get("position")
        if isinstance(position, dict) and position.get("ply") == ply:
            return message


def answers(worker: Worker) -> int:
    return worker.log_text().count(" answered ")


def jobs_left(url: str) -> dict[str, int]:
    import redis
    from rq import Queue

    from shogiban.web.job_queue import QUEUES

    client = redis.Redis.from_url(url)
    try:
        left = {}
        for name in QUEUES:
            queue = Queue(name, connection=client)
            left[name] = len(queue) + len(queue.started_job_registry)
        return left
    finally:
        client.close()


@pytest.mark.slow
def test_two_web_processes_play_through_two_workers_and_survive_a_kill(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    redis = start_redis(tmp_path)
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    servers: list[LiveServer] = []
    workers: list[Worker] = []
    try:
        for name in ("a", "b"):
            servers.append(start_server(tmp_path, "--redis", redis.url, db=db, name=name))  # noqa: PERF401 - one by one
        for name in ("w1", "w2"):
            workers.append(start_worker(tmp_path, redis.url, name))  # noqa: PERF401 - one by one
        a, b = servers
        # A computer game at level 1: its replies come from the workers.
        status, game, _ = a.post_json("/api/games", json.dumps(
            {"mode": "computer", "level": 1, "color": "b", "time": {"main": 600, "byoyomi": 10}}))
        assert status == 201, game
        cookie = {"Cookie": f"sb_{game['id']}={game['token']}"}
        with connect(f"{b.ws_base}/ws/games/{game['id']}", additional_headers=cookie, max_queue=None) as ws:
            until_ply(ws, 0)
            for ply, usi in ((0, "7g7f"), (2, "2g2f")):
                ws.send(json.dumps({"type": "move", "usi": usi, "ply": ply}))
                until_ply(ws, ply + 1)
                reply = until_ply(ws, ply + 2)
                assert reply.get("outcome") is None
        assert sum(answers(w) for w in workers) == 2
        # A strong search, then kill -9 of the worker thinking it: the other answers in time.
        status, game, _ = a.post_json("/api/games", json.dumps(
            {"mode": "computer", "level": 8, "color": "b", "time": {"main": 0, "byoyomi": 6}}))
        assert status == 201, game
        cookie = {"Cookie": f"sb_{game['id']}={game['token']}"}
        with connect(f"{a.ws_base}/ws/games/{game['id']}", additional_headers=cookie, max_queue=None) as ws:
            until_ply(ws, 0)
            counts = [answers(w) for w in workers]
            ws.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
            until_ply(ws, 1)
            asked = time.monotonic()
            thinking = None
            while thinking is None:
                assert time.monotonic() - asked < 10, "no worker took the job"
                for w in workers:
                    if f"thinking for game {game['id']}" in w.log_text():
                        thinking = w
                time.sleep(0.05)
            time.sleep(1.0)  # mid-think
            os.kill(thinking.process.pid, signal.SIGKILL)
            thinking.process.wait(10)
            reply = until_ply(ws, 2, timeout=15)
            took = time.monotonic() - asked
            assert reply.get("outcome") is None, reply  # the engine did not lose: the other worker answered
            other = workers[1 - workers.index(thinking)]
            assert answers(other) == counts[workers.index(other)] + 1
            assert took < 6 + 1 + 2, took  # within the byoyomi, its grace and the queue's margin
            print(f"move after kill -9 of {thinking.name}: {took:.2f} s after it was asked")
            assert "stopped its heartbeat: thinking game" in a.log_text()  # retried once, elsewhere
        time.sleep(0.5)
        assert jobs_left(redis.url) == dict.fromkeys(jobs_left(redis.url), 0)
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.stop()
        for w in workers:
            w.stop()
        redis.stop()
    # No process left behind: the killed worker's work horse died with it.
    leftover = subprocess.run(["pgrep", "-f", f"shogiban worker --redis {redis.url}"], capture_output=True, text=True)
    assert leftover.stdout.strip() == "", leftover.stdout
