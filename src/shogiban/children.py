"""Child processes that die with their parent, whatever kills the parent.

shogiban starts two kinds of child process: Python workers (the engine pool and the record
parser of ``shogiban serve``) and external programs (USI engines).  When the parent ends
normally it stops them; this module makes sure they also end when it is killed outright
(``kill -9``, an out-of-memory kill, a crash), which no ``finally`` block survives:

* a Python worker calls :func:`die_with_parent` first (a ``ProcessPoolExecutor`` initializer):
  on Linux the kernel sends it ``SIGKILL`` when the parent dies (``PR_SET_PDEATHSIG``), and on
  every platform a daemon thread watches the parent (multiprocessing's parent sentinel, or the
  parent pid) and exits the process when the parent is gone;
* an external program is started in its own process group (:func:`new_group_options`), so that
  stopping it also stops whatever it forked (:func:`kill_group`), and is registered with the
  :class:`Reaper`: a tiny helper process that holds the read end of a pipe from the parent and,
  when that pipe closes (the parent died, however it died), kills every group still registered.

>>> options = new_group_options()
>>> sorted(options) == (["start_new_session"] if os.name == "posix" else ["creationflags"])
True
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import multiprocessing.connection
import os
import signal
import subprocess
import sys
import threading
from typing import IO, Any

#: Seconds between two looks at the parent, where no sentinel is available.
POLL_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _set_parent_death_signal() -> bool:
    """Ask Linux to kill this process when its parent thread ends; False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch(wait_for_parent: Any) -> None:
    wait_for_parent()
    os._exit(1)  # no cleanup: the parent that would have wanted it is gone


def die_with_parent() -> None:
    """Make this (child) process exit as soon as its parent dies.

    Call it at the start of a worker process.  Safe to call more than once.
    """
    parent_pid = os.getppid()
    _set_parent_death_signal()
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        # The sentinel becomes ready when the parent exits (a pipe on POSIX, a handle on Windows).
        sentinel = parent.sentinel

        def wait_for_parent() -> None:
            multiprocessing.connection.wait([sentinel])
    else:

        def wait_for_parent() -> None:
            stop = threading.Event()
            while os.getppid() == parent_pid and not stop.wait(POLL_SECONDS):
                pass

    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)
    threading.Thread(target=_watch, args=(wait_for_parent,), name="die-with-parent", daemon=True).start()


def new_group_options() -> dict[str, Any]:
    """Keyword arguments for :class:`subprocess.Popen` or ``asyncio`` ``subprocess_exec`` that
    start the program in a process group of its own (so a terminal's Ctrl-C does not reach it,
    and :func:`kill_group` reaches everything it forks)."""
    if os.name == "posix":
        return {"start_new_session": True}
    return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}


def kill_group(pid: int) -> None:
    """Kill the process group led by *pid* (started with :func:`new_group_options`): the program
    and every process it started.  A group that is already gone is not an error."""
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        return
    with contextlib.suppress(OSError):  # pragma: no cover - Windows
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(pid)], capture_output=True, check=False, timeout=10)


#: The reaper's program: it reads "+PID" (watch the group PID) and "-PID" (forget it) lines, and
#: at end of input (its parent closed the pipe, or died) kills the groups it still watches.  It
#: imports nothing of shogiban, so it starts fast and cannot fail on a broken install.
REAPER_SCRIPT = r"""
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
groups = set()
for line in sys.stdin:
    line = line.strip()
    if line[1:].isdigit():
        (groups.add if line[0] == "+" else groups.discard)(int(line[1:]))
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
"""


class Reaper:
    """Kills registered process groups when this process dies (POSIX; a no-op elsewhere).

    The helper process starts on the first :meth:`register`.  Registering is cheap (a line on a
    pipe) and thread-safe.  Use :func:`reaper` for the process-wide instance.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._owner_pid = os.getpid()

    @property
    def supported(self) -> bool:
        """Whether process groups can be reaped here."""
        return os.name == "posix"

    def _pipe(self) -> IO[str] | None:
        if self._owner_pid != os.getpid():  # inherited by a fork: that pipe is the parent's
            self._process, self._owner_pid = None, os.getpid()
        process = self._process
        if process is None or process.poll() is not None:
            process = self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", REAPER_SCRIPT],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                text=True, bufsize=1, **new_group_options(),
            )
        return process.stdin

    def _send(self, line: str) -> None:
        if not self.supported:
            return
        with self._lock:
            pipe = self._pipe()
            if pipe is None:
                return
            try:
                pipe.write(line + "\n")
                pipe.flush()
            except (BrokenPipeError, ValueError):  # the reaper died: start another next time
                self._process = None

    def register(self, group: int) -> None:
        """Kill process group *group* if this process dies before :meth:`unregister`."""
        self._send(f"+{group}")

    def unregister(self, group: int) -> None:
        """*group* was stopped normally: forget it."""
        if self._process is not None:
            self._send(f"-{group}")

    @property
    def pid(self) -> int | None:
        """The helper process's pid, once started."""
        return None if self._process is None else self._process.pid

    def close(self) -> None:
        """Stop the helper (it kills the groups still registered)."""
        with self._lock:
            process, self._process = self._process, None
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)


_REAPER = Reaper()


def reaper() -> Reaper:
    """The process-wide :class:`Reaper`."""
    return _REAPER


__all__ = ["Reaper", "die_with_parent", "kill_group", "new_group_options", "reaper"]
