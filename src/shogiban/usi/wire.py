"""USI text, both ways: parse and write the lines GUIs and engines exchange (no I/O here).

>>> from shogiban import Board
>>> info = parse_info("depth 3 score cp -20 nodes 880 pv 3c3d 2g2f", Board())  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shogiban.errors.EngineError: illegal move in info pv: '3c3d' in lnsgkgsnl/... b - 1 (...)
>>> info = parse_info("depth 3 score cp -20 nodes 880 pv 7g7f 3c3d", Board())
>>> info["score"], [m.usi() for m in info["pv"]]
(PovScore(Score(cp=-20), Color.BLACK), ['7g7f', '3c3d'])
>>> position_command(Board())
'position startpos'
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import cast

from shogiban.board import Board
from shogiban.engines.options import OPTION_TYPES, Option, OptionType
from shogiban.engines.results import InfoDict
from shogiban.engines.score import PovScore, Score
from shogiban.errors import EngineError, EngineMoveError, IllegalMoveError, InvalidMoveError, ShogibanError
from shogiban.move import Move
from shogiban.outcome import EnteringKingRule
from shogiban.pieces import Color
from shogiban.sfen import STARTING_SFEN

LOGGER = logging.getLogger("shogiban.usi")

_MOVE_RE = re.compile(r"^(?:[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])$")
_INT_FIELDS = ("depth", "seldepth", "nodes", "nps", "hashfull", "multipv", "currmovenumber", "tbhits", "cpuload")
_OPTION_KEYWORDS = ("default", "min", "max", "var")
_OPTION_RE = re.compile(r"^name\s+(.+?)\s+type\s+(\S+)(.*)$")


class UsiSyntaxError(ShogibanError):
    """A USI command a GUI sent that cannot be understood (the engine reports it and goes on)."""

    code = "usi_syntax"


def split_command(line: str) -> tuple[str, str]:
    """Split a line into its first word and the rest (both stripped; ``\\r\\n`` tolerated)."""
    parts = line.strip().split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1] if len(parts) > 1 else ""


def looks_like_move(token: str) -> bool:
    """Whether *token* has the shape of a USI move (``7g7f``, ``8h2b+``, ``P*5e``)."""
    return bool(_MOVE_RE.match(token))


# -- engine -> GUI lines, parsed by the client ------------------------------------------------------


def parse_info(
    args: str, board: Board | None = None, *, strict: bool = True, check_pv: bool = True, turn: Color | None = None
) -> InfoDict:
    """Parse the arguments of an ``info`` line.

    The score is relative to the side to move of *board* (or *turn*, else sente).  ``pv`` and
    ``currmove`` are checked against *board* (the searched position) when given; with
    ``strict=False`` a pv is cut before its first illegal move (logged) instead.  With
    ``check_pv=False`` the pv is only read, for :func:`legal_prefix` to check once it is needed
    (most info lines are superseded before anyone reads them).  Unknown fields are skipped, as
    USI asks.

    :raises EngineError: if the pv holds an illegal move (strict) or a field has a bad number.
    """
    info = InfoDict()
    side = board.turn if board is not None else Color.BLACK if turn is None else turn
    tokens = args.split()
    i = 0
    while i < len(tokens):
        key = tokens[i]
        i += 1
        if key == "string":
            info["string"] = args.split("string", 1)[1].strip()
            break
        if key in _INT_FIELDS and i < len(tokens):
            info[key] = _int(key, tokens[i])  # type: ignore[literal-required]
            i += 1
        elif key == "time" and i < len(tokens):
            info["time"] = _int(key, tokens[i]) / 1000
            i += 1
        elif key == "score":
            i = _parse_score(tokens, i, info, side)
        elif key == "currmove" and i < len(tokens):
            if looks_like_move(tokens[i]):
                info["currmove"] = _checked_move(tokens[i], board, "currmove")
            i += 1
        elif key == "pv":
            start = i
            while i < len(tokens) and looks_like_move(tokens[i]):
                i += 1
            texts = tokens[start:i]
            info["pv"] = _checked_line(texts, board, strict) if check_pv else _read_line(texts)
    return info


def _read_line(texts: list[str]) -> list[Move]:
    """The moves of *texts* up to the first that is not a move at all (``7g7g``)."""
    moves: list[Move] = []
    for text in texts:
        try:
            moves.append(Move.from_usi(text))
        except InvalidMoveError:
            LOGGER.debug("pv cut short: %r is not a move", text)
            break
    return moves


def legal_prefix(board: Board, moves: list[Move]) -> tuple[list[Move], Move | None]:
    """The longest legal start of the line *moves* from *board*, and the first illegal move (None
    if every move is legal)."""
    work = board.copy(stack=False)
    for index, move in enumerate(moves):
        if not work.is_legal(move):
            return moves[:index], move
        work.push(move)
    return moves, None


def _int(key: str, token: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise EngineError(f"invalid info {key}: {token!r} (expected an integer)") from None


def _parse_score(tokens: list[str], i: int, info: InfoDict, turn: Color) -> int:
    if i + 1 >= len(tokens):
        raise EngineError(f"invalid info score: {' '.join(tokens[i - 1 :])!r}")
    kind, value = tokens[i], tokens[i + 1]
    i += 2
    if kind == "cp":
        score = Score(cp=_int("score cp", value))
    elif kind == "mate":
        if value in ("+", "-"):
            score = Score(winning=value == "+")
        else:
            plies = _int("score mate", value)
            score = Score(mate=plies, winning=plies > 0 or (plies == 0 and value.startswith("+")))
    else:
        raise EngineError(f"invalid info score: {kind!r} (expected cp or mate)")
    bounds = {"lowerbound": False, "upperbound": False}
    while i < len(tokens) and tokens[i] in bounds:
        bounds[tokens[i]] = True
        i += 1
    if bounds["lowerbound"] or bounds["upperbound"]:
        score = Score(score.cp, score.mate, score.winning, bounds["lowerbound"], bounds["upperbound"])
    info["score"] = PovScore(score, turn)
    return i


def _checked_move(text: str, board: Board | None, what: str) -> Move:
    try:
        return board.parse_usi(text) if board is not None else Move.from_usi(text)
    except (InvalidMoveError, IllegalMoveError) as error:
        raise EngineError(f"illegal move in info {what}: {error}".replace("illegal move: ", "")) from None


def _checked_line(texts: list[str], board: Board | None, strict: bool) -> list[Move]:
    if board is None:
        return [Move.from_usi(t) for t in texts]
    moves: list[Move] = []
    work = board.copy(stack=False)
    for text in texts:
        try:
            move = _checked_move(text, work, "pv")
        except EngineError as error:
            if strict:
                raise
            LOGGER.warning("pv cut short: %s", error)
            break
        work.push(move)
        moves.append(move)
    return moves


def parse_option(args: str) -> Option:
    """Parse the arguments of an ``option`` line (``name X type spin default 1 min 0 max 9``).

    The name runs to ``type``, so names with spaces (Fairy-Stockfish's ``Skill Level``) work; a
    string default runs to the end of the line.

    :raises EngineError: if the line has no name or an unknown type.
    """
    match = _OPTION_RE.match(args.strip())
    if match is None or match.group(2) not in OPTION_TYPES:
        raise EngineError(f"invalid option line: {args!r} (needs a name and a type among {', '.join(OPTION_TYPES)})")
    name, kind = match.group(1), cast(OptionType, match.group(2))
    fields: dict[str, str] = {}
    var: list[str] = []
    rest = match.group(3).strip()
    if kind in ("string", "filename"):
        if rest.startswith("default"):
            fields["default"] = rest[len("default") :].strip()
    else:
        key: str | None = None
        for token in rest.split():
            # A keyword's first word is its value even if it reads like a keyword ("default default").
            empty = key is not None and not (var[-1] if key == "var" else fields[key])
            if token in _OPTION_KEYWORDS and not empty:
                key = token
                if key == "var":
                    var.append("")
                else:
                    fields[key] = ""
            elif key == "var":
                var[-1] = f"{var[-1]} {token}".strip()
            elif key is not None:
                fields[key] = f"{fields[key]} {token}".strip()
    default: str | int | bool | None = fields.get("default")
    if default == "<empty>":
        default = ""
    try:
        if kind == "check" and default is not None:
            default = str(default).lower() == "true"
        elif kind == "spin" and default is not None:
            default = int(default)
        minimum = int(fields["min"]) if "min" in fields else None
        maximum = int(fields["max"]) if "max" in fields else None
    except ValueError:
        raise EngineError(f"invalid option line: {args!r} (bad number)") from None
    return Option(name, kind, default, minimum, maximum, tuple(var))


@dataclass(frozen=True, slots=True)
class BestMove:
    """A ``bestmove`` line, checked against the searched position."""

    move: Move | None
    ponder: Move | None
    resigned: bool
    declared_win: bool


def parse_bestmove(args: str, board: Board) -> BestMove:
    """Parse the arguments of ``bestmove`` for the position *board*.

    A ponder move that is not legal after the best move is dropped (logged), as it is only advice.

    :raises EngineMoveError: if the best move is missing, malformed or illegal.
    """
    tokens = args.split()
    if not tokens:
        raise EngineMoveError(f"engine sent an empty bestmove in {board.sfen()}", "")
    text = tokens[0]
    if text == "resign":
        return BestMove(None, None, True, False)
    if text == "win":
        return BestMove(None, None, False, True)
    try:
        move = Move.from_usi(text)
    except InvalidMoveError:
        raise EngineMoveError(f"engine sent an unreadable bestmove: {text!r} in {board.sfen()}", text) from None
    reason = board.check_move(move)
    if reason is not None:
        raise EngineMoveError(f"engine played an illegal move: {text!r} in {board.sfen()} ({reason})", text, move)
    ponder: Move | None = None
    if len(tokens) >= 3 and tokens[1] == "ponder":
        work = board.copy(stack=False)
        work.push(move)
        try:
            ponder = work.parse_usi(tokens[2])
        except (InvalidMoveError, IllegalMoveError) as error:
            LOGGER.warning("ignoring the engine's ponder move: %s", error)
    return BestMove(move, ponder, False, False)


def parse_checkmate(args: str, board: Board) -> tuple[str, tuple[Move, ...]]:
    """Parse the arguments of ``checkmate``: a status and the mating line.

    :raises EngineError: if the line is illegal or does not end in checkmate.
    """
    tokens = args.split()
    if not tokens or tokens[0] in ("nomate", "timeout", "notimplemented"):
        return (tokens[0] if tokens else "nomate"), ()
    work = board.copy(stack=False)
    moves: list[Move] = []
    for text in tokens:
        try:
            move = work.parse_usi(text)
        except (InvalidMoveError, IllegalMoveError) as error:
            raise EngineError(f"engine sent an illegal mating line {args!r} from {board.sfen()}: {error}") from None
        work.push(move)
        moves.append(move)
    if not work.is_checkmate():
        raise EngineError(f"engine's mating line {args!r} from {board.sfen()} does not end in checkmate")
    return "mate", tuple(moves)


def position_command(board: Board) -> str:
    """The ``position`` command for *board*: its starting position and every move since."""
    start = board.starting_sfen
    head = "position startpos" if start == STARTING_SFEN else f"position sfen {start}"
    moves = board.move_stack
    return f"{head} moves {' '.join(m.usi() for m in moves)}" if moves else head


# -- GUI -> engine commands, parsed by the engine side --------------------------------------------


def parse_position(args: str, *, entering_king_rule: EnteringKingRule = EnteringKingRule.POINTS_27) -> Board:
    """Parse the arguments of ``position`` (``startpos | sfen <sfen>``, then ``moves ...``).

    :raises UsiSyntaxError: if the command is malformed.
    :raises InvalidSfenError: if the SFEN is bad.
    :raises InvalidMoveError, IllegalMoveError: if a move is malformed or illegal.
    """
    tokens = args.split()
    if not tokens:
        raise UsiSyntaxError("invalid position command: '' (expected startpos or sfen)")
    try:
        moves_at = tokens.index("moves")
    except ValueError:
        moves_at = len(tokens)
    if tokens[0] == "startpos" and moves_at == 1:
        sfen = STARTING_SFEN
    elif tokens[0] == "sfen" and 4 <= moves_at <= 5:
        sfen = " ".join(tokens[1:moves_at])
    else:
        raise UsiSyntaxError(f"invalid position command: {args!r} (expected 'startpos' or 'sfen <4 fields>')")
    board = Board(sfen, entering_king_rule=entering_king_rule)
    for text in tokens[moves_at + 1 :]:
        board.push_usi(text)
    return board


@dataclass(slots=True)
class GoCommand:
    """The arguments of ``go``, times in seconds."""

    btime: float | None = None
    wtime: float | None = None
    byoyomi: float | None = None
    binc: float | None = None
    winc: float | None = None
    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False
    ponder: bool = False
    mate: float | None = None
    """``go mate``: its time limit in seconds, or ``math.inf`` for ``infinite``; None if not a mate search."""
    searchmoves: tuple[Move, ...] = ()
    started: float | None = None
    """Not a ``go`` argument: when the server received ``go`` (or ``ponderhit``), on its clock;
    time limits count from there."""

    def update_clock(self, other: GoCommand) -> None:
        """Take the clock fields that *other* sets (``ponderhit btime ...``, a ShogiHome extension)."""
        for name in ("btime", "wtime", "byoyomi", "binc", "winc"):
            value = getattr(other, name)
            if value is not None:
                setattr(self, name, value)


_GO_TIMES = ("btime", "wtime", "byoyomi", "binc", "winc", "movetime")


def parse_go(args: str, problems: list[str] | None = None) -> GoCommand:
    """Parse the arguments of ``go`` (or of ``ponderhit``, which ShogiHome sends with times).

    Unknown words are skipped; ``searchmoves`` takes the move-shaped words after it.  With a
    *problems* list, a bad number is reported there and skipped instead of raised.

    :raises UsiSyntaxError: if a number is missing, negative or not a number (without *problems*).
    """
    go = GoCommand()
    tokens = args.split()
    i = 0
    while i < len(tokens):
        word = tokens[i]
        i += 1
        if word in _GO_TIMES or word in ("depth", "nodes"):
            try:
                value = _go_number(word, tokens[i] if i < len(tokens) else None)
            except UsiSyntaxError as error:
                if problems is None:
                    raise
                problems.append(str(error))
                value = None
            if value is None:
                i += 1
            elif word in _GO_TIMES:
                setattr(go, word, value / 1000)
                i += 1
            else:
                setattr(go, word, max(1, value))
                i += 1
        elif word == "infinite":
            go.infinite = True
        elif word == "ponder":
            go.ponder = True
        elif word == "mate":
            if i < len(tokens) and tokens[i] == "infinite":
                go.mate = float("inf")
                i += 1
            elif i < len(tokens) and tokens[i].isdigit():
                go.mate = int(tokens[i]) / 1000
                i += 1
            else:
                go.mate = float("inf")
        elif word == "searchmoves":
            found = []
            while i < len(tokens) and looks_like_move(tokens[i]):
                found.append(Move.from_usi(tokens[i]))
                i += 1
            go.searchmoves = tuple(found)
    return go


def _go_number(word: str, token: str | None) -> int:
    if token is None:
        raise UsiSyntaxError(f"invalid go command: {word!r} needs a number")
    try:
        value = int(token)
    except ValueError:
        raise UsiSyntaxError(f"invalid go command: {word} {token!r} (expected a whole number)") from None
    if value < 0:
        raise UsiSyntaxError(f"invalid go command: {word} {token!r} (must not be negative)")
    return value


def parse_setoption(args: str) -> tuple[str, str | None]:
    """Parse ``setoption``'s arguments into the option name and the value (None for buttons).

    :raises UsiSyntaxError: if there is no name.
    """
    match = re.match(r"^name\s+(.+?)(?:\s+value(?:\s+(.*))?)?$", args.strip())
    if match is None:
        raise UsiSyntaxError(f"invalid setoption command: {args!r} (expected 'name <id> [value <x>]')")
    name, value = match.group(1), match.group(2)
    if match.group(0).rstrip().endswith(" value") and value is None:
        value = ""
    return name, value
