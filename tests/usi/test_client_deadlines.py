"""Every wait of the USI client has a deadline, whatever the limit: against an engine that never
answers ``go``, each kind of search ends in :class:`EngineError` with the engine killed, through
the asyncio client and through :class:`SimpleEngine`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest
from usi_fakes import HANDSHAKE, Fake

from shogiban import Board
from shogiban.errors import EngineError, EngineTerminatedError
from shogiban.usi import EngineMoveError, Limit, SimpleEngine, UsiProtocol, popen_usi
from shogiban.usi.protocol import DEFAULT_SEARCH_TIMEOUT

FakeFactory = Callable[[str], Fake]

#: What the engine may take to answer a command (also after ``stop``), and how long a search
#: without a time limit may run, in these tests: short, so that the hung engines die quickly.
TIMEOUT = 0.2
SEARCH_TIMEOUT = 0.3
#: No call may take longer than this (ten times what any of them needs).
GUARD = 30.0

SILENT_GO = HANDSHAKE + """\
    < isready
    > readyok
    < usinewgame
    < re:position .*
    < re:go.*
    hang
    """
"""An engine that takes ``go`` and then never says a word (nor reads another line)."""

PONDER_THEN_SILENT = HANDSHAKE + """\
    < isready
    > readyok
    < usinewgame
    < position startpos
    < re:go .*
    > bestmove 7g7f ponder 3c3d
    < position startpos moves 7g7f 3c3d
    < re:go ponder .*
    hang
    """
"""An engine that answers one move, then ponders for ever and hears nothing more."""

AFTER_PONDER = Board()
AFTER_PONDER.push_usi("7g7f")
AFTER_PONDER.push_usi("3c3d")
PONDER_MISS = Board()
PONDER_MISS.push_usi("7g7f")
PONDER_MISS.push_usi("8c8d")


@dataclass(frozen=True)
class Case:
    """One kind of search: the engine's script and the client's calls."""

    name: str
    script: str
    run: Callable[[UsiProtocol], Awaitable[object]]


async def _play(engine: UsiProtocol, limit: Limit) -> object:
    return await engine.play(Board(), limit)


async def _ponder(engine: UsiProtocol, after: Board) -> object:
    first = await engine.play(Board(), Limit(byoyomi=0.05), ponder=True)
    assert first.ponder is not None  # type: ignore[attr-defined]
    return await engine.play(after, Limit(byoyomi=0.05))  # ponderhit, or stop on a miss


async def _infinite_then_stop(engine: UsiProtocol) -> object:
    analysis = await engine.analysis(Board())
    analysis.stop()
    return await analysis.wait()


async def _analyse_depth(engine: UsiProtocol) -> object:
    return await engine.analyse(Board(), Limit(depth=5))


CASES = [
    Case("movetime", SILENT_GO, lambda e: _play(e, Limit(time=0.05))),
    Case("byoyomi", SILENT_GO, lambda e: _play(e, Limit(byoyomi=0.05))),
    Case("btime-wtime", SILENT_GO, lambda e: _play(e, Limit(btime=0.05, wtime=60))),
    Case("increments", SILENT_GO, lambda e: _play(e, Limit(btime=0, wtime=0, binc=0.05, winc=0.05))),
    Case("depth", SILENT_GO, lambda e: _play(e, Limit(depth=5))),
    Case("nodes", SILENT_GO, lambda e: _play(e, Limit(nodes=10_000))),
    Case("no-limit", SILENT_GO, lambda e: _play(e, Limit())),
    Case("analyse-depth", SILENT_GO, _analyse_depth),
    Case("mate-time", SILENT_GO, lambda e: e.mate(Board(), 0.05)),
    Case("mate-infinite", SILENT_GO, lambda e: e.mate(Board())),
    Case("infinite-stop", SILENT_GO, _infinite_then_stop),
    Case("ponderhit", PONDER_THEN_SILENT, lambda e: _ponder(e, AFTER_PONDER)),
    Case("ponder-miss", PONDER_THEN_SILENT, lambda e: _ponder(e, PONDER_MISS)),
]
IDS = [case.name for case in CASES]


def _assert_killed(error: BaseException, transport: asyncio.SubprocessTransport) -> None:
    assert isinstance(error, EngineError), repr(error)
    assert not isinstance(error, EngineMoveError | EngineTerminatedError), repr(error)
    assert "engine killed" in str(error)
    assert transport.get_returncode() is not None, "the hung engine is still running"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_async_client_gives_up_on_a_silent_engine(fake: FakeFactory, case: Case) -> None:
    engine_fake = fake(case.script)

    async def main() -> None:
        transport, engine = await popen_usi(engine_fake.command, timeout=TIMEOUT, search_timeout=SEARCH_TIMEOUT)
        engine.stop_grace = 0.05
        with pytest.raises(EngineError) as caught:
            await asyncio.wait_for(case.run(engine), GUARD)
        _assert_killed(caught.value, transport)
        await engine.quit()

    asyncio.run(main())
    assert "HANG" in engine_fake.log()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_simple_engine_gives_up_on_a_silent_engine(fake: FakeFactory, case: Case) -> None:
    engine_fake = fake(case.script)
    engine = SimpleEngine.popen_usi(engine_fake.command, timeout=TIMEOUT, search_timeout=SEARCH_TIMEOUT)
    engine.protocol.stop_grace = 0.05
    outcome: list[BaseException | object] = []

    def call() -> None:
        try:
            outcome.append(engine._run(case.run(engine.protocol)))  # the blocking path every method takes
        except BaseException as error:  # handed to the test's thread
            outcome.append(error)

    caller = threading.Thread(target=call, daemon=True)
    caller.start()
    caller.join(GUARD)
    try:
        assert not caller.is_alive(), f"{case.name}: the call hung"
        assert isinstance(outcome[0], BaseException), outcome
        _assert_killed(outcome[0], engine.transport)
        assert not engine.alive
    finally:
        engine.quit()
    assert "HANG" in engine_fake.log()


def test_simple_engine_methods_take_the_same_deadlines(fake: FakeFactory) -> None:
    """The public blocking methods, not only the coroutine they run: depth and mate infinite."""
    for call in (lambda e: e.play(Board(), Limit(depth=3)), lambda e: e.mate(Board())):
        engine = SimpleEngine.popen_usi(fake(SILENT_GO).command, timeout=TIMEOUT, search_timeout=SEARCH_TIMEOUT)
        try:
            with pytest.raises(EngineError, match="engine killed"):
                call(engine)
        finally:
            engine.quit()


def test_the_default_search_timeout_is_generous_and_can_be_changed(fake: FakeFactory) -> None:
    assert DEFAULT_SEARCH_TIMEOUT >= 60
    engine = SimpleEngine.popen_usi(fake(HANDSHAKE + "< quit\n").command)
    try:
        assert engine.protocol.search_timeout == DEFAULT_SEARCH_TIMEOUT
        # Under the default, a depth search gets the default; an explicit timeout wins over it.
        assert engine.protocol._deadline(Board(), Limit(depth=30), None) == DEFAULT_SEARCH_TIMEOUT
        assert engine.protocol._deadline(Board(), Limit(depth=30), 7.0) == 7.0
        grace = engine.protocol.stop_grace
        assert engine.protocol._deadline(Board(), Limit(byoyomi=2), None) == pytest.approx(2 + grace)
        assert engine.protocol._deadline(Board(), Limit(infinite=True), None) is None  # its caller stops it
    finally:
        engine.quit()


def test_a_dead_event_loop_thread_does_not_hang_the_caller(fake: FakeFactory) -> None:
    engine_fake = fake(SILENT_GO)
    engine = SimpleEngine.popen_usi(engine_fake.command, timeout=TIMEOUT, search_timeout=60)
    engine._loop.call_soon_threadsafe(engine._loop.stop)  # the background thread ends mid-use
    engine._thread.join(GUARD)
    with pytest.raises(EngineError, match="event-loop thread"):
        engine.play(Board(), Limit(depth=3))
    engine._loop.run_until_complete(engine.protocol.kill())  # clean up on this thread instead
    engine._loop.close()
    engine._closed = True
