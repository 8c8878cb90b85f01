"""``shogiban solve``: solve tsume (mate problems) given as SFEN, a file of SFENs or a game record.

Prints, per problem, the mate line in USI and in Japanese, its length, whether it is unique (and
the alternative moves if not), the nodes searched and the time.  Exit status 0 when every problem
got an answer (a mate or "no mate"), 3 when some timed out or hit the node budget.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from shogiban.board import Board
from shogiban.commands._options import float_in, int_in
from shogiban.errors import IllegalMoveError, InvalidSfenError, ShogibanError
from shogiban.tsume import TsumeResult, complete_defender_hand, solve

#: The bounds of ``--timeout`` (one day) and ``--max-nodes``.
MAX_TIMEOUT = 86_400.0
MAX_NODES = 10**10
#: The largest problem file read (bytes): some 40,000 SFEN lines, or a record.
MAX_FILE_BYTES = 4_000_000

_SFEN_LINE = re.compile(r"^(?:position\s+)?(?:sfen\s+)?(\S+/\S+\s+[bw]\s+\S+(?:\s+\d+)?)(?:\s+moves\s+(.*))?$")


def add_parser(sub: Any) -> None:
    """Register the command."""
    p = sub.add_parser(
        "solve",
        help="solve tsume (mate problems): shortest mate, its line, uniqueness",
        description=(
            "Solve mate problems by continuous checks under the tsume conventions (futile "
            "interpositions do not count). PROBLEM is an SFEN, a file of SFENs (one per line) or "
            "a game record (KIF/KI2/CSA/... with a BOD diagram) whose start position is solved."
        ),
    )
    p.add_argument("problem", metavar="SFEN|FILE", help="an SFEN, a file of SFENs, or a record file")
    p.add_argument("--timeout", type=float_in(0.0, MAX_TIMEOUT, low_open=True), default=None, metavar="S",
                   help=f"seconds per problem (above 0, at most {MAX_TIMEOUT:g}; default: none)")
    p.add_argument("--max-nodes", type=int_in(1, MAX_NODES), default=None, metavar="N",
                   help=f"node budget per problem (1..{MAX_NODES})")
    p.add_argument(
        "--complete-hand",
        action="store_true",
        help="give the defender every piece not on the board or in the attacker's hand",
    )
    p.add_argument(
        "--no-conventions",
        action="store_true",
        help="plain game-rule mate search: every interposition counts",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Solve every problem and print the results."""
    if args.timeout is not None and args.timeout <= 0:
        raise ShogibanError(f"invalid timeout: {args.timeout!r} (must be positive)")
    if args.max_nodes is not None and args.max_nodes <= 0:
        raise ShogibanError(f"invalid node budget: {args.max_nodes!r} (must be positive)")
    problems = load_problems(args.problem)
    conclusive = True
    for index, (label, board) in enumerate(problems):
        if args.complete_hand:
            board = complete_defender_hand(board)
        result = solve(
            board, timeout=args.timeout, max_nodes=args.max_nodes, conventions=not args.no_conventions
        )
        if index:
            print()
        print_result(label, board, result, sys.stdout)
        conclusive &= result.status in ("mate", "nomate")
    return 0 if conclusive else 3


def _board_from_sfen_line(line: str, where: str) -> Board:
    match = _SFEN_LINE.match(line.strip())
    if not match:
        raise InvalidSfenError(f"invalid problem {line.strip()!r}{where}: expected an SFEN")
    board = _lenient_board(match.group(1), where)
    for usi in (match.group(2) or "").split():
        try:
            board.push_usi(usi)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"{error}{where}", error.code) from None
    return board.copy(stack=False)


def _lenient_board(sfen: str, where: str) -> Board:
    """Problems may break the rules of a real game (two pawns on a file), so read leniently."""
    try:
        return Board(sfen, lenient=True)
    except InvalidSfenError as error:
        raise InvalidSfenError(f"{error}{where}") from None


def load_problems(problem: str) -> list[tuple[str, Board]]:
    """``(label, board)`` for an SFEN argument, a file of SFENs or a game record file (whose
    recorded moves, the composer's solution, are appended to the label).

    :raises ShogibanError: if the text is neither, or a line or record cannot be read.
    """
    path = Path(problem)
    if not _SFEN_LINE.match(problem.strip()) and os.path.lexists(path):
        return _load_file(path)  # refuses what is not a regular file, before reading anything
    if "/" not in problem and not path.exists():
        raise ShogibanError(f"invalid problem: {problem!r} is neither an SFEN nor an existing file")
    return [(problem.strip(), _board_from_sfen_line(problem, ""))]


def _load_file(path: Path) -> list[tuple[str, Board]]:
    from shogiban.kifu.encoding import read_input_file

    data = read_input_file(path, MAX_FILE_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = ""
    lines = [line.strip() for line in text.splitlines()]
    content = [line for line in lines if line and not line.startswith("#")]
    if content and all(_SFEN_LINE.match(line) for line in content):
        out = []
        for lineno, line in enumerate(lines, 1):
            if line and not line.startswith("#"):
                out.append((f"{path.name}:{lineno}", _board_from_sfen_line(line, f" at {path.name}:{lineno}")))
        return out
    from shogiban.kifu import read_game
    from shogiban.kifu.detect import detect_format
    from shogiban.kifu.encoding import decode

    text = decode(data)
    game = read_game(text, format=detect_format(text, path.name))
    recorded = " ".join(move.usi() for move in game.mainline_moves())
    label = f"{path.name} (recorded: {recorded})" if recorded else path.name
    return [(label, game.start_board().copy(stack=False))]


def _japanese(board: Board, result: TsumeResult) -> str | None:
    try:
        from shogiban.notation.japanese import make_ki2_move
    except ImportError:  # pragma: no cover - the notation module ships with shogiban
        return None
    probe = board.copy(stack=False)
    words = []
    previous: int | None = None
    for move in result.moves:
        words.append(make_ki2_move(probe, move, previous_to=previous))
        previous = move.to_square
        probe.push(move)
    return " ".join(words)


def print_result(label: str, board: Board, result: TsumeResult, out: TextIO) -> None:
    """Write one problem's result in the command's plain-text layout."""
    print(f"problem: {label}", file=out)
    if label != board.sfen():
        print(f"sfen: {board.sfen()}", file=out)
    if result.status == "mate":
        print(f"mate in {result.length}: {result.usi()}", file=out)
        japanese = _japanese(board, result)
        if japanese:
            print(f"japanese: {japanese}", file=out)
        if result.unique is None:
            print("unique: not checked (out of time)", file=out)
        elif result.unique:
            print("unique: yes", file=out)
        else:
            listed = ", ".join(str(alt) for alt in result.alternatives)
            print(f"unique: no (余詰: {listed})", file=out)
    elif result.status == "nomate":
        print("no mate", file=out)
    elif result.status == "timeout":
        print("timeout: no answer in time", file=out)
    else:
        print("unknown: the node budget ran out", file=out)
    print(f"nodes: {result.nodes}  time: {result.time:.3f} s", file=out)
