"""Engine matches: adjudication with scripted in-process players, then ``shogiban match`` end to end
with fake USI engines."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from usi_fakes import HANDSHAKE, make_fake

from shogiban import Board, Color, Move, Termination
from shogiban.cli import main as cli_main
from shogiban.engines import Limit, PlayResult
from shogiban.errors import EngineError, EngineTerminatedError
from shogiban.game import TimeControl
from shogiban.kifu import Result, ResultKind, read_game
from shogiban.usi.match import GameResult, Match, MatchConfig, MatchScore, play_game, random_opening

DECLARE_SFEN = "4K4/9/9/9/9/9/+r+bgggg+b+r1/ssssk4/9 w - 1"


class ScriptedPlayer:
    """A player that plays its list of answers in order: USI moves, ``resign``, ``win``, ``crash``,
    ``hang``, or ``sleep:SECONDS:MOVE``."""

    def __init__(self, name: str, answers: list[str]) -> None:
        self.name = name
        self.answers = list(answers)
        self.nodes = 0
        self.seconds = 0.0
        self.limits: list[Limit] = []
        self.events: list[str] = []
        self.start_error: Exception | None = None

    def start(self) -> None:
        self.events.append("start")

    def new_game(self) -> None:
        self.events.append("new_game")

    def play(self, board: Board, limit: Limit, *, timeout: float | None) -> PlayResult:
        self.limits.append(limit)
        answer = self.answers.pop(0)
        if answer == "crash":
            raise EngineTerminatedError(f"{self.name}: engine process died (exit code 1)")
        if answer == "hang":
            raise EngineError(f"{self.name}: no answer; engine killed")
        if answer.startswith("sleep:"):
            _, seconds, answer = answer.split(":")
            time.sleep(float(seconds))
        self.nodes += 1000
        self.seconds += 0.01
        if answer == "resign":
            return PlayResult(None, resigned=True)
        if answer == "win":
            return PlayResult(None, declared_win=True)
        return PlayResult(Move.from_usi(answer), info={"nodes": 1000, "time": 0.01})

    def game_over(self, result: str) -> None:
        self.events.append(f"gameover {result}")

    def close(self) -> None:
        self.events.append("close")


def play(black: list[str], white: list[str], **kwargs: Any) -> tuple[GameResult, ScriptedPlayer, ScriptedPlayer]:
    players = (ScriptedPlayer("black", black), ScriptedPlayer("white", white))
    result = play_game(players, **kwargs)
    return result, players[0], players[1]


def final(result: GameResult) -> Result:
    """The record's result (asserted present)."""
    assert result.game.result is not None
    return result.game.result


def test_checkmate_and_gameover_messages() -> None:
    result, black, white = play(["G*2b"], [], start_sfen="7kl/9/7PG/9/9/9/9/9/K8 b G 1")
    assert result.outcome.termination is Termination.CHECKMATE
    assert result.outcome.winner == Color.BLACK
    assert black.events == ["new_game", "gameover win"]
    assert white.events == ["new_game", "gameover lose"]
    assert final(result).kind is ResultKind.CHECKMATE


def test_repetition_is_a_draw() -> None:
    cycle_black, cycle_white = ["2h3h", "3h2h"], ["8b7b", "7b8b"]
    result, _, _ = play(cycle_black * 3, cycle_white * 3)
    assert result.outcome.termination is Termination.REPETITION
    assert result.outcome.winner is None
    assert result.plies == 12


def test_perpetual_check_loses_for_the_checker() -> None:
    # Black's rook checks from 2i and 1i in turn; gote's king shuttles 2a <-> 1a.
    result, _, _ = play(["1i2i", "2i1i"] * 3, ["2a1a", "1a2a"] * 3, start_sfen="7k1/9/9/9/9/9/9/9/K7R b - 1")
    assert result.outcome.termination is Termination.PERPETUAL_CHECK
    assert result.outcome.winner == Color.WHITE


def test_declaration_checked_by_the_rule() -> None:
    result, _, _ = play([], ["win"], start_sfen=DECLARE_SFEN)
    assert result.outcome.termination is Termination.ENTERING_KING
    assert result.outcome.winner == Color.WHITE
    result, _, _ = play([], ["win"], start_sfen="4K4/9/9/9/9/9/9/4k4/9 w - 1")
    assert result.outcome.termination is Termination.ILLEGAL_MOVE
    assert result.outcome.winner == Color.BLACK


def test_illegal_move_loses_and_is_recorded() -> None:
    result, _, _ = play(["7g7f", "7f7d"], ["3c3d"])
    outcome = result.outcome
    assert outcome.termination is Termination.ILLEGAL_MOVE
    assert outcome.winner == Color.WHITE
    assert "7f7d" in outcome.detail
    assert final(result).illegal_move == Move.from_usi("7f7d")
    assert [m.usi() for m in result.game.mainline_moves()] == ["7g7f", "3c3d"]


def test_resignation_crash_hang_and_max_moves() -> None:
    result, _, _ = play(["7g7f"], ["resign"])
    assert result.outcome.termination is Termination.RESIGNATION
    assert result.outcome.winner == Color.BLACK
    result, _, _ = play(["7g7f"], ["crash"])
    assert result.outcome.termination is Termination.ABANDONED
    assert result.outcome.winner == Color.BLACK
    assert "crashed" in result.outcome.detail
    assert final(result).kind is ResultKind.ILLEGAL
    # An engine that fails without its clock running out loses as a crash does (every front end alike).
    result, _, _ = play(["hang"], [])
    assert result.outcome.termination is Termination.ABANDONED
    assert result.outcome.winner == Color.WHITE
    assert "did not answer" in result.outcome.detail
    assert final(result).kind is ResultKind.ILLEGAL
    result, _, _ = play(["7g7f", "2g2f"], ["3c3d", "8c8d"], max_moves=4)
    assert result.outcome.termination is Termination.MAX_MOVES
    assert result.outcome.winner is None


def test_clock_limits_and_time_loss() -> None:
    control = TimeControl.of(10, increment=2)
    result, black, white = play(["sleep:0.3:7g7f", "resign"], ["3c3d"], time_control=control)
    assert black.limits[0].go_args() == ["btime", "10000", "wtime", "10000", "binc", "2000", "winc", "2000"]
    # Sente spent ~0.3 s and gained 2: about 11.7 s left at its second move.
    second = black.limits[1].btime
    assert isinstance(second, timedelta)
    assert 10.5 < second.total_seconds() < 11.71
    assert white.limits[0].btime == black.limits[1].btime
    assert next(iter(result.game.mainline())).elapsed == 0  # round(0.3)
    control = TimeControl.of(0, byoyomi=0.2)
    result, _, _ = play(["sleep:0.6:7g7f"], [], time_control=control, tolerance=0.1)
    assert result.outcome.termination is Termination.TIME_FORFEIT
    assert result.outcome.winner == Color.WHITE
    assert final(result).kind is ResultKind.TIME_UP


def test_random_openings_are_seeded_and_safe() -> None:
    import random

    first = random_opening(Board(), 6, random.Random(5))
    assert first == random_opening(Board(), 6, random.Random(5))
    assert first != random_opening(Board(), 6, random.Random(6))
    board = Board()
    for move in first:
        board.push_legal(move)
    assert board.outcome() is None


def test_match_alternates_colours_and_scores(tmp_path: Path) -> None:
    first = ScriptedPlayer("A", ["7g7f", "resign"])  # wins game 1 as sente, resigns game 2 as gote
    second = ScriptedPlayer("B", ["resign", "2g2f"])
    lines: list[str] = []
    config = MatchConfig(games=2, out=tmp_path, random_plies=0)
    score = Match((first, second), config, report=lines.append).run()
    assert (score.wins, score.losses, score.draws) == (1, 1, 0)
    assert lines[0].startswith("Game 1/2: A (sente) vs B (gote): 1-0 sente (A) wins")
    assert lines[2].startswith("Game 2/2: B (sente) vs A (gote): 1-0 sente (B) wins")
    assert lines[-4] == "Final: Score of A vs B: 1 - 1 - 0 [0.500] 2 games"
    assert lines[-3] == "Elo difference: +0.0 +/- inf, LOS: 50.0 %"
    assert lines[-2] == "A: 100.0 k nodes/s"
    game = read_game((tmp_path / "game002.kif").read_bytes())
    assert game.black == "B"
    assert game.white == "A"
    assert [m.usi() for m in game.mainline_moves()] == ["2g2f"]
    assert game.result is not None
    assert game.result.kind is ResultKind.RESIGN
    assert game.outcome().winner == Color.BLACK  # type: ignore[union-attr]


def test_match_score_line() -> None:
    score = MatchScore("x", "y", wins=3, losses=1, draws=2)
    assert str(score) == "Score of x vs y: 3 - 1 - 2 [0.667] 6 games"
    assert round(score.elo().elo) == 120


# -- shogiban match, end to end, with fake USI engines --------------------------------------------

GO = "< re:go btime 0 wtime 0 byoyomi 1000"


def test_match_command_with_fake_engines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Game 1: A (sente) plays 7g7f, B resigns.  Game 2: B (sente) plays 2g2f, A answers 8c8d, then
    # B crashes.  Game 3: B, restarted, resigns again.
    game_a = f"""
        < isready
        > readyok
        < usinewgame
        < position startpos
        {GO}
        > info depth 3 time 100 nodes 20000 score cp 50 pv 7g7f
        > bestmove 7g7f
        < gameover win
        """
    engine_a = make_fake(tmp_path, HANDSHAKE + "< setoption name Skill Level value 0\n" + game_a + f"""
        < isready
        > readyok
        < usinewgame
        < position startpos moves 2g2f
        {GO}
        > info depth 3 time 100 nodes 30000 score cp 10 pv 8c8d
        > bestmove 8c8d
        < gameover win
        """ + game_a + """
        < quit
        """, "a")
    game_b = f"""
        < isready
        > readyok
        < usinewgame
        < position startpos moves 7g7f
        {GO}
        > bestmove resign
        < gameover lose
        """
    engine_b = make_fake(tmp_path, "@run 1\n" + HANDSHAKE + game_b + f"""
        < isready
        > readyok
        < usinewgame
        < position startpos
        {GO}
        > bestmove 2g2f
        < position startpos moves 2g2f 8c8d
        {GO}
        exit 3
        @run 2
        """ + HANDSHAKE + game_b + """
        < quit
        """, "b")
    out = tmp_path / "games"
    status = cli_main([
        "match", "a", "b", "--engine", "a=" + " ".join(engine_a.command), "--engine", "b=" + " ".join(engine_b.command),
        "--option", "a.Skill Level=0", "--games", "3", "--byoyomi", "1", "--out", str(out), "--timeout", "5",
    ])
    printed = capsys.readouterr().out.splitlines()
    assert status == 0, printed
    engine_a.assert_complete()
    engine_b.assert_complete()
    assert "EXIT 3" in engine_b.log()
    assert engine_b.log().count("END") == 1  # the first run died before its end
    assert printed[0] == "Match: a vs b, 3 games, 0 s + 1 s byoyomi"
    assert printed[1].startswith("Game 1/3: a (sente) vs b (gote): 1-0 sente (a) wins, resignation")
    assert printed[2] == "Score of a vs b: 1 - 0 - 0 [1.000] 1 games"
    assert printed[3].startswith("Game 2/3: b (sente) vs a (gote): 0-1 gote (a) wins, abandoned: sente: b crashed")
    assert printed[5].startswith("Game 3/3: a (sente) vs b (gote): 1-0 sente (a) wins, resignation")
    assert printed[7] == "Final: Score of a vs b: 3 - 0 - 0 [1.000] 3 games"
    assert printed[8] == "Elo difference: +inf +/- inf, LOS: 95.8 %"
    assert printed[9] == "a: 233.3 k nodes/s"
    assert printed[10] == "b: n/a"
    first = read_game((out / "game001.kif").read_bytes())
    assert [m.usi() for m in first.mainline_moves()] == ["7g7f"]
    assert first.result is not None
    assert first.result.kind is ResultKind.RESIGN
    second = read_game((out / "game002.kif").read_bytes())
    assert [m.usi() for m in second.mainline_moves()] == ["2g2f", "8c8d"]
    assert second.outcome().winner == Color.WHITE  # type: ignore[union-attr]
    assert "crashed" in second.end().comment
    assert sorted(p.name for p in out.iterdir()) == ["game001.kif", "game002.kif", "game003.kif"]


def test_match_command_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["match", "builtin:9", "builtin:1"]) == 1
    assert "level must be 1..8" in capsys.readouterr().err
    assert cli_main(["match", "a", "builtin:1", "--engine", "a"]) == 1
    assert "expected NAME=COMMAND" in capsys.readouterr().err
    assert cli_main(["match", "builtin:1", "builtin:1", "--option", "x.Hash=1"]) == 1
    assert "no --engine named 'x'" in capsys.readouterr().err


def test_handicap_game_starts_with_the_giver(tmp_path: Path) -> None:
    receiver = ScriptedPlayer("R", ["7g7f"])
    giver = ScriptedPlayer("G", ["3c3d", "resign"])
    config = MatchConfig(games=1, handicap="香落ち", out=tmp_path)
    Match((receiver, giver), config, report=lambda line: None).run()
    game = read_game((tmp_path / "game001.kif").read_bytes())
    assert game.start_sfen == Board.from_handicap("香落ち").sfen()
    assert game.headers["下手"] == "R"
    assert game.headers["上手"] == "G"
    assert [m.usi() for m in game.mainline_moves()] == ["3c3d", "7g7f"]
    assert game.outcome().winner == Color.BLACK  # type: ignore[union-attr]


def test_openings_file_lines_and_random_plies_are_shared_by_a_pair() -> None:
    openings = ["startpos moves 7g7f 3c3d", "sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1"]
    config = MatchConfig(openings=openings, random_plies=2, seed=1)
    match = Match((ScriptedPlayer("A", []), ScriptedPlayer("B", [])), config, report=lambda line: None)
    sfen, moves = match.opening_for(0)
    assert sfen == Board().sfen()
    assert [m.usi() for m in moves[:2]] == ["7g7f", "3c3d"]
    assert len(moves) == 4
    assert match.opening_for(0) == (sfen, moves)  # both games of the pair
    assert match.opening_for(1)[0] == "4k4/9/9/9/9/9/9/9/4K4 b G 1"


def engine_available() -> bool:
    try:
        import shogiban.engine  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not engine_available(), reason="the built-in engine (shogiban.engine) is not there")
def test_match_command_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = cli_main(["match", "builtin:1", "builtin:1", "--in-process", "--depth", "1", "--max-moves", "6",
                       "--seed", "2", "--out", str(tmp_path)])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0, lines
    assert lines[0] == "Match: builtin-1 vs builtin-1-2, 2 games, depth 1"
    assert lines[-4] == "Final: Score of builtin-1 vs builtin-1-2: 0 - 0 - 2 [0.500] 2 games"
    for name in ("game001.kif", "game002.kif"):
        game = read_game((tmp_path / name).read_bytes())
        assert len(game.mainline_moves()) == 6
        assert game.result is not None
        assert game.result.kind in (ResultKind.MAX_MOVES, ResultKind.IMPASSE)  # KIF writes the limit as 持将棋
        assert game.result.winner is None


def test_match_command_fails_fast_when_an_engine_cannot_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = make_fake(tmp_path, HANDSHAKE, "broken")
    status = cli_main(["match", "x", "/nonexistent/engine", "--engine", "x=" + " ".join(broken.command),
                       "--option", "x.NoSuchOption=1"])
    error = capsys.readouterr().err
    assert status == 1
    assert "cannot start the match" in error
    assert "unknown option 'NoSuchOption'" in error
    assert "/nonexistent/engine" in error


def test_match_players_decide_through_the_game_cores_player_protocol() -> None:
    import asyncio

    from shogiban import game
    from shogiban.usi.match import MatchPlayer

    state = game.GameState.new(mode=game.Mode.MATCH, engines=(True, True),
                                 clock=game.Clock(TimeControl.of(0, byoyomi=1.0)))
    player: game.Player = MatchPlayer(ScriptedPlayer("a", ["7g7f"]), depth=None, nodes=None, margin=1.0,
                                      now=lambda: 0.0)
    decided = asyncio.run(player.choose(state))
    assert isinstance(decided, game.PlayMove)
    assert decided.usi == "7g7f"
    crashed = MatchPlayer(ScriptedPlayer("b", ["crash"]), depth=None, nodes=None, margin=1.0, now=lambda: 0.0)
    decision = asyncio.run(crashed.choose(state))
    assert isinstance(decision, game.EngineFailure)
