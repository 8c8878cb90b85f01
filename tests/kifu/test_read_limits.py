"""Issue 10, finding 3: explicit read limits, the same in lenient and strict reading."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from shogiban.errors import KifuParseError
from shogiban.kifu import (
    DEFAULT_LIMITS,
    KifuLimitError,
    ReadLimits,
    read_csa_games,
    read_game,
    read_games,
    read_kif,
    read_sfen_games,
    read_usi_games,
)

KIF = "手合割：平手\n   1 ７六歩(77)\n*一行目\n*二行目\n   2 ３四歩(33)\n変化：2手\n   2 ８四歩(83)\n   3 投了\n"


@pytest.mark.parametrize(
    ("limits", "name"),
    [
        (ReadLimits(max_input=50), "max_input"),
        (ReadLimits(max_line=10), "max_line"),
        (ReadLimits(max_moves=2), "max_moves"),
        (ReadLimits(max_variations=0), "max_variations"),
        (ReadLimits(max_comment=5), "max_comment"),
        (ReadLimits(max_comments=5), "max_comments"),
    ],
)
@pytest.mark.parametrize("strict", [False, True])
def test_each_limit_stops_reading_with_its_name(limits: ReadLimits, name: str, strict: bool) -> None:
    with pytest.raises(KifuLimitError) as raised:
        read_game(KIF, limits=limits, strict=strict)
    error = raised.value
    assert error.limit == name
    assert error.code == "too_large"
    assert isinstance(error, KifuParseError)
    assert name in str(error)


def test_the_limits_are_generous_by_default() -> None:
    game = read_game(KIF)
    assert not game.errors
    assert DEFAULT_LIMITS.max_moves >= 1_000_000
    assert DEFAULT_LIMITS.max_input >= 32_000_000


def test_bytes_and_files_are_measured_before_decoding(tmp_path: object) -> None:
    data = KIF.encode("cp932")
    with pytest.raises(KifuLimitError, match="max_input"):
        read_game(data, limits=ReadLimits(max_input=len(data) - 1))
    assert read_game(data, limits=ReadLimits(max_input=len(data))).mainline_moves()


def test_too_many_problems_stop_a_lenient_reader() -> None:
    junk = "手合割：平手\n" + "？？？\n" * 50
    assert len(read_kif(junk, limits=ReadLimits(max_errors=50)).errors) == 50
    with pytest.raises(KifuLimitError, match="max_errors") as raised:
        read_kif(junk, limits=ReadLimits(max_errors=49))
    assert raised.value.lineno == 51


@pytest.mark.parametrize(
    ("fmt", "reader", "text", "nodes"),
    [
        ("csa", read_csa_games, "PI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n", 5),
        ("usi", read_usi_games, "position startpos moves 7g7f\nposition startpos moves 7g7f 3c3d\n", 3),
        ("sfen", read_sfen_games, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
                                  "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"
                                  "position startpos moves 2g2f 8c8d\n", 3),
    ],
)
def test_the_games_of_one_file_share_the_limits(
    fmt: str, reader: Callable[..., list[object]], text: str, nodes: int
) -> None:
    # Moves and results of all the games together count against max_moves.
    assert len(reader(text, limits=ReadLimits(max_moves=nodes))) == 2
    with pytest.raises(KifuLimitError, match="max_moves"):
        reader(text, limits=ReadLimits(max_moves=nodes - 1))
    with pytest.raises(KifuLimitError, match="max_moves"):
        read_games(text, format=fmt, limits=ReadLimits(max_moves=nodes - 1))


def test_the_limit_error_locates_the_line() -> None:
    with pytest.raises(KifuLimitError) as raised:
        read_kif(KIF, limits=ReadLimits(max_moves=1))
    assert raised.value.lineno == 5
    assert str(raised.value).startswith("line 5: record too large")
