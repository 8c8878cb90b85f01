"""What an engine writes cannot grow the client without bound: ``info`` floods, overlong lines,
unbounded ``multipv`` ranks, stderr floods and log floods."""

from __future__ import annotations

import asyncio
import logging
import time
import tracemalloc
from collections.abc import Callable

import pytest
from usi_fakes import HANDSHAKE, Fake

from shogiban import Board, Color, Move
from shogiban.engines import InfoDict
from shogiban.engines.analysis import MAX_QUEUED_INFOS, InfoQueue
from shogiban.usi import Limit, PovScore, Score, SimpleEngine
from shogiban.usi.buffers import MAX_LINE_BYTES, LineBuffer
from shogiban.usi.protocol import MAX_MULTIPV, MAX_OPTIONS, MAX_WARNINGS, STDERR_LINE_CHARS, UsiProtocol, _Search

FakeFactory = Callable[[str], Fake]

READY = """\
< isready
> readyok
< usinewgame
"""
FLOOD = 20_000
"""Info lines in a flood: enough that keeping them all costs megabytes (about 700 bytes each)."""


def test_play_under_an_info_flood_keeps_only_the_merged_latest_info(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + f"""\
        < position startpos
        < go depth 4
        repeat {FLOOD} info depth 3 seldepth 5 nodes 900 score cp 5 pv 7g7f 3c3d 2g2f 8c8d
        > info depth 4 score cp 7 pv 2g2f 8c8d
        > bestmove 2g2f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        engine.ping()
        tracemalloc.start()
        try:
            result = engine.play(Board(), Limit(depth=4))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert result.move == Move.from_usi("2g2f")
    assert result.info == {"depth": 4, "seldepth": 5, "nodes": 900, "score": PovScore(Score(cp=7), Color.BLACK),
                           "pv": [Move.from_usi("2g2f"), Move.from_usi("8c8d")]}
    # Keeping every info would take well over 10 MB; the pipe's chunks and one parsed line remain.
    assert peak < 3_000_000, f"{peak / 1e6:.1f} MB traced during a flood of {FLOOD} info lines"
    engine_fake.assert_complete()


def test_a_lagging_analysis_reader_gets_the_latest_lines_in_bounded_memory(fake: FakeFactory) -> None:
    flood = "".join(f"repeat {FLOOD // 3} info depth 2 multipv {rank} score cp {rank} pv 7g7f\n" for rank in (1, 2, 3))
    engine_fake = fake(HANDSHAKE + READY + f"""\
        < position startpos
        < go infinite
        {flood}
        > info depth 9 multipv 2 score cp 22 pv 2g2f
        > info depth 9 multipv 1 score cp 11 pv 7g7f
        > info string done
        < stop
        > bestmove 7g7f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        analysis = engine.analysis(Board())
        deadline = time.monotonic() + 60
        while "send:info string done" not in engine_fake.log() and time.monotonic() < deadline:
            time.sleep(0.05)  # the reader is busy elsewhere while the engine floods
        time.sleep(0.2)
        analysis.stop()
        assert analysis.wait().move == Move.from_usi("7g7f")
        seen = list(analysis)
    assert len(seen) <= MAX_QUEUED_INFOS
    # The newest state survives: the last lines, in order, and the latest of every other line.
    assert [(i.get("multipv"), i.get("depth"), i.get("string")) for i in seen[-3:]] == [
        (2, 9, None), (1, 9, None), (None, None, "done")]
    assert any(info.get("multipv") == 3 for info in seen)
    assert analysis.multipv[0]["depth"] == 9
    assert analysis.multipv[2]["score"].relative == Score(cp=3)


def test_info_queue_keeps_the_latest_of_each_line_past_its_bound() -> None:
    async def main() -> list[InfoDict]:
        queue = InfoQueue(limit=100)
        for n in range(10_000):
            queue.put(InfoDict(multipv=n % 3 + 1, nodes=n))
            assert len(queue) <= 100
        queue.put(InfoDict(string="last words"))
        queue.close()
        items = []
        while (item := await queue.get()) is not None:
            items.append(item)
        return items

    items = asyncio.run(main())
    assert items[-1] == {"string": "last words"}
    latest = {item["multipv"]: item["nodes"] for item in items[:-1]}
    assert latest == {1: 9999, 2: 9997, 3: 9998}
    nodes = [item["nodes"] for item in items[:-1]]
    assert nodes == sorted(nodes)  # still in order


def test_overlong_lines_are_dropped_and_the_engine_stays_usable(fake: FakeFactory) -> None:
    junk = "x" * (MAX_LINE_BYTES + 10)
    engine_fake = fake(HANDSHAKE + READY + f"""\
        < position startpos
        < go depth 1
        > info depth 1 score cp 1 pv 7g7f {"7g7f " * (MAX_LINE_BYTES // 5)}
        > {junk}
        > info depth 1 score cp 2 pv 2g2f
        > bestmove 2g2f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        result = engine.play(Board(), Limit(depth=1))
        assert engine.protocol._stdout.dropped == 2
    assert result.move == Move.from_usi("2g2f")
    assert result.info == {"depth": 1, "score": PovScore(Score(cp=2), Color.BLACK), "pv": [Move.from_usi("2g2f")]}
    engine_fake.assert_complete()


def test_line_buffer_holds_at_most_one_line_and_runs_in_linear_time() -> None:
    lines = LineBuffer(limit=1000)
    for _ in range(5000):  # 5 MB without a line break, in pipe-sized chunks
        assert lines.feed(b"y" * 1000) == []
        assert len(lines._partial) <= 1000
    assert lines.feed(b"tail\nok\n") == [b"ok"]
    assert lines.dropped == 1

    def feed_time(count: int) -> float:
        data = b"info depth 1\n" * count  # many lines in one chunk: the quadratic case of a naive splitter
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            assert len(LineBuffer().feed(data)) == count
            best = min(best, time.process_time() - start)
        return best

    small, large = feed_time(20_000), feed_time(200_000)
    assert large < small * 30, f"10x the lines took {large / small:.0f}x the time"


def test_stderr_and_multipv_floods_stay_bounded(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> UsiProtocol:
        protocol = UsiProtocol()
        protocol.pipe_data_received(2, b"E" * 50_000 + b"\n" + b"e\n" * 10_000)
        assert len(protocol.stderr_tail) == 10
        protocol.pipe_data_received(2, b"F" * 5_000 + b"\n")
        assert max(len(line) for line in protocol.stderr_tail) == STDERR_LINE_CHARS
        search = protocol._search = _Search(protocol, Board(), "analysis", "position startpos")
        lines = b"".join(b"info multipv %d score cp 1 pv 7g7f\n" % rank for rank in range(1, 5_000))
        lines += b"info depth x\n" * 1_000 + b"info score banana 1\n" * 1_000
        protocol.pipe_data_received(1, lines)
        assert len(search.multipv) == MAX_MULTIPV
        return protocol

    with caplog.at_level(logging.WARNING, logger="shogiban.usi"):
        asyncio.run(main())
    warnings = [record for record in caplog.records if record.levelno == logging.WARNING]
    assert len(warnings) <= MAX_WARNINGS + 1, [record.getMessage() for record in warnings]


def test_a_handshake_flood_keeps_a_bounded_id_and_option_table(fake: FakeFactory) -> None:
    engine_fake = fake(f"""\
        < usi
        > id name Flooder
        repeat 3000 id extra something
        repeat 3000 option name broken
        > option name Hash type spin default 16 min 1 max 1024
        {"".join(f"> option name Opt{n} type check default true{chr(10)}" for n in range(MAX_OPTIONS + 50))}
        > usiok
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        assert engine.id == {"name": "Flooder"}
        assert len(engine.options) == MAX_OPTIONS
        assert engine.options["Hash"].max == 1024
    engine_fake.assert_complete()


def test_pvs_are_checked_when_read_and_cut_before_an_illegal_move(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go depth 2
        > info depth 1 score cp 1 pv 2g2f 2g2f
        > info depth 2 score cp 2 pv 7g7f 3c3d 7g7f 8c8d
        > bestmove 7g7f
        < position startpos
        < go infinite
        > info depth 1 score cp 3 pv 7g7f 7g7f
        > info depth 2 score cp 4 pv 7g7g 3c3d
        < stop
        > bestmove 7g7f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        result = engine.play(Board(), Limit(depth=2))
        assert result.info["pv"] == [Move.from_usi("7g7f"), Move.from_usi("3c3d")]
        analysis = engine.analysis(Board())
        first = analysis.get()
        assert first["pv"] == [Move.from_usi("7g7f")]
        second = analysis.get()
        assert second["pv"] == []  # 7g7g is not a move at all
        analysis.stop()
        assert analysis.wait().move == Move.from_usi("7g7f")
        assert analysis.info["score"].relative == Score(cp=4)
    engine_fake.assert_complete()
