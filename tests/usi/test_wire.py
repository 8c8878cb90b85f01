"""USI text parsing and the client's value types: garbage in gives the documented errors only."""

from __future__ import annotations

import contextlib
import math
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban import Board, Color, Move
from shogiban.engines import Limit, Option, PovScore, Score
from shogiban.errors import EngineError, ShogibanError
from shogiban.usi.wire import (
    EngineMoveError,
    parse_bestmove,
    parse_checkmate,
    parse_go,
    parse_info,
    parse_option,
    parse_position,
    parse_setoption,
    position_command,
)

WORDS = st.sampled_from(
    ["depth", "seldepth", "score", "cp", "mate", "+", "-", "-3", "lowerbound", "pv", "7g7f", "3c3d", "P*5e",
     "string", "nodes", "time", "12", "x", "multipv", "currmove", "hashfull", "", "日本語", "btime", "byoyomi",
     "infinite", "ponder", "searchmoves", "startpos", "sfen", "moves", "name", "type", "spin", "default", "var"]
)
LINES = st.lists(WORDS, max_size=12).map(" ".join) | st.text(max_size=40)


@given(LINES)
def test_parse_info_raises_only_engine_error(text: str) -> None:
    for strict in (True, False):
        try:
            info = parse_info(text, Board(), strict=strict)
        except EngineError:
            continue
        for move in info.get("pv", []):
            assert isinstance(move, Move)


@given(LINES)
def test_parse_option_and_go_raise_only_documented_errors(text: str) -> None:
    with contextlib.suppress(EngineError):
        parse_option(text)
    problems: list[str] = []
    parse_go(text, problems)  # lenient: never raises
    try:
        parse_go(text)
    except ShogibanError:
        assert problems


@given(LINES)
def test_parse_position_raises_only_shogiban_errors(text: str) -> None:
    try:
        board = parse_position(text)
    except ShogibanError:
        return
    assert position_command(board).startswith("position ")


def test_position_command_round_trip() -> None:
    board = Board.from_handicap("香落ち")
    board.push_usi("5a4b")
    command = position_command(board)
    assert command == "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a4b"
    assert parse_position(command.split(None, 1)[1]) == board


def test_parse_go_fields() -> None:
    go = parse_go("ponder btime 1000 wtime 2000 binc 300 winc 400 byoyomi 0 movetime 5 depth 0 nodes 9 infinite "
                  "searchmoves 7g7f 2g2f mate 1500")
    assert (go.btime, go.wtime, go.binc, go.winc, go.byoyomi, go.movetime) == (1.0, 2.0, 0.3, 0.4, 0.0, 0.005)
    assert go.depth == 1  # depth 0 means at least one ply
    assert go.nodes == 9
    assert go.ponder
    assert go.infinite
    assert go.searchmoves == (Move.from_usi("7g7f"), Move.from_usi("2g2f"))
    assert go.mate == 1.5
    assert parse_go("mate").mate == math.inf
    assert parse_go("mate infinite").mate == math.inf


def test_parse_setoption() -> None:
    assert parse_setoption("name Skill Level value 0") == ("Skill Level", "0")
    assert parse_setoption("name BookFile value C:\\book files\\a.db") == ("BookFile", "C:\\book files\\a.db")
    assert parse_setoption("name ClearHash") == ("ClearHash", None)
    assert parse_setoption("name EvalDir value") == ("EvalDir", "")
    with pytest.raises(ShogibanError, match="invalid setoption command"):
        parse_setoption("value 3")


def test_parse_bestmove_and_checkmate() -> None:
    board = Board()
    best = parse_bestmove("7g7f ponder 3c3d", board)
    assert (best.move, best.ponder) == (Move.from_usi("7g7f"), Move.from_usi("3c3d"))
    assert parse_bestmove("resign", board).resigned
    assert parse_bestmove("win", board).declared_win
    with pytest.raises(EngineMoveError, match=r"illegal move: '5a5b'"):
        parse_bestmove("5a5b", board)
    assert parse_checkmate("nomate", board) == ("nomate", ())
    assert parse_checkmate("", board) == ("nomate", ())
    with pytest.raises(EngineError, match="illegal mating line"):
        parse_checkmate("7g7f 7g7f", board)


def test_score() -> None:
    assert -Score(cp=30, lowerbound=True) == Score(cp=-30, upperbound=True)
    assert Score(mate=-4).usi() == "mate -4"
    assert Score(mate=3).usi() == "mate 3"
    assert Score(winning=False).usi() == "mate -"
    assert Score(mate=5).score(mate_score=32000) == 31995
    assert Score(mate=-2).score(mate_score=32000) == -31998
    assert Score(mate=5).score() is None
    assert PovScore(Score(cp=7), Color.BLACK).pov(Color.WHITE) == Score(cp=-7)
    assert parse_info("score mate -0")["score"] == PovScore(Score(mate=0, winning=False), Color.BLACK)
    assert parse_info("score cp 9", turn=Color.WHITE)["score"].black() == Score(cp=-9)
    with pytest.raises(ValueError, match="neither cp nor mate"):
        Score()


def test_limit() -> None:
    limit = Limit(btime=timedelta(minutes=1), wtime=30, byoyomi=10)
    assert limit.budget(Color.BLACK) == 70
    assert limit.budget(Color.WHITE) == 40
    assert Limit(time=2, btime=60, wtime=60).budget(Color.BLACK) == 2
    assert Limit(depth=3).budget(Color.BLACK) is None
    assert Limit(wtime=5).go_args() == ["btime", "0", "wtime", "5000"]
    assert Limit(binc=1).go_args() == ["btime", "0", "wtime", "0", "binc", "1000", "winc", "0"]
    with pytest.raises(ValueError, match="invalid duration"):
        Limit(byoyomi=-1)
    with pytest.raises(ValueError, match="positive int"):
        Limit(depth=0)


def test_option_values() -> None:
    spin = Option("Hash", "spin", 16, 1, 1024)
    assert spin.value_text(32) == "32"
    assert spin.value_text("64") == "64"
    with pytest.raises(EngineError, match="range"):
        spin.value_text(0)
    check = Option("Ponder", "check", False)
    assert check.value_text(True) == "true"
    assert check.value_text("FALSE") == "false"
    with pytest.raises(EngineError, match="true or false"):
        check.value_text("yes")
    combo = Option("Style", "combo", "a", var=("a", "b"))
    assert combo.value_text("b") == "b"
    with pytest.raises(EngineError, match="choices: a, b"):
        combo.value_text("c")
    assert Option("Book", "string", "").value_text("") == "<empty>"
    assert Option("Clear Hash", "button").value_text(None) is None
    with pytest.raises(EngineError, match="line break"):
        Option("Book", "string").value_text("a\nisready")
    for option in (spin, check, combo, Option("Book", "filename", ""), Option("Clear Hash", "button")):
        assert parse_option(option.usi().removeprefix("option ")) == option
