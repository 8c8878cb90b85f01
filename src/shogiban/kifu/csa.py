"""CSA standard record files, V2.2 and V3.0 (``.csa``).

Reads V2, V2.1, V2.2 and V3.0: the ``'CSA encoding=`` line, ``N+``/``N-`` players, ``$KEY:``
information, start positions as ``PI`` (with removed pieces), ``P1``..``P9`` rows (fixed-width or
single-spaced) or piece by piece ``P+``/``P-`` with ``00AL``, ``,``-joined statements, integer or
decimal ``T`` times, ``'*`` comments (``'**`` engine lines are kept as comments starting with
``*``) and every ``%`` special move.  Several games separated by ``/`` are read by
:func:`read_csa_games`.  Lines may end in CRLF, LF or CR alone.

Writes V2.2 (Shift_JIS, integer times) by default, or V3.0 (UTF-8, decimal times).

>>> game = read_csa("PI\\n+\\n+7776FU\\nT3\\n-3334FU\\n%TORYO\\n")
>>> [m.usi() for m in game.mainline_moves()], game.outcome().winner
(['7g7f', '3c3d'], <Color.WHITE: 1>)
"""

from __future__ import annotations

import re
from pathlib import Path

from shogiban.errors import InvalidSfenError
from shogiban.handicaps import handicap_of_sfen
from shogiban.kifu.builder import GameBuilder
from shogiban.kifu.comments import restore_illegal_moves, result_comment
from shogiban.kifu.encoding import read_text
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.headers import CSA_TO_KIF, KIF_TO_CSA
from shogiban.kifu.losses import Loss, add_loss, feature_losses, result_kept
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadBudget, ReadLimits, too_large
from shogiban.kifu.results import csa_token, make_result
from shogiban.kifu.timecontrol import time_header_pairs
from shogiban.kifu.timefmt import format_seconds_csa
from shogiban.move import drop_code, move_code
from shogiban.notation.csa_move import CSA_PIECE_NAMES, CSA_PIECE_TYPES, make_csa_move
from shogiban.notation.excerpt import excerpt
from shogiban.notation.safetext import one_line, text_lines
from shogiban.pieces import PieceType, code_of, is_gote, type_of, unpromote
from shogiban.sfen import make_sfen, parse_sfen
from shogiban.squares import make_square

#: CSA two-letter piece names indexed by piece type (1..14), and back (int-keyed for speed).
CSA_PIECES: tuple[str, ...] = ("", *(CSA_PIECE_NAMES[PieceType(pt)] for pt in range(1, 15)))
PIECE_OF_CSA: dict[str, int] = {name: int(pt) for name, pt in CSA_PIECE_TYPES.items()}
#: How many of each unpromoted type a full set has (kings apart).
_FULL_SET = {1: 18, 2: 4, 3: 4, 4: 4, 5: 2, 6: 2, 7: 4, 8: 2}

_SQUARES = {f"{f}{r}": make_square(f, r) for f in range(1, 10) for r in range(1, 10)}
_CELL_RE = re.compile(r"[+-][A-Z]{2}|\*")
_PLACE_RE = re.compile(r"(\d)(\d)([A-Z]{2})")
_TIME_RE = re.compile(r"T\s*([0-9]{1,9}(?:\.[0-9]{0,9})?)$")
_VERSION_RE = re.compile(r"V[0-9]{1,9}(\.[0-9]{1,9})?")


class _Setup:
    """A start position being assembled from P lines."""

    def __init__(self) -> None:
        self.board: list[int] = [0] * 81
        self.hands: list[list[int]] = [[0] * 8, [0] * 8]
        self.used = False
        self.al: list[int] = []

    def initial(self) -> None:
        start = parse_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
        self.board = start.board
        self.used = True

    def counts(self) -> dict[int, int]:
        found = dict.fromkeys(_FULL_SET, 0)
        for piece in self.board:
            if piece:
                found[unpromote(type_of(piece))] += 1
        for hand in self.hands:
            for pt in range(1, 8):
                found[pt] += hand[pt]
        return found

    def sfen(self, turn: int) -> str:
        for color in self.al:
            counts = self.counts()
            for pt in range(1, 8):
                self.hands[color][pt] += max(0, _FULL_SET[pt] - counts[pt])
        return make_sfen(self.board, turn, self.hands, 1)


def read_csa(source: str | bytes | Path, *, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS) -> Game:
    """Read the first game of a CSA record (text, bytes or a :class:`~pathlib.Path`).

    :raises KifuParseError: on the first problem when *strict*; otherwise problems are in
        ``game.errors``.
    :raises KifuLimitError: if the record exceeds *limits*.
    """
    games = read_csa_games(source, strict=strict, limit=1, limits=limits)
    return games[0]


def read_csa_games(
    source: str | bytes | Path, *, strict: bool = False, limit: int | None = None, limits: ReadLimits = DEFAULT_LIMITS
) -> list[Game]:
    """Read every game of a CSA file (games separated by a ``/`` line); *limits* bound the
    whole file.

    :raises KifuParseError: on the first problem when *strict*.
    :raises KifuLimitError: if the file exceeds *limits*.
    """
    text, _ = read_text(source, limits)
    budget = ReadBudget(limits)
    reader = _CsaReader(strict, budget)
    games: list[Game] = []
    longest = limits.max_line
    for lineno, raw in enumerate(text.splitlines(), 1):
        if len(raw) > longest:
            raise too_large("characters in a line", "max_line", longest, lineno)
        line = raw.strip()
        if line == "/":
            if reader.touched:  # an empty section between separators is no game
                games.append(reader.finish())
                if limit is not None and len(games) >= limit:
                    return games
                reader = _CsaReader(strict, budget)
            continue
        reader.line(line, lineno, raw)
    if not games or reader.touched:
        games.append(reader.finish())
    return games


# The nine piece codes of board rows read before (only rows read without a problem).
_ROWS: dict[str, list[int]] = {}


def _fixed_width_cells(row: str) -> list[str] | None:
    """The nine cells of a board row as CSA writes it (three characters each, `` * `` empty; the
    last one's trailing space may be stripped), or None for any other layout."""
    if not 26 <= len(row) <= 27:
        return None
    row = row.ljust(27)
    cells = [row[i:i + 3] for i in range(0, 27, 3)]
    for cell in cells:
        if cell != " * " and (cell[0] not in "+-" or cell[1:] not in PIECE_OF_CSA):
            return None
    return [cell if cell != " * " else "*" for cell in cells]


def _unescape_note(text: str) -> str:
    """``$NOTE`` escapes: ``\\n`` is a line break, ``\\\\`` a backslash."""
    out = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in "n\\":
            out.append("\n" if text[i + 1] == "n" else "\\")
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


class _CsaReader:
    def __init__(self, strict: bool, budget: ReadBudget) -> None:
        self.builder = GameBuilder(strict=strict, budget=budget)
        self.headers = self.builder.game.headers
        self.setup = _Setup()
        self.started = False  # the side-to-move line (or the first move) was seen
        self.broken = False  # a move could not be read: later moves of this game are skipped
        self.touched = False

    def error(self, message: str, lineno: int, line: str) -> None:
        self.builder.error(message, lineno, line)

    def line(self, line: str, lineno: int, raw: str) -> None:
        if not line:
            return
        self.touched = True
        if line[0] == "'":
            self.comment(raw.lstrip().rstrip("\r\n"), lineno, raw)  # trailing spaces are comment text
            return
        if "," in line:
            parts = line.split(",")
            for i, part in enumerate(parts):
                part = part.strip()
                if part.startswith("'"):
                    self.comment(",".join(parts[i:]).strip(), lineno, raw)
                    return
                if part:
                    self.statement(part, lineno, raw)
            return
        self.statement(line, lineno, raw)

    def comment(self, line: str, lineno: int, raw: str) -> None:
        if line.startswith("'*"):
            if not self.started:
                self.start(lineno, raw, implicit=True, quiet=True)
            self.builder.comment(line[2:])

    def statement(self, s: str, lineno: int, raw: str) -> None:
        c = s[0]
        if c in "+-":
            if len(s) == 1:
                self.start(lineno, raw, turn=0 if c == "+" else 1)
                return
            self.move(s, lineno, raw)
        elif c == "T":
            self.time(s, lineno, raw)
        elif c == "%":
            if not self.started:
                self.start(lineno, raw, implicit=True)
            if self.broken:
                return
            self.builder.result(s, lineno, raw)
        elif c == "P" and not self.started:
            self.position(s, lineno, raw)
        elif c == "N" and len(s) >= 2 and s[1] in "+-":
            self.headers.add("先手" if s[1] == "+" else "後手", s[2:])
        elif c == "$":
            key, sep, value = s[1:].partition(":")
            if not sep:
                self.error(f"information line {excerpt(s)} has no ':'", lineno, raw)
                return
            if key == "NOTE":
                value = _unescape_note(value)
            self.headers.add(CSA_TO_KIF.get(key, "$" + key), value)
        elif c == "V":
            if not _VERSION_RE.fullmatch(s):
                self.error(f"unknown version line {excerpt(s)}", lineno, raw)
        else:
            self.error(f"unknown line {excerpt(s)}", lineno, raw)

    # -- start position -------------------------------------------------------------------

    def position(self, s: str, lineno: int, raw: str) -> None:
        setup = self.setup
        kind = s[1:2]
        if kind == "I":
            setup.initial()
            rest = s[2:]
            if len(rest) % 4:
                self.error(f"PI line {excerpt(s)} is not a list of squares and pieces", lineno, raw)
            for i in range(0, len(rest) - 3, 4):
                m = _PLACE_RE.fullmatch(rest[i:i + 4])
                sq = self._square(m.group(1), m.group(2)) if m else None
                if m is None or sq is None or not setup.board[sq] or CSA_PIECES[type_of(setup.board[sq])] != m.group(3):
                    self.error(f"PI line {excerpt(s)}: cannot remove {excerpt(rest[i:i + 4])}", lineno, raw)
                    continue
                setup.board[sq] = 0
        elif kind.isdigit() and kind != "0":
            rank = int(kind)
            row = s[2:]
            known = _ROWS.get(row)
            if known is not None:  # most files start from the same rows
                setup.used = True
                setup.board[(rank - 1) * 9:rank * 9] = known
                return
            cells = _fixed_width_cells(row)
            if cells is None:
                cells = _CELL_RE.findall(s[2:])
                if len(cells) != 9 or _CELL_RE.sub("", s[2:]).strip():
                    self.error(f"board row {excerpt(s)} does not have 9 squares", lineno, raw)
                    return
            setup.used = True
            clean = True
            for i, cell in enumerate(cells):
                sq = (rank - 1) * 9 + i
                if cell == "*":
                    setup.board[sq] = 0
                    continue
                pt = PIECE_OF_CSA.get(cell[1:])
                if pt is None:
                    self.error(f"board row {excerpt(s)}: unknown piece {excerpt(cell)}", lineno, raw)
                    clean = False
                    continue
                setup.board[sq] = pt | (0 if cell[0] == "+" else 16)
            if clean and len(_ROWS) < 4096:
                _ROWS[row] = setup.board[(rank - 1) * 9:rank * 9]
        elif kind in ("+", "-"):
            color = 0 if kind == "+" else 1
            rest = s[2:]
            setup.used = True
            if len(rest) % 4:
                self.error(f"piece line {excerpt(s)} is not a list of squares and pieces", lineno, raw)
            for i in range(0, len(rest) - 3, 4):
                chunk = rest[i:i + 4]
                if chunk == "00AL":
                    setup.al.append(color)
                    continue
                m = _PLACE_RE.fullmatch(chunk)
                pt = PIECE_OF_CSA.get(m.group(3)) if m else None
                if m is None or pt is None:
                    self.error(f"piece line {excerpt(s)}: cannot read {excerpt(chunk)}", lineno, raw)
                    continue
                if m.group(1) == "0" and m.group(2) == "0":
                    if not 1 <= pt <= 7:
                        self.error(f"piece line {excerpt(s)}: {excerpt(chunk)} cannot be held in hand", lineno, raw)
                        continue
                    setup.hands[color][pt] += 1
                    continue
                sq = self._square(m.group(1), m.group(2))
                if sq is None:
                    self.error(f"piece line {excerpt(s)}: bad square in {excerpt(chunk)}", lineno, raw)
                    continue
                setup.board[sq] = code_of(pt, color)
        else:
            self.error(f"unknown position line {excerpt(s)}", lineno, raw)

    @staticmethod
    def _square(file: str, rank: str) -> int | None:
        f, r = int(file), int(rank)
        return make_square(f, r) if 1 <= f <= 9 and 1 <= r <= 9 else None

    def start(self, lineno: int, raw: str, *, turn: int = 0, implicit: bool = False, quiet: bool = False) -> None:
        if self.started:
            if not implicit:
                self.error(f"side to move {excerpt(raw.strip())} after the start of the moves", lineno, raw)
            return
        self.started = True
        setup = self.setup
        if not setup.used:
            setup.initial()
        if implicit and not quiet:
            self.error("the side to move ('+' or '-') is missing; sente assumed", lineno, raw)
        sfen = setup.sfen(turn)
        try:
            # Tsume positions break game rules on purpose (nine pawns on a file, no king), so
            # only positions even a lenient board refuses are problems.
            self.builder.setup(sfen)
        except InvalidSfenError as error:
            self.error(f"impossible start position: {error}", lineno, raw)
            self.broken = True
            return
        handicap = handicap_of_sfen(sfen)
        if handicap is not None and not handicap.is_even:
            self.headers.rename("先手", "下手")
            self.headers.rename("後手", "上手")

    # -- moves ----------------------------------------------------------------------------

    def move(self, s: str, lineno: int, raw: str) -> None:
        if not self.started:
            self.start(lineno, raw, turn=0 if s[0] == "+" else 1, implicit=True)
        if self.broken:
            return
        code = self.decode(s, lineno, raw)
        if code is None:
            self.broken = True
            return
        self.builder.move(code, lineno, raw, text=s)

    def decode(self, s: str, lineno: int, raw: str) -> int | None:
        board = self.builder.board
        if len(s) != 7 or not s[1:5].isdigit():
            self.error(f"cannot read move {excerpt(s)}", lineno, raw)
            return None
        if (s[0] == "-") != (board.side_to_move == 1):
            if self.builder.ended:
                self.builder.move(0, lineno, raw, text=s)  # reports "after the end"
                return None
            side = "gote" if board.side_to_move else "sente"
            self.error(f"move {excerpt(s)} by the wrong side ({side} to move)", lineno, raw)
            return None
        to = _SQUARES.get(s[3:5])
        pt = PIECE_OF_CSA.get(s[5:7])
        if pt is None or to is None:
            self.error(f"cannot read move {excerpt(s)}", lineno, raw)
            return None
        origin = s[1:3]
        if origin == "00":
            if not 1 <= pt <= 7:
                self.error(f"cannot drop {excerpt(s[5:7])} in {excerpt(s)}", lineno, raw)
                return None
            return drop_code(to, pt)
        frm = _SQUARES.get(origin)
        if frm is None or frm == to:
            self.error(f"cannot read move {excerpt(s)}", lineno, raw)
            return None
        before = type_of(board.piece_codes[frm])
        if before == pt or not before:
            return move_code(frm, to)
        if before + 8 == pt and before <= 6:
            return move_code(frm, to, True)
        self.error(f"move {excerpt(s)}: the piece on {origin} is {CSA_PIECES[before]}, not {s[5:7]}", lineno, raw)
        return None

    def time(self, s: str, lineno: int, raw: str) -> None:
        m = _TIME_RE.match(s)
        if m is None:
            self.error(f"cannot read time {excerpt(s)}", lineno, raw)
            return
        node = self.builder.node
        if node.parent is None:
            if not self.broken:
                self.error(f"time {excerpt(s)} before the first move", lineno, raw)
            return
        seconds = float(m.group(1))
        node.elapsed = int(seconds) if seconds.is_integer() else seconds

    def finish(self) -> Game:
        if not self.started and not self.broken:
            self.start(0, "", implicit=True, quiet=True)
        game = self.builder.finish()
        restore_illegal_moves(game)
        return game


# -- writing ------------------------------------------------------------------------------------


def write_csa(game: Game, *, version: str = "2.2", losses: list[Loss] | None = None) -> str:
    """The main line of *game* as CSA text (V2.2 by default, or ``version="3.0"``).

    V2.2 files are meant to be saved in Shift_JIS (see :func:`csa_encoding`); V3.0 starts with
    ``'CSA encoding=UTF-8``.

    :param losses: a list to report what CSA cannot hold to (variations, bookmarks, fractions of
        seconds in V2.2, results it has no token for); see :mod:`shogiban.kifu.losses`.
    """
    if version not in ("2.2", "3.0"):
        raise ValueError(f"unsupported CSA version: {version!r} (use '2.2' or '3.0')")
    v3 = version == "3.0"
    out: list[str] = []
    if v3:
        out.append("'CSA encoding=UTF-8")
    out.append(f"V{version}")
    headers = game.headers
    black, white = game.black, game.white
    if black is not None:
        out.append(f"N+{_one_line(black)}")
    if white is not None:
        out.append(f"N-{_one_line(white)}")
    others: list[str] = []
    pairs, time_lost = time_header_pairs(headers, "csa" + version)
    add_loss(losses, "time_control", int(time_lost is not None), time_lost or "")
    for key, value in pairs:
        if key in ("先手", "後手", "下手", "上手", "手合割"):
            continue
        csa_key = KIF_TO_CSA.get(key) or (key[1:] if key.startswith("$") else None)
        if csa_key is not None and not _CSA_KEY.fullmatch(csa_key):
            csa_key = None  # "$A:B" or "$A,+7776FU" would read back as another line
        csa_value = _csa_info(csa_key, value) if csa_key is not None else None
        if csa_key is not None and csa_value is not None:
            out.append(f"${csa_key}:{csa_value}")
        else:
            # No CSA field holds it: keep it for people as a comment line (never one a reader
            # takes for a move comment, "'*").
            line = f"{one_line(key)}：{one_line(value)}"
            others.append("' " + line if line.startswith("*") else "'" + line)
    out.extend(others)
    out.extend(csa_position(game.start_sfen))
    _comment_lines(out, game.root.comment)
    board = game.start_board()
    node: GameNode = game.root
    while node.variations:
        node = node.variations[0]
        if node.move is not None:
            out.append(make_csa_move(board, node.move))
            board.push(node.move)
            if node.elapsed is not None:
                out.append("T" + format_seconds_csa(node.elapsed, v3))
            _comment_lines(out, node.comment)
        elif node.result is not None:
            token = csa_token(node.result, board.turn, version=version)
            out.append("%" + token)
            if node.elapsed is not None:
                out.append("T" + format_seconds_csa(node.elapsed, v3))
            _comment_lines(out, result_comment(node, board))
            lost = not result_kept(node.result, make_result(token, board.turn))
            add_loss(losses, "result", int(lost), f"csa {version} has no token for it")
    feature_losses(game, "csa", losses, variations=True, bookmarks=True, time_fractions=not v3)
    return "\n".join(out) + "\n"


_DATE = re.compile(
    r"\s*(\d{4})/(\d{1,2})/(\d{1,2})(?:\s*[(（].[)）])?(?:\s*(\d{1,2})[:：](\d{1,2})(?:[:：](\d{1,2}))?)?"
)
_CSA_DATE = re.compile(r"\d{4}/\d{2}/\d{2}( \d{2}:\d{2}:\d{2})?$")


def _csa_info(key: str, value: str) -> str | None:
    """*value* in the form CSA readers expect for ``$key``, or None when it has none."""
    if key in ("START_TIME", "END_TIME") and not _CSA_DATE.match(value):
        m = _DATE.match(value)
        if m is None:
            return None
        date = f"{int(m.group(1)):04d}/{int(m.group(2)):02d}/{int(m.group(3)):02d}"
        if m.group(4) is None:
            return date
        return f"{date} {int(m.group(4)):02d}:{int(m.group(5)):02d}:{int(m.group(6) or 0):02d}"
    if key == "TIME_LIMIT" and not re.fullmatch(r"\d+:\d{2}\+\d+", value):
        return None  # a time control that cannot be read (time_header_pairs wrote any other)
    if key == "NOTE":
        return _one_line("\n".join(text_lines(value)).replace("\\", "\\\\").replace("\n", "\\n"))
    return _one_line(value)


def csa_encoding(version: str = "2.2") -> str:
    """The file encoding of a CSA *version*: ``'cp932'`` for V2.2, ``'utf-8'`` for V3.0."""
    return "utf-8" if version.startswith("3") else "cp932"


_CSA_KEY = re.compile(r"[A-Za-z0-9_]+")


def _one_line(text: str) -> str:
    """*text* for the rest of an ``N+``, ``N-`` or ``$KEY:`` line: one line without control
    characters (:func:`~shogiban.notation.safetext.one_line`), and no ``,``, which joins statements
    on one line (``N+x,+7776FU`` is a name and a move); a full-width comma takes its place."""
    return one_line(text).replace(",", "，")


def _comment_lines(out: list[str], comment: str) -> None:
    """``'*`` lines for *comment*: one for each of its lines, whatever line break ends it,
    without control characters."""
    if comment:
        lines = text_lines(comment)
        if any(lines):
            out.extend("'*" + line for line in lines)


def csa_position(sfen: str) -> list[str]:
    """``P1``..``P9`` rows, ``P+``/``P-`` hands and the side-to-move line for *sfen*."""
    parts = parse_sfen(sfen)
    lines = []
    for rank in range(9):
        cells = [
            ("-" if is_gote(piece) else "+") + CSA_PIECES[type_of(piece)] if piece else " * "
            for piece in parts.board[rank * 9:rank * 9 + 9]
        ]
        lines.append(f"P{rank + 1}" + "".join(cells))
    for color, sign in ((0, "+"), (1, "-")):
        held = "".join("00" + CSA_PIECES[pt] for pt in (6, 5, 7, 4, 3, 2, 1) for _ in range(parts.hands[color][pt]))
        if held:
            lines.append(f"P{sign}{held}")
    lines.append("-" if parts.turn else "+")
    return lines


__all__ = ["csa_encoding", "csa_position", "read_csa", "read_csa_games", "write_csa"]
