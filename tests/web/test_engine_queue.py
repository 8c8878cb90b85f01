"""The built-in engine's queue (issue "Hardening, round 2", finding 3): move/undo loops in one
game cannot starve another game's engine."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from shogiban.errors import EngineError
from shogiban.web.thinking import BuiltinEngines, ThinkRequest, ThinkResult


class Gate:
    """A stand-in search that records its order and waits until released."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.release = threading.Event()

    def think(self, request: ThinkRequest) -> ThinkResult:
        self.started.append(f"{request.game_id}:{'hint' if request.hint else 'move'}:{len(request.moves)}")
        assert self.release.wait(30)
        return ThinkResult(move="7g7f")


def request(game: str, plies: int = 0, *, hint: bool = False) -> ThinkRequest:
    return ThinkRequest("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                        ("7g7f", "3c3d")[:plies], game_id=game, hint=hint)


async def until(condition: object, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_move_undo_loops_leave_no_stale_searches_queued_and_computer_moves_go_first() -> None:
    gate = Gate()

    async def scenario() -> list[str]:
        engines = BuiltinEngines(1, executor=ThreadPoolExecutor(1), think=gate.think)
        busy = asyncio.create_task(engines.think(request("busy")))
        await until(lambda: engines.running == 1)
        # A hostile game asks again and again, each time cancelling its stale request (as the room does).
        pending: asyncio.Task[ThinkResult] | None = None
        for n in range(40):
            if pending is not None:
                pending.cancel()
            pending = asyncio.create_task(engines.think(request("hostile", n % 2, hint=n % 3 == 0)))
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        assert engines.waiting <= 2  # one move and one hint of that game at most
        victim = asyncio.create_task(engines.think(request("victim", 1)))
        await asyncio.sleep(0.05)
        gate.release.set()
        await asyncio.wait_for(asyncio.gather(busy, victim), 10)
        assert pending is not None
        await asyncio.gather(pending, return_exceptions=True)
        return gate.started

    started = asyncio.run(scenario())
    assert started[0] == "busy:move:0"
    assert started[1] == "victim:move:1"  # before anything of the hostile game still waiting
    assert len(started) <= 3


def test_a_newer_request_of_a_game_replaces_its_waiting_one() -> None:
    gate = Gate()

    async def scenario() -> None:
        engines = BuiltinEngines(1, executor=ThreadPoolExecutor(1), think=gate.think)
        busy = asyncio.create_task(engines.think(request("other")))
        await until(lambda: engines.running == 1)
        old = asyncio.create_task(engines.think(request("g", 0)))
        await asyncio.sleep(0.01)
        new = asyncio.create_task(engines.think(request("g", 1)))
        await asyncio.sleep(0.01)
        gate.release.set()
        with pytest.raises(asyncio.CancelledError):
            await old
        assert (await new).move == "7g7f"
        await busy

    asyncio.run(scenario())
    assert gate.started == ["other:move:0", "g:move:1"]


def test_hints_are_refused_when_too_many_searches_wait() -> None:
    gate = Gate()

    async def scenario() -> None:
        engines = BuiltinEngines(1, executor=ThreadPoolExecutor(1), think=gate.think, max_waiting=2)
        tasks = [asyncio.create_task(engines.think(request("a")))]
        await until(lambda: engines.running == 1)
        tasks += [asyncio.create_task(engines.think(request(g, hint=True))) for g in ("b", "c")]
        await asyncio.sleep(0.01)
        with pytest.raises(EngineError, match="busy"):
            await engines.think(request("d", hint=True))
        computer = asyncio.create_task(engines.think(request("e")))  # a computer move still waits its turn
        await asyncio.sleep(0.01)
        gate.release.set()
        await asyncio.wait_for(asyncio.gather(*tasks, computer), 10)

    asyncio.run(scenario())
    assert gate.started[1] == "e:move:0"


def test_a_cancelled_running_search_keeps_its_worker_until_it_ends() -> None:
    gate = Gate()

    async def scenario() -> None:
        engines = BuiltinEngines(1, executor=ThreadPoolExecutor(1), think=gate.think)
        first = asyncio.create_task(engines.think(request("a")))
        await until(lambda: engines.running == 1)
        first.cancel()
        second = asyncio.create_task(engines.think(request("b")))
        await asyncio.sleep(0.05)
        assert engines.running == 1  # the worker is still busy with the first search
        assert gate.started == ["a:move:0"]
        gate.release.set()
        assert (await asyncio.wait_for(second, 10)).move == "7g7f"
        assert engines.running == 0

    asyncio.run(scenario())


def test_a_cancelled_running_search_is_told_to_stop_and_the_next_starts() -> None:
    from shogiban.web import thinking

    stopped: list[int] = []

    def search(request: ThinkRequest) -> ThinkResult:
        signal = thinking._Cancelled(request.search_id)
        for _ in range(3000):  # a long search, checking its stop signal as the engine does
            if signal.is_set():
                stopped.append(request.search_id)
                return ThinkResult(move=None)
            threading.Event().wait(0.01)
        return ThinkResult(move="7g7f")

    async def scenario() -> None:
        engines = BuiltinEngines(1, executor=ThreadPoolExecutor(1), think=search)
        thinking._CANCELLED = engines._cancelled  # what each worker's initializer does
        try:
            stale = asyncio.create_task(engines.think(request("hostile")))
            await until(lambda: engines.running == 1)
            stale.cancel()
            await until(lambda: engines.running == 0)  # the worker stopped the stale search
            assert len(stopped) == 1
        finally:
            thinking._CANCELLED = None

    asyncio.run(scenario())
