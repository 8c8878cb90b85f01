"""Round trips of every notation over real games, and cross-checks against real KIF/KI2 files.

The 500 lishogi games (GPL) and the KIF/KI2 files are read from the shared corpus.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from notation_helpers import cshogi_difference, positions, read_kifu_text

from shogiban import Board
from shogiban.notation.bod import parse_bod
from shogiban.notation.csa_move import make_csa_move, parse_csa_move
from shogiban.notation.japanese import make_ki2_move, make_kif_move, parse_ki2_move, parse_kif_move
from shogiban.notation.western import STYLES, make_western, parse_western


@pytest.mark.slow
def test_every_notation_round_trips_on_every_move(games: list[list[str]]) -> None:
    """parse(make(move)) == move for KI2, KIF, CSA and the three western styles, on all 38,654
    moves.  The readers raise AmbiguousMoveError when several legal moves fit, so a successful
    read also proves the text singles out one legal move."""
    count = 0
    for board, move in positions(games):
        ki2 = make_ki2_move(board, move)
        assert parse_ki2_move(board, ki2) == move, (board.sfen(), move, ki2)
        kif = make_kif_move(board, move)
        assert parse_kif_move(board, kif) == move, (board.sfen(), move, kif)
        csa = make_csa_move(board, move)
        assert parse_csa_move(board, csa) == move, (board.sfen(), move, csa)
        for style in STYLES:
            text = make_western(board, move, style=style)
            assert parse_western(board, text) == move, (board.sfen(), move, style, text)
        count += 1
    assert count == 38654


def test_texts_are_unambiguous_for_every_legal_move(games: list[list[str]]) -> None:
    """In sampled positions every legal move gets its own text, which parses back to it."""
    sampled = 0
    for index, (board, _move) in enumerate(positions(games)):
        if index % 199:
            continue
        sampled += 1
        legal = list(board.legal_moves)
        for make, parse in (
            (make_ki2_move, parse_ki2_move),
            (make_kif_move, parse_kif_move),
            (lambda b, m: make_western(b, m, style="hodges"), parse_western),
            (lambda b, m: make_western(b, m, style="kitao"), parse_western),
        ):
            texts = {make(board, m): m for m in legal}
            assert len(texts) == len(legal), board.sfen()
            for text, m in texts.items():
                assert parse(board, text) == m, (board.sfen(), text)
    assert sampled > 180


def test_matches_cshogi_ki2_export_where_cshogi_is_right(games: list[list[str]]) -> None:
    """Both count the pieces that could reach the square by their movement (JSA), pinned ones
    too; every difference must be one of cshogi's known deviations (``cshogi_difference``), and
    our reader must read cshogi's text when it names one move."""
    cshogi = pytest.importorskip("cshogi")
    ki2 = pytest.importorskip("cshogi.KI2")
    same = 0
    explained: Counter[str] = Counter()
    for game in games[:250]:
        board, theirs_board = Board(), cshogi.Board()
        for token in game:
            move = board.parse_usi(token)
            their_move = theirs_board.move_from_usi(token)
            theirs = ki2.move_to_ki2(their_move, theirs_board).replace("竜", "龍").replace("　", "")
            mine = make_ki2_move(board, move).replace("　", "")
            if mine == theirs:
                same += 1
            else:
                explained[cshogi_difference(board, move, mine, theirs)] += 1
            board.push(move)
            theirs_board.push(their_move)
    assert same > 19000
    assert sum(explained.values()) < 20, explained


def _ki2_files(shared_data: Path) -> list[Path]:
    return sorted([*shared_data.glob("ki2/*/*.ki2*"), *shared_data.glob("multi_format/*/*.ki2")])


def _kif_files(shared_data: Path) -> list[Path]:
    return sorted([
        *shared_data.glob("kif/*/*.kif*"), *shared_data.glob("multi_format/*/*.kif*"),
        *shared_data.glob("tsume/tsumemi-kif/*.kif"),
    ])


def _start(text: str) -> Board:
    """The start position of a record: its BOD diagram, else its 手合割 (even game by default)."""
    lines = text.splitlines()
    if any(line.startswith("|") for line in lines):
        return parse_bod(lines)
    found = re.search(r"^手合割：(\S+)", text, re.MULTILINE)
    handicap = found.group(1).strip("\u3000") if found else "平手"
    return Board() if handicap == "平手" else Board.from_handicap(handicap)


_KI2_MOVE = re.compile(r"[▲△☗☖][^▲△☗☖ \t\r\n]+")


def test_real_ki2_files_read_and_are_reproduced_exactly(shared_data: Path) -> None:
    """Play the main line of every KI2 file with the reader and write it again: the text must be
    the file's own (the files are written by Kifu for Windows and others; only 竜/龍 vary)."""
    files = _ki2_files(shared_data)
    assert len(files) >= 18
    total = 0
    for path in files:
        main_line = re.split(r"^変化", read_kifu_text(path), flags=re.MULTILINE)[0]
        board = _start(main_line)
        move_lines = "\n".join(line for line in main_line.splitlines() if line[:1] in "▲△☗☖")
        for token in _KI2_MOVE.findall(move_lines):
            move = parse_ki2_move(board, token)
            assert make_ki2_move(board, move) == token.replace("竜", "龍"), (path.name, board.sfen(), token)
            board.push(move)
            total += 1
    assert total > 550


_KIF_MOVE = re.compile(r"^\s*[0-9]+\s+(.+?)(\s*\(\s*\d+:\d+\s*/.*\))?\s*\+?\s*$")
_SPECIAL = ("投了", "中断", "詰み", "千日手", "持将棋", "切れ負け", "反則", "入玉", "不詰", "封じ手", "不戦")


def _normalize_kif(text: str) -> str:
    # The spec does not write 不成; some writers leave out the space after 同 or write 王 and 竜.
    return re.sub(r"^同\s*", "同", text.replace("不成", "").replace("王", "玉").replace("竜", "龍"))


def test_real_kif_files_read_and_are_reproduced(shared_data: Path) -> None:
    files = _kif_files(shared_data)
    assert len(files) >= 60
    total = 0
    for path in files:
        main_line = re.split(r"^変化", read_kifu_text(path), flags=re.MULTILINE)[0]
        board = _start(main_line)
        for line in main_line.splitlines():
            found = _KIF_MOVE.match(line)
            if not found:
                continue
            token = found.group(1).strip()
            if token.startswith(_SPECIAL):
                break
            move = parse_kif_move(board, token)
            assert _normalize_kif(make_kif_move(board, move)) == _normalize_kif(token), (path.name, token)
            board.push(move)
            total += 1
    assert total > 1800
