"""A BOD board diagram (局面図) on its own as a record: a start position without moves.

>>> game = read_bod(write_bod(Game("4k4/9/9/9/9/9/9/9/4K4 w R18p 1")))
>>> game.start_sfen
'4k4/9/9/9/9/9/9/9/4K4 w R18p 1'
"""

from __future__ import annotations

from pathlib import Path

from shogiban.errors import KifuParseError
from shogiban.kifu.builder import GameBuilder
from shogiban.kifu.encoding import read_text
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.kakinoki import header_pair, is_bod_line
from shogiban.kifu.losses import Loss, add_loss, feature_losses
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadLimits, too_large
from shogiban.notation.bod import make_bod, parse_bod


def read_bod(source: str | bytes | Path, *, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS) -> Game:
    """Read a BOD diagram (with optional ``key：value`` headers) as a game without moves.

    :raises KifuParseError: on the first problem when *strict*.
    :raises KifuLimitError: if the record exceeds *limits*.
    """
    text, _ = read_text(source, limits)
    builder = GameBuilder(strict=strict, limits=limits)
    lines = text.splitlines()
    for lineno, raw in enumerate(lines, 1):
        if len(raw) > limits.max_line:
            raise too_large("characters in a line", "max_line", limits.max_line, lineno)
        s = raw.strip(" \t\u3000")
        if s and not is_bod_line(s) and s[0] not in "#*&":
            pair = header_pair(s)
            if pair is not None and not s.startswith("手数"):
                builder.game.headers.add(*pair)
    try:
        board = parse_bod(lines, lenient=True)
    except KifuParseError as error:
        builder.error(str(error), error.lineno, error.line)
        return builder.finish()
    builder.setup(board.sfen())
    for raw in lines:
        s = raw.strip()
        if s.startswith("*"):
            builder.comment(s[1:])
    return builder.finish()


def write_bod(game: Game, *, ply: int | None = None, losses: list[Loss] | None = None) -> str:
    """The BOD diagram of the main line's final position (or after *ply* moves), with the last
    move in its ``手数＝`` footer.

    :param losses: a list to report what a diagram cannot hold to (the moves, variations,
        comments, times, bookmarks, headers and result); see :mod:`shogiban.kifu.losses`.
    """
    node = mainline_node(game, ply)
    position_losses(game, "bod", losses)
    board = node.board()
    labels = ("下手", "上手") if "下手" in game.headers or "上手" in game.headers else ("先手", "後手")
    if node.move is not None:
        return make_bod(board, last_move=node.move, names=labels)
    return make_bod(board, names=labels)


def position_losses(game: Game, fmt: str, losses: list[Loss] | None) -> None:
    """Report to *losses* what a picture of one position (*fmt*: BOD, SVG) leaves out of *game*."""
    feature_losses(
        game, fmt, losses, moves=True, variations=True, comments=True, times=True, bookmarks=True, headers=True
    )
    add_loss(losses, "result", int(game.result is not None), f"{fmt} holds one position, not the result")


def mainline_node(game: Game, ply: int | None = None) -> GameNode:
    """The main line's node after *ply* moves (default: after its last move; a result is no move).

    :raises ValueError: if *ply* is negative or more than the main line has.
    """
    nodes = [n for n in game.mainline() if n.move is not None]
    if ply is not None:
        if not 0 <= ply <= len(nodes):
            raise KifuParseError(f"invalid ply: {ply!r} (the main line has {len(nodes)} moves)")
        nodes = nodes[:ply]
    return nodes[-1] if nodes else game.root
