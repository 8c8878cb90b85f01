"""Analysis in records' comments, in the forms other programs write and read.

KIF, KI2 and JKF: ShogiHome's research comment on each move's node, describing the position
after the move (its line starts with the opponent's reply); the move's label comes first::

    【悪手】
    後手優勢
    #評価値=-1201
    #読み筋=△３三同角▲７八銀
    #深さ=3
    #ノード数=915
    #エンジン=shogiban built-in level 8

The start position's comment also says which engine and limit judged the game (the limit of
the re-search of candidate mistakes too): ``#解析=shogiban built-in level 8; depth 6; 再探索
depth 8``.

``#評価値`` is from sente's side; a mate is ``#詰み=先手勝ち:5手`` (or ``後手勝ち``; no distance
when unknown) instead of the situation word and ``#評価値``.  The situation word follows the
score (ShogiHome's steps): 先手勝勢 >= 1500 > 先手優勢 >= 600 > 先手有利 >= 400 > 先手有望 >= 200
> 互角 >= -200 > 後手有望 >= -400 > 後手有利 >= -600 > 後手優勢 >= -1500 > 後手勝勢.  The start
position gets the same block without a label.

CSA: floodgate's engine line ``'** 158 +7776FU -3334FU`` (sente's side, a mate as ±30000; with
``#<nodes>`` at the end in CSA V3.0), which the CSA reader keeps as the comment line
``* 158 +7776FU -3334FU``; the label line ``【悪手】`` is kept as an ordinary ``'*`` comment.

Writing replaces the analysis lines a comment already has (anyone's) and keeps the rest after
the new block.  Reading (:func:`analysis_from_game`) takes ShogiHome's research (``#``) and
player (``*``) lines and floodgate lines, with lines written in CSA or USI moves and lines that
start with the move played (floodgate engines write both).

>>> situation_word(158), situation_word(-700), situation_word(1500)
('互角', '後手優勢', '先手勝勢')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shogiban.analysis.classify import DEFAULT_THRESHOLDS, Label, Thresholds
from shogiban.analysis.game import GameAnalysis, boards_of
from shogiban.analysis.positions import Line, PositionAnalysis, checked_pv, position_key, terminal_analysis
from shogiban.board import Board
from shogiban.engines.score import DEFAULT_WIN_RATE, Score, WinRateModel
from shogiban.errors import ShogibanError
from shogiban.kifu.game import Game, GameNode
from shogiban.move import Move
from shogiban.notation.csa_move import make_csa_move, parse_csa_move
from shogiban.notation.japanese import make_ki2_move, parse_ki2_move

#: ShogiHome's situation words, by the lowest score (sente's side) of each.
SITUATIONS: tuple[tuple[int, str, str], ...] = (
    (1500, "先手勝勢", "black_winning"),
    (600, "先手優勢", "black_much_better"),
    (400, "先手有利", "black_better"),
    (200, "先手有望", "black_slightly_better"),
    (-200, "互角", "even"),
    (-400, "後手有望", "white_slightly_better"),
    (-600, "後手有利", "white_better"),
    (-1500, "後手優勢", "white_much_better"),
)
_LOWEST = ("後手勝勢", "white_winning")
SITUATION_WORDS = frozenset([word for _, word, _ in SITUATIONS] + [_LOWEST[0]])
FLOODGATE_MATE = 30000
"""The score floodgate comments give a mate (sente's side: + sente mates)."""

_KEYS = "評価値|詰み|読み筋|深さ|ノード数|エンジン|解析"
_SHOGIHOME_LINE = re.compile(rf"^([#*])({_KEYS})=(.*)$")
_LABEL_LINE = re.compile(r"^【(緩手|疑問手|悪手|大悪手)】$")
_FLOODGATE_LINE = re.compile(r"^\* ?([+-]?\d+)(?:\s+(.*))?$")
_MATE = re.compile(r"^(先手勝ち|後手勝ち)(?::(\d+)手)?")
_MARKS = re.compile(r"[▲△☗☖]")


def situation_word(cp: int) -> str:
    """ShogiHome's word for sente's score *cp* (``互角``, ``先手優勢`` ...)."""
    return situation(cp)[0]


def situation(cp: int) -> tuple[str, str]:
    """The Japanese word and the catalogue key (``analysis.situation.<key>``) for *cp*."""
    for lowest, word, key in SITUATIONS:
        if cp >= lowest:
            return word, key
    return _LOWEST


def format_pv(board: Board, pv: Sequence[Move]) -> str:
    """*pv* from *board* in KI2 with marks, as ShogiHome writes lines: ``▲７六歩△３四歩``."""
    copy = board.copy(stack=False)
    out: list[str] = []
    previous = None
    for move in pv:
        out.append(make_ki2_move(copy, move, previous_to=previous))
        copy.push(move)
        previous = move.to_square
    return "".join(out)


def shogihome_lines(position: PositionAnalysis, board: Board, *, label: Label | None = None) -> list[str]:
    """The comment lines ShogiHome writes for *position* (the position of *board*)."""
    lines = [f"【{label.japanese}】"] if label is not None else []
    score = position.score
    if score is None or position.terminal:
        return lines
    if score.is_mate():
        text = "#詰み=" + ("先手勝ち" if score.winning else "後手勝ち")
        if score.mate:
            text += f":{abs(score.mate)}手"
        lines.append(text)
    else:
        assert score.cp is not None
        lines += [situation_word(score.cp), f"#評価値={score.cp}"]
    if position.pv:
        lines.append("#読み筋=" + format_pv(board, position.pv))
    if position.depth:
        lines.append(f"#深さ={position.depth}")
    if position.nodes:
        lines.append(f"#ノード数={position.nodes}")
    if position.engine:
        lines.append(f"#エンジン={position.engine}")
    return lines


def floodgate_line(position: PositionAnalysis, board: Board, *, nodes: bool = False) -> str | None:
    """The comment line floodgate writes for *position* (``* 158 +7776FU -3334FU``), written
    by the CSA writer as ``'** ...``; *nodes* adds CSA V3.0's ``#<nodes>``."""
    score = position.score
    if score is None or position.terminal:
        return None
    value = score.cp if score.cp is not None else (FLOODGATE_MATE if score.winning else -FLOODGATE_MATE)
    parts = [f"* {value}"]
    copy = board.copy(stack=False)
    for move in position.pv:
        parts.append(make_csa_move(copy, move))
        copy.push(move)
    if nodes and position.nodes:
        parts.append(f"#{position.nodes}")
    return " ".join(parts)


def is_analysis_line(line: str) -> bool:
    """Whether a comment line carries analysis (ShogiHome's, floodgate's, a label, a situation word)."""
    return bool(_SHOGIHOME_LINE.match(line) or _LABEL_LINE.match(line) or _FLOODGATE_LINE.match(line)
                or line in SITUATION_WORDS)


def strip_analysis(comment: str) -> str:
    """*comment* without its analysis lines."""
    return "\n".join(line for line in comment.split("\n") if not is_analysis_line(line)).strip("\n")


def annotate_game(analysis: GameAnalysis, *, style: str = "shogihome", csa_nodes: bool = False) -> None:
    """Write *analysis* into its game's comments (replacing earlier analysis lines).

    *style* is ``"shogihome"`` (for KIF, KI2 and JKF) or ``"floodgate"`` (for CSA).

    :raises ValueError: for another style.
    """
    if style not in ("shogihome", "floodgate"):
        raise ShogibanError(f"unknown comment style: {style!r} (expected 'shogihome' or 'floodgate')")
    boards = boards_of(analysis.game, list(analysis.positions))
    for node, position in analysis.positions.items():
        board = boards.get(node)
        if board is None:
            continue
        judged = analysis.moves.get(node)
        label = judged.label if judged is not None else None
        if style == "shogihome":
            block = shogihome_lines(position, board, label=label)
        else:
            line = floodgate_line(position, board, nodes=csa_nodes)
            block = ([f"【{label.japanese}】"] if label is not None else []) + ([line] if line else [])
        if node is analysis.game.root:
            block = [*block, *header_lines(analysis)]
        rest = strip_analysis(node.comment)
        node.comment = "\n".join(block + ([rest] if rest else []))


def header_lines(analysis: GameAnalysis) -> list[str]:
    """The start position's line saying which engine and limit judged the game:
    ``#解析=shogiban built-in level 8; depth 6; 再探索 depth 8`` (in both styles).  None for an
    analysis read from a record (its limit is not known): the record is written back as it was."""
    if analysis.limit is None:
        return []
    parts = [analysis.engine or "?", analysis.limit]
    if analysis.confirm_limit:
        parts.append(f"再探索 {analysis.confirm_limit}")
    return ["#解析=" + "; ".join(parts)]


# -- reading ------------------------------------------------------------------------------------


class _Found:
    """What one comment says, as it is read."""

    def __init__(self) -> None:
        self.score: Score | None = None
        self.pv_text: str | None = None
        self.floodgate_pv: list[str] | None = None
        self.depth: int | None = None
        self.nodes: int | None = None
        self.engine: str | None = None


def _read_comment(comment: str) -> _Found | None:
    research, player, floodgate = _Found(), _Found(), _Found()
    for line in comment.split("\n"):
        line = line.strip()
        m = _SHOGIHOME_LINE.match(line)
        if m is not None:
            found = research if m.group(1) == "#" else player
            key, value = m.group(2), m.group(3).strip()
            if key == "評価値":
                if found.score is not None and found.score.is_mate():
                    continue  # a mate line says more than a score beside it
                try:
                    found.score = Score(cp=round(float(value)))
                except ValueError:
                    continue
            elif key == "詰み":
                mate = _MATE.match(value)
                if mate is not None:
                    black_wins = mate.group(1) == "先手勝ち"
                    plies = int(mate.group(2)) if mate.group(2) else None
                    found.score = Score(mate=None if plies is None else (plies if black_wins else -plies),
                                        winning=black_wins)
            elif key == "読み筋":
                found.pv_text = value
            elif key == "深さ" and value.split("/")[0].isdigit():
                found.depth = int(value.split("/")[0])
            elif key == "ノード数" and value.replace(",", "").isdigit():
                found.nodes = int(value.replace(",", ""))
            elif key == "エンジン" and value:
                found.engine = value
            continue
        m = _FLOODGATE_LINE.match(line)
        if m is not None and floodgate.score is None:
            value_cp = int(m.group(1))
            if abs(value_cp) >= FLOODGATE_MATE:
                floodgate.score = Score(winning=value_cp > 0)
            else:
                floodgate.score = Score(cp=value_cp)
            tokens = (m.group(2) or "").split()
            floodgate.floodgate_pv = [t for t in tokens if not t.startswith("#")]
            nodes = [t[1:] for t in tokens if t.startswith("#") and t[1:].isdigit()]
            floodgate.nodes = int(nodes[0]) if nodes else None
    for found in (research, player, floodgate):
        if found.score is not None:
            return found
    return None


def _parse_ki2_pv(board: Board, text: str, previous_to: int | None) -> list[Move]:
    copy = board.copy(stack=False)
    moves: list[Move] = []
    for part in _MARKS.split(text):
        part = part.strip()
        if not part:
            continue
        try:
            move = parse_ki2_move(copy, part, previous_to=previous_to)
        except ValueError:
            break
        copy.push(move)
        moves.append(move)
        previous_to = move.to_square
    return moves


def _parse_move_token(board: Board, token: str) -> Move | None:
    try:
        if token[:1] in "+-":
            return parse_csa_move(board, token)
        move = Move.from_usi(token)
    except ValueError:
        return None
    return move if board.is_legal(move) else None


def _parse_floodgate_pv(board: Board, tokens: list[str]) -> list[Move]:
    copy = board.copy(stack=False)
    moves: list[Move] = []
    for token in tokens:
        move = _parse_move_token(copy, token)
        if move is None:
            break
        copy.push(move)
        moves.append(move)
    return moves


def position_from_comment(node: GameNode, board: Board, before: Board | None = None) -> PositionAnalysis | None:
    """The analysis *node*'s comment carries for its position (*board*), if any.  *before* is
    the position before the move, for lines that start with the move played."""
    found = _read_comment(node.comment)
    if found is None:
        return None
    previous = node.move.to_square if node.move is not None else None
    pv: list[Move] = []
    if found.pv_text is not None:
        pv = _parse_ki2_pv(board, found.pv_text, previous)
        if not pv and before is not None and node.move is not None:
            started = _parse_ki2_pv(before, found.pv_text, None)
            pv = started[1:] if started[:1] == [node.move] else []
    elif found.floodgate_pv:
        pv = _parse_floodgate_pv(board, found.floodgate_pv)
        if not pv and before is not None and node.move is not None:
            started = _parse_floodgate_pv(before, found.floodgate_pv)
            pv = started[1:] if started[:1] == [node.move] else []
    assert found.score is not None
    line = Line(found.score, checked_pv(board, pv), depth=found.depth, nodes=found.nodes)
    return PositionAnalysis(position_key(board), board.turn, (line,), found.engine)


def analysis_from_game(
    game: Game, *, model: WinRateModel = DEFAULT_WIN_RATE, thresholds: Thresholds = DEFAULT_THRESHOLDS,
) -> GameAnalysis:
    """The analysis *game*'s comments carry (ShogiHome's, floodgate's; see the module docstring),
    for every node of the tree; checkmated positions count as lost for the side to move."""
    nodes = [n for n in game.walk() if n.parent is None or n.move is not None]
    boards = boards_of(game, nodes)
    positions: dict[GameNode, PositionAnalysis] = {}
    engines: set[str] = set()
    for node in nodes:
        board = boards.get(node)
        if board is None:
            continue
        before = boards.get(node.parent) if node.parent is not None else None
        position = terminal_analysis(board) or position_from_comment(node, board, before)
        if position is not None:
            positions[node] = position
            if position.engine:
                engines.add(position.engine)
    engine = engines.pop() if len(engines) == 1 else None
    return GameAnalysis(game, positions, engine=engine, model=model, thresholds=thresholds)


__all__ = [
    "FLOODGATE_MATE",
    "SITUATIONS",
    "SITUATION_WORDS",
    "analysis_from_game",
    "annotate_game",
    "floodgate_line",
    "format_pv",
    "header_lines",
    "is_analysis_line",
    "position_from_comment",
    "shogihome_lines",
    "situation",
    "situation_word",
    "strip_analysis",
]
