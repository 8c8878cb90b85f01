"""Labels at a fixed depth on a professional game: no string of blunders where the engine's score
swings with the side to move (issue 23), while real blunders and missed mates keep theirs.

The game is the 2025 王位戦 game 6 (藤井聡太 - 永瀬拓矢, 角換わり腰掛け銀); its plies 29 to 36 were
all once labelled blunders, the engine "winning" material with B*3i with gote to move only.
"""

from __future__ import annotations

from shogiban import Move
from shogiban.analysis import Analyser, Label
from shogiban.analysis.game import GameAnalysis, boards_of, nodes_to_analyse
from shogiban.engines import Limit, SimpleEngine
from shogiban.kifu import Game, read_game
from shogiban.pieces import Color

#: Plies 1 to 37 of the game (USI).
OUI_MOVES = (
    "2g2f 8c8d 2f2e 8d8e 7g7f 4a3b 8h7g 3c3d 7i6h 2b7g+ 6h7g 3a2b 1g1f 1c1d 4g4f 5a4b 3i4h 7a6b "
    "6i7h 2b3c 3g3f 6c6d 9g9f 9c9d 2i3g 6b6c 4h4g 7c7d 4i4h 8a7c 5i6h 8b8a 4g5f 6a6b 6g6f 6c5d 2h2i"
)
LIMIT = Limit(depth=4)


def test_the_title_game_middle_has_no_mistakes(engine: SimpleEngine) -> None:
    game = read_game("position startpos moves " + OUI_MOVES)
    # The positions from ply 27 on: the moves of plies 28 to 37 are judged.
    nodes = [node for node in nodes_to_analyse(game) if node.ply() >= 27]
    boards = boards_of(game, nodes)
    analyser = Analyser(engine, LIMIT, independent=True)
    analysis = GameAnalysis(game, {node: analyser.position(boards[node]) for node in nodes})
    judged = analysis.mainline_moves()
    assert [m.ply for m in judged] == list(range(28, 38))
    worst = max(judged, key=lambda m: m.loss)
    assert worst.loss < analysis.thresholds.mistake, (worst.ply, worst.move.usi(), worst.loss)
    assert all(m.label in (None, Label.INACCURACY) for m in judged)
    # Sente's win rate stays near even: no swing of one side to move against the other.
    rates = [rate for rate in analysis.win_rates() if rate is not None]
    assert max(rates) - min(rates) < 0.25


def test_at_the_same_depth_a_bishop_given_away_is_still_a_blunder(engine: SimpleEngine) -> None:
    analysis = Analyser(engine, LIMIT).game(read_game("position startpos moves 7g7f 3c3d 8h3c+ 2b3c"))
    gift, recapture = analysis.mainline_moves()[2:]
    assert gift.move == Move.from_usi("8h3c+")
    assert gift.label is Label.BLUNDER
    assert recapture.label is None
    assert recapture.loss == 0.0


def test_at_the_same_depth_a_missed_mate_in_one_is_flagged(engine: SimpleEngine) -> None:
    game = Game("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    game.add_variation(Move.from_usi("5i4h"))  # G*5b mates
    (judged,) = Analyser(engine, LIMIT).game(game).mainline_moves()
    assert judged.missed_mate
    assert judged.best_move == Move.from_usi("G*5b")
    assert judged.mover == Color.BLACK
