"""Broken, random and mutated input: every reader returns a game (lenient) or raises
KifuParseError (strict), never anything else, never hangs, and quotes only excerpts (issue 10,
finding 15).  Seeds: records our writers make (always there), tests/data, and the shared corpus
when present."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from shogiban.errors import KifuParseError
from shogiban.kifu import (
    Game,
    read_bod,
    read_csa_games,
    read_game,
    read_games,
    read_jkf,
    read_ki2,
    read_kif,
    read_sfen_games,
    read_usen,
    read_usi_games,
    write_game,
)

READERS: dict[str, Callable[..., object]] = {
    "any": read_game,
    "all": read_games,
    "kif": read_kif,
    "ki2": read_ki2,
    "csa": read_csa_games,
    "jkf": read_jkf,
    "usi": read_usi_games,
    "sfen": read_sfen_games,
    "usen": read_usen,
    "bod": read_bod,
}
SEEDS = [
    "kif/json-kifu-format/fork.kif",
    "kif/json-kifu-format/9fu.kif",
    "kif/json-kifu-format/doh_branch.kifu",
    "ki2/json-kifu-format/fork.ki2",
    "ki2/json-kifu-format/kobayashi_kinsho196702.ki2",
    "csa/json-kifu-format/9fu_komabetsu.csa",
    "csa/shogihome/v3out-from-kif-sjis.csa",
    "csa/json-kifu-format/8mai_hirate.csa",
    "jkf/tsshogi/sample03.jkf",
    "misc/ShogiBoardQ/test_handicap.usen",
    "misc/ShogiBoardQ/test_collection.sfen",
    "multi_format/ShogiBoardQ-kiou202503020101/kiou202503020101.usi",
]
FUZZ = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(reader: Callable[..., object], data: bytes | str) -> None:
    try:
        result = reader(data)
    except KifuParseError:
        if reader not in (read_game, read_games):
            raise  # a lenient reader of one format never raises for bad content
        return  # the format could not be told
    games = result if isinstance(result, list) else [result]
    for game in games:
        assert isinstance(game, Game)
        for error in game.errors:
            assert isinstance(error, KifuParseError)
            assert len(str(error)) < 400
        # Whatever was read can be written again.
        for fmt in ("kifu", "csa", "ki2u", "jkf", "usen"):
            write_game(game, fmt)
    message = ""
    try:
        reader(data, strict=True)
    except KifuParseError as error:
        message = str(error)
    assert len(message) < 400


_SOUP = "0123456789+-%PTVN$'*&|：:()/ \t\n\r同歩香桂銀金角飛玉王と成不打▲△七六五一九手数変化まで投了中断"
text_soup = st.text(alphabet=st.sampled_from(list(_SOUP)), max_size=400)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("fmt", sorted(READERS))
@FUZZ
@given(data=st.binary(max_size=600))
def test_random_bytes(fmt: str, data: bytes) -> None:
    _check(READERS[fmt], data)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("fmt", sorted(READERS))
@FUZZ
@given(text=text_soup)
def test_random_record_like_text(fmt: str, text: str) -> None:
    _check(READERS[fmt], text)


def _mutate(raw: bytearray, data: st.DataObject) -> bytes:
    for _ in range(data.draw(st.integers(1, 8), label="mutations")):
        if not raw:
            break
        at = data.draw(st.integers(0, len(raw) - 1), label="position")
        how = data.draw(st.sampled_from(["flip", "delete", "insert", "duplicate", "truncate", "repeat"]), label="how")
        if how == "flip":
            raw[at] = data.draw(st.integers(0, 255), label="byte")
        elif how == "delete":
            del raw[at:at + data.draw(st.integers(1, 40), label="length")]
        elif how == "insert":
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=20), label="inserted")
        elif how == "duplicate":
            raw[at:at] = raw[at:at + data.draw(st.integers(1, 200), label="length")]
        elif how == "repeat":
            raw[at:at] = raw[at:at + 1] * data.draw(st.integers(1, 3000), label="times")
        else:
            del raw[at:]
    return bytes(raw)


def _made_seeds() -> dict[str, bytes]:
    """Records with variations, comments, times and results in every format, by our writers."""
    from kifu_helpers import random_game

    seeds = {}
    for seed, game in enumerate([random_game(1), random_game(2, plies=20, nested=False)]):
        for fmt in ("kif", "kifu", "ki2", "csa", "jkf", "usi", "sfen", "usen", "bod"):
            data = write_game(game, fmt)
            seeds[f"{seed}.{fmt}"] = data if isinstance(data, bytes) else data.encode("utf-8")
    for path in sorted((Path(__file__).resolve().parent.parent / "data").rglob("*.kif")):
        seeds[path.name] = path.read_bytes()
    return seeds


MADE_SEEDS = _made_seeds()


def _reader_of(name: str) -> Callable[..., object]:
    fmt = name.rsplit(".", 1)[-1].removesuffix("u") if not name.endswith(".usen") else "usen"
    return READERS.get({"kif": "kif", "ki2": "ki2"}.get(fmt, fmt), read_game)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("seed", sorted(MADE_SEEDS))
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_records_of_our_writers(seed: str, data: st.DataObject) -> None:
    mutated = _mutate(bytearray(MADE_SEEDS[seed]), data)
    _check(_reader_of(seed), mutated)
    _check(read_game, mutated)
    _check(read_games, mutated)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("seed", SEEDS)
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_real_files(shared_data: Path, seed: str, data: st.DataObject) -> None:
    raw = bytearray((shared_data / seed).read_bytes())
    mutated = _mutate(raw, data)
    fmt = next(f for f in READERS if seed.endswith(("." + f, "." + f + "u")))
    _check(READERS[fmt], mutated)
    _check(read_game, mutated)


@pytest.mark.timeout(60)
def test_huge_and_deep_inputs_do_not_hang() -> None:
    _check(read_jkf, "[" * 100_000)
    _check(read_kif, "変化：1手\n" * 20_000)
    _check(read_kif, "   1 ７六歩(77)\n" + "変化：1手\n   1 ７六歩(77)\n" * 2_000)
    _check(read_csa_games, "/\n" * 20_000)
    _check(read_csa_games, "PI\n+\n/\n" * 1_000)
    _check(read_usen, "~0." + "7ku" * 5_000 + ".r")
