from __future__ import annotations

from pathlib import Path

import pytest

from shogiban import Board, Move
from shogiban.analysis import GameAnalysis, Label, Line, PositionAnalysis, position_key
from shogiban.analysis.comments import (
    analysis_from_game,
    annotate_game,
    floodgate_line,
    format_pv,
    shogihome_lines,
    situation_word,
    strip_analysis,
)
from shogiban.engines import Score
from shogiban.kifu import Game, read_game, read_game_file, write_game
from shogiban.pieces import Color


def _moves(*usis: str) -> tuple[Move, ...]:
    return tuple(Move.from_usi(u) for u in usis)


def _gift_game() -> tuple[Game, GameAnalysis]:
    """The bishop gift with a fixed analysis (no engine: the comments' text is exact)."""
    game = read_game("+7776FU\n-3334FU\n+8833UM\n-2233KA\n%TORYO\n")
    nodes = [game.root, *(n for n in game.mainline() if n.move is not None)]
    data = [
        (Score(cp=158), _moves("7g7f", "3c3d"), 8, 123456),
        (Score(cp=60), _moves("3c3d", "2g2f"), 8, 2000),
        (Score(cp=80), _moves("8h2b+", "3a2b"), 9, 3000),
        (Score(cp=-1201), _moves("2b3c", "2h9h"), 7, 915),
        (Score(mate=-7), _moves("7i8h", "B*9e"), 12, 4000),
    ]
    positions = {}
    for node, (score, pv, depth, count) in zip(nodes, data, strict=True):
        board = node.board()
        positions[node] = PositionAnalysis(position_key(board), board.turn, (Line(score, pv, depth, count),),
                                           "Engine01")
    return game, GameAnalysis(game, positions, engine="Engine01")


def test_the_start_position_reads_as_shogihome_writes_it() -> None:
    # ShogiHome's own test of buildSearchComment: score 158, ▲７六歩△３四歩, depth 8, 123456 nodes.
    game, analysis = _gift_game()
    lines = shogihome_lines(analysis.positions[game.root], Board())
    assert "\n".join(lines) + "\n" == (
        "互角\n#評価値=158\n#読み筋=▲７六歩△３四歩\n#深さ=8\n#ノード数=123456\n#エンジン=Engine01\n"
    )


def test_the_written_kif_is_shogihomes_form_exactly() -> None:
    game, analysis = _gift_game()
    annotate_game(analysis)
    text = write_game(game, "kifu")
    assert isinstance(text, bytes)
    body = text.decode("utf-8").split("手数----指手---------消費時間--\n", 1)[1]
    assert body == (
        "*互角\n*#評価値=158\n*#読み筋=▲７六歩△３四歩\n*#深さ=8\n*#ノード数=123456\n*#エンジン=Engine01\n"
        "   1 ７六歩(77)\n"
        "*互角\n*#評価値=60\n*#読み筋=△３四歩▲２六歩\n*#深さ=8\n*#ノード数=2000\n*#エンジン=Engine01\n"
        "   2 ３四歩(33)\n"
        "*互角\n*#評価値=80\n*#読み筋=▲２二角成△同　銀\n*#深さ=9\n*#ノード数=3000\n*#エンジン=Engine01\n"
        "   3 ３三角成(88)\n"
        "*【大悪手】\n*後手優勢\n*#評価値=-1201\n*#読み筋=△３三角▲９八飛\n*#深さ=7\n*#ノード数=915\n"
        "*#エンジン=Engine01\n"
        "   4 同　角(22)\n"
        "*#詰み=後手勝ち:7手\n*#読み筋=▲８八銀△９五角\n*#深さ=12\n*#ノード数=4000\n*#エンジン=Engine01\n"
        "   5 投了\n"
        "まで4手で後手の勝ち\n\n"
    )


@pytest.mark.parametrize("fmt", ["kif", "kifu", "ki2", "jkf"])
def test_the_comments_read_back_to_the_same_data(fmt: str) -> None:
    game, analysis = _gift_game()
    annotate_game(analysis)
    again = analysis_from_game(read_game(write_game(game, fmt), format=fmt))
    assert again.engine == "Engine01"
    before = [p for _, p in analysis.mainline_positions()]
    after = [p for _, p in again.mainline_positions()]
    assert after == before
    assert [(m.ply, m.label, m.missed_mate) for m in again.mainline_moves()] == [
        (m.ply, m.label, m.missed_mate) for m in analysis.mainline_moves()
    ]
    assert again.mainline_moves()[2].label is Label.BLUNDER


def test_csa_gets_floodgate_lines_and_reads_back() -> None:
    game, analysis = _gift_game()
    annotate_game(analysis, style="floodgate")
    data = write_game(game, "csa")
    assert isinstance(data, bytes)
    text = data.decode("cp932")
    assert "+7776FU\n'** 60 -3334FU +2726FU\n-3334FU\n" in text
    assert "+8833UM\n'*【大悪手】\n'** -1201 -2233KA +2898HI\n" in text
    assert "-2233KA\n'** -30000 +7988GI -0095KA\n%TORYO" in text
    again = analysis_from_game(read_game(text))
    for (_, mine), (_, read) in zip(analysis.mainline_positions(), again.mainline_positions(), strict=True):
        assert read is not None
        assert mine is not None
        assert read.pv == mine.pv
        assert read.score == (mine.score if mine.score is None or not mine.score.is_mate() else Score(winning=False))
    v3 = write_game(game, "csa", version="3.0")
    assert isinstance(v3, bytes)


def test_csa_version_3_lines_carry_the_nodes() -> None:
    game, analysis = _gift_game()
    position = analysis.positions[game.root]
    assert floodgate_line(position, Board(), nodes=True) == "* 158 +7776FU -3334FU #123456"
    assert floodgate_line(position, Board()) == "* 158 +7776FU -3334FU"


def test_annotating_again_replaces_the_analysis_and_keeps_the_users_comment() -> None:
    game, analysis = _gift_game()
    third = next(n for n in game.mainline() if n.ply() == 3)
    third.comment = "角をただで渡す"
    annotate_game(analysis)
    annotate_game(analysis)
    assert third.comment.count("#評価値=") == 1
    assert third.comment.endswith("\n角をただで渡す")
    assert strip_analysis(third.comment) == "角をただで渡す"


def test_shogihome_player_and_research_comments_and_mates() -> None:
    # The record of ShogiHome's importRecord test: player (*) and research (#) lines, mates.
    game = read_game(
        "手合割：平手\n手数----指手---------消費時間--\n"
        "   1 ２六歩(27)   ( 0:00/00:00:00)\n"
        "   2 ８四歩(83)   ( 0:00/00:00:00)\n**評価値=80\n*\n*#評価値=-60\n"
        "   3 ７六歩(77)   ( 0:00/00:00:00)\n**詰み=先手勝ち\n*\n*#詰み=後手勝ち\n"
        "   4 ８五歩(84)   ( 0:00/00:00:00)\n**詰み=先手勝ち:15手\n*\n*#詰み=後手勝ち:8手\n"
    )
    analysis = analysis_from_game(game)
    scores = [p.score if p else None for _, p in analysis.mainline_positions()]
    # The research line wins over the player's.
    assert scores == [None, None, Score(cp=-60), Score(winning=False), Score(mate=-8)]


def test_lines_that_start_with_the_move_played() -> None:
    game = read_game("+7776FU\n'** 130 7g7f 8c8d 7i6h\n-8384FU\n'** 50 +2726FU -3334FU\n")
    analysis = analysis_from_game(game)
    first, second = (p for _, p in analysis.mainline_positions()[1:])
    assert first is not None
    assert second is not None
    assert first.pv == _moves("8c8d", "7i6h")  # 7g7f, the move played, left out
    assert second.pv == _moves("2g2f", "3c3d")
    assert second.turn == Color.BLACK


def test_floodgate_records_read_back_as_analysis(shared_data: Path) -> None:
    files = sorted(p for p in (shared_data / "csa").rglob("*.csa") if "'**" in p.read_text("cp932", "replace"))
    assert len(files) >= 5
    for path in files:
        game = read_game_file(path)
        analysis = analysis_from_game(game)
        with_lines = [p for p in analysis.positions.values() if p.pv]
        assert len(analysis.positions) > 40, path.name
        assert with_lines, path.name
        for node, position in analysis.positions.items():
            board = node.board()
            assert position.key == position_key(board)
            copy = board.copy()
            for move in position.pv:  # every line read is legal from its position
                assert copy.is_legal(move), (path.name, node)
                copy.push(move)
    floodgate = next(p for p in files if p.name.startswith("wdoor+floodgate"))
    analysis = analysis_from_game(read_game_file(floodgate))
    # -5162OU (move 12) then '** 267 +8877KA -6272OU ...: the position after it.
    twelfth = next(n for n in analysis.game.mainline() if n.ply() == 12)
    assert analysis.positions[twelfth].score == Score(cp=267)
    assert analysis.positions[twelfth].pv[:2] == _moves("8h7g", "6b7b")
    assert analysis.mainline_moves()
    assert analysis.accuracy(Color.BLACK) is not None


def test_situation_words_follow_shogihome() -> None:
    assert [situation_word(cp) for cp in (1500, 1499, 600, 400, 200, 199, -200, -201, -400, -600, -1500, -1501)] == [
        "先手勝勢", "先手優勢", "先手優勢", "先手有利", "先手有望", "互角", "互角", "後手有望", "後手有望",
        "後手有利", "後手優勢", "後手勝勢",
    ]


def test_format_pv_writes_same_square_moves_as_ki2() -> None:
    board = Board()
    assert format_pv(board, _moves("7g7f", "3c3d", "8h2b+", "3a2b")) == "▲７六歩△３四歩▲２二角成△同　銀"


def test_a_mate_line_wins_over_a_score_beside_it() -> None:
    game = read_game("   1 ７六歩(77)\n*#詰み=先手勝ち:9手\n*先手勝勢\n*#評価値=31990\n")
    analysis = analysis_from_game(game)
    assert analysis.positions[game.root.variations[0]].score == Score(mate=9)
