"""Helpers for the kifu tests: comparable snapshots of game trees."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shogiban.kifu import Game, GameNode, ResultKind
from shogiban.kifu.encoding import encode

#: Records in the shared corpus that are broken, and the line each reports first.
BROKEN = {
    # Two consecutive moves numbered 5 (the second is really move 6).
    "kif/json-kifu-format/fork-test.kif": 18,
    # +8855KA: the bishop's diagonal is blocked by the knight that went to 7g.
    "csa/ShogiBoardQ/test_various_pieces.csa": 14,
    # P*5e: sente holds a bishop, not a pawn, after 8h2b+ 3a2b.
    "misc/ShogiBoardQ/test_drops.usi": 1,
}
RECORD_SUFFIXES = (".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".jkf", ".usi", ".usen", ".sfen")


def corpus_files(shared: Path) -> list[Path]:
    """Every record of the shared corpus folders the task names (and misc)."""
    folders = ("kif", "ki2", "csa", "jkf", "multi_format", "misc")
    return sorted(
        p for folder in folders for p in (shared / folder).rglob("*") if p.suffix in RECORD_SUFFIXES
    )


# Result kinds that a format cannot tell apart collapse to the same termination.
_LOSSY_KIF = {ResultKind.MAX_MOVES: ResultKind.IMPASSE, ResultKind.DECLARE_DRAW: ResultKind.IMPASSE,
              ResultKind.ERROR: ResultKind.ABORT}


def result_key(node: GameNode, fmt: str) -> Any:
    """What of a result survives in *fmt*."""
    result = node.result
    assert result is not None
    kind = result.kind
    if fmt in ("kif", "kifu", "ki2", "ki2u", "jkf", "csa"):
        kind = _LOSSY_KIF.get(kind, kind) if fmt != "csa" and fmt != "jkf" else kind
        if fmt in ("ki2", "ki2u") and kind is ResultKind.CHECKMATE:
            return ("checkmate", result.winner)
        return (kind.value, result.winner, result.illegal_move)
    return (kind.value, result.winner)


def snapshot(
    game: Game,
    fmt: str = "kif",
    *,
    variations: bool = True,
    comments: bool = True,
    times: str | None = "full",
    bookmarks: bool = True,
    results: bool = True,
) -> Any:
    """A nested, comparable picture of the tree: what *fmt* can hold."""

    def node_key(node: GameNode) -> Any:
        if node.result is not None:
            what: Any = result_key(node, fmt) if results else "result"
        else:
            what = node.move.usi() if node.move is not None else "start"
        key: list[Any] = [what]
        if comments:
            key.append(cp932_safe(node.comment) if fmt in ("kif", "ki2", "csa") else node.comment)
        if times == "full":
            key.append((None if node.elapsed is None else int(node.elapsed), _total(node)))
        elif times == "elapsed":
            key.append(node.elapsed)
        elif times == "whole":
            key.append(None if node.elapsed is None else int(node.elapsed))
        if bookmarks:
            key.append(node.bookmark)
        children = node.variations if variations else node.variations[:1]
        if not results:
            children = [c for c in children if c.result is None]
        return (tuple(key), tuple(node_key(c) for c in children))

    return node_key(game.root)


def cp932_safe(text: str) -> str:
    """*text* as it comes back from a CP932 file (characters CP932 lacks become '?')."""
    return encode(text, "cp932").decode("cp932")


def _total(node: GameNode) -> int | None:
    if node.total is not None:
        return int(node.total)
    return None


def mainline(game: Game) -> list[str]:
    """USI moves of the main line."""
    return [m.usi() for m in game.mainline_moves()]


def random_game(seed: int, plies: int = 60, variations: int = 8, nested: bool = True) -> Game:
    """A legal game of random moves with alternatives (nested ones when *nested*), comments,
    times, a bookmark and results: everything a record can hold, made here (MIT, no corpus)."""
    import random

    from shogiban import Board

    rng = random.Random(seed)
    game = Game()
    board = Board()
    node: GameNode = game.root
    line: list[GameNode] = [node]
    for ply in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        node = node.add_variation(move, elapsed=rng.randint(0, 90))
        if ply % 7 == 3:
            node.comment = f"コメント {ply}\n二行目"
        board.push(move)
        line.append(node)
    line[len(line) // 2].bookmark = "しおり"
    if not board.legal_moves.count():
        node.add_result("詰み")
    else:
        node.add_result("投了")
    bases = line[:-1]
    for _ in range(variations):
        base = rng.choice(bases)
        vboard = base.board()
        taken = {child.move for child in base.variations}
        choices = [m for m in vboard.legal_moves if m not in taken]
        if not choices or base.result is not None:
            continue
        child = base.add_variation(rng.choice(choices))
        vboard.push(child.move)  # type: ignore[arg-type]
        deeper = child
        for _ in range(rng.randint(1, 6)):
            moves = list(vboard.legal_moves)
            if not moves:
                break
            deeper = deeper.add_variation(rng.choice(moves))
            vboard.push(deeper.move)  # type: ignore[arg-type]
            if nested:
                bases.append(deeper)
        if rng.random() < 0.5:
            deeper.add_result("中断")
    return game


def move_tree(game: Game) -> Any:
    """The tree of moves and result kinds, as nested tuples (what every variation format holds)."""

    def key(node: GameNode) -> Any:
        what = node.move.usi() if node.move is not None else (node.result.kind.value if node.result else "start")
        return (what, tuple(key(child) for child in node.variations))

    return key(game.root)
