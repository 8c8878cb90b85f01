"""Records on the web: the viewer's tree and the downloads."""

from __future__ import annotations

import random
import re

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import new_game

from shogiban import Board, Move
from shogiban.kifu import Game, read_game
from shogiban.web import records
from shogiban.web.records import RecordError, export_game, game_tree, read_upload


def random_game(plies: int, seed: int) -> Game:
    rng = random.Random(seed)
    board = Board()
    game = Game()
    node = game.root
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        move = rng.choice(moves)
        board.push(move)
        node = node.add_variation(move)
    return game


def test_tree_of_a_long_game_gives_every_position() -> None:
    game = random_game(300, seed=7)
    tree = game_tree(game)
    nodes = tree["nodes"]
    moves = game.mainline_moves()
    assert len(nodes) == len(moves) + 1
    board = Board()
    for node, move in zip(nodes[1:], moves, strict=True):
        board.push(move)
        assert node["sfen"] == board.sfen()
        assert node["usi"] == move.usi()
        assert node["ply"] == board.ply


def test_variations_and_comments() -> None:
    game = Game()
    first = game.add_variation(Move.from_usi("7g7f"), comment="角道を開ける")
    first.add_variation(Move.from_usi("3c3d"))
    first.add_variation(Move.from_usi("8c8d"), comment="居飛車")
    tree = game_tree(game)
    nodes = tree["nodes"]
    assert nodes[1]["comment"] == "角道を開ける"
    assert [nodes[i]["label"] for i in nodes[1]["children"]] == ["△３四歩", "△８四歩"]
    assert nodes[nodes[1]["children"][1]]["comment"] == "居飛車"


def test_same_square_label_uses_dou() -> None:
    tree = game_tree(read_game("position startpos moves 7g7f 3c3d 8h2b+ 3a2b"))
    assert tree["nodes"][-1]["label"] == "△同　銀"


def test_too_many_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records, "MAX_NODES", 10)
    with pytest.raises(RecordError, match="too large"):
        game_tree(random_game(40, seed=1))


def test_unicode_names_keep_their_characters() -> None:
    game = read_game("position startpos moves 7g7f")
    game.headers["先手"] = "张伟"  # simplified Chinese: not in Shift_JIS
    game.headers["後手"] = "山田"
    download = export_game(game, "kif", "record")
    assert download.filename == "record.kifu"
    assert "张伟" in download.content.decode("utf-8")
    game.headers["先手"] = "田中"
    download = export_game(game, "kif", "record")
    assert download.filename == "record.kif"
    assert "田中" in download.content.decode("cp932")
    assert export_game(game, "csa", "r").content.decode("cp932").count("+7776FU") == 1


def test_read_upload_refuses_nothing_and_noise() -> None:
    for data in (b"", "   ", b"\x00\x01\x02\x03", "this is not a record at all\n" * 3):
        with pytest.raises(RecordError):
            read_upload(data)
    with pytest.raises(RecordError, match="too large"):
        read_upload(b"x" * (records.MAX_RECORD_BYTES + 1))


def test_read_upload_shift_jis_kif() -> None:
    text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n"
    game = read_upload(text.encode("cp932"))
    assert [m.usi() for m in game.mainline_moves()] == ["7g7f", "3c3d"]


@pytest.mark.parametrize(("body", "lines"), [
    ({"mode": "local"}, ["先手：先手", "後手：後手"]),
    ({"mode": "local", "handicap": "角落ち"}, ["下手：下手", "上手：上手"]),
])
def test_a_nameless_player_is_called_by_the_side_never_left_empty(client: TestClient, body: dict[str, str],
                                                                  lines: list[str]) -> None:
    # Issue 26: the KIF of a game had an empty 先手： line for a human player, and the record
    # viewer an empty row.
    game = new_game(client, **body)
    text = client.get(f"/api/games/{game['id']}/record.kif").content.decode("cp932")
    for line in lines:
        assert f"\n{line}\n" in text
    assert not re.search(r"^(先手|後手|下手|上手)：$", text, re.MULTILINE)
    csa = client.get(f"/api/games/{game['id']}/record.csa").content.decode("cp932")
    assert not re.search(r"^N[+-]$", csa, re.MULTILINE)
    tree = records.game_tree(read_game(text.encode("utf-8")))
    assert all(tree["headers"][key] for key in ("先手", "後手", "下手", "上手") if key in tree["headers"])


@pytest.mark.parametrize(("text", "english"), [
    ("手合割：平手\n手数----指手--\n   1 ７六歩(77)\n", "even"),
    ("手合割：右香落ち\n手数----指手--\n   1 ３四歩(33)\n", "right lance"),
    ("position startpos moves 7g7f", "even"),
])
def test_the_tree_names_the_handicap_for_the_viewer_to_translate(text: str, english: str) -> None:
    # Issue 26: the viewer showed "Handicap 平手" in English: it gets the catalogue's name.
    assert game_tree(read_upload(text.encode("utf-8")))["handicap_english"] == english
