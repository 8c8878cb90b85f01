"""The change notes between web processes: one versioned model, written and read in one place,
and a listener that drops what it cannot read (with a log line) and goes on."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban.web.bus import (
    MAX_NOTE_BYTES,
    NOTE_VERSION,
    ChangeNote,
    NoteError,
    RedisBus,
    decode_note,
    encode_note,
    make_note,
    read_note,
)

pytestmark = pytest.mark.timeout(60)


@given(st.text(alphabet="abcXYZ0189", min_size=4, max_size=32), st.integers(0, 1_000_000),
       st.text(alphabet="0123456789abcdef", min_size=1, max_size=64))
def test_a_note_round_trips(game: str, ply: int, origin: str) -> None:
    note = ChangeNote(game=game, ply=ply, origin=origin)
    text = encode_note(note)
    assert len(text.encode()) <= MAX_NOTE_BYTES
    assert decode_note(text) == note
    assert decode_note(text.encode()) == note
    assert json.loads(text)["v"] == NOTE_VERSION == 1
    assert read_note(make_note(game, ply, origin)) == (game, ply, origin)


def test_a_note_from_a_newer_process_may_carry_more_fields() -> None:
    note = decode_note('{"v": 1, "game": "abcd", "ply": 2, "origin": "p", "reason": "undo"}')
    assert (note.game, note.ply) == ("abcd", 2)


@pytest.mark.parametrize("version", [2, 0, None, True, "1", 1.0, [1]])
def test_a_note_of_another_version_is_not_read(version: object) -> None:
    note: dict[str, Any] = {"game": "abcd", "ply": 2, "origin": "p"}
    if version is not None:
        note["v"] = version
    with pytest.raises(NoteError) as raised:
        decode_note(json.dumps(note))
    assert raised.value.code == "unknown_version"
    assert read_note(json.dumps(note)) is None


@pytest.mark.parametrize("data", [
    None, 42, b"\xff\xfe", "", "nonsense", "[1]", '"v"', "x" * (MAX_NOTE_BYTES + 1),
    b'{"v": 1, "game": "abcd", "ply": 2, "origin": "' + b"p" * MAX_NOTE_BYTES + b'"}',
    '{"v": 1, "game": "ab", "ply": 2, "origin": "p"}',
    '{"v": 1, "game": "ab/cd", "ply": 2, "origin": "p"}',
    '{"v": 1, "game": "abcd", "ply": -1, "origin": "p"}',
    '{"v": 1, "game": "abcd", "ply": true, "origin": "p"}',
    '{"v": 1, "game": "abcd", "ply": "2", "origin": "p"}',
    '{"v": 1, "game": "abcd", "ply": 2}',
    '{"v": 1, "game": "abcd", "ply": 2, "origin": ""}',
    '{"v": 1, "game": "abcd", "ply": 2, "origin": 7}',
])
def test_a_malformed_note_is_not_read(data: object) -> None:
    with pytest.raises(NoteError) as raised:
        decode_note(data)
    assert raised.value.code == "bad_note"
    assert len(str(raised.value)) < 200
    assert read_note(data) is None


class FakePubSub:
    """Delivers the given messages, then waits as an idle subscription does."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages

    async def subscribe(self, channel: str) -> None:
        pass

    async def listen(self) -> AsyncIterator[dict[str, Any]]:
        for message in self.messages:
            yield message
        await asyncio.Event().wait()

    async def aclose(self) -> None:
        pass


class FakeRedis:
    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages

    def pubsub(self) -> FakePubSub:
        return FakePubSub(self.messages)


def test_the_listener_drops_bad_notes_with_a_log_line_and_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    changes: list[tuple[str, int]] = []

    async def on_change(game_id: str, ply: int) -> None:
        changes.append((game_id, ply))

    async def run() -> None:
        bus = RedisBus("redis://unused", on_change)
        notes: list[object] = [
            b"nonsense", b'{"v": 2, "game": "abcd", "ply": 1, "origin": "q"}', b"\xff",
            b'{"v": 1, "game": "abcd", "ply": "1", "origin": "q"}',
            make_note("abcd", 5, bus.origin).encode(),  # our own: already known
            make_note("abcd", 6, "elsewhere").encode(),
        ]
        bus._client = FakeRedis([{"type": "subscribe", "data": 1}]
                                + [{"type": "message", "data": note} for note in notes])
        bus._listener = asyncio.create_task(bus._listen())
        for _ in range(100):
            await asyncio.sleep(0.01)
            if changes:
                break
        assert not bus._listener.done()
        bus._client = None  # nothing to disconnect
        await bus.close()

    with caplog.at_level(logging.WARNING, logger="shogiban.web.bus"):
        asyncio.run(run())
    assert changes == [("abcd", 6)]
    dropped = [record.getMessage() for record in caplog.records if "dropped a note" in record.getMessage()]
    assert len(dropped) == 4
    assert sum("(unknown_version)" in line for line in dropped) == 1
    assert sum("(bad_note)" in line for line in dropped) == 3
