"""Replay the GUI side of real ShogiHome transcripts (tests/data/usi, MIT, copied from the shared
corpus's usi_logs) against our server and check the shape of what the engine answers."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest
from server_harness import Harness, SubprocessHarness
from standin_backend import StandInBackend

from shogiban import Board
from shogiban.usi.wire import parse_position, split_command

LOGS = [
    "shogihome-scenario1-usi.log",
    "shogihome-scenario2-usi.log",
    "shogihome-scenario21-usi.log",
    "shogihome-scenario3-usi.log",
    "shogihome-scenario30-usi.log",
    "shogihome-scenario4-usi.log",
]


def gui_lines(path: Path) -> list[str]:
    """The commands the GUI sent (``recv:`` lines, from the engine's point of view)."""
    return [line[5:] for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("recv:")]


def scaled(command: str, factor: float) -> str:
    """*command* with its go/ponderhit times multiplied by *factor* (to keep real searches short)."""
    return re.sub(r"\b(btime|wtime|binc|winc|byoyomi) (\d+)", lambda m: f"{m[1]} {int(int(m[2]) * factor)}", command)


def extend(board: Board, args: str) -> Board:
    """The position of the ``position`` arguments *args*, reusing *board* when they extend it."""
    if args.startswith("startpos") and board.starting_sfen == Board().sfen():
        moves = args.partition(" moves ")[2].split()
        done = [m.usi() for m in board.move_stack]
        if moves[: len(done)] == done:
            board = board.copy()
            for text in moves[len(done) :]:
                board.push_usi(text)
            return board
    return parse_position(args)


def check_bestmove(line: str, board: Board) -> None:
    """A bestmove line is a legal move (with a legal ponder), or win exactly when the rule allows."""
    parts = line.split()
    assert parts[0] == "bestmove"
    if board.can_declare_win():
        assert parts[1] == "win", line
        return
    assert parts[1] != "win", f"{line} in {board.sfen()} (no declaration possible)"
    if parts[1] == "resign":
        return
    after = board.copy()
    after.push_usi(parts[1])
    if len(parts) >= 4:
        assert parts[2] == "ponder"
        after.push_usi(parts[3])


def replay(engine: Harness, commands: list[str], *, factor: float = 1.0, wait: float = 30.0) -> int:
    """Send *commands* like the GUI did; check every answer's shape; return the number of bestmoves."""
    board = Board()
    searches = 0
    pondering = False
    for command in commands:
        word, args = split_command(command)
        if word == "quit":
            break
        engine.send(scaled(command, factor))
        if word == "usi":
            found = engine.wait_for("usiok", timeout=wait)
            assert found
            assert engine.lines("id name")
            assert engine.lines("id author")
        elif word == "isready":
            engine.wait_for("readyok", timeout=wait)
        elif word == "position":
            board = extend(board, args)
        elif word == "go" and "ponder" in args.split():
            searches += 1
            pondering = True
            time.sleep(0.03)
            assert len(engine.lines("bestmove")) == searches - 1, "bestmove during go ponder"
        elif word == "go":
            searches += 1
            check_bestmove(engine.wait_for("bestmove", searches, timeout=wait)[-1], board)
        elif word in ("ponderhit", "stop") and pondering:
            pondering = False
            check_bestmove(engine.wait_for("bestmove", searches, timeout=wait)[-1], board)
    time.sleep(0.1)
    assert len(engine.lines("bestmove")) == searches, "one bestmove per go"
    assert not engine.lines("info string error"), engine.out
    return searches


def test_copies_match_the_shared_corpus(shared_data: Path, test_data: Path) -> None:
    for name in LOGS:
        assert (test_data / "usi" / name).read_bytes() == (shared_data / "usi_logs" / name).read_bytes()


@pytest.mark.parametrize("name", LOGS)
def test_replay_with_standin_backend(test_data: Path, name: str) -> None:
    commands = gui_lines(test_data / "usi" / name)
    engine = Harness(StandInBackend())
    try:
        searches = replay(engine, commands)
    finally:
        engine.close()
    assert searches == sum(1 for c in commands if c.startswith("go"))


def builtin_engine_available() -> bool:
    try:
        import shogiban.engine  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not builtin_engine_available(), reason="the built-in engine (shogiban.engine) has not landed yet")
@pytest.mark.parametrize("name", ["shogihome-scenario2-usi.log", "shogihome-scenario3-usi.log",
                                  "shogihome-scenario4-usi.log", "shogihome-scenario30-usi.log"])
def test_replay_with_the_builtin_engine(test_data: Path, name: str) -> None:
    commands = gui_lines(test_data / "usi" / name)
    engine = SubprocessHarness([sys.executable, "-m", "shogiban", "usi"])
    try:
        # Times divided by 50 (33 s -> 0.66 s) keep the real searches short; the shape is the same.
        replay(engine, commands, factor=0.02)
    finally:
        engine.close()
    assert engine.process.returncode == 0
