"""An engine runs in a process group of its own: however it ends (quit, killed after a hang,
crashed, or its client killed outright), whatever it forked ends with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from usi_fakes import HANDSHAKE, Fake

from shogiban import Board
from shogiban.children import reaper
from shogiban.errors import EngineError, EngineTerminatedError
from shogiban.usi import Limit, SimpleEngine

FakeFactory = Callable[[str], Fake]
posix_only = pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
pytestmark = posix_only

SRC = str(Path(__file__).resolve().parents[2] / "src")
READY = """\
< isready
> readyok
< usinewgame
"""


def alive(pid: int) -> bool:
    """Whether *pid* runs (a zombie counts as dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def gone_within(pids: list[int], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def child_of(engine_fake: Fake, seconds: float = 10.0) -> int:
    """The pid of the process the fake engine forked (it logs ``CHILD <pid>``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for line in engine_fake.log():
            if line.startswith("CHILD "):
                return int(line.split()[1])
        time.sleep(0.02)
    raise AssertionError(f"the fake engine forked nothing: {engine_fake.log()}")


def kill_leftovers(pids: list[int]) -> None:
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_quit_ends_what_the_engine_forked(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + """\
        spawn
        < quit
        """)
    engine = SimpleEngine.popen_usi(engine_fake.command)
    grandchild = child_of(engine_fake)
    try:
        group = engine.transport.get_pid()
        assert os.getpgid(grandchild) == group  # the engine leads its own group
        assert os.getpgid(group) != os.getpgid(0)
        assert group in reaper().groups
        engine.quit()
        assert gone_within([grandchild]), "the engine's child outlived a normal quit"
        assert group not in reaper().groups
    finally:
        kill_leftovers([grandchild])


def test_killing_a_hung_engine_ends_what_it_forked(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < re:go .*
        spawn
        hang
        """)
    engine = SimpleEngine.popen_usi(engine_fake.command, timeout=0.2)
    engine.protocol.stop_grace = 0.05
    try:
        with pytest.raises(EngineError, match="engine killed"):
            engine.play(Board(), Limit(byoyomi=0.05))
        grandchild = child_of(engine_fake)
        assert gone_within([grandchild]), "the hung engine's child survived the kill"
    finally:
        engine.quit()
        kill_leftovers([child_of(engine_fake)])


def test_a_crashed_engine_leaves_nothing_behind(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < re:go .*
        spawn
        exit 134
        """)
    engine = SimpleEngine.popen_usi(engine_fake.command)
    try:
        with pytest.raises(EngineTerminatedError, match="exit code 134"):
            engine.play(Board(), Limit(byoyomi=5))
        grandchild = child_of(engine_fake)
        assert gone_within([grandchild]), "the crashed engine's child lived on"
        assert engine.transport.get_pid() not in reaper().groups
    finally:
        engine.quit()
        kill_leftovers([child_of(engine_fake)])


def test_an_engine_and_its_child_die_with_a_client_killed_outright(fake: FakeFactory) -> None:
    """The terminal game and the match runner drive engines through SimpleEngine: kill -9 of
    such a client while its engine thinks must not leave the engine (or its helpers) running."""
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < re:go .*
        spawn
        hang
        """)
    script = textwrap.dedent(f"""
        import threading, time
        from shogiban import Board
        from shogiban.children import reaper
        from shogiban.usi import Limit, SimpleEngine
        engine = SimpleEngine.popen_usi({engine_fake.command!r})
        threading.Thread(target=engine.play, args=(Board(), Limit(depth=30)), daemon=True).start()
        print(engine.transport.get_pid(), reaper().pid, flush=True)
        time.sleep(600)
    """)
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    client = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env)
    assert client.stdout is not None
    pids = [int(word) for word in client.stdout.readline().split()]
    grandchild = child_of(engine_fake)
    pids.append(grandchild)
    try:
        assert all(alive(pid) for pid in pids)
        client.kill()
        client.wait(timeout=10)
        assert gone_within(pids), f"left running after the client died: {[p for p in pids if alive(p)]}"
    finally:
        kill_leftovers(pids)
        client.stdout.close()


def _children(root: int) -> list[int]:
    """Every process below *root*, from the parent links in /proc."""
    links: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            links.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in links.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_the_match_runners_engines_die_with_it(tmp_path: Path) -> None:
    """``shogiban match builtin:8 builtin:8``: each side is a ``shogiban usi`` subprocess."""
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    runner = subprocess.Popen(
        [sys.executable, "-m", "shogiban", "match", "builtin:8", "builtin:8", "--byoyomi", "60", "--games", "1",
         "--out", str(tmp_path)], env=env, stdout=subprocess.DEVNULL,
    )
    tree: list[int] = []
    try:
        deadline = time.monotonic() + 60
        engines: list[int] = []
        while time.monotonic() < deadline:
            engines = [pid for pid in _children(runner.pid) if "shogiban.usi.server" in _cmdline(pid)]
            if len(engines) == 2 and max(_cpu_seconds(pid) for pid in engines) >= 0.5:
                break
            time.sleep(0.1)
        assert len(engines) == 2, "the match did not start its two engines"
        tree = _children(runner.pid)
        runner.kill()
        runner.wait(timeout=10)
        assert gone_within(tree), f"left running: {[_cmdline(p) for p in tree if alive(p)]}"
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
        kill_leftovers(tree)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""
