"""Parsing what clients send."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban.web.messages import MessageError, parse_client_message


@pytest.mark.parametrize(("text", "expected"), [
    ('{"type": "move", "usi": "7g7f", "ply": 0}', {"type": "move", "usi": "7g7f", "text": None, "ply": 0}),
    ('{"type": "hello"}', {"type": "hello", "token": None}),
    ('{"type": "hello", "token": "abc"}', {"type": "hello", "token": "abc"}),
    ('{"type": "resign", "extra": 1}', {"type": "resign"}),
    ('{"type": "undo", "ply": 4}', {"type": "undo", "ply": 4}),
    ('{"type": "hint", "ply": 0}', {"type": "hint", "ply": 0}),
    ('{"type": "declare", "ply": 99}', {"type": "declare", "ply": 99}),
    (b'{"type": "ping"}', {"type": "ping"}),
])
def test_valid_messages(text: str | bytes, expected: dict) -> None:
    assert parse_client_message(text) == expected


@pytest.mark.parametrize(("text", "code"), [
    (None, "bad_json"), ("", "bad_json"), ("{", "bad_json"), ("null", "bad_json"), ('"move"', "bad_json"),
    (b"\xff", "bad_json"), ("{}", "unknown_type"), ('{"type": 3}', "unknown_type"),
    ('{"type": "move", "ply": 0}', "bad_message"), ('{"type": "move", "usi": "", "ply": 0}', "bad_message"),
    ('{"type": "move", "usi": "7g7f7g7f7", "ply": 0}', "bad_message"),
    ('{"type": "move", "usi": "7g7f", "ply": 1.5}', "bad_message"),
    ('{"type": "move", "usi": "7g7f", "ply": true}', "bad_message"),
    ('{"type": "undo"}', "bad_message"), ('{"type": "hello", "token": ["x"]}', "bad_message"),
])
def test_invalid_messages(text: str | bytes | None, code: str) -> None:
    with pytest.raises(MessageError) as raised:
        parse_client_message(text)
    assert raised.value.code == code
    assert str(raised.value)


@given(st.text(max_size=200))
def test_any_text_parses_or_raises_message_error(text: str) -> None:
    codes = []
    try:
        message = parse_client_message(text)
    except MessageError as error:
        codes.append(error.code)
    else:
        assert message["type"] in ("hello", "move", "resign", "undo", "hint", "declare", "ping")
    assert set(codes) <= {"bad_json", "bad_message", "unknown_type"}
