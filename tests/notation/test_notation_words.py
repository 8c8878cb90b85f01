"""Moves and refusals in words, shared by every front end."""

from __future__ import annotations

from shogiban import Board, Move, rules
from shogiban.notation import entry, words
from shogiban.play import explain


def test_the_front_ends_share_one_implementation() -> None:
    assert explain.illegal_reason is words.illegal_reason
    assert explain.explain_outcome is words.explain_outcome
    assert entry.format_move is words.format_move


def test_refusal_reason_words_board_moves_and_drops_apart() -> None:
    board = Board()
    own = rules.check_move(board, Move.from_usi("6i7i"))
    assert own is not None
    assert own.code == "occupied"
    assert words.refusal_reason(own, "en") == "7i holds one of your own pieces"
    dead = rules.check_move(Board("4k4/7P1/9/9/9/9/9/9/4K4 b - 1"), Move.from_usi("2b2a"))
    assert dead is not None
    assert dead.code == "dead_piece"
    assert "must promote" in words.refusal_reason(dead, "en")
    drop = rules.check_move(Board("4k4/9/9/9/9/9/9/9/4K4 b P 1"), Move.from_usi("P*1a"))
    assert drop is not None
    assert words.refusal_reason(drop, "ja") != words.refusal_reason(dead, "ja")


def test_declaration_refusal_uses_the_core_status() -> None:
    assert words.declaration_refusal(Board(), "en") == "your king is not in the enemy camp"
    lenient = Board("PPPPK4/PPPPP4/P8/9/9/9/9/9/4k4 b - 1", lenient=True)
    assert words.declaration_refusal(lenient, "en") == "you have 10 points (28 are needed)"
