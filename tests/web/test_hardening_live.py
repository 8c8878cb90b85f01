"""Issue "Hardening, round 2": the web findings, each against a real ``shogiban serve`` on
loopback (raw sockets where a browser would never behave so)."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from tests.web.live_server import LiveServer, start_server
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory in /proc")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = start_server(tmp_path_factory.mktemp("live"))
    yield live
    live.stop()


def new_game(server: LiveServer, **body: object) -> dict[str, str]:
    status, answer, _ = server.post_json("/api/games", json.dumps(body))
    assert status == 201, answer
    return dict(answer)


def receive_type(ws: ClientConnection, kind: str, timeout: float = 30) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while True:
        message: dict[str, object] = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == kind:
            return message
        if message["type"] == "error" and kind != "error":
            raise AssertionError(message)


def test_a_lone_surrogate_in_a_name_is_refused_at_the_edge(server: LiveServer) -> None:
    status, answer, _ = server.post_json("/api/games", '{"mode":"friend","name":"\\udcff"}')
    assert status == 400
    assert answer["type"] == "error"
    assert "surrogate" in answer["message"]
    # A surrogate pair is a real character and is kept.
    game = new_game(server, mode="friend", name="\U0001f600")
    status, state, _ = server.request("GET", f"/api/games/{game['id']}")
    assert status == 200
    assert state["type"] == "state"
    for fmt in ("kif", "ki2", "csa", "jkf", "sfen"):
        status, _, _ = server.request("GET", f"/api/games/{game['id']}/record.{fmt}")
        assert status == 200, fmt


@pytest.mark.parametrize("name", ["x\r▲５八玉", "x\n後手：INJECTED", "x\r*text", "nul\x00", "esc\x1b[2J", "ls\u2028"])
def test_a_name_with_a_line_break_or_control_character_is_refused(server: LiveServer, name: str) -> None:
    status, answer, _ = server.post_json("/api/games", json.dumps({"mode": "friend", "name": name}))
    assert status == 400
    assert answer["code"] == "bad_setup"


@pytest.mark.parametrize("sfen", ["9/9/9/9/9/9/9/9/4K4 b - 1", "4k4/9/9/9/9/9/9/9/9 b - 1", "9/9/9/9/9/9/9/9/9 b - 1"])
@pytest.mark.parametrize("mode", ["computer", "friend", "local"])
def test_a_game_without_both_kings_cannot_start(server: LiveServer, sfen: str, mode: str) -> None:
    status, check, _ = server.post_json("/api/positions/check", json.dumps({"sfen": sfen}))
    assert status == 200
    assert check["playable"] is False
    status, answer, _ = server.post_json("/api/games", json.dumps({"mode": mode, "sfen": sfen}))
    assert status == 400
    assert answer["code"] == "bad_setup"
    assert "has no king" in answer["message"]


def test_clients_hanging_up_mid_request_do_not_flood_the_log(server: LiveServer) -> None:
    before = server.log_text()
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(b"POST /api/records HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        b"Content-Length: 1000\r\n\r\nx")
    time.sleep(1.0)  # let the server notice each hang-up
    status, _, _ = server.request("GET", "/api/config")  # still serving
    assert status == 200
    added = server.log_text()[len(before):]
    assert "Traceback" not in added
    assert "ERROR" not in added


def test_strangers_on_the_watch_link_never_lock_the_players_out(server: LiveServer) -> None:
    game = new_game(server, mode="local", time={"main": 600})
    url = f"{server.ws_base}/ws/games/{game['id']}"
    refused = 0
    with contextlib.ExitStack() as strangers:
        for _ in range(60):  # more than one address may hold
            try:
                ws = strangers.enter_context(connect(url, open_timeout=30, max_queue=None))
            except InvalidStatus:
                refused += 1
                continue
            first = json.loads(ws.recv(timeout=30))
            if first["type"] == "error":
                assert first["code"] == "busy"
                refused += 1
        assert refused > 0  # the per-address cap held
        cookie = f"sb_{game['id']}={game['token']}"
        with connect(url, additional_headers={"Cookie": cookie}, open_timeout=30) as player:
            state = receive_type(player, "state")
            assert state["you"] == "both"
            player.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
            moved = receive_type(player, "move")
            assert moved["move"]["usi"] == "7g7f"  # type: ignore[index]


@pytest.mark.slow
def test_clients_that_never_read_cannot_grow_the_servers_memory(server: LiveServer) -> None:
    game = new_game(server, mode="local")
    url = f"{server.ws_base}/ws/games/{game['id']}"
    cookie = f"sb_{game['id']}={game['token']}"
    silent: list[socket.socket] = []
    for _ in range(20):  # raw websockets with a tiny receive buffer that are never read
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect(("127.0.0.1", server.port))
        raw.sendall((f"GET /ws/games/{game['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        silent.append(raw)
    try:
        with connect(url, additional_headers={"Cookie": cookie}, open_timeout=30, max_size=None) as player:
            receive_type(player, "state")
            start = server.rss_kb()
            for _ in range(60):
                player.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
                receive_type(player, "move")
                player.send(json.dumps({"type": "undo", "ply": 1}))
                receive_type(player, "state")
                time.sleep(0.12)  # stay under the message rate (20 a second)
            grown = server.rss_kb() - start
    finally:
        for raw in silent:
            raw.close()
    # 20 silent clients, 120 state and move messages each: bounded by the per-client byte cap
    # (and far less in practice); without it every message stayed queued.
    assert grown < 20 * 4 * 1024 + 50_000, f"the server grew by {grown} KB"


@pytest.mark.slow
def test_concurrent_solves_cannot_starve_the_light_requests(server: LiveServer) -> None:
    heavy = json.dumps({"sfen": "4k4/9/9/9/9/9/9/9/9 b RB 1", "defender_hand": True})  # runs to its 5 s limit
    answers: list[tuple[int, float]] = []

    def solve() -> None:
        status, _, _ = server.post_json("/api/positions/solve", heavy)
        answers.append((status, time.monotonic()))

    with ThreadPoolExecutor(40) as pool:
        for _ in range(40):
            pool.submit(solve)
        time.sleep(0.5)  # the first solve has started
        status, check, _ = server.post_json("/api/positions/check", json.dumps({"sfen": "4k4/9/9/9/9/9/9/9/4K4 b - 1"}))
        checked_at = time.monotonic()
        assert status == 200
        assert check["playable"] is True
    statuses = sorted(status for status, _ in answers)
    assert statuses.count(200) == 1  # one solve at a time per address
    assert set(statuses) == {200, 429}
    solved_at = next(at for status, at in answers if status == 200)
    assert checked_at < solved_at  # the light request did not wait behind the solver


def test_move_undo_loops_do_not_starve_another_games_engine(server: LiveServer) -> None:
    # Finding 3: loops of move/undo against level 8 left stale searches queued in the shared pool
    # and another game's engine lost on time waiting behind them.
    hostile = new_game(server, mode="computer", level=8, color="b", time={"main": 0, "byoyomi": 3})
    victim = new_game(server, mode="computer", level=8, color="b", time={"main": 0, "byoyomi": 3})

    def url(game: dict[str, str]) -> str:
        return f"{server.ws_base}/ws/games/{game['id']}"

    def cookie(game: dict[str, str]) -> dict[str, str]:
        return {"Cookie": f"sb_{game['id']}={game['token']}"}

    with connect(url(hostile), additional_headers=cookie(hostile), max_queue=None) as attacker, \
            connect(url(victim), additional_headers=cookie(victim), max_queue=None) as player:
        receive_type(attacker, "state")
        receive_type(player, "state")
        player.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
        receive_type(player, "move")  # the victim's own move; now its engine thinks
        for _ in range(30):  # the hostile loop runs while the victim's engine thinks
            attacker.send(json.dumps({"type": "move", "usi": "2g2f", "ply": 0}))
            attacker.send(json.dumps({"type": "undo", "ply": 1}))
            time.sleep(0.1)
        deadline = time.monotonic() + 30
        reply: dict[str, object] = {}
        while time.monotonic() < deadline:
            message = json.loads(player.recv(timeout=30))
            if message["type"] in ("move", "state") and message.get("position", {}).get("ply") == 2:
                reply = message
                break
        assert reply, "the victim's engine never moved"
        assert reply.get("outcome") is None  # not lost on time
