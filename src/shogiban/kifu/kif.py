"""KIF records (柿木形式): ``.kif`` in Shift_JIS (CP932), ``.kifu`` in UTF-8.

Reads what Kifu for Windows, Kifu for iPhone, ShogiGUI, 将棋所, ShogiHome, 81Dojo, lishogi and
shogidb2 write: any spacing after the move number, ``同`` with or without a space, ``不成``,
promoted pieces by any name (成銀/全, 竜/龍, 王/玉), times in every variant seen
(``( 0:16/00:00:16)``, ``(00:00 / 00:00:00)``, ``( 0:10/0:00:10)``), the ``+`` variation mark,
comments (``*``, engine lines ``**``), bookmarks (``&``), a BOD start position, ``変化：N手``
variations (also ``変化：N手目``) and every special move, with the ``まで…`` line as a fallback
result.  Moves with an origin are decoded directly; others go through
:func:`shogiban.notation.japanese.resolve_japanese` (a move that text names but the rules
forbid is kept as a 反則 result).

>>> game = read_kif("手合割：平手\\n   1 ７六歩(77)   ( 0:16/00:00:16)\\n   2 投了\\n")
>>> game.mainline_moves(), game.outcome().winner
([Move.from_usi('7g7f')], <Color.BLACK: 0>)
"""

from __future__ import annotations

import re
from pathlib import Path

from shogiban.board import Board
from shogiban.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from shogiban.kifu.comments import result_comment
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.kakinoki import (
    LINE_SPACES,
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
from shogiban.kifu.results import KIF_WORDS, kif_word, make_result
from shogiban.kifu.timefmt import format_kif_time
from shogiban.move import drop_code, move_code
from shogiban.notation.excerpt import excerpt
from shogiban.notation.japanese import make_kif_move, resolve_japanese
from shogiban.pieces import type_of

# Patterns are matched against parts of a line whose ends are already found by hand, and no two
# neighbouring parts can match the same characters, so matching is linear in the line (the old
# whole-line pattern took 30 s on a move line followed by 600 spaces).
_NUMBER = re.compile(r"[0-9]+")
_TIME = re.compile(
    r"\(\s*(?:([0-9]{1,9}):)?([0-9]{1,9}):([0-9]{1,9})(?:\.[0-9]{1,9})?\s*"
    r"(?:/\s*([0-9]{1,9}):([0-9]{1,9}):([0-9]{1,9})(?:\.[0-9]{1,9})?\s*)?\)"
)
_MOVE = (
    r"(?:([１２３４５６７８９1-9])([一二三四五六七八九])|同[ \u3000\t]*+)"
    r"(成[香桂銀]|[歩香桂銀金角飛玉王と杏圭全馬龍竜])(成|不成|生)?(?:\(([1-9])([1-9])\)|(打))"
)
_FAST_MOVE = re.compile("[▲△☗☖]?" + _MOVE)
# The common line (number, move with its origin or 打, time) in one match; the possessive
# quantifiers never give back spaces, so the optional time between them costs no backtracking.
_QUICK_LINE = re.compile(
    r"([0-9]{1,9})[ \t\u3000]++(" + _MOVE + r")[ \t\u3000]*+"
    r"(?:\([ \t]*+([0-9]{1,9}):([0-9]{1,9})[ \t]*+/[ \t]*+([0-9]{1,9}):([0-9]{1,9}):([0-9]{1,9})[ \t]*+\))?"
    r"[ \t\u3000]*+\+?[ \t\u3000]*+"
)
_MAX_NUMBER_DIGITS = 9
_FILES = {c: i + 1 for i, c in enumerate("１２３４５６７８９")} | {str(i): i for i in range(1, 10)}
_RANKS = {c: i + 1 for i, c in enumerate("一二三四五六七八九")}
_PIECES = {
    "歩": 1, "香": 2, "桂": 3, "銀": 4, "角": 5, "飛": 6, "金": 7, "玉": 8, "王": 8, "と": 9,
    "成香": 10, "杏": 10, "成桂": 11, "圭": 11, "成銀": 12, "全": 12, "馬": 13, "龍": 14, "竜": 14,
}


def read_kif(source: str | bytes | Path, *, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS) -> Game:
    """Read a KIF record (text, bytes in CP932 or UTF-8, or a :class:`~pathlib.Path`).

    :raises KifuParseError: on the first problem when *strict*; otherwise problems are in
        ``game.errors`` and everything before them is kept.
    :raises KifuLimitError: if the record exceeds *limits*.
    """
    return _KifReader.read(source, strict=strict, limits=limits)


def split_move_line(s: str) -> tuple[str, str, tuple[str | None, ...] | None] | None:
    """``(number, move text, time groups)`` of the stripped numbered line *s*, or None if it
    does not start with a number.  The time groups are ``(hours, minutes, seconds, total hours,
    total minutes, total seconds)`` of ``( 0:16/00:00:16)``, None without a time; a trailing
    ``+`` (Kifu for Windows' variation mark) is dropped."""
    m = _NUMBER.match(s)
    if m is None:
        return None
    body = s[m.end():].strip(LINE_SPACES)
    if body.endswith("+"):
        body = body[:-1].rstrip(LINE_SPACES)
    time = None
    if body.endswith(")"):
        opening = body.rfind("(")
        found = _TIME.fullmatch(body, opening) if opening > 0 else None
        if found is not None:
            time = found.groups()
            body = body[:opening].rstrip(LINE_SPACES)
    return m.group(), body, time


class _KifReader(KakinokiReader):
    """KIF lines: one numbered move (or special move) per line, with its time; the ``まで…``
    line is a fallback result."""

    HEADING_STARTS_MOVES = True

    def move_line(self, s: str, lineno: int, line: str) -> bool:
        if not "0" <= s[0] <= "9":
            return False
        quick = _QUICK_LINE.fullmatch(s) if self.in_moves and not self.skip_line else None
        if quick is not None:
            number, text, *move, em, es, th, tm, ts = quick.groups()
            elapsed = total = None
            if em is not None:
                elapsed = int(em) * 60 + int(es)
                total = int(th) * 3600 + int(tm) * 60 + int(ts)
            self.numbered_line(int(number), text, elapsed, total, lineno, line, move)
            return True
        parts = split_move_line(s)
        if parts is None:
            return False
        number, text, time = parts
        if len(number) > _MAX_NUMBER_DIGITS:
            self.skip_rest(f"move number {excerpt(number)} is too long", lineno, line)
            return True
        if not text:
            self.error(f"cannot read move line {excerpt(s)}", lineno, line)
            return True
        elapsed = total = None
        if time is not None:
            eh, em, es, th, tm, ts = time
            elapsed = int(eh or 0) * 3600 + int(em or 0) * 60 + int(es or 0)
            if th is not None:
                total = int(th) * 3600 + int(tm or 0) * 60 + int(ts or 0)
        self.numbered_line(int(number), text, elapsed, total, lineno, line)
        return True

    def numbered_line(
        self,
        number: int,
        text: str,
        elapsed: int | None,
        total: int | None,
        lineno: int,
        line: str,
        move: list[str | None] | None = None,
    ) -> None:
        """Any numbered line: a move in any notation KIF writers use, or a special move; *move*
        holds the parts of a move already matched by :data:`_MOVE`."""
        if not self.in_moves:
            self.start_moves(number)
        if self.skip_line:
            return
        tracker = self.tracker
        assert tracker is not None
        builder = self.builder
        expected = tracker.expected_number()
        if number != expected:
            self.error(f"move number {number}, expected {expected}", lineno, line)
        if move is None:
            word = text.lstrip("▲△☗☖")
            if reads_as_result(word):
                node = builder.result(word, lineno, line, elapsed=elapsed, total=total)
                if node is not None:
                    tracker.add(node)
                return
            code = self.decode(text, lineno, line)
        else:
            code = self.move_code(move, text, lineno, line)
        if code is None:
            self.skip_line = True
            return
        before = builder.node
        node = builder.move(code, lineno, line, elapsed=elapsed, total=total, text=text)
        if node is None:
            self.skip_line = True
        elif node is not before:
            tracker.add(node)

    def decode(self, text: str, lineno: int, line: str) -> int | None:
        """The move code *text* names (reported and None when it names none)."""
        m = _FAST_MOVE.fullmatch(text)
        if m is not None:
            return self.move_code(list(m.groups()), text, lineno, line)
        builder = self.builder
        try:
            # The move the text names, legal or not: the builder keeps an illegal one as a foul.
            return resolve_japanese(builder.board, text, previous_to=previous_to(builder.node)).code
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as error:
            self.error(f"cannot read move {excerpt(text)}: {error}", lineno, line)
            return None

    def move_code(self, move: list[str | None], text: str, lineno: int, line: str) -> int | None:
        """The code of the move whose parts :data:`_MOVE` matched in *text* (reported and None
        when it names none)."""
        file, rank, name, suffix, ff, fr, drop = move
        builder = self.builder
        if file is not None and rank is not None:
            to = (_RANKS[rank] - 1) * 9 + 9 - _FILES[file]
        else:
            last = builder.node
            while last.move is None and last.parent is not None and last.result is not None:
                last = last.parent
            if last.move is None:
                self.error(f"{excerpt(text)}: 同 without a previous move", lineno, line)
                return None
            to = last.move.to_square
        assert name is not None
        pt = _PIECES[name]
        if drop:
            if pt > 7:
                self.error(f"{excerpt(text)}: a {name} cannot be dropped", lineno, line)
                return None
            return drop_code(to, pt)
        assert ff is not None
        assert fr is not None
        frm = (int(fr) - 1) * 9 + 9 - int(ff)
        on_board = type_of(builder.board.piece_codes[frm])
        if on_board and on_board != pt and not builder.ended:
            self.error(f"{excerpt(text)}: the piece on {ff}{fr} is not a {name}", lineno, line)
            return None
        if frm == to:
            self.error(f"{excerpt(text)} does not move", lineno, line)
            return None
        return move_code(frm, to, suffix == "成")

    def made(self, s: str, lineno: int, line: str) -> None:
        # Only a fallback: the special move line (投了, ...) is the result when there is one.
        builder = self.builder
        if self.skip_line or not self.in_moves or builder.ended or builder.node.parent is None:
            return
        stated = parse_made_line(s, builder.board.turn)
        if stated is not None:
            self.add_stated_result(stated, lineno, line)


def reads_as_result(word: str) -> bool:
    """Whether the move text *word* of a numbered line is a special move (投了, 封じ手, ...)."""
    return word in KIF_WORDS or (not word[:1].isdigit() and word[:1] not in "１２３４５６７８９同" and _is_word(word))


def _is_word(text: str) -> bool:
    """A special-move word no list knows (封じ手, ...): short, no digits, no parentheses."""
    return len(text) <= 8 and not any(ch in text for ch in "()（）") and not any(ch.isdigit() for ch in text)


# -- writing ------------------------------------------------------------------------------------


#: The line above the moves, as every KIF writer words it.
KIF_HEADING = "手数----指手---------消費時間--"


def write_kif(
    game: Game, *, times: bool | None = None, encoding: str = "Shift_JIS", losses: list[Loss] | None = None
) -> str:
    """*game* as KIF text with its variations, comments, bookmarks and times.

    :param times: write the time column (default: when any move has a time).
    :param encoding: the encoding named in the ``#KIF`` line (``Shift_JIS`` for ``.kif``,
        ``UTF-8`` for ``.kifu``); encode the text accordingly
        (:func:`shogiban.kifu.encoding.encode` maps ☗☖ to ▲△ for CP932).
    :param losses: a list to report what KIF cannot hold to (fractions of seconds, times when
        *times* is false, results it has no word for); see :mod:`shogiban.kifu.losses`.
    """
    if times is None:
        times = any(n.elapsed is not None or n.total is not None for n in game.walk())
    out = header_block(game, encoding_line=f"#KIF version=2.0 encoding={encoding}", losses=losses)
    # The heading is the format's fixed line (Kifu for Windows and ShogiHome always write it
    # whole), whether or not the moves carry times: a game lost on time before any timed move
    # is still a game on the clock, and readers take a move line without its time either way.
    out.append(KIF_HEADING)
    out.extend(comment_lines(game.root.comment, game.root.bookmark))
    writer = _KifWriter(game, times, out)
    writer.write_lines()
    feature_losses(game, "kif", losses, times=not times, time_fractions=True)
    add_loss(losses, "result", writer.lost_results, "kif has no word for it")
    return "\n".join(out) + "\n"


class _KifWriter(KakinokiWriter):
    def __init__(self, game: Game, times: bool, out: list[str]) -> None:
        super().__init__(game, out)
        self.times = times
        self.totals = [0.0, 0.0]
        self.totals_after: dict[GameNode, tuple[float, float]] = {}  # by node, for the variations
        self.lost_results = 0

    def start_line(self, first: GameNode, ply: int) -> None:
        if self.times:
            parent = first.parent
            assert parent is not None
            self.totals = list(self.totals_after.get(parent, (0.0, 0.0)))

    def write_node(self, node: GameNode, ply: int, board: Board) -> None:
        number = ply + self.start_number - 1
        parent = node.parent
        assert parent is not None
        if node.move is not None:
            text = make_kif_move(board, node.move, previous_to=previous_to(parent))
        else:
            assert node.result is not None
            text = kif_word(node.result, board.turn)
            if not reads_as_result(text) or not result_kept(node.result, make_result(text, board.turn)):
                self.lost_results += 1
        line = f"{number:>4} {text}"
        if self.times:
            totals = self.totals
            side = (ply - 1) & 1
            elapsed = node.elapsed or 0
            totals[side] = node.total if node.total is not None else totals[side] + elapsed
            self.totals_after[node] = (totals[0], totals[1])
            line += " " * max(1, 13 - text_width(text)) + format_kif_time(elapsed, totals[side])
        # Kifu for Windows marks a move that has alternatives with a trailing "+"; it is only a
        # hint (the 変化 blocks hold the tree) and python-shogi drops lines that carry it.
        self.out.append(line)
        comment = result_comment(node, board) if node.result is not None else node.comment
        self.out.extend(comment_lines(comment, node.bookmark))

    def end_line(self, last: GameNode, ply: int, board: Board) -> None:
        if last.result is not None:
            self.out.append(made_line(last.result, ply + self.start_number - 2, board.turn, self.labels))
        self.out.append("")


__all__ = ["read_kif", "write_kif"]

