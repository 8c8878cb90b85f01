"""Issue 10, findings 13 and 14: writers whose output their readers read back, every line a
format can carry, and a report of what a format cannot hold (``losses``)."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kifu_helpers import move_tree, random_game
from tests.hypothesis_budget import examples

from shogiban import Board, Move
from shogiban.kifu import Game, GameNode, ResultKind, read_game, read_usen, read_usi, write_game
from shogiban.kifu.jkf import MAX_FORK_DEPTH
from shogiban.kifu.kif import read_kif
from shogiban.kifu.losses import Loss
from shogiban.kifu.results import CSA_TOKENS, KIF_WORDS, Result
from shogiban.kifu.usi import result_word
from shogiban.kifu.walk import LineWalk

M = Move.from_usi
WORDS = sorted({*KIF_WORDS, *("%" + token for token in CSA_TOKENS)})
STARTS = [None, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN1 w - 1", "4k4/9/9/9/9/9/9/9/4K4 b G 1"]
# The kinds a .usi result word stands for when read back.
_READ_KIND = {
    ResultKind.PERPETUAL_CHECK: ResultKind.REPETITION, ResultKind.DECLARE_DRAW: ResultKind.IMPASSE,
    ResultKind.MAX_MOVES: ResultKind.IMPASSE,
}


def _game(start: str | None, plies: int) -> tuple[Game, GameNode]:
    game = Game(start) if start else Game()
    board = game.start_board()
    node: GameNode = game.root
    for _ in range(plies):
        move = sorted(board.legal_moves, key=lambda m: m.usi())[0]
        node = node.add_variation(move)
        board.push(move)
    return game, node


@settings(max_examples=examples(150), deadline=None)
@given(word=st.sampled_from(WORDS), start=st.sampled_from(STARTS), plies=st.integers(0, 3))
def test_usi_lines_with_a_result_read_back_whatever_the_moves(word: str, start: str | None, plies: int) -> None:
    # Finding 13: "position startpos resign" (no "moves") was refused by our own reader.
    game, end = _game(start, plies)
    end.add_result(word)
    losses: list[Loss] = []
    text = write_game(game, "usi", losses=losses)
    assert isinstance(text, str)
    again = read_usi(text)
    assert not again.errors, (text, again.errors)
    assert again.mainline_moves() == game.mainline_moves()
    assert again.start_sfen.split()[:3] == game.start_sfen.split()[:3]
    written = result_word(game)
    if written is None:
        assert again.result is None
        assert [loss.what for loss in losses] == ["result"]
    else:
        assert text.rstrip("\n").endswith(" moves " + " ".join([*(m.usi() for m in game.mainline_moves()), written]))
        result = again.result
        assert result is not None
        expected = game.result
        assert expected is not None
        assert result.kind is _READ_KIND.get(expected.kind, expected.kind)
        assert not losses


def test_usi_line_with_an_illegal_move_and_no_legal_one() -> None:
    game = Game()
    game.root.add_result(Result(ResultKind.ILLEGAL, Board().turn.other, "", M("P*5e"), "no pawn in hand"))
    text = write_game(game, "usi")
    assert text == "position startpos moves P*5e illegal\n"
    again = read_usi(text)
    assert again.result is not None
    assert again.result.illegal_move == M("P*5e")
    assert not again.errors


def test_usi_lines_without_moves_or_result() -> None:
    assert write_game(Game(), "usi") == "position startpos\n"
    assert read_usi("position startpos resign").result is not None  # also read without "moves"
    assert not read_usi("position startpos resign").errors
    assert not read_usi("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G resign").errors


def _usen_sections(text: str) -> list[tuple[int, str]]:
    return [(int(part.split(".")[0]), part.split(".")[1][:3]) for part in text.strip().split("~")[1:]]


@pytest.mark.parametrize("seed", range(12))
def test_usen_keeps_variations_of_variations_in_kif_order(seed: int) -> None:
    # Finding 14: write_usen dropped every variation that did not branch off the main line.
    game = random_game(seed, variations=10, nested=True)
    alternatives = [n for n in game.walk() if n.parent is not None and n.parent.variations[0] is not n]
    nested = [n for n in alternatives if n.parent is not None and not n.parent.is_mainline()]
    text = write_game(game, "usen")
    assert isinstance(text, str)
    again = read_usen(text)
    assert not again.errors, again.errors
    assert _moves_only(again) == _moves_only(game)
    # The sections come in the order of the KIF 変化 blocks (deepest first).
    kif_order = [(ply - 1, nodes[0].move.usi()) for ply, nodes in LineWalk(game, positions=False).lines()]  # type: ignore[union-attr]
    from shogiban.kifu.usen import encode_move

    assert _usen_sections(text) == [(offset, encode_move(M(usi))) for offset, usi in kif_order]
    if seed == 0:
        assert nested  # the random games do nest variations


def _moves_only(game: Game) -> object:
    """The move tree without results (USEN has no letter for 詰み)."""

    def strip(tree: tuple[str, tuple[object, ...]]) -> object:
        what, children = tree
        return (what, tuple(strip(c) for c in children if c[0][:1].isdigit() or c[0][:1].isupper()))  # type: ignore[index]

    return strip(move_tree(game))


def _nested(depth: int) -> Game:
    """Variations nested *depth* deep: each is an alternative inside the previous one."""
    game = Game()
    board = Board()
    base: GameNode = game.root
    first = base.add_variation(sorted(board.legal_moves, key=Move.usi)[0])
    for _ in range(depth):
        alternative = base.add_variation(next(m for m in sorted(board.legal_moves, key=Move.usi) if m != first.move))
        assert alternative.move is not None
        board.push(alternative.move)
        first = alternative.add_variation(sorted(board.legal_moves, key=Move.usi)[0])
        base = alternative
    return game


def test_deeply_nested_variations_are_written_without_recursion() -> None:
    depth = sys.getrecursionlimit() + 200
    game = _nested(depth)
    for fmt in ("kifu", "ki2u", "csa", "usi", "usen", "sfen", "bod"):
        write_game(game, fmt)
    text = write_game(game, "kifu")
    assert isinstance(text, bytes)
    again = read_kif(text)
    assert not again.errors
    assert write_game(again, "kifu") == text
    assert read_usen(write_game(game, "usen")).variations[1].variations[1].variations  # nested, read back
    losses: list[Loss] = []
    write_game(game, "jkf", losses=losses)
    assert [(loss.what, loss.count) for loss in losses] == [("variations", depth - MAX_FORK_DEPTH)]
    shallow = _nested(MAX_FORK_DEPTH)
    jkf = write_game(shallow, "jkf", losses=(none := []))
    assert not none
    again = read_game(jkf, format="jkf")  # schema-checked too
    assert not again.errors
    assert write_game(again, "kifu") == write_game(shallow, "kifu")


def _rich_game() -> Game:
    game = random_game(5, plies=30, variations=3, nested=True)
    game.headers["棋戦"] = "テスト"
    game.root.comment = "開始局面"
    first = game.variations[0]
    first.elapsed = 1.5
    return game


_EXPECTED_LOSSES = {
    "kif": {"time_fractions"},
    "kifu": {"time_fractions"},
    "ki2": {"times"},
    "ki2u": {"times"},
    "csa": {"variations", "bookmarks", "time_fractions"},
    "jkf": {"bookmarks", "time_fractions"},
    "usi": {"variations", "comments", "times", "bookmarks", "headers"},
    "sfen": {"variations", "comments", "times", "bookmarks", "headers", "result"},
    "usen": {"comments", "times", "bookmarks", "headers"},
    "bod": {"moves", "variations", "comments", "times", "bookmarks", "headers", "result"},
}


@pytest.mark.parametrize("fmt", sorted(_EXPECTED_LOSSES))
def test_each_writer_reports_what_its_format_cannot_hold(fmt: str) -> None:
    game = _rich_game()
    losses: list[Loss] = []
    write_game(game, fmt, losses=losses)
    assert {loss.what for loss in losses} == _EXPECTED_LOSSES[fmt]
    assert all(loss.count > 0 and fmt.removesuffix("u") in loss.detail for loss in losses)
    variations = sum(1 for n in game.walk() if n.parent is not None and n.parent.variations[0] is not n)
    for loss in losses:
        if loss.what == "variations":
            assert loss.count == variations


def test_csa_3_keeps_fractions_and_max_moves() -> None:
    game = _rich_game()
    game.end().parent.variations.remove(game.end())  # type: ignore[union-attr]
    game.end().add_result("%MAX_MOVES")
    losses: list[Loss] = []
    write_game(game, "csa", version="3.0", losses=losses)
    assert {loss.what for loss in losses} == {"variations", "bookmarks"}
    losses.clear()
    write_game(game, "csa", losses=losses)  # V2.2 has no %MAX_MOVES: written as %JISHOGI
    assert {loss.what for loss in losses} == {"variations", "bookmarks", "time_fractions", "result"}
    losses.clear()
    write_game(game, "kifu", losses=losses)  # KIF writes 持将棋
    assert {loss.what for loss in losses} == {"time_fractions", "result"}


def test_characters_shift_jis_lacks_are_reported() -> None:
    game = read_game("手合割：平手\n   1 ７六歩(77)\n*𠮷野家で検討 ♠\n")
    losses: list[Loss] = []
    write_game(game, "kif", losses=losses)
    assert [(loss.what, loss.count) for loss in losses] == [("characters", 2)]
    losses.clear()
    write_game(game, "kifu", losses=losses)
    assert not losses


def test_nothing_is_reported_when_nothing_is_lost() -> None:
    game = read_game("手合割：平手\n   1 ７六歩(77)   ( 0:10/00:00:10)\n*コメント\n&しおり\n   2 投了\n")
    for fmt in ("kif", "kifu"):
        losses: list[Loss] = []
        write_game(game, fmt, losses=losses)
        assert not losses


def test_usi_without_its_result_says_so() -> None:
    from shogiban.kifu.usi import write_usi

    game = read_game("+7776FU\n%TORYO\n")
    losses: list[Loss] = []
    assert write_usi(game, losses=losses) == "position startpos moves 7g7f"
    assert [loss.what for loss in losses] == ["result"]


@pytest.mark.parametrize("plies", [0, 3])
def test_the_kif_heading_is_whole_whether_or_not_moves_carry_times(plies: int) -> None:
    # Issue 26: a game lost on time with no timed move had its heading cut to 手数----指手--.
    from shogiban.kifu.results import result_from_outcome
    from shogiban.outcome import Outcome, Termination
    from shogiban.pieces import Color

    game, node = _game(None, plies)
    turn = Color.BLACK if plies % 2 == 0 else Color.WHITE
    node.add_result(result_from_outcome(Outcome(Termination.TIME_FORFEIT, turn.other, ""), turn))
    text = write_game(game, "kifu")
    text = text.decode("utf-8") if isinstance(text, bytes) else text
    assert "手数----指手---------消費時間--\n" in text
    assert "切れ負け" in text
    back = read_kif(text)
    assert [m.usi() for m in back.mainline_moves()] == [m.usi() for m in game.mainline_moves()]
    assert back.result is not None
    assert back.result.kind == ResultKind.TIME_UP
