"""Drive :class:`UsiServer` in-process and wait for its (threaded) answers."""

from __future__ import annotations

import threading
import time

from shogiban.usi.backend import SearchBackend
from shogiban.usi.server import UsiServer


class Harness:
    """A server whose output lines are collected in :attr:`out`."""

    def __init__(self, backend: SearchBackend) -> None:
        self.out: list[str] = []
        self._changed = threading.Condition()
        self.server = UsiServer(backend, write=self._write)

    def _write(self, line: str) -> None:
        with self._changed:
            self.out.append(line)
            self._changed.notify_all()

    def send(self, *lines: str) -> None:
        """Feed command lines (asserting none is ``quit``)."""
        for line in lines:
            assert self.server.handle(line)

    def wait_for(self, prefix: str, count: int = 1, timeout: float = 10.0) -> list[str]:
        """Wait until *count* output lines start with *prefix*; return them."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = [line for line in self.out if line.startswith(prefix)]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                assert left > 0, f"timed out waiting for {count} x {prefix!r}; output: {self.out}"
                self._changed.wait(left)

    def lines(self, prefix: str) -> list[str]:
        """Output lines starting with *prefix* so far."""
        with self._changed:
            return [line for line in self.out if line.startswith(prefix)]

    def close(self) -> None:
        """``quit``: stop searches and join the worker."""
        assert not self.server.handle("quit")
        self.server.shutdown()


class SubprocessHarness(Harness):
    """The same interface over a USI engine subprocess (raw lines, no client)."""

    def __init__(self, command: list[str]) -> None:
        import subprocess

        self.out = []
        self._changed = threading.Condition()
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self._write(raw.decode("utf-8").rstrip("\r\n"))

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line.encode("utf-8") + b"\n")
            self.process.stdin.flush()

    def close(self) -> None:
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self._reader.join(timeout=5)
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()
