"""USI position commands."""

from __future__ import annotations

import pytest

from shogiban import Board, IllegalMoveError, InvalidMoveError, InvalidSfenError, Move
from shogiban.notation.usi import InvalidCommandError, make_position_command, parse_position_command

SFEN = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124"


def test_startpos_with_moves() -> None:
    board, moves = parse_position_command("position startpos moves 7g7f 3c3d 8h2b+")
    assert moves == [Move.from_usi("7g7f"), Move.from_usi("3c3d"), Move.from_usi("8h2b+")]
    assert board.move_stack == moves
    assert board.starting_sfen.startswith("lnsgkgsnl/1r5b1/ppppppppp")
    assert make_position_command(board) == "position startpos moves 7g7f 3c3d 8h2b+"
    assert make_position_command(board.starting_sfen, moves) == "position startpos moves 7g7f 3c3d 8h2b+"
    assert make_position_command("startpos", ["7g7f"]) == "position startpos moves 7g7f"


def test_sfen_with_and_without_moves() -> None:
    board, moves = parse_position_command(f"position sfen {SFEN} moves 2h4h")
    assert moves == [Move.from_usi("2h4h")]
    assert make_position_command(board) == f"position sfen {SFEN} moves 2h4h"
    board, moves = parse_position_command(f"position sfen {SFEN}")
    assert moves == []
    assert board.sfen() == SFEN
    assert make_position_command(board) == f"position sfen {SFEN}"
    three_fields = " ".join(SFEN.split()[:3])
    board, _ = parse_position_command(f"sfen {three_fields} moves")
    assert board.sfen() == three_fields + " 1"
    assert parse_position_command("position   startpos   moves  7g7f\n")[1] == [Move.from_usi("7g7f")]


def test_make_from_a_board_with_extra_moves() -> None:
    board = Board()
    board.push_usi("2g2f")
    assert make_position_command(board, [Move.from_usi("8c8d")]) == "position startpos moves 2g2f 8c8d"
    assert make_position_command(Board()) == "position startpos"


def test_errors_name_the_token_and_its_index() -> None:
    with pytest.raises(InvalidMoveError, match=r"'7g7'.*index 1"):
        parse_position_command("position startpos moves 7g7f 7g7 3c3d")
    with pytest.raises(IllegalMoveError, match=r"'7f7e'.*index 1.*belongs to sente"):
        parse_position_command("position startpos moves 7g7f 7f7e")
    with pytest.raises(IllegalMoveError, match=r"index 2"):
        make_position_command("startpos", ["7g7f", "3c3d", "7f7d"])
    with pytest.raises(InvalidCommandError, match="expected 'position startpos'"):
        parse_position_command("position fen xyz")
    with pytest.raises(InvalidCommandError):
        parse_position_command("")
    with pytest.raises(InvalidCommandError, match="sfen is missing"):
        parse_position_command("position sfen moves 7g7f")
    with pytest.raises(InvalidCommandError, match="unexpected"):
        parse_position_command("position startpos 7g7f")
    with pytest.raises(InvalidSfenError):
        parse_position_command("position sfen 9/9 b - 1 moves 7g7f")
