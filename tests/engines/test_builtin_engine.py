"""What is particular to the in-process built-in engine: its searches run in worker threads (the
event loop stays free, no thread outlives its search), pondering runs until the next command, an
engine bug is an EngineError, options act on the search, ``kill``."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from shogiban import Board
from shogiban.engine import BuiltinSearch as Search
from shogiban.engines import (
    BuiltinEngine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    PlayResult,
    SimpleEngine,
)
from shogiban.engines.builtin import MAX_MULTIPV

MIDGAME = "ln1g3nl/1r1s1kgs1/ppp2p3/3P2p2/2PN1P2P/6P2/PP1+b3+pL/5R3/2S1KGSN1 b 5Pbgl 51"
GENEROUS = 10.0


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


def search_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name.startswith("shogiban-") and thread.is_alive()
            and thread.name != "shogiban-builtin-client"]


def wait_for_no_search_thread() -> None:
    deadline = time.monotonic() + GENEROUS
    while search_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not search_threads()


def test_the_event_loop_stays_free_while_the_engine_thinks() -> None:
    async def test() -> None:
        engine = BuiltinEngine(seed=0)
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.02)
                ticks += 1

        ticker = asyncio.ensure_future(tick())
        result = await engine.play(Board(MIDGAME), Limit(time=1.0))
        ticker.cancel()
        assert result.move in Board(MIDGAME).legal_moves
        assert ticks >= 5  # about 50 when the loop is free; none if the search ran in the loop
        await engine.quit()

    run(test)
    wait_for_no_search_thread()


class Failing(Search):
    """A search with a bug in its first call."""

    calls = 0

    def search(self, board: Board, limit: Limit, **kwargs: Any) -> PlayResult:  # type: ignore[override]
        self.calls += 1
        if self.calls == 1:
            raise ZeroDivisionError("a bug")
        return super().search(board, limit, **kwargs)


def test_a_bug_in_the_search_is_an_engine_error_and_the_engine_goes_on() -> None:
    async def test() -> None:
        engine = BuiltinEngine(search=Failing(seed=0))
        with pytest.raises(EngineError, match="the built-in engine failed: ZeroDivisionError") as raised:
            await engine.play(Board(), Limit(depth=1))
        assert raised.value.code == "engine_error"
        assert engine.alive
        assert (await engine.play(Board(), Limit(depth=1))).move in Board().legal_moves
        await engine.quit()

    run(test)


def test_pondering_runs_until_the_next_command() -> None:
    async def test() -> None:
        engine = BuiltinEngine(seed=0)
        result = await engine.play(Board(), Limit(depth=2), ponder=True)
        assert result.ponder is not None
        job = engine._job
        assert job is not None
        assert job.kind == "ponder"
        after = Board()
        after.push(result.move)  # type: ignore[arg-type]
        after.push(result.ponder)
        assert job.key == (after.starting_sfen, tuple(after.move_stack))
        await asyncio.sleep(0.2)
        assert not job.done.done()  # an infinite search on the expected position
        await engine.stop_pondering()
        assert job.stop.is_set()
        assert job.done.done()
        assert engine._job is None
        await engine.play(Board(), Limit(depth=1), ponder=True)
        await engine.quit()  # ends the ponder search too

    run(test)
    wait_for_no_search_thread()


def test_quit_ends_a_running_analysis() -> None:
    async def test() -> None:
        engine = BuiltinEngine(seed=0)
        analysis = await engine.analysis(Board(MIDGAME))
        await analysis.get()
        await engine.quit()
        rest = [info async for info in analysis]  # ends: the search was stopped
        assert all("depth" in info for info in rest)
        assert (await analysis.wait()).move in Board(MIDGAME).legal_moves
        with pytest.raises(EngineTerminatedError, match="has quit"):
            await engine.analysis(Board())

    run(test)
    wait_for_no_search_thread()


def test_kill_stops_at_once() -> None:
    async def test() -> None:
        engine = BuiltinEngine(seed=0)
        analysis = await engine.analysis(Board(MIDGAME))
        await engine.kill()
        assert not engine.alive
        with pytest.raises(EngineTerminatedError, match="killed"):
            await analysis.wait()
        with pytest.raises(EngineTerminatedError, match="killed"):
            await engine.play(Board(), Limit(depth=1))

    run(test)
    wait_for_no_search_thread()


def test_options_act_on_the_search() -> None:
    async def test() -> None:
        engine = BuiltinEngine(level=5, hash_mb=16, seed=0)
        assert engine.options["Level"].default == 5
        assert engine.options["USI_Hash"].default == 16
        assert engine.options["MultiPV"].max == MAX_MULTIPV
        await engine.configure({"level": 2, "USI_Hash": 8, "MultiPV": 2, "USI_Ponder": True})
        assert (engine.search.level, engine.search.hash_mb, engine.multipv) == (2, 8, 2)
        assert engine.config == {"Level": "2", "USI_Hash": "8", "MultiPV": "2"}
        running = await engine.analysis(Board(), Limit(depth=2))  # MultiPV 2 when not told
        await running.wait()
        assert [line["multipv"] for line in running.multipv] == [1, 2]
        with pytest.raises(EngineError, match="range"):
            await engine.configure({"MultiPV": MAX_MULTIPV + 1})
        with pytest.raises(ValueError, match="multipv"):
            await engine.analysis(Board(), multipv=0)
        assert engine.multipv == 2  # a refused configure changes nothing
        await engine.quit()

    run(test)


def test_the_max_multipv_is_the_searchs() -> None:
    from shogiban.engine import MAX_MULTIPV as SEARCH_MAX

    assert MAX_MULTIPV == SEARCH_MAX


def test_simple_engine_builtin() -> None:
    with SimpleEngine.builtin(level=1, seed=0) as engine:
        assert repr(engine).endswith("in-process>")
        assert engine.transport is None
        assert engine.play(Board(), Limit(depth=1)).move in Board().legal_moves
    assert not engine.alive
    with pytest.raises(EngineError, match="closed"):
        engine.play(Board(), Limit(depth=1))
    with pytest.raises(ValueError, match="level"):
        SimpleEngine.builtin(level=9)


class Stubborn(Search):
    """A search that ignores its stop event until the test lets it go."""

    def __init__(self, release: threading.Event) -> None:
        super().__init__(8, seed=0)
        self.release = release

    def search(self, board: Board, limit: Limit, **kwargs: Any) -> PlayResult:  # type: ignore[override]
        self.release.wait(60)
        return PlayResult(None, resigned=True)


def test_an_analysis_that_will_not_stop_makes_the_next_command_give_up() -> None:
    release = threading.Event()

    async def test() -> None:
        engine = BuiltinEngine(search=Stubborn(release), timeout=0.3)
        analysis = await engine.analysis(Board())
        with pytest.raises(EngineTimeoutError, match=r"did not stop within 0\.3 s") as raised:
            await engine.play(Board(), Limit(depth=1))
        assert raised.value.code == "engine_timeout"
        assert not engine.alive
        with pytest.raises(EngineTimeoutError):
            await analysis.wait()
        with pytest.raises(EngineTimeoutError):
            await engine.new_game()
        await engine.quit()  # nothing left to end

    try:
        run(test)
    finally:
        release.set()
    wait_for_no_search_thread()
