"""Child processes die with their parent: killed outright, the parent takes its workers, its
engines and whatever those forked along."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from shogiban.children import REAPER_SCRIPT, Reaper, kill_group, new_group_options

posix_only = pytest.mark.skipif(os.name != "posix", reason="process groups and kill -9 are POSIX")
SRC = str(Path(__file__).resolve().parents[1] / "src")


def _alive(pid: int) -> bool:
    """Whether *pid* runs (a zombie, dead but not yet reaped, counts as dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        try:
            return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False
    return True


def _gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def _start_parent(script: str) -> tuple[subprocess.Popen[str], list[int]]:
    """Run *script* in a Python parent that prints the pids to watch on its first line."""
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    parent = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert parent.stdout is not None
    line = parent.stdout.readline()
    pids = [int(word) for word in line.split()]
    assert pids, f"the parent printed no pids: {line!r}"
    return parent, pids


def _kill_parent(parent: subprocess.Popen[str]) -> None:
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=10)


def _cleanup(pids: list[int]) -> None:
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


@posix_only
def test_pool_worker_dies_when_its_parent_is_killed() -> None:
    parent, pids = _start_parent("""
        import os, time
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context
        from shogiban.children import die_with_parent
        if __name__ == "__main__":
            pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"), initializer=die_with_parent)
            print(pool.submit(os.getpid).result(), flush=True)
            time.sleep(600)
    """)
    try:
        assert all(_alive(pid) for pid in pids)
        _kill_parent(parent)
        assert _gone_within(pids, 10), "the pool worker outlived its parent"
    finally:
        _cleanup(pids)


@posix_only
def test_plain_child_dies_when_its_parent_is_killed() -> None:
    """Not a multiprocessing child: the parent-death signal (Linux) or the pid watch does it."""
    parent, pids = _start_parent("""
        import subprocess, sys, time
        code = "from shogiban.children import die_with_parent; import time; die_with_parent(); time.sleep(600)"
        child = subprocess.Popen([sys.executable, "-c", code])
        print(child.pid, flush=True)
        time.sleep(600)
    """)
    try:
        time.sleep(0.5)  # let the child arm its watch
        _kill_parent(parent)
        assert _gone_within(pids, 10), "the child outlived its parent"
    finally:
        _cleanup(pids)


@posix_only
def test_reaper_kills_a_program_and_what_it_forked_when_the_parent_is_killed() -> None:
    parent, pids = _start_parent("""
        import subprocess, time
        from shogiban.children import new_group_options, reaper
        program = subprocess.Popen(["sh", "-c", "sleep 600 & echo $!; wait"], stdout=subprocess.PIPE, text=True,
                                   **new_group_options())
        grandchild = int(program.stdout.readline())
        reaper().register(program.pid)
        print(program.pid, grandchild, reaper().pid, flush=True)
        time.sleep(600)
    """)
    try:
        program, grandchild, helper = pids
        assert _alive(program)
        assert _alive(grandchild)
        assert _alive(helper)
        _kill_parent(parent)
        assert _gone_within([program, grandchild, helper], 10), "the engine, its child or the reaper lived on"
    finally:
        _cleanup(pids)


@posix_only
def test_kill_group_reaches_grandchildren() -> None:
    program = subprocess.Popen(
        ["sh", "-c", "sleep 600 & echo $!; wait"], stdout=subprocess.PIPE, text=True, **new_group_options()
    )
    assert program.stdout is not None
    grandchild = int(program.stdout.readline())
    try:
        kill_group(program.pid)
        program.wait(timeout=10)
        assert _gone_within([grandchild], 10)
        kill_group(program.pid)  # gone already: not an error
    finally:
        _cleanup([program.pid, grandchild])


@posix_only
def test_unregistered_group_is_left_alone_and_close_stops_the_reaper() -> None:
    reaper = Reaper()
    program = subprocess.Popen(["sleep", "600"], **new_group_options())
    try:
        reaper.register(program.pid)
        reaper.unregister(program.pid)
        helper = reaper.pid
        assert helper is not None
        reaper.close()
        assert _gone_within([helper], 10)
        assert program.poll() is None, "an unregistered group was killed"
    finally:
        program.kill()
        program.wait()


def test_reaper_script_ignores_junk_lines() -> None:
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", REAPER_SCRIPT], input="hello\n+\n-x\n+12a\n\n", text=True,
        capture_output=True, timeout=30, check=False,
    )
    assert result.returncode == 0, result.stderr


@posix_only
def test_worker_outlives_the_thread_that_started_it_but_not_its_parent() -> None:
    """Linux sends the parent-death signal when the *thread* that started a child ends: a worker
    started from a short-lived thread must not die then, only when the parent process does."""
    parent, pids = _start_parent("""
        import subprocess, sys, threading, time
        code = "from shogiban.children import die_with_parent; import time; die_with_parent(); time.sleep(600)"
        children = []
        def start():
            children.append(subprocess.Popen([sys.executable, "-c", code]))
            time.sleep(1.0)  # the child arms its watch while this thread lives; then the thread ends
        thread = threading.Thread(target=start)
        thread.start()
        thread.join()
        time.sleep(1.0)
        print(children[0].pid, flush=True)
        time.sleep(600)
    """)
    try:
        assert all(_alive(pid) for pid in pids), "the worker died with the thread that started it"
        _kill_parent(parent)
        assert _gone_within(pids, 10), "the worker outlived its parent"
    finally:
        _cleanup(pids)


@posix_only
def test_a_killed_reaper_is_replaced_by_one_that_watches_every_group() -> None:
    reaper = Reaper()
    program = subprocess.Popen(["sleep", "600"], **new_group_options())
    try:
        reaper.register(program.pid)
        first = reaper.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        assert _gone_within([first], 10)
        other = subprocess.Popen(["sleep", "600"], **new_group_options())
        try:
            reaper.register(other.pid)  # starts a new helper, told about both groups
            assert reaper.pid not in (None, first)
            assert reaper.groups == {program.pid, other.pid}
            reaper.close()  # the helper kills the groups still registered
            assert _gone_within([program.pid, other.pid], 10), "a group registered before the restart lived on"
        finally:
            other.kill()
            other.wait()
    finally:
        program.kill()
        program.wait()


@posix_only
def test_a_forked_child_does_not_keep_the_reaper_from_seeing_its_parent_die() -> None:
    parent, pids = _start_parent("""
        import os, subprocess, time
        from shogiban.children import new_group_options, reaper
        program = subprocess.Popen(["sleep", "600"], **new_group_options())
        reaper().register(program.pid)
        forked = os.fork()
        if forked == 0:  # a plain fork holds a copy of every descriptor, the reaper's pipe included
            time.sleep(600)
            os._exit(0)
        print(program.pid, reaper().pid, forked, flush=True)
        time.sleep(600)
    """)
    program, helper, forked = pids
    try:
        _kill_parent(parent)
        assert _gone_within([program, helper], 10), "the forked child kept the reaper from acting"
        assert _alive(forked)
    finally:
        _cleanup(pids)
