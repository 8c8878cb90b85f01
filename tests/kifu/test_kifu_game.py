"""The game model: tree editing, results and their winners, outcomes, Game.from_board."""

from __future__ import annotations

import pytest

from shogiban import Board, Color, Move
from shogiban.kifu import Game, Headers, ResultKind, read_game, write_game
from shogiban.kifu.results import CSA_TOKENS, KIF_WORDS, csa_token, kif_word, make_result
from shogiban.outcome import Termination

M = Move.from_usi


def test_tree_editing_and_mainline() -> None:
    game = Game()
    a = game.add_variation(M("7g7f"))
    b = game.add_variation(M("2g2f"))
    a2 = a.add_variation(M("3c3d"), comment="x")
    assert game.mainline_moves() == [M("7g7f"), M("3c3d")]
    assert b.is_mainline() is False
    assert a2.is_mainline()
    assert a2.ply() == 2
    assert a2.parent is a
    game.root.promote_to_main(b)
    assert game.mainline_moves() == [M("2g2f")]
    assert [n.move for n in game.walk() if n.move] == [M("2g2f"), M("7g7f"), M("3c3d")]
    game.root.remove_variation(a)
    assert len(game.variations) == 1
    assert a2.board().sfen() == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    assert a2.turn() == Color.BLACK


def test_cannot_move_after_a_result() -> None:
    game = Game()
    end = game.add_variation(M("7g7f")).add_result("投了")
    with pytest.raises(ValueError, match="after the result"):
        end.add_variation(M("3c3d"))
    with pytest.raises(ValueError, match="after a result"):
        end.add_result("中断")


@pytest.mark.parametrize(
    ("word", "turn", "winner", "kind"),
    [
        ("投了", Color.WHITE, Color.BLACK, ResultKind.RESIGN),
        ("%TORYO", Color.BLACK, Color.WHITE, ResultKind.RESIGN),
        ("詰み", Color.WHITE, Color.BLACK, ResultKind.CHECKMATE),
        ("%TSUMI", Color.WHITE, Color.BLACK, ResultKind.CHECKMATE),
        ("切れ負け", Color.BLACK, Color.WHITE, ResultKind.TIME_UP),
        ("%TIME_UP", Color.WHITE, Color.BLACK, ResultKind.TIME_UP),
        ("反則勝ち", Color.BLACK, Color.BLACK, ResultKind.ILLEGAL),
        ("反則負け", Color.BLACK, Color.WHITE, ResultKind.ILLEGAL),
        ("%ILLEGAL_MOVE", Color.WHITE, Color.BLACK, ResultKind.ILLEGAL),
        ("%+ILLEGAL_ACTION", Color.WHITE, Color.WHITE, ResultKind.ILLEGAL),
        ("%+ILLEGAL_ACTION", Color.BLACK, Color.WHITE, ResultKind.ILLEGAL),
        ("%-ILLEGAL_ACTION", Color.WHITE, Color.BLACK, ResultKind.ILLEGAL),
        ("入玉勝ち", Color.WHITE, Color.WHITE, ResultKind.DECLARE_WIN),
        ("%KACHI", Color.BLACK, Color.BLACK, ResultKind.DECLARE_WIN),
        ("不戦勝", Color.BLACK, Color.BLACK, ResultKind.WIN_BY_DEFAULT),
        ("不戦敗", Color.BLACK, Color.WHITE, ResultKind.LOSS_BY_DEFAULT),
        ("中断", Color.BLACK, None, ResultKind.ABORT),
        ("%CHUDAN", Color.BLACK, None, ResultKind.ABORT),
        ("千日手", Color.BLACK, None, ResultKind.REPETITION),
        ("%SENNICHITE", Color.BLACK, None, ResultKind.REPETITION),
        ("%OUTE_SENNICHITE", Color.BLACK, None, ResultKind.PERPETUAL_CHECK),
        ("持将棋", Color.BLACK, None, ResultKind.IMPASSE),
        ("%JISHOGI", Color.BLACK, None, ResultKind.IMPASSE),
        ("%HIKIWAKE", Color.BLACK, None, ResultKind.DECLARE_DRAW),
        ("%MAX_MOVES", Color.BLACK, None, ResultKind.MAX_MOVES),
        ("%FUZUMI", Color.BLACK, None, ResultKind.NO_MATE),
        ("不詰", Color.BLACK, None, ResultKind.NO_MATE),
        ("%ERROR", Color.BLACK, None, ResultKind.ERROR),
        ("封じ手", Color.BLACK, None, ResultKind.OTHER),
    ],
)
def test_result_words_and_winners(word: str, turn: Color, winner: Color | None, kind: ResultKind) -> None:
    result = make_result(word, turn)
    assert result.kind is kind
    assert result.winner == winner
    assert result.word == word


def test_every_word_and_token_survives_its_own_format() -> None:
    for turn in Color:
        for word in KIF_WORDS:
            result = make_result(word, turn)
            again = make_result(kif_word(result, turn), turn)
            assert (again.kind, again.winner) == (result.kind, result.winner), word
        for token in CSA_TOKENS:
            result = make_result("%" + token, turn)
            if result.kind is ResultKind.OTHER:
                continue
            again = make_result("%" + csa_token(result, turn, version="3.0"), turn)
            assert (again.kind, again.winner) == (result.kind, result.winner), token


@pytest.mark.parametrize(
    ("kind", "termination"),
    [
        ("投了", Termination.RESIGNATION), ("中断", Termination.ABANDONED), ("千日手", Termination.REPETITION),
        ("持将棋", Termination.IMPASSE), ("切れ負け", Termination.TIME_FORFEIT), ("反則勝ち", Termination.ILLEGAL_MOVE),
        ("入玉勝ち", Termination.ENTERING_KING), ("%MAX_MOVES", Termination.MAX_MOVES),
    ],
)
def test_results_map_to_terminations(kind: str, termination: Termination) -> None:
    outcome = make_result(kind, Color.BLACK).outcome()
    assert outcome is not None
    assert outcome.termination is termination


def test_handicap_winner_is_not_inverted() -> None:
    # 香落ち: the giver (上手, gote) moves first.  Gote plays one move, sente resigns.
    text = "手合割：香落ち\n下手：A\n上手：B\n手数----指手--\n   1 ３四歩(33)\n   2 投了\n"
    game = read_game(text)
    assert game.start_sfen.split()[1] == "w"
    assert game.outcome() is not None
    assert game.outcome().winner == Color.WHITE  # type: ignore[union-attr]
    assert game.black == "A"
    assert game.white == "B"
    # Two moves, then the giver resigns: sente wins.
    text = "手合割：香落ち\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 投了\n"
    assert read_game(text).outcome().winner == Color.BLACK  # type: ignore[union-attr]


def test_handicap_winner_survives_every_format() -> None:
    board = Board.from_handicap("二枚落ち")
    for usi in ("6a5b", "7g7f", "5a4b"):
        board.push_usi(usi)
    game = Game.from_board(board)
    game.end().add_result("投了")  # sente resigns after gote's second move
    assert game.outcome().winner == Color.WHITE  # type: ignore[union-attr]
    for fmt in ("kif", "kifu", "ki2", "csa", "jkf", "usi", "usen"):
        again = read_game(write_game(game, fmt), format=fmt)
        assert again.start_sfen == game.start_sfen, fmt
        assert again.outcome().winner == Color.WHITE, fmt  # type: ignore[union-attr]


def test_from_board_checkmate() -> None:
    board = Board("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    board.push_usi("G*5b")
    assert board.is_checkmate()
    game = Game.from_board(board)
    assert game.result is not None
    assert game.result.kind is ResultKind.CHECKMATE
    assert game.outcome().termination is Termination.CHECKMATE  # type: ignore[union-attr]
    assert game.outcome().winner == Color.BLACK  # type: ignore[union-attr]
    assert game.mainline_moves() == [M("G*5b")]


def test_from_board_keeps_an_illegal_move() -> None:
    board = Board(tournament=True)
    for usi in ("7g7f", "3c3d", "2g2f", "4c4d"):
        board.push_usi(usi)
    board.push_usi("P*7e")  # sente holds no pawn
    assert board.outcome() is not None
    game = Game.from_board(board)
    assert game.result is not None
    assert game.result.illegal_move == M("P*7e")
    assert game.outcome().termination is Termination.ILLEGAL_MOVE  # type: ignore[union-attr]
    assert game.outcome().winner == Color.WHITE  # type: ignore[union-attr]
    assert game.board().illegal_move == M("P*7e")
    # The illegal move comes back from every format that keeps results.
    for fmt in ("kif", "kifu", "ki2", "csa", "jkf", "usi", "usen"):
        again = read_game(write_game(game, fmt), format=fmt)
        assert again.result is not None, fmt
        assert again.result.illegal_move == M("P*7e"), fmt
        assert again.outcome().winner == Color.WHITE, fmt  # type: ignore[union-attr]


def test_no_legal_moves_is_not_called_checkmate() -> None:
    sfen = "+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200"
    board = Board(sfen, lenient=True)
    game = Game.from_board(board)
    assert game.outcome().termination is Termination.NO_LEGAL_MOVES  # type: ignore[union-attr]
    again = read_game(write_game(game, "kif"))
    assert again.outcome().termination is Termination.NO_LEGAL_MOVES  # type: ignore[union-attr]


def test_outcome_from_the_final_position_when_no_result_is_written() -> None:
    game = read_game("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b")
    assert game.result is None
    assert game.outcome().termination is Termination.CHECKMATE  # type: ignore[union-attr]


def test_headers_keep_order_and_repeats() -> None:
    headers = Headers([("棋戦", "A"), ("備考", "x"), ("備考", "y"), ("謎", "z")])
    assert list(headers) == ["棋戦", "備考", "謎"]
    assert headers.get_all("備考") == ["x", "y"]
    headers["備考"] = "w"
    assert headers.pairs() == [("棋戦", "A"), ("備考", "w"), ("謎", "z")]
    del headers["謎"]
    assert len(headers) == 2
    with pytest.raises(KeyError):
        del headers["謎"]


def test_unknown_headers_survive_verbatim_and_in_order() -> None:
    text = "謎の項目：値１\n棋戦：テスト\n記録係：某\n手合割：平手\n   1 ７六歩(77)\n"
    game = read_game(text)
    assert game.headers.pairs()[:3] == [("謎の項目", "値１"), ("棋戦", "テスト"), ("記録係", "某")]
    for fmt in ("kifu", "ki2u", "jkf"):
        assert read_game(write_game(game, fmt), format=fmt).headers.pairs()[:3] == game.headers.pairs()[:3]


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ([("$TIME", "1500+0+0")], (1500, 0, 0)),
        ([("$TIME", "600+10.5+5")], (600, 10.5, 5)),
        ([("持ち時間", "00:25+30")], (25, 30, 0)),  # ShogiHome: MM:SS+SS in 持ち時間
        ([("$TIME_LIMIT", "00:25+30")], (1500, 30, 0)),  # CSA V2.2: HH:MM+SS
        ([("持ち時間", "60分 切れたら1分将棋")], (3600, 60, 0)),
        ([("持ち時間", "各１時間３０分"), ("秒読み", "30秒")], (5400, 30, 0)),
        ([("持ち時間", "なし")], None),
        ([], None),
    ],
)
def test_time_control(pairs: list[tuple[str, str]], expected: tuple[float, float, float] | None) -> None:
    game = Game(headers=Headers(pairs))
    tc = game.time_control()
    assert (None if tc is None else (tc.main, tc.byoyomi, tc.increment)) == expected


def test_event_date_and_players(shared_data: object) -> None:
    game = read_game("V2.2\nN+羽生\nN-藤井\n$EVENT:竜王戦\n$START_TIME:2024/05/05 15:05:40\nPI\n+\n")
    assert (game.black, game.white, game.event, game.date) == ("羽生", "藤井", "竜王戦", "2024/05/05 15:05:40")
    kif = read_game(write_game(game, "kifu"))
    assert kif.headers.pairs()[1:] == [("先手", "羽生"), ("後手", "藤井"), ("棋戦", "竜王戦"),
                                       ("開始日時", "2024/05/05 15:05:40")]
    csa = write_game(kif, "csa").decode("cp932")  # type: ignore[union-attr]
    assert "N+羽生\nN-藤井\n$EVENT:竜王戦\n$START_TIME:2024/05/05 15:05:40\n" in csa
