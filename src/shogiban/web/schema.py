"""Every request the server accepts, declared in one place: the JSON bodies of the HTTP routes,
their path and query parameters, and the websocket messages.

Each declaration is a pydantic model (strict: no coercion) naming each field's type, range,
length and allowed values; pydantic was chosen over msgspec by ``benchmarks/bench_messages.py``
(see "Message models" in the README).  JSON text is decoded by
:func:`decode_json`, which first measures the nesting depth with a linear scan (so
:func:`json.loads` never recurses deeper than a schema allows), and refuses numbers that are
not finite and integers longer than any field takes.  Checking returns plain data whose types
the handlers can trust; anything else raises :class:`RequestError` with a stable ``code``, an
HTTP ``status`` and a message quoting at most a short, escaped excerpt of the input.

Routes are registered through :mod:`shogiban.web.routing`, which applies these declarations
before a handler runs, so a route cannot forget them.

>>> NEW_GAME.decode(b'{"mode": "local", "time": {"main": 600}}')["time"]
{'main': 600}
>>> NEW_GAME.decode(b'{"time": {"main": 1e300}}')
Traceback (most recent call last):
...
shogiban.web.schema.RequestError: invalid time.main: 1e+300 (expected a number from 0 to 86400)
>>> decode_json("[" * 4000, max_depth=8, code="bad_json")
Traceback (most recent call last):
...
shogiban.web.schema.RequestError: json nested too deeply (more than 8 levels)
"""

from __future__ import annotations

import json
import math
import re
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from shogiban.errors import ShogibanError

#: Largest record accepted for upload, bytes.
MAX_RECORD_BYTES = 2_000_000
#: Largest upload body: the record, or its JSON form (``{"text"}``, escapes included).
MAX_UPLOAD_BYTES = 2 * MAX_RECORD_BYTES + 1000
#: The formats records are written in.
RECORD_FORMATS = ("kif", "ki2", "csa", "sfen", "jkf", "usi")
#: Largest JSON request body of the ordinary routes, bytes.
MAX_JSON_BYTES = 64_000
#: Longest websocket message, bytes.
MAX_MESSAGE_BYTES = 4096
#: Digits of the longest integer any field takes (a ply, a level, seconds).
MAX_INTEGER_DIGITS = 18
#: Levels of nesting accepted beyond what a declaration takes, so that a value one or two levels
#: too deep gets the field's own message ("invalid token: a list") rather than "too deep".
DEPTH_SLACK = 2
#: Characters of the input quoted in an error message.
EXCERPT_CHARS = 40


class RequestError(ShogibanError):
    """A request that does not match its declaration (or is refused for its size or rate).

    ``code`` is stable (clients translate it); ``status`` is the HTTP status to answer with.
    """

    code = "bad_request"

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A short, escaped quote of *value* for an error message (never more than about *limit*
    characters of it; containers and huge numbers are described, not printed).

    >>> excerpt("x" * 100, 5), excerpt(10**50), excerpt([1, [2]]), excerpt(b"\\xff/etc")
    ("'xxxxx'…", 'an integer of 51 digits', 'a list', "b'\\\\xff/etc'")
    """
    if isinstance(value, str | bytes | bytearray):
        # At most *limit* characters, and escapes (\x1f, \U0001f600) must not make it long.
        size = limit
        while True:
            part = value[:size]
            shown = repr(part if isinstance(part, str) else bytes(part))
            if len(shown) <= 2 * limit + 3 or size <= 1:
                return shown + ("…" if len(value) > size else "")
            size //= 2
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if abs(value) < 10**MAX_INTEGER_DIGITS:
            return repr(value)
        digits = len(str(value)) if value.bit_length() < 10_000 else None
        return f"an integer of {digits} digits" if digits else "a huge integer"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def shorten(message: str, limit: int = 160) -> str:
    """*message* (already escaped, e.g. a library error quoting its input) cut to *limit*
    characters.

    >>> shorten("abc" * 100, 10)
    'abcabcabca…'
    """
    return message if len(message) <= limit else message[:limit] + "…"


# -- decoding ---------------------------------------------------------------------------------------

# Linear scans only: escapes go first (each is exactly two characters), after which every quote
# is a real string delimiter and "[^"]*" cannot backtrack more than once per input.
_ESCAPES = re.compile(r"\\.", re.DOTALL)
_STRINGS = re.compile(r'"[^"]*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def nesting_depth(text: str) -> int:
    """How deeply the arrays and objects of JSON *text* nest (0 for a scalar), by a linear scan
    that ignores brackets inside strings.  For malformed text it may over-count, never under.

    >>> nesting_depth('{"a": [1, {"b": "[[[["}]}'), nesting_depth('"x"'), nesting_depth("[" * 5)
    (3, 0, 5)
    """
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", _ESCAPES.sub("", text)))
    if not brackets:
        return 0
    steps = array("b", brackets.encode("ascii").translate(_STEPS))
    return max(0, *accumulate(steps))


def _refuse_constant(name: str) -> Any:
    raise RequestError("bad_json", f"json number not allowed: {name} (numbers must be finite)")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise RequestError("bad_json", f"json number too long: {excerpt(text, 20)} ({len(text)} characters)")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RequestError("bad_json", f"json number out of range: {excerpt(text, 20)}")
    return value


#: Control characters and line or paragraph separators: never part of a one-line text.
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")

#: A JSON escape of a UTF-16 surrogate: only these can put a lone surrogate in decoded text.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _refuse_lone_surrogates(value: Any) -> None:
    """Refuse decoded JSON holding text that is not Unicode scalar values (a lone surrogate,
    from an escape such as ``\\udcff``): such text cannot be stored, written to a record or sent
    back as UTF-8, so it never gets past the edge."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                raise RequestError("bad_text", f"text is not valid Unicode (a lone surrogate at {error.start}): "
                                               f"{excerpt(item.encode('utf-8', 'backslashreplace'))}") from None


def decode_json(data: bytes | str, *, max_depth: int, code: str = "bad_json", max_bytes: int | None = None) -> Any:
    """Decode JSON *data* (UTF-8 bytes or text), refusing nesting deeper than *max_depth*,
    non-finite numbers and integers of more than :data:`MAX_INTEGER_DIGITS` digits.

    :raises RequestError: with *code* (status 400), or ``too_large`` (413) past *max_bytes*.
    """
    if max_bytes is not None and len(data) > max_bytes:
        raise RequestError("too_large", f"request too large: {len(data)} bytes (at most {max_bytes})", 413)
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise RequestError(code, f"json is not utf-8 (byte {error.start}): {excerpt(data)}") from error
    else:
        text = data
    if not text.strip():
        raise RequestError(code, "empty json")
    depth = nesting_depth(text)
    if depth > max_depth:
        raise RequestError(code, f"json nested too deeply (more than {max_depth} levels)")
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant)
        if _SURROGATE_ESCAPE.search(text):
            _refuse_lone_surrogates(value)
        return value
    except RequestError as error:
        raise RequestError(code, str(error)) from error
    except (json.JSONDecodeError, ValueError) as error:
        reason = error.msg if isinstance(error, json.JSONDecodeError) else "bad value"
        raise RequestError(code, f"malformed json: {excerpt(text)} ({reason})") from error


def encode_json(value: object) -> str:
    """*value* as compact JSON text that is valid UTF-8: non-ASCII characters are written as they
    are, unless a lone surrogate (from a client's escaped text) would make the text unencodable,
    when everything is escaped.

    >>> print(encode_json({"a": "将棋"}), encode_json([chr(0xDCFF)]))
    {"a":"将棋"} ["\\udcff"]
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = json.dumps(value, separators=(",", ":"))
    return text


# -- field types ------------------------------------------------------------------------------------
#
# Fields are pydantic types, validated in strict mode (no coercion: 1 is not "1", true is not 1).
# Lengths, ranges and list sizes are pydantic's own constraints; patterns run on pydantic's Rust
# regex engine, which is linear in the input.  The few checks pydantic does not make the way the
# server needs (exact-type choices, a finite number that stays an int, digits naming a bounded
# integer, text on one line) are the small validators below, and say what they expected.


def one_of(*values: str | int) -> Callable[[object], Any]:
    """A validator taking exactly one of *values*, compared with their type (``1`` is not
    ``"1"``, ``True`` is not ``1``: pydantic's ``Literal`` would take both)."""

    def check(value: object) -> str | int:
        if isinstance(value, str | int) and not isinstance(value, bool):
            for allowed in values:
                if type(allowed) is type(value) and allowed == value:
                    return value
        raise ValueError("expected one of " + ", ".join(repr(v) for v in values))

    return check


def finite_number(low: float, high: float) -> Callable[[object], int | float]:
    """A validator taking a finite number (not a boolean) from *low* to *high*; an int stays an int."""

    def check(value: object) -> int | float:
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or (isinstance(value, float) and not math.isfinite(value)) or not low <= value <= high:
            raise ValueError(f"expected a number from {low:g} to {high:g}")
        return value

    return check


def digits(low: int, high: int) -> Callable[[object], int]:
    """A validator taking decimal digits (a path or query parameter) naming an integer from *low*
    to *high*, returned as an int; never more digits than *high* has (never a 5,000-digit int())."""

    def check(value: object) -> int:
        if not isinstance(value, str) or not 1 <= len(value) <= len(str(high)) or not value.isascii() \
                or not value.isdigit() or not low <= int(value) <= high:
            raise ValueError(f"expected digits naming {low} to {high}")
        return int(value)

    return check


def one_line(value: str) -> str:
    """Refuse line breaks and other control characters (names written into record headers)."""
    if CONTROL_CHARACTERS.search(value) is not None:
        raise ValueError("expected text on one line, without control characters")
    return value


#: Game ids are made of letters and digits (see :meth:`shogiban.web.rooms.RoomManager.create`).
GameId = Annotated[str, StringConstraints(min_length=4, max_length=32, pattern=r"^[A-Za-z0-9]+$")]
#: Player tokens and invitations (``secrets.token_urlsafe``).
Secret = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
UsiMove = Annotated[str, StringConstraints(min_length=1, max_length=8)]
Ply = Annotated[int, Field(ge=0, le=1_000_000)]
#: The most seconds a main time, byoyomi or increment may be (the clock's LONGEST).
LONGEST_SECONDS = 24 * 3600
Seconds = Annotated[float, PlainValidator(finite_number(0, LONGEST_SECONDS))]
#: Most moves a new game may start with.
MAX_START_MOVES = 2000
Language = Annotated[str, StringConstraints(max_length=35, pattern=r"^[A-Za-z0-9-]*$")]
Sfen = Annotated[str, StringConstraints(max_length=200)]
RecordFormat = Annotated[str, PlainValidator(one_of(*RECORD_FORMATS))]


def _where(loc: tuple[int | str, ...]) -> str:
    """``time.main``, ``moves[3]``: where in the request a pydantic error is (keys cut short)."""
    where = ""
    for part in loc:
        if isinstance(part, int):
            where += f"[{part}]"
        else:
            where += ("." if where else "") + part[:EXCERPT_CHARS]
    return where


def refusal(error: ValidationError, code: str, *, skip: int = 0) -> RequestError:
    """The :class:`RequestError` (*code*) for pydantic's first complaint: where, a short quote of
    the value and what was expected; pydantic's own text never quotes the input.  *skip* leading
    parts of the location are dropped (a tagged union's tag)."""
    first = error.errors(include_url=False)[0]
    where = _where(tuple(first["loc"])[skip:]) or "value"
    if first["type"] == "missing":
        return RequestError(code, f"missing {where}")
    if first["type"] == "extra_forbidden":
        return RequestError(code, f"invalid {where}: {excerpt(first['input'])} (no such field)")
    reason = str(first.get("ctx", {}).get("error", "")) if first["type"] == "value_error" else ""
    reason = reason or first["msg"][:1].lower() + first["msg"][1:]
    return RequestError(code, f"invalid {where}: {excerpt(first['input'])} ({shorten(reason, 120)})")


def model_depth(annotation: Any) -> int:
    """How deeply a valid value of *annotation* (a model, list, union, ...) nests in JSON."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return 1 + max((model_depth(info.annotation) for info in annotation.model_fields.values()), default=0)
    inner = [model_depth(argument) for argument in get_args(annotation) if not isinstance(argument, str | int)]
    if get_origin(annotation) in (list, tuple):
        return 1 + max(inner, default=0)
    return max(inner, default=0)


class RequestModel(BaseModel):
    """A declared JSON object: strict types, undeclared keys ignored (refused when ``closed``)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class ClosedRequestModel(RequestModel):
    """A declared JSON object whose undeclared keys are refused."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


@dataclass(frozen=True)
class Body:
    """A JSON request body: its :class:`RequestModel` *model*, size and nesting.  The handler gets the
    checked object as a dict of the fields present."""

    what: str
    model: type[RequestModel]
    code: str = "bad_request"
    max_bytes: int = MAX_JSON_BYTES
    empty_is_object: bool = True
    """An empty body means ``{}`` (a POST without a body)."""
    json_code: str = "bad_json"
    """The code for text that is not JSON."""
    max_depth: int = field(init=False, repr=False, compare=False)
    """How deeply the JSON text may nest: the model's depth and :data:`DEPTH_SLACK`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_depth", model_depth(self.model) + DEPTH_SLACK)

    def decode(self, data: bytes | str) -> dict[str, Any]:
        """Decode and check *data*.

        :raises RequestError: ``bad_json`` for text that is not JSON (or too deep), *code* for
            a value that does not match, ``too_large`` (413) past :attr:`max_bytes`.
        """
        if self.empty_is_object and not data.strip():
            return self.check({})
        return self.check(decode_json(data, max_depth=self.max_depth, code=self.json_code, max_bytes=self.max_bytes))

    def check(self, value: object) -> dict[str, Any]:
        """Check an already decoded *value*."""
        if not isinstance(value, dict):
            raise RequestError(self.code, f"invalid {self.what}: {excerpt(value)} (expected a json object)")
        try:
            return self.model.model_validate(value).model_dump(exclude_unset=True)
        except ValidationError as error:
            raise refusal(error, self.code) from None


@dataclass(frozen=True)
class Param:
    """A path parameter of type *kind*, refused with *code* and *status* (404 for ids: no such thing)."""

    kind: Any
    code: str
    status: int = 404
    what: str = "value"
    adapter: TypeAdapter[Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "adapter", TypeAdapter(self.kind, config=ConfigDict(strict=True)))

    def check(self, value: object) -> Any:
        """The checked parameter.

        :raises RequestError: with :attr:`code` and :attr:`status`.
        """
        try:
            return self.adapter.validate_python(value)
        except ValidationError:
            raise RequestError(self.code, f"unknown {self.what}: {excerpt(value)}", self.status) from None


@dataclass(frozen=True)
class Query:
    """Declared query parameters (a :class:`RequestModel` *model* of optional strings); others are
    ignored.  *defaults* fill missing ones."""

    model: type[RequestModel]
    code: str = "bad_request"
    defaults: Mapping[str, str] = field(default_factory=dict)

    def check(self, params: Mapping[str, str]) -> dict[str, Any]:
        """The declared parameters, checked (missing ones are their default or None).

        :raises RequestError: with :attr:`code`.
        """
        given = {name: params.get(name, self.defaults.get(name)) for name in self.model.model_fields}
        try:
            return self.model.model_validate({k: v for k, v in given.items() if v is not None}).model_dump()
        except ValidationError as error:
            raise refusal(error, self.code) from None


# -- the declarations -------------------------------------------------------------------------------

GAME_ID = Param(GameId, "unknown_game", 404, "game")


class TimeControl(ClosedRequestModel):
    """Seconds of the clock; any other key is a mistake worth saying."""

    main: Seconds | None = None
    byoyomi: Seconds | None = None
    increment: Seconds | None = None


class NewGameRequest(RequestModel):
    """``POST /api/games`` (read by :func:`shogiban.web.newgame.parse_new_game`)."""

    mode: Annotated[str, PlainValidator(one_of("computer", "friend", "local"))] | None = None
    opponent: Annotated[str, PlainValidator(one_of("engine", "usi"))] | None = None
    level: Annotated[int | str, PlainValidator(one_of(*range(1, 9), *"12345678"))] | None = None
    color: Annotated[str, PlainValidator(one_of("b", "black", "sente", "w", "white", "gote", "random"))] | None = None
    handicap: Annotated[str, StringConstraints(max_length=40)] | None = None
    sfen: Sfen | None = None
    moves: Annotated[list[UsiMove], Field(max_length=MAX_START_MOVES)] | None = None
    time: TimeControl | None = None
    rule: Annotated[str, PlainValidator(one_of("", "27", "24", "27h", "24h", "none"))] | None = None
    name: Annotated[str, StringConstraints(max_length=40), AfterValidator(one_line)] | None = None


NEW_GAME = Body("new game request", NewGameRequest, code="bad_setup")


class JoinRequest(RequestModel):
    """``POST /api/games/{id}/join``: a friend's invitation (else the game's cookie)."""

    invite: Secret | None = None


JOIN = Body("join request", JoinRequest)


class RecordText(RequestModel):
    """A pasted record, sent as JSON (decoded in the worker that reads it, not on the event loop)."""

    text: Annotated[str, StringConstraints(max_length=MAX_RECORD_BYTES)]


RECORD_TEXT = Body("record", RecordText, code="bad_record", max_bytes=MAX_UPLOAD_BYTES, empty_is_object=False,
                   json_code="bad_record")
RECORD_FORMAT = Param(RecordFormat, "bad_record", 400, "record format")


class ExportQuery(RequestModel):
    """``?format=`` of an export."""

    format: RecordFormat | None = None


EXPORT_QUERY = Query(ExportQuery, code="bad_record", defaults={"format": "kif"})


class GamePageQuery(RequestModel):
    """The game page's query: a player's own link (``token``) or a friend's invitation
    (``invite``).  Any text is taken; whether it belongs to the game is checked against the game."""

    token: Annotated[str, StringConstraints(max_length=2000)] | None = None
    invite: Annotated[str, StringConstraints(max_length=2000)] | None = None


GAME_PAGE_QUERY = Query(GamePageQuery)


#: Moves a record sent for analysis may have (``game_analysis.MAX_POSITIONS``; the server's own
#: bound, :class:`~shogiban.web.game_analysis.AnalysisSettings`, is checked after).
MAX_ANALYSED_MOVES = 1000
#: A USI move's syntax (whether it is legal is checked by replaying the record).
UsiMoveText = Annotated[str, StringConstraints(max_length=8,
                                              pattern=r"^([1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])$")]


class RecordAnalysisRequest(ClosedRequestModel):
    """``POST /api/records/analysis``: a record's start SFEN and main-line USI moves."""

    sfen: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    moves: Annotated[list[UsiMoveText], Field(max_length=MAX_ANALYSED_MOVES)]


RECORD_ANALYSIS = Body("record to analyse", RecordAnalysisRequest, code="bad_record", empty_is_object=False)


class PracticeRequest(ClosedRequestModel):
    """``POST /api/practice/judge``: a move tried instead of a mistake, in the position after
    *moves* from *sfen*, judged against the engine's best move *best* there."""

    sfen: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    moves: Annotated[list[UsiMoveText], Field(max_length=MAX_ANALYSED_MOVES)]
    usi: UsiMoveText
    best: UsiMoveText


PRACTICE = Body("move to judge", PracticeRequest, code="invalid_move", empty_is_object=False)
#: A record analysis' key: the sha256 of the record (:func:`shogiban.web.game_analysis.record_key`).
RECORD_KEY = Param(Annotated[str, StringConstraints(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")],
                   "unknown_record", 404, "record analysis")


class PositionRequest(RequestModel):
    """A position from the editor; ``defender_hand`` (tsume): the defender holds every other piece."""

    sfen: Sfen
    defender_hand: StrictBool | None = None


POSITION = Body("position", PositionRequest, code="invalid_sfen")

#: Moves a position's legal-moves request may play from its SFEN (an explored line of a record).
MAX_POSITION_MOVES = 2000


class PositionMovesRequest(ClosedRequestModel):
    """``POST /api/positions/moves``: the position after *moves* (USI) from *sfen*."""

    sfen: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    moves: Annotated[list[UsiMoveText], Field(max_length=MAX_POSITION_MOVES)] = []


POSITION_MOVES = Body("position", PositionMovesRequest, code="invalid_position")

#: An explored record's bounds (``POST /api/records/tree``): moves of every line together, lines
#: nested in lines, and characters of one comment.
MAX_TREE_MOVES = 2000
MAX_TREE_DEPTH = 50
MAX_TREE_COMMENT = 2000
#: Largest explored record body, bytes.
MAX_TREE_BYTES = 1_000_000


class TreeMove(ClosedRequestModel):
    """A move of an explored record: its comment and its alternatives (each a line of moves)."""

    usi: UsiMoveText
    comment: Annotated[str, StringConstraints(max_length=MAX_TREE_COMMENT)] = ""
    variations: Annotated[list[Annotated[list[TreeMove], Field(max_length=MAX_TREE_MOVES)]],
                          Field(max_length=MAX_TREE_MOVES)] = []


class RecordTreeRequest(ClosedRequestModel):
    """``POST /api/records/tree``: the start position and the main line, variations nested."""

    start_sfen: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    moves: Annotated[list[TreeMove], Field(max_length=MAX_TREE_MOVES)] = []
    game: GameId | None = None
    """Write the stored analysis of this game into the comments (ShogiHome's form; floodgate's in CSA)."""
    record: Annotated[str, StringConstraints(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")] | None = None
    """... or of this uploaded record (its key)."""


TreeMove.model_rebuild()


@dataclass(frozen=True)
class TreeBody(Body):
    """A body of nested lines: its nesting is bounded by :data:`MAX_TREE_DEPTH` (a recursive model
    has no depth of its own); the moves and the depth are counted once it is checked."""

    def __post_init__(self) -> None:
        # {moves: [{variations: [[{...}]]}]}: three levels a variation, three for the main line.
        object.__setattr__(self, "max_depth", 3 * (MAX_TREE_DEPTH + 1) + DEPTH_SLACK)

    def check(self, value: object) -> dict[str, Any]:
        checked = super().check(value)
        count = 0
        lines: list[tuple[list[dict[str, Any]], int]] = [(checked.get("moves", []), 0)]
        while lines:
            line, depth = lines.pop()
            if depth > MAX_TREE_DEPTH:
                raise RequestError(self.code, f"variations nested too deeply (more than {MAX_TREE_DEPTH})")
            count += len(line)
            if count > MAX_TREE_MOVES:
                raise RequestError(self.code, f"too many moves (more than {MAX_TREE_MOVES} in every line together)")
            for move in line:
                lines.extend((variation, depth + 1) for variation in move.get("variations", []))
        return checked


RECORD_TREE = TreeBody("explored record", RecordTreeRequest, code="bad_tree", max_bytes=MAX_TREE_BYTES,
                       empty_is_object=False)


class LessonTry(RequestModel):
    """A move tried in a lesson's section."""

    usi: UsiMove
    lang: Language | None = None


LESSON_TRY = Body("move", LessonTry, code="invalid_move")


class LessonAnswer(RequestModel):
    """An answer without a move in a lesson's section: a *square* clicked (with the *step* of a
    placement exercise, the number of pieces already placed) or a *choice* picked."""

    square: Annotated[str, StringConstraints(min_length=2, max_length=2)] | None = None
    step: Annotated[StrictInt, Field(ge=0, le=99)] | None = None
    choice: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None
    lang: Language | None = None


LESSON_ANSWER = Body("answer", LessonAnswer, code="bad_answer")
#: Longest line of moves a puzzle request may carry (the longest problem is far shorter).
MAX_PUZZLE_LINE = 64
PuzzleLine = Annotated[list[UsiMove], Field(max_length=MAX_PUZZLE_LINE)]


class PuzzleMove(RequestModel):
    """A move tried in a puzzle, after the *line* played so far."""

    line: PuzzleLine | None = None
    usi: UsiMove
    lang: Language | None = None


class PuzzleHint(RequestModel):
    """A hint asked for in a puzzle, after the *line* played so far."""

    line: PuzzleLine | None = None
    lang: Language | None = None


PUZZLE_MOVE = Body("puzzle move", PuzzleMove, code="bad_line")
PUZZLE_HINT = Body("puzzle hint", PuzzleHint, code="bad_line")


class LanguageQuery(RequestModel):
    """``?lang=``: the language to answer in."""

    lang: Annotated[str, StringConstraints(max_length=35)] | None = None


LANG_QUERY = Query(LanguageQuery)
LESSON_ID = Param(Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=r"^[a-z0-9_-]+$")],
                  "unknown_lesson", 404, "lesson")
PUZZLE_ID = Param(Annotated[str, StringConstraints(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9_-]+$")],
                  "unknown_puzzle", 404, "puzzle")
SECTION_INDEX = Param(Annotated[int, PlainValidator(digits(0, 999))], "unknown_lesson", 404, "section")


# -- websocket messages -----------------------------------------------------------------------------
#
# One model per client message, told apart by ``type``; :func:`read_message` is the one place
# they are validated.  Undeclared fields are ignored (a newer page may send more).

Token = Annotated[str, StringConstraints(max_length=200)]


class ClientHello(RequestModel):
    """Identify the connection with a player's token (else the game's cookie)."""

    type: Literal["hello"]
    token: Token | None = None


#: A move as typed in the move box (any notation the terminal reads).
MAX_MOVE_TEXT = 40


class ClientMove(RequestModel):
    """Play a move; *ply* is the number of moves already played (rejects stale moves).  The
    move is *usi*, or *text* as a person typed it in any notation (``７六歩``, ``76歩``, ``同歩``,
    ``P-7f``, ``+7776FU``, ``歩-76``, ``7g7f``)."""

    type: Literal["move"]
    usi: UsiMove | None = None
    text: Annotated[str, StringConstraints(min_length=1, max_length=MAX_MOVE_TEXT)] | None = None
    ply: Ply

    @model_validator(mode="after")
    def _one_move(self) -> ClientMove:
        if (self.usi is None) == (self.text is None):
            raise ValueError("give the move as usi or as text (one of them)")
        return self


class ClientResign(RequestModel):
    """Resign (投了)."""

    type: Literal["resign"]


class ClientUndo(RequestModel):
    """Take back the last own move (and the computer's reply); between friends, ask for it or
    agree to the opponent's request."""

    type: Literal["undo"]
    ply: Ply


class ClientDeclineUndo(RequestModel):
    """Refuse the opponent's take-back request, or withdraw one's own (friends' games)."""

    type: Literal["decline_undo"]


class ClientHint(RequestModel):
    """Ask the engine for a move."""

    type: Literal["hint"]
    ply: Ply


class ClientDeclare(RequestModel):
    """Declare an entering-king win (入玉宣言)."""

    type: Literal["declare"]
    ply: Ply


class ClientImpasse(RequestModel):
    """Propose or accept 持将棋 (both kings entered)."""

    type: Literal["impasse"]
    ply: Ply


class ClientPing(RequestModel):
    """Keep-alive."""

    type: Literal["ping"]


ClientMessageModel = (
    ClientHello | ClientMove | ClientResign | ClientUndo | ClientDeclineUndo | ClientHint | ClientDeclare
    | ClientImpasse | ClientPing
)
_CLIENT_MESSAGE = TypeAdapter[ClientMessageModel](Annotated[ClientMessageModel, Field(discriminator="type")])
#: The client message models by ``type``.
CLIENT_MESSAGES: Mapping[str, type[RequestModel]] = {
    get_args(model.model_fields["type"].annotation)[0]: model for model in get_args(ClientMessageModel)
}
#: How deeply a websocket message may nest (messages are flat objects).
MESSAGE_DEPTH = 1 + DEPTH_SLACK


def read_message(data: str | bytes | None) -> ClientMessageModel:
    """Decode and check one websocket message: ``{"type": ...}`` with that type's fields.

    >>> read_message('{"type": "move", "usi": "7g7f", "ply": 0, "later": true}')
    ClientMove(type='move', usi='7g7f', text=None, ply=0)

    :raises RequestError: ``bad_json`` for what is not a JSON object (or too long or too deep),
        ``unknown_type`` for an undeclared ``type``, ``bad_message`` for a field that does not
        match.
    """
    if data is None:
        raise RequestError("bad_json", "empty message")
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > MAX_MESSAGE_BYTES:
        raise RequestError("bad_json", f"message too long ({size} bytes, at most {MAX_MESSAGE_BYTES})")
    value = decode_json(data, max_depth=MESSAGE_DEPTH)
    if not isinstance(value, dict):
        raise RequestError("bad_json", f"expected a json object, got {excerpt(value)}")
    try:
        return _CLIENT_MESSAGE.validate_python(value)
    except ValidationError as error:
        if error.errors(include_url=False)[0]["type"] in ("union_tag_invalid", "union_tag_not_found"):
            raise RequestError("unknown_type", f"unknown message type: {excerpt(value.get('type'))}") from None
        raise refusal(error, "bad_message", skip=1) from None  # the location starts with the tag


def decode_message(data: str | bytes | None) -> dict[str, Any]:
    """:func:`read_message` as a dict of the fields present.

    :raises RequestError: as :func:`read_message`.
    """
    return read_message(data).model_dump(exclude_unset=True)


# -- the live-analysis websocket (``/ws/analysis``) -------------------------------------------------

#: Lines a live analysis may show at once (MultiPV).
MAX_LIVE_LINES = 5
#: Moves a live-analysis request may give after its start position (the history, for repetitions).
MAX_LIVE_MOVES = 1000
#: A live-analysis request's size, bytes (a start SFEN and up to :data:`MAX_LIVE_MOVES` moves).
MAX_LIVE_MESSAGE_BYTES = 12_000


class LiveAnalyse(RequestModel):
    """Analyse the position after *moves* from *sfen* (the start position when omitted), showing
    *lines* lines; *id* is echoed in the answers, so a page tells a stale answer from the current."""

    type: Literal["analyse"]
    id: Annotated[int, Field(ge=0, le=2**31)]
    sfen: Sfen | None = None
    moves: Annotated[list[UsiMove], Field(max_length=MAX_LIVE_MOVES)] = []
    lines: Annotated[int, Field(ge=1, le=MAX_LIVE_LINES)] = 1
    engine: Literal["builtin", "usi"] = "builtin"
    """The built-in engine, or the USI engine the server was started with."""


class LiveStop(RequestModel):
    """Stop the running live analysis."""

    type: Literal["stop"]


LiveMessageModel = LiveAnalyse | LiveStop
_LIVE_MESSAGE = TypeAdapter[LiveMessageModel](Annotated[LiveMessageModel, Field(discriminator="type")])


def read_live_message(data: str | bytes | None) -> LiveMessageModel:
    """Decode and check one message of the live-analysis websocket.

    >>> read_live_message('{"type": "analyse", "id": 3, "moves": ["7g7f"], "lines": 3}')
    LiveAnalyse(type='analyse', id=3, sfen=None, moves=['7g7f'], lines=3, engine='builtin')

    :raises RequestError: as :func:`read_message` (``bad_json``, ``unknown_type``, ``bad_message``).
    """
    if data is None:
        raise RequestError("bad_json", "empty message")
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > MAX_LIVE_MESSAGE_BYTES:
        raise RequestError("bad_json", f"message too long ({size} bytes, at most {MAX_LIVE_MESSAGE_BYTES})")
    value = decode_json(data, max_depth=2 + DEPTH_SLACK)
    if not isinstance(value, dict):
        raise RequestError("bad_json", f"expected a json object, got {excerpt(value)}")
    try:
        return _LIVE_MESSAGE.validate_python(value)
    except ValidationError as error:
        if error.errors(include_url=False)[0]["type"] in ("union_tag_invalid", "union_tag_not_found"):
            raise RequestError("unknown_type", f"unknown message type: {excerpt(value.get('type'))}") from None
        raise refusal(error, "bad_message", skip=1) from None
