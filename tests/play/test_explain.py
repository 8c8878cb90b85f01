"""Reasons and game ends in words, in every language, decided by the rules core."""

from __future__ import annotations

import pytest

from shogiban import Board, Color, Move, Outcome, Termination
from shogiban.i18n import LANGUAGES
from shogiban.play.explain import declaration_refusal, explain_outcome, illegal_reason, refusal_reason, square_label

# (sfen, move, core code, words each language's reason must contain)
REFUSALS = [
    (
        "4k4/9/9/9/9/9/4P4/9/4K4 b P 1",
        "P*5e",
        "nifu",
        {"en": "file 5", "ja": "二歩", "zh-hant": "二步", "zh-hans": "二步"},
    ),
    (
        "7nk/9/7G1/9/9/9/9/9/4K4 b P 1",
        "P*1b",
        "uchifuzume",
        {"en": "打ち歩詰め", "ja": "打ち歩詰め", "zh-hant": "打步詰", "zh-hans": "打步诘"},
    ),
    (
        "4k4/9/9/9/9/9/9/9/4K4 b N 1",
        "N*3b",
        "dead_piece",
        {"en": "3b", "ja": "３二", "zh-hant": "３二", "zh-hans": "３二"},
    ),
    (
        "4k4/7P1/9/9/9/9/9/9/4K4 b - 1",
        "2b2a",
        "dead_piece",
        {"en": "promote", "ja": "成", "zh-hant": "升變", "zh-hans": "升变"},
    ),
    (
        "4k4/9/9/9/4r4/9/9/9/4K4 b - 1",
        "5i5h",
        "self_check",
        {"en": "check", "ja": "王手", "zh-hant": "送將", "zh-hans": "送将"},
    ),
    (
        "4k4/9/9/9/9/9/9/9/4K4 b - 1",
        "P*5e",
        "no_piece_in_hand",
        {"en": "pawn", "ja": "歩兵", "zh-hant": "步兵", "zh-hans": "步兵"},
    ),
    (
        "4k4/9/9/9/4S4/9/9/9/4K4 b - 1",
        "5e4e",
        "bad_piece_move",
        {"en": "silver on 5e", "ja": "銀将", "zh-hant": "銀將", "zh-hans": "银将"},
    ),
    (
        "4k4/9/9/9/9/9/9/4G4/4K4 b - 1",
        "5h5i",
        "occupied",
        {"en": "5i", "ja": "５九", "zh-hant": "５九", "zh-hans": "５九"},
    ),
    (
        "4k4/9/9/9/9/9/9/4G4/4K4 b - 1",
        "5h5g+",
        "cannot_promote",
        {"en": "gold", "ja": "金将", "zh-hant": "金將", "zh-hans": "金将"},
    ),
]


@pytest.mark.parametrize(("sfen", "usi", "code", "words"), REFUSALS)
def test_refusal_reasons_in_every_language(sfen: str, usi: str, code: str, words: dict[str, str]) -> None:
    board = Board(sfen)
    move = Move.from_usi(usi)
    refusal = board.check_move(move)
    assert refusal is not None
    assert refusal.code == code
    for language in LANGUAGES:
        found = refusal_reason(refusal, language)
        assert words[language] in found, (language, found)


def test_a_legal_move_has_no_reason() -> None:
    assert Board().check_move(Move.from_usi("7g7f")) is None
    with pytest.deprecated_call():
        assert illegal_reason(Board(), Move.from_usi("7g7f"), "ja") is None


def test_square_labels() -> None:
    assert square_label(Move.from_usi("7g7f").to_square, "en") == "7f"
    assert square_label(Move.from_usi("7g7f").to_square, "ja") == "７六"


def test_checkmate_and_resignation_are_explained() -> None:
    board = Board("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    board.push_usi("G*5b")
    outcome = board.outcome()
    assert outcome is not None
    assert explain_outcome(outcome, board, "en") == "Checkmate: Gote's king cannot escape. Sente wins."
    assert "詰み" in explain_outcome(outcome, board, "ja")
    resign = Outcome(Termination.RESIGNATION, Color.WHITE)
    assert explain_outcome(resign, board, "zh-hans") == "先手认输。后手获胜。"
    assert explain_outcome(resign, board, "ja", handicap=True) == "下手が投了しました。上手の勝ちです。"


def test_repetition_and_perpetual_check_are_explained() -> None:
    board = Board("k8/9/9/9/9/9/9/9/1R2K4 b - 1")
    for usi in ["8i9i", "9a8a", "9i8i", "8a9a"] * 3:
        board.push_usi(usi)
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.PERPETUAL_CHECK
    assert "連続王手の千日手" in explain_outcome(outcome, board, "ja")
    assert "Sente loses" in explain_outcome(outcome, board, "en")


def test_declaration_explained_with_the_points() -> None:
    board = Board("+R+B1G1G3/4K4/2+P+P+P+P+P+P+P/9/9/9/2+p+p+p+p+p+p+p/4k4/+r+b1g1g3 b 2S2N2L3P2s2n2lp 1")
    assert declaration_refusal(board, "en") is None
    outcome = board.declare_win()
    assert explain_outcome(outcome, board, "en", declarer=Color.BLACK) == (
        "Sente declared an entering-king win (入玉宣言) with 28 points. Sente wins."
    )


@pytest.mark.parametrize(
    ("sfen", "words"),
    [
        ("4k4/9/9/9/9/9/9/9/4K4 b - 1", "not in the enemy camp"),
        ("8k/9/4K4/9/9/9/9/9/9 b - 1", "only 0 pieces"),
        ("+R+B1G1G3/4K4/2+P+P+P+P+P+P+P/9/9/9/2+p+p+p+p+p+p+p/4k4/+r+b1g1g3 b 2S2N2L2P2s2n2l2p 1", "27 points (28"),
    ],
)
def test_declaration_refusals_name_the_missing_condition(sfen: str, words: str) -> None:
    refusal = declaration_refusal(Board(sfen, lenient=True), "en")
    assert refusal is not None
    assert words in refusal


def test_impasse_count_is_explained() -> None:
    board = Board("+R+B1G1G3/4K4/2+P+P+P+P+P+P+P/9/9/9/2+p+p+p+p+p+p+p/4k4/+r+b1g1g3 b 2S2N2L3P2s2n2lp 1")
    outcome = board.settle_impasse()
    assert (
        explain_outcome(outcome, board, "ja")
        == "持将棋の点数計算：先手28点、後手26点。両者とも24点以上なので引き分けです。"
    )
