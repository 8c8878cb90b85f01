"""The USI server (engine side), in-process, with a stand-in backend."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from server_harness import Harness
from standin_backend import StandInBackend
from tests.hypothesis_budget import examples

from shogiban import Board, Color
from shogiban.engines import Limit, MateResult, PlayResult
from shogiban.engines.builtin import MAX_MULTIPV
from shogiban.usi.server import UsiServer, format_info
from shogiban.usi.wire import GoCommand, position_command

DECLARE_SFEN = "4K4/9/9/9/9/9/+r+bgggg+b+r1/ssssk4/9 w - 1"
MATE_IN_ONE = "7kl/9/7PG/9/9/9/9/9/K8 b G 1"


@pytest.fixture
def backend() -> StandInBackend:
    return StandInBackend()


@pytest.fixture
def usi(backend: StandInBackend) -> Iterator[Harness]:
    harness = Harness(backend)
    yield harness
    harness.close()


def settle() -> None:
    """Give a worker thread the chance to (wrongly) answer early."""
    time.sleep(0.15)


def test_usi_answers_at_once_without_building_the_engine(usi: Harness, backend: StandInBackend) -> None:
    usi.send("usi")
    assert usi.out[0].startswith("id name shogiban")
    assert usi.out[1] == "id author shogiban developers"
    assert usi.out[-1] == "usiok"
    options = [line for line in usi.out if line.startswith("option ")]
    assert "option name Level type spin default 8 min 1 max 8" in options
    assert "option name USI_Hash type spin default 64 min 1 max 4096" in options
    assert any(line.startswith("option name EnteringKingRule type combo default CSARule27") for line in options)
    assert backend.calls == []  # heavy initialisation waits for isready
    usi.send("isready")
    assert usi.out[-1] == "readyok"
    assert backend.calls == ["prepare hash=64 level=8"]


def test_setoption(usi: Harness, backend: StandInBackend) -> None:
    usi.send(
        "setoption name USI_Hash value 16",
        "setoption name Level value 3",
        "setoption name USI_Ponder value true",
        "setoption name EnteringKingRule value CSARule24",
        "setoption name SomethingElse value 3",
        "setoption name Level value 9",
        "setoption name Level value strong",
        "setoption name EnteringKingRule value TryRule",
        "setoption",
    )
    assert backend.hash_mb == 16
    assert backend.level == 3
    assert usi.server.ponder_enabled
    assert usi.server.entering_king_rule.value == "24"
    errors = usi.lines("info string error:")
    assert len(errors) == 4, usi.out
    assert "'9' (expected 1..8)" in errors[0]
    assert "'strong'" in errors[1]
    assert "'TryRule'" in errors[2]
    assert "invalid setoption command" in errors[3]


def test_multipv_option_reports_ranked_lines(usi: Harness, backend: StandInBackend) -> None:
    usi.send("usi")
    assert f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}" in usi.out
    usi.send("setoption name MultiPV value 3", f"setoption name MultiPV value {MAX_MULTIPV + 1}")
    assert backend.multipv == 3
    assert len(usi.lines("info string error:")) == 1
    usi.send("position startpos", "go depth 2")
    usi.wait_for("bestmove")
    ranked = [line for line in usi.lines("info depth 2") if " multipv " in line]
    assert sorted(line.split(" multipv ")[1].split()[0] for line in ranked) == ["1", "2", "3"]
    assert len({line.split(" pv ")[1].split()[0] for line in ranked}) == 3


def test_go_limits_for_the_side_to_move(usi: Harness, backend: StandInBackend) -> None:
    usi.send("position startpos moves 2g2f", "go btime 33000 wtime 30000 binc 5000 winc 5000")
    usi.wait_for("bestmove")
    usi.send("position startpos moves 2g2f 8c8d", "go btime 30000 wtime 0 byoyomi 1000")
    usi.wait_for("bestmove", 2)
    usi.send("go movetime 20 depth 2 nodes 500")
    usi.wait_for("bestmove", 3)
    assert backend.limits == [
        Limit(btime=33, wtime=30, binc=5, winc=5),
        Limit(btime=30, wtime=0, byoyomi=1),
        Limit(time=0.02, depth=2, nodes=500),
    ]
    assert backend.limits[0].main_time(Color.WHITE) == 35.0  # the increment of this move may be spent


def test_every_go_gets_one_legal_bestmove(usi: Harness) -> None:
    board = Board()
    for ply in range(6):
        usi.send(position_command(board))
        usi.send("go btime 0 wtime 0 byoyomi 50")
        line = usi.wait_for("bestmove", ply + 1)[-1]
        move = line.split()[1]
        board.push_usi(move)  # raises if illegal
        parts = line.split()
        if len(parts) == 4:
            after = board.copy()
            after.push_usi(parts[3])
    settle()
    assert len(usi.lines("bestmove")) == 6
    assert usi.lines("info depth")


def test_ponder_hit_searches_again_with_the_clock(usi: Harness, backend: StandInBackend) -> None:
    usi.send("position startpos moves 2g2f 8c8d 2f2e", "go ponder")
    settle()
    assert usi.lines("bestmove") == []
    assert backend.limits == [Limit(infinite=True)]
    usi.send("ponderhit btime 36000 wtime 34000 binc 5000 winc 5000")
    usi.wait_for("bestmove")
    assert backend.limits[1] == Limit(btime=36, wtime=34, binc=5, winc=5)
    assert backend.limits[1].main_time(Color.WHITE) == 39.0
    settle()
    assert len(usi.lines("bestmove")) == 1


def test_ponder_stop_answers_once(usi: Harness) -> None:
    usi.send("position startpos moves 2g2f 8c8d 2f2e", "go ponder btime 0 wtime 0 byoyomi 1000")
    settle()
    assert usi.lines("bestmove") == []
    usi.send("stop")
    usi.wait_for("bestmove")
    usi.send("stop", "ponderhit")
    settle()
    assert len(usi.lines("bestmove")) == 1


def test_infinite_waits_for_stop_and_isready_does_not_stop_it(usi: Harness) -> None:
    usi.send("position startpos", "go infinite")
    settle()
    usi.send("isready")
    assert usi.out[-1] == "readyok" or "readyok" in usi.out
    settle()
    assert usi.lines("bestmove") == []
    depth_before = len(usi.lines("info depth"))
    settle()
    assert len(usi.lines("info depth")) > depth_before  # still searching after isready
    usi.send("stop")
    usi.wait_for("bestmove")
    settle()
    assert len(usi.lines("bestmove")) == 1


def test_gameover_answers_a_pending_ponder(usi: Harness) -> None:
    usi.send("position startpos moves 2g2f", "go ponder", "gameover win")
    assert len(usi.lines("bestmove")) == 1
    usi.send("usinewgame", "position startpos", "go depth 1")
    usi.wait_for("bestmove", 2)


def test_go_mate(usi: Harness) -> None:
    usi.send(f"position sfen {MATE_IN_ONE}", "go mate 1000")
    assert usi.wait_for("checkmate") == ["checkmate 2c2b+"]
    usi.send("position startpos", "go mate infinite")
    settle()
    assert len(usi.lines("checkmate")) == 1
    usi.send("stop")
    assert usi.wait_for("checkmate", 2)[-1] == "checkmate timeout"
    assert usi.lines("bestmove") == []


def test_declaration_and_lost_positions(usi: Harness) -> None:
    usi.send(f"position sfen {DECLARE_SFEN}", "go btime 30000 wtime 30000 binc 5000 winc 5000")
    assert usi.wait_for("bestmove") == ["bestmove win"]
    # The same kings without the pieces: no declaration (ShogiHome scenario 4).
    usi.send("position sfen 4K4/9/9/9/9/9/9/4k4/9 w - 1", "go btime 0 wtime 0 byoyomi 100")
    assert usi.wait_for("bestmove", 2)[-1] not in ("bestmove win", "bestmove resign")
    usi.send("setoption name EnteringKingRule value NoEnteringKing")
    usi.send(f"position sfen {DECLARE_SFEN}", "go btime 0 wtime 0 byoyomi 100")
    assert usi.wait_for("bestmove", 3)[-1] != "bestmove win"
    # Checkmated: nothing to play.
    usi.send("position startpos moves 7g7f 3c3d 8h2b+ 4a3b 2b3a", "go depth 1")
    usi.send("position sfen 8k/7G1/7G1/9/9/9/9/9/K8 w - 1", "go depth 1")
    assert usi.wait_for("bestmove", 4)[-1] == "bestmove resign"


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("position sfen lnsgkgsnl/9 b - 1", "invalid"),
        ("position startpos moves 7g7e", "illegal move: '7g7e'"),
        ("position startpos moves 7g7f 7g7f", "illegal move: '7g7f'"),
        ("position startpos moves xyz", "invalid"),
        ("position", "invalid position command"),
        ("position fen rnbqkbnr", "invalid position command"),
    ],
)
def test_malformed_position_is_reported_and_go_resigns(usi: Harness, command: str, message: str) -> None:
    usi.send(command)
    errors = usi.lines("info string error:")
    assert len(errors) == 1, usi.out
    assert message in errors[0]
    usi.send("go btime 0 wtime 0 byoyomi 100")
    assert usi.wait_for("bestmove") == ["bestmove resign"]
    usi.send("position startpos", "go depth 1")
    assert usi.wait_for("bestmove", 2)[-1] != "bestmove resign"


def test_bad_numbers_in_go_are_reported_and_skipped(usi: Harness, backend: StandInBackend) -> None:
    usi.send("position startpos", "go btime abc wtime 1000 byoyomi -5 depth")
    usi.wait_for("bestmove")
    errors = usi.lines("info string error:")
    assert len(errors) == 3, usi.out
    assert "btime 'abc'" in errors[0]
    assert "byoyomi '-5'" in errors[1]
    assert "'depth' needs a number" in errors[2]
    assert backend.limits == [Limit(btime=0, wtime=1)]


def test_unknown_commands_and_crlf(usi: Harness) -> None:
    usi.send("hello", "", "   ", "d", "usi\r\n", "isready\r\n", "position startpos moves 7g7f\r\n", "go depth 2\r\n")
    usi.wait_for("bestmove")
    assert not usi.lines("info string error")
    assert usi.lines("usiok")
    assert usi.lines("readyok")


class BrokenBackend(StandInBackend):
    def search(self, board: Board, go: GoCommand, *, stop: threading.Event, on_info: object) -> PlayResult:
        raise ZeroDivisionError("evaluation bug")

    def mate(self, board: Board, timeout: float | None, *, stop: threading.Event) -> MateResult:
        raise KeyError("solver bug")


class IllegalBackend(StandInBackend):
    def search(self, board: Board, go: GoCommand, *, stop: threading.Event, on_info: object) -> PlayResult:
        from shogiban import Move

        return PlayResult(Move.from_usi("5a5b"), None)


def test_engine_failures_still_answer() -> None:
    harness = Harness(BrokenBackend())
    harness.send("position startpos", "go depth 1")
    assert harness.wait_for("bestmove") == ["bestmove resign"]
    assert "ZeroDivisionError: evaluation bug" in harness.lines("info string error")[0]
    harness.send("go mate 100")
    assert harness.wait_for("checkmate") == ["checkmate timeout"]
    harness.close()
    harness = Harness(IllegalBackend())
    harness.send("position startpos", "go depth 1")
    assert harness.wait_for("bestmove") == ["bestmove resign"]
    assert "illegal move '5a5b'" in harness.lines("info string error")[0]
    harness.close()


def test_run_stops_at_quit_and_at_end_of_input() -> None:
    out: list[str] = []
    server = UsiServer(StandInBackend(), write=out.append)
    assert server.run(["usi", "position startpos", "go infinite", "quit", "go depth 1"]) == 0
    # quit ends a search without answering it, and nothing after quit is read.
    assert "usiok" in out
    assert sum(line.startswith("bestmove") for line in out) <= 1
    out.clear()
    server = UsiServer(StandInBackend(), write=out.append)
    assert server.run(["isready", "position startpos", "go depth 2"]) == 0
    assert out[0] == "readyok"


def test_format_info_round_trips_through_the_client_parser() -> None:
    from shogiban import Color, Move
    from shogiban.engines import PovScore, Score
    from shogiban.usi.wire import parse_info

    score = PovScore(Score(cp=-30, upperbound=True), Color.BLACK)
    info = {"depth": 5, "seldepth": 7, "time": 1.234, "nodes": 12345, "nps": 10000, "hashfull": 12,
            "score": score, "pv": [Move.from_usi("7g7f"), Move.from_usi("3c3d")]}
    line = format_info(info)  # type: ignore[arg-type]
    assert line == (
        "info depth 5 seldepth 7 time 1234 nodes 12345 nps 10000 hashfull 12 score cp -30 upperbound pv 7g7f 3c3d"
    )
    assert parse_info(line.split(None, 1)[1], Board()) == info


COMMANDS = ["position startpos", "position startpos moves 7g7f", "go depth 1", "go infinite", "go ponder",
            "go btime 0 wtime 0 byoyomi 20", "stop", "ponderhit", "isready", "usinewgame", "gameover win", "go mate 20"]


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.sampled_from(COMMANDS), max_size=12))
def test_random_command_sequences_answer_every_go_once(commands: list[str]) -> None:
    harness = Harness(StandInBackend())
    try:
        searches = 0
        for command in commands:
            harness.send(command)
            if command.startswith("go"):
                searches += 1
            answered = harness.lines("bestmove") + harness.lines("checkmate")
            assert len(answered) <= searches
        harness.send("stop")
        harness.wait_for("", 0)
        deadline = time.monotonic() + 10
        while len(harness.lines("bestmove") + harness.lines("checkmate")) < searches:
            assert time.monotonic() < deadline, harness.out
            time.sleep(0.01)
        time.sleep(0.03)
        assert len(harness.lines("bestmove") + harness.lines("checkmate")) == searches, harness.out
        assert not harness.lines("info string error"), harness.out
    finally:
        harness.close()
