"""A real ``shogiban serve`` on a loopback port, for the tests that must see the server as a
client on the network does (raw sockets, clients that hang up or never read)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SRC = str(Path(__file__).resolve().parents[2] / "src")


@dataclass
class LiveServer:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any, dict[str, str]]:
        """(status, decoded JSON or text, headers) of one request."""
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, data, got = response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as error:
            status, data, got = error.code, error.read(), dict(error.headers)
        try:
            return status, json.loads(data), got
        except ValueError:
            return status, data.decode("utf-8", "replace"), got

    def post_json(self, path: str, raw: str) -> tuple[int, Any, dict[str, str]]:
        return self.request("POST", path, raw.encode("utf-8"), {"Content-Type": "application/json"})

    def rss_kb(self) -> int:
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def log_text(self) -> str:
        return self.log.read_text("utf-8", "replace")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(tmp: Path, *extra: str, log_level: str = "info", db: str | None = None,
                 name: str = "server") -> LiveServer:
    """Start ``shogiban serve`` on a free loopback port and wait until it answers (90 s at most)."""
    port = free_port()
    log = tmp / f"{name}.log"
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    process = subprocess.Popen(
        [sys.executable, "-m", "shogiban", "serve", "--port", str(port), "--workers", "1", "--log-level", log_level,
         "--db", db or f"sqlite:///{tmp / 'games.sqlite3'}", *extra],
        env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    server = LiveServer(process, port, log)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"shogiban serve exited: {server.log_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{server.base}/api/config", timeout=5):
                return server
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    server.stop()
    raise RuntimeError("shogiban serve did not answer within 90 s")


@dataclass
class RedisServer:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_redis(tmp: Path, port: int | None = None) -> RedisServer:
    """A private ``redis-server`` on a free loopback port, or on *port* (no saving to disk),
    ready to answer."""
    port = port or free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    return RedisServer(process, port)
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("redis-server did not answer within 30 s")


class SwitchingProxy:
    """A TCP proxy on a loopback port in front of the web processes, as a load balancer would be:
    every new connection goes to the process :attr:`target` names at that moment."""

    def __init__(self, target: int | None) -> None:
        self.target = target
        self.connections: set[asyncio.StreamWriter] = set()
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        assert ready.wait(10), "the proxy did not start"

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", self.port))
        ready.set()
        self.loop.run_forever()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.target is None:
            writer.close()  # nothing behind: the client sees the connection fail
            return
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()  # the process behind is gone: the client sees the connection fail
            return
        self.connections.update((writer, upstream_writer))

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except OSError:
                pass
            finally:
                sink.close()

        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    def cut(self) -> None:
        """Refuse new connections and break every open one (what behind it is gone)."""
        self.target = None

        def close_all() -> None:
            for writer in list(self.connections):
                writer.transport.abort()
            self.connections.clear()

        self.loop.call_soon_threadsafe(close_all)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        async def shut() -> None:
            self.server.close()
            others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def next_message(ws: Any, wanted: str, timeout: float = 15.0) -> dict[str, Any]:
    """The next message of type *wanted* on the websocket client *ws* (others are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {wanted} message"
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if message.get("type") == wanted:
            return message


def until_ply(ws: Any, ply: int, timeout: float = 15.0) -> dict[str, Any]:
    """The next message on *ws* whose position is at *ply* (others are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"ply {ply} never arrived"
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        position = message.get("position")
        if isinstance(position, dict) and position.get("ply") == ply:
            return message
