"""The shared corpus: every record reads cleanly (the broken ones report the right line), and
survives a round trip through every format that can hold it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kifu_helpers import BROKEN, corpus_files, cp932_safe, mainline, snapshot

from shogiban.kifu import ResultKind, read_game, read_games, validate_jkf, write_game
from shogiban.outcome import Termination


def _rel(shared: Path, path: Path) -> str:
    return path.relative_to(shared).as_posix()


def test_corpus_is_there(shared_data: Path) -> None:
    files = corpus_files(shared_data)
    assert len(files) > 90
    assert {p.suffix for p in files} >= {".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".jkf", ".usi", ".usen", ".sfen"}


def test_every_record_reads_without_problems(shared_data: Path) -> None:
    problems = {}
    for path in corpus_files(shared_data):
        for game in read_games(path):
            if game.errors:
                problems.setdefault(_rel(shared_data, path), game.errors[0])
    broken = {name: error.lineno for name, error in problems.items()}
    assert broken == BROKEN


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_records_keep_what_precedes_the_problem(shared_data: Path, name: str) -> None:
    game = read_game(shared_data / name)
    assert game.errors[0].lineno == BROKEN[name]
    assert game.errors[0].line is not None
    assert len(game.mainline_moves()) >= 2
    # The illegal moves are kept as a foul that ends the game.
    if name.endswith((".csa", ".usi")):
        assert game.result is not None
        assert game.result.illegal_move is not None
        outcome = game.outcome()
        assert outcome is not None
        assert outcome.termination is Termination.ILLEGAL_MOVE


def test_seven_formats_of_one_game_agree(shared_data: Path) -> None:
    folder = shared_data / "multi_format" / "ShogiBoardQ-kiou202503020101"
    games = {p.suffix: read_game(p) for p in sorted(folder.iterdir())}
    assert len(games) == 7
    reference = mainline(games[".kif"])
    assert len(reference) == 96
    for suffix, game in games.items():
        assert not game.errors, suffix
        assert mainline(game) == reference, suffix
        outcome = game.outcome()
        assert outcome is not None, suffix
        assert outcome.termination is Termination.REPETITION, suffix
        assert outcome.winner is None
        assert game.board().is_repetition(4), suffix
    assert games[".kif"].headers["棋戦"] == games[".kifu"].headers["棋戦"]
    assert games[".csa"].black == games[".kif"].black == "藤井聡太棋王"


FORMATS_WITH_TREES = ("kif", "kifu", "ki2", "ki2u", "jkf")


@pytest.mark.parametrize("fmt", ["kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usen", "usi", "sfen"])
def test_corpus_round_trips_through(shared_data: Path, fmt: str) -> None:
    for path in corpus_files(shared_data):
        name = _rel(shared_data, path)
        if name in BROKEN:
            continue
        for original in read_games(path):
            text = write_game(original, fmt)
            # The schema check of written JKF is its own test (it is slow: jsonschema).
            again = read_game(text, format=fmt, **({"validate": False} if fmt == "jkf" else {}))
            assert not again.errors, (name, fmt, again.errors)
            assert again.start_sfen == original.start_sfen, (name, fmt)
            assert mainline(again) == mainline(original), (name, fmt)
            # CSA and JKF have no free words: 封じ手 (sealed move) is written as 中断.
            free_word = original.result is not None and original.result.kind is ResultKind.OTHER
            keeps_result = not (free_word and fmt in ("csa", "jkf"))
            if fmt in FORMATS_WITH_TREES:
                options = {"comments": True, "times": None, "bookmarks": False, "results": keeps_result}
                assert snapshot(again, fmt, **options) == snapshot(original, fmt, **options), (name, fmt)
            if fmt in ("kif", "kifu", "ki2", "ki2u", "csa", "jkf"):
                assert _winner(again) == _winner(original), (name, fmt)
                if keeps_result:
                    assert _termination(again) == _termination(original), (name, fmt)
            if fmt == "csa":
                options = {"variations": False, "times": "whole", "bookmarks": False, "results": keeps_result}
                assert snapshot(again, fmt, **options) == snapshot(original, fmt, **options), (name, fmt)


def _winner(game: object) -> object:
    outcome = game.outcome()  # type: ignore[attr-defined]
    return None if outcome is None else outcome.winner


_SAME = {Termination.MAX_MOVES: Termination.IMPASSE}


def _termination(game: object) -> object:
    outcome = game.outcome()  # type: ignore[attr-defined]
    if outcome is None:
        return None
    t = outcome.termination
    if t is Termination.ENTERING_KING and outcome.winner is None:
        return Termination.IMPASSE
    return _SAME.get(t, t)


def test_written_jkf_of_the_corpus_passes_the_schema(shared_data: Path) -> None:
    for path in corpus_files(shared_data):
        if _rel(shared_data, path) in BROKEN or path.suffix == ".usi":
            continue
        game = read_game(path)
        if len(game.mainline_moves()) > 60:
            continue  # jsonschema takes about a millisecond a move
        assert validate_jkf(json.loads(write_game(game, "jkf"))) == [], path


@pytest.mark.parametrize("fmt", ["kif", "kifu", "ki2", "jkf"])
def test_same_format_round_trip_is_lossless(shared_data: Path, fmt: str) -> None:
    family = {"kif": (".kif", ".kifu"), "kifu": (".kif", ".kifu"), "ki2": (".ki2", ".ki2u"), "jkf": (".jkf",)}[fmt]
    times = None if fmt == "ki2" else "full"
    checked = 0
    for path in corpus_files(shared_data):
        if path.suffix not in family or _rel(shared_data, path) in BROKEN:
            continue
        original = read_game(path)
        again = read_game(write_game(original, fmt), format=fmt)
        expected = {k: cp932_safe(v) if fmt in ("kif", "ki2") else v for k, v in original.headers.items()}
        assert dict(again.headers) | {"手合割": ""} == expected | {"手合割": ""}, path
        assert snapshot(again, fmt, times=times, bookmarks=fmt != "jkf") == snapshot(
            original, fmt, times=times, bookmarks=fmt != "jkf"
        ), path
        checked += 1
    assert checked >= 8
