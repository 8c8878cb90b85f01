"""No header or comment text can change a record's moves (issue 21, finding 6).

A player name ``"x\\r▲５八玉"`` once came back from a KI2 download as the move 5i5h,
``"x\\r後手：INJECTED"`` replaced the opponent's name and ``"x\\r*text"`` added a comment.  Every
writer now cleans such text (:mod:`shogiban.notation.safetext`); here, for any header and comment
text, a game written and read back in each format that the package writes and reads has the
same moves, the same comment-bearing nodes and the same (cleaned) player names.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from shogiban.kifu import Game, GameNode, read_game, write_game
from shogiban.kifu.encoding import encode
from shogiban.kifu.losses import Loss
from shogiban.move import Move
from shogiban.notation.safetext import LINE_BREAKS, clean_text, one_line, text_lines

#: Formats the package both writes and reads, the encoding of their bytes, and what they keep.
FORMATS = {
    # format: (encoding, keeps headers, keeps comments, keeps variations)
    "kif": ("cp932", True, True, True),
    "kifu": ("utf-8", True, True, True),
    "ki2": ("cp932", True, True, True),
    "ki2u": ("utf-8", True, True, True),
    "csa": ("cp932", True, True, False),
    "csa3": ("utf-8", True, True, False),
    "jkf": ("utf-8", True, True, True),
    "usen": ("utf-8", False, False, True),
    "usi": ("utf-8", False, False, False),
    "sfen": ("utf-8", False, False, False),
}

#: Text that looks like a move, a header, a comment, a bookmark or a CSA line of some format.
TRAPS = [
    "\r▲５八玉", "\n後手：X", "\r*x", "\nP1-KY", "\n+7776FU", "\n'x", "\r\n   1 ５八玉(59)", "\n変化：1手",
    "\nまで1手で先手の勝ち", "\n&mark", "\n#KIF", "\n'*x", ",+7776FU", "\u2028△５二玉", "\x85-3334FU",
    "\x0b%TORYO", "\x0c手数----指手--", "\x1c N-Y", "\x1d$EVENT:x", "\x1e先手の持駒：なし", "\\n▲５八玉",
    "\n|v香v桂|", "\n+---+", "\nPI", "\n+", "\n-", "\nT10", "\nV2.2", "\n/", "\x00", "\x1b[2J", "\x7f", "\x9b31m",
]
_SPECIALS = "▲△☗☖▽+-'*&#%,:：|/\\ \t\u3000" + LINE_BREAKS
_CHARS = st.one_of(st.characters(codec="utf-8"), st.sampled_from(_SPECIALS), st.characters(max_codepoint=0xA0))
TEXT = st.lists(st.one_of(st.text(_CHARS, max_size=6), st.sampled_from(TRAPS)), max_size=5).map("".join)


def _game(black: str, white: str, key: str, value: str, comments: list[str], bookmark: str) -> Game:
    """7g7f 3c3d 2g2f 8c8d, a variation 8c8d at move 2, resignation, with *comments* on the start,
    the moves and the result."""
    game = Game()
    game.headers["先手"] = black
    game.headers["後手"] = white
    game.headers.add("棋戦", value)
    game.headers.add(key, value)
    game.headers.add("備考", value)
    node: GameNode = game.root
    node.comment = comments[0]
    for i, usi in enumerate(["7g7f", "3c3d", "2g2f", "8c8d"], 1):
        node = node.add_variation(Move.from_usi(usi), comment=comments[i % len(comments)])
    node.bookmark = bookmark or None
    node.add_result("投了", comment=comments[-1])
    second = game.root.variations[0]
    second.add_variation(Move.from_usi("8c8d"), comment=comments[1 % len(comments)])
    return game


def _tree(game: Game, variations: bool) -> list[list[str]]:
    """Every line of play as USI moves (the main line only without *variations*)."""
    if not variations:
        return [[m.usi() for m in game.mainline_moves()]]
    return sorted([m.usi() for m in n.moves()] for n in game.walk() if not n.variations)


def _commented(game: Game, variations: bool) -> int:
    nodes = game.walk() if variations else [game.root, *game.mainline()]
    return sum(1 for n in nodes if n.comment)


def _expected_comments(game: Game, variations: bool) -> int:
    nodes = game.walk() if variations else [game.root, *game.mainline()]
    return sum(1 for n in nodes if any(text_lines(n.comment)))


def _name(text: str, encoding: str, fmt: str) -> str:
    """A player's name as *fmt* gives it back: one line, in the file's encoding, spaces at the
    ends (and runs of them) aside."""
    name = one_line(text)
    if fmt.startswith("csa"):
        name = name.replace(",", "，")
    if encoding == "cp932":
        name = encode(name, "cp932").decode("cp932")
    return " ".join(name.split())


def round_trip(game: Game, fmt: str) -> Game:
    options = {"version": "3.0"} if fmt == "csa3" else {}
    losses: list[Loss] = []
    data = write_game(game, "csa" if fmt == "csa3" else fmt, losses=losses, **options)
    back = read_game(data if isinstance(data, bytes) else data.encode(), format="csa" if fmt == "csa3" else fmt)
    assert not back.errors, (fmt, back.errors, data)
    return back


def check(game: Game) -> None:
    black, white = game.headers["先手"], game.headers["後手"]
    for fmt, (encoding, headers, comments, variations) in FORMATS.items():
        back = round_trip(game, fmt)
        assert _tree(back, variations) == _tree(game, variations), fmt
        if headers:
            got = back.headers.get("先手") or back.headers.get("下手") or ""
            assert " ".join(got.split()) == _name(black, encoding, fmt), (fmt, got)
            got = back.headers.get("後手") or back.headers.get("上手") or ""
            assert " ".join(got.split()) == _name(white, encoding, fmt), (fmt, got)
        if comments:
            assert _commented(back, variations) == _expected_comments(game, variations), fmt
            for node in back.walk():
                assert node.comment == clean_text(node.comment), (fmt, node.comment)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    black=TEXT, white=TEXT, key=TEXT.filter(lambda k: one_line(k).strip() not in ("先手", "後手", "下手", "上手")),
    value=TEXT, comments=st.lists(TEXT, min_size=1, max_size=4), bookmark=TEXT,
)
@example(black="x\r▲５八玉", white="W", key="1", value="\n+7776FU", comments=["\r*x"], bookmark="\n後手：X")
def test_header_and_comment_text_never_changes_the_moves(
    black: str, white: str, key: str, value: str, comments: list[str], bookmark: str
) -> None:
    check(_game(black, white, key, value, comments, bookmark))


# -- the reported cases -------------------------------------------------------------------------


def _named(black: str, white: str = "W", comment: str = "") -> Game:
    game = Game()
    game.headers["先手"] = black
    game.headers["後手"] = white
    game.add_variation(Move.from_usi("7g7f"), comment=comment).add_result("投了")
    return game


def test_carriage_return_and_a_ki2_move_in_a_name_is_no_move() -> None:
    game = _named("x\r▲５八玉")
    back = round_trip(game, "ki2")
    assert [m.usi() for m in back.mainline_moves()] == ["7g7f"]
    assert back.headers["先手"] == "x ▲５八玉"
    check(game)


def test_carriage_return_and_a_header_in_a_name_does_not_replace_the_opponent() -> None:
    game = _named("x\r後手：INJECTED", "本物")
    for fmt in FORMATS:
        back = round_trip(game, fmt)
        if FORMATS[fmt][1]:
            assert back.headers.get_all("後手") == ["本物"], fmt
            assert back.headers["先手"] == "x 後手：INJECTED", fmt
    check(game)


def test_carriage_return_and_a_star_in_a_name_adds_no_comment() -> None:
    game = _named("x\r*text")
    for fmt in FORMATS:
        back = round_trip(game, fmt)
        assert not any(n.comment for n in back.walk()), fmt
    check(game)


def test_nul_and_esc_are_not_written() -> None:
    game = _named("a\x00b\x1b[31mc\x9b", comment="\x00x\x1b[2J\x7f")
    for fmt in ("kifu", "ki2u", "csa3", "jkf"):
        data = write_game(game, "csa" if fmt == "csa3" else fmt, **({"version": "3.0"} if fmt == "csa3" else {}))
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        assert not any(ch in text for ch in "\x00\x1b\x7f\x9b"), fmt
        assert "ab[31mc" in text, fmt
    check(game)


def test_a_line_feed_and_a_csa_board_row_in_a_comment_is_a_comment() -> None:
    game = _named("B", comment="x\nP1-KY\n+7776FU\n'x")
    back = round_trip(game, "csa")
    first = next(iter(back.mainline()))
    assert first.comment == "x\nP1-KY\n+7776FU\n'x"
    check(game)


def test_a_comma_in_a_csa_name_joins_no_move() -> None:
    game = _named("x,+7776FU", "y,-3334FU")
    back = round_trip(game, "csa")
    assert [m.usi() for m in back.mainline_moves()] == ["7g7f"]
    assert back.headers["先手"] == "x，+7776FU"
    check(game)


def test_every_line_break_splits_a_kif_comment_into_star_lines() -> None:
    game = _named("B", comment="a" + "b".join(LINE_BREAKS) + "c")
    text = write_game(game, "kifu")
    assert isinstance(text, bytes)
    lines = text.decode("utf-8").splitlines()
    stars = [line for line in lines if line.startswith("*")]
    assert len(stars) == len(LINE_BREAKS) + 1
    check(game)


def test_a_key_that_reads_as_a_move_is_left_out_and_reported() -> None:
    game = _named("B")
    game.headers.add("1", "x")
    game.headers.add("▲５八玉", "x")
    game.headers.add("*c", "x")
    losses: list[Loss] = []
    data = write_game(game, "kifu", losses=losses)
    back = read_game(data, format="kifu")
    assert not back.errors
    assert [m.usi() for m in back.mainline_moves()] == ["7g7f"]
    assert [(loss.what, loss.count) for loss in losses] == [("headers", 3)]
    check(game)


def test_a_csa_header_key_that_is_not_a_csa_name_is_a_comment_line() -> None:
    game = _named("B")
    game.headers.add("$A:B,+7776FU", "v")
    game.headers.add("*見出し", "v")
    data = write_game(game, "csa", version="3.0")
    assert isinstance(data, bytes)
    text = data.decode("utf-8")
    assert "'A:B，+7776FU：v" not in text
    assert "'$A:B,+7776FU：v" in text
    assert "' *見出し：v" in text
    check(game)
