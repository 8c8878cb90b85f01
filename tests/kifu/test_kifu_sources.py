"""Issue 10, finding 1: text is text and bytes are bytes; only a ``pathlib.Path`` (or
``read_game_file``) opens a file, and error messages quote an excerpt of the input only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from shogiban.errors import KifuParseError
from shogiban.kifu import (
    Game,
    read_bod,
    read_csa_games,
    read_game,
    read_game_file,
    read_games,
    read_jkf,
    read_ki2,
    read_kif,
    read_sfen_games,
    read_usen,
    read_usi_games,
)
from shogiban.notation.excerpt import EXCERPT_LENGTH, excerpt

RECORD = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n"
SECRET = "root:x:0:0:SECRET-TOKEN-do-not-leak:/root:/bin/bash"
READERS: list[Callable[..., object]] = [
    read_game, read_games, read_kif, read_ki2, read_csa_games, read_jkf, read_usi_games, read_sfen_games,
    read_usen, read_bod,
]


def _games(result: object) -> list[Game]:
    return result if isinstance(result, list) else [result]  # type: ignore[list-item]


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_a_string_naming_a_file_is_read_as_text_never_opened(tmp_path: Path, reader: Callable[..., object]) -> None:
    secret = tmp_path / "passwd"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    record = tmp_path / "game.kif"
    record.write_text(RECORD, encoding="utf-8")
    for name in (str(secret), str(record), record.name):
        try:
            games = _games(reader(name))
        except KifuParseError as error:
            message = str(error)
        else:
            message = ""
            for game in games:
                assert not game.mainline_moves()  # the file's moves were not read
                message += " ".join(str(error) for error in game.errors)
        assert "SECRET" not in message
        assert "７六歩" not in message


def test_no_hint_tells_whether_a_named_file_exists(tmp_path: Path) -> None:
    existing = tmp_path / "game.kif"
    existing.write_text(RECORD, encoding="utf-8")
    messages = []
    for name in (str(existing), str(tmp_path / "missing.kif")):
        with pytest.raises(KifuParseError) as raised:
            read_game(name)
        messages.append(str(raised.value).replace(str(tmp_path), "DIR"))
        assert "no such file" not in messages[-1]
    assert messages[0].replace("game.kif", "X") == messages[1].replace("missing.kif", "X")


def test_a_path_object_and_read_game_file_open_the_file(tmp_path: Path) -> None:
    path = tmp_path / "game.kif"
    path.write_text(RECORD, encoding="utf-8")
    assert [m.usi() for m in read_game(path).mainline_moves()] == ["7g7f", "3c3d"]
    assert [m.usi() for m in read_game_file(str(path)).mainline_moves()] == ["7g7f", "3c3d"]
    assert [m.usi() for m in read_kif(path).mainline_moves()] == ["7g7f", "3c3d"]
    assert read_game(RECORD.encode("cp932")).mainline_moves() == read_game(RECORD).mainline_moves()


def test_an_unreadable_path_is_reported_briefly(tmp_path: Path) -> None:
    with pytest.raises(KifuParseError, match="cannot read") as raised:
        read_game(tmp_path / "missing.csa")
    assert "No such file" in str(raised.value)
    with pytest.raises(KifuParseError, match="cannot read"):
        read_game_file(tmp_path)  # a folder


@pytest.mark.parametrize("source", [42, ["+7776FU"], None])
def test_other_sources_are_refused(source: object) -> None:
    with pytest.raises(KifuParseError, match=r"give text, bytes or a pathlib\.Path"):
        read_game(source)  # type: ignore[arg-type]


def test_excerpt_is_short_escaped_and_marks_a_cut() -> None:
    assert excerpt("７六歩") == "'７六歩'"
    long = excerpt("あ" * 1000)
    assert long.endswith("…")
    assert long.count("あ") == EXCERPT_LENGTH
    assert excerpt("\x1b[31m\u202eevil\n") == repr("\x1b[31m\u202eevil\n")
    assert "\x1b" not in excerpt("\x1b")
    assert "\u202e" not in excerpt("\u202e")
    assert excerpt(b"\xff" * 100).startswith("b'\\xff")
    assert excerpt(object()) == "<object>"


_HOSTILE = "\x1b[2J\u202e" + "Ｘ" * 5000


@pytest.mark.parametrize(
    ("reader", "text"),
    [
        (read_kif, "手合割：平手\n   1 " + _HOSTILE + "\n"),
        (read_kif, "手合割：" + _HOSTILE + "\n   1 ７六歩(77)\n"),
        (read_kif, "   1 ７六歩(77)\n変化：" + _HOSTILE + "\n"),
        (read_kif, _HOSTILE + "\n"),
        (read_ki2, "▲" + _HOSTILE + "\n"),
        (read_ki2, "▲７六歩\nまで" + _HOSTILE + "\n"),
        (read_csa_games, "PI\n+\n" + "+" + _HOSTILE + "\n"),
        (read_csa_games, "PI\n+\nT" + _HOSTILE + "\n"),
        (read_csa_games, "P1" + _HOSTILE + "\n"),
        (read_csa_games, "$EVENT" + _HOSTILE + "\n"),
        (read_usi_games, "position startpos moves " + _HOSTILE + "\n"),
        (read_usi_games, "position sfen " + _HOSTILE + " b - 1\n"),
        (read_sfen_games, _HOSTILE + " b - 1\n"),
        (read_usen, "~0." + _HOSTILE + ".r\n"),
        (read_usen, _HOSTILE + "~0..r\n"),
        (read_bod, "後手の持駒：" + _HOSTILE + "\n|" + _HOSTILE + "|\n"),
        (read_jkf, '{"header": {}, "initial": {"preset": "' + _HOSTILE + '"}, "moves": [{}]}'),
    ],
)
def test_reader_errors_quote_only_a_short_escaped_excerpt(reader: Callable[..., object], text: str) -> None:
    messages = [str(error) for game in _games(reader(text)) for error in game.errors]
    try:
        reader(text, strict=True)
    except KifuParseError as error:
        messages.append(str(error))
    assert messages
    for message in messages:
        assert len(message) < 400, message[:500]
        assert "\x1b" not in message
        assert "\u202e" not in message
        assert "Ｘ" * (EXCERPT_LENGTH + 1) not in message


def test_format_detection_errors_quote_an_excerpt() -> None:
    with pytest.raises(KifuParseError) as raised:
        read_game(SECRET + "\n" + "x" * 10_000)
    assert len(str(raised.value)) < 120
