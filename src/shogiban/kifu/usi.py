"""USI ``position`` lines and SFEN position lists as game records (``.usi``, ``.sfen``).

A ``.usi`` record is one line ``position startpos moves 7g7f ...`` (``position`` and ``moves``
optional, ``sfen <SFEN>`` instead of ``startpos``), possibly ending with a result word as
ShogiBoardQ and 将棋所 write them: ``resign``, ``break``, ``rep_draw``, ``draw``, ``timeout``,
``win``, ``mate``, ``illegal``.  Several lines are several games.

A ``.sfen`` record lists the positions of a game one SFEN per line (as ShogiBoardQ saves them);
the moves are recovered from consecutive positions, and a position no legal move reaches starts
a new game.

>>> game = read_usi("position startpos moves 7g7f 3c3d resign")
>>> write_usi(game)
'position startpos moves 7g7f 3c3d'
>>> game.outcome().winner
<Color.WHITE: 1>
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from shogiban.board import Board
from shogiban.errors import InvalidSfenError
from shogiban.kifu._legality import push_if_legal
from shogiban.kifu.builder import GameBuilder
from shogiban.kifu.encoding import read_text
from shogiban.kifu.game import Game
from shogiban.kifu.losses import Loss, add_loss, feature_losses
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadBudget, ReadLimits, too_large
from shogiban.kifu.results import ResultKind
from shogiban.move import MOVES, Move, drop_code, move_code
from shogiban.notation.excerpt import excerpt
from shogiban.notation.positions import sfen_parts
from shogiban.pieces import owner_of, type_of
from shogiban.sfen import STARTING_SFEN, SfenParts, make_sfen

#: Result words after the moves, and the KIF word each stands for.
USI_RESULT_WORDS = {
    "resign": "投了",
    "break": "中断",
    "rep_draw": "千日手",
    "draw": "持将棋",
    "timeout": "切れ負け",
    "win": "入玉勝ち",
    "mate": "詰み",
    "illegal": "反則負け",
}
_WORD_OF_KIND = {
    ResultKind.RESIGN: "resign",
    ResultKind.ABORT: "break",
    ResultKind.REPETITION: "rep_draw",
    ResultKind.PERPETUAL_CHECK: "rep_draw",
    ResultKind.IMPASSE: "draw",
    ResultKind.DECLARE_DRAW: "draw",
    ResultKind.MAX_MOVES: "draw",
    ResultKind.TIME_UP: "timeout",
    ResultKind.DECLARE_WIN: "win",
    ResultKind.CHECKMATE: "mate",
    ResultKind.ILLEGAL: "illegal",
}


def read_usi(source: str | bytes | Path, *, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS) -> Game:
    """Read the first ``position`` line of a USI record.

    :raises KifuParseError: on the first problem when *strict*.
    :raises KifuLimitError: if the record exceeds *limits*.
    """
    return read_usi_games(source, strict=strict, limit=1, limits=limits)[0]


def read_usi_games(
    source: str | bytes | Path, *, strict: bool = False, limit: int | None = None, limits: ReadLimits = DEFAULT_LIMITS
) -> list[Game]:
    """Read every ``position`` line of a USI record (``#`` lines are comments).

    :raises KifuParseError: on the first problem when *strict*.
    :raises KifuLimitError: if the record exceeds *limits* (all its games together).
    """
    budget = ReadBudget(limits)
    games: list[Game] = []
    for lineno, line, raw in _record_lines(source, limits):
        games.append(_read_line(line, lineno, raw, strict, budget))
        if limit is not None and len(games) >= limit:
            break
    return games or [_no_game("no position line found", strict, budget)]


def _record_lines(source: str | bytes | Path, limits: ReadLimits) -> Iterator[tuple[int, str, str]]:
    """``(lineno, stripped line, line)`` for each line of *source* that is not blank or a
    ``#`` comment."""
    text, _ = read_text(source, limits)
    longest = limits.max_line
    for lineno, raw in enumerate(text.splitlines(), 1):
        if len(raw) > longest:
            raise too_large("characters in a line", "max_line", longest, lineno)
        line = raw.strip()
        if line and not line.startswith("#"):
            yield lineno, line, raw


def _no_game(message: str, strict: bool, budget: ReadBudget) -> Game:
    """The empty game a record without any is read as, with the problem *message*."""
    builder = GameBuilder(strict=strict, budget=budget)
    builder.error(message)
    return builder.finish()


def _read_line(line: str, lineno: int, raw: str, strict: bool, budget: ReadBudget) -> Game:
    tokens = line.split()
    if tokens and tokens[0] == "position":
        tokens = tokens[1:]
    if tokens and tokens[0] == "startpos":
        sfen, rest = STARTING_SFEN, tokens[1:]
    else:
        if tokens and tokens[0] == "sfen":
            tokens = tokens[1:]
        cut = tokens.index("moves") if "moves" in tokens else len(tokens)
        fields = tokens[:min(cut, 3)]
        if cut > 3 and tokens[3].isascii() and tokens[3].isdigit():
            fields.append(tokens[3])  # the move number is optional
        sfen, rest = " ".join(fields), tokens[len(fields):]
    try:
        builder = GameBuilder(strict=strict, budget=budget, sfen=_numbered(sfen))
    except InvalidSfenError as error:
        builder = GameBuilder(strict=strict, budget=budget)
        builder.error(f"bad position: {error}", lineno, raw)
        return builder.finish()
    if rest and rest[0] == "moves":
        rest = rest[1:]
    elif rest and rest[0] not in USI_RESULT_WORDS:
        builder.error(f"expected 'moves' before {excerpt(rest[0])}", lineno, raw)
    for token in rest:
        word = USI_RESULT_WORDS.get(token)
        if word is not None:
            if builder.result(word, lineno, raw) is None:
                break
            continue
        move = _MOVE_OF_USI.get(token)
        if move is None:
            builder.error(f"cannot read move {excerpt(token)}", lineno, raw)
            break
        if builder.move(move, lineno, raw, text=token) is None:
            break
    return builder.finish()


# Every move by its USI text: one lookup per move of a long line.
_MOVE_OF_USI = {move.usi(): move for move in MOVES if move is not None}


def _numbered(sfen: str) -> str:
    return sfen if len(sfen.split()) == 4 else sfen + " 1"


def write_usi(game: Game, *, result: bool = False, losses: list[Loss] | None = None) -> str:
    """The main line as ``position startpos|sfen ... moves ...``; with *result*, followed by
    the result word (``resign``, ``rep_draw`` ...) as ShogiBoardQ writes ``.usi`` files.

    ``moves`` is written whenever a move or a result word follows, so the line always reads
    back (``position startpos moves resign`` for a game resigned before any move).

    :param losses: a list to report what the line cannot hold to (variations, comments, times,
        bookmarks, headers, and a result without a word); see :mod:`shogiban.kifu.losses`.
    """
    sfen = game.start_sfen
    head = "position startpos" if sfen.split()[:3] == STARTING_SFEN.split()[:3] else f"position sfen {sfen}"
    moves = [m.usi() for m in game.mainline_moves()]
    end = game.result
    if end is not None and end.illegal_move is not None:
        moves.append(end.illegal_move.usi())
    word = result_word(game) if result else None
    tail = [*moves, word] if word is not None else moves
    feature_losses(game, "usi", losses, variations=True, comments=True, times=True, bookmarks=True, headers=True)
    if end is not None and word is None:
        why = "usi has no word for it" if result else "written without its result"
        add_loss(losses, "result", 1, why)
    return " ".join([head, "moves", *tail]) if tail else head


def result_word(game: Game) -> str | None:
    """The word a ``.usi`` line ends with for *game*'s result (``resign``, ``rep_draw``, ...),
    or None when there is none or the result has no word."""
    end = game.result
    if end is None:
        return None
    word = _WORD_OF_KIND.get(end.kind)
    if word == "illegal" and end.illegal_move is None and end.winner == game.end().turn():
        return None  # "illegal" means the side to move lost; a foul by the other side has no word
    return word


# -- SFEN position lists ------------------------------------------------------------------------


def read_sfen(source: str | bytes | Path, *, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS) -> Game:
    """Read the first game of a list of SFEN positions (or a single SFEN).

    :raises KifuParseError: on the first problem when *strict*.
    :raises KifuLimitError: if the record exceeds *limits*.
    """
    return read_sfen_games(source, strict=strict, limit=1, limits=limits)[0]


def read_sfen_games(
    source: str | bytes | Path, *, strict: bool = False, limit: int | None = None, limits: ReadLimits = DEFAULT_LIMITS
) -> list[Game]:
    """Read a list of SFEN positions: consecutive positions one legal move apart form a game.

    :raises KifuParseError: on the first problem when *strict*.
    :raises KifuLimitError: if the record exceeds *limits* (all its games together).
    """
    budget = ReadBudget(limits)
    games: list[Game] = []
    builder: GameBuilder | None = None
    for lineno, line, raw in _record_lines(source, limits):
        is_command = line.startswith(("position", "startpos")) or (line.startswith("sfen ") and " moves" in line)
        if is_command:
            if builder is not None:
                games.append(builder.finish())
                builder = None
            games.append(_read_line(line, lineno, raw, strict, budget))
            continue
        try:
            target = sfen_parts(line.removeprefix("sfen "))
        except InvalidSfenError as error:
            holder = builder or GameBuilder(strict=strict, budget=budget)
            holder.error(f"bad position: {error}", lineno, raw)
            builder = holder
            continue
        if builder is not None and not builder.ended:
            move = _connecting_move(builder.board, target)
            if move is not None:
                builder.move(move, lineno, raw)
                continue
        if builder is not None:
            games.append(builder.finish())
        builder = GameBuilder(strict=strict, budget=budget)
        try:
            builder.setup(make_sfen(target.board, target.turn, target.hands, target.move_number))
        except InvalidSfenError as error:
            builder.error(f"bad position: {error}", lineno, raw)
        if limit is not None and len(games) >= limit:
            break
    if builder is not None and (limit is None or len(games) < limit):
        games.append(builder.finish())
    if not games:
        games.append(_no_game("no position found", strict, budget))
    return games[:limit] if limit is not None else games


def _connecting_move(board: Board, target: SfenParts) -> Move | None:
    """The legal move that turns *board* into *target*, found from the squares that changed."""
    mover = board.side_to_move
    if target.turn == mover:
        return None
    squares, goal = board.piece_codes, target.board
    changed = [sq for sq in range(81) if squares[sq] != goal[sq]]
    candidates: list[int] = []
    if len(changed) == 1:
        to = changed[0]
        piece = goal[to]
        if piece and owner_of(piece) == mover and not squares[to] and 1 <= type_of(piece) <= 7:
            candidates.append(drop_code(to, type_of(piece)))
    elif len(changed) == 2:
        for frm, to in (changed, changed[::-1]):
            before, after = squares[frm], goal[to]
            if before and owner_of(before) == mover and not goal[frm] and after and owner_of(after) == mover:
                if after == before:
                    candidates.append(move_code(frm, to))
                elif after == before + 8:
                    candidates.append(move_code(frm, to, True))
    for code in candidates:
        if push_if_legal(board, code):
            same = [board.hand_counts(0), board.hand_counts(1)] == target.hands
            board.pop()
            if same:
                return Move.from_code(code)
    return None


def write_sfen(game: Game, *, losses: list[Loss] | None = None) -> str:
    """The SFEN of every position of the main line, one per line (start position first).

    :param losses: a list to report what a list of positions cannot hold to (variations,
        comments, times, bookmarks, headers, the result); see :mod:`shogiban.kifu.losses`.
    """
    feature_losses(game, "sfen", losses, variations=True, comments=True, times=True, bookmarks=True, headers=True)
    add_loss(losses, "result", int(game.result is not None), "sfen has no results")
    board = game.start_board()
    lines = [board.sfen()]
    for move in game.mainline_moves():
        board.push(move)
        lines.append(board.sfen())
    return "\n".join(lines) + "\n"
