"""``POST /api/records/tree``: the analysis board's explored record (start position, lines of
moves with comments and nested variations) written as KIF, KI2, CSA or JKF; read back with our
reader, the variation and the comment are there; bad bodies refused with a code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from shogiban.kifu import read_game
from shogiban.web.records import routes
from shogiban.web.routing import exception_handlers
from shogiban.web.schema import MAX_TREE_COMMENT, MAX_TREE_DEPTH, MAX_TREE_MOVES

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
TREE = {
    "start_sfen": START,
    "moves": [
        {"usi": "7g7f", "comment": "", "variations": []},
        {"usi": "3c3d", "comment": "the bishop's diagonal", "variations": [
            [{"usi": "8c8d", "comment": "a quiet pawn", "variations": []},
             {"usi": "2g2f", "variations": [[{"usi": "6g6f", "comment": "deep"}]]}],
        ]},
        {"usi": "8h2b+"},
    ],
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(Starlette(routes=routes, exception_handlers=exception_handlers())) as started:
        yield started


def download(client: TestClient, body: Any, fmt: str = "kif") -> bytes:
    response = client.post(f"/api/records/tree?format={fmt}", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"].startswith("attachment; filename=\"shogiban-analysis.")
    return response.content


def test_the_kif_read_back_has_the_variations_and_the_comments(client: TestClient) -> None:
    game = read_game(download(client, TREE), format="kif")
    assert game.errors == []
    main = game.root.variations[0]
    assert main.move is not None
    assert main.move.usi() == "7g7f"
    second = main.variations
    assert [node.move.usi() for node in second if node.move] == ["3c3d", "8c8d"]
    assert second[0].comment == "the bishop's diagonal"
    variation = second[1]
    assert variation.comment == "a quiet pawn"
    assert [node.move.usi() for node in variation.variations if node.move] == ["2g2f", "6g6f"]
    assert variation.variations[1].comment == "deep"
    assert second[0].variations[0].move is not None
    assert second[0].variations[0].move.usi() == "8h2b+"


@pytest.mark.parametrize("fmt", ["ki2", "csa", "jkf"])
def test_every_format_is_written_and_read_back(client: TestClient, fmt: str) -> None:
    content = download(client, TREE, fmt)
    game = read_game(content, format=fmt)
    assert game.root.variations[0].move is not None
    assert game.root.variations[0].move.usi() == "7g7f"
    if fmt == "jkf":
        json.loads(content)


def test_an_empty_record_and_another_start(client: TestClient) -> None:
    assert read_game(download(client, {"start_sfen": START, "moves": []}), format="kif").root.variations == []
    handicap = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL w - 1"
    game = read_game(download(client, {"start_sfen": handicap, "moves": [{"usi": "3c3d"}]}), format="kif")
    assert game.root.sfen.split()[0] == handicap.split()[0]


def nested(depth: int) -> list[dict[str, Any]]:
    line: list[dict[str, Any]] = [{"usi": "7g7f"}]
    for _ in range(depth):
        line = [{"usi": "7g7f", "variations": [line]}]
    return line


@pytest.mark.parametrize(("body", "code"), [
    ({"start_sfen": "nonsense", "moves": []}, "bad_tree"),
    ({"start_sfen": START, "moves": [{"usi": "7g7e"}]}, "bad_tree"),
    ({"start_sfen": START, "moves": [{"usi": "7g7f"}, {"usi": "7g7f"}]}, "bad_tree"),
    ({"start_sfen": START, "moves": [{"usi": "7g7f", "variations": [[{"usi": "3c3d"}]]}]}, "bad_tree"),
    ({"start_sfen": START, "moves": [{"usi": "hello"}]}, "bad_tree"),
    ({"start_sfen": START, "moves": [{"usi": "7g7f", "comment": "x" * (MAX_TREE_COMMENT + 1)}]}, "bad_tree"),
    ({"start_sfen": START, "moves": [{"usi": "7g7f", "extra": 1}]}, "bad_tree"),
    ({"start_sfen": START, "moves": [{"usi": "7g7f"}] * (MAX_TREE_MOVES + 1)}, "bad_tree"),
    ({"start_sfen": START, "moves": [{"usi": "7g7f", "variations": [[{"usi": "2g2f"}]] * MAX_TREE_MOVES}]},
     "bad_tree"),
    ({"start_sfen": START, "moves": nested(MAX_TREE_DEPTH + 1)}, "bad_json"),  # nested too deeply
    ({"moves": []}, "bad_tree"),
    ([START], "bad_tree"),
])
def test_bad_bodies_are_refused_with_a_code(client: TestClient, body: Any, code: str) -> None:
    response = client.post("/api/records/tree?format=kif", json=body)
    assert 400 <= response.status_code < 500, response.text
    answer = response.json()
    assert answer["type"] == "error"
    assert answer["code"] == code
    assert answer["message"]


def test_the_deepest_nesting_allowed_is_written(client: TestClient) -> None:
    game = read_game(download(client, {"start_sfen": START, "moves": nested(MAX_TREE_DEPTH)}), format="kif")
    assert game.root.variations[0].move is not None


def test_too_deep_json_and_an_unknown_format_are_refused(client: TestClient) -> None:
    deep = '{"start_sfen": "x", "moves": ' + "[" * 400 + "]" * 400 + "}"
    response = client.post("/api/records/tree", content=deep, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["code"] == "bad_json"
    response = client.post("/api/records/tree?format=doc", json=TREE)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_record"


# -- with the stored analysis ------------------------------------------------------------------------


def test_the_stored_analysis_is_written_with_the_tree(make_client: Any) -> None:
    from tests.web.test_game_analysis import MOVES, TINY, finished_game, wait_status

    from shogiban.analysis.comments import analysis_from_game
    from shogiban.web.game_analysis import AnalysisSettings

    app = make_client(analysis=AnalysisSettings(limit=TINY, poll_seconds=0.01))
    game_id = finished_game(app)
    unknown = app.post("/api/records/tree?format=kif", json={"start_sfen": START, "moves": [], "game": game_id})
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "unknown_analysis"
    assert app.post(f"/api/games/{game_id}/analysis").status_code == 202
    wait_status(app, game_id, "done")
    explored = {"start_sfen": START, "game": game_id, "moves": [
        {"usi": MOVES[0], "comment": "my note", "variations": [[{"usi": "2g2f", "comment": "tried"}]]},
        *({"usi": usi} for usi in MOVES[1:]),
    ]}
    kif = app.post("/api/records/tree?format=kif", json=explored)
    assert kif.status_code == 200, kif.text
    game = read_game(kif.content)
    first = game.root.variations[0]
    assert "#評価値=" in first.comment  # ShogiHome's form
    assert "my note" in first.comment  # the explorer's own words kept
    assert "tried" in game.root.variations[1].comment
    analysis = analysis_from_game(game)
    assert len(analysis.positions) >= len(MOVES)  # every analysed position of the main line read back
    csa = app.post("/api/records/tree?format=csa", json=explored)
    assert "'** " in csa.content.decode("utf-8", "replace")  # floodgate's form in CSA
