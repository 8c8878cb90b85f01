"""Issue 10, findings 2, 3 and 15: every reader and builder is linear in its input.

No absolute timings (the machine is noisy): the time for 8n repetitions is compared with the
time for n, and must stay within 3 times the 8x a linear reader takes (a quadratic one takes 64x,
the old KIF move-line pattern far more).  Times are this process's CPU time, which other busy
processes do not inflate (wall-clock ratios failed under load).  Memory is compared the same way.
"""

from __future__ import annotations

import contextlib
import gc
import time
import tracemalloc
from collections.abc import Callable

import pytest

from shogiban.errors import KifuParseError
from shogiban.kifu import (
    ReadLimits,
    read_bod,
    read_csa_games,
    read_game,
    read_jkf,
    read_ki2,
    read_kif,
    read_sfen_games,
    read_usen,
    read_usi_games,
    write_game,
)
from shogiban.kifu.game import Game, GameNode

# Every character class a pattern of the readers matches, or that surrounds what they match.
CHARACTERS = [
    " ", "\u3000", "\t", "1", "９", "１", "一", "九", "歩", "同", "成", "打", "変", "手", "a", "Z", "x", "(", ")",
    "（", "）", ":", "：", "/", "+", "-", "*", "|", "｜", ".", "~", "▲", "△", "'", "%", "$", "T", "P", ",", "、",
    "=", "＝", "v", "_", "\\", "\"", "{",
]
MOVE = "   1 ７六歩(77)"
# Where a run of one character matters, per reader: "{}" is the run.
TEMPLATES: dict[str, tuple[Callable[..., object], list[str]]] = {
    "kif": (read_kif, [
        "手合割：平手\n" + MOVE + "{}x\n", "手合割：平手\n" + MOVE + "   ( 0:{}/00:00:16)\n",
        "手合割：平手\n   {}1 ７六歩(77)\n", "棋戦{}x\n", "棋戦：{}\n", "*{}x\n", MOVE + "\n変化：{}手\n",
        MOVE + "\nまで{}手で{}先手の勝ち{}x\n", "{}\n", "後手の持駒：{}x\n|{}|\n",
    ]),
    "ki2": (read_ki2, ["▲７六歩{}x\n", "▲{}\n", "▲７六歩\nまで1手{}で{}x\n", "先手{}：x\n", "▲５八金{}\n"]),
    "csa": (read_csa_games, [
        "PI\n+\n+7776FU{}x\n", "PI\n+\n+7776FU\nT{}x\n", "P1{}\n", "$EVENT:{}\n", "'{}x\n", "V{}\n", "+{}\n",
        "N+{}\n", "{}/\n",
    ]),
    "usi": (read_usi_games, ["position startpos moves {}x\n", "position sfen {} b - 1\n", "{}\n"]),
    "sfen": (read_sfen_games, ["{} b - 1\n", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b {}\n"]),
    "usen": (read_usen, ["~0.{}.r\n", "{}~0..r\n", "~0.7ku.{}\n", "~{}.7ku.r\n"]),
    "bod": (read_bod, ["後手の持駒：{}x\n", "|{}|\n", "手数＝{}x\n", "先手{}番\n"]),
    "jkf": (read_jkf, ['{{"header": {{"{}": "x"}}, "moves": [{{}}]}}', '{{"moves": [{{}}, {{"special": "{}"}}]}}']),
    "any": (read_game, ["{}x\n", "   1 {}\n", "{}\n   1 ７六歩(77)\n"]),
}
LIMITS = ReadLimits(max_line=10**8, max_input=10**9)


def _cost(read: Callable[..., object], text: str) -> float:
    """Seconds one read of *text* takes (the best of a few, at least 2 ms of work in all)."""
    best = float("inf")
    spent = 0.0
    runs = 0
    gc.disable()  # a collection in the middle of one run would be noise
    try:
        while runs < 2 or (spent < 0.002 and runs < 50):
            start = time.process_time()
            with contextlib.suppress(KifuParseError):  # the format cannot always be told
                read(text, limits=LIMITS)
            took = time.process_time() - start
            best = min(best, took)
            spent += took
            runs += 1
    finally:
        gc.enable()
    return best


def _linear(read: Callable[..., object], make: Callable[[int], str], n: int, factor: int = 8) -> float:
    """The ratio of the times for *factor* n and n (measured up to three times when high)."""
    ratio = float("inf")
    for _ in range(3):
        ratio = min(ratio, _cost(read, make(n * factor)) / _cost(read, make(n)))
        if ratio <= 3 * factor:
            break
    return ratio


@pytest.mark.timeout(600)
@pytest.mark.parametrize("fmt", sorted(TEMPLATES))
def test_runs_of_every_character_class_are_read_in_linear_time(fmt: str) -> None:
    read, templates = TEMPLATES[fmt]
    slow = []
    for template in templates:
        for char in CHARACTERS:
            def make(n: int, template: str = template, char: str = char) -> str:
                return template.replace("{}", char * n).replace("{{", "{").replace("}}", "}")

            ratio = _linear(read, make, 10_000 // max(1, template.count("{}")))
            if ratio > 24:
                slow.append((template, char, round(ratio, 1)))
    assert not slow


def _kif_with_comments(lines: int) -> str:
    return "手合割：平手\n" + MOVE + "\n" + "*コメントの行です。解説がここに続く\n" * lines


def test_comment_lines_are_collected_in_linear_time() -> None:
    # 2 MB of comment lines on one move took 9 s: the comment was rebuilt for every line.
    assert _linear(read_kif, lambda n: _kif_with_comments(n), 20_000) <= 24
    game = read_kif(_kif_with_comments(3))
    assert game.variations[0].comment == "\n".join(["コメントの行です。解説がここに続く"] * 3)


# A legal alternative to each move of the shuffle.
_OTHER = {"5i4h": "5i5h", "5a4b": "5a5b", "4h5i": "4h3h", "4b5a": "4b3b"}


def _line_of(plies: int) -> list[str]:
    cycle = ["5i4h", "5a4b", "4h5i", "4b5a"]  # knight-free king shuffles: legal forever
    return [cycle[i % 4] for i in range(plies)]


def _variation_at_every_ply(plies: int) -> str:
    """A KIF with a main line of *plies* moves and, deepest first, a one-move variation at
    every ply (as Kifu for Windows writes them)."""
    game = Game()
    node: GameNode = game.root
    main = []
    for usi in _line_of(plies):
        from shogiban import Move

        node = node.add_variation(Move.from_usi(usi))
        main.append(node)
    from shogiban import Move

    for node in main:
        parent = node.parent
        assert parent is not None
        assert node.move is not None
        parent.add_variation(Move.from_usi(_OTHER[node.move.usi()]))
    data = write_game(game, "kifu")
    assert isinstance(data, bytes)
    return data.decode("utf-8")


def _peak_memory(read: Callable[[str], object], text: str) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        read(text)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.timeout(600)
def test_a_variation_at_every_ply_takes_linear_time_and_memory() -> None:
    # A 494 KB KIF with a variation at every ply used 530 MB: each variation copied its line.
    small, large = _variation_at_every_ply(500), _variation_at_every_ply(2_000)
    game = read_kif(small)
    assert not game.errors
    assert sum(1 for n in game.walk() if n.parent is not None and n.parent.variations[0] is not n) == 500
    assert _linear(read_kif, lambda n: _variation_at_every_ply(n), 250, factor=4) <= 12
    small_peak, large_peak = _peak_memory(read_kif, small), _peak_memory(read_kif, large)
    assert large_peak <= small_peak * 4 * 2
    assert large_peak < 150 * len(large.encode("utf-8"))


def _usen_jumping_between_far_plies(sections: int, plies: int = 2_000) -> str:
    """A main line of *plies* moves, then one-move variations that branch alternately at the
    start and at the end: each jump spans the whole line."""
    from shogiban.kifu.usen import encode_move
    from shogiban.move import Move

    line = _line_of(plies)
    main = "".join(encode_move(Move.from_usi(u)) for u in line)
    near, far = encode_move(Move.from_usi(_OTHER[line[0]])), encode_move(Move.from_usi(_OTHER[line[-1]]))
    parts = ["", f"0.{main}.", *(f"0.{near}." if i % 2 else f"{plies - 1}.{far}." for i in range(sections))]
    return "~".join(parts) + "\n"


@pytest.mark.timeout(600)
def test_jumps_between_far_variations_do_not_replay_the_line() -> None:
    # Each jump to a variation used to rebuild its position from the start: n jumps along a
    # line of n moves took n * n steps.
    game = read_usen(_usen_jumping_between_far_plies(4))
    assert not game.errors
    assert sum(1 for n in game.walk() if n.parent is not None and n.parent.variations[0] is not n) == 4
    assert _linear(read_usen, lambda n: _usen_jumping_between_far_plies(n, plies=n), 500, factor=4) <= 12


def _plausible(fmt: str, games: int) -> str | bytes:
    """*games* records of 80 random moves with times and comments, in one file of *fmt*."""
    from kifu_helpers import random_game

    texts = []
    for seed in range(games):
        game = random_game(seed % 50, plies=80, variations=0)
        data = write_game(game, fmt, **({"version": "3.0"} if fmt == "csa" else {}))
        texts.append(data.decode("utf-8") if isinstance(data, bytes) else data)
    if fmt == "csa":
        return "/\n".join(texts)
    return "".join(texts)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("fmt", ["csa", "sfen", "usi"])
def test_multi_game_files_are_read_in_linear_time(fmt: str) -> None:
    reader = {"csa": read_csa_games, "sfen": read_sfen_games, "usi": read_usi_games}[fmt]
    cache: dict[int, str] = {}

    def make(n: int) -> str:
        if n not in cache:
            data = _plausible(fmt, n)
            cache[n] = data.decode("utf-8") if isinstance(data, bytes) else data
        return cache[n]

    assert _linear(reader, make, 10, factor=8) <= 24


@pytest.mark.timeout(600)
def test_a_long_ki2_record_is_read_in_linear_time() -> None:
    from kifu_helpers import random_game

    def make(n: int) -> str:
        data = write_game(random_game(3, plies=n, variations=n // 20), "ki2u")
        assert isinstance(data, bytes)
        return data.decode("utf-8")

    assert _linear(read_ki2, make, 100, factor=8) <= 24


def _foul_at_every_ply(plies: int) -> str:
    """A main line of *plies* moves with, at every ply, an alternative that is an illegal drop
    kept as a foul (written as 反則負け with the move in its comment)."""
    from shogiban import Color, Move
    from shogiban.kifu.results import Result, ResultKind

    game = Game()
    node: GameNode = game.root
    mover = Color.BLACK
    for usi in _line_of(plies):
        child = node.add_variation(Move.from_usi(usi))
        node.add_result(Result(ResultKind.ILLEGAL, mover.other, "", Move.from_usi("G*5e")))
        node, mover = child, mover.other
    data = write_game(game, "kifu")
    assert isinstance(data, bytes)
    return data.decode("utf-8")


@pytest.mark.timeout(600)
def test_fouls_in_comments_are_restored_in_one_walk() -> None:
    # Each 反則手 comment rebuilt its position from the start.
    game = read_kif(_foul_at_every_ply(50))
    fouls = [n for n in game.walk() if n.result is not None and n.result.illegal_move is not None]
    assert len(fouls) == 50
    assert _linear(read_kif, _foul_at_every_ply, 300, factor=4) <= 12
