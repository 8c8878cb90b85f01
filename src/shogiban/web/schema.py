"""Every request the server accepts, declared in one place: the JSON bodies of the HTTP routes,
their path and query parameters, and the websocket messages.

A declaration names each field's type, range, length and allowed values.  JSON text is decoded by
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
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

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


class _InvalidFieldError(Exception):
    """A field that does not match (turned into a :class:`RequestError` by the schema)."""

    def __init__(self, where: str, value: object, expected: str, *, missing: bool = False) -> None:
        if missing:
            super().__init__(f"missing {where} (expected {expected})")
        else:
            super().__init__(f"invalid {where}: {excerpt(value)} (expected {expected})")


class Spec:
    """A field's declaration: :meth:`check` returns the value (possibly normalised) or raises."""

    def check(self, value: object, where: str) -> Any:
        """The checked *value* of field *where*."""
        raise NotImplementedError

    def expected(self) -> str:
        """What the field takes, for messages."""
        raise NotImplementedError

    def depth(self) -> int:
        """How deeply a valid value nests (arrays and objects)."""
        return 0


@dataclass(frozen=True)
class Text(Spec):
    """A string of *min_length* to *max_length* characters, matching *pattern* if given (which
    must be a plain character class with a repetition: it runs on untrusted input)."""

    max_length: int
    min_length: int = 0
    pattern: str | None = None
    what: str = "text"
    one_line: bool = False
    """Refuse line breaks and other control characters (names written into record headers)."""

    def check(self, value: object, where: str) -> str:
        """The string."""
        if not isinstance(value, str) or not self.min_length <= len(value) <= self.max_length:
            raise _InvalidFieldError(where, value, self.expected())
        if self.one_line and CONTROL_CHARACTERS.search(value) is not None:
            raise _InvalidFieldError(where, value, f"{self.expected()} on one line, without control characters")
        if self.pattern is not None and re.fullmatch(self.pattern, value) is None:
            raise _InvalidFieldError(where, value, self.expected())
        return value

    def expected(self) -> str:
        """E.g. "text of 1 to 8 characters"."""
        return f"{self.what} of {self.min_length} to {self.max_length} characters"


@dataclass(frozen=True)
class Integer(Spec):
    """An integer (not a boolean) from *low* to *high*."""

    low: int
    high: int

    def check(self, value: object, where: str) -> int:
        """The integer."""
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            raise _InvalidFieldError(where, value, self.expected())
        return value

    def expected(self) -> str:
        """E.g. "an integer from 1 to 8"."""
        return f"an integer from {self.low} to {self.high}"


@dataclass(frozen=True)
class Digits(Spec):
    """Decimal digits (a path or query parameter) naming an integer from *low* to *high*,
    returned as an int; at most as many digits as *high* has (never a 5,000-digit int())."""

    low: int
    high: int

    def check(self, value: object, where: str) -> int:
        """The integer."""
        if not isinstance(value, str) or not 1 <= len(value) <= len(str(self.high)) or not value.isascii() \
                or not value.isdigit() or not self.low <= int(value) <= self.high:
            raise _InvalidFieldError(where, value, self.expected())
        return int(value)

    def expected(self) -> str:
        """E.g. "digits naming 0 to 999"."""
        return f"digits naming {self.low} to {self.high}"


@dataclass(frozen=True)
class Number(Spec):
    """A finite number (not a boolean) from *low* to *high*."""

    low: float
    high: float

    def check(self, value: object, where: str) -> int | float:
        """The number."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _InvalidFieldError(where, value, self.expected())
        if (isinstance(value, float) and not math.isfinite(value)) or not self.low <= value <= self.high:
            raise _InvalidFieldError(where, value, self.expected())
        return value

    def expected(self) -> str:
        """E.g. "a number from 0 to 86400"."""
        return f"a number from {self.low:g} to {self.high:g}"


@dataclass(frozen=True)
class OneOf(Spec):
    """One of the given strings or integers (compared with their type: ``1`` is not ``"1"``)."""

    values: tuple[str | int, ...]

    def check(self, value: object, where: str) -> str | int:
        """The value."""
        if isinstance(value, str | int) and not isinstance(value, bool):
            for allowed in self.values:
                if type(allowed) is type(value) and allowed == value:
                    return value
        raise _InvalidFieldError(where, value, self.expected())

    def expected(self) -> str:
        """E.g. "one of 'a', 'b'"."""
        return "one of " + ", ".join(repr(v) for v in self.values)


@dataclass(frozen=True)
class Flag(Spec):
    """``true`` or ``false`` (not 0, 1 or a string)."""

    def check(self, value: object, where: str) -> bool:
        """The value."""
        if isinstance(value, bool):
            return value
        raise _InvalidFieldError(where, value, self.expected())

    def expected(self) -> str:
        """What is accepted."""
        return "true or false"


@dataclass(frozen=True)
class AnyOf(Spec):
    """The first of *specs* that accepts the value."""

    specs: tuple[Spec, ...]

    def check(self, value: object, where: str) -> Any:
        """The value, as the first accepting spec returns it."""
        for spec in self.specs:
            try:
                return spec.check(value, where)
            except _InvalidFieldError:
                continue
        raise _InvalidFieldError(where, value, self.expected())

    def expected(self) -> str:
        """The alternatives."""
        return " or ".join(spec.expected() for spec in self.specs)

    def depth(self) -> int:
        """The deepest alternative."""
        return max(spec.depth() for spec in self.specs)


@dataclass(frozen=True)
class Nullable(Spec):
    """*spec*, or null (a missing field is null too)."""

    spec: Spec

    def check(self, value: object, where: str) -> Any:
        """None, or the checked value."""
        return None if value is None else self.spec.check(value, where)

    def expected(self) -> str:
        """The spec's, or null."""
        return f"{self.spec.expected()}, or null"

    def depth(self) -> int:
        """The spec's."""
        return self.spec.depth()


@dataclass(frozen=True)
class ListOf(Spec):
    """An array of at most *max_items* items, each checked by *item*."""

    item: Spec
    max_items: int

    def check(self, value: object, where: str) -> list[Any]:
        """The checked items."""
        if not isinstance(value, list) or len(value) > self.max_items:
            raise _InvalidFieldError(where, value, self.expected())
        return [self.item.check(element, f"{where}[{index}]") for index, element in enumerate(value)]

    def expected(self) -> str:
        """E.g. "a list of at most 64 items (text of ...)"."""
        return f"a list of at most {self.max_items} items ({self.item.expected()})"

    def depth(self) -> int:
        """One more than an item."""
        return 1 + self.item.depth()


@dataclass(frozen=True)
class Fields(Spec):
    """A JSON object with the declared *fields*; those in *required* must be present (the
    others may be missing, and are missing from the result too).  Undeclared keys are ignored
    (kept out of the result) unless *closed*, when they are refused."""

    fields: Mapping[str, Spec]
    required: frozenset[str] = frozenset()
    closed: bool = False

    def check(self, value: object, where: str) -> dict[str, Any]:
        """The declared fields present in *value*, checked."""
        if not isinstance(value, dict):
            raise _InvalidFieldError(where, value, "an object")
        if self.closed:
            unknown = sorted(str(key) for key in value if key not in self.fields)
            if unknown:
                raise _InvalidFieldError(f"{where}.{unknown[0][:EXCERPT_CHARS]}", value[unknown[0]], "no such field")
        checked: dict[str, Any] = {}
        for name, spec in self.fields.items():
            inner = f"{where}.{name}" if where else name
            if name not in value:
                if name in self.required:
                    raise _InvalidFieldError(inner, None, spec.expected(), missing=True)
                continue
            checked[name] = spec.check(value[name], inner)
        return checked

    def expected(self) -> str:
        """An object with ... fields."""
        return "an object with " + ", ".join(self.fields)

    def depth(self) -> int:
        """One more than the deepest field."""
        return 1 + max((spec.depth() for spec in self.fields.values()), default=0)


@dataclass(frozen=True)
class Body:
    """A JSON request body (or websocket message): size, nesting and fields."""

    what: str
    fields: Fields
    code: str = "bad_request"
    max_bytes: int = MAX_JSON_BYTES
    empty_is_object: bool = True
    """An empty body means ``{}`` (a POST without a body)."""
    json_code: str = "bad_json"
    """The code for text that is not JSON."""

    def decode(self, data: bytes | str) -> dict[str, Any]:
        """Decode and check *data*.

        :raises RequestError: ``bad_json`` for text that is not JSON (or too deep), *code* for
            a value that does not match, ``too_large`` (413) past :attr:`max_bytes`.
        """
        if self.empty_is_object and not data.strip():
            return self.check({})
        depth = self.fields.depth() + DEPTH_SLACK
        return self.check(decode_json(data, max_depth=depth, code=self.json_code, max_bytes=self.max_bytes))

    def check(self, value: object) -> dict[str, Any]:
        """Check an already decoded *value*."""
        if not isinstance(value, dict):
            raise RequestError(self.code, f"invalid {self.what}: {excerpt(value)} (expected a json object)")
        try:
            return self.fields.check(value, "")
        except _InvalidFieldError as invalid:
            raise RequestError(self.code, str(invalid)) from None


@dataclass(frozen=True)
class Param:
    """A path parameter: *spec*, refused with *code* and *status* (404 for ids: no such thing)."""

    spec: Spec
    code: str
    status: int = 404
    what: str = "value"

    def check(self, value: object) -> Any:
        """The checked parameter.

        :raises RequestError: with :attr:`code` and :attr:`status`.
        """
        try:
            return self.spec.check(value, self.what)
        except _InvalidFieldError:
            raise RequestError(self.code, f"unknown {self.what}: {excerpt(value)}", self.status) from None


@dataclass(frozen=True)
class Query:
    """Declared query parameters (strings); others are ignored.  *defaults* fill missing ones."""

    fields: Mapping[str, Spec]
    code: str = "bad_request"
    defaults: Mapping[str, str] = field(default_factory=dict)

    def check(self, params: Mapping[str, str]) -> dict[str, Any]:
        """The declared parameters, checked (missing ones are their default or None).

        :raises RequestError: with :attr:`code`.
        """
        checked: dict[str, Any] = {}
        for name, spec in self.fields.items():
            value = params.get(name, self.defaults.get(name))
            try:
                checked[name] = None if value is None else spec.check(value, name)
            except _InvalidFieldError as invalid:
                raise RequestError(self.code, str(invalid)) from None
        return checked


# -- the declarations -------------------------------------------------------------------------------

#: Game ids are made of letters and digits (see :meth:`shogiban.web.rooms.RoomManager.create`).
GAME_ID = Param(Text(32, 4, r"[A-Za-z0-9]+", "an id"), "unknown_game", 404, "game")
#: Player tokens and invitations (``secrets.token_urlsafe``).
SECRET = Text(64, 1, r"[A-Za-z0-9_-]+", "a token")
USI_MOVE = Text(8, 1, what="usi text")
PLY = Integer(0, 1_000_000)
#: The most seconds a main time, byoyomi or increment may be (the clock's LONGEST).
LONGEST_SECONDS = 24 * 3600
SECONDS = Number(0, LONGEST_SECONDS)
#: Most moves a new game may start with.
MAX_START_MOVES = 2000
LANGUAGE = Text(35, 0, r"[A-Za-z0-9-]*", "a language tag")

NEW_GAME = Body("new game request", Fields({
    "mode": Nullable(OneOf(("computer", "friend", "local"))),
    "opponent": Nullable(OneOf(("engine", "usi"))),
    "level": Nullable(AnyOf((Integer(1, 8), OneOf(tuple("12345678"))))),
    "color": Nullable(OneOf(("b", "black", "sente", "w", "white", "gote", "random"))),
    "handicap": Nullable(Text(40, what="a handicap name")),
    "sfen": Nullable(Text(200, what="sfen")),
    "moves": Nullable(ListOf(USI_MOVE, MAX_START_MOVES)),
    "time": Nullable(Fields({"main": SECONDS, "byoyomi": SECONDS, "increment": SECONDS}, closed=True)),
    "rule": Nullable(OneOf(("", "27", "24", "27h", "24h", "none"))),
    "name": Nullable(Text(40, what="a name", one_line=True)),
}), code="bad_setup")

JOIN = Body("join request", Fields({"invite": Nullable(SECRET)}))

#: A pasted record, sent as JSON (decoded in the worker that reads it, not on the event loop).
RECORD_TEXT = Body("record", Fields({"text": Text(MAX_RECORD_BYTES, what="the record")}, frozenset({"text"})),
                   code="bad_record", max_bytes=MAX_UPLOAD_BYTES, empty_is_object=False, json_code="bad_record")
RECORD_FORMAT = Param(OneOf(RECORD_FORMATS), "bad_record", 400, "record format")
EXPORT_QUERY = Query({"format": OneOf(RECORD_FORMATS)}, code="bad_record", defaults={"format": "kif"})
#: The game page's query: a player's own link (``token``) or a friend's invitation (``invite``).
#: Any text is taken; whether it belongs to the game is checked against the game.
GAME_PAGE_QUERY = Query({"token": Text(2000, what="a token"), "invite": Text(2000, what="an invitation")})

#: A position from the editor; ``defender_hand`` (tsume): the defender holds every other piece.
POSITION = Body("position", Fields({
    "sfen": Text(200, what="sfen"), "defender_hand": Nullable(Flag()),
}, frozenset({"sfen"})), code="invalid_sfen")

LESSON_TRY = Body("move", Fields({"usi": USI_MOVE, "lang": Nullable(LANGUAGE)}, frozenset({"usi"})),
                  code="invalid_move")
#: Longest line of moves a puzzle request may carry (the longest problem is far shorter).
MAX_PUZZLE_LINE = 64
PUZZLE_MOVE = Body("puzzle move", Fields({
    "line": Nullable(ListOf(USI_MOVE, MAX_PUZZLE_LINE)), "usi": USI_MOVE, "lang": Nullable(LANGUAGE),
}, frozenset({"usi"})), code="bad_line")
PUZZLE_HINT = Body("puzzle hint", Fields({
    "line": Nullable(ListOf(USI_MOVE, MAX_PUZZLE_LINE)), "lang": Nullable(LANGUAGE),
}), code="bad_line")

LANG_QUERY = Query({"lang": Text(35, what="a language tag")})
LESSON_ID = Param(Text(40, 1, r"[a-z0-9_-]+", "an id"), "unknown_lesson", 404, "lesson")
PUZZLE_ID = Param(Text(60, 1, r"[A-Za-z0-9_-]+", "an id"), "unknown_puzzle", 404, "puzzle")
SECTION_INDEX = Param(Digits(0, 999), "unknown_lesson", 404, "section")

#: Websocket messages by ``type``; undeclared fields are ignored.
_TOKEN_FIELD = Nullable(Text(200, what="a token"))
CLIENT_MESSAGES: Mapping[str, Fields] = {
    "hello": Fields({"type": Text(16), "token": _TOKEN_FIELD}),
    "move": Fields({"type": Text(16), "usi": USI_MOVE, "ply": PLY}, frozenset({"usi", "ply"})),
    "resign": Fields({"type": Text(16)}),
    "undo": Fields({"type": Text(16), "ply": PLY}, frozenset({"ply"})),
    "hint": Fields({"type": Text(16), "ply": PLY}, frozenset({"ply"})),
    "declare": Fields({"type": Text(16), "ply": PLY}, frozenset({"ply"})),
    "impasse": Fields({"type": Text(16), "ply": PLY}, frozenset({"ply"})),
    "ping": Fields({"type": Text(16)}),
}
#: How deeply a websocket message may nest (messages are flat objects).
MESSAGE_DEPTH = 1 + DEPTH_SLACK


def decode_message(data: str | bytes | None) -> dict[str, Any]:
    """Decode and check one websocket message: ``{"type": ...}`` with that type's fields.

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
    kind = value.get("type")
    fields = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise RequestError("unknown_type", f"unknown message type: {excerpt(kind)}")
    try:
        return fields.check(value, "")
    except _InvalidFieldError as invalid:
        raise RequestError("bad_message", str(invalid)) from None
