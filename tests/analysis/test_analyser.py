from __future__ import annotations

import threading

import pytest

from shogiban import Board, Move
from shogiban.analysis import Analyser, AnalysisCache, AnalysisOptionError, Label, Progress, analyse_position
from shogiban.engines import Limit, LogisticWinRate, Score, SimpleEngine
from shogiban.kifu import Game, read_game
from shogiban.pieces import Color

from .helpers import CountingEngine

BISHOP_GIFT = "+7776FU\n-3334FU\n+8833UM\n-2233KA\n"


def test_giving_away_the_bishop_is_a_blunder_and_the_recapture_is_not(engine: SimpleEngine) -> None:
    analysis = Analyser(engine, Limit(depth=3)).game(read_game(BISHOP_GIFT))
    moves = analysis.mainline_moves()
    assert [m.move.usi() for m in moves] == ["7g7f", "3c3d", "8h3c+", "2b3c"]
    gift, recapture = moves[2], moves[3]
    assert gift.label is Label.BLUNDER
    assert gift.mover == Color.BLACK
    assert gift.loss > 0.3
    assert recapture.label is None
    assert recapture.loss == 0.0
    assert analysis.worst_move() is gift
    assert analysis.worst_move(Color.BLACK) is gift
    assert analysis.label_counts(Color.BLACK)[Label.BLUNDER] == 1
    assert analysis.label_counts(Color.WHITE) == dict.fromkeys(Label, 0)
    black, white = analysis.accuracy(Color.BLACK), analysis.accuracy(Color.WHITE)
    assert black is not None
    assert white is not None
    assert black < 70 < white
    assert analysis.key_moments() == [gift]  # the recapture swings little: it was expected
    # Scores are sente's: after the gift sente is far behind.
    after = analysis.positions[gift.node]
    assert after.score is not None
    assert after.score.cp is not None
    assert after.score.cp < -600
    assert after.turn == Color.WHITE
    assert after.best_move == Move.from_usi("2b3c")


def test_a_missed_mate_in_one_is_flagged(engine: SimpleEngine) -> None:
    game = Game("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    game.add_variation(Move.from_usi("5i4h"))  # G*5b mates
    analysis = Analyser(engine, Limit(depth=3)).game(game)
    (judged,) = analysis.mainline_moves()
    assert judged.before.score == Score(mate=1)
    assert judged.best_move == Move.from_usi("G*5b")
    assert judged.missed_mate
    assert not judged.is_best
    assert judged.loss > 0
    assert analysis.missed_mates(Color.BLACK) == [judged]


def test_mating_is_no_missed_mate_and_the_mated_position_is_not_searched(engine: SimpleEngine) -> None:
    game = Game("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    game.add_variation(Move.from_usi("G*5b"))
    counting = CountingEngine(engine)
    analysis = Analyser(counting, Limit(depth=3)).game(game)
    (judged,) = analysis.mainline_moves()
    assert not judged.missed_mate
    assert judged.label is None
    assert judged.is_best
    assert len(counting.calls) == 1  # the checkmate itself is not searched
    assert analysis.positions[judged.node].terminal


def test_a_cache_hit_avoids_a_search(engine: SimpleEngine) -> None:
    counting = CountingEngine(engine)
    cache = AnalysisCache()
    game = read_game(BISHOP_GIFT)
    first = Analyser(counting, Limit(depth=2), cache=cache).game(game)
    # 5 positions, then the gift's position before to depth 4: alone, and with searchmoves.
    assert len(counting.calls) == 7
    second = Analyser(counting, Limit(depth=2), cache=cache).game(game)
    assert len(counting.calls) == 7  # nothing searched again
    assert cache.hits == 7
    assert [p.score for _, p in second.mainline_positions()] == [p.score for _, p in first.mainline_positions()]
    assert [m.label for m in second.mainline_moves()] == [m.label for m in first.mainline_moves()]
    # Another limit is another entry.
    Analyser(counting, Limit(depth=1), cache=cache).position(Board())
    assert len(counting.calls) == 8
    # The same position at another ply is the same entry (the move number is not in the key).
    board = Board()
    for usi in ("2h3h", "8b7b", "3h2h", "7b8b"):
        board.push(Move.from_usi(usi))
    analyse_position(counting, board, Limit(depth=1), cache=cache)
    assert len(counting.calls) == 8


def test_independent_searches_start_from_a_fresh_engine(engine: SimpleEngine) -> None:
    counting = CountingEngine(engine)
    Analyser(counting, Limit(depth=1), independent=True).game(read_game(BISHOP_GIFT))
    assert counting.new_games == len(counting.calls) == 7  # 5 positions, 2 to confirm the gift


def test_multipv_lines_best_first(engine: SimpleEngine) -> None:
    position = Analyser(engine, Limit(depth=2), multipv=3).position(Board())
    assert [line.multipv for line in position.lines] == [1, 2, 3]
    assert len({line.pv[0] for line in position.lines}) == 3
    assert position.best_move == position.lines[0].pv[0]


def test_progress_and_cancellation(engine: SimpleEngine) -> None:
    seen: list[Progress] = []

    def progress(p: Progress) -> bool:
        seen.append(p)
        return p.done < 2

    analysis = Analyser(engine, Limit(depth=1)).game(read_game(BISHOP_GIFT), progress=progress)
    assert [(p.done, p.total) for p in seen] == [(1, 5), (2, 5)]
    assert analysis.cancelled
    assert len(analysis.positions) == 2
    stop = threading.Event()
    stop.set()
    cancelled = Analyser(engine, Limit(depth=1)).game(read_game(BISHOP_GIFT), cancel=stop)
    assert cancelled.cancelled
    assert not cancelled.positions


def test_every_line(engine: SimpleEngine) -> None:
    game = read_game(BISHOP_GIFT)
    game.root.variations[0].variations[0].add_variation(Move.from_usi("2g2f"))
    main = Analyser(engine, Limit(depth=1)).game(game)
    every = Analyser(engine, Limit(depth=1)).game(game, lines="all")
    assert len(main.positions) == 5
    assert len(every.positions) == 6
    side = game.root.variations[0].variations[0].variations[1]
    assert side in every.moves
    assert side not in main.moves
    with pytest.raises(ValueError):
        Analyser(engine, Limit(depth=1)).game(game, lines="some")


def test_another_win_rate_model(engine: SimpleEngine) -> None:
    game = read_game(BISHOP_GIFT)
    default = Analyser(engine, Limit(depth=3)).game(game).mainline_moves()[2]
    gentle = Analyser(engine, Limit(depth=3), model=LogisticWinRate(scale=3000)).game(game).mainline_moves()[2]
    assert gentle.loss < default.loss / 2  # a flatter curve: the same cp lose less win rate
    assert gentle.label is not Label.BLUNDER


def test_bad_options(engine: SimpleEngine) -> None:
    with pytest.raises(AnalysisOptionError):
        Analyser(engine, Limit(depth=1), multipv=0)
    with pytest.raises(AnalysisOptionError):
        Analyser(engine, Limit(infinite=True))
