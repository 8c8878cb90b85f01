"""Format details: encodings, KIF variations, lenient and strict reading, CSA V2.2/V3.0, JKF
schema, USI/SFEN/USEN, BOD, format detection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kifu_helpers import mainline, snapshot

from shogiban import Color, Move
from shogiban.errors import KifuParseError
from shogiban.kifu import (
    Game,
    ResultKind,
    decode,
    detect_format,
    read_bod,
    read_csa,
    read_csa_games,
    read_game,
    read_jkf,
    read_ki2,
    read_kif,
    read_sfen_games,
    read_usen,
    read_usi,
    save_game,
    validate_jkf,
    write_bod,
    write_csa,
    write_game,
    write_jkf,
    write_ki2,
    write_kif,
    write_usen,
    write_usi,
)
from shogiban.outcome import Termination

M = Move.from_usi
KIF_BODY = "手合割：平手\n手数----指手---------消費時間--\n"


# -- encodings ------------------------------------------------------------------------------------


def test_lying_encoding_header_is_survived(shared_data: Path) -> None:
    raw = (shared_data / "kif/json-kifu-format/no_henka.kif").read_bytes()
    assert b"encoding=UTF-8" in raw
    game = read_game(raw)
    assert not game.errors
    assert game.headers["棋戦"] == "第64期順位戦Ｃ級２組２回戦"
    utf8 = read_game(shared_data / "kif/json-kifu-format/no_henka.kifu")
    assert mainline(game) == mainline(utf8)
    assert game.root.comment == utf8.root.comment.replace("雞", "?") or "森" in game.root.comment


def test_bom_and_both_encodings_read_the_same() -> None:
    text = KIF_BODY + "   1 ７六歩(77)   ( 0:01/00:00:01)\n*コメント\n   2 投了\n"
    variants = [text.encode("cp932"), text.encode("utf-8"), b"\xef\xbb\xbf" + text.encode("utf-8"),
                text.encode("utf-16"), text]
    games = [read_kif(v) for v in variants]
    for game in games:
        assert not game.errors
        assert mainline(game) == ["7g7f"]
        assert game.variations[0].comment == "コメント"


def test_kif_file_is_cp932_and_kifu_is_utf8(tmp_path: Path) -> None:
    game = read_kif(KIF_BODY + "   1 ７六歩(77)\n*☗と☖は CP932 にない\n")
    kif = write_game(game, "kif")
    kifu = write_game(game, "kifu")
    assert isinstance(kif, bytes)
    assert isinstance(kifu, bytes)
    text = kif.decode("cp932")  # no character CP932 cannot encode
    assert "▲と△は" in text
    assert text.startswith("#KIF version=2.0 encoding=Shift_JIS")
    assert "☗と☖" in kifu.decode("utf-8")
    assert kifu.decode("utf-8").startswith("#KIF version=2.0 encoding=UTF-8")
    path = save_game(game, tmp_path / "g.kif")
    assert path.read_bytes() == kif
    assert read_game(path).variations[0].comment == "▲と△は CP932 にない"


def test_decode_falls_back_to_cp932_and_never_raises() -> None:
    assert decode("将棋".encode("cp932")) == "将棋"
    assert "\ufffd" in decode(b"\x81\xff\xfe")


# -- KIF ------------------------------------------------------------------------------------------


def test_kif_variations_replace_move_n_of_the_latest_line_holding_it() -> None:
    text = KIF_BODY + (
        "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n"
        "変化：2手\n   2 ８四歩(83)\n   3 ６八銀(79)\n"
        "変化：3手\n   3 ２六歩(27)\n"  # the latest line holding move 3 is the 8四歩 line
        "変化：1手\n   1 ２六歩(27)\n"
    )
    game = read_kif(text)
    assert not game.errors
    first = game.variations
    assert [n.move.usi() for n in first if n.move] == ["7g7f", "2g2f"]
    second = first[0].variations
    assert [n.move.usi() for n in second if n.move] == ["3c3d", "8c8d"]
    third = second[1].variations
    assert [n.move.usi() for n in third if n.move] == ["7i6h", "2g2f"]
    # Written back, the tree reads the same.
    again = read_kif(write_kif(game))
    assert snapshot(again) == snapshot(game)


def test_kif_variation_starting_with_dou_refers_to_its_own_path(shared_data: Path) -> None:
    game = read_game(shared_data / "kif/json-kifu-format/doh_branch.kifu")
    assert not game.errors
    node = game.variations[0].variations[0]
    assert len(node.variations) == 2
    alternatives = [n.move.usi() for n in node.variations[0].variations + node.variations[1:] if n.move]
    assert alternatives


def test_kif_times_comments_bookmarks_round_trip() -> None:
    text = KIF_BODY + (
        "*開始局面\n"
        "   1 ７六歩(77)   ( 0:16/00:00:16)\n*初手\n*  二行目  \n&しおり\n"
        "   2 ３四歩(33)   ( 1:02/00:01:02)\n"
        "   3 ２二角成(88) (61:00/01:01:16)\n**engine line\n"
        "   4 同　銀(31)   ( 0:02/00:01:04)\n"
        "   5 ４五角打     ( 0:03/01:01:19)\n"
        "   6 中断         ( 0:51/00:01:55)\n"
    )
    game = read_kif(text)
    assert not game.errors
    nodes = list(game.mainline())
    assert game.root.comment == "開始局面"
    assert nodes[0].comment == "初手\n  二行目  "
    assert nodes[0].bookmark == "しおり"
    assert nodes[0].elapsed == 16
    assert nodes[0].total == 16
    assert nodes[2].elapsed == 3660
    assert nodes[2].total == 3676
    assert nodes[2].comment == "*engine line"
    assert nodes[3].move == M("3a2b")
    assert nodes[4].move == M("B*4e")
    assert nodes[5].result is not None
    assert nodes[5].result.kind is ResultKind.ABORT
    assert nodes[5].elapsed == 51
    for fmt in ("kif", "kifu"):
        again = read_game(write_game(game, fmt))
        assert snapshot(again) == snapshot(game), fmt


@pytest.mark.parametrize(
    "line",
    [
        "1 ７六歩(77) (00:00/00:00:00)",  # shogidb2
        "   1 ７六歩(77)   (00:00 / 00:00:00)",  # 将棋所
        "   1 ７六歩(77)   ( 0:10/0:00:10)",
        "   1 ７六歩(77)   ( 0:03/ 0:00:19)",
        "1 ▲７六歩(77)",
        "   1 ７六歩(77)  +",
        "   1 7六歩(77)",
        "1   ７六歩(77)   (0:3/0:00:03)",  # 81Dojo
        "   1   ７六歩(77)   (00:01/00:00:01)",  # lishogi
        "   1 ７六歩(77)   ( 1:02:03/01:02:03)",
    ],
)
def test_kif_move_line_variants(line: str) -> None:
    game = read_kif(KIF_BODY + line + "\n")
    assert not game.errors, game.errors
    assert mainline(game) == ["7g7f"]


def test_kif_dou_spacing_and_funari() -> None:
    text = KIF_BODY + (
        "1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角不成(88)\n4 同銀(31)\n5 ８八銀(79)\n6 ２二銀(31)\n"
    )
    game = read_kif(text)
    assert mainline(game)[:4] == ["7g7f", "3c3d", "8h2b", "3a2b"]
    assert game.errors
    assert game.errors[0].lineno == 8


def test_lenient_kif_keeps_everything_before_a_bad_line() -> None:
    text = KIF_BODY + "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ９九王(11)\n   4 ８四歩(83)\n"
    game = read_kif(text)
    assert mainline(game) == ["7g7f", "3c3d"]
    assert len(game.errors) == 1
    assert game.errors[0].lineno == 5
    assert "９九王(11)" in (game.errors[0].line or "")
    with pytest.raises(KifuParseError) as raised:
        read_kif(text, strict=True)
    assert raised.value.lineno == 5


def test_unreadable_lines_are_reported_with_line_numbers() -> None:
    text = KIF_BODY + "   1 ７六歩(77)\nこれは何\n   2 ３四歩(33)\n"
    game = read_kif(text)
    assert mainline(game) == ["7g7f", "3c3d"]
    assert [e.lineno for e in game.errors] == [4]


def test_illegal_move_is_kept_as_a_foul() -> None:
    text = KIF_BODY + "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７七歩打\n"  # 二歩? no pawn in hand: illegal
    game = read_kif(text)
    assert game.result is not None
    assert game.result.kind is ResultKind.ILLEGAL
    assert game.result.illegal_move == M("P*7g")
    assert game.outcome().winner == Color.WHITE  # type: ignore[union-attr]
    assert game.errors
    assert game.errors[0].lineno == 5
    # Confirmed by the record's own foul word, the illegal move is no problem.
    confirmed = read_kif(text + "   4 反則勝ち\n")
    assert not confirmed.errors
    assert confirmed.result is not None
    assert confirmed.result.illegal_move == M("P*7g")
    with pytest.raises(KifuParseError):
        read_kif(text, strict=True)
    assert read_kif(text + "   4 反則勝ち\n", strict=True).result is not None


def test_nifu_is_kept_as_a_foul() -> None:
    start = Game("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPP1PP/1B5R1/LNSGKGSNL b P 1")
    text = write_kif(start) + "   1 ７五歩打\n"
    game = read_kif(text)
    assert game.result is not None
    assert game.result.illegal_move == M("P*7e")
    assert "two pawns" in game.result.detail
    assert game.outcome().termination is Termination.ILLEGAL_MOVE  # type: ignore[union-attr]


def test_moves_after_the_end_are_reported_once() -> None:
    game = read_kif(KIF_BODY + "   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n   4 ８四歩(83)\n")
    assert mainline(game) == ["7g7f"]
    assert len(game.errors) == 1


def test_made_line_gives_the_result_when_no_special_move_is_written() -> None:
    game = read_kif(KIF_BODY + "   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で後手の勝ち\n")
    assert game.result is not None
    assert game.result.kind is ResultKind.RESIGN
    assert game.outcome().winner == Color.WHITE  # type: ignore[union-attr]


def test_bod_start_position_preferred_over_handicap_name() -> None:
    bod = write_bod(Game("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"))
    text = "手合割：角落ち\n" + bod + "手数----指手--\n   1 ３四歩(33)\n"
    game = read_kif(text)
    assert game.start_sfen == "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    assert mainline(game) == ["3c3d"]


@pytest.mark.parametrize(
    ("name", "bod"),
    [("香落ち", False), ("二枚落ち", False), ("十枚落ち", False), ("三枚落ち", True), ("五枚落ち", True),
     ("左五枚落ち", True), ("左七枚落ち", True), ("右七枚落ち", True)],
)
def test_handicap_written_by_name_or_bod_when_ambiguous(name: str, bod: bool) -> None:
    game = Game(read_kif(f"手合割：{name}\n").start_sfen)
    text = write_kif(game)
    assert (f"手合割：{name}" in text) is not bod  # an ambiguous name is left out: the diagram says it
    assert ("+---------------------------+" in text) is bod
    assert read_kif(text).start_sfen == game.start_sfen
    assert read_ki2(write_ki2(game)).start_sfen == game.start_sfen


def test_custom_position_written_as_bod() -> None:
    game = Game("4k4/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l18p 1")
    node = game.add_variation(M("G*5b"))
    node.add_result("詰み")
    text = write_kif(game)
    assert "後手の持駒" in text
    again = read_kif(text)
    assert again.start_sfen == game.start_sfen
    assert again.outcome().termination is Termination.CHECKMATE  # type: ignore[union-attr]


def test_tsume_with_remaining_pieces(shared_data: Path) -> None:
    game = read_game(shared_data / "kif/json-kifu-format/taichitsume.kif")
    assert not game.errors
    assert game.start_sfen.startswith("6+Pnl/6Sk1/6sp1/")
    assert game.outcome().termination is Termination.CHECKMATE  # type: ignore[union-attr]


# -- KI2 ------------------------------------------------------------------------------------------


def test_ki2_relative_notation_round_trips() -> None:
    board_moves = ["7g7f", "3c3d", "6i5h", "4a4b", "4i4h", "6a5b", "3i3h", "7a7b", "7i6h", "3a3b"]
    game = read_usi("position startpos moves " + " ".join(board_moves))
    text = write_ki2(game)
    again = read_ki2(text)
    assert not again.errors
    assert mainline(again) == board_moves
    assert "▲５八金左" in text
    assert "▲４八金" in text


def test_ki2_result_only_from_made_line(shared_data: Path) -> None:
    game = read_game(shared_data / "ki2/json-kifu-format/illegal.ki2")
    assert game.result is not None
    assert game.result.kind is ResultKind.ILLEGAL
    assert game.outcome().winner == Color.WHITE  # type: ignore[union-attr]  # 先手の反則負け
    fork = game.variations[1]
    end = fork.end()
    assert end.result is not None
    assert end.result.winner == Color.BLACK  # 先手の反則勝ち


def test_ki2_keeps_an_illegal_drop() -> None:
    game = read_ki2("▲７六歩 △３四歩 ▲２二角成 △同　銀 ▲５五角 △８四歩 ▲７七歩\n")
    assert game.result is not None
    assert game.result.illegal_move == M("P*7g")
    assert game.errors


# -- CSA ------------------------------------------------------------------------------------------


def test_csa_v3_decimal_times_and_encoding_line() -> None:
    text = "'CSA encoding=UTF-8\nV3.0\nN+先手\nN-後手\n$TIME:900+0+5\nPI\n+\n+7776FU\nT6.123\n-3334FU,T2.5\n%TORYO,T1\n"
    game = read_csa(text)
    assert not game.errors
    nodes = list(game.mainline())
    assert nodes[0].elapsed == pytest.approx(6.123)
    assert nodes[1].elapsed == pytest.approx(2.5)
    assert nodes[2].elapsed == 1
    assert game.headers["$TIME"] == "900+0+5"
    v3 = write_csa(game, version="3.0")
    assert v3.startswith("'CSA encoding=UTF-8\nV3.0\n")
    assert "T6.123" in v3
    assert snapshot(read_csa(v3), "csa", times="elapsed") == snapshot(game, "csa", times="elapsed")
    v22 = write_csa(game)
    assert "V2.2" in v22
    assert "T6\n" in v22
    assert "$TIME:900+0+5" in v22


def test_csa_positions_pi_rows_pieces_and_al() -> None:
    pi = read_csa("PI82HI22KA\n-\n-5142OU\n")
    assert pi.start_sfen == "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    assert pi.white is None
    single_spaced = read_csa("P1 * * * * -OU * * * *\nP2 * * * * * * * * *\nP3 * * * * * * * * *\n"
                             "P4 * * * * * * * * *\nP5 * * * * * * * * *\nP6 * * * * * * * * *\n"
                             "P7 * * * * * * * * *\nP8 * * * * * * * * *\nP9 * * * * +OU * * * *\n+\n")
    assert not single_spaced.errors
    assert single_spaced.start_sfen == "4k4/9/9/9/9/9/9/9/4K4 b - 1"
    pieces = read_csa("P-11OU\nP+22KI00KI\nP-00AL\n+\n+0012KI\n")
    assert not pieces.errors
    assert pieces.start_sfen.startswith("8k/7G1/9/9/9/9/9/9/9 b G")
    assert "2r2b2g4s4n4l18p" in pieces.start_sfen
    assert pieces.outcome().termination is Termination.CHECKMATE  # type: ignore[union-attr]


def test_csa_several_games_and_cr_line_endings() -> None:
    one = "V2.2\nN+A\nPI\n+\n+7776FU\n%TORYO\n"
    two = "V2.2\nN+B\nPI\n+\n+2726FU\n-8384FU\n%CHUDAN\n"
    games = read_csa_games((one + "/\n" + two).replace("\n", "\r"))
    assert [g.black for g in games] == ["A", "B"]
    assert [mainline(g) for g in games] == [["7g7f"], ["2g2f", "8c8d"]]
    assert read_csa(one + "/\n" + two).black == "A"


def test_csa_comments_and_engine_lines() -> None:
    text = "PI\n+\n'*開始\n+7776FU\nT3\n'** 30 -3334FU +2726FU\n'plain comment is ignored\n-3334FU\n'*移動後\n"
    game = read_csa(text)
    nodes = list(game.mainline())
    assert game.root.comment == "開始"
    assert nodes[0].comment == "* 30 -3334FU +2726FU"
    assert nodes[1].comment == "移動後"
    again = read_csa(write_csa(game))
    assert snapshot(again, "csa", times="whole") == snapshot(game, "csa", times="whole")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("PI\n+\n+7776FU\n+2726FU\n", 4),  # wrong side
        ("PI\n+\n+7776FX\n", 3),  # unknown piece
        ("PI\n+\n+7776KA\n", 3),  # the piece on 77 is a pawn
        ("PI\n+\n+7776FU\nTx\n", 4),  # bad time
        ("P1 * *\n+\n", 1),  # short row
        ("PI\n+\nQ\n", 3),  # unknown line
    ],
)
def test_csa_problems_have_line_numbers(text: str, line: int) -> None:
    game = read_csa(text)
    assert game.errors
    assert game.errors[0].lineno == line
    with pytest.raises(KifuParseError):
        read_csa(text, strict=True)


def test_csa_perpetual_check_winner_from_the_position(shared_data: Path) -> None:
    expected = {"oute_sennichite.csa": Color.WHITE, "oute_sennichite2.csa": Color.BLACK,
                "oute_sennichite3.csa": Color.WHITE}
    for name, winner in expected.items():
        game = read_game(shared_data / "csa/shogi-server" / name)
        outcome = game.outcome()
        assert outcome is not None
        assert outcome.termination is Termination.PERPETUAL_CHECK
        assert outcome.winner == winner
        # Recorded as %-ILLEGAL_ACTION or 反則, the checker still loses.
        for fmt in ("csa", "kif", "jkf"):
            game.end().add_result("%OUTE_SENNICHITE") if game.result is None else None
            again = read_game(write_game(game, fmt), format=fmt)
            assert again.outcome().termination is Termination.PERPETUAL_CHECK, (name, fmt)  # type: ignore[union-attr]
            assert again.outcome().winner == winner, (name, fmt)  # type: ignore[union-attr]


def test_csa_illegal_action_tokens_round_trip() -> None:
    for token in ("%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION", "%ILLEGAL_MOVE"):
        text = f"PI\n+\n+7776FU\n{token}\n"
        game = read_csa(text)
        assert write_csa(game).rstrip().endswith(token)
        kif_again = read_kif(write_kif(game))
        assert kif_again.outcome().winner == game.outcome().winner  # type: ignore[union-attr]


# -- JKF ------------------------------------------------------------------------------------------


def test_written_jkf_passes_the_schema(shared_data: Path) -> None:
    for name in ("kif/json-kifu-format/fork.kif", "kif/json-kifu-format/9fu.kif", "kif/json-kifu-format/8mai.kif",
                 "csa/shogi-server/jishogi_kachi.csa"):
        game = read_game(shared_data / name)
        assert validate_jkf(json.loads(write_jkf(game))) == [], name
        again = read_jkf(write_jkf(game))
        assert not again.errors
        options = {"bookmarks": False, "times": "whole"}
        assert snapshot(again, "jkf", **options) == snapshot(game, "jkf", **options), name


def test_jkf_schema_problems_are_reported() -> None:
    text = json.dumps({"header": {}, "moves": [{}, {"move": {"to": {"x": 7, "y": 6}, "color": 0, "piece": "XX",
                                                               "from": {"x": 7, "y": 7}}, "extra": 1}]})
    game = read_jkf(text)
    assert any("schema" in str(e) for e in game.errors)
    with pytest.raises(KifuParseError):
        read_jkf(text, strict=True)
    broken = read_jkf('{"header": {}, "moves": [{}, ')
    assert broken.errors
    assert broken.errors[0].lineno == 1


def test_jkf_forks_replace_the_owning_move() -> None:
    record = {"header": {}, "moves": [
        {},
        {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "color": 0, "piece": "FU"},
         "forks": [[{"move": {"from": {"x": 2, "y": 7}, "to": {"x": 2, "y": 6}, "color": 0, "piece": "FU"}},
                    {"special": "TORYO"}]]},
        {"move": {"from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 4}, "color": 1, "piece": "FU"}},
    ]}
    game = read_jkf(json.dumps(record))
    assert not game.errors
    assert [n.move.usi() for n in game.variations if n.move] == ["7g7f", "2g2f"]
    assert game.variations[1].variations[0].result is not None
    assert mainline(game) == ["7g7f", "3c3d"]
    again = json.loads(write_jkf(game))
    assert again["moves"][1]["forks"][0][1] == {"special": "TORYO"}


# -- USI, SFEN, USEN, BOD ------------------------------------------------------------------------


def test_usi_lines_and_result_words() -> None:
    game = read_usi("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f resign")
    assert mainline(game) == ["7g7f"]
    assert game.outcome().winner == Color.BLACK  # type: ignore[union-attr]
    assert write_usi(game) == "position startpos moves 7g7f"
    assert write_usi(game, result=True) == "position startpos moves 7g7f resign"
    handicap = read_usi("position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d")
    assert write_usi(handicap).startswith("position sfen lnsgkgsn1/")
    bad = read_usi("position startpos moves 7g7f 7g7f")
    assert bad.result is not None
    assert bad.errors


def test_sfen_lists_recover_moves_and_split_games() -> None:
    game = read_usi("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e")
    text = write_game(game, "sfen")
    assert isinstance(text, str)
    assert len(text.splitlines()) == 6
    games = read_sfen_games(text + "4k4/9/9/9/9/9/9/9/4K4 b - 1\n")
    assert [mainline(g) for g in games] == [mainline(game), []]


def test_usen_round_trip_with_variations() -> None:
    game = read_kif(KIF_BODY + "1 ７六歩(77)\n2 ３四歩(33)\n3 投了\n変化：2手\n2 ８四歩(83)\n3 ２六歩(27)\n")
    text = write_usen(game)
    again = read_usen(text)
    assert not again.errors
    assert snapshot(again, "usen", comments=False, times=None, bookmarks=False) == snapshot(
        game, "usen", comments=False, times=None, bookmarks=False
    )


def test_bod_alone() -> None:
    game = read_usi("position startpos moves 7g7f 3c3d")
    text = write_bod(game)
    assert "手数＝2" in text
    board = read_bod(text)
    assert board.start_sfen == game.board().sfen()
    assert write_bod(game, ply=0).count("v") == 20


# -- detection ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("手合割：平手\n   1 ７六歩(77)\n", "kif"),
        ("▲７六歩 △３四歩\n", "ki2"),
        ("V2.2\nPI\n+\n+7776FU\n", "csa"),
        ('{"header": {}, "moves": [{}]}', "jkf"),
        ("position startpos moves 7g7f", "usi"),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n", "sfen"),
        ("~0.7ku2jm.r", "usen"),
        (write_bod(Game()), "bod"),
    ],
)
def test_detect_format(text: str, fmt: str) -> None:
    assert detect_format(text) == fmt
    assert detect_format(text.encode("utf-8"), "misnamed.csa" if fmt != "csa" else "misnamed.kif") == fmt


def test_detect_format_uses_the_extension_only_as_a_hint() -> None:
    assert detect_format("手合割：平手\n   1 ７六歩(77)\n", "a.kifu") == "kifu"
    assert detect_format("", "a.ki2") == "ki2"
    with pytest.raises(KifuParseError):
        detect_format("???")


def test_missing_files_are_reported(tmp_path: Path) -> None:
    with pytest.raises(KifuParseError, match="cannot read"):
        read_game(tmp_path / "missing.csa")


def test_csa_information_in_csa_form() -> None:
    game = read_kif(
        "開始日時：2008/12/20(土) 9:05\n終了日時：2005/11/29･30日\n持ち時間：各６時間\n備考：一行目\\n二行目\n"
        "記録係：某\n手合割：平手\n   1 ７六歩(77)\n"
    )
    assert game.headers["備考"] == "一行目\n二行目"
    csa = write_csa(game)
    assert "$START_TIME:2008/12/20 09:05:00\n" in csa
    assert "$END_TIME:2005/11/29\n" in csa
    assert "$TIME_LIMIT:06:00+00\n" in csa
    assert "$NOTE:一行目\\n二行目\n" in csa
    assert "'記録係：某\n" in csa
    again = read_csa(csa)
    assert again.headers["備考"] == "一行目\n二行目"
    assert "備考：一行目\\n二行目\n" in write_kif(game)
