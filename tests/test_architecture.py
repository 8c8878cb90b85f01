"""The package's inside stays clean: only the rules core reads a position's fields or takes move
codes apart, and the front ends (web, the terminal game, the lessons) do not reach into each other.

An AST scan of ``src/shogiban``, so that a new module that breaks a rule fails here at once.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import shogiban
from shogiban.board import Board, _PyBoardState
from shogiban.position import _PyPositionState

PACKAGE = Path(shogiban.__file__).parent

#: Modules that may read Position/Board fields and decode move codes: the core, the engine and
#: the tsume solver (which work on the int representation for speed), and move.py, which defines
#: the codes.
CORE = {"position.py", "board.py", "rules.py", "bitboard.py", "move.py"}
CORE_PACKAGES = {"engine", "tsume"}

#: Offenders outside this branch's files, each with the public API that replaces the access.
PRIVATE_ACCESS_ALLOWED: dict[str, str] = {}

#: Front-end imports that break the layering today, to be moved by their owners.
FRONT_END_IMPORTS_ALLOWED: dict[tuple[str, str], str] = {
    # (module, imported module): reason.  Empty: web imports no play module and lessons none of
    # play or web.  A web/* offender would be listed here with "moved by the game-core work".
}

# Position and Board fields (their slots): private, whatever object holds them.
FIELDS = frozenset(
    name
    for cls in (_PyPositionState, _PyBoardState, Board)
    for name in getattr(cls, "__slots__", ())
    if name.startswith("_")
)
# Move-code arithmetic: to = code & 127, from = code >> 7 & 127, promotion = code >> 14 (and back).
_CODE_SHIFTS = {7, 14}


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        yield rel, ast.parse(path.read_text(encoding="utf-8"), rel)


def _is_core(rel: str) -> bool:
    return rel in CORE or rel.split("/")[0] in CORE_PACKAGES


def _constant(node: ast.expr) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def private_accesses(tree: ast.Module) -> list[str]:
    """``line: expression`` for every Position/Board field read on anything but ``self``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in FIELDS:
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                continue
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def code_arithmetic(tree: ast.Module) -> list[str]:
    """``line: expression`` for every ``x & 127``, ``x >> 7``, ``x >> 14``, ``x << 7``, ``x << 14``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.BinOp):
            continue
        right = _constant(node.right)
        if (isinstance(node.op, ast.BitAnd) and 127 in (right, _constant(node.left))) or (
            isinstance(node.op, (ast.RShift, ast.LShift)) and right in _CODE_SHIFTS
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_heuristics_catch_what_they_are_for() -> None:
    tree = ast.parse("board._board[5]\nself._board\nx = code >> 7 & 127\ny = to | frm << 7\nz = a >> 4\n")
    assert private_accesses(tree) == ["1: board._board"]
    assert sorted(code_arithmetic(tree)) == ["3: code >> 7", "3: code >> 7 & 127", "4: frm << 7"]
    assert {"_board", "_bb", "_hands", "_turn", "_stack", "_ending"} <= FIELDS


def test_only_the_core_reads_position_fields() -> None:
    offenders = {}
    for rel, tree in _modules():
        if _is_core(rel) or rel in PRIVATE_ACCESS_ALLOWED:
            continue
        found = private_accesses(tree)
        if found:
            offenders[rel] = found
    assert offenders == {}, "use the public API (piece_codes, side_to_move, hand_counts, ...) instead"


def test_the_allowances_are_still_needed() -> None:
    trees = dict(_modules())
    for rel in PRIVATE_ACCESS_ALLOWED:
        assert private_accesses(trees[rel]), f"{rel} no longer needs its allowance: remove it"


def test_only_the_core_decodes_move_codes() -> None:
    offenders = {}
    for rel, tree in _modules():
        if _is_core(rel):
            continue
        found = code_arithmetic(tree)
        if found:
            offenders[rel] = found
    assert offenders == {}, "use Move's properties or shogiban.move's move_code / drop_code / code_parts"


def _imports(tree: ast.Module) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


# Who may not import whom: web and lessons stay apart from the terminal game (play), lessons from
# web; and no front end imports another's internals (a module or name starting with "_").
FORBIDDEN = {"web": ("play",), "lessons": ("play", "web"), "play": ("web",)}
FRONT_ENDS = ("web", "play", "lessons")


def test_front_ends_do_not_import_each_others_internals() -> None:
    offenders = []
    for rel, tree in _modules():
        package = rel.split("/")[0]
        if package not in FRONT_ENDS:
            continue
        for name in set(_imports(tree)):
            parts = name.split(".")
            if len(parts) < 2 or parts[0] != "shogiban" or parts[1] not in FRONT_ENDS or parts[1] == package:
                continue
            bad = parts[1] in FORBIDDEN[package] or any(part.startswith("_") for part in parts[2:])
            if bad and (rel, name) not in FRONT_END_IMPORTS_ALLOWED:
                offenders.append(f"{rel} imports {name}")
    assert sorted(offenders) == []
