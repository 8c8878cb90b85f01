"""Game records on the web: a room's game as KIF, KI2, CSA or SFEN, and an uploaded record as
the tree the record viewer steps through (every node with its position, since the browser
knows no rules).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shogiban.board import Board
from shogiban.errors import KifuParseError, ShogibanError
from shogiban.handicaps import handicap_of_sfen
from shogiban.pieces import Color

if TYPE_CHECKING:
    from shogiban.kifu.game import Game, GameNode
    from shogiban.web.rooms import GameRoom

#: Largest record accepted for upload, bytes.
MAX_RECORD_BYTES = 2_000_000
#: Most nodes a viewed record may have.
MAX_NODES = 20_000
#: Download formats: extension, media type.
FORMATS = {
    "kif": ("kif", "text/plain"),
    "ki2": ("ki2", "text/plain"),
    "csa": ("csa", "text/plain"),
    "sfen": ("sfen", "text/plain"),
    "jkf": ("jkf", "application/json"),
}


class RecordError(ShogibanError):
    """A record that cannot be read or written."""

    code = "bad_record"


@dataclass(frozen=True)
class Download:
    """A file to send."""

    content: bytes
    filename: str
    media_type: str


def _player_name(room: GameRoom, color: Color) -> str | None:
    seat = room.seats[color]
    if seat.kind == "engine":
        return f"shogiban level {seat.level}"
    if seat.kind == "usi":
        return room.services.usi_name or "USI engine"
    return seat.name


def room_game(room: GameRoom) -> Game:
    """The record of a room's game: headers, moves with their times, and the result."""
    from shogiban.kifu.game import Game
    from shogiban.kifu.results import result_from_outcome

    board = room.board
    game = Game(board.starting_sfen)
    handicap = handicap_of_sfen(board.starting_sfen)
    giver = handicap is not None and not handicap.is_even
    game.headers["開始日時"] = datetime.datetime.fromtimestamp(room.created_at).strftime("%Y/%m/%d %H:%M:%S")
    if handicap is not None:
        game.headers["手合割"] = handicap.japanese
    control = room.clock.control
    if control.enabled:
        minutes = int(control.main.total_seconds() // 60)
        extra = (
            f"+{int(control.byoyomi.total_seconds())}秒" if control.byoyomi else
            f"+{int(control.increment.total_seconds())}秒加算" if control.increment else ""
        )
        game.headers["持ち時間"] = f"{minutes}分{extra}"
    for color, key in ((Color.BLACK, "下手" if giver else "先手"), (Color.WHITE, "上手" if giver else "後手")):
        name = _player_name(room, color)
        if name:
            game.headers[key] = name
    node: GameNode = game.root
    for move, spent in zip(board.move_stack, room.spent, strict=True):
        node = node.add_variation(move)
        node.elapsed = spent / 1000
    if room.outcome is not None:
        node.add_result(result_from_outcome(room.outcome, board.turn, board.illegal_move))
    return game


#: Unicode variants of the Shift_JIS formats, used when a record holds characters CP932 lacks.
_UNICODE_VARIANT = {"kif": ("kifu", {}), "ki2": ("ki2u", {}), "csa": ("csa", {"version": "3.0"})}
_CP932_NEAR = str.maketrans({"☗": "▲", "☖": "△", "\u00a0": " ", "\u2014": "―", "\u301c": "～"})


def _fits_cp932(text: str) -> bool:
    try:
        text.translate(_CP932_NEAR).encode("cp932")
    except UnicodeEncodeError:
        return False
    return True


def export_room(room: GameRoom, fmt: str) -> Download:
    """A room's game in *fmt* (kif, ki2, csa, jkf, or sfen: the current position).

    :raises RecordError: for an unknown format.
    """
    if fmt not in FORMATS:
        raise RecordError(f"unknown record format: {fmt!r} (expected one of {', '.join(FORMATS)})")
    if fmt == "sfen":
        text = room.board.sfen() + "\n"
        return Download(text.encode("ascii"), f"shogiban-{room.id}.sfen", "text/plain; charset=us-ascii")
    return export_game(room_game(room), fmt, f"shogiban-{room.id}")


def export_game(game: Game, fmt: str, stem: str) -> Download:
    """Write *game* in *fmt*.

    :raises RecordError: for an unknown format or a record the format cannot hold.
    """
    from shogiban.kifu import write_game

    if fmt not in FORMATS:
        raise RecordError(f"unknown record format: {fmt!r} (expected one of {', '.join(FORMATS)})")
    if fmt == "sfen":
        text = game.board().sfen() + "\n"
        return Download(text.encode("ascii"), f"{stem}.sfen", "text/plain; charset=us-ascii")
    try:
        if fmt in _UNICODE_VARIANT:
            # Shift_JIS is what most programs expect of .kif/.ki2/.csa; when a name does not fit,
            # the UTF-8 variant (.kifu, .ki2u, CSA V3.0) keeps it intact instead of writing "?".
            variant, options = _UNICODE_VARIANT[fmt]
            unicode_bytes = write_game(game, variant, **options)
            unicode_text = unicode_bytes.decode("utf-8") if isinstance(unicode_bytes, bytes) else unicode_bytes
            if _fits_cp932(unicode_text):
                written, extension, charset = write_game(game, fmt), fmt, "shift_jis"
            else:
                written, extension, charset = unicode_text.encode("utf-8"), variant, "utf-8"
        else:
            plain = write_game(game, fmt)
            written, extension, charset = (plain.encode("utf-8") if isinstance(plain, str) else plain), fmt, "utf-8"
    except ShogibanError as error:
        raise RecordError(f"cannot write the record as {fmt}: {error}") from error
    content = written if isinstance(written, bytes) else written.encode("utf-8")
    return Download(content, f"{stem}.{extension}", f"{FORMATS[fmt][1]}; charset={charset}")


def read_upload(data: bytes | str) -> Game:
    """Read an uploaded record (KIF, KI2, CSA, JKF, SFEN or USI; any usual encoding).

    :raises RecordError: if nothing can be read from it.
    """
    from shogiban.kifu import read_game

    if not data or (isinstance(data, str) and not data.strip()):
        raise RecordError("empty record: upload a file or paste a record")
    size = len(data)
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"record too large: {size} bytes (at most {MAX_RECORD_BYTES})")
    try:
        game = read_game(data)
    except (KifuParseError, ShogibanError) as error:
        raise RecordError(f"cannot read the record: {error}") from error
    if not game.root.variations and game.errors:
        first = game.errors[0]
        raise RecordError(f"cannot read the record: {first}")
    return game


def _result_fields(node: GameNode) -> dict[str, Any]:
    result = node.result
    if result is None:
        return {}
    return {
        "result": result.kind.value,
        "winner": None if result.winner is None else "bw"[result.winner],
        "word": result.word,
        "detail": result.detail,
    }


def game_tree(game: Game) -> dict[str, Any]:
    """The record as the viewer's JSON: headers, errors and a flat list of nodes, each with its
    position (``sfen``), move (``usi``, KI2 ``label``), ``comment``, ``parent`` and ``children``
    (``children[0]`` continues the main line).

    :raises RecordError: if the record has too many nodes.
    """
    from shogiban.notation.japanese import make_ki2_move

    nodes: list[dict[str, Any]] = []
    board = Board(game.root.start_sfen(), lenient=True)

    def visit(node: GameNode, parent: int | None, previous_to: int | None) -> int:
        index = len(nodes)
        if index >= MAX_NODES:
            raise RecordError(f"record too large: more than {MAX_NODES} moves and variations")
        entry: dict[str, Any] = {
            "id": index, "parent": parent, "ply": board.ply, "usi": None, "label": None,
            "sfen": board.sfen(), "comment": node.comment or "", "children": [],
            "check": board.is_check(), "elapsed": node.elapsed,
        }
        entry.update(_result_fields(node))
        nodes.append(entry)
        return index

    root = visit(game.root, None, None)
    # Depth-first with an explicit stack (records can be thousands of moves deep).
    stack: list[tuple[GameNode, int, bool]] = [(child, root, False) for child in reversed(game.root.variations)]
    while stack:
        node, parent, leave = stack.pop()
        if leave:
            board.pop()
            continue
        if node.move is None:
            index = visit(node, parent, None)
            nodes[index]["label"] = node.result.word if node.result is not None else None
            nodes[index]["ply"] = board.ply + 1
            nodes[parent]["children"].append(index)
            continue
        previous = board.peek().to_square if board.ply else None
        try:
            label = make_ki2_move(board, node.move, previous_to=previous)
        except ShogibanError:
            label = node.move.usi()
        board.push(node.move)
        index = visit(node, parent, previous)
        nodes[index]["usi"] = node.move.usi()
        nodes[index]["label"] = label
        nodes[parent]["children"].append(index)
        stack.append((node, index, True))
        stack.extend((child, index, False) for child in reversed(node.variations))
    headers = {str(k): str(v) for k, v in game.headers.items()}
    handicap = handicap_of_sfen(game.root.start_sfen())
    return {
        "headers": headers,
        "start_sfen": game.root.start_sfen(),
        "handicap": handicap.japanese if handicap and not handicap.is_even else None,
        "nodes": nodes,
        "errors": [str(e) for e in game.errors],
    }
