"""KIF and KI2 share one reader for everything but their move lines: the same record written in
either notation reads into the same game, problems included."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from kifu_helpers import mainline

from shogiban.kifu import Game, read_ki2, read_kif, write_bod

# Only the move lines (and KIF's 手数 heading) differ: the {placeholders} are filled in per format.
RECORD = """\
# a line for programs only
開始日時：2024/01/01
手合割：平手
先手：A
後手：B
ｘｙｚ
*root comment
&root-mark
{heading}{move1}
*first
&mark1
{moves23}
変化：2手
{alt2}
*alternative
変化：9手
{move9}
*not read
"""
KIF = RECORD.format(
    heading="手数----指手--\n",
    move1="   1 ７六歩(77)",
    moves23="   2 ３四歩(33)\n   3 ２六歩(27)",
    alt2="   2 ８四歩(83)",
    move9="   9 ５八玉(59)",
)
KI2 = RECORD.format(heading="", move1="▲７六歩", moves23="△３四歩    ▲２六歩", alt2="△８四歩", move9="▲５八玉")
READERS: list[tuple[Callable[[str], Game], str]] = [(read_kif, KIF), (read_ki2, KI2)]


@pytest.mark.parametrize(("read", "text"), READERS, ids=["kif", "ki2"])
def test_shared_lines_read_the_same_in_both_notations(read: Callable[[str], Game], text: str) -> None:
    game = read(text)
    assert game.headers.pairs() == [("開始日時", "2024/01/01"), ("手合割", "平手"), ("先手", "A"), ("後手", "B")]
    assert (game.root.comment, game.root.bookmark) == ("root comment", "root-mark")
    assert mainline(game) == ["7g7f", "3c3d", "2g2f"]
    first = game.root.variations[0]
    assert (first.comment, first.bookmark) == ("first", "mark1")
    assert [n.move.usi() for n in first.variations if n.move is not None] == ["3c3d", "8c8d"]
    assert first.variations[1].comment == "alternative"
    assert all("not read" not in n.comment for n in game.walk())  # skipped with its variation
    lines = text.splitlines()
    assert [(e.lineno, e.line) for e in game.errors] == [
        (lines.index("ｘｙｚ") + 1, "ｘｙｚ"),
        (lines.index("変化：9手") + 1, "変化：9手"),
    ]
    assert "cannot read line 'ｘｙｚ'" in str(game.errors[0])
    assert "variation at move 9: no line read so far has that move" in str(game.errors[1])


@pytest.mark.parametrize(
    ("read", "first_move"), [(read_kif, "   1 ３四歩(33)"), (read_ki2, "△３四歩")], ids=["kif", "ki2"]
)
def test_bod_start_position_in_both_notations(read: Callable[[str], Game], first_move: str) -> None:
    sfen = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    game = read("手合割：角落ち\n" + write_bod(Game(sfen)) + first_move + "\n")
    assert game.start_sfen == sfen
    assert mainline(game) == ["3c3d"]
    assert not game.errors
