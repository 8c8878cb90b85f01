"""USEN: the compact URL-safe record of Playshogi (mogproject) and ShogiBoardQ (``.usen``).

``[position]~0.<moves>.<end>[~<offset>.<moves>.<end>...]``: the position is an SFEN without the
move number with ``/`` as ``_``, spaces as ``.`` and ``+`` as ``z`` (empty for the even start);
each move is three base-36 digits of ``(from * 81 + to) * 2 + promotion`` with squares numbered
``(rank - 1) * 9 + (file - 1)`` and drops coming "from" ``81 + piece`` (金 9, 歩 10, 香 11,
桂 12, 銀 13, 角 14, 飛 15); the end is ``r`` (resign), ``t`` (time up), ``p`` (pause), ``j``
(jishogi / declaration), ``i<move>`` (illegal move) or empty.  Each ``~`` part after the first is
a variation starting after ``offset`` moves of the main line.

ShogiBoardQ writes ``p`` or ``j`` for a game that ended in 千日手; the final position tells
a repetition apart, so such records read as 千日手.

>>> game = read_usen("~0.7ku2jm.r")
>>> [m.usi() for m in game.mainline_moves()], game.result.kind.name
(['7g7f', '3c3d'], 'RESIGN')
"""

from __future__ import annotations

from pathlib import Path

from shogiban.errors import InvalidSfenError
from shogiban.kifu.builder import GameBuilder
from shogiban.kifu.encoding import read_text
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.lines import LineTracker
from shogiban.kifu.losses import Loss, add_loss, feature_losses
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadLimits
from shogiban.kifu.results import ResultKind
from shogiban.kifu.walk import LineWalk
from shogiban.move import Move
from shogiban.notation.excerpt import excerpt
from shogiban.sfen import STARTING_SFEN

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_DIGIT_VALUE = {c: i for i, c in enumerate(_DIGITS)}
#: USEN drop codes by piece type (PAWN=1 .. GOLD=7) and back.
_DROP_CODE = {1: 10, 2: 11, 3: 12, 4: 13, 5: 14, 6: 15, 7: 9}
_DROP_TYPE = {v: k for k, v in _DROP_CODE.items()}
_END_WORDS = {"r": "投了", "t": "切れ負け", "p": "中断", "j": "持将棋", "i": "反則負け"}
_END_OF_KIND = {
    ResultKind.RESIGN: "r",
    ResultKind.TIME_UP: "t",
    ResultKind.ABORT: "p",
    ResultKind.REPETITION: "p",
    ResultKind.PERPETUAL_CHECK: "p",
    ResultKind.IMPASSE: "j",
    ResultKind.DECLARE_WIN: "j",
    ResultKind.DECLARE_DRAW: "j",
    ResultKind.MAX_MOVES: "j",
}


def _usen_square(sq: int) -> int:
    # Our squares count file 9 first in each rank; USEN counts file 1 first.
    return sq // 9 * 9 + (8 - sq % 9)


def encode_move(move: Move) -> str:
    """The three base-36 characters of *move*."""
    to = _usen_square(move.to_square)
    frm = 81 + _DROP_CODE[move.drop] if move.drop is not None else _usen_square(move.from_square)  # type: ignore[arg-type]
    value = (frm * 81 + to) * 2 + (1 if move.promotion else 0)
    return _DIGITS[value // 1296] + _DIGITS[value // 36 % 36] + _DIGITS[value % 36]


def decode_move(text: str) -> Move | None:
    """The move of three base-36 characters, or None if they encode none."""
    return _DECODED.get(text)


def _decode(value: int) -> Move | None:
    promotion = value & 1
    frm, to = divmod(value >> 1, 81)
    to_sq = _usen_square(to)
    if frm >= 81:
        pt = _DROP_TYPE.get(frm - 81)
        if pt is None or promotion:
            return None
        return Move(to_square=to_sq, drop=pt)
    if frm == to or frm >= 81:
        return None
    return Move(from_square=_usen_square(frm), to_square=to_sq, promotion=bool(promotion))


def _decoded_table() -> dict[str, Move]:
    """Every three-character text that encodes a move, and the move (one lookup per move)."""
    table = {}
    for value in range((81 + 16) * 81 * 2):
        move = _decode(value)
        if move is not None:
            table[_DIGITS[value // 1296] + _DIGITS[value // 36 % 36] + _DIGITS[value % 36]] = move
    return table


_DECODED = _decoded_table()


def read_usen(source: str | bytes | Path, *, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS) -> Game:
    """Read a USEN record (main line and variations).

    A section ``~N.`` after the first is a variation replacing move N + 1 of the most recently
    read section that has one (tsshogi's rule, the same as KIF's ``変化：N手``), so variations of
    variations read back; for variations of the main line alone it is Playshogi's rule too.

    :raises KifuParseError: on the first problem when *strict*.
    :raises KifuLimitError: if the record exceeds *limits*.
    """
    text, _ = read_text(source, limits)
    builder = GameBuilder(strict=strict, limits=limits)
    line = next((s for s in (raw.strip() for raw in text.splitlines()) if s), "")
    if not line:
        builder.error("empty USEN record")
        return builder.finish()
    if line.startswith("usen:"):
        line = line[5:]
    parts = line.split("~")
    if len(parts) < 2:
        builder.error(f"not a USEN record (no '~'): {excerpt(line)}", 1, line)
        return builder.finish()
    sfen = STARTING_SFEN
    if parts[0]:
        sfen = parts[0].replace("_", "/").replace(".", " ").replace("z", "+") + " 1"
    try:
        builder.setup(sfen)
    except InvalidSfenError as error:
        builder.error(f"bad USEN position: {error}", 1, line)
        return builder.finish()
    tracker = LineTracker(builder.game.root)
    for index, part in enumerate(parts[1:]):
        fields = part.split(".")
        if len(fields) == 2:
            fields.append("")  # ShogiBoardQ leaves out an empty end
        if len(fields) != 3 or not fields[0].isascii() or not fields[0].isdigit() or len(fields[0]) > 9:
            builder.error(f"USEN section {excerpt(part)} is not 'offset.moves.end'", 1, line)
            continue
        offset = int(fields[0])
        if index == 0:
            if offset:
                builder.error(f"the main line starts at offset {offset}, not 0", 1, line)
        else:
            base = tracker.branch_at(offset + 1)
            if base is None:
                builder.error(f"variation offset {offset}: no section read so far has move {offset + 1}", 1, line)
                continue
            builder.goto(base)
        _read_moves(builder, tracker, fields[1], fields[2], line)
    return builder.finish()


def _read_moves(builder: GameBuilder, tracker: LineTracker, moves: str, end: str, line: str) -> None:
    if len(moves) % 3:
        builder.error(f"USEN moves {excerpt(moves)} are not groups of three characters", 1, line)
    for i in range(0, len(moves) - 2, 3):
        move = decode_move(moves[i:i + 3])
        if move is None:
            builder.error(f"cannot read USEN move {excerpt(moves[i:i + 3])}", 1, line)
            return
        node = builder.move(move, 1, line, text=moves[i:i + 3])
        if node is None:
            return
        tracker.add(node)
        if builder.ended:
            return
    if not end:
        return
    if end[0] == "i" and len(end) == 4:
        move = decode_move(end[1:])
        if move is None:
            builder.error(f"cannot read the illegal move {excerpt(end)}", 1, line)
            return
        node = builder.move(move, 1, line, text=end)
        if node is not None:
            tracker.add(node)
            if node.result is not None:
                builder.result("反則負け", 1, line)  # confirms the foul
        return
    word = _END_WORDS.get(end)
    if word is None:
        builder.error(f"unknown USEN end {excerpt(end)}", 1, line)
        return
    node = builder.result(word, 1, line, if_repeated="千日手" if end in "pj" else None)
    if node is not None:
        tracker.add(node)


def write_usen(game: Game, *, losses: list[Loss] | None = None) -> str:
    """*game* as USEN: the main line, then every variation (variations of variations too) in
    the order KIF writes its 変化 blocks, deepest first, each section branching off the most
    recently written one that has its move.

    :param losses: a list to report what USEN cannot hold to (comments, times, bookmarks,
        headers, results it has no letter for); see :mod:`shogiban.kifu.losses`.
    """
    sfen = game.start_sfen
    fields = sfen.split()
    position = "" if fields[:3] == STARTING_SFEN.split()[:3] else (
        " ".join(fields[:3]).replace("/", "_").replace(" ", ".").replace("+", "z")
    )
    sections = [position]
    unwritten = 0
    for ply, nodes in LineWalk(game, positions=False).lines():
        section, lost = _section(ply - 1, nodes)
        sections.append(section)
        unwritten += lost
    if len(sections) == 1:
        sections.append("0..")
    feature_losses(game, "usen", losses, comments=True, times=True, bookmarks=True, headers=True)
    add_loss(losses, "result", unwritten, "usen has no letter for it; the line ends without a result")
    return "~".join(sections)


def _section(offset: int, nodes: list[GameNode]) -> tuple[str, int]:
    """The section of a line that starts after *offset* moves, and 1 if its result is lost."""
    moves = "".join(encode_move(n.move) for n in nodes if n.move is not None)
    end = ""
    last = nodes[-1]
    result = last.result
    if result is not None:
        if result.illegal_move is not None:
            end = "i" + encode_move(result.illegal_move)
        else:
            end = _END_OF_KIND.get(result.kind, "")
    return f"{offset}.{moves}.{end}", int(result is not None and not end)
