"""JKF (JSON Kifu Format 1.0, na2hiro): ``.jkf`` / ``.json``.

Records are checked against the published JSON Schema (shipped in ``kifu/data``, MIT), read
with their header, preset or custom start position, comments, times, special moves and forks
(a fork's first move replaces the move that owns it), and written back the same way, with
``capture``, ``same``, ``relative`` and ``promote`` filled in.

>>> game = read_jkf('{"header": {}, "moves": [{}, {"move": {"from": {"x": 7, "y": 7}, '
...                 '"to": {"x": 7, "y": 6}, "color": 0, "piece": "FU"}}, {"special": "TORYO"}]}')
>>> game.mainline_moves(), game.outcome().winner
([Move.from_usi('7g7f')], <Color.BLACK: 0>)
"""

from __future__ import annotations

import itertools
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from shogiban.board import Board
from shogiban.errors import IllegalMoveError, InvalidSfenError
from shogiban.handicaps import find_handicap, handicap_of_sfen
from shogiban.kifu.builder import GameBuilder
from shogiban.kifu.comments import restore_illegal_moves, result_comment
from shogiban.kifu.csa import CSA_PIECES, PIECE_OF_CSA
from shogiban.kifu.encoding import read_text
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.headers import PLAYER_KEYS
from shogiban.kifu.losses import Loss, add_loss, feature_losses, result_kept
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadLimits
from shogiban.kifu.results import csa_token, make_result
from shogiban.kifu.timecontrol import time_header_pairs
from shogiban.kifu.walk import LineWalk, Step
from shogiban.move import Move
from shogiban.notation.excerpt import excerpt
from shogiban.notation.japanese import make_ki2_move
from shogiban.notation.safetext import clean_text, one_line, text_lines
from shogiban.pieces import code_of, owner_of, type_of
from shogiban.sfen import make_sfen, parse_sfen
from shogiban.squares import make_square, square_file, square_rank

#: JKF presets and the KIF 手合割 names they stand for.
PRESETS = {
    "HIRATE": "平手", "KY": "香落ち", "KY_R": "右香落ち", "KA": "角落ち", "HI": "飛車落ち", "HIKY": "飛香落ち",
    "2": "二枚落ち", "3": "三枚落ち", "4": "四枚落ち", "5": "五枚落ち", "5_L": "左五枚落ち", "6": "六枚落ち",
    "7_L": "左七枚落ち", "7_R": "右七枚落ち", "8": "八枚落ち", "10": "十枚落ち",
}
_PRESET_OF_NAME = {v: k for k, v in PRESETS.items()}
_RELATIVE = {"左": "L", "直": "C", "右": "R", "上": "U", "寄": "M", "引": "D", "打": "H"}


@cache
def _validator() -> Any:
    import jsonschema  # type: ignore[import-untyped]

    text = resources.files("shogiban.kifu").joinpath("data/jkf.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    return jsonschema.Draft202012Validator(schema)


def validate_jkf(data: object, *, limit: int | None = None) -> list[str]:
    """Problems of *data* (parsed JSON) against the JKF schema, as ``path: message`` strings
    (the first *limit* found, when given, in document order; each cut to 160 characters)."""
    problems = []
    found = _validator().iter_errors(data)
    if limit is not None:
        found = itertools.islice(found, limit)
    for error in sorted(found, key=lambda e: [str(p) for p in e.absolute_path]):
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        problems.append(_shortened(f"{where}: {error.message}", 160))
    return problems


#: :func:`read_jkf` checks the schema on the header, the start position and this many move
#: items (forks included); jsonschema takes a third of a millisecond per move, and the reader
#: checks every move itself.
SCHEMA_CHECKED_ITEMS = 1000


def _shortened(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def schema_sample(data: object, items: int = SCHEMA_CHECKED_ITEMS) -> object:
    """A copy of the JKF document *data* cut to its first *items* move items (breadth first
    through the forks) and header entries, for a schema check of bounded cost."""
    if not isinstance(data, dict):
        return data
    sample = dict(data)
    header = data.get("header")
    if isinstance(header, dict) and len(header) > items:
        sample["header"] = dict(itertools.islice(header.items(), items))
    moves = data.get("moves")
    if not isinstance(moves, list):
        return sample
    budget = items
    top: list[Any] = []
    queue: list[tuple[list[Any], list[Any]]] = [(moves, top)]  # (source list, copy being filled)
    while queue and budget > 0:
        source, copy = queue.pop(0)
        for item in source[:budget]:
            budget -= 1
            if isinstance(item, dict) and isinstance(item.get("forks"), list):
                item = dict(item)
                forks: list[Any] = []
                for fork in item["forks"]:
                    if isinstance(fork, list):
                        forks.append([])
                        queue.append((fork, forks[-1]))
                    else:
                        forks.append(fork)
                item["forks"] = forks
            copy.append(item)
    sample["moves"] = top
    return sample


def read_jkf(
    source: str | bytes | Path, *, strict: bool = False, validate: bool = True, limits: ReadLimits = DEFAULT_LIMITS
) -> Game:
    """Read a JKF record (JSON text, bytes or a :class:`~pathlib.Path`).

    :param validate: check it against the JKF schema first (its first
        :data:`SCHEMA_CHECKED_ITEMS` moves; the first 20 problems are reported, reading goes on
        where it can).
    :raises KifuParseError: on the first problem when *strict*.
    :raises KifuLimitError: if the record exceeds *limits*.
    """
    text, _ = read_text(source, limits)
    builder = GameBuilder(strict=strict, limits=limits)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        lines = text.splitlines()
        line = lines[error.lineno - 1] if 0 < error.lineno <= len(lines) else ""
        builder.error(f"not JSON: {error.msg} (column {error.colno})", error.lineno, line)
        return builder.finish()
    except RecursionError:
        builder.error("not JSON: nested too deeply")
        return builder.finish()
    except ValueError:  # json refuses integers of more than 4,300 digits this way
        builder.error("not JSON: a number too long to read")
        return builder.finish()
    if validate:
        try:
            problems = validate_jkf(schema_sample(data), limit=20)
        except RecursionError:
            problems = ["(top): nested too deeply to check"]
        for problem in problems:
            builder.error(f"JKF schema: {problem}")
    if not isinstance(data, dict):
        if not validate:
            builder.error("JKF record is not a JSON object")
        return builder.finish()
    try:
        _JkfReader(builder).read(data)
    except RecursionError:
        builder.error("JKF forks nested too deeply; the deeper ones are left out")
    game = builder.finish()
    restore_illegal_moves(game)
    return game


class _JkfReader:
    def __init__(self, builder: GameBuilder) -> None:
        self.builder = builder

    def error(self, message: str) -> None:
        self.builder.error(message)

    def read(self, data: dict[str, Any]) -> None:
        header = data.get("header")
        if isinstance(header, dict):
            for key, value in header.items():
                if isinstance(key, str) and isinstance(value, str):
                    self.builder.game.headers.add(key, value)
        self.initial(data.get("initial"))
        moves = data.get("moves")
        if not isinstance(moves, list):
            return
        if moves and isinstance(moves[0], dict):
            first = moves[0]
            self.comments(first)
            if isinstance(first.get("comment"), str) and first["comment"]:
                self.builder.comment(first["comment"])
            if first.get("move") is not None or first.get("special") is not None:
                self.error("moves[0] holds a move; it only holds comments on the start position")
        self.line(moves[1:], "moves", 1)

    def initial(self, initial: object) -> None:
        if not isinstance(initial, dict):
            return
        preset = initial.get("preset")
        if preset in PRESETS:
            sfen = find_handicap(PRESETS[preset]).sfen
        elif preset == "OTHER":
            sfen_or_none = self.custom(initial.get("data"))
            if sfen_or_none is None:
                return
            sfen = sfen_or_none
        else:
            self.error(f"unknown initial preset {excerpt(preset)}")
            return
        try:
            Board(sfen, lenient=True)
        except InvalidSfenError as error:
            self.error(f"impossible initial position: {error}")
            return
        self.builder.setup(sfen)

    def custom(self, data: object) -> str | None:
        if not isinstance(data, dict):
            self.error("initial preset OTHER without data")
            return None
        squares = [0] * 81
        board = data.get("board")
        if isinstance(board, list):
            for x, column in enumerate(board[:9]):
                if not isinstance(column, list):
                    continue
                for y, cell in enumerate(column[:9]):
                    if isinstance(cell, dict) and cell.get("kind") in PIECE_OF_CSA:
                        color = 1 if cell.get("color") == 1 else 0
                        squares[make_square(x + 1, y + 1)] = code_of(PIECE_OF_CSA[cell["kind"]], color)
        hands = [[0] * 8, [0] * 8]
        raw_hands = data.get("hands")
        if isinstance(raw_hands, list):
            for color, hand in enumerate(raw_hands[:2]):
                if isinstance(hand, dict):
                    for kind, count in hand.items():
                        pt = PIECE_OF_CSA.get(kind)
                        if pt is not None and 1 <= pt <= 7 and isinstance(count, int) and 0 <= count <= 18:
                            hands[color][pt] = count
        turn = 1 if data.get("color") == 1 else 0
        return make_sfen(squares, turn, hands, 1)

    def comments(self, item: dict[str, Any]) -> None:
        comments = item.get("comments")
        if isinstance(comments, list):
            for line in comments:
                if isinstance(line, str):
                    self.builder.comment(line)

    def line(self, items: list[Any], where: str, ply: int) -> None:
        builder = self.builder
        for index, item in enumerate(items):
            here = f"{where}[{index + (1 if where == 'moves' else 0)}]"
            if not isinstance(item, dict):
                self.error(f"{here} is not an object")
                return
            parent = builder.node
            node = self.item(item, here)
            if node is None:
                return
            forks = item.get("forks")
            if isinstance(forks, list) and forks:
                for k, fork in enumerate(forks):
                    if isinstance(fork, list) and fork:
                        builder.goto(parent)
                        self.line(fork, f"{here}.forks[{k}]", ply + index)
                builder.goto(node)
            if node.result is not None:
                return

    def item(self, item: dict[str, Any], here: str) -> GameNode | None:
        builder = self.builder
        elapsed, total = _times(item.get("time"))
        move = item.get("move")
        special = item.get("special")
        node: GameNode | None
        if isinstance(move, dict):
            decoded = self.move(move, here)
            if decoded is None:
                return None
            node = builder.move(decoded, elapsed=elapsed, total=total)
        elif isinstance(special, str):
            node = builder.result(special, elapsed=elapsed, total=total)
        else:
            self.error(f"{here} has neither a move nor a special")
            return None
        if node is not None:
            self.comments(item)
        return node

    def move(self, move: dict[str, Any], here: str) -> Move | None:
        board = self.builder.board
        try:
            to = _square(move.get("to"))
            frm = _square(move["from"]) if move.get("from") is not None else None
        except (TypeError, ValueError, KeyError):
            self.error(f"{here}: bad square in {excerpt(move)}")
            return None
        if to is None:
            self.error(f"{here}: move without a destination")
            return None
        color = move.get("color")
        if color in (0, 1) and color != board.side_to_move:
            self.error(f"{here}: move by the wrong side ({'gote' if board.side_to_move else 'sente'} to move)")
            return None
        piece = PIECE_OF_CSA.get(move.get("piece", ""))
        if frm is None:
            if piece is None or not 1 <= piece <= 7:
                self.error(f"{here}: cannot drop {excerpt(move.get('piece'))}")
                return None
            return Move(to_square=to, drop=piece)
        if frm == to:
            self.error(f"{here}: the move does not move")
            return None
        return Move(from_square=frm, to_square=to, promotion=move.get("promote") is True)


def _square(place: object) -> int | None:
    if not isinstance(place, dict):
        return None
    x, y = place.get("x"), place.get("y")
    if not (isinstance(x, int) and isinstance(y, int) and 1 <= x <= 9 and 1 <= y <= 9):
        raise ValueError(place)
    return make_square(x, y)


def _times(time: object) -> tuple[float | None, float | None]:
    if not isinstance(time, dict):
        return None, None

    def seconds(t: object) -> float | None:
        if not isinstance(t, dict):
            return None
        h, m, s = t.get("h") or 0, t.get("m"), t.get("s")
        if not all(isinstance(v, int) and 0 <= v < 1_000_000_000 for v in (h, m, s)):
            return None  # not a time (or one no game takes)
        return float(h * 3600 + m * 60 + s)  # type: ignore[operator]

    now, total = seconds(time.get("now")), seconds(time.get("total"))
    return (int(now) if now is not None else None), (int(total) if total is not None else None)


# -- writing ------------------------------------------------------------------------------------


#: Forks nested deeper than this are left out (and reported): JSON tools, ours included (the
#: schema check recurses), refuse documents nested much deeper; a fork level is three of JSON.
MAX_FORK_DEPTH = 50


def write_jkf(game: Game, *, indent: int | None = None, losses: list[Loss] | None = None) -> str:
    """*game* as JKF JSON text (UTF-8 characters kept as they are; compact unless *indent*).

    :param losses: a list to report what JKF cannot hold to (bookmarks, fractions of seconds,
        forks nested deeper than :data:`MAX_FORK_DEPTH`, results it has no special for); see
        :mod:`shogiban.kifu.losses`.
    """
    if indent is not None:
        return json.dumps(jkf_object(game, losses=losses), ensure_ascii=False, indent=indent) + "\n"
    # The same text as json.dumps(jkf_object(game)), without the object: each move item is
    # turned into JSON as soon as it is made (a record of 2,000,000 moves took 2.9 GB as a tree
    # of dicts); only the items that get forks stay objects until the end.
    record = jkf_object(game, losses=losses, raw=True)
    moves = record.pop("moves")
    head = json.dumps(record, ensure_ascii=False)
    return f'{head[:-1]}, "moves": {_dump_items(moves)}}}\n'


def _dump_items(items: list[Any]) -> str:
    """JSON of a list of move items: JSON text already, or an item with ``forks`` (last key)."""
    parts = []
    for item in items:
        if isinstance(item, str):
            parts.append(item)
            continue
        forks = item.pop("forks", None)
        text = json.dumps(item, ensure_ascii=False)
        if forks:
            text = text[:-1] + ', "forks": [' + ", ".join(_dump_items(fork) for fork in forks) + "]}"
        parts.append(text)
    return "[" + ", ".join(parts) + "]"


def jkf_object(game: Game, *, losses: list[Loss] | None = None, raw: bool = False) -> dict[str, Any]:
    """*game* as a JKF object (``header``, ``initial``, ``moves``); *losses* as for :func:`write_jkf`.
    With *raw*, a move item that has no forks is its JSON text (for :func:`write_jkf`)."""
    record: dict[str, Any] = {"header": {}}
    # JSON escapes every control character, but programs turn JKF into KIF or CSA lines: keys
    # and values are cleaned as every writer cleans them (shogiban.notation.safetext).
    pairs, time_lost = time_header_pairs(game.headers, "kif")
    add_loss(losses, "time_control", int(time_lost is not None), (time_lost or "").replace("kif", "jkf", 1))
    for key, value in pairs:
        if key != "手合割":
            record["header"][one_line(key)] = one_line(value) if key in PLAYER_KEYS else clean_text(value)
    sfen = game.start_sfen
    handicap = handicap_of_sfen(sfen)
    if handicap is not None and sfen.split()[3] == "1":
        record["header"]["手合割"] = handicap.japanese
        record["initial"] = {"preset": _PRESET_OF_NAME[handicap.japanese]}
    else:
        if "手合割" in game.headers:
            record["header"]["手合割"] = one_line(game.headers["手合割"])
        record["initial"] = {"preset": "OTHER", "data": _custom(sfen)}
    first: dict[str, Any] = {}
    if game.root.comment:
        first["comments"] = text_lines(game.root.comment)
    record["moves"] = [first, *_MovesWriter(game, losses, raw).items()]
    feature_losses(game, "jkf", losses, bookmarks=True, time_fractions=True)
    return record


class _MovesWriter:
    """The JKF move items of a record: each line's items, alternatives as ``forks`` of the item
    they replace, built in one walk (no recursion, however deep the forks nest)."""

    def __init__(self, game: Game, losses: list[Loss] | None, raw: bool = False) -> None:
        self.game = game
        self.losses = losses
        self.raw = raw
        self.placed: dict[GameNode, tuple[dict[str, Any], int]] = {}  # node -> (its item, fork depth)
        self.totals_after: dict[GameNode, tuple[float, float]] = {}

    def items(self) -> list[Any]:
        root = self.game.root
        main: list[Any] = []
        walk = LineWalk(self.game)
        items: list[Any] | None = None
        depth = 0
        totals = [0.0, 0.0]
        dropped = lost = 0
        for step, _, node in walk.steps():
            parent = node.parent
            assert parent is not None
            if step is Step.LINE:
                if parent is root and node is root.variations[0]:
                    items, depth = main, 0
                else:
                    owner = self.placed.get(parent.variations[0])
                    if owner is None or owner[1] >= MAX_FORK_DEPTH:
                        items = None
                        dropped += 1
                        continue
                    items, depth = [], owner[1] + 1
                    owner[0].setdefault("forks", []).append(items)
                totals = list(self.totals_after.get(parent, (0.0, 0.0)))
            elif step is Step.NODE and items is not None:
                board = walk.board
                item = _item(parent, node, board, totals)
                if node.result is not None:
                    lost += not result_kept(node.result, make_result(item["special"], board.turn))
                side = board.side_to_move
                if node.total is not None:
                    totals[side] = node.total
                elif node.elapsed is not None:
                    totals[side] += node.elapsed
                if len(node.variations) > 1:  # a line starts after it
                    self.totals_after[node] = (totals[0], totals[1])
                if self.raw and not _gets_forks(node):
                    items.append(json.dumps(item, ensure_ascii=False))
                    continue
                self.placed[node] = (item, depth)
                items.append(item)
        add_loss(self.losses, "variations", dropped, f"jkf forks nested deeper than {MAX_FORK_DEPTH} are left out")
        add_loss(self.losses, "result", lost, "jkf has no special for it")
        return main


def _gets_forks(node: GameNode) -> bool:
    """Whether *node*'s item gets ``forks``: it is the first of several alternatives."""
    parent = node.parent
    return parent is not None and len(parent.variations) > 1 and parent.variations[0] is node


def _custom(sfen: str) -> dict[str, Any]:
    parts = parse_sfen(sfen)
    board = []
    for x in range(1, 10):
        column = []
        for y in range(1, 10):
            piece = parts.board[make_square(x, y)]
            column.append({"color": int(owner_of(piece)), "kind": CSA_PIECES[type_of(piece)]} if piece else {})
        board.append(column)
    hands = [{CSA_PIECES[pt]: parts.hands[c][pt] for pt in (1, 2, 3, 4, 7, 5, 6)} for c in (0, 1)]
    return {"color": parts.turn, "board": board, "hands": hands}


def _item(parent: GameNode, node: GameNode, board: Board, totals: list[float]) -> dict[str, Any]:
    item: dict[str, Any] = {}
    comment = node.comment
    if node.move is not None:
        item["move"] = _move(parent, node.move, board)
    elif node.result is not None:
        item["special"] = csa_token(node.result, board.turn)
        comment = result_comment(node, board)
    if node.elapsed is not None or node.total is not None:
        side = board.side_to_move
        total = node.total if node.total is not None else totals[side] + (node.elapsed or 0)
        now = int(node.elapsed or 0)
        t = int(total)
        item["time"] = {
            "now": {"m": now // 60, "s": now % 60},
            "total": {"h": t // 3600, "m": t // 60 % 60, "s": t % 60},
        }
    if comment:
        item["comments"] = text_lines(comment)
    return item


def _move(parent: GameNode, move: Move, board: Board) -> dict[str, Any]:
    to = move.to_square
    out: dict[str, Any] = {"color": board.side_to_move}
    if move.drop is not None:
        out["piece"] = CSA_PIECES[move.drop]
    else:
        frm = move.from_square
        assert frm is not None
        piece = type_of(board.piece_codes[frm])
        out["from"] = {"x": square_file(frm), "y": square_rank(frm)}
        out["piece"] = CSA_PIECES[piece] if piece else "FU"
        if move.promotion:
            out["promote"] = True
        elif 1 <= piece <= 6 and (frm < 27 or to < 27 if board.side_to_move == 0 else frm >= 54 or to >= 54):
            out["promote"] = False
        captured = board.piece_codes[to]
        if captured and owner_of(captured) != board.side_to_move:
            out["capture"] = CSA_PIECES[type_of(captured)]
    out["to"] = {"x": square_file(to), "y": square_rank(to)}
    if parent.move is not None and parent.move.to_square == to:
        out["same"] = True
    # 右 左 直 上 引 寄 打 are only needed when another piece of the same kind reaches the square.
    kind = move.drop if move.drop is not None else type_of(board.piece_codes[move.from_square])  # type: ignore[index]
    codes = board.piece_codes
    if not any(type_of(codes[sq]) == kind and sq != move.from_square for sq in board.attackers(board.turn, to)):
        return out
    try:
        text = make_ki2_move(board, move, previous_to=-1, mark=False)
    except IllegalMoveError:
        return out
    relative = "".join(_RELATIVE[c] for c in text[2:] if c in _RELATIVE)
    if relative:
        out["relative"] = relative
    return out


__all__ = ["SCHEMA_CHECKED_ITEMS", "jkf_object", "read_jkf", "schema_sample", "validate_jkf", "write_jkf"]
