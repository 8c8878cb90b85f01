"""The SVG board: valid XML, pieces, hands with two-digit counts, highlights, arrows, languages."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from shogiban import Board, Move
from shogiban.svg import Arrow, board_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}{tag}") if e.get("class") == cls]


def texts(root: ET.Element, cls: str) -> list[str]:
    return [e.text or "" for e in by_class(root, "text", cls)]


def test_start_position() -> None:
    root = parse(board_svg(Board()))
    pieces = by_class(root, "g", "piece")
    assert len(pieces) == 40
    rotated = [g for g in pieces if (g.get("transform") or "").startswith("rotate(180")]
    assert len(rotated) == 20  # gote's pieces are turned round
    assert texts(root, "file") == list("９８７６５４３２１")
    assert texts(root, "rank") == list("一二三四五六七八九")
    assert not by_class(root, "rect", "last-move")
    assert not by_class(root, "circle", "check")
    assert root.get("viewBox", "").startswith("0 0 ")


def test_eighteen_pawns_in_hand() -> None:
    # cshogi's SVG crashed on ten or more pieces of a kind in hand.
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b RB2G3S4N4L18P2g 1")
    root = parse(board_svg(board))
    assert sorted(texts(root, "count")) == sorted(["18", "2", "3", "4", "4", "2"])
    assert len(by_class(root, "g", "piece")) == 2 + 7 + 1  # kings, sente's 7 kinds, gote's gold


def test_last_move_check_and_drop() -> None:
    board = Board()
    for usi in ("7g7f", "3c3d", "8h2b+"):
        board.push_usi(usi)
    root = parse(board_svg(board))
    assert len(by_class(root, "rect", "last-move")) == 2  # the board's last move by default
    assert "馬" in [t.text for t in root.iter(f"{NS}text")]
    checked = Board("4k4/4G4/9/9/9/9/9/9/4K4 w - 1")
    root = parse(board_svg(checked, last_move=Move.from_usi("G*5b")))
    assert len(by_class(root, "circle", "check")) == 1
    assert len(by_class(root, "rect", "last-move")) == 1  # a drop has no origin


def test_arrows_and_highlighted_squares() -> None:
    arrows: list[Arrow] = [(56, 47), (70, 34, "#ff0000"), (None, 40)]
    root = parse(board_svg(Board(), arrows=arrows, squares={10: "red", 11: "blue"}))
    lines = by_class(root, "line", "arrow")
    assert len(lines) == 2
    assert lines[1].get("stroke") == "#ff0000"
    assert len(by_class(root, "circle", "arrow")) == 1
    assert [r.get("fill") for r in by_class(root, "rect", "highlight")] == ["red", "blue"]
    root = parse(board_svg(Board(), squares=[0, 80]))
    assert len(by_class(root, "rect", "highlight")) == 2


def test_flipped_and_languages() -> None:
    root = parse(board_svg(Board(), flipped=True, language="en"))
    assert texts(root, "file") == list("123456789")
    assert texts(root, "rank") == list("ihgfedcba")
    rotated = [g for g in by_class(root, "g", "piece") if g.get("transform")]
    assert len(rotated) == 20
    hans = [t.text for t in parse(board_svg(Board(), language="zh-hans")).iter(f"{NS}text")]
    assert "飞" in hans
    assert "飛" not in hans
    hant = [t.text for t in parse(board_svg(Board(), language="zh-hant")).iter(f"{NS}text")]
    assert "步" in hant
    assert "歩" not in hant
    assert not texts(parse(board_svg(Board(), coordinates=False)), "file")
    with pytest.raises(ValueError, match="unknown language"):
        board_svg(Board(), language="fr")


def test_size_and_jupyter_hook() -> None:
    root = parse(board_svg(Board(), size=300))
    assert root.get("width") == "300"
    board = Board()
    assert board._repr_svg_() == board_svg(board)
