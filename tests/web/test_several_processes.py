"""Several ``shogiban serve`` processes on one database and one Redis (issue "Several web
processes", first part): a move accepted by one process reaches the clients of another, and a
ply is accepted once."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.web.live_server import LiveServer, RedisServer, next_message, start_redis, start_server, until_ply
from websockets.sync.client import connect

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs Debian's redis-server")


#: The Redis of the module's cluster (for the tests that look at its keys).
CLUSTER_REDIS: list[str] = []


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, LiveServer, LiveServer]]:
    pytest.importorskip("redis", reason="needs the redis package (pip install shogiban[scale])")
    tmp = tmp_path_factory.mktemp("cluster")
    redis: RedisServer = start_redis(tmp)
    CLUSTER_REDIS[:] = [redis.url]
    db = f"sqlite:///{tmp / 'games.sqlite3'}"  # one database for both processes
    servers: list[LiveServer] = []
    try:
        for name in ("a", "b", "c"):
            servers.append(start_server(tmp, "--redis", redis.url, db=db, name=name))  # noqa: PERF401 - one by one, so that a failed start still stops the others
        yield servers[0], servers[1], servers[2]
    finally:
        for server in servers:
            server.stop()
        redis.stop()


def test_a_move_on_one_process_reaches_the_players_on_another(
        cluster: tuple[LiveServer, LiveServer, LiveServer]) -> None:
    a, b, c = cluster
    status, game, _ = a.post_json("/api/games", json.dumps({"mode": "friend", "color": "b", "time": {"main": 600}}))
    assert status == 201
    invite = game["invite_url"].split("invite=")[1]
    status, joined, _ = b.post_json(f"/api/games/{game['id']}/join", json.dumps({"invite": invite}))
    assert status == 200, joined
    black = connect(f"{a.ws_base}/ws/games/{game['id']}", max_queue=None,
                    additional_headers={"Cookie": f"sb_{game['id']}={game['token']}"})
    white = connect(f"{b.ws_base}/ws/games/{game['id']}", max_queue=None,
                    additional_headers={"Cookie": f"sb_{game['id']}={joined['token']}"})
    spectator = connect(f"{c.ws_base}/ws/games/{game['id']}", max_queue=None)  # on the third process
    with black, white, spectator:
        assert until_ply(white, 0)["type"] == "state"
        until_ply(black, 0)
        until_ply(spectator, 0)
        black.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
        until_ply(black, 1)
        seen = until_ply(white, 1)  # through Redis: process b reloaded the game
        assert seen["position"]["last_move"] == "7g7f"  # type: ignore[index]
        white.send(json.dumps({"type": "move", "usi": "3c3d", "ply": 1}))
        until_ply(white, 2)
        assert until_ply(black, 2)["position"]["last_move"] == "3c3d"  # type: ignore[index]
        assert until_ply(spectator, 1)["position"]["last_move"] == "7g7f"  # type: ignore[index]
        assert until_ply(spectator, 2)["position"]["last_move"] == "3c3d"  # type: ignore[index]
    status, state, _ = b.request("GET", f"/api/games/{game['id']}")
    assert [m["usi"] for m in state["moves"]] == ["7g7f", "3c3d"]


def test_every_process_is_ready_with_redis(cluster: tuple[LiveServer, LiveServer, LiveServer]) -> None:
    for server in cluster:
        status, ready, _ = server.request("GET", "/readyz")
        assert status == 200
        assert ready == {"status": "ready", "database": "ok", "redis": "ok"}


def test_serve_refuses_to_start_without_its_redis(tmp_path: Path) -> None:
    pytest.importorskip("redis", reason="needs the redis package")
    from tests.web.live_server import free_port

    with pytest.raises(RuntimeError, match="cannot reach Redis"):
        start_server(tmp_path, "--redis", f"redis://127.0.0.1:{free_port()}/0")


@contextlib.contextmanager
def three_processes(tmp_path: Path) -> Iterator[list[LiveServer]]:
    """Three ``shogiban serve`` processes (owner, second, third) on one Redis and one database,
    all stopped at the end (those still running: a test may have killed one)."""
    redis = start_redis(tmp_path)
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    servers: list[LiveServer] = []
    try:
        for name in ("owner", "second", "third"):
            servers.append(start_server(tmp_path, "--redis", redis.url, db=db, name=name))  # noqa: PERF401 - one by one
        yield servers
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.stop()
        redis.stop()


@pytest.mark.slow  # three server processes and a lease to expire: about 10 s
def test_when_the_owner_of_a_game_dies_another_process_carries_on(tmp_path: Path) -> None:
    # kill -9 of the process that owns a computer game's clock and engine: another process takes
    # the game over (its lease expires in 3 s), every stored move kept, none played twice.
    pytest.importorskip("redis", reason="needs the redis package (pip install shogiban[scale])")
    import signal

    with three_processes(tmp_path) as servers:
        owner, second, _ = servers
        status, game, _ = owner.post_json("/api/games", json.dumps(
            {"mode": "computer", "level": 1, "color": "b", "time": {"main": 600, "byoyomi": 10}}))
        assert status == 201
        cookie = {"Cookie": f"sb_{game['id']}={game['token']}"}
        with connect(f"{second.ws_base}/ws/games/{game['id']}", additional_headers=cookie, max_queue=None) as ws:
            until_ply(ws, 0)
            ws.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
            answered = until_ply(ws, 2, timeout=30)  # the owner's engine answered, through Redis
            before = answered["clock"]["white"]  # type: ignore[index]
            os.kill(owner.process.pid, signal.SIGKILL)
            killed = time.monotonic()
            owner.process.wait(10)
            ws.send(json.dumps({"type": "move", "usi": "2g2f", "ply": 2}))
            until_ply(ws, 3)
            reply = until_ply(ws, 4, timeout=30)  # the engine of the process that took over
            outage = time.monotonic() - killed  # at least the lease's 3 s
            assert reply.get("outcome") is None
            # Fair clocks: the engine could not think while its game had no owner, so that wait
            # is charged to nobody: the engine's turn costs it its thinking (level 1: a fraction
            # of a second) and at most the second between two lease renewals, not the outage.
            charged = before - reply["clock"]["white"]  # type: ignore[index]
            assert charged < 1_000 * outage - 1_500, (charged, outage)
        status, state, _ = second.request("GET", f"/api/games/{game['id']}")
        usis = [m["usi"] for m in state["moves"]]
        assert len(usis) == 4
        assert usis[0] == "7g7f"
        assert usis[2] == "2g2f"
        taken = [server for server in servers[1:] if "taken over by this process" in server.log_text()]
        assert len(taken) == 1  # exactly one process took the game over


def test_without_redis_moves_are_refused_and_play_resumes_when_it_returns(tmp_path: Path) -> None:
    pytest.importorskip("redis", reason="needs the redis package (pip install shogiban[scale])")
    redis = start_redis(tmp_path)
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    servers: list[LiveServer] = []
    try:
        for name in ("a", "b"):
            servers.append(start_server(tmp_path, "--redis", redis.url, db=db, name=name))  # noqa: PERF401 - one by one
        a, b = servers
        status, game, _ = a.post_json("/api/games", json.dumps({"mode": "friend", "color": "b"}))
        assert status == 201
        invite = game["invite_url"].split("invite=")[1]
        status, joined, _ = b.post_json(f"/api/games/{game['id']}/join", json.dumps({"invite": invite}))
        assert status == 200, joined
        black = connect(f"{a.ws_base}/ws/games/{game['id']}", max_queue=None,
                        additional_headers={"Cookie": f"sb_{game['id']}={game['token']}"})
        white = connect(f"{b.ws_base}/ws/games/{game['id']}", max_queue=None,
                        additional_headers={"Cookie": f"sb_{game['id']}={joined['token']}"})
        with black, white:
            until_ply(black, 0)
            until_ply(white, 0)
            redis.stop()
            # Each try waits for its answer; the process may take a moment to notice the loss.
            deadline = time.monotonic() + 15
            while True:
                black.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
                answer: dict[str, object] = json.loads(black.recv(timeout=15))
                while answer.get("type") not in ("error", "move"):
                    answer = json.loads(black.recv(timeout=15))
                assert answer["type"] == "error", "a move was accepted without Redis"
                if answer["code"] == "redis_unavailable":
                    break
                assert time.monotonic() < deadline, answer
                time.sleep(0.2)
            status, state, _ = a.request("GET", f"/api/games/{game['id']}")
            assert state["moves"] == []  # refused, not stored
            redis = start_redis(tmp_path, redis.port)  # it comes back: play resumes by itself
            deadline = time.monotonic() + 20
            while True:
                black.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
                answer = json.loads(black.recv(timeout=15))
                while answer.get("type") not in ("error", "move"):
                    answer = json.loads(black.recv(timeout=15))
                if answer["type"] == "move":
                    break
                assert answer["code"] == "redis_unavailable", answer
                assert time.monotonic() < deadline, "play did not resume"
                time.sleep(0.3)
            assert until_ply(white, 1)["position"]["last_move"] == "7g7f"  # type: ignore[index]
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.stop()
        redis.stop()


@pytest.mark.slow  # three server processes and a lease to expire: about 10 s
def test_an_engine_turn_cut_by_kill_9_is_played_once_by_the_next_owner(tmp_path: Path) -> None:
    pytest.importorskip("redis", reason="needs the redis package (pip install shogiban[scale])")
    import os
    import signal

    with three_processes(tmp_path) as servers:
        owner, second, _ = servers
        status, game, _ = owner.post_json("/api/games", json.dumps(
            {"mode": "computer", "level": 8, "color": "b", "time": {"main": 0, "byoyomi": 4}}))
        assert status == 201
        cookie = {"Cookie": f"sb_{game['id']}={game['token']}"}
        with connect(f"{second.ws_base}/ws/games/{game['id']}", additional_headers=cookie, max_queue=None) as ws:
            until_ply(ws, 0)
            ws.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
            until_ply(ws, 1)
            time.sleep(0.5)  # the owner's engine is thinking (level 8 uses its byoyomi)
            os.kill(owner.process.pid, signal.SIGKILL)
            owner.process.wait(10)
            reply = until_ply(ws, 2, timeout=30)  # the next owner's engine plays the turn
            assert reply.get("outcome") is None
            time.sleep(1.0)  # a second reply, if any, would arrive now
        status, state, _ = second.request("GET", f"/api/games/{game['id']}")
        assert len(state["moves"]) == 2  # played once: not twice, not never
        assert state["outcome"] is None


@pytest.mark.slow  # three server processes and a lease to expire: about 10 s
def test_a_flag_that_falls_while_its_owner_is_dead_is_called_once_by_the_next(tmp_path: Path) -> None:
    pytest.importorskip("redis", reason="needs the redis package (pip install shogiban[scale])")
    import os
    import signal

    with three_processes(tmp_path) as servers:
        owner, second, _ = servers
        status, game, _ = owner.post_json("/api/games", json.dumps(
            {"mode": "computer", "level": 1, "color": "b", "time": {"main": 2}}))
        assert status == 201
        cookie = {"Cookie": f"sb_{game['id']}={game['token']}"}
        with connect(f"{second.ws_base}/ws/games/{game['id']}", additional_headers=cookie, max_queue=None) as ws:
            until_ply(ws, 0)
            os.kill(owner.process.pid, signal.SIGKILL)  # black's 2 s run out while nobody owns the game
            owner.process.wait(10)
            deadline = time.monotonic() + 20
            while True:
                left = deadline - time.monotonic()
                assert left > 0, "the flag never fell"
                message = json.loads(ws.recv(timeout=left))
                if message.get("outcome"):
                    break
            assert message["outcome"]["termination"] == "time_forfeit"
            assert message["outcome"]["winner"] == "w"
        status, state, _ = second.request("GET", f"/api/games/{game['id']}")
        assert state["moves"] == []
        assert state["outcome"]["termination"] == "time_forfeit"
        called = [server for server in servers[1:] if "taken over by this process" in server.log_text()]
        assert len(called) == 1


def test_without_its_database_a_move_is_refused_and_play_resumes_when_it_returns(tmp_path: Path) -> None:
    # PostgreSQL behind a proxy that the test cuts: the server refuses the move clearly (nothing
    # accepted and then lost), and takes moves again by itself once the database answers.
    url = os.environ.get("SHOGIBAN_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("needs $SHOGIBAN_TEST_POSTGRES_URL (a PostgreSQL database for tests)")
    from sqlalchemy.engine import make_url
    from tests.web.live_server import SwitchingProxy

    real = make_url(url)
    proxy = SwitchingProxy(real.port or 5432)
    proxied = real.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    server = start_server(tmp_path, db=proxied, name="db-lost")
    try:
        status, game, _ = server.post_json("/api/games", json.dumps({"mode": "local"}))
        assert status == 201
        cookie = {"Cookie": f"sb_{game['id']}={game['token']}"}
        with connect(f"{server.ws_base}/ws/games/{game['id']}", additional_headers=cookie, max_queue=None) as ws:
            until_ply(ws, 0)
            ws.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
            until_ply(ws, 1)
            proxy.cut()  # the database is gone
            ws.send(json.dumps({"type": "move", "usi": "3c3d", "ply": 1}))
            refused = next_message(ws, "error", timeout=30)
            assert refused["code"] == "storage", refused
            proxy.target = real.port or 5432  # it is back
            deadline = time.monotonic() + 30
            while True:
                ws.send(json.dumps({"type": "move", "usi": "3c3d", "ply": 1}))
                answer: dict[str, object] = json.loads(ws.recv(timeout=30))
                while answer.get("type") not in ("error", "move"):
                    answer = json.loads(ws.recv(timeout=30))
                if answer["type"] == "move":
                    break
                assert answer["code"] == "storage", answer
                assert time.monotonic() < deadline, "play did not resume"
                time.sleep(0.5)
        status, state, _ = server.request("GET", f"/api/games/{game['id']}")
        assert [m["usi"] for m in state["moves"]] == ["7g7f", "3c3d"]  # each once
    finally:
        server.stop()
        proxy.close()


def test_only_games_with_a_clock_or_a_computer_have_an_owner(
        cluster: tuple[LiveServer, LiveServer, LiveServer]) -> None:
    # A friends' game without a clock needs no process to act by itself: no lease is held for
    # it (a process with a thousand such games renews nothing); one with a clock has one owner.
    import redis as redis_sync

    a, b, _ = cluster
    owners = {}
    for name, body in (("no clock", {"mode": "friend", "color": "b"}),
                       ("clock", {"mode": "friend", "color": "b", "time": {"main": 600}})):
        status, game, _ = a.post_json("/api/games", json.dumps(body))
        assert status == 201
        invite = game["invite_url"].split("invite=")[1]
        status, joined, _ = b.post_json(f"/api/games/{game['id']}/join", json.dumps({"invite": invite}))
        assert status == 200, joined
        owners[name] = game["id"]
    client = redis_sync.Redis.from_url(CLUSTER_REDIS[0])
    deadline = time.monotonic() + 10
    while client.get(f"shogiban:owner:{owners['clock']}") is None:
        assert time.monotonic() < deadline, "the game with a clock never got an owner"
        time.sleep(0.2)
    time.sleep(1.5)  # a round of the owners' watch on every process
    assert client.get(f"shogiban:owner:{owners['no clock']}") is None
