"""Build ``src/shogiban/lessons/puzzles.tsv`` from the MIT-licensed rows of the research corpus.

    python tools/make_puzzles.py [../shared/data/tsume/tsume.tsv] [--out src/shogiban/lessons/puzzles.tsv]

Only rows whose licence column says MIT are read (tokuhirom/tanuki-tsume-shogi); the GPL rows of
the corpus are never copied.  A row is kept when it is a possible position and shogiban's solver
finds a unique shortest mate of exactly the stated length both under the tsume conventions and by
game rules (so a learner playing it as a game meets the same length).  For each kept row the
script records:

* ``effort``: the solver's nodes under the conventions (how much searching the problem needs);
* ``rating``: a starting puzzle rating on the Glicko-2 scale, from the length and the effort
  (``700 + 140 * (length - 1) / 2 + 90 * log2(effort)``, clamped to 600..2600), documented in
  PUZZLES.md;
* ``themes``: what the solution teaches, found from the line itself: ``sacrifice`` (捨て駒: an
  attacker's piece is taken on the square it moved to), ``interposition`` (合駒: the defender
  drops a piece between), ``no_pawn_drop_mate`` (打ち歩詰め: a pawn drop that would mate is
  forbidden somewhere on the line, so another move is needed), ``no_promotion`` (不成: a move that
  could promote does not), and ``drop_first`` (the first move is a drop).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from pathlib import Path

from shogiban import Board, Move
from shogiban.errors import IllegalMoveError, ShogibanError
from shogiban.pieces import PieceType
from shogiban.tsume import check_mate_line, solve

ROOT = Path(__file__).resolve().parents[1]
HEADER = """\
# Mate problems shipped with shogiban: rows of tokuhirom/tanuki-tsume-shogi @ 09483437
# (puzzles/*.json, MIT licence, see PUZZLES.md), converted to SFEN and USI by the research corpus
# and re-checked by tools/make_puzzles.py with shogiban's solver (unique, shortest, both ways).
# id	sfen	mate_length	solution_usi	source	effort	rating	themes
"""


def rating_of(length: int, effort: int) -> int:
    """A puzzle's starting rating from its length and the solver's effort."""
    value = 700 + 140 * (length - 1) / 2 + 90 * math.log2(max(1, effort))
    return int(min(2600, max(600, round(value / 10) * 10)))


def themes_of(sfen: str, line: list[Move]) -> list[str]:
    """What the solution line teaches (see the module docstring)."""
    board = Board(sfen)
    found: set[str] = set()
    if line and line[0].drop is not None:
        found.add("drop_first")
    for ply, move in enumerate(line):
        attacker = ply % 2 == 0
        if attacker:
            if _pawn_drop_mate_forbidden(board):
                found.add("no_pawn_drop_mate")
            if not move.promotion and move.from_square is not None:
                promoted = Move(to_square=move.to_square, from_square=move.from_square, promotion=True)
                if board.is_legal(promoted):
                    found.add("no_promotion")
            reply = line[ply + 1] if ply + 1 < len(line) else None
            if reply is not None and reply.to_square == move.to_square and reply.drop is None:
                found.add("sacrifice")
        elif move.drop is not None:
            found.add("interposition")
        board.push(move)
    return sorted(found)


def _pawn_drop_mate_forbidden(board: Board) -> bool:
    """Whether the side to move could drop a pawn to check here but 打ち歩詰め forbids it."""
    if not board.hand(board.turn).get(PieceType.PAWN):
        return False
    for square in range(81):
        move = Move(to_square=square, drop=PieceType.PAWN)
        try:
            board.push_usi(move.usi())  # push_usi checks the rules, push does not
        except IllegalMoveError as error:
            if error.code == "uchifuzume":
                return True
            continue
        board.pop()
    return False


def check_row(sfen: str, length: int) -> tuple[list[Move], int] | None:
    """The solver's line and effort when the row is sound, else None."""
    board = Board(sfen)
    ruled = solve(board, timeout=60, conventions=True)
    if ruled.status != "mate" or ruled.length != length or not ruled.unique:
        return None
    by_rules = solve(board, timeout=60, conventions=False, check_unique=False)
    if by_rules.status != "mate" or by_rules.length != length:
        return None
    return list(ruled.moves), ruled.nodes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=ROOT.parent / "shared" / "data" / "tsume" / "tsume.tsv")
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "shogiban" / "lessons" / "puzzles.tsv")
    args = parser.parse_args(argv)
    rows = [r for r in csv.reader(args.corpus.read_text("utf-8").splitlines(), delimiter="\t")
            if r and not r[0].startswith("#")]
    kept: list[list[str]] = []
    dropped = {"not MIT": 0, "impossible": 0, "unsound": 0}
    started = time.monotonic()
    for index, row in enumerate(rows):
        ident, sfen, length_text, _solution, _kind, _verified, source, licence = row[:8]
        if licence.strip() != "MIT":
            dropped["not MIT"] += 1
            continue
        try:
            Board(sfen)
        except ShogibanError:
            dropped["impossible"] += 1
            continue
        length = int(length_text)
        checked = check_row(sfen, length)
        if checked is None:
            dropped["unsound"] += 1
            continue
        _line, effort = checked
        # The source's own solution is shipped (the solver's line may pick another longest reply).
        line = [Move.from_usi(usi) for usi in _solution.split()]
        if check_mate_line(Board(sfen), line) is not None:
            dropped["unsound"] += 1
            continue
        kept.append([ident, sfen, str(length), _solution, source, str(effort),
                     str(rating_of(length, effort)), ",".join(themes_of(sfen, line))])
        if index % 200 == 0:
            print(f"{index}/{len(rows)} rows, {len(kept)} kept, {time.monotonic() - started:.0f} s", file=sys.stderr)
    kept.sort(key=lambda r: (int(r[2]), int(r[6]), r[0]))
    with args.out.open("w", encoding="utf-8", newline="") as out:
        out.write(HEADER)
        for row in kept:
            out.write("\t".join(row) + "\n")
    print(f"kept {len(kept)}; dropped {dropped}; {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
