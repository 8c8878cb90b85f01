"""The package's inside stays clean: only the rules core reads other objects' private fields,
takes piece and move codes apart or imports the core's internal tables, the old tuple APIs are
called by nothing inside the package, and the front ends (web, the terminal game, the lessons) do
not reach into each other.

An AST scan of the checkout's ``src/shogiban`` (the directory next to these tests, not the
installed package), so that a new module that breaks a rule fails here at once.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "shogiban"

#: Modules that may read other objects' private fields, take piece and move codes apart and use
#: the internal tables: the rules core (the position, board, rules and bitboards; move.py and
#: pieces.py, which define move and piece codes; sfen.py and zobrist.py, which read and hash the
#: int representation; _accelerator.py, which loads the compiled core), the engine and the tsume
#: solver (which work on the int representation for speed).
CORE = {
    "position.py", "board.py", "rules.py", "bitboard.py", "move.py", "pieces.py", "sfen.py", "zobrist.py",
    "_accelerator.py",
}
CORE_PACKAGES = {"engine", "tsume"}

#: Offenders outside this branch's files, each with its reason: module -> reason.
PRIVATE_ACCESS_ALLOWED: dict[str, str] = {}
CODE_ARITHMETIC_ALLOWED: dict[str, str] = {}
TABLE_IMPORTS_ALLOWED: dict[str, str] = {}
OLD_API_CALLS_ALLOWED: dict[str, str] = {}

#: Front-end imports that break the layering today, to be moved by their owners.
FRONT_END_IMPORTS_ALLOWED: dict[tuple[str, str], str] = {
    # (module, imported module): reason.  Empty: web imports no play module and lessons none of
    # play or web.  A web/* offender would be listed here with "moved by the game-core work".
}


@functools.cache
def _modules() -> tuple[tuple[str, ast.Module], ...]:
    """Every module of the package with its syntax tree, parsed once for all the tests here (the
    checks only read the trees; parsing the package is most of this file's time)."""
    trees = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        trees.append((rel, ast.parse(path.read_text(encoding="utf-8"), rel)))
    return tuple(trees)


def _is_core(rel: str) -> bool:
    return rel in CORE or rel.split("/")[0] in CORE_PACKAGES


def _constant(node: ast.expr) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


# -- private attributes ---------------------------------------------------------------------------
#: The rule: any ``x._name`` (a single or double leading underscore, dunders excepted) whose ``x``
#: is not the plain name ``self`` or ``cls`` or a ``super()`` call, and any ``getattr`` /
#: ``hasattr`` / ``setattr`` / ``delattr`` of a constant ``"_name"``.  That covers fields, private
#: methods and private module attributes (``module._helper``) alike.
_REFLECTION = {"getattr", "hasattr", "setattr", "delattr"}
#: Names of the standard library that start with an underscore and are its public API all the
#: same: a named tuple's methods, ``os._exit``.
PUBLIC_UNDERSCORE = {"_replace", "_asdict", "_make", "_fields", "_field_defaults"}
PUBLIC_UNDERSCORE_CALLS = {"os._exit", "sys._getframe"}


def private_accesses(tree: ast.Module) -> list[str]:
    """``line: expression`` for every read of another object's private attribute."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in PUBLIC_UNDERSCORE:
            owner = node.value
            if ast.unparse(node) in PUBLIC_UNDERSCORE_CALLS:
                continue
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _REFLECTION
            and len(node.args) >= 2
            and isinstance(name := _constant(node.args[1]), str)
            and _private(name)
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


# -- piece and move code arithmetic ---------------------------------------------------------------
#: The rule, on every binary operation and augmented assignment (``x & 15`` and ``x &= 15``) with
#: an int constant on either side of ``&``, ``|``, ``^`` or on the right of a shift:
#:
#: * piece codes (``piece_type | color << 4``): ``& 15`` / ``& 0xF`` (the type), ``& 16`` and
#:   ``>> 4`` (the colour), ``<< 4`` and ``| 16`` / ``^ 16`` (building or flipping the colour);
#: * move codes (``to | frm << 7 | promotion << 14``): ``& 127``, ``>> 7``, ``>> 14``, ``<< 7``,
#:   ``<< 14``.
#:
#: ``1 << 16`` or ``x >> 8`` stay allowed: no code is built or read with them.
_MASKS = {ast.BitAnd: {15, 16, 127}, ast.BitOr: {16}, ast.BitXor: {16}}
_SHIFTS = {ast.RShift: {4, 7, 14}, ast.LShift: {4, 7, 14}}


def _code_operation(op: ast.operator, left: ast.expr | None, right: ast.expr) -> bool:
    for kind, constants in _MASKS.items():
        if isinstance(op, kind):
            return _constant(right) in constants or (left is not None and _constant(left) in constants)
    for kind, constants in _SHIFTS.items():
        if isinstance(op, kind):
            return _constant(right) in constants
    return False


def code_arithmetic(tree: ast.Module) -> list[str]:
    """``line: expression`` for every operation that builds or takes apart a piece or move code."""
    return [
        f"{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if (isinstance(node, ast.BinOp) and _code_operation(node.op, node.left, node.right))
        or (isinstance(node, ast.AugAssign) and _code_operation(node.op, None, node.value))
    ]


# -- internal tables ------------------------------------------------------------------------------
#: The rule: outside the core, nothing imports the internal modules (the bitboards, the
#: accelerator, the Zobrist keys), and from position, board and rules nothing private (``_name``)
#: nor an ALL-CAPS table (ZONE, DEAD_END, KIND, SPEEDUPS, ...) unless it is listed as public here.
INTERNAL_MODULES = {"shogiban.bitboard", "shogiban._accelerator", "shogiban._speedups", "shogiban.zobrist"}
TABLE_MODULES = {"shogiban.position", "shogiban.board", "shogiban.rules"}
PUBLIC_CONSTANTS = {
    "shogiban.rules": {"FULL_MATERIAL", "SIDE_NAMES", "ILLEGAL", "LEGAL", "CHECK", "PLAYED"},
}


def _internal_name(module: str, name: str) -> bool:
    if module not in TABLE_MODULES:
        return False
    return _private(name) or (name.isupper() and name not in PUBLIC_CONSTANTS.get(module, set()))


def table_imports(tree: ast.Module) -> list[str]:
    """``line: import`` for every import of an internal module or table of the core."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {alias.name}" for alias in node.names if alias.name in INTERNAL_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            module = node.module
            for alias in node.names:
                full = f"{module}.{alias.name}"
                if module in INTERNAL_MODULES or full in INTERNAL_MODULES or _internal_name(module, alias.name):
                    found.append(f"{node.lineno}: from {module} import {alias.name}")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "shogiban"
            and _internal_name(f"shogiban.{node.value.attr}", node.attr)
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


# -- the old tuple APIs ---------------------------------------------------------------------------
#: Deprecated wrappers kept for callers outside the package; inside it, the Refusal APIs
#: (rules.check_move, Board.check_move, rules.declaration_status) are used.
OLD_APIS = {"illegal_reason", "why_illegal", "declaration_result"}


def old_api_calls(tree: ast.Module) -> list[str]:
    """``line: call`` for every call of an old tuple API (a re-export for outside callers is
    allowed: :mod:`shogiban.play.explain` keeps the name)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in OLD_APIS:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


CHECKS = {
    "private attribute": (private_accesses, PRIVATE_ACCESS_ALLOWED),
    "code arithmetic": (code_arithmetic, CODE_ARITHMETIC_ALLOWED),
    "internal table": (table_imports, TABLE_IMPORTS_ALLOWED),
}


PLANTED = '''
from shogiban.bitboard import ZONE
from shogiban.position import DEAD_END, Position
from shogiban.rules import _LINES, FULL_MATERIAL, check_move
from shogiban.rules import illegal_reason
import shogiban.position

class Reader:
    def read(self, board, code, other):
        self._cache = board._board[5]
        super()._reset()
        other._push(code)
        cls_name = type(self).__name__
        hidden = getattr(board, "_hands")
        pt, color = code & 15, code >> 4
        gote = code & 16
        piece = pt | color << 4
        flipped = piece ^ 16
        white = pt | 16
        frm, to = code >> 7 & 127, code & 0x7F
        code &= 15
        fine = 1 << 16, code >> 8, n & 1, x | 2, point._replace(x=1), os._exit(1)
        zone = shogiban.position.KIND
        words = board.illegal_reason(code), why_illegal(board, code), declaration_result(board, 0)
        return check_move(board, code)
'''


def _by_line(found: list[str]) -> list[str]:
    return sorted(found, key=lambda entry: (int(entry.split(":")[0]), entry))


def test_the_checks_catch_what_they_are_for() -> None:
    tree = ast.parse(PLANTED)
    assert _by_line(private_accesses(tree)) == [
        "10: board._board", "12: other._push", "14: getattr(board, '_hands')"
    ]
    assert _by_line(code_arithmetic(tree)) == [
        "15: code & 15", "15: code >> 4", "16: code & 16", "17: color << 4", "18: piece ^ 16", "19: pt | 16",
        "20: code & 127", "20: code >> 7", "20: code >> 7 & 127", "21: code &= 15",
    ]
    assert _by_line(table_imports(tree)) == [
        "2: from shogiban.bitboard import ZONE",
        "3: from shogiban.position import DEAD_END",
        "4: from shogiban.rules import _LINES",
        "23: shogiban.position.KIND",
    ]
    assert _by_line(old_api_calls(tree)) == _by_line([
        "24: board.illegal_reason(code)",
        "24: why_illegal(board, code)",
        "24: declaration_result(board, 0)",
    ])


def test_the_scan_reads_this_checkout() -> None:
    assert (PACKAGE / "rules.py").is_file()
    assert PACKAGE.parent.parent == Path(__file__).resolve().parents[1]


def _offenders(check_name: str) -> dict[str, list[str]]:
    check, allowed = CHECKS[check_name]
    offenders = {}
    for rel, tree in _modules():
        if _is_core(rel) or rel in allowed:
            continue
        found = check(tree)
        if found:
            offenders[rel] = found
    return offenders


def test_only_the_core_reads_private_attributes() -> None:
    assert _offenders("private attribute") == {}, "use a public accessor of the object instead"


def test_only_the_core_takes_piece_and_move_codes_apart() -> None:
    assert _offenders("code arithmetic") == {}, (
        "use shogiban.pieces (piece_type, piece_color, piece_code), Move's properties or shogiban.move's "
        "move_code / drop_code / code_parts"
    )


def test_only_the_core_imports_its_tables() -> None:
    assert _offenders("internal table") == {}, "ask the board or the rules (a public function) instead"


def test_nothing_inside_calls_the_old_tuple_apis() -> None:
    offenders = {}
    for rel, tree in _modules():
        if rel in OLD_API_CALLS_ALLOWED:
            continue
        found = old_api_calls(tree)
        if found:
            offenders[rel] = found
    assert offenders == {}, "use the Refusal APIs: check_move, declaration_status"


def test_the_allowances_are_still_needed() -> None:
    trees = dict(_modules())
    for check, allowed in [*CHECKS.values(), (old_api_calls, OLD_API_CALLS_ALLOWED)]:
        for rel in allowed:
            assert check(trees[rel]), f"{rel} no longer needs its allowance: remove it"


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
