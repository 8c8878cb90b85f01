"""What KIF and KI2 (the Kakinoki formats) share: header lines, the start position (手合割 or a
BOD diagram), comments, bookmarks, ``変化：N手`` variations and the ``まで…`` summary line, and
the reader and writer machinery around them (:class:`KakinokiReader`, :class:`KakinokiWriter`):
each format adds only its move lines and its own use of the ``まで…`` line.

Variations follow the de-facto rule (SPECS §b.5): ``変化：N手`` starts an alternative to move N of
the most recently read line that has a move N.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path

from shogiban.board import Board
from shogiban.errors import KifuParseError
from shogiban.handicaps import find_handicap, handicap_of_sfen
from shogiban.kifu.builder import GameBuilder
from shogiban.kifu.comments import restore_illegal_moves
from shogiban.kifu.encoding import read_text
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.headers import PLAYER_KEYS, Headers
from shogiban.kifu.lines import LineTracker
from shogiban.kifu.losses import Loss, add_loss
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadLimits, too_large
from shogiban.kifu.results import Result, ResultKind
from shogiban.kifu.timecontrol import time_header_pairs
from shogiban.kifu.walk import LineWalk, Step
from shogiban.notation.bod import make_bod, parse_bod
from shogiban.notation.excerpt import excerpt
from shogiban.notation.safetext import one_line, text_lines
from shogiban.pieces import Color
from shogiban.sfen import STARTING_SFEN

# No two neighbouring parts of a pattern here can match the same characters, and none ends in a
# lazy group before optional spaces: each match is linear in the line (a move line followed by
# 600 spaces once took 30 s).  Numbers that become ints have at most 9 digits.
VARIATION_RE = re.compile(r"\s*変化\s*[：:]\s*(\d{1,9})\s*手目?\s*$")
MADE_RE = re.compile(r"\s*まで[、,]?\s*(\d+)\s*手\s*(?:で|にて)?(.*)$")
_BOD_START = ("後手の持駒", "先手の持駒", "上手の持駒", "下手の持駒")
_BOD_TURN = ("後手番", "先手番", "上手番", "下手番")
_SIDE_OF_LABEL = {"先手": Color.BLACK, "下手": Color.BLACK, "▲": Color.BLACK, "☗": Color.BLACK,
                  "後手": Color.WHITE, "上手": Color.WHITE, "△": Color.WHITE, "☖": Color.WHITE}
# Words of a まで line, in the order they are looked for: first those whose result needs no side
# (the winner is derived from the word), later those that name who won (True) or lost (False).
_MADE_UNDECIDED = ("千日手", "持将棋", "中断", "不詰", "封じ手")
_MADE_DECIDED = (("反則勝ち", True), ("反則負け", False), ("入玉勝ち", True), ("不戦勝", True), ("不戦敗", False))
# Results a written まで line states by naming a side: the words after the name, and whether the
# side named is the loser.
_MADE_NAMED = {
    ResultKind.RESIGN: ("の勝ち", False),
    ResultKind.DECLARE_WIN: ("の入玉勝ち", False),
    ResultKind.WIN_BY_DEFAULT: ("の不戦勝", False),
    ResultKind.LOSS_BY_DEFAULT: ("の不戦敗", True),
}
#: Handicaps that programs define differently: written with a BOD as well as their name.
AMBIGUOUS_HANDICAPS = frozenset({"三枚落ち", "五枚落ち", "左五枚落ち", "左七枚落ち", "右七枚落ち"})
_SPACES = " \t\u3000"
#: What surrounds the text of a line: spaces (ASCII, full-width, tab) and line ends.
LINE_SPACES = _SPACES + "\r\n"


def is_bod_line(line: str) -> bool:
    """Whether *line* belongs to a BOD diagram."""
    s = line.strip(_SPACES)
    return (
        s.startswith(("|", "｜", "+-", "＋", "手数＝", "手数="))
        or s.startswith(_BOD_START)
        or s in _BOD_TURN
        or (s.startswith("９") and s.replace(" ", "").replace("\u3000", "") == "９８７６５４３２１")
    )


def header_pair(line: str) -> tuple[str, str] | None:
    """``(key, value)`` of a ``key：value`` header line, or None.  Kifu for Windows writes line
    breaks inside a value (備考) as ``\\n``; they come back as line breaks (not in a player's
    name, which is one line)."""
    s = line.strip(_SPACES)
    at = min((i for i in (s.find("："), s.find(":")) if i >= 0), default=-1)
    if at <= 0 or s[0].isspace():
        return None
    key = s[:at].strip(_SPACES)
    if not key or key[0].isspace():
        return None
    value = s[at + 1:].strip(_SPACES + "\r\n")
    # A player's name is one line (header_value): its "\\n" is text.
    return key, value if key in PLAYER_KEYS else value.replace("\\n", "\n")


def set_start_position(
    builder: GameBuilder, headers: Headers, bod: Sequence[tuple[int, str]], first_number: int | None
) -> int:
    """Set the builder's start position from the BOD lines (preferred) or the 手合割 header and
    return the SFEN move number the moves start at."""
    sfen = STARTING_SFEN
    if bod:
        try:
            board = parse_bod([line for _, line in bod], lenient=True, first_lineno=bod[0][0])
            sfen = board.sfen()
        except KifuParseError as error:
            builder.error(str(error), error.lineno, error.line)
    else:
        name = headers.get("手合割", "").strip(_SPACES)
        if name and name not in ("その他", "詰将棋"):
            try:
                sfen = find_handicap(name).sfen
            except ValueError:
                builder.error(
                    f"unknown handicap {excerpt(name)} (手合割) without a board diagram; the even start is used"
                )
    number = int(sfen.split()[3])
    if first_number is not None and first_number != number and number == 1:
        number = first_number
    fields = sfen.split()
    builder.setup(" ".join([*fields[:3], str(number)]))
    return number


def parse_made_line(line: str, turn: Color) -> tuple[str, Color | bool | None] | None:
    """The result a ``まで…`` summary line states, as ``(word, winner)`` for
    :meth:`GameBuilder.result` (winner ``False`` = derive it), or None if it states none.
    *turn* is the side to move after the moves."""
    m = MADE_RE.match(line)
    if m is None:
        return None
    rest = m.group(2).strip()
    named: Color | None = None
    side = re.search(r"(先手|後手|下手|上手|▲|△|☗|☖)", rest)
    if side:
        named = _SIDE_OF_LABEL[side.group(1)]
    for word in _MADE_UNDECIDED:
        if word in rest:
            return word, False
    if "時間切れ" in rest or "切れ負け" in rest:
        return "切れ負け", named if "勝ち" in rest else (named.other if named is not None else False)
    for word, named_wins in _MADE_DECIDED:
        if word in rest:
            if named is None:
                return word, False
            return word, named if named_wins else named.other
    if "詰" in rest:
        return "詰み", turn.other
    if "勝ち" in rest and named is not None:
        return "投了", named
    return None


def side_labels(game: Game) -> tuple[str, str]:
    """``("先手", "後手")``, or ``("下手", "上手")`` for a handicap game."""
    h = handicap_of_sfen(game.start_sfen)
    handicap = (h is not None and not h.is_even) or "下手" in game.headers or "上手" in game.headers
    return ("下手", "上手") if handicap else ("先手", "後手")


def made_line(result: Result, moves: int, turn: Color, labels: tuple[str, str], *, ki2: bool = False) -> str:
    """The ``まで…`` summary of a line that ends with *result* after *moves* moves, *turn* to move.

    Checkmate is written ``…の勝ち`` in KIF (whose 詰み line keeps the kind, and readers such as
    cshogi take the winner from this line) and ``詰み`` in KI2, where this line is the result."""
    head = f"まで{moves}手で"

    def name(color: Color | None) -> str:
        return labels[0] if color == Color.BLACK else labels[1]

    kind, winner = result.kind, result.winner
    named = _MADE_NAMED.get(kind)
    if named is not None and winner is not None:
        after, names_loser = named
        return f"{head}{name(winner.other if names_loser else winner)}{after}"
    if kind is ResultKind.TIME_UP and winner is not None:
        return f"{head}時間切れにより{name(winner)}の勝ち"
    if kind in (ResultKind.ILLEGAL, ResultKind.PERPETUAL_CHECK) and winner is not None:
        if winner == turn:
            return f"{head}{name(winner)}の反則勝ち"
        return f"{head}{name(winner.other)}の反則負け"
    if kind is ResultKind.CHECKMATE:
        # "…の勝ち" is what other readers understand; the position shows it was mate.
        return f"{head}{name(winner)}の勝ち" if winner is not None and not ki2 else f"{head}詰み"
    words = {
        ResultKind.ABORT: "中断",
        ResultKind.REPETITION: "千日手",
        ResultKind.PERPETUAL_CHECK: "千日手",
        ResultKind.IMPASSE: "持将棋",
        ResultKind.DECLARE_DRAW: "持将棋",
        ResultKind.MAX_MOVES: "持将棋",
        ResultKind.NO_MATE: "不詰",
        ResultKind.ERROR: "中断",
        ResultKind.ILLEGAL: "中断",
    }
    return head + words.get(kind, one_line(result.word).lstrip("%") or "中断")


def previous_to(node: GameNode) -> int:
    """The square the move that led to *node* went to (what ``同`` refers to), -1 after no move."""
    move = node.move
    return move.to_square if move is not None else -1


def header_key(key: str) -> str | None:
    """*key* as the key of a header line (without control characters), or None when no line
    could hold it: a line that starts like a move, a comment, a bookmark, a diagram, a variation
    or the summary line would be read as one (a key ``"1"`` or ``"▲５八玉"``), and a colon would
    end the key early."""
    key = one_line(key).strip(_SPACES)
    if not key or "：" in key or ":" in key or key[0] in "0123456789#*&▲△☗☖▽" or is_bod_line(key + "："):
        return None
    if key.startswith(("変化", "まで", "手数-", "手数－")) or header_pair(key + "：") is None:
        return None
    return key


def header_value(key: str, value: str) -> str:
    """*value* as the value of the header line of *key*, without control characters: a player's
    name on one line (line breaks become spaces), any other value with its lines joined by
    ``\\n`` (what Kifu for Windows writes for a line break in 備考, and :func:`header_pair`
    reads back)."""
    if key in PLAYER_KEYS:
        return one_line(value)
    return "\\n".join(text_lines(value))


def header_block(
    game: Game, *, encoding_line: str | None = None, losses: list[Loss] | None = None, fmt: str = "kif"
) -> list[str]:
    """Header lines and, when the start position needs one, the BOD diagram (KIF and KI2).

    A standard handicap is named by 手合割; any other start position (and 三/五/七枚落ち) is a BOD
    diagram, with no 手合割 line unless the record had one for a position no handicap has
    (python-shogi refuses ``手合割：その他``).  Keys and values go through :func:`header_key`
    and :func:`header_value`; a header whose key no line can hold is left out (reported to
    *losses*)."""
    out: list[str] = []
    if encoding_line:
        out.append(encoding_line)
    sfen = game.start_sfen
    fields = sfen.split()
    handicap = handicap_of_sfen(sfen)
    needs_bod = handicap is None or handicap.japanese in AMBIGUOUS_HANDICAPS or fields[3] != "1"
    pairs, time_lost = time_header_pairs(game.headers, "kif")
    add_loss(losses, "time_control", int(time_lost is not None), (time_lost or "").replace("kif", fmt, 1))
    if handicap is not None:
        # 三/五/七枚落ち mean different positions to different programs (and older ones lack the
        # 七枚落ち names): the diagram alone says which.
        name = "" if handicap.japanese in AMBIGUOUS_HANDICAPS else handicap.japanese
        pairs = [(k, name if k == "手合割" else v) for k, v in pairs]
    if not any(k == "手合割" for k, _ in pairs):
        # Kifu for Windows writes 手合割 (and the diagram) before the players.
        at = next((i for i, (k, _) in enumerate(pairs) if k in ("先手", "後手", "下手", "上手")), len(pairs))
        pairs.insert(at, ("手合割", handicap.japanese if handicap is not None and not needs_bod else ""))
    labels = side_labels(game)
    unwritable = 0
    for key, value in pairs:
        if key in ("先手", "下手", "後手", "上手"):
            key = labels[0] if key in ("先手", "下手") else labels[1]
        if key != "手合割" or value:
            safe = header_key(key)
            if safe is None:
                unwritable += 1
            else:
                out.append(f"{safe}：{header_value(safe, value)}")
        if key == "手合割" and needs_bod:
            board = Board(sfen, lenient=True)
            number = int(fields[3]) - 1
            bod = make_bod(board, move_number=number if number > 0 else None, names=labels)
            out.extend(bod.rstrip("\n").split("\n"))
    add_loss(losses, "headers", unwritable, f"{fmt} has no header line for their keys")
    return out


def comment_lines(comment: str, bookmark: str | None = None) -> list[str]:
    """``*`` lines for a comment (one for each of its lines, whatever line break ends it, without
    control characters: no line of a comment can become a move or a header), then the ``&``
    line of a bookmark."""
    lines = text_lines(comment) if comment else []
    lines = ["*" + line for line in lines] if any(lines) else []
    if bookmark:
        mark = one_line(bookmark).strip()
        if mark:
            lines.append("&" + mark)
    return lines


def text_width(text: str) -> int:
    """Columns *text* takes in a fixed-width font: ASCII and half-width kana one, the rest two."""
    return sum(1 if ord(ch) < 0x80 or 0xFF61 <= ord(ch) <= 0xFF9F else 2 for ch in text)


class KakinokiWriter(ABC):
    """What the KIF and KI2 writers share: the output lines, move numbering, the side labels
    and the ``変化：N手`` blocks, written deepest first (:class:`~shogiban.kifu.walk.LineWalk`)."""

    def __init__(self, game: Game, out: list[str]) -> None:
        self.game = game
        self.out = out
        self.start_number = int(game.start_sfen.split()[3])
        self.labels = side_labels(game)

    def write_lines(self) -> None:
        """Write the main line, then every variation under its ``変化：N手`` heading."""
        walk = LineWalk(self.game)
        main = True
        for step, ply, node in walk.steps():
            if step is Step.LINE:
                if not main:
                    self.out.append(f"変化：{ply + self.start_number - 1}手")
                main = False
                self.start_line(node, ply)
            elif step is Step.NODE:
                self.write_node(node, ply, walk.board)
            else:
                self.end_line(node, ply, walk.board)
        if main:
            self.out.append("")  # no moves

    @abstractmethod
    def start_line(self, first: GameNode, ply: int) -> None:
        """A line starts with *first*, at *ply*."""

    @abstractmethod
    def write_node(self, node: GameNode, ply: int, board: Board) -> None:
        """Write *node* (a move or a result at *ply*; *board* is the position before it)."""

    @abstractmethod
    def end_line(self, last: GameNode, ply: int, board: Board) -> None:
        """The line ended with *last* (at *ply*; *board* is the position after it)."""


# -- reading ------------------------------------------------------------------------------------


class KakinokiReader(ABC):
    """Reads a KIF or KI2 record line by line into a :class:`GameBuilder`.

    Handles what both formats write the same way: ``#`` lines, ``*`` comments, ``&`` bookmarks,
    header lines, the BOD diagram, the ``手数----指手--`` heading and ``変化：N手`` variations.
    A subclass reads its move lines (:meth:`move_line`) and the ``まで…`` line (:meth:`made`).
    """

    #: Whether the ``手数----指手--`` heading starts the moves (KIF); KI2 moves start at the
    #: first move line, and the heading is skipped.
    HEADING_STARTS_MOVES = False

    def __init__(self, strict: bool, limits: ReadLimits = DEFAULT_LIMITS) -> None:
        self.builder = GameBuilder(strict=strict, limits=limits)
        self.headers = self.builder.game.headers
        self.bod: list[tuple[int, str]] = []
        self.in_moves = False
        self.tracker: LineTracker | None = None
        self.skip_line = False  # after a bad move, the rest of its line (until 変化) is skipped

    @classmethod
    def read(cls, source: str | bytes | Path, *, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS) -> Game:
        """Read a whole record (text, bytes in CP932 or UTF-8, or a path)."""
        text, _ = read_text(source, limits)
        reader = cls(strict, limits)
        feed = reader.line
        longest = limits.max_line
        for lineno, line in enumerate(text.splitlines(), 1):
            if len(line) > longest:
                raise too_large("characters in a line", "max_line", longest, lineno)
            feed(line, lineno)
        return reader.finish()

    def error(self, message: str, lineno: int, line: str) -> None:
        """Record (or, when strict, raise) a problem on *line*."""
        self.builder.error(message, lineno, line)

    def skip_rest(self, message: str, lineno: int, line: str) -> None:
        """Report *message* and skip the rest of the line of play being read, up to the next
        ``変化`` (its later moves would be read in a wrong position)."""
        self.error(message, lineno, line)
        self.skip_line = True

    def start_moves(self, first_number: int | None = None) -> None:
        """The header is over: set the start position; *first_number* is the first move line's
        number (KIF), which a start position without its own move number takes."""
        self.in_moves = True
        number = set_start_position(self.builder, self.headers, self.bod, first_number)
        self.tracker = LineTracker(self.builder.game.root, number)

    def line(self, line: str, lineno: int) -> None:
        """Read one line of the record."""
        s = line.strip(LINE_SPACES)
        if not s:
            return
        if self.move_line(s, lineno, line):
            return  # tried first: most lines are move lines, and none starts like the others
        c = s[0]
        if c == "#":
            return
        if c == "*":
            if not self.skip_line:
                # Everything after the '*' is the comment, trailing spaces included.
                self.builder.comment(line.lstrip(_SPACES)[1:].rstrip("\r\n"))
            return
        if c == "&":
            if not self.skip_line:
                self.builder.node.bookmark = s[1:].strip()
            return
        if not self.in_moves and is_bod_line(s):
            self.bod.append((lineno, line))
            return
        if s.startswith("変化"):
            self.variation(s, lineno, line)
            return
        if s.startswith("まで"):
            self.made(s, lineno, line)
            return
        if s.startswith(("手数-", "手数－")):
            if self.HEADING_STARTS_MOVES and not self.in_moves:
                self.start_moves()
            return
        pair = header_pair(s)
        if pair is not None:
            self.headers.add(*pair)
            return
        self.error(f"cannot read line {excerpt(s)}", lineno, line)

    @abstractmethod
    def move_line(self, s: str, lineno: int, line: str) -> bool:
        """Read *line* (stripped: *s*) if it is a move line of the format; whether it was."""

    @abstractmethod
    def made(self, s: str, lineno: int, line: str) -> None:
        """Read a ``まで…`` summary line."""

    def add_stated_result(self, stated: tuple[str, Color | bool | None], lineno: int, line: str) -> None:
        """End the current line with the result a ``まで…`` line states (:func:`parse_made_line`)."""
        word, winner = stated
        node = self.builder.result(word, lineno, line, winner=winner)
        if node is not None and self.tracker is not None:
            self.tracker.add(node)

    def variation(self, s: str, lineno: int, line: str) -> None:
        """A ``変化：N手`` line: continue from the line read so far that has move N."""
        m = VARIATION_RE.match(s)
        if m is None:
            self.error(f"cannot read variation line {excerpt(s)}", lineno, line)
            return
        if not self.in_moves:
            return  # some writers put 変化 lines in the header; nothing to branch from yet
        assert self.tracker is not None
        base = self.tracker.branch(int(m.group(1)))
        if base is None:
            self.skip_rest(f"variation at move {m.group(1)}: no line read so far has that move", lineno, line)
            return
        self.skip_line = False
        self.builder.goto(base)

    def finish(self) -> Game:
        """The game read (an illegal move a writer put in a comment is restored)."""
        if not self.in_moves:
            self.start_moves()
        game = self.builder.finish()
        restore_illegal_moves(game)
        return game
