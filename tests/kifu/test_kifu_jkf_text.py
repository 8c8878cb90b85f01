"""write_jkf turns move items into JSON one at a time (issue 21, finding 14): its text is exactly
``json.dumps(jkf_object(game))``, forks and nested forks included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kifu_helpers import corpus_files

from shogiban.kifu import Game, read_game
from shogiban.kifu.jkf import jkf_object, write_jkf
from shogiban.move import Move

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


def _same(game: Game) -> None:
    assert write_jkf(game) == json.dumps(jkf_object(game), ensure_ascii=False) + "\n"


def test_nested_forks_and_comments() -> None:
    game = Game()
    node = game.root
    for usi in ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e"):
        node = node.add_variation(Move.from_usi(usi), comment=f"c{usi}")
    node.add_result("投了", comment="end")
    first = game.root.variations[0]
    alt = first.add_variation(Move.from_usi("8c8d"))
    alt.add_variation(Move.from_usi("2g2f")).add_variation(Move.from_usi("3c3d"))
    alt.add_variation(Move.from_usi("6g6f"), comment="deeper")
    game.root.add_variation(Move.from_usi("2g2f"))
    _same(game)


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared corpus not found")
def test_corpus() -> None:
    files = corpus_files(SHARED)
    assert files
    for path in files:
        _same(read_game(path))
