"""Another program reads our explored tree: the KIF that ``POST /api/records/tree`` writes (the
analysis board's download) read by tsshogi (the library under ShogiHome) in Node.js, its
variation's moves and its comment found where they were put.

tsshogi is looked for in ``$SHOGIBAN_NODE_MODULES`` (a node_modules folder), else in
``.ci/node/node_modules`` of this checkout (``.ci/run`` installs it there with npm); the test
skips with its reason without Node.js or without tsshogi."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from shogiban.web.records import routes
from shogiban.web.routing import exception_handlers

CHECKOUT = Path(__file__).resolve().parents[2]
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#: 7g7f 3c3d 8h2b+, with 8c8d 2g2f instead of 3c3d (commented), and 6g6f instead of 2g2f.
TREE = {
    "start_sfen": START,
    "moves": [
        {"usi": "7g7f", "comment": "", "variations": []},
        {"usi": "3c3d", "comment": "opens the bishop", "variations": [
            [{"usi": "8c8d", "comment": "a quiet pawn", "variations": []},
             {"usi": "2g2f", "variations": [[{"usi": "6g6f", "comment": "deeper"}]]}],
        ]},
        {"usi": "8h2b+"},
    ],
}

# Reads the KIF on stdin with tsshogi's importKIF and prints the tree of moves as JSON: each
# node {usi, comment, children}, its children the move after it (node.next) then that move's
# alternatives (each one's branch).  Special moves (the start, a resignation) have no usi.
SCRIPT = r"""
const { importKIF } = require("tsshogi");
const text = require("fs").readFileSync(0, "utf8");
const record = importKIF(text);
if (record instanceof Error) {
  console.log(JSON.stringify({ error: String(record.message || record) }));
  process.exit(0);
}
function walk(node) {
  const children = [];
  for (let child = node.next; child; child = child.branch) children.push(walk(child));
  const usi = node.move && typeof node.move.usi === "string" ? node.move.usi : null;
  return { usi, comment: node.comment, children };
}
console.log(JSON.stringify(walk(record.first)));
"""


def node_modules() -> Path | None:
    """The node_modules folder that holds tsshogi, or None."""
    given = os.environ.get("SHOGIBAN_NODE_MODULES")
    for folder in ([Path(given)] if given else []) + [CHECKOUT / ".ci" / "node" / "node_modules"]:
        if (folder / "tsshogi" / "package.json").is_file():
            return folder
    return None


@pytest.fixture(scope="module")
def node() -> tuple[str, Path]:
    program = shutil.which("node")
    if program is None:
        pytest.skip("Node.js (node) is not installed")
    folder = node_modules()
    if folder is None:
        pytest.skip("tsshogi is not installed (in $SHOGIBAN_NODE_MODULES or .ci/node/node_modules: "
                    "npm install --prefix .ci/node tsshogi)")
    return program, folder


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(Starlette(routes=routes, exception_handlers=exception_handlers())) as started:
        yield started


def read_with_tsshogi(node: tuple[str, Path], kif: str) -> dict[str, Any]:
    program, folder = node
    done = subprocess.run([program, "-e", SCRIPT], input=kif, capture_output=True, text=True, timeout=60,
                          env=os.environ | {"NODE_PATH": str(folder)}, check=False)
    assert done.returncode == 0, done.stderr
    tree: dict[str, Any] = json.loads(done.stdout)
    assert "error" not in tree, tree
    return tree


def line(node: dict[str, Any]) -> list[str]:
    """The moves of the main line after *node*."""
    moves = []
    while node["children"] and node["children"][0]["usi"]:
        node = node["children"][0]
        moves.append(node["usi"])
    return moves


def test_tsshogi_reads_the_variation_and_its_comment(client: TestClient, node: tuple[str, Path]) -> None:
    response = client.post("/api/records/tree?format=kif", json=TREE)
    assert response.status_code == 200, response.text
    assert "shift_jis" in response.headers["content-type"]  # KIF's own encoding, as ShogiHome reads it
    tree = read_with_tsshogi(node, response.content.decode("cp932"))
    assert line(tree) == ["7g7f", "3c3d", "8h2b+"]
    first = tree["children"][0]
    assert [child["usi"] for child in first["children"]] == ["3c3d", "8c8d"]
    assert first["children"][0]["comment"].strip() == "opens the bishop"
    variation = first["children"][1]
    assert variation["comment"].strip() == "a quiet pawn"
    assert line(variation) == ["2g2f"]
    assert [child["usi"] for child in variation["children"]] == ["2g2f", "6g6f"]
    assert variation["children"][1]["comment"].strip() == "deeper"
