"""The request declarations: the bounded JSON decoder, the field types, and every declared body
against random input."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ConfigDict, Field, PlainValidator, StringConstraints, TypeAdapter, ValidationError
from tests.hypothesis_budget import examples

from shogiban.web import schema
from shogiban.web.schema import (
    CLIENT_MESSAGES,
    NEW_GAME,
    Body,
    ClosedRequestModel,
    RequestError,
    RequestModel,
    decode_json,
    decode_message,
    digits,
    excerpt,
    finite_number,
    model_depth,
    nesting_depth,
    one_of,
    read_message,
)


def _containers_of(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # A named function, not a lambda: Hypothesis reads a lambda's source to check that it uses its
    # argument, and sometimes failed to find it ("doesn't use it's argument" warnings).
    return st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from('ab"\\[]{}:,\n\u00e9'), max_size=12),
    _containers_of,
    max_leaves=30,
)


def real_depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((real_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((real_depth(v) for v in value.values()), default=0)
    return 0


@given(JSON, st.booleans())
def test_nesting_depth_is_the_real_depth(value: Any, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert nesting_depth(text) == real_depth(value)


@given(st.text(max_size=300))
def test_nesting_depth_never_under_counts(text: str) -> None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    assert nesting_depth(text) >= real_depth(value)


@pytest.mark.parametrize("unit", ['\\"', '"\\"', "[", '"', "\\", '{"a":"\\\\"', '"\\u12'])
def test_nesting_depth_is_linear(unit: str) -> None:
    def cost(n: int) -> float:
        text = '"' + unit * n
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            nesting_depth(text)
            best = min(best, time.process_time() - start)
        return best

    small, large = cost(20_000), cost(160_000)
    assert large < 40 * small + 0.05, (small, large)  # 8x the input: linear is ~8x, quadratic 64x


@pytest.mark.parametrize(("text", "reason"), [
    ("NaN", "not allowed"), ("[Infinity]", "not allowed"), ("-Infinity", "not allowed"),
    ("1e999", "out of range"), ("[-1e400]", "out of range"), ("9" * 19, "too long"), ("-" + "9" * 5000, "too long"),
    ("[" * 50 + "]" * 50, "too deeply"), ('{"a":' * 30 + "1" + "}" * 30, "too deeply"),
    ("", "empty"), ("{", "malformed"), (b"\xff", "not utf-8"),
])
def test_decode_json_refuses(text: str | bytes, reason: str) -> None:
    with pytest.raises(RequestError, match=reason) as raised:
        decode_json(text, max_depth=8)
    assert raised.value.code == "bad_json"
    assert raised.value.status == 400
    assert len(str(raised.value)) < 200


def test_decode_json_accepts_plain_json() -> None:
    assert decode_json(b'{"a": [1, 2.5, "x", null, true]}', max_depth=2) == {"a": [1, 2.5, "x", None, True]}
    assert decode_json("9" * 18, max_depth=0) == int("9" * 18)
    with pytest.raises(RequestError) as raised:
        decode_json(b"[1]" * 10, max_depth=1, max_bytes=8)
    assert (raised.value.code, raised.value.status) == ("too_large", 413)


@given(st.one_of(JSON, st.binary(max_size=50), st.integers(), st.text(min_size=100, max_size=10_000)))
def test_excerpts_are_short(value: Any) -> None:
    assert len(excerpt(value)) <= 2 * schema.EXCERPT_CHARS + 8


def test_excerpt_describes_what_it_does_not_print() -> None:
    assert excerpt(10**5000) == "a huge integer"
    assert excerpt([1] * 10_000) == "a list"
    assert excerpt({"a": 1}) == "an object"
    assert excerpt("\n\x00") == "'\\n\\x00'"


class Required(RequestModel):
    a: Annotated[int, Field(ge=0, le=1)]


class Closed(ClosedRequestModel):
    a: Annotated[int, Field(ge=0, le=1)] | None = None


def test_field_types() -> None:
    checks: list[tuple[Any, list[Any], list[Any]]] = [
        (Annotated[str, StringConstraints(min_length=1, max_length=3, pattern="^[a-c]+$")],
         ["a", "abc"], ["", "abcd", "x", "a\n", 1, None, ["a"]]),
        (Annotated[int, Field(ge=0, le=5)], [0, 5], [-1, 6, True, 1.0, "1", None]),
        (Annotated[float, PlainValidator(finite_number(0, 10))], [0, 2.5, 10],
         [-0.1, 11, True, "1", float("nan"), float("inf"), 10**400]),
        (Annotated[str | int, PlainValidator(one_of("a", 1))], ["a", 1], ["b", 2, True, 1.0, ["a"], {"a": 1}]),
        (Annotated[int, Field(ge=0, le=1)] | None, [None, 1], [2, "x"]),
        (Annotated[list[Annotated[int, Field(ge=0, le=9)]], Field(max_length=2)], [[], [1, 2]],
         [[1, 2, 3], [10], "12", {"a": 1}]),
        (Annotated[int, PlainValidator(digits(0, 999))], ["0", "999"],
         ["1000", "", "-1", "1.5", "٣", "9" * 5000, 5]),
        (Required, [{"a": 1}, {"a": 0, "b": 2}], [{}, {"a": 2}, [], "a"]),
        (Closed, [{}, {"a": 1}], [{"b": 1}]),
    ]
    for kind, good, bad in checks:
        strict = None if isinstance(kind, type) else ConfigDict(strict=True)  # models carry their own config
        adapter: TypeAdapter[Any] = TypeAdapter(kind, config=strict)
        for value in good:
            adapter.validate_python(value)
        for value in bad:
            with pytest.raises(ValidationError):
                adapter.validate_python(value)
    assert TypeAdapter(Annotated[int, PlainValidator(digits(0, 999))]).validate_python("042") == 42
    assert Required.model_validate({"a": 1, "b": 2}).model_dump() == {"a": 1}
    assert TypeAdapter(Annotated[float, PlainValidator(finite_number(0, 10))]).validate_python(3) == 3
    assert type(TypeAdapter(Annotated[float, PlainValidator(finite_number(0, 10))]).validate_python(3)) is int


def test_refusals_say_where_what_and_quote_little() -> None:
    cases = [
        (b'{"time": {"main": 1e300}}', "invalid time.main: 1e+300 (expected a number from 0 to 86400)"),
        (b'{"time": {"mainx": 1}}', "invalid time.mainx: 1 (no such field)"),
        (b'{"moves": ["7g7f", ""]}', "invalid moves[1]: ''"),
        (b'{"level": true}', "invalid level: True (expected one of 1,"),
        (b'{"name": "a\\nb"}', "invalid name: 'a\\nb' (expected text on one line"),
    ]
    for body, start in cases:
        with pytest.raises(RequestError) as raised:
            NEW_GAME.decode(body)
        assert str(raised.value).startswith(start), str(raised.value)
        assert raised.value.code == "bad_setup"
    with pytest.raises(RequestError) as raised:
        NEW_GAME.decode(json.dumps({"time": {"S" * 5000: 1}, "mode": "S" * 5000}))
    assert str(raised.value).count("S") <= 45


def test_declared_depths() -> None:
    assert model_depth(NEW_GAME.model) == 2  # {"time": {...}}, {"moves": [...]}
    assert model_depth(schema.PUZZLE_MOVE.model) == 2
    assert model_depth(schema.POSITION.model) == 1
    assert all(model_depth(model) == 1 for model in CLIENT_MESSAGES.values())


def test_messages_are_models_told_apart_by_type() -> None:
    assert set(CLIENT_MESSAGES) == {"hello", "move", "resign", "undo", "decline_undo", "hint", "declare", "impasse",
                                    "ping"}
    move = read_message('{"type": "move", "usi": "7g7f", "ply": 3, "extra": [1]}')
    assert isinstance(move, schema.ClientMove)
    assert (move.usi, move.ply) == ("7g7f", 3)
    assert decode_message('{"type": "hello"}') == {"type": "hello"}  # what is missing stays missing
    for frame, code, start in [
        ('{"type": "move", "usi": "7g7f"}', "bad_message", "missing ply"),
        ('{"type": "undo", "ply": -1}', "bad_message", "invalid ply: -1"),
        ('{"type": "hello", "token": "' + "t" * 201 + '"}', "bad_message", "invalid token: 'tttt"),
        ('{"type": "' + "x" * 300 + '"}', "unknown_type", "unknown message type: 'xxxx"),
        ('{"kind": "move"}', "unknown_type", "unknown message type: None"),
        ('{"type": ["move"]}', "unknown_type", "unknown message type: a list"),
    ]:
        with pytest.raises(RequestError) as raised:
            decode_message(frame)
        assert (raised.value.code, str(raised.value)[:len(start)]) == (code, start)
        assert len(str(raised.value)) < 200


BODIES = [value for value in vars(schema).values() if isinstance(value, Body)]


def test_every_declared_body_is_found() -> None:
    names = {body.what for body in BODIES}
    assert {"new game request", "join request", "record", "move", "puzzle move", "puzzle hint"} <= names


@settings(max_examples=examples(300))
@given(st.sampled_from(BODIES), st.one_of(st.builds(json.dumps, JSON), st.binary(max_size=100),
                                          st.dictionaries(st.sampled_from(["mode", "time", "text", "usi", "line",
                                                                           "invite", "rule", "moves", "lang"]),
                                                          JSON).map(json.dumps)))
def test_declared_bodies_raise_only_request_errors(body: Body, data: str | bytes) -> None:
    refusals: list[RequestError] = []
    try:
        checked = body.decode(data)
    except RequestError as error:
        refusals.append(error)
    else:
        assert isinstance(checked, dict)
        assert set(checked) <= set(body.model.model_fields)
    assert all(error.code and len(str(error)) < 300 for error in refusals)


@given(st.sampled_from(sorted(CLIENT_MESSAGES)), JSON)
def test_declared_messages_raise_only_request_errors(kind: str, value: Any) -> None:
    frame = json.dumps({"type": kind, "usi": value, "ply": value, "token": value})
    codes: list[str] = []
    try:
        message = decode_message(frame)
    except RequestError as error:
        codes.append(error.code)
    else:
        assert message["type"] == kind
    assert set(codes) <= {"bad_json", "bad_message", "unknown_type"}


def test_new_game_declaration_matches_the_clock() -> None:
    from shogiban.web.clock import LONGEST

    assert LONGEST.total_seconds() == schema.LONGEST_SECONDS
    with pytest.raises(RequestError, match=r"time\.main"):
        NEW_GAME.decode(b'{"time": {"main": 86401}}')
    assert NEW_GAME.decode(b"") == {}


def test_record_formats_are_declared_where_they_are_written() -> None:
    from shogiban.web.records import FORMATS

    assert tuple(FORMATS) == schema.RECORD_FORMATS
