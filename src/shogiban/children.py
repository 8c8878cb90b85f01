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
#: The parent-death signal.  Not SIGKILL: Linux sends it when the *thread* that started the child
#: ends, not only when the parent process dies, so the handler checks that the parent is gone.
PARENT_DEATH_SIGNAL = getattr(signal, "SIGRTMIN", signal.SIGTERM)


def _set_parent_death_signal(signum: int) -> bool:
    """Ask Linux to send *signum* to this process when its parent thread ends; False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch(wait_for_parent: Any) -> None:
    wait_for_parent()
    os._exit(1)  # no cleanup: the parent that would have wanted it is gone


def die_with_parent(parent_pid: int | None = None) -> None:
    """Make this (child) process exit as soon as its parent dies.

    Call it at the start of a worker process.  Safe to call more than once.

    :param parent_pid: the parent's pid, if known (multiprocessing children know it anyway); else
        the parent at the time of the call.
    """
    parent = multiprocessing.parent_process()
    if parent_pid is None:
        parent_pid = parent.pid if parent is not None and parent.pid is not None else os.getppid()
    if threading.current_thread() is threading.main_thread():
        # Signal handlers can only be set from the main thread; elsewhere the watch below suffices.
        def on_parent_death(signum: int, frame: object) -> None:
            if os.getppid() != parent_pid:  # else only the thread that started us ended
                os._exit(1)

        signal.signal(PARENT_DEATH_SIGNAL, on_parent_death)
        _set_parent_death_signal(PARENT_DEATH_SIGNAL)
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
    pipe) and thread-safe.  The groups are also remembered here, so a helper that was killed is
    replaced by one that watches them all.  Use :func:`reaper` for the process-wide instance.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._owner_pid = os.getpid()
        self._groups: set[int] = set()

    @property
    def supported(self) -> bool:
        """Whether process groups can be reaped here."""
        return os.name == "posix"

    def _pipe(self) -> IO[str] | None:
        if self._owner_pid != os.getpid():  # inherited by a fork: that helper is the parent's
            self.after_fork_in_child()
        process = self._process
        if process is None or process.poll() is not None:
            process = self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", REAPER_SCRIPT],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                text=True, bufsize=1, **new_group_options(),
            )
            if process.stdin is not None and self._groups:
                process.stdin.write("".join(f"+{group}\n" for group in sorted(self._groups)))
        return process.stdin

    def after_fork_in_child(self) -> None:
        """In a forked child: let go of the parent's helper without writing to it.

        The child's copy of the pipe would keep the helper from seeing the parent's death, so it
        is pointed at ``/dev/null`` (closing the file object could flush a half-written line).
        """
        process, self._process = self._process, None
        self._owner_pid = os.getpid()
        self._groups = set()
        self._lock = threading.Lock()  # the parent's may have been held by another thread
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, process.stdin.fileno())
                os.close(null)
            process.returncode = 0  # not our child: never wait for it

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
            except (BrokenPipeError, ValueError):  # the helper died: start another next time
                self._process = None

    def register(self, group: int) -> None:
        """Kill process group *group* if this process dies before :meth:`unregister`."""
        if self.supported:
            self._groups.add(group)
        self._send(f"+{group}")

    def unregister(self, group: int) -> None:
        """*group* was stopped normally: forget it."""
        self._groups.discard(group)
        if self._process is not None:
            self._send(f"-{group}")

    @property
    def groups(self) -> frozenset[int]:
        """The groups registered now."""
        return frozenset(self._groups)

    @property
    def pid(self) -> int | None:
        """The helper process's pid, once started."""
        return None if self._process is None else self._process.pid

    def close(self) -> None:
        """Stop the helper (it kills the groups still registered)."""
        with self._lock:
            process, self._process = self._process, None
            self._groups = set()
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)


_REAPER = Reaper()


def reaper() -> Reaper:
    """The process-wide :class:`Reaper`."""
    return _REAPER


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _REAPER.after_fork_in_child())


__all__ = ["Reaper", "die_with_parent", "kill_group", "new_group_options", "reaper"]
