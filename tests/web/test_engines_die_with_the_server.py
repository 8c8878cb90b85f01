"""``kill -9`` of the web server while its engines think leaves nothing running: the built-in
engine's pool workers, multiprocessing's resource tracker, external USI engines and whatever those
forked all die within seconds.

Two set-ups: a small script driving the same classes the server uses (:class:`BuiltinEngines`,
:class:`UsiEngines`), and a real ``shogiban serve`` on a loopback port with two computer games
started over HTTP.  The process tree is read from ``/proc`` before the kill.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
SRC = str(TESTS.parent / "src")
FAKE_ENGINE = TESTS / "fakes" / "usi_engine.py"
FAIRY = "/usr/games/fairy-stockfish"
GPS = "/usr/games/gpsusi"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc to walk the tree")

#: An engine that takes a game's first go, forks a helper and thinks for ever (never answering).
THINKS_FOR_EVER = """\
< usi
> id name thinker
> usiok
< isready
> readyok
< usinewgame
< re:position .*
< re:go .*
spawn
hang
"""


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()  # fields from the state on (the name may hold spaces)


def alive(pid: int) -> bool:
    """Whether *pid* runs (a zombie is dead)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def descendants(root: int) -> list[int]:
    """Every process below *root*, by parent links in ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def cpu_seconds(pid: int) -> float:
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for(condition: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def fake_engine(tmp_path: Path) -> tuple[str, Path]:
    """The command line of a fake engine that thinks for ever, and its log."""
    script, log = tmp_path / "thinker.script", tmp_path / "thinker.log"
    script.write_text(THINKS_FOR_EVER, encoding="utf-8")
    return shlex.join([sys.executable, str(FAKE_ENGINE), str(script), str(log)]), log


def forked_child(log: Path) -> int | None:
    if not log.exists():
        return None
    for line in log.read_text(encoding="utf-8").splitlines():
        if line.startswith("CHILD "):
            return int(line.split()[1])
    return None


def thinking_worker(root: int) -> bool:
    """Whether a pool worker below *root* has been searching for a while."""
    return any("multiprocessing" in cmdline(pid) and "spawn_main" in cmdline(pid) and cpu_seconds(pid) >= 0.5
               for pid in descendants(root))


def kill_and_check(server: subprocess.Popen[bytes], expect: dict[str, str]) -> None:
    """kill -9 *server*; every descendant must be gone within 10 s.  *expect* names processes
    (by a piece of their command line) that must have been among them."""
    tree = descendants(server.pid)
    try:
        for what, needle in expect.items():
            assert any(needle in cmdline(pid) for pid in tree), f"no {what} among {[cmdline(p) for p in tree]}"
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in tree):
            time.sleep(0.1)
        left = {pid: cmdline(pid) for pid in tree if alive(pid)}
        assert not left, f"still running 10 s after the server was killed: {left}"
    finally:
        for pid in tree:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


ENV = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_the_servers_engine_classes_leave_nothing_behind(tmp_path: Path) -> None:
    command, log = fake_engine(tmp_path)
    script = textwrap.dedent(f"""
        import asyncio
        from shogiban import Board
        from shogiban.web.thinking import BuiltinEngines, ThinkRequest, UsiEngines

        async def main():
            builtin, usi = BuiltinEngines(workers=1), UsiEngines({command!r})
            start = Board().sfen()
            asyncio.ensure_future(builtin.think(ThinkRequest(start, (), level=8, movetime=600.0)))
            asyncio.ensure_future(usi.think(ThinkRequest(start, (), movetime=600.0, game_id="g")))
            await asyncio.sleep(3600)

        asyncio.run(main())
    """)
    server = subprocess.Popen([sys.executable, "-c", script], env=ENV)
    try:
        wait_for(lambda: forked_child(log) is not None, 60, "the USI engine to think and fork")
        wait_for(lambda: thinking_worker(server.pid), 60, "the built-in engine to think")
        kill_and_check(server, {
            "pool worker": "spawn_main", "resource tracker": "resource_tracker", "USI engine": str(FAKE_ENGINE),
            "engine's child": "time.sleep(3600)", "reaper": "os.killpg",
        })
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, object] = json.loads(response.read())
        return answer


def _serve(tmp_path: Path, engine: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "shogiban", "serve", "--port", str(port), "--workers", "1", "--log-level", "warning",
         "--db", f"sqlite:///{tmp_path / 'games.sqlite3'}", "--engine", engine],
        env=ENV, stdout=subprocess.DEVNULL,
    )

    def up() -> bool:
        try:
            with urllib.request.urlopen(f"{base}/api/config", timeout=5):
                return True
        except (urllib.error.URLError, OSError):
            assert server.poll() is None, "shogiban serve exited"
            return False

    wait_for(up, 90, "shogiban serve to answer")
    return server, base


def _start_games(base: str) -> None:
    """Two computer games where the computer (sente) moves first, with an hour on the clock."""
    for opponent in ("engine", "usi"):
        _post(f"{base}/api/games", {"mode": "computer", "opponent": opponent, "level": 8, "color": "w",
                                    "time": {"main": 3600}})


def test_kill_9_of_shogiban_serve_leaves_no_engine_running(tmp_path: Path) -> None:
    command, log = fake_engine(tmp_path)
    server, base = _serve(tmp_path, command)
    try:
        _start_games(base)
        wait_for(lambda: forked_child(log) is not None, 60, "the USI engine to think and fork")
        wait_for(lambda: thinking_worker(server.pid), 60, "the built-in engine to think")
        kill_and_check(server, {
            "pool worker": "spawn_main", "resource tracker": "resource_tracker", "USI engine": str(FAKE_ENGINE),
            "engine's child": "time.sleep(3600)",
        })
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


@pytest.mark.engines
@pytest.mark.parametrize("engine", [FAIRY, GPS])
def test_kill_9_of_shogiban_serve_leaves_no_debian_engine_running(tmp_path: Path, engine: str) -> None:
    if not os.access(engine, os.X_OK):
        pytest.skip(f"{engine} is not installed (apt-get install fairy-stockfish gpsshogi)")
    server, base = _serve(tmp_path, engine)
    try:
        _start_games(base)

        def engine_thinks() -> bool:
            return any(engine in cmdline(pid) and cpu_seconds(pid) >= 1.0 for pid in descendants(server.pid))

        wait_for(engine_thinks, 90, f"{engine} to think")
        wait_for(lambda: thinking_worker(server.pid), 60, "the built-in engine to think")
        kill_and_check(server, {"pool worker": "spawn_main", "resource tracker": "resource_tracker", "engine": engine})
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
