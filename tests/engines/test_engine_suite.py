"""One behavioural suite for every engine: the built-in engine in this process
(:class:`BuiltinEngine`), the built-in engine through ``shogiban usi``, and our USI server with the
stand-in backend of ``tests/fakes``.  Each speaks the same vocabulary and keeps the same promises:
play, analyse with one and three lines, a stoppable analysis, mate, ponder, deadlines, errors."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

import pytest

from shogiban import Board, Color, Move
from shogiban.engine import BuiltinSearch as Search
from shogiban.engines import (
    BuiltinEngine,
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    InfoDict,
    Limit,
    PlayResult,
    PovScore,
    SimpleEngine,
)
from shogiban.usi import popen_usi

from .helpers import HANDSHAKE, KINDS, Fake, command, open_engine

MIDGAME = "ln1g3nl/1r1s1kgs1/ppp2p3/3P2p2/2PN1P2P/6P2/PP1+b3+pL/5R3/2S1KGSN1 b 5Pbgl 51"
#: Gote's king has exactly two moves (6a, 4a).
TWO_MOVES = "4k4/9/4G4/9/9/9/9/9/4K4 w - 1"
#: Sente can declare under the 27-point rule.
DECLARABLE = "+P+P+P+P+P+P+P+P+P/+R+B2K4/9/9/9/9/9/9/4k4 b B4P 1"
MATE_IN_ONE = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
#: An ample bound on calls that need a fraction of a second (a loaded, shared machine).
GENEROUS = 10.0


def _sort_key(info: InfoDict) -> int:
    score = info["score"].relative.score(mate_score=100_000)
    assert score is not None
    return score


def _assert_line_of(result: PlayResult, board: Board) -> None:
    assert result.move in board.legal_moves
    assert result.info["pv"][0] == result.move  # the line reported last is the move's
    score = result.info["score"]
    assert isinstance(score, PovScore)
    assert score.turn == board.turn


# -- identity and play ---------------------------------------------------------------------------


def test_identity_and_options(engine: SimpleEngine) -> None:
    assert engine.name.startswith("shogiban ")
    assert engine.id["author"]
    assert engine.options["level"].max == 8
    assert engine.options["MultiPV"].min == 1
    assert engine.alive


@pytest.mark.parametrize(
    "limit",
    [Limit(depth=2), Limit(nodes=3000), Limit(time=0.1), Limit(btime=0, wtime=0, byoyomi=0.1),
     Limit(btime=1, wtime=1, binc=0.1, winc=0.1)],
    ids=["depth", "nodes", "time", "byoyomi", "increment"],
)
def test_play_with_each_kind_of_limit(engine: SimpleEngine, limit: Limit) -> None:
    for board in (Board(), Board(MIDGAME)):
        _assert_line_of(engine.play(board, limit), board)
    gote = Board()
    gote.push_usi("7g7f")
    result = engine.play(gote, limit)
    _assert_line_of(result, gote)
    assert result.info["score"].turn == Color.WHITE


def test_resignation_and_declaration(engine: SimpleEngine) -> None:
    mated = engine.play(Board("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"), Limit(depth=2))
    assert (mated.move, mated.resigned, mated.declared_win) == (None, True, False)
    declared = engine.play(Board(DECLARABLE), Limit(depth=2))
    assert (declared.move, declared.resigned, declared.declared_win) == (None, False, True)


def test_play_honours_searchmoves(engine: SimpleEngine) -> None:
    allowed = [Move.from_usi("1g1f"), Move.from_usi("9g9f")]
    for limit in (Limit(depth=2), Limit(time=0.1)):
        result = engine.play(Board(), limit, searchmoves=allowed)
        assert result.move in allowed


def test_ponder_hit_and_miss(engine: SimpleEngine) -> None:
    board = Board()
    first = engine.play(board, Limit(depth=3), ponder=True)
    assert first.ponder is not None
    board.push(first.move)  # type: ignore[arg-type]
    board.push(first.ponder)
    second = engine.play(board, Limit(depth=2), ponder=True)  # the predicted position
    _assert_line_of(second, board)
    board.push(second.move)  # type: ignore[arg-type]
    board.push(next(move for move in board.legal_moves if move != second.ponder))
    _assert_line_of(engine.play(board, Limit(depth=2)), board)  # another one


def test_new_game_and_game_over(engine: SimpleEngine) -> None:
    engine.new_game()
    engine.game_over("draw")
    engine.ping()
    _assert_line_of(engine.play(Board(), Limit(depth=1)), Board())


# -- analysis --------------------------------------------------------------------------------------


def test_analyse_one_line(engine: SimpleEngine) -> None:
    board = Board(MIDGAME)
    info = engine.analyse(board, Limit(depth=3))
    assert info["pv"][0] in board.legal_moves
    assert isinstance(info["score"], PovScore)
    assert info["depth"] >= 1
    lines = engine.analyse(board, Limit(depth=3), multipv=1)
    assert len(lines) == 1
    assert lines[0]["pv"][0] in board.legal_moves


def test_analyse_three_lines_best_first(engine: SimpleEngine) -> None:
    for board in (Board(), Board(MIDGAME)):
        lines = engine.analyse(board, Limit(depth=3), multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        firsts = [line["pv"][0] for line in lines]
        assert len(set(firsts)) == 3
        assert all(move in board.legal_moves for move in firsts)
        assert [_sort_key(line) for line in lines] == sorted(map(_sort_key, lines), reverse=True)
        assert {line["depth"] for line in lines} == {lines[0]["depth"]}
    # Play goes back to one line.
    result = engine.play(Board(), Limit(depth=2))
    assert result.info.get("multipv", 1) == 1


def test_analyse_gives_no_more_lines_than_moves(engine: SimpleEngine) -> None:
    board = Board(TWO_MOVES)
    lines = engine.analyse(board, Limit(depth=2), multipv=3)
    assert sorted(line["pv"][0].usi() for line in lines) == ["5a4a", "5a6a"]
    allowed = [Move.from_usi("1g1f"), Move.from_usi("9g9f")]
    lines = engine.analyse(Board(), Limit(depth=2), multipv=3, searchmoves=allowed)
    assert {line["pv"][0] for line in lines} == set(allowed)
    assert len(lines) == 2


def test_an_analysis_streams_until_stopped(engine: SimpleEngine) -> None:
    board = Board(MIDGAME)
    analysis = engine.analysis(board)
    seen: list[InfoDict] = []
    for info in analysis:
        seen.append(info)
        if info.get("depth", 0) >= 2 and "pv" in info:
            break
    analysis.stop()
    result = analysis.wait()
    assert result.move in board.legal_moves
    rest = list(analysis)  # what came before the answer, then the end
    assert all("multipv" not in info for info in seen + rest)
    assert analysis.info["pv"][0] in board.legal_moves
    # The engine takes the next command at once.
    _assert_line_of(engine.play(board, Limit(depth=1)), board)


def test_an_analysis_of_two_lines(engine: SimpleEngine) -> None:
    board = Board()
    with engine.analysis(board, multipv=2) as analysis:
        ranks: set[int] = set()
        for info in analysis:
            ranks.add(info.get("multipv", 0))
            if ranks >= {1, 2} and info.get("depth", 0) >= 2:
                break
    assert ranks == {1, 2}
    assert len({line["pv"][0] for line in analysis.multipv}) == 2


def test_mate(engine: SimpleEngine) -> None:
    found = engine.mate(Board(MATE_IN_ONE), 5)
    assert (found.status, found.moves) == ("mate", (Move.from_usi("G*5b"),))
    assert engine.mate(Board(MATE_IN_ONE), Limit(time=5)).length == 1
    assert engine.mate(Board("9/9/9/9/9/9/9/9/4K4 b R 1"), 1).status == "nomate"  # no king to mate


# -- deadlines and errors --------------------------------------------------------------------------


def test_a_search_past_its_deadline_is_stopped_and_answers(engine: SimpleEngine) -> None:
    began = time.monotonic()
    result = engine.play(Board(), Limit(depth=1000), timeout=0.3)
    assert time.monotonic() - began < GENEROUS
    assert result.move in Board().legal_moves


@pytest.mark.parametrize("kind", KINDS)
def test_a_search_without_a_time_has_the_default_deadline(kind: str) -> None:
    with open_engine(kind, search_timeout=0.3) as engine:
        began = time.monotonic()
        result = engine.play(Board(), Limit(depth=1000))
        assert time.monotonic() - began < GENEROUS
        assert result.move in Board().legal_moves
        assert engine.alive


def test_misuse_is_refused_and_the_engine_goes_on(engine: SimpleEngine) -> None:
    with pytest.raises(ValueError, match="infinite"):
        engine.play(Board(), Limit(infinite=True))
    for endless in (Limit(), Limit(infinite=True), Limit(depth=3, infinite=True)):
        with pytest.raises(ValueError, match="never end"):
            engine.analyse(Board(), endless)
    with pytest.raises(EngineError, match="unknown option 'Frobnicate'") as raised:
        engine.configure({"Frobnicate": 1})
    assert raised.value.code == "engine_error"
    with pytest.raises(EngineError, match=r"range 1\.\.8"):
        engine.configure({"Level": 9})
    with pytest.raises(ValueError, match="game result"):
        engine.game_over("won")
    _assert_line_of(engine.play(Board(), Limit(depth=1)), Board())


# -- the asyncio protocol itself -------------------------------------------------------------------


async def _open(kind: str) -> Engine:
    if kind == "builtin":
        return BuiltinEngine(level=8, seed=0)
    _, protocol = await popen_usi(command(kind))
    return protocol


@pytest.mark.parametrize("kind", KINDS)
def test_the_async_protocol_and_quit(kind: str) -> None:
    async def run() -> None:
        engine = await _open(kind)
        await engine.configure({"Level": 3})
        result = await engine.play(Board(), Limit(depth=2))
        assert result.move in Board().legal_moves
        lines = await engine.analyse(Board(), Limit(depth=2), multipv=2)
        assert len({line["pv"][0] for line in lines}) == 2
        async with await engine.analysis(Board()) as analysis:
            async for info in analysis:
                if "pv" in info:
                    break
        await engine.quit()
        assert not engine.alive
        with pytest.raises(EngineTerminatedError, match="has quit") as raised:
            await engine.play(Board(), Limit(depth=1))
        assert raised.value.code == "engine_terminated"

    asyncio.run(asyncio.wait_for(run(), 60))


class Stubborn(Search):
    """A search that ignores its stop event until the test lets it go."""

    def __init__(self, release: threading.Event) -> None:
        super().__init__(8, seed=0)
        self.release = release

    def search(self, board: Board, limit: Limit, **kwargs: object) -> PlayResult:  # type: ignore[override]
        self.release.wait(60)
        return PlayResult(None, resigned=True)


@pytest.mark.parametrize("kind", ["builtin", "usi"])
def test_an_engine_that_ignores_stop_is_given_up(kind: str, fake: Callable[[str], Fake]) -> None:
    release = threading.Event()

    async def run() -> None:
        engine: Engine
        if kind == "builtin":
            engine = BuiltinEngine(search=Stubborn(release), timeout=0.5)
        else:
            hung = fake(HANDSHAKE + "< isready\n> readyok\n< usinewgame\n< position startpos\n< go depth 5\nhang\n")
            _, engine = await popen_usi(hung.command, timeout=0.5)
        began = time.monotonic()
        with pytest.raises(EngineTimeoutError, match="no answer") as raised:
            await engine.play(Board(), Limit(depth=5), timeout=0.2)
        assert time.monotonic() - began < GENEROUS
        assert raised.value.code == "engine_timeout"
        assert not engine.alive
        with pytest.raises(EngineError):
            await engine.play(Board(), Limit(depth=1))
        await engine.quit()

    try:
        asyncio.run(asyncio.wait_for(run(), 60))
    finally:
        release.set()
