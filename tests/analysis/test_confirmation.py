"""Candidate mistakes are searched again to a larger limit, and that search decides the label.

A stand-in engine gives fixed scores by position and limit, so the tests are exact."""

from __future__ import annotations

from collections.abc import Sequence

from shogiban import Board, Move
from shogiban.analysis import Analyser, AnalysisCache, Label
from shogiban.analysis.analyser import confirm_limit
from shogiban.analysis.cache import limit_text
from shogiban.engines import InfoDict, Limit, PovScore, Score, SimpleEngine
from shogiban.kifu import Game, read_game
from shogiban.pieces import Color

START = Board().sfen(move_number=False)
PLAYED = Move.from_usi("1g1f")
BEST = Move.from_usi("7g7f")


class StandIn:
    """Sente to move at the start: 7g7f is best (+100).  1g1f is scored by *played* (by limit
    text) when searched from the start position (MultiPV or searchmoves), and the position after
    1g1f by *after* (gote to move: sente's score is the negated one sent).  *depths* gives the
    depths of the two lines from the start position by limit text (default 1 and 1), as a search
    stopped between them reports them."""

    name = "stand-in"

    def __init__(
        self, played: dict[str, int], after: dict[str, int], *, searchmoves: bool = True,
        depths: dict[str, tuple[int, int]] | None = None,
    ) -> None:
        self.played = played
        self.depths = depths or {}
        self.after = after
        self.searchmoves = searchmoves
        self.calls: list[tuple[str, str, tuple[str, ...]]] = []

    def new_game(self) -> None:
        pass

    def analyse(
        self, board: Board, limit: Limit, *, multipv: int, searchmoves: Sequence[Move] | None = None,
    ) -> list[InfoDict]:
        text = limit_text(limit)
        moves = tuple(m.usi() for m in searchmoves or ()) if self.searchmoves else ()
        self.calls.append((board.sfen(move_number=False), text, moves))
        if not self.searchmoves:
            multipv = 1  # an engine of one line, which ignores searchmoves
        if board.sfen(move_number=False) == START:
            depth_best, depth_played = self.depths.get(text, (1, 1))
            lines = [(BEST, 100, depth_best), (PLAYED, self.played.get(text, 0), depth_played)]
            if moves:
                lines = [line for line in lines if line[0].usi() in moves]
            return [InfoDict(score=PovScore(Score(cp=cp), Color.BLACK), pv=[move], depth=depth, multipv=rank)
                    for rank, (move, cp, depth) in enumerate(lines[:multipv], 1)]
        # After 1g1f, gote to move: the search's score is gote's.
        return [InfoDict(score=PovScore(Score(cp=-self.after[text]), Color.WHITE), pv=[Move.from_usi("3c3d")],
                         depth=1, multipv=1)]


def _game() -> Game:
    game = Game()
    game.add_variation(PLAYED)
    return game


def test_confirm_limit_is_larger() -> None:
    assert confirm_limit(Limit(depth=4)) == Limit(depth=6)
    assert confirm_limit(Limit(nodes=1000)) == Limit(nodes=2000)
    assert limit_text(confirm_limit(Limit(time=0.3))) == "movetime 0.6"


def test_a_loss_the_larger_search_does_not_see_gets_no_label() -> None:
    # The first search sees 1g1f lose 1100 cp (a blunder); the larger one sees it lose 50.
    engine = StandIn(played={"depth 4": 50}, after={"depth 2": -1000, "depth 4": 50})
    analysis = Analyser(engine, Limit(depth=2)).game(_game())
    (move,) = analysis.mainline_moves()
    assert move.first_loss is not None
    assert move.first_loss > 0.3
    assert move.confirmation is not None
    assert move.confirmation.limit == "depth 4"
    assert move.confirmation.same_search
    assert move.loss < 0.10
    assert move.label is None
    data = analysis.to_json()
    assert data["confirm_limit"] == "depth 4"
    assert data["positions"][1]["label"] is None
    assert data["positions"][1]["confirmation"]["played"]["score"] == {"cp": 50}


def test_a_loss_both_searches_see_keeps_its_label() -> None:
    engine = StandIn(played={"depth 4": -1100}, after={"depth 2": -1000, "depth 4": -1100})
    (move,) = Analyser(engine, Limit(depth=2)).game(_game()).mainline_moves()
    assert move.confirmation is not None
    assert move.label is Label.BLUNDER
    assert move.loss > 0.3


def test_the_played_move_is_measured_in_the_same_search_as_the_best() -> None:
    # With MultiPV 2 the played move is one of the first search's lines: no position after it
    # decides; the larger search has both lines too, so no searchmoves search is needed.
    engine = StandIn(played={"depth 2": -1000, "depth 4": 60}, after={"depth 2": 90, "depth 4": 90})
    analysis = Analyser(engine, Limit(depth=2), multipv=2).game(_game())
    (move,) = analysis.mainline_moves()
    assert move.first_loss is not None
    assert move.first_loss > 0.3
    assert move.label is None
    assert [call[2] for call in engine.calls] == [(), (), ()]


def test_searchmoves_gives_both_lines_of_one_search() -> None:
    engine = StandIn(played={"depth 4": -1100}, after={"depth 2": -1000})
    (move,) = Analyser(engine, Limit(depth=2)).game(_game()).mainline_moves()
    assert (START, "depth 4", ("7g7f", "1g1f")) in engine.calls
    assert move.confirmation is not None
    assert move.confirmation.same_search
    assert move.label is Label.BLUNDER


def test_lines_of_different_depths_are_searched_again_to_one_depth() -> None:
    # A time limit stopped the re-search after the best line's depth 5 and the played line's
    # depth 4: the -1100 of depth 4 is not compared with the +100 of depth 5; both lines are
    # searched again to depth 5, where the move loses little.
    engine = StandIn(played={"movetime 0.6": -1100, "depth 5": 50}, after={"movetime 0.3": -1000},
                     depths={"movetime 0.6": (5, 4)})
    (move,) = Analyser(engine, Limit(time=0.3)).game(_game()).mainline_moves()
    assert (START, "depth 5", ("7g7f", "1g1f")) in engine.calls
    assert move.confirmation is not None
    assert move.confirmation.limit == "movetime 0.6; depth 5"
    assert move.label is None


def test_lines_of_one_depth_are_not_searched_again() -> None:
    engine = StandIn(played={"movetime 0.6": -1100}, after={"movetime 0.3": -1000},
                     depths={"movetime 0.6": (4, 4)})
    (move,) = Analyser(engine, Limit(time=0.3)).game(_game()).mainline_moves()
    assert not any(call[1].startswith("depth") for call in engine.calls)
    assert move.confirmation is not None
    assert move.confirmation.limit == "movetime 0.6"
    assert move.label is Label.BLUNDER


def test_without_searchmoves_the_position_after_is_searched_to_the_larger_limit() -> None:
    engine = StandIn(played={"depth 4": -1100}, after={"depth 2": -1000, "depth 4": 40}, searchmoves=False)
    (move,) = Analyser(engine, Limit(depth=2)).game(_game()).mainline_moves()
    assert move.confirmation is not None
    assert not move.confirmation.same_search
    assert move.label is None


def test_labels_do_not_depend_on_the_cache_or_the_order() -> None:
    played, after = {"depth 4": 50}, {"depth 2": -1000, "depth 4": 50}
    fresh = Analyser(StandIn(played, after), Limit(depth=2)).game(_game())
    # A cache that already holds the larger limit's searches (from an analysis at depth 4) gives the same.
    cache = AnalysisCache()
    Analyser(StandIn(played, after), Limit(depth=4), cache=cache).game(_game())
    warm_engine = StandIn(played, after)
    warm = Analyser(warm_engine, Limit(depth=2), cache=cache).game(_game())
    assert [m.label for m in warm.mainline_moves()] == [m.label for m in fresh.mainline_moves()] == [None]
    assert [m.loss for m in warm.mainline_moves()] == [m.loss for m in fresh.mainline_moves()]
    # The depth-4 entries did not stand for the first (depth-2) searches: those were made.
    assert (START, "depth 2", ()) in warm_engine.calls
    assert (START, "depth 4", ()) not in warm_engine.calls  # the re-search was in the cache


def test_no_confirmation_when_turned_off() -> None:
    engine = StandIn(played={}, after={"depth 2": -1000})
    analysis = Analyser(engine, Limit(depth=2), confirm=False).game(_game())
    (move,) = analysis.mainline_moves()
    assert move.label is Label.BLUNDER
    assert move.confirmation is None
    assert analysis.confirm_limit is None


def test_the_built_in_engine_s_lines_are_compared_at_one_depth(engine: SimpleEngine) -> None:
    # With a time limit the re-search is often cut between its two lines; whatever the machine's
    # speed, the lines the loss compares are of one depth (or mates), and the gift stays a blunder.
    game = read_game("position startpos moves 7g7f 3c3d 8h3c+ 2b3c")
    analysis = Analyser(engine, Limit(time=0.1), independent=True).game(game)
    gift = analysis.mainline_moves()[2]
    assert gift.move == Move.from_usi("8h3c+")
    assert gift.confirmation is not None
    best, played = gift.confirmation.best, gift.confirmation.played
    assert best.depth == played.depth or (best.score.is_mate() and played.score.is_mate())
    assert not any(score.lowerbound or score.upperbound for score in (best.score, played.score))
    assert gift.label is Label.BLUNDER
