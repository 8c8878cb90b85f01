"""Our client driving our own USI server as a subprocess: first with the stand-in backend (fast,
always available), then the real ``shogiban usi`` with the built-in engine and tsume solver."""

from __future__ import annotations

import sys

import pytest
from usi_fakes import STANDIN_USI

from shogiban import Board, Move
from shogiban.usi import Limit, SimpleEngine

BUILTIN_USI = [sys.executable, "-m", "shogiban", "usi"]


def available(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def test_standin_server_through_the_client() -> None:
    with SimpleEngine.popen_usi(STANDIN_USI) as engine:
        assert engine.name.startswith("shogiban ")
        assert engine.options["Level"].max == 8
        assert engine.options["EnteringKingRule"].var[0] == "NoEnteringKing"
        engine.configure({"Level": 3, "USI_Hash": 16, "EnteringKingRule": "CSARule24"})
        board = Board()
        limits = (Limit(byoyomi=0.1), Limit(depth=2), Limit(time=0.05), Limit(btime=1, wtime=1, binc=0.1, winc=0.1))
        for limit in limits:
            result = engine.play(board, limit)
            assert result.move in board.legal_moves
            assert result.info["depth"] >= 1
            board.push(result.move)  # type: ignore[arg-type]
        # Ponder hit then miss.
        first = engine.play(board, Limit(byoyomi=0.1), ponder=True)
        assert first.ponder is not None
        board.push(first.move)  # type: ignore[arg-type]
        board.push(first.ponder)
        second = engine.play(board, Limit(byoyomi=0.1), ponder=True)
        assert second.move in board.legal_moves
        board.push(second.move)  # type: ignore[arg-type]
        other = next(m for m in board.legal_moves if m != second.ponder)
        board.push(other)
        assert engine.play(board, Limit(byoyomi=0.1)).move in board.legal_moves
        # Streaming analysis, stopped by us.
        with engine.analysis(board) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 3:
                    break
        assert analysis.info["depth"] >= 3
        # go mate.
        mate = engine.mate(Board("7kl/9/7PG/9/9/9/9/9/K8 b G 1"), 1)
        assert mate.status == "mate"
        assert mate.moves[-1] in Board("7kl/9/7PG/9/9/9/9/9/K8 b G 1").legal_moves


@pytest.mark.skipif(not available("shogiban.engine"), reason="the built-in engine (shogiban.engine) is not there")
def test_builtin_usi_plays_a_game_against_itself() -> None:
    board = Board(max_moves=10)
    with SimpleEngine.popen_usi(BUILTIN_USI, isready_timeout=60) as engine:
        engine.configure({"Level": 2})
        while board.outcome() is None:
            result = engine.play(board, Limit(depth=2), ponder=board.ply == 4)
            assert result.move is not None
            assert "score" in result.info
            board.push_legal(result.move)
        info = engine.analyse(board, Limit(depth=2))
        assert info["pv"][0] in board.legal_moves
        assert "multipv" not in info  # one line unless asked for more
    assert len(board.move_stack) == 10


@pytest.mark.skipif(not available("shogiban.tsume"), reason="the tsume solver (shogiban.tsume) is not there")
def test_builtin_usi_go_mate() -> None:
    with SimpleEngine.popen_usi(BUILTIN_USI) as engine:
        found = engine.mate(Board("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"), 5)
        assert found.status == "mate"
        assert found.moves == (Move.from_usi("G*5b"),)
        assert engine.mate(Board(), 2).status in ("nomate", "timeout")
        # No king to mate: reported, answered nomate.
        assert engine.mate(Board("9/9/9/9/9/9/9/9/4K4 b R 1"), 1).status == "nomate"


@pytest.mark.skipif(not available("shogiban.engine"), reason="the built-in engine (shogiban.engine) is not there")
def test_builtin_usi_survives_malformed_commands() -> None:
    from server_harness import SubprocessHarness

    engine = SubprocessHarness(BUILTIN_USI)
    try:
        engine.send("usi\r", "isready\r")
        engine.wait_for("readyok", timeout=60)
        engine.send(
            "position sfen lnsgkgsnl/9 b - 1",
            "position startpos moves 7g7f 7g7f",
            "go btime 1x wtime 0 byoyomi 100",
            "setoption name Level value 0",
            "frobnicate 3",
            "position startpos moves 7g7f\r",
            "go depth 1 nodes -4",
        )
        answers = engine.wait_for("bestmove", 2, timeout=30)
        errors = engine.lines("info string error:")
        assert len(errors) == 6, engine.out
        assert answers[0] == "bestmove resign"  # the go after a rejected position
        board = Board()
        board.push_usi("7g7f")
        assert Move.from_usi(answers[1].split()[1]) in board.legal_moves
    finally:
        engine.close()
    assert engine.process.returncode == 0
