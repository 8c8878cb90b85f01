"""The play loop driven with scripted input, as a user at the terminal would drive it."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import pytest
from rich.console import Console

from shogiban import Board, Color, Move, Termination
from shogiban.engines import BuiltinEngine, Engine, Limit, PlayResult
from shogiban.errors import EngineError, EngineMoveError, EngineTerminatedError
from shogiban.game import EnginePlayer, Player, TimeControl
from shogiban.i18n import Language
from shogiban.kifu import read_game
from shogiban.play.human import HumanPlayer
from shogiban.play.reader import ScriptedReader
from shogiban.play.session import GameSession, SessionOptions

MATE_IN_ONE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"  # G*5b mates
DECLARABLE = "+R+B1G1G3/4K4/2+P+P+P+P+P+P+P/9/9/9/2+p+p+p+p+p+p+p/4k4/+r+b1g1g3 b 2S2N2L3P2s2n2lp 1"


class FakeTime:
    """A clock the scripted reader advances as if the user took time to type."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class StandInEngine:
    """A stand-in engine (what :class:`shogiban.engines.Engine` answers): plays its scripted
    answers in order, then its hint if it has one, else the first legal move."""

    answers: list[PlayResult | str | EngineError] = field(default_factory=list)
    hint: Move | None = None
    name: str = "stand-in"
    seen: list[Limit] = field(default_factory=list)
    closed: bool = False
    results: list[str] = field(default_factory=list)
    think: Callable[[], None] | None = None

    async def play(self, board: Board, limit: Limit) -> PlayResult:
        self.seen.append(limit)
        if self.think is not None:
            self.think()
        if self.answers:
            answer = self.answers.pop(0)
            if isinstance(answer, EngineError):
                raise answer
            if isinstance(answer, str):
                move = Move.from_usi(answer)
                if not board.is_legal(move):  # as the USI client reports an illegal bestmove
                    raise EngineMoveError(f"illegal move {answer!r}", answer, move)
                return PlayResult(move)
            return answer
        return PlayResult(self.hint or next(iter(board.legal_moves)))

    async def game_over(self, result: str) -> None:
        self.results.append(result)

    async def quit(self) -> None:
        self.closed = True


def opponent(engine: StandInEngine) -> EnginePlayer:
    """*engine* as a player on the game's one protocol."""
    return EnginePlayer(cast(Engine, engine), name=engine.name)


def against(engine: StandInEngine) -> tuple[Player, Player]:
    """A person (sente) against *engine* (gote)."""
    return HumanPlayer("me"), opponent(engine)


@dataclass
class Run:
    session: GameSession
    output: str

    @property
    def outcome(self):  # type: ignore[no-untyped-def]
        return self.session.outcome


def play(
    board: Board | str,
    lines: Sequence[str | tuple[str, float]],
    players: tuple[Player, Player] | None = None,
    *,
    language: Language = "en",
    clock: TimeControl | None = None,
    handicap: str | None = None,
    hint_engine: Engine | None = None,
    time: FakeTime | None = None,
) -> Run:
    time = time or FakeTime()
    out = io.StringIO()
    session = GameSession(
        Board(board) if isinstance(board, str) else board,
        players or (HumanPlayer("one"), HumanPlayer("two")),
        reader=ScriptedReader(lines, advance=time.advance),
        console=Console(file=out, width=200, no_color=True),
        options=SessionOptions(
            language=language, colors=False, clock=clock or TimeControl(), handicap=handicap, echo_input=True
        ),
        hint_engine=hint_engine,
        now=time,
    )
    session.run()
    return Run(session, out.getvalue())


# -- a game to its end ------------------------------------------------------------------------------


def test_two_people_play_to_mate_in_japanese_notation() -> None:
    run = play("4k4/9/9/4P4/9/9/9/9/4K4 b G 1", ["５三歩成", "４一玉", "42金"], language="ja")
    assert run.outcome is not None
    assert run.outcome.termination is Termination.CHECKMATE
    assert run.outcome.winner == Color.BLACK
    assert "詰みです。後手の玉に逃げ道がありません。先手の勝ちです。" in run.output
    assert "直前の指し手：▲４二金" in run.output
    assert [m.usi() for m in run.session.board.move_stack] == ["5d5c+", "5a4a", "G*4b"]


def test_illegal_move_shows_the_core_reason_and_the_game_goes_on() -> None:
    run = play("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", ["P*5e", "5g5f", "quit"])
    assert "Illegal move P*5e: two pawns on file 5 (二歩)" in run.output
    assert run.session.board.move_stack == [Move.from_usi("5g5f")]
    assert run.outcome is not None
    assert run.outcome.termination is Termination.ABANDONED


def test_illegal_move_reason_in_chinese() -> None:
    run = play("7nk/9/7G1/9/9/9/9/9/4K4 b P 1", ["１二步打", "quit"], language="zh-hant")
    assert "不可以打入步兵把對方將死（打步詰）" in run.output


def test_ambiguous_japanese_move_lists_candidates() -> None:
    run = play("4k4/9/3G1G3/9/9/9/9/9/4K4 b - 1", ["５二金", "５二金右", "quit"], language="ja")
    assert "'５二金' だけでは決まりません。候補：▲５二金左 (6c5b), ▲５二金右 (4c5b)" in run.output
    assert run.session.board.move_stack == [Move.from_usi("4c5b")]


def test_unknown_text_points_to_help() -> None:
    run = play(Board(), ["castle", "help", "quit"])
    assert "Cannot read 'castle'" in run.output
    assert "Moves can be typed in any of these notations" in run.output


# -- commands ---------------------------------------------------------------------------------------


def test_undo_against_an_engine_takes_back_both_moves() -> None:
    engine = StandInEngine(["3c3d", "8c8d"])
    run = play(Board(), ["7g7f", "undo", "2g2f", "quit"], against(engine))
    assert "Took back 2 move(s)." in run.output
    assert [m.usi() for m in run.session.board.move_stack] == ["2g2f", "8c8d"]


def test_undo_between_two_people_takes_back_one_move() -> None:
    run = play(Board(), ["7g7f", "undo", "2g2f", "quit"])
    assert "Took back 1 move(s)." in run.output
    assert [m.usi() for m in run.session.board.move_stack] == ["2g2f"]


def test_undo_with_nothing_to_undo() -> None:
    engine = StandInEngine(["3c3d"])
    run = play(Board.from_handicap("香落ち"), ["undo", "quit"], against(engine), handicap="香落ち")
    assert "There is no move of yours to take back." in run.output
    assert len(run.session.board.move_stack) == 1  # the giver's move stays


def test_resign() -> None:
    run = play(Board(), ["7g7f", "resign"], language="zh-hans")
    assert run.outcome is not None
    assert run.outcome.termination is Termination.RESIGNATION
    assert run.outcome.winner == Color.BLACK
    assert "后手认输。先手获胜。" in run.output


def test_hint_from_the_opponent_engine() -> None:
    engine = StandInEngine(hint=Move.from_usi("G*5b"))
    run = play(MATE_IN_ONE, ["hint", "quit"], against(engine))
    assert "Hint: G*5b (G*5b)" in run.output


def test_hint_without_engine() -> None:
    run = play(MATE_IN_ONE, ["hint", "quit"])
    assert "No hint available: no engine is available" in run.output


def test_hint_from_the_builtin_engine_finds_the_mate() -> None:
    engine = BuiltinEngine(8, seed=1)
    run = play(MATE_IN_ONE, ["hint", "quit"], hint_engine=engine)
    assert "Hint: G*5b (G*5b)" in run.output


def test_save_kif_and_read_it_back(tmp_path: Path) -> None:
    path = tmp_path / "game.kif"
    run = play("4k4/9/9/4P4/9/9/9/9/4K4 b G 1", ["5d5c+", "5a4a", "G*4b", f"save {path}", "quit"])
    assert f"Saved the game to {path}." in run.output
    game = read_game(path)
    assert [m.usi() for m in game.mainline_moves()] == ["5d5c+", "5a4a", "G*4b"]
    assert game.start_sfen.split()[:3] == ["4k4/9/9/4P4/9/9/9/9/4K4", "b", "G"]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.CHECKMATE
    assert outcome.winner == Color.BLACK
    assert game.headers["先手"] == "one"


def test_save_csa_during_the_game_and_resignation_recorded(tmp_path: Path) -> None:
    path = tmp_path / "game.csa"
    run = play(Board(), ["7g7f", "3c3d", f"save {path}", "resign", f"save {path}"])
    game = read_game(path)
    assert [m.usi() for m in game.mainline_moves()] == ["7g7f", "3c3d"]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.RESIGNATION
    assert outcome.winner == Color.WHITE
    assert run.output.count("Saved the game") == 2


def test_save_to_an_unknown_format(tmp_path: Path) -> None:
    run = play(Board(), [f"save {tmp_path / 'game.txt'}", "save", "quit"])
    assert "Could not save" in run.output
    assert "Usage: save FILE" in run.output


def test_declaration_when_the_rule_allows_it() -> None:
    run = play(DECLARABLE, ["declare"])
    assert "You can declare an entering-king win now" in run.output
    assert run.outcome is not None
    assert run.outcome.termination is Termination.ENTERING_KING
    assert "Sente declared an entering-king win (入玉宣言) with 28 points. Sente wins." in run.output


def test_declaration_refused_with_the_reason() -> None:
    run = play(Board(), ["declare", "quit"], language="ja")
    assert "まだ入玉宣言はできません：玉が敵陣に入っていません。" in run.output


def test_quit_and_end_of_input() -> None:
    assert play(Board(), ["quit"]).outcome.termination is Termination.ABANDONED
    run = play(Board(), [])
    assert run.outcome.termination is Termination.ABANDONED
    assert "Input ended" in run.output


# -- engines ----------------------------------------------------------------------------------------


def test_engine_moves_and_the_human_mates() -> None:
    engine = StandInEngine(["3i2i"])
    run = play("9/9/1k7/9/9/9/9/2s2rr2/6K2 b - 1", ["4h4i+"], (opponent(engine), HumanPlayer("me")))
    assert "Sente plays K-2i." in run.output
    assert engine.results == ["lose"]
    assert run.outcome.termination is Termination.CHECKMATE
    assert run.outcome.winner == Color.WHITE


def test_builtin_engine_mates() -> None:
    builtin = EnginePlayer(BuiltinEngine(8, seed=1), movetime=0.5)
    run = play(MATE_IN_ONE, [], (builtin, HumanPlayer("me")))
    assert run.outcome.termination is Termination.CHECKMATE
    assert run.outcome.winner == Color.BLACK
    assert run.session.board.move_stack == [Move.from_usi("G*5b")]


def test_engine_resigns_declares_or_fails() -> None:
    run = play(Board(), ["7g7f"], against(StandInEngine([PlayResult(None, resigned=True)])))
    assert run.outcome.termination is Termination.RESIGNATION
    assert run.outcome.winner == Color.BLACK
    bad = play(Board(), ["7g7f"], against(StandInEngine(["2b3a"])))
    assert bad.outcome.termination is Termination.ILLEGAL_MOVE
    assert bad.outcome.winner == Color.BLACK
    assert "2b3a" in bad.output
    declares = play(Board(), ["7g7f"], against(StandInEngine([PlayResult(None, declared_win=True)])))
    assert declares.outcome.termination is Termination.ILLEGAL_MOVE
    failed = play(Board(), ["7g7f"], against(StandInEngine([EngineError("engine died")])))
    assert failed.outcome.termination is Termination.ABANDONED
    assert "The engine failed: stand-in did not answer (engine died)" in failed.output


def test_an_engine_crash_loses_for_its_side_as_in_every_front_end() -> None:
    crashed = play(Board(), ["7g7f"], against(StandInEngine([EngineTerminatedError("exit code 1")])))
    assert crashed.outcome.termination is Termination.ABANDONED
    assert crashed.outcome.winner == Color.BLACK
    assert crashed.outcome.detail == "gote: stand-in crashed (exit code 1)"
    assert "The engine failed: stand-in crashed (exit code 1)" in crashed.output
    assert "Gote's engine failed. Sente wins." in crashed.output  # not "stopped without a result"


def test_handicap_giver_moves_first() -> None:
    engine = StandInEngine(["5a4b"])
    run = play(Board.from_handicap("香落ち"), ["quit"], against(engine), handicap="香落ち", language="ja")
    assert "駒落ち（香落ち）：上手が駒を落とし、先に指します。" in run.output
    assert "上手：" in run.output
    assert "☖ 上手" in run.output
    assert run.session.board.move_stack == [Move.from_usi("5a4b")]


# -- clocks -----------------------------------------------------------------------------------------


def test_loss_on_time_while_thinking() -> None:
    time = FakeTime()
    run = play(Board(), [("7g7f", 2.0), ("3c3d", 6.0)], clock=TimeControl.of(5), time=time)
    assert run.outcome.termination is Termination.TIME_FORFEIT
    assert run.outcome.winner == Color.BLACK
    assert "Gote ran out of time. Sente wins." in run.output
    assert run.session.board.move_stack == [Move.from_usi("7g7f")]


def test_byoyomi_renews_each_move_then_flags() -> None:
    time = FakeTime()
    lines = [("7g7f", 9.0), ("3c3d", 1.0), ("2g2f", 9.5), ("8c8d", 1.0), ("6g6f", 10.5)]
    run = play(Board(), lines, clock=TimeControl.of(0, byoyomi=10), time=time, language="ja")
    assert [m.usi() for m in run.session.board.move_stack] == ["7g7f", "3c3d", "2g2f", "8c8d"]
    assert run.outcome.termination is Termination.TIME_FORFEIT
    assert run.outcome.winner == Color.WHITE
    assert "先手の時間切れです。後手の勝ちです。" in run.output
    assert "秒読み" in run.output


def test_engine_gets_the_clock_and_loses_on_time() -> None:
    time = FakeTime()
    engine = StandInEngine(["3c3d"], think=lambda: time.advance(31))
    run = play(
        Board(), [("7g7f", 4.0)], against(engine), clock=TimeControl.of(20, byoyomi=10), time=time
    )
    # Sente spent 4 s of its 20; gote's turn began with its 20 s and the byoyomi.
    seen = engine.seen[0]
    assert seen.go_args() == ["btime", "16000", "wtime", "20000", "byoyomi", "10000"]
    assert run.outcome.termination is Termination.TIME_FORFEIT
    assert run.outcome.winner == Color.BLACK


def test_clocks_are_shown() -> None:
    run = play(Board(), [("7g7f", 3.0), "quit"], clock=TimeControl.of(600, byoyomi=30))
    assert "☗ Sente: 10:00 (byoyomi 30 s)" in run.output
    assert "☗ Sente: 9:57 (byoyomi 30 s)" in run.output


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Sente to move", "Move 1"]),
        ("ja", ["先手の手番", "1手目"]),
        ("zh-hant", ["輪到先手", "第1手"]),
        ("zh-hans", ["轮到先手", "第1手"]),
    ],
)
def test_the_session_speaks_every_language(language: Language, words: list[str]) -> None:
    run = play(Board(), ["quit"], language=language)
    for word in words:
        assert word in run.output
