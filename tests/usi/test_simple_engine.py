"""The USI client against scripted fake engines (real subprocesses)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from usi_fakes import HANDSHAKE, Fake

from shogiban import Board, Color, Move
from shogiban.errors import EngineError, EngineTerminatedError
from shogiban.usi import EngineMoveError, Limit, PovScore, Score, SimpleEngine, popen_usi

FakeFactory = Callable[[str], Fake]

READY = """\
< isready
> readyok
< usinewgame
"""


def process_gone(engine: SimpleEngine) -> bool:
    """Whether the engine's process has exited and been reaped."""
    pid = engine.transport.get_pid()
    if engine.transport.get_returncode() is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # The pid exists: only acceptable if it is a zombie we have not reaped (it must not be).
    return False


# -- handshake and options -----------------------------------------------------------------------


def test_handshake_parses_id_and_typed_options(fake: FakeFactory) -> None:
    engine_fake = fake("""\
        < usi
        > id name 水匠テスト 5.0
        > id author 誰か
        > option name USI_Hash type spin default 256 min 1 max 4096
        > option name USI_Ponder type check default true
        > option name BookFile type string default <empty>
        > option name EvalDir type filename default eval
        > option name BookMoveSelector type combo default default var default var random
        > option name ClearHash type button
        > option name Skill Level type spin default 20 min -20 max 20
        > option name broken line without type
        > usiok
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        assert engine.id == {"name": "水匠テスト 5.0", "author": "誰か"}
        assert engine.name == "水匠テスト 5.0"
        options = engine.options
        assert options["usi_hash"].min == 1
        assert options["USI_Hash"].max == 4096
        assert options["USI_Hash"].default == 256
        assert options["USI_Ponder"].default is True
        assert options["BookFile"].type == "string"
        assert options["BookFile"].default == ""
        assert options["EvalDir"].type == "filename"
        assert options["EvalDir"].default == "eval"
        assert options["BookMoveSelector"].var == ("default", "random")
        assert options["BookMoveSelector"].default == "default"
        assert options["ClearHash"].type == "button"
        assert options["Skill Level"].min == -20
        assert "broken line without type" not in options
        assert len(options) == 7
    engine_fake.assert_complete()


def test_configure_sends_setoption_and_checks_values(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + """\
        < setoption name Skill Level value 3
        < setoption name USI_Hash value 32
        < setoption name USI_Ponder value false
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        engine.configure({"skill level": 3, "USI_Hash": 32, "USI_Ponder": False})
        with pytest.raises(EngineError, match="unknown option 'Hash'"):
            engine.configure({"Hash": 16})
        with pytest.raises(EngineError, match=r"range 0\.\.20"):
            engine.configure({"Skill Level": 21})
        with pytest.raises(EngineError, match="expected an integer"):
            engine.configure({"Skill Level": "strong"})
    engine_fake.assert_complete()


# -- play with each kind of limit ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("limit", "go"),
    [
        (Limit(byoyomi=1), "go btime 0 wtime 0 byoyomi 1000"),
        (Limit(btime=60, wtime=timedelta(seconds=30), byoyomi=timedelta(milliseconds=500)),
         "go btime 60000 wtime 30000 byoyomi 500"),
        (Limit(btime=30, wtime=33, binc=5, winc=5), "go btime 30000 wtime 33000 binc 5000 winc 5000"),
        (Limit(time=0.25), "go movetime 250"),
        (Limit(depth=4), "go depth 4"),
        (Limit(nodes=10000), "go nodes 10000"),
    ],
)
def test_play_sends_each_limit(fake: FakeFactory, limit: Limit, go: str) -> None:
    engine_fake = fake(HANDSHAKE + READY + f"""\
        < position startpos moves 7g7f
        < {go}
        > info depth 1 seldepth 2 time 5 nodes 100 nps 20000 hashfull 3 score cp -12 pv 3c3d 2g2f
        > info depth 2 score cp -20 lowerbound pv 8c8d
        > bestmove 8c8d ponder 2g2f
        < quit
        """)
    board = Board()
    board.push_usi("7g7f")
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        result = engine.play(board, limit)
    assert result.move == Move.from_usi("8c8d")
    assert result.ponder == Move.from_usi("2g2f")
    assert not result.resigned
    assert not result.declared_win
    assert result.info["depth"] == 2
    assert result.info["seldepth"] == 2
    assert result.info["nodes"] == 100
    assert result.info["score"] == PovScore(Score(cp=-20, lowerbound=True), Color.WHITE)
    assert result.info["score"].black() == Score(cp=20, upperbound=True)
    assert result.info["pv"] == [Move.from_usi("8c8d")]
    assert result.info["time"] == pytest.approx(0.005)
    engine_fake.assert_complete()


def test_play_from_sfen_resign_and_win(fake: FakeFactory) -> None:
    sfen = "4K4/9/9/9/9/9/+r+bgggg+b+r1/ssssk4/9 w - 1"
    engine_fake = fake(HANDSHAKE + READY + f"""\
        < position sfen {sfen}
        < go btime 30000 wtime 30000 binc 5000 winc 5000
        > bestmove win
        < gameover win
        < isready
        > readyok
        < usinewgame
        < position startpos
        < go btime 0 wtime 0 byoyomi 100
        > bestmove resign
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        result = engine.play(Board(sfen), Limit(btime=30, wtime=30, binc=5, winc=5))
        assert result.declared_win
        assert result.move is None
        assert result.usi() == "win"
        engine.game_over("win")
        result = engine.play(Board(), Limit(byoyomi=0.1))
        assert result.resigned
        assert result.move is None
        assert result.usi() == "resign"
    engine_fake.assert_complete()


# -- pondering ----------------------------------------------------------------------------------


def test_ponder_hit(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos moves 2g2f
        < go btime 0 wtime 0 byoyomi 1000
        > bestmove 8c8d ponder 2f2e
        < position startpos moves 2g2f 8c8d 2f2e
        < go ponder btime 0 wtime 0 byoyomi 1000
        > info depth 3 score cp 10 pv 8d8e 7g7f
        < ponderhit
        > info depth 4 score cp 15 pv 8d8e 6i7h
        > bestmove 8d8e
        < quit
        """)
    board = Board()
    board.push_usi("2g2f")
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        first = engine.play(board, Limit(byoyomi=1), ponder=True)
        assert first.move == Move.from_usi("8c8d")
        assert first.ponder == Move.from_usi("2f2e")
        board.push(first.move)
        board.push_usi("2f2e")
        second = engine.play(board, Limit(byoyomi=1), ponder=True)
        assert second.move == Move.from_usi("8d8e")
        assert second.ponder is None
        assert second.info["depth"] == 4
    engine_fake.assert_complete()


def test_ponder_miss_stops_and_discards(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos moves 2g2f
        < go btime 0 wtime 0 byoyomi 1000
        > bestmove 8c8d ponder 2f2e
        < position startpos moves 2g2f 8c8d 2f2e
        < go ponder btime 0 wtime 0 byoyomi 1000
        < stop
        > bestmove 8d8e
        < position startpos moves 2g2f 8c8d 7g7f
        < go btime 0 wtime 0 byoyomi 1000
        > bestmove 8d8e
        < quit
        """)
    board = Board()
    board.push_usi("2g2f")
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        first = engine.play(board, Limit(byoyomi=1), ponder=True)
        board.push(first.move)  # type: ignore[arg-type]
        board.push_usi("7g7f")
        second = engine.play(board, Limit(byoyomi=1))
        assert second.move == Move.from_usi("8d8e")
    engine_fake.assert_complete()


def test_illegal_ponder_move_is_dropped(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go depth 1
        > bestmove 7g7f ponder 7g7f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        result = engine.play(Board(), Limit(depth=1), ponder=True)
        assert result.move == Move.from_usi("7g7f")
        assert result.ponder is None
    engine_fake.assert_complete()


# -- analysis -----------------------------------------------------------------------------------


def test_analyse_multipv_then_play_restores_it(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + """\
        < setoption name MultiPV value 3
        < isready
        > readyok
        < usinewgame
        < position startpos
        < go depth 2
        > info depth 1 multipv 1 score cp 50 pv 7g7f
        > info depth 1 multipv 2 score cp 40 pv 2g2f
        > info depth 1 multipv 3 score cp -10 pv 5i5h
        > info depth 2 multipv 1 score cp 45 pv 7g7f 3c3d
        > info depth 2 multipv 2 score cp 41 pv 2g2f 8c8d
        > info depth 2 multipv 3 score mate -5 pv 1g1f
        > bestmove 7g7f
        < setoption name MultiPV value 1
        < isready
        > readyok
        < position startpos
        < go depth 1
        > bestmove 7g7f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        infos = engine.analyse(Board(), Limit(depth=2), multipv=3)
        assert [info["multipv"] for info in infos] == [1, 2, 3]
        assert [info["depth"] for info in infos] == [2, 2, 2]
        assert infos[0]["pv"] == [Move.from_usi("7g7f"), Move.from_usi("3c3d")]
        assert infos[1]["score"].relative == Score(cp=41)
        assert infos[2]["score"].is_mate()
        assert infos[2]["score"].relative.mate == -5
        assert engine.play(Board(), Limit(depth=1)).move == Move.from_usi("7g7f")
    engine_fake.assert_complete()


def test_analysis_streams_until_stopped(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go infinite
        > info depth 1 score cp 10 pv 7g7f
        > info depth 2 score cp 20 pv 7g7f 3c3d
        > info depth 3 score cp 30 pv 2g2f
        < stop
        > bestmove 2g2f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        seen = []
        with engine.analysis(Board()) as analysis:
            for info in analysis:
                seen.append(info["depth"])
                if info["depth"] == 3:
                    analysis.stop()
            assert analysis.wait().move == Move.from_usi("2g2f")
            assert analysis.info["score"].relative == Score(cp=30)
        assert seen == [1, 2, 3]
    engine_fake.assert_complete()


def test_async_api(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go infinite
        > info depth 1 score mate + pv 7g7f
        > info string 詰みあり
        < stop
        > bestmove 7g7f
        < quit
        """)

    async def run() -> list[object]:
        _, engine = await popen_usi(engine_fake.command)
        seen: list[object] = []
        async with await engine.analysis(Board()) as analysis:
            async for info in analysis:
                seen.append(info["score"].relative if "score" in info else info.get("string"))
                if "string" in info:
                    break
        await engine.quit()
        return seen

    assert asyncio.run(run()) == [Score(winning=True), "詰みあり"]
    engine_fake.assert_complete()


# -- go mate ------------------------------------------------------------------------------------

MATE_SFEN = "7kl/9/7PG/9/9/9/9/9/K8 b G 1"


def test_mate_answers(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + f"""\
        < position sfen {MATE_SFEN}
        < go mate 3000
        > checkmate G*2b
        < position startpos
        < go mate infinite
        > checkmate nomate
        < position startpos
        < go mate 500
        > checkmate timeout
        < position startpos
        < go mate 500
        > bestmove 7g7f
        < position sfen {MATE_SFEN}
        < go mate 500
        > checkmate 1c1b
        < quit
        """)
    board = Board(MATE_SFEN)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        found = engine.mate(board, 3)
        assert found.status == "mate"
        assert found.moves == (Move.from_usi("G*2b"),)
        assert found.length == 1
        assert engine.mate(Board()).status == "nomate"
        assert engine.mate(Board(), timedelta(milliseconds=500)).status == "timeout"
        assert engine.mate(Board(), 0.5).status == "notimplemented"
        with pytest.raises(EngineError, match="does not end in checkmate"):
            engine.mate(board, 0.5)
    engine_fake.assert_complete()


def test_searchmoves_and_a_mate_limit_reach_the_engine(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go depth 2 searchmoves 1g1f 9g9f
        > info depth 2 score cp 3 pv 9g9f
        > bestmove 9g9f
        < position startpos
        < go btime 0 wtime 0 byoyomi 1000 searchmoves 1g1f
        > bestmove 1g1f
        < position startpos
        < go mate 2000
        > checkmate nomate
        < position startpos
        < go mate infinite
        > checkmate nomate
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        allowed = [Move.from_usi("1g1f"), Move.from_usi("9g9f")]
        assert engine.play(Board(), Limit(depth=2), searchmoves=allowed).move == allowed[1]
        assert engine.play(Board(), Limit(byoyomi=1), searchmoves=allowed[:1]).move == allowed[0]
        assert engine.mate(Board(), Limit(time=2)).status == "nomate"
        assert engine.mate(Board(), Limit(depth=9)).status == "nomate"  # no time: as long as it takes
    engine_fake.assert_complete()


# -- encodings and garbage ----------------------------------------------------------------------


def test_cp932_name_and_garbage_lines_are_tolerated(fake: FakeFactory) -> None:
    cp932_name = "id name 技巧".encode("cp932").hex()
    engine_fake = fake(f"""\
        < usi
        >hex {cp932_name}
        > hello there
        >
        > option name
        > usiok
        < isready
        > 12345
        > readyok
        < usinewgame
        < position startpos
        < go btime 0 wtime 0 byoyomi 100
        > info depth x score cp 1
        > info score banana 3
        > info depth 1 pv 7g7g
        > checkmate 7g7f
        > whatever bestmove 1a1b
        > info depth 2 score cp 5 pv 7g7f
        > bestmove 7g7f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        assert engine.name == "技巧"
        result = engine.play(Board(), Limit(byoyomi=0.1))
        assert result.move == Move.from_usi("7g7f")
        score = PovScore(Score(cp=5), Color.BLACK)
        assert result.info == {"depth": 2, "score": score, "pv": [Move.from_usi("7g7f")]}
    engine_fake.assert_complete()


# -- a lying engine -----------------------------------------------------------------------------


def test_illegal_and_unreadable_bestmove(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go btime 0 wtime 0 byoyomi 100
        > bestmove 7g7e
        < position startpos
        < go btime 0 wtime 0 byoyomi 100
        > bestmove pass
        < position startpos
        < go btime 0 wtime 0 byoyomi 100
        > bestmove
        < position startpos
        < go btime 0 wtime 0 byoyomi 100
        > bestmove 7g7f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command) as engine:
        with pytest.raises(EngineMoveError, match="illegal move: '7g7e'") as caught:
            engine.play(Board(), Limit(byoyomi=0.1))
        assert caught.value.move == Move.from_usi("7g7e")
        assert caught.value.text == "7g7e"
        with pytest.raises(EngineMoveError, match="unreadable bestmove: 'pass'") as unreadable:
            engine.play(Board(), Limit(byoyomi=0.1))
        assert unreadable.value.move is None
        with pytest.raises(EngineMoveError, match="empty bestmove"):
            engine.play(Board(), Limit(byoyomi=0.1))
        # The engine is still usable after a foul.
        assert engine.play(Board(), Limit(byoyomi=0.1)).move == Move.from_usi("7g7f")
    engine_fake.assert_complete()


# -- crashes and hangs --------------------------------------------------------------------------


def test_crash_at_start(fake: FakeFactory) -> None:
    engine_fake = fake("""\
        exit 1
        """)
    start = time.monotonic()
    with pytest.raises(EngineTerminatedError, match="exit code 1"):
        SimpleEngine.popen_usi(engine_fake.command, timeout=30)
    assert time.monotonic() - start < 10  # noticed at once, not after the 30 s timeout


def test_missing_program() -> None:
    with pytest.raises(OSError):
        SimpleEngine.popen_usi(["/nonexistent/usi-engine"])


def test_no_usiok_times_out_and_kills(fake: FakeFactory) -> None:
    engine_fake = fake("""\
        < usi
        > id name Slow
        hang
        """)
    start = time.monotonic()
    with pytest.raises(EngineError, match=r"no 'usiok' within 0\.5 s"):
        SimpleEngine.popen_usi(engine_fake.command, timeout=0.5, isready_timeout=0.5)
    assert time.monotonic() - start < 10
    assert "HANG" in engine_fake.log()


def test_no_readyok_times_out(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + """\
        < isready
        hang
        """)
    engine = SimpleEngine.popen_usi(engine_fake.command, timeout=0.5, isready_timeout=0.5)
    with pytest.raises(EngineError, match=r"no 'readyok' within 0\.5 s"):
        engine.play(Board(), Limit(byoyomi=1))
    assert process_gone(engine)
    with pytest.raises(EngineError):
        engine.play(Board(), Limit(byoyomi=1))
    engine.quit()


def test_crash_mid_search(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go btime 0 wtime 0 byoyomi 5000
        > info depth 1 score cp 3 pv 7g7f
        sleep 0.1
        exit 134
        """)
    engine = SimpleEngine.popen_usi(engine_fake.command, timeout=30)
    start = time.monotonic()
    with pytest.raises(EngineTerminatedError, match="exit code 134"):
        engine.play(Board(), Limit(byoyomi=5))
    assert time.monotonic() - start < 4  # long before the byoyomi ran out
    assert process_gone(engine)
    assert not engine.alive
    with pytest.raises(EngineTerminatedError):
        engine.ping()
    engine.quit()


def test_hang_after_go_times_out_and_kills(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go btime 0 wtime 0 byoyomi 200
        hang
        """)
    engine = SimpleEngine.popen_usi(engine_fake.command, timeout=0.5)
    start = time.monotonic()
    with pytest.raises(EngineError, match="engine killed"):
        engine.play(Board(), Limit(byoyomi=0.2))
    # byoyomi 0.2 + grace 1 + stop timeout 0.5, then the kill.
    assert time.monotonic() - start < 8
    assert process_gone(engine)
    engine.quit()


def test_slow_engine_answers_stop(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go depth 30
        < stop
        > bestmove 2g2f
        < quit
        """)
    with SimpleEngine.popen_usi(engine_fake.command, timeout=2) as engine:
        result = engine.play(Board(), Limit(depth=30), timeout=0.3)
        assert result.move == Move.from_usi("2g2f")
    engine_fake.assert_complete()


def test_closed_output_is_noticed(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + READY + """\
        < position startpos
        < go btime 0 wtime 0 byoyomi 5000
        close-stdout
        """)
    engine = SimpleEngine.popen_usi(engine_fake.command, timeout=30)
    start = time.monotonic()
    with pytest.raises(EngineTerminatedError, match="closed its output"):
        engine.play(Board(), Limit(byoyomi=5))
    assert time.monotonic() - start < 4
    engine.quit()
    assert process_gone(engine)


def test_quit_kills_an_engine_that_ignores_quit(fake: FakeFactory) -> None:
    engine_fake = fake(HANDSHAKE + """\
        < quit
        hang
        """)
    engine = SimpleEngine.popen_usi(engine_fake.command, timeout=0.5)
    engine.quit()
    assert process_gone(engine)
