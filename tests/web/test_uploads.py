"""Uploaded records: never a path on the server, read in worker processes with a deadline and a
memory cap, and refused past the size limits with clear errors."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import new_game
from tests.web.slow_parser import SPIN, crash, hog_memory, spin_or_read

import shogiban.web.app
from shogiban.web import parsing
from shogiban.web.parsing import ParseJob, ParsePool, run_job
from shogiban.web.rates import ServerLimits
from shogiban.web.records import RecordLimits
from shogiban.web.schema import RequestError

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
RECORD_ROUTES = ("/api/records", "/api/records/export?format=kif")


def wait_for(condition: Callable[[], bool], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)


def fingerprints(path: Path) -> set[str]:
    """Pieces of the file that must never show up in an answer: its longer lines (and, for the
    database, the secrets it holds are checked by the test itself)."""
    text = path.read_bytes().decode("utf-8", "replace")
    return {line.strip() for line in text.splitlines() if len(line.strip()) >= 8 and line.strip() not in str(path)}


def post_upload(client: TestClient, route: str, text: str, how: str) -> Any:
    if how == "json":
        return client.post(route, json={"text": text})
    content_type = "application/octet-stream" if how == "raw" else "text/plain"
    return client.post(route, content=text.encode("utf-8"), headers={"content-type": content_type})


def test_upload_paths_never_reach_the_file_system(make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    client = make_client(f"sqlite:///{database}", limits=ServerLimits(upload_burst=10_000))
    game = new_game(client, mode="friend")
    record = ROOT / "tests" / "data" / "tsume" / "chain_1te.kif"
    paths = [Path("/etc/passwd"), Path(shogiban.web.app.__file__), database, record]
    secrets = {game["token"], game["invite_url"].split("=", 1)[1]}
    os.chdir(ROOT)  # relative names too: "tests/data/tsume/chain_1te.kif"
    named = [(str(path), fingerprints(path)) for path in paths if path.is_file()]
    named.append((str(record.relative_to(ROOT)), fingerprints(record)))
    assert len(named) == 5 or not Path("/etc/passwd").exists()
    for name, prints in named:
        twin = name[:-1] + ("q" if name[-1] != "q" else "z")  # the same name, but no such file
        assert not Path(twin).exists()
        for route in RECORD_ROUTES:
            for how in ("json", "raw", "text"):
                answer = post_upload(client, route, name, how)
                missing = post_upload(client, route, twin, how)
                where = (name, route, how)
                assert answer.status_code == 400, (where, answer.text[:300])
                assert answer.json()["code"] == "bad_record", where
                shown = answer.text
                assert not any(piece in shown for piece in prints), (where, shown[:300])
                assert not any(secret in shown for secret in secrets), where
                # Existing and missing files are told apart by nothing but the quoted name.
                assert answer.status_code == missing.status_code, where
                assert answer.json()["code"] == missing.json()["code"], where
                assert answer.json()["message"] == missing.json()["message"].replace(twin, name), where


@pytest.mark.slow
def test_a_slow_parse_does_not_block_the_event_loop_and_is_killed(
    make_client: Callable[..., TestClient], tmp_path: Path
) -> None:
    pool = ParsePool(1, handler=spin_or_read, deadline=3.0)
    client = make_client(parse_pool=pool)
    game = new_game(client, mode="local")
    marker = tmp_path / "spinning"
    answers: list[Any] = []
    upload = threading.Thread(
        target=lambda: answers.append(client.post("/api/records", content=SPIN + str(marker).encode())))
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert ws.receive_json()["type"] == "state"
        upload.start()
        wait_for(lambda: marker.exists() and marker.read_text() != "")
        spinning = int(marker.read_text())
        # The worker burns CPU on the record; the server still answers at once.
        ws.send_json({"type": "ping"})
        while ws.receive_json()["type"] != "pong":
            pass
        assert upload.is_alive(), "the ping was answered while the record was being read"
        assert client.get("/api/config").status_code == 200
        upload.join(60)
    assert not upload.is_alive()
    (answer,) = answers
    assert answer.status_code == 422
    assert answer.json()["code"] == "too_slow"
    assert pool.killed == 1
    assert spinning not in pool.worker_pids()
    with pytest.raises(ProcessLookupError):
        os.kill(spinning, 0)  # killed and reaped
    # A new worker takes the next record.
    again = client.post("/api/records", json={"text": "position startpos moves 7g7f"})
    assert again.status_code == 200, again.text
    assert [n["usi"] for n in again.json()["nodes"][1:]] == ["7g7f"]


def test_game_downloads_are_written_in_the_workers(
    make_client: Callable[..., TestClient], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "spinning"
    monkeypatch.setenv("SHOGIBAN_TEST_SPIN_ROOM", str(marker))  # inherited by the spawned worker
    client = make_client(parse_pool=ParsePool(1, handler=spin_or_read, deadline=2.0))
    game = new_game(client, mode="local", moves=["7g7f", "3c3d"])
    answer = client.get(f"/api/games/{game['id']}/record.kif")
    assert answer.status_code == 422
    assert answer.json()["code"] == "too_slow"
    assert marker.exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is enforced this way on Linux")
def test_a_worker_out_of_memory_answers_too_large(make_client: Callable[..., TestClient]) -> None:
    client = make_client(parse_pool=ParsePool(1, handler=hog_memory, deadline=60.0, memory=256 * 1024 * 1024))
    answer = client.post("/api/records", json={"text": "position startpos"})
    assert answer.status_code == 413
    assert answer.json()["code"] == "too_large"


def test_a_crashing_worker_is_replaced(make_client: Callable[..., TestClient]) -> None:
    pool = ParsePool(1, handler=crash, deadline=60.0)
    client = make_client(parse_pool=pool)
    for _ in range(2):
        answer = client.post("/api/records", json={"text": "position startpos"})
        assert answer.status_code == 413
        assert answer.json()["type"] == "error"
    assert pool.worker_pids() == []


@pytest.mark.slow
def test_busy_when_every_worker_is_taken(tmp_path: Path) -> None:
    import asyncio

    async def scenario() -> tuple[int, str, int]:
        pool = ParsePool(1, handler=spin_or_read, deadline=3.0, queue=0)
        try:
            marker = tmp_path / "spinning"
            first = asyncio.create_task(pool.run(ParseJob("tree", SPIN + str(marker).encode())))
            while not marker.exists():
                await asyncio.sleep(0.05)
            second = await pool.run(ParseJob("tree", b"position startpos"))
            return second.status, second.body.decode(), (await first).status
        finally:
            await pool.close()

    status, body, first = asyncio.run(scenario())
    assert status == 503
    assert '"busy"' in body
    assert first == 422


def variation_kif(plies: int) -> bytes:
    """A record with a variation at every ply (the shape that took the reader 74 s)."""
    shuffle = ["５八玉(59)", "５二玉(51)", "５九玉(58)", "５一玉(52)"]
    lines = ["手合割：平手"] + [f"{i + 1:>4} {shuffle[i % 4]}" for i in range(plies)]
    for ply in range(plies, 0, -1):
        lines += [f"変化：{ply}手", f"{ply:>4} {'７六歩(77)' if ply % 2 else '３四歩(33)'}"]
    return ("\n".join(lines) + "\n").encode("utf-8")


@pytest.mark.parametrize(("content", "limits", "words"), [
    (variation_kif(40), RecordLimits(max_variations=10), "variations"),
    (variation_kif(40), RecordLimits(max_nodes=30), "moves"),
    ("手合割：平手\n   1 ７六歩(77)\n*" + "長い" * 600 + "\n", RecordLimits(max_comment_chars=1000), "comments"),
    ("position startpos moves " + "7g7f " * 3, RecordLimits(max_bytes=20), "bytes"),
])
def test_records_past_the_limits_are_refused_clearly(
    make_client: Callable[..., TestClient], content: bytes | str, limits: RecordLimits, words: str
) -> None:
    client = make_client(record_limits=limits)
    data = content.encode("utf-8") if isinstance(content, str) else content
    for route in RECORD_ROUTES:
        answer = client.post(route, content=data)
        assert answer.status_code == 413, answer.text
        assert answer.json()["code"] == "too_large"
        assert words in answer.json()["message"]
        assert "too large" in answer.json()["message"]
    assert client.post("/api/records", content=b"position startpos").status_code == 200  # within them


def test_the_variation_record_of_the_report_is_refused_quickly(client: TestClient) -> None:
    # 494 KB with a variation at every ply stalled the server for 74 s: now it is refused by
    # counting, before the reader starts.
    data = variation_kif(9000)
    assert len(data) > 450_000
    answer = client.post("/api/records", content=data)
    assert answer.status_code == 413
    assert "variations" in answer.json()["message"]


@pytest.mark.parametrize("failure", [ValueError("Exceeds the limit (4300 digits) for integer string conversion"),
                                     IndexError("list index out of range"), RecursionError()])
def test_reader_failures_are_answered_not_raised(monkeypatch: pytest.MonkeyPatch, failure: BaseException) -> None:
    import shogiban.kifu

    def broken(*args: object, **kwargs: object) -> None:
        raise failure

    monkeypatch.setattr(shogiban.kifu, "read_game", broken)
    reply = run_job(ParseJob("tree", b"   1 " + b"9" * 5000 + b" 7g7f\n"))
    assert 400 <= reply.status < 500
    assert json.loads(reply.body)["type"] == "error"
    assert b"Traceback" not in reply.body


def test_memory_errors_reach_the_worker_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    import shogiban.kifu

    def greedy(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(shogiban.kifu, "read_game", greedy)
    with pytest.raises(MemoryError):  # not a "bad record": the worker must be replaced
        run_job(ParseJob("tree", b"position startpos"))


def test_a_kif_move_number_of_5000_digits_is_not_a_server_error(client: TestClient) -> None:
    text = "手合割：平手\n" + "1" * 5000 + " ７六歩(77)\n"
    for route in RECORD_ROUTES:
        answer = client.post(route, json={"text": text})
        assert answer.status_code < 500, answer.text[:200]
        if answer.status_code >= 400:
            assert answer.json()["type"] == "error"


def test_the_reader_is_only_given_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    import shogiban.kifu

    seen: list[object] = []
    real = shogiban.kifu.read_game

    def spy(source: object, **options: Any) -> Any:
        seen.append(source)
        return real(source, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(shogiban.kifu, "read_game", spy)
    assert run_job(ParseJob("tree", b'{"text": "/etc/passwd"}', is_json=True)).status == 400
    assert run_job(ParseJob("tree", b"position startpos", is_json=False)).status == 200
    assert seen == [b"/etc/passwd", b"position startpos"]
    with pytest.raises(RequestError, match="lone surrogate"):  # text that is not Unicode is refused
        parsing.upload_bytes(ParseJob("tree", b'{"text": "\\ud800x"}', is_json=True))


PARENT_SCRIPT = """
import asyncio, sys, time
from pathlib import Path
from shogiban.web.parsing import ParseJob, ParsePool
from tests.web.slow_parser import SPIN, spin_or_read

async def main():
    marker = Path(sys.argv[1])
    pool = ParsePool(2, handler=spin_or_read, deadline=600)
    spinning = asyncio.ensure_future(pool.run(ParseJob("tree", SPIN + str(marker).encode())))
    while not (marker.exists() and marker.read_text()):
        await asyncio.sleep(0.05)
    await pool.run(ParseJob("tree", b"position startpos"))  # a second worker, idle after this
    print(*pool.worker_pids(), flush=True)
    time.sleep(600)

if __name__ == "__main__":
    asyncio.run(main())
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
def test_record_workers_die_with_a_killed_server(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(PARENT_SCRIPT)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    parent = subprocess.Popen([sys.executable, str(script), str(tmp_path / "spinning")], stdout=subprocess.PIPE,
                              text=True, cwd=ROOT, env=environment)
    pids: list[int] = []
    try:
        assert parent.stdout is not None
        pids = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(pids) == 2  # one idle, one burning CPU on a record
        parent.send_signal(signal.SIGKILL)
        parent.wait(30)

        def gone(pid: int) -> bool:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
            # A zombie waiting for init to reap it is dead too.
            status = Path(f"/proc/{pid}/status")
            return status.exists() and "\nState:\tZ" in status.read_text()

        wait_for(lambda: all(gone(pid) for pid in pids), seconds=30)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in pids:  # a failed test leaves no orphans behind
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
