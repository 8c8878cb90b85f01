"""Game records on the web: a room's game as KIF, KI2, CSA or SFEN, and an uploaded record as
the tree the record viewer steps through (every node with its position, since the browser
knows no rules).

``POST /api/records/tree?format=kif`` (:func:`export_tree`) writes the analysis board's explored
record (its start position and lines of moves with comments and nested variations, declared in
:data:`~shogiban.web.schema.RECORD_TREE`) as a download, built through the record builder (each
move checked) and written in a thread.

Uploads are untrusted and the reader may be slow on them, so the server runs :func:`read_upload`,
:func:`game_tree` and the exports in worker processes (:mod:`shogiban.web.parsing`) under the
:class:`RecordLimits`.  A room's game is copied on the event loop as a :class:`RoomRecord` (a few
lists) and built and written there too.  The reader is only ever given bytes: text is text,
never a file name.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shogiban.board import Board
from shogiban.errors import KifuParseError, ShogibanError
from shogiban.game.timecontrol import TimeControl
from shogiban.handicaps import Handicap, find_handicap, handicap_of_sfen
from shogiban.i18n import translate
from shogiban.pieces import Color
from shogiban.web.routing import Checked, CheckedRoute
from shogiban.web.schema import (
    EXPORT_QUERY,
    MAX_RECORD_BYTES,
    RECORD_FORMATS,
    RECORD_TREE,
    RequestError,
    excerpt,
    shorten,
)

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from shogiban.kifu.game import Game, GameNode
    from shogiban.web.rooms import GameRoom

#: Most nodes (moves of every line, and results) a record may have.
MAX_NODES = 20_000
#: Most variations (lines branching off another) a record may have.
MAX_VARIATIONS = 2_000
#: Most characters of comments a record may have, all nodes together.
MAX_COMMENT_CHARS = 500_000
log = logging.getLogger(__name__)

#: Most reading problems listed with a record.
MAX_LISTED_ERRORS = 100
#: Download formats: extension, media type.
FORMATS = {
    "kif": ("kif", "text/plain"),
    "ki2": ("ki2", "text/plain"),
    "csa": ("csa", "text/plain"),
    "sfen": ("sfen", "text/plain"),
    "jkf": ("jkf", "application/json"),
    "usi": ("usi", "text/plain"),
}
assert tuple(FORMATS) == RECORD_FORMATS, "the declared formats (shogiban.web.schema) are these"


class RecordError(ShogibanError):
    """A record that cannot be read or written."""

    code = "bad_record"
    status = 400


class RecordTooLargeError(RecordError):
    """A record beyond the :class:`RecordLimits`."""

    code = "too_large"
    status = 413


@dataclass(frozen=True, slots=True)
class RecordLimits:
    """How large an uploaded record may be."""

    max_bytes: int = MAX_RECORD_BYTES
    """Bytes of the upload."""
    max_nodes: int = MAX_NODES
    """Moves of every line (and results)."""
    max_variations: int = MAX_VARIATIONS
    """Lines branching off another."""
    max_comment_chars: int = MAX_COMMENT_CHARS
    """Characters of all comments together."""


def reader_options(limits: RecordLimits) -> dict[str, Any]:
    """Keyword arguments making the record reader itself stop at *limits*.

    When :mod:`shogiban.kifu` offers reader limits (``ReadLimits``, the ``limits=`` argument of
    ``read_game``), they are passed; without them this is empty, and :func:`precheck` on the text,
    :func:`check_limits` on the result, and the worker's deadline and memory cap do the work.
    The checks here stay as a second fence either way.
    """
    import shogiban.kifu

    read_limits = getattr(shogiban.kifu, "ReadLimits", None)
    if read_limits is None:
        return {}
    try:
        return {"limits": read_limits(max_input=limits.max_bytes, max_moves=limits.max_nodes,
                                      max_variations=limits.max_variations, max_comment=limits.max_comment_chars,
                                      max_comments=limits.max_comment_chars)}
    except TypeError as error:  # a ReadLimits of other fields: rely on the checks here
        log.warning("the record reader's limits were not understood (%s): checking after reading", error)
        return {}


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


def _side_word(key: str) -> str:
    """The catalogue's Japanese word for the side a header *key* (先手, 後手, 下手, 上手) names."""
    side = {"先手": "sente", "後手": "gote", "下手": "shitate", "上手": "uwate"}[key]
    return translate(f"side.{side}", "ja")


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """What a room's record needs, copied from the room on the event loop (a few flat lists, so
    it crosses into a worker process cheaply and cannot change meanwhile)."""

    game_id: str
    start_sfen: str
    sfen: str
    """The current position."""
    headers: tuple[tuple[str, str], ...]
    moves: tuple[tuple[str, int], ...]
    """``(usi, milliseconds spent)`` per move."""
    outcome: tuple[str, int | None, str] | None = None
    """``(termination, winner, detail)`` once the game is over."""
    turn: int = 0
    """The side to move now."""
    illegal_move: str | None = None
    """The illegal move that ended the game, if one did."""


def _time_control(control: object) -> TimeControl:
    """A room's time control: the game's :class:`TimeControl`, or the clock view's durations."""
    if isinstance(control, TimeControl):
        return control
    main, byoyomi, increment = (getattr(control, name) for name in ("main", "byoyomi", "increment"))
    return TimeControl(main.total_seconds(), byoyomi.total_seconds(), increment.total_seconds())


def room_record(room: GameRoom) -> RoomRecord:
    """A copy of *room*'s record: headers, moves with their times, and the result."""
    board = room.board
    headers: dict[str, str] = {}
    handicap = handicap_of_sfen(board.starting_sfen)
    giver = handicap is not None and not handicap.is_even
    headers["開始日時"] = datetime.datetime.fromtimestamp(room.created_at).strftime("%Y/%m/%d %H:%M:%S")
    if handicap is not None:
        headers["手合割"] = handicap.japanese
    from shogiban.kifu.timecontrol import kif_time_headers

    # 持ち時間 and 秒読み as every record writer words them (shogiban.kifu.timecontrol).
    headers.update(kif_time_headers(_time_control(room.clock.control)))
    for color, key in ((Color.BLACK, "下手" if giver else "先手"), (Color.WHITE, "上手" if giver else "後手")):
        # Both sides' lines always, so a reader never mistakes a one-line record for a handicap
        # game; a nameless player is called by the side's word (a record's headers are
        # Japanese, as its 先手/下手 keys are), never left empty.
        headers[key] = _player_name(room, color) or _side_word(key)
    outcome = room.outcome
    illegal = board.illegal_move
    return RoomRecord(
        game_id=room.id,
        start_sfen=board.starting_sfen,
        sfen=board.sfen(),
        headers=tuple(headers.items()),
        moves=tuple((move.usi(), played.spent_ms)
                    for move, played in zip(board.move_stack, room.state.moves, strict=True)),
        outcome=None if outcome is None else (
            outcome.termination.value, None if outcome.winner is None else int(outcome.winner), outcome.detail),
        turn=int(board.turn),
        illegal_move=None if illegal is None else illegal.usi(),
    )


def record_game(record: RoomRecord) -> Game:
    """The :class:`~shogiban.kifu.game.Game` of a :class:`RoomRecord`."""
    from shogiban.kifu.game import Game
    from shogiban.kifu.results import result_from_outcome
    from shogiban.move import Move
    from shogiban.outcome import Outcome, Termination

    game = Game(record.start_sfen)
    for key, value in record.headers:
        game.headers[key] = value
    node: GameNode = game.root
    for usi, spent in record.moves:
        node = node.add_variation(Move.from_usi(usi))
        node.elapsed = spent / 1000
    if record.outcome is not None:
        termination, winner, detail = record.outcome
        outcome = Outcome(Termination(termination), None if winner is None else Color(winner), detail)
        illegal = None if record.illegal_move is None else Move.from_usi(record.illegal_move)
        node.add_result(result_from_outcome(outcome, Color(record.turn), illegal))
    return game


def room_game(room: GameRoom) -> Game:
    """The record of a room's game: headers, moves with their times, and the result."""
    return record_game(room_record(room))


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
    """A room's game in *fmt* (kif, ki2, csa, jkf, usi: the start position and the moves, or sfen:
    the current position).

    :raises RecordError: for an unknown format.
    """
    return export_record(room_record(room), fmt)


def export_record(record: RoomRecord, fmt: str) -> Download:
    """A :class:`RoomRecord` in *fmt* (see :func:`export_room`).

    :raises RecordError: for an unknown format.
    """
    if fmt not in FORMATS:
        raise RecordError(f"unknown record format: {excerpt(fmt)} (expected one of {', '.join(FORMATS)})")
    if fmt == "sfen":
        text = record.sfen + "\n"
        return Download(text.encode("ascii"), f"shogiban-{record.game_id}.sfen", "text/plain; charset=us-ascii")
    return export_game(record_game(record), fmt, f"shogiban-{record.game_id}")


def export_game(game: Game, fmt: str, stem: str) -> Download:
    """Write *game* in *fmt*.

    :raises RecordError: for an unknown format or a record the format cannot hold.
    """
    from shogiban.kifu import write_game

    if fmt not in FORMATS:
        raise RecordError(f"unknown record format: {excerpt(fmt)} (expected one of {', '.join(FORMATS)})")
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
        raise RecordError(f"cannot write the record as {fmt}: {shorten(str(error))}") from error
    content = written if isinstance(written, bytes) else written.encode("utf-8")
    return Download(content, f"{stem}.{extension}", f"{FORMATS[fmt][1]}; charset={charset}")


def precheck(text: str, limits: RecordLimits) -> None:
    """Refuse, before reading, a text that certainly exceeds *limits*: more variation blocks
    (KIF ``変化``) or more comment characters (lines starting with ``*`` or ``'``) than allowed.
    Linear, and only ever over-counts what the reader will find.

    :raises RecordTooLargeError: with what is too large.
    """
    variations = 0
    comments = 0
    for line in text.splitlines():
        if line.startswith("変化"):
            variations += 1
        elif line.startswith(("*", "'")):
            comments += len(line) - 1
    if variations > limits.max_variations:
        raise RecordTooLargeError(f"record too large: {variations} variations (at most {limits.max_variations})")
    if comments > limits.max_comment_chars:
        raise RecordTooLargeError(
            f"record too large: {comments} characters of comments (at most {limits.max_comment_chars})")


def check_limits(game: Game, limits: RecordLimits) -> None:
    """Refuse a record that exceeds *limits* (counting every node once).

    :raises RecordTooLargeError: with what is too large.
    """
    variations = comments = 0
    for moves, node in enumerate(game.root.walk()):  # the root is no move
        variations += max(0, len(node.variations) - 1)
        comments += len(node.comment or "")
        if moves > limits.max_nodes:
            raise RecordTooLargeError(f"record too large: more than {limits.max_nodes} moves and variations")
    if variations > limits.max_variations:
        raise RecordTooLargeError(f"record too large: {variations} variations (at most {limits.max_variations})")
    if comments > limits.max_comment_chars:
        raise RecordTooLargeError(
            f"record too large: {comments} characters of comments (at most {limits.max_comment_chars})")


def read_upload(data: bytes | str, *, limits: RecordLimits | None = None) -> Game:
    """Read an uploaded record (KIF, KI2, CSA, JKF, SFEN or USI; any usual encoding).

    *data* is the upload's bytes; text is encoded to UTF-8 first, so the reader never sees a
    string it could take for a file name.

    :raises RecordError: if nothing can be read from it.
    :raises RecordTooLargeError: past *limits*.
    """
    from shogiban.kifu import decode, read_game

    limits = limits or RecordLimits()
    if isinstance(data, str):
        data = data.encode("utf-8", "replace")
    if not data.strip():
        raise RecordError("empty record: upload a file or paste a record")
    if len(data) > limits.max_bytes:
        raise RecordTooLargeError(f"record too large: {len(data)} bytes (at most {limits.max_bytes})")
    precheck(decode(data), limits)
    try:
        game = read_game(data, **reader_options(limits))
    except (KifuParseError, ShogibanError) as error:
        if getattr(error, "code", None) == "too_large":  # the reader's own limits: its message says so
            raise RecordTooLargeError(shorten(str(error))) from error
        raise RecordError(f"cannot read the record: {shorten(str(error))}") from error
    check_limits(game, limits)
    if not game.root.variations and game.errors:
        raise RecordError(f"cannot read the record: {shorten(str(game.errors[0]))}")
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


def _handicap_english(named: str | None, started: Handicap | None) -> str | None:
    """The English name (the catalogue's ``ui.handicap.<name>``) of the record's 手合割 header,
    else of the handicap its start position is, so the viewer can say it in any language."""
    if named:
        try:
            return find_handicap(named).english
        except ValueError:
            return None
    return started.english if started is not None else None


def game_tree(game: Game, *, max_nodes: int | None = None) -> dict[str, Any]:
    """The record as the viewer's JSON: headers, errors and a flat list of nodes, each with its
    position (``sfen``), move (``usi``, KI2 ``label``), ``comment``, ``parent`` and ``children``
    (``children[0]`` continues the main line).

    :raises RecordTooLargeError: if the record has more than *max_nodes* nodes (default
        :data:`MAX_NODES`).
    """
    limit = MAX_NODES if max_nodes is None else max_nodes
    from shogiban.notation.forms import move_forms

    nodes: list[dict[str, Any]] = []
    board = Board(game.root.start_sfen(), lenient=True)

    def visit(node: GameNode, parent: int | None, previous_to: int | None) -> int:
        index = len(nodes)
        if index > limit:
            raise RecordTooLargeError(f"record too large: more than {limit} moves and variations")
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
        forms: dict[str, str] | None
        try:
            forms = move_forms(board, node.move, previous_to=previous)
            label = forms["japanese"]
        except ShogibanError:  # a move the record holds but the rules refuse
            forms, label = None, node.move.usi()
        board.push(node.move)
        index = visit(node, parent, previous)
        nodes[index]["usi"] = node.move.usi()
        nodes[index]["label"] = label
        nodes[index]["forms"] = forms
        nodes[parent]["children"].append(index)
        stack.append((node, index, True))
        stack.extend((child, index, False) for child in reversed(node.variations))
    headers = {str(k): str(v) for k, v in game.headers.items()}
    handicap = handicap_of_sfen(game.root.start_sfen())
    return {
        "headers": headers,
        "start_sfen": game.root.start_sfen(),
        "handicap": handicap.japanese if handicap and not handicap.is_even else None,
        "handicap_english": _handicap_english(headers.get("手合割"), handicap),
        "nodes": nodes,
        "errors": [shorten(str(e)) for e in game.errors[:MAX_LISTED_ERRORS]],
    }


# -- an explored record (the analysis board's tree) ------------------------------------------------


class TreeError(RecordError):
    """An explored record whose start position or a move does not play."""

    code = "bad_tree"


def tree_game(start_sfen: str, moves: list[dict[str, Any]]) -> Game:
    """The :class:`~shogiban.kifu.game.Game` of an explored record (the body of
    ``POST /api/records/tree``, checked): each move played through the record builder, its comment
    and its variations (alternatives to it, each a line).

    >>> game = tree_game("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ...                  [{"usi": "7g7f", "comment": "main", "variations": [[{"usi": "2g2f"}]]}])
    >>> [node.move.usi() for node in game.root.variations], game.root.variations[0].comment
    (['7g7f', '2g2f'], 'main')

    :raises TreeError: for a start position that does not read or a move that is not legal.
    """
    from shogiban.errors import InvalidSfenError
    from shogiban.kifu.builder import GameBuilder
    from shogiban.move import Move

    try:
        builder = GameBuilder(sfen=start_sfen)
    except (InvalidSfenError, ShogibanError, ValueError) as error:
        raise TreeError(f"invalid start_sfen: {shorten(str(error), 120)}") from None

    def play(parent: GameNode, line: list[dict[str, Any]], where: str) -> None:
        node = parent
        for number, item in enumerate(line, 1):
            builder.goto(node)
            try:
                move = Move.from_usi(item["usi"])
            except (ShogibanError, ValueError):
                raise TreeError(f"move {where}{number} {excerpt(item['usi'])}: not a move") from None
            child = builder.move(move)
            if child is None or child.move is None:
                raise TreeError(f"move {where}{number} {excerpt(item['usi'])}: not legal in its position")
            for part in item.get("comment", "").split("\n") if item.get("comment") else ():
                builder.comment(part)
            for index, variation in enumerate(item.get("variations", ()), 1):
                play(node, variation, f"{where}{number}.{index}.")
            node = child

    play(builder.game.root, moves, "")
    return builder.finish()


def annotate_tree(game: Game, result: dict[str, Any], fmt: str) -> None:
    """Write a stored analysis (*result*, ``shogiban analyse --json``'s form) into *game*'s
    comments, ShogiHome's form (floodgate's for CSA) as ``shogiban analyse`` writes it: each node
    of the tree whose position was analysed gets its lines, each move its label, wherever the
    explorer moved the line (positions are matched by their SFEN, not their place)."""
    from shogiban.analysis.comments import annotate_game
    from shogiban.analysis.game import GameAnalysis, iter_boards
    from shogiban.analysis.positions import PositionAnalysis, position_key

    entries = {entry["sfen"]: entry for entry in result.get("positions", ())
               if isinstance(entry, dict) and entry.get("sfen") and entry.get("lines")}
    nodes: list[GameNode] = []
    stack: list[GameNode] = [game.root]
    while stack:  # every node, without recursion (a tree may be deep)
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.variations)
    positions: dict[GameNode, PositionAnalysis] = {}
    for node, board in iter_boards(game, nodes):
        entry = entries.get(position_key(board))
        if entry is not None:
            positions[node] = PositionAnalysis.from_json({"sfen": entry["sfen"], "lines": entry["lines"]})
    analysis = GameAnalysis(game, positions, engine=result.get("engine"), limit=result.get("limit"),
                            confirm_limit=result.get("confirm_limit"))
    annotate_game(analysis, style="floodgate" if fmt == "csa" else "shogihome")


def export_tree(body: dict[str, Any], fmt: str, analysis: dict[str, Any] | None = None) -> Download:
    """An explored record (see :func:`tree_game`) written in *fmt*, with *analysis* (a stored
    result) in its comments when given (:func:`annotate_tree`).

    :raises TreeError, RecordError: for a record that does not play, or a format it cannot be written in.
    """
    game = tree_game(body["start_sfen"], body.get("moves", []))
    if analysis is not None:
        annotate_tree(game, analysis, fmt)
    return export_game(game, fmt, "shogiban-analysis")


async def _stored_analysis(request: Request, body: dict[str, Any]) -> dict[str, Any] | None:
    """The stored analysis the tree asks to be written with: its game's, or its record's."""
    if not body.get("game") and not body.get("record"):
        return None
    store = request.app.state.store
    if body.get("game"):
        stored = await store.run(store.store.load_analysis, body["game"])
    else:
        record = await store.run(store.store.load_record, body["record"])
        stored = record.analysis if record is not None else None
    if stored is None:
        raise RequestError("unknown_analysis", "no stored analysis for this game or record", 404)
    result: dict[str, Any] = stored.result
    return result


async def api_record_tree(request: Request, checked: Checked) -> Response:
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import Response

    analysis = await _stored_analysis(request, checked.body)
    download = await run_in_threadpool(export_tree, checked.body, checked.query["format"], analysis)
    return Response(download.content, media_type=download.media_type,
                    headers={"Content-Disposition": f'attachment; filename="{download.filename}"'})


#: The routes the web application mounts.
routes = [
    CheckedRoute("/api/records/tree", api_record_tree, methods=["POST"], query=EXPORT_QUERY, body=RECORD_TREE),
]
