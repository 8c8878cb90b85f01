"""Real engines from Debian (fairy-stockfish, gpsshogi) through our client, against each other and
against our own ``shogiban usi``.  Short limits keep the whole module to about half a minute.

gpsusi only accepts ``go btime 0 wtime 0 byoyomi N`` (N >= 1000) or ``go infinite`` + ``stop``,
and needs ``Thread 1`` and ``BookDepth 0``; Fairy-Stockfish needs ``Threads`` and ``Hash`` (it has
no ``USI_Hash``) -- see ENGINES.md.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from shogiban import Board, Move
from shogiban.cli import main as cli_main
from shogiban.game import TimeControl
from shogiban.kifu import read_game
from shogiban.usi import Limit, SimpleEngine
from shogiban.usi.match import fixed_time, play_game
from shogiban.usi.match_engines import PlayerSpec, UsiPlayer, builtin_command

FAIRY = "/usr/games/fairy-stockfish"
GPS = "/usr/games/gpsusi"

pytestmark = pytest.mark.engines

needs_fairy = pytest.mark.skipif(
    not os.access(FAIRY, os.X_OK), reason=f"{FAIRY} is not installed (apt-get install fairy-stockfish)"
)
needs_gps = pytest.mark.skipif(not os.access(GPS, os.X_OK), reason=f"{GPS} is not installed (apt-get install gpsshogi)")

FAIRY_OPTIONS = {"Threads": 1, "Hash": 16}
GPS_OPTIONS = {"Thread": 1, "BookDepth": 0}


@needs_fairy
def test_fairy_stockfish_full_game_analysis_and_ponder() -> None:
    board = Board(max_moves=300)
    with SimpleEngine.popen_usi(FAIRY) as strong, SimpleEngine.popen_usi(FAIRY) as weak:
        assert strong.name.startswith("Fairy-Stockfish")
        assert strong.options["Skill Level"].min == -20  # option names with spaces
        assert strong.options["UCI_Variant"].default == "shogi"
        strong.configure(FAIRY_OPTIONS)
        weak.configure({**FAIRY_OPTIONS, "Skill Level": -20})
        while board.outcome() is None:
            engine, limit = (strong, Limit(depth=5)) if board.turn == 0 else (weak, Limit(depth=1))
            result = engine.play(board, limit)
            if result.resigned:
                break
            board.push_legal(result.move)  # type: ignore[arg-type]
        outcome = board.outcome()
        assert result.resigned or (outcome is not None and outcome.winner == 0), (outcome, board.sfen())

        start = Board()
        infos = strong.analyse(start, Limit(depth=6), multipv=3)
        assert [info["multipv"] for info in infos] == [1, 2, 3]
        assert len({info["pv"][0] for info in infos}) == 3
        assert all(info["pv"][0] in start.legal_moves for info in infos)

        first = strong.play(start, Limit(time=0.1), ponder=True)
        assert first.ponder is not None
        after = start.copy()
        after.push(first.move)  # type: ignore[arg-type]
        after.push(first.ponder)
        second = strong.play(after, Limit(time=0.1))  # ponderhit
        assert second.move in after.legal_moves
        # Fairy-Stockfish reads go mate as chess mate-in-N and answers bestmove.
        assert strong.mate(Board("7kl/9/7PG/9/9/9/9/9/K8 b G 1"), 0.3).status in ("notimplemented", "mate")


def _player(name: str, command: list[str], options: dict[str, str]) -> UsiPlayer:
    player = UsiPlayer(PlayerSpec(name, command, options))
    player.start()
    return player


@needs_fairy
def test_builtin_usi_against_fairy_stockfish() -> None:
    ours = _player("ours", builtin_command(2), {})
    fairy = _player("fairy", [FAIRY], {"Threads": "1", "Hash": "16", "Skill Level": "0"})
    try:
        result = play_game((ours, fairy), time_control=fixed_time(0.2), max_moves=16, tolerance=2.0)
    finally:
        ours.close()
        fairy.close()
    assert result.plies >= 1
    moves = result.game.mainline_moves()
    board = Board()
    for move in moves:
        board.push_legal(move)
    assert result.outcome.detail  # ended with a reason
    assert ours.nodes > 0
    assert fairy.nodes > 0


@pytest.mark.slow
@needs_gps
def test_gpsusi_against_builtin_usi_then_go_mate() -> None:
    # One gpsusi process for everything: it takes seconds to start.
    ours = _player("ours", builtin_command(1), {})
    gps = _player("gps", [GPS], {"Thread": "1", "BookDepth": "0"})
    try:
        result = play_game((gps, ours), time_control=TimeControl.of(0, byoyomi=1.0), max_moves=4, tolerance=2.0)
        assert gps.engine is not None
        assert gps.engine.name.startswith("gpsshogi")
        found = gps.engine.mate(Board("7kl/9/7PG/9/9/9/9/9/K8 b G 1"), 3)
        assert found.status == "mate"
        assert found.moves[0] in (Move.from_usi("G*2b"), Move.from_usi("2c2b+"))
        assert gps.engine.mate(Board(), 1).status == "nomate"
    finally:
        ours.close()
        gps.close()
    assert result.plies == 4, result.outcome
    assert result.outcome.termination.value == "max_moves"
    assert gps.nodes > 0


@needs_fairy
def test_match_command_fairy_against_builtin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = cli_main([
        "match", "fsf", "builtin:1", "--engine", f"fsf={FAIRY}", "--option", "fsf.Threads=1", "--option", "fsf.Hash=16",
        "--option", "fsf.Skill Level=0", "--games", "2", "--depth", "1", "--max-moves", "12", "--random-plies", "2",
        "--seed", "7", "--out", str(tmp_path),
    ])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0, lines
    assert lines[0] == "Match: fsf vs builtin-1, 2 games, depth 1"
    assert lines[-4].startswith("Final: Score of fsf vs builtin-1: ")
    assert lines[-3].startswith("Elo difference: ")
    assert lines[-2].startswith("fsf: ")
    assert lines[-2].endswith(" k nodes/s")
    games = [read_game((tmp_path / f"game00{i}.kif").read_bytes()) for i in (1, 2)]
    assert games[0].black == "fsf"
    assert games[1].black == "builtin-1"
    # The same two random opening plies start both games of the pair.
    assert games[0].mainline_moves()[:2] == games[1].mainline_moves()[:2]
    for game in games:
        assert game.result is not None
        assert game.outcome() is not None


def test_builtin_command_runs_our_server() -> None:
    assert builtin_command(3, seed=1)[:3] == [sys.executable, "-m", "shogiban.usi.server"]
