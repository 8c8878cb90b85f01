"""KI2 records (柿木形式, relative notation): ``.ki2`` in Shift_JIS, ``.ki2u`` in UTF-8.

KIF headers and BOD, then moves in JSA notation (``▲７六歩    △３四歩``), several per line, with
``*`` comments, ``&`` bookmarks and ``変化：N手`` variations.  KI2 has no special moves: the result
is read from (and written as) the ``まで…`` line, e.g. ``まで25手で中断``.  Moves are read and
written with :mod:`shogiban.notation.japanese`, which resolves 右 左 直 上 引 寄 against the legal
moves of the real position.

>>> game = read_ki2("手合割：平手\\n▲７六歩    △３四歩\\nまで2手で後手の勝ち\\n")
>>> [m.usi() for m in game.mainline_moves()], game.outcome().winner
(['7g7f', '3c3d'], <Color.WHITE: 1>)
"""

from __future__ import annotations

import re
from pathlib import Path

from shogiban.board import Board
from shogiban.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from shogiban.kifu.builder import stated_result
from shogiban.kifu.comments import result_comment
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.kakinoki import (
    KakinokiReader,
    KakinokiWriter,
    comment_lines,
    header_block,
    made_line,
    parse_made_line,
    previous_to,
    text_width,
)
from shogiban.kifu.losses import Loss, add_loss, feature_losses, result_kept
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadLimits
from shogiban.notation.excerpt import excerpt
from shogiban.notation.japanese import make_ki2_move, resolve_japanese

_MOVE_SPLIT = re.compile(r"[▲△☗☖▽][^▲△☗☖▽]*")
_SPACES = " \t\u3000\r\n"
_PER_LINE = 6


def read_ki2(source: str | bytes | Path, *, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS) -> Game:
    """Read a KI2 record (text, bytes in CP932 or UTF-8, or a :class:`~pathlib.Path`).

    :raises KifuParseError: on the first problem when *strict*; otherwise problems are in
        ``game.errors``.
    :raises KifuLimitError: if the record exceeds *limits*.
    """
    return _Ki2Reader.read(source, strict=strict, limits=limits)


class _Ki2Reader(KakinokiReader):
    """KI2 lines: moves in relative notation, several to a line; the ``まで…`` line is the result."""

    def move_line(self, s: str, lineno: int, line: str) -> bool:
        if s[0] not in "▲△☗☖▽":
            return False
        if not self.in_moves:
            self.start_moves()
        if not self.skip_line:
            self.moves(s, lineno, line)
        return True

    def moves(self, s: str, lineno: int, line: str) -> None:
        assert self.tracker is not None
        builder = self.builder
        for token in _MOVE_SPLIT.findall(s):
            text = token.strip(_SPACES)
            try:
                # The move the text names, legal or not: the builder keeps an illegal one as a foul.
                move = resolve_japanese(builder.board, text, previous_to=previous_to(builder.node))
            except (IllegalMoveError, InvalidMoveError, AmbiguousMoveError) as error:
                self.skip_rest(f"cannot read move {excerpt(text)}: {error}", lineno, line)
                return
            node = builder.move(move, lineno, line, text=text)
            if node is None:
                self.skip_line = True
                return
            self.tracker.add(node)
            if node.result is not None:
                self.skip_line = True
                return

    def made(self, s: str, lineno: int, line: str) -> None:
        # KI2 has no special moves: this line is the result, even after a move it could not read.
        if not self.in_moves:
            self.start_moves()
        builder = self.builder
        if builder.ended:
            return
        stated = parse_made_line(s, builder.board.turn)
        if stated is None:
            self.error(f"cannot read summary line {excerpt(s)}", lineno, line)
            return
        self.add_stated_result(stated, lineno, line)


# -- writing ------------------------------------------------------------------------------------


def write_ki2(game: Game, *, encoding: str | None = None, losses: list[Loss] | None = None) -> str:
    """*game* as KI2 text: moves in relative notation, comments, variations, and the result as
    a ``まで…`` line.  An illegal move is written into the result's comment.

    :param losses: a list to report what KI2 cannot hold to (times, results its ``まで`` line
        cannot state); see :mod:`shogiban.kifu.losses`.
    """
    del encoding  # KI2 files carry no encoding line
    out = header_block(game, losses=losses, fmt="ki2")
    out.extend(comment_lines(game.root.comment, game.root.bookmark))
    writer = _Ki2Writer(game, out)
    writer.write_lines()
    feature_losses(game, "ki2", losses, times=True)
    add_loss(losses, "result", writer.lost_results, "the ki2 まで line cannot state it")
    return "\n".join(out) + "\n"


class _Ki2Writer(KakinokiWriter):
    def __init__(self, game: Game, out: list[str]) -> None:
        super().__init__(game, out)
        self.row: list[str] = []
        self.lost_results = 0

    def flush(self) -> None:
        if self.row:
            self.out.append("".join(self.row).rstrip())
            self.row.clear()

    def start_line(self, first: GameNode, ply: int) -> None:
        self.row.clear()

    def write_node(self, node: GameNode, ply: int, board: Board) -> None:
        parent = node.parent
        assert parent is not None
        if node.move is not None:
            text = make_ki2_move(board, node.move, previous_to=previous_to(parent))
            self.row.append(text + " " * max(1, 12 - text_width(text)))
            if len(self.row) >= _PER_LINE or node.comment or node.bookmark:
                self.flush()
            self.out.extend(comment_lines(node.comment, node.bookmark))
        else:
            assert node.result is not None
            self.flush()
            moves = ply + self.start_number - 2
            made = made_line(node.result, moves, board.turn, self.labels, ki2=True)
            stated = parse_made_line(made, board.turn)
            if stated is None or not result_kept(node.result, stated_result(*stated, board.turn)):
                self.lost_results += 1
            self.out.append(made)
            self.out.extend(comment_lines(result_comment(node, board)))

    def end_line(self, last: GameNode, ply: int, board: Board) -> None:
        self.flush()
        self.out.append("")


__all__ = ["read_ki2", "write_ki2"]
