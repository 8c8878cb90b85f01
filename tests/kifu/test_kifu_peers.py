"""Records written by shogiban, read by python-shogi and cshogi: the same moves and winner.

Known peer bugs (shared/ANCHORS.md) are tested around explicitly, not hidden:

* cshogi's KIF parser drops lines with ``不成`` (the move is lost and the next moves go wrong);
* python-shogi's and cshogi's CSA parsers give no winner for ``%TSUMI``;
* python-shogi's KIF parser inverts the winner of a handicap game without a ``まで`` line;
* python-shogi's CSA parser loses the pieces in hand of a ``P+``/``P-`` start position;
* python-shogi's KIF parser reads the moves of ``変化`` blocks as if they continued the main line,
  and refuses ``手合割：その他`` (which Kifu for Windows writes above a diagram).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from kifu_helpers import mainline

from shogiban import Board, Color
from shogiban.kifu import Game, ResultKind, read_game, read_usi, write_csa, write_kif

shogi = pytest.importorskip("shogi")
cshogi = pytest.importorskip("cshogi")
for _name in ("shogi.KIF", "shogi.CSA", "cshogi.KIF", "cshogi.CSA"):
    pytest.importorskip(_name)

PS_WIN = {Color.BLACK: "b", Color.WHITE: "w"}


@pytest.fixture(scope="module")
def games(shared_data: Path) -> list[Game]:
    lines = (shared_data / "usi_games" / "lishogi_prod_500.usi").read_text(encoding="utf-8").splitlines()
    out = []
    for line in [x for x in lines if x.strip() and not x.startswith("#")][::4]:
        game = read_usi("position startpos moves " + line)
        game.end().add_result("詰み" if game.board().outcome() is not None else "投了")
        out.append(game)
    return out


def _cs_win(color: Color | None) -> int:
    return {Color.BLACK: cshogi.BLACK_WIN, Color.WHITE: cshogi.WHITE_WIN, None: cshogi.DRAW}[color]


def test_python_shogi_reads_our_kif(games: list[Game]) -> None:
    for game in games:
        record = shogi.KIF.Parser.parse_str(write_kif(game))[0]
        assert record["moves"] == mainline(game)
        assert record["win"] == PS_WIN[game.outcome().winner]  # type: ignore[union-attr,index]


def test_python_shogi_reads_our_csa(games: list[Game]) -> None:
    for game in games:
        record = shogi.CSA.Parser.parse_str(write_csa(game))[0]
        assert record["moves"] == mainline(game)
        if game.result is not None and game.result.kind is ResultKind.RESIGN:
            assert record["win"] == PS_WIN[game.outcome().winner]  # type: ignore[union-attr,index]
        else:
            assert record["win"] == "-"  # python-shogi knows no %TSUMI


def test_cshogi_reads_our_csa(games: list[Game]) -> None:
    for game in games:
        record = cshogi.CSA.Parser.parse_str(write_csa(game))[0]
        assert [cshogi.move_to_usi(m) for m in record.moves] == mainline(game)
        if game.result is not None and game.result.kind is ResultKind.RESIGN:
            assert record.win == _cs_win(game.outcome().winner)  # type: ignore[union-attr]
        else:
            assert record.win == cshogi.DRAW  # cshogi gives no winner for %TSUMI


def test_cshogi_reads_our_kif_except_funari_lines(games: list[Game]) -> None:
    checked = funari = 0
    for game in games:
        text = write_kif(game)
        record = cshogi.KIF.Parser.parse_str(text)
        moves = [cshogi.move_to_usi(m) for m in record.moves]
        if "不成" in text:
            # cshogi drops a 不成 line: its move list must be shorter or wrong from there on.
            funari += 1
            assert moves != mainline(game)
            continue
        assert moves == mainline(game)
        assert record.win == _cs_win(game.outcome().winner)  # type: ignore[union-attr]
        checked += 1
    assert checked > 80
    assert funari > 0


def test_peers_read_our_corpus_rewrites(shared_data: Path) -> None:
    """The corpus records (comments, times, variations, handicaps) written by us: both peers read
    the same main line from our CSA, and python-shogi from our KIF; cshogi's KIF reader too unless
    the record holds 不成 or a BOD diagram (it ignores diagrams)."""
    from kifu_helpers import BROKEN, corpus_files

    checked = 0
    for path in corpus_files(shared_data):
        if path.relative_to(shared_data).as_posix() in BROKEN or path.suffix in (".usi", ".sfen"):
            continue
        game = read_game(path)
        moves = mainline(game)
        if game.result is not None and game.result.illegal_move is not None:
            continue
        csa = write_csa(game)
        if _ps_csa_loses_hands(csa):
            # python-shogi's CSA reader writes hand counts without piece letters ("2444") and so
            # starts with empty hands: a drop from them fails.
            assert game.start_sfen.split()[2] != "-", path
        else:
            assert shogi.CSA.Parser.parse_str(csa)[0]["moves"] == moves, path
        cs_csa = cshogi.CSA.Parser.parse_str(csa)[0]
        assert [cshogi.move_to_usi(m) for m in cs_csa.moves] == moves, path
        # cshogi writes hands in its own order: compare positions, not text.
        assert Board(cs_csa.sfen, lenient=True).sfen().split()[:3] == game.start_sfen.split()[:3], path
        kif = write_kif(game)
        if "手合割：その他" in kif:
            # Kept from the record (Kifu for Windows writes it with a diagram); python-shogi refuses it.
            with pytest.raises(shogi.KIF.ParserException):
                shogi.KIF.Parser.parse_str(kif)
            continue
        if "変化：" in kif:
            # python-shogi knows no variations: it appends their moves to the main line, or fails
            # on a variation that starts with 同.
            try:
                ps = shogi.KIF.Parser.parse_str(kif)[0]
            except TypeError:
                assert "同" in kif
            else:
                assert ps["moves"][: len(moves)] == moves, path
                assert len(ps["moves"]) > len(moves), path
        else:
            ps = shogi.KIF.Parser.parse_str(kif)[0]
            assert ps["moves"] == moves, path
            assert ps["sfen"].split()[0] == game.start_sfen.split()[0], path  # its turn can be wrong (BOD)
        if "不成" not in kif and "+---" not in kif and "変化：" not in kif:
            assert [cshogi.move_to_usi(m) for m in cshogi.KIF.Parser.parse_str(kif).moves] == moves, path
        checked += 1
    assert checked > 80


def _ps_csa_loses_hands(csa: str) -> bool:
    try:
        shogi.CSA.Parser.parse_str(csa)
    except ValueError as error:
        return "not in hand" in str(error)
    return False


def test_peers_read_our_handicap_kif_with_the_right_winner() -> None:
    # 二枚落ち: gote (the giver) moves first; after three moves sente resigns.
    game = read_game("手合割：二枚落ち\n手数----指手--\n1 ５二玉(51)\n2 ７六歩(77)\n3 ４二玉(52)\n4 投了\n")
    assert game.outcome().winner == Color.WHITE  # type: ignore[union-attr]
    text = write_kif(game)
    ps = shogi.KIF.Parser.parse_str(text)[0]
    assert ps["moves"] == mainline(game)
    assert ps["win"] == "w"  # right, because we write the まで line
    cs = cshogi.KIF.Parser.parse_str(text)
    assert [cshogi.move_to_usi(m) for m in cs.moves] == mainline(game)
    assert cs.win == cshogi.WHITE_WIN
    # Without a まで line python-shogi inverts the winner; shogiban does not.
    bare = "\n".join(line for line in text.splitlines() if not line.startswith("まで"))
    assert shogi.KIF.Parser.parse_str(bare)[0]["win"] == "b"
    assert read_game(bare).outcome().winner == Color.WHITE  # type: ignore[union-attr]
