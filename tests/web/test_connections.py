"""Websocket clients: admission (players always get in), and a client that stops reading is
dropped and freed (issue "Hardening, round 2", findings 1 and 2)."""

from __future__ import annotations

import asyncio
from typing import Any

from shogiban.game import Role
from shogiban.web.connections import Admission, Connection, encoded
from shogiban.web.rates import ServerLimits


class NeverReads:
    """A websocket whose client never takes a message: every send waits for ever."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code


class Reads(NeverReads):
    async def send_text(self, text: str) -> None:
        self.sent.append(text)


def test_seats_never_count_against_the_spectator_limit() -> None:
    admission = Admission(ServerLimits(spectators_per_game=200, spectators_per_address=1000))
    for n in range(200):
        assert admission.admit(f"10.0.0.{n % 250}", "g", Role.SPECTATOR) is None
    assert admission.admit("10.9.9.9", "g", Role.SPECTATOR) is not None
    assert admission.admit("10.9.9.9", "g", Role.BLACK) is None
    assert admission.admit("10.9.9.9", "g", Role.WHITE) is None
    assert admission.admit("10.9.9.9", "other", Role.SPECTATOR) is None  # another game has room


def test_one_address_cannot_hold_more_than_its_share_of_spectators() -> None:
    admission = Admission(ServerLimits(spectators_per_address=3))
    assert [admission.admit("1.1.1.1", f"g{n}", Role.SPECTATOR) for n in range(3)] == [None] * 3
    assert admission.admit("1.1.1.1", "g9", Role.SPECTATOR) == "too many connections from your address"
    assert admission.admit("2.2.2.2", "g9", Role.SPECTATOR) is None
    admission.leave("1.1.1.1", "g0", Role.SPECTATOR)
    assert admission.admit("1.1.1.1", "g9", Role.SPECTATOR) is None
    assert admission.open_connections() == 4


def test_a_seat_has_a_few_tabs_not_hundreds() -> None:
    admission = Admission(ServerLimits(connections_per_seat=2))
    assert admission.admit("1.1.1.1", "g", Role.BLACK) is None
    assert admission.admit("1.1.1.1", "g", Role.BLACK) is None
    assert admission.admit("1.1.1.1", "g", Role.BLACK) is not None
    assert admission.admit("1.1.1.1", "g", Role.WHITE) is None


def test_a_client_that_never_reads_is_dropped_within_its_deadline_and_freed() -> None:
    async def scenario() -> tuple[Connection, NeverReads]:
        socket = NeverReads()
        connection = Connection(socket, Role.SPECTATOR, max_bytes=10_000_000, send_seconds=0.05)  # type: ignore[arg-type]
        writer = asyncio.create_task(connection.writer())
        for n in range(100):
            connection.send({"type": "state", "n": n, "moves": ["7g7f"] * 100})
        await asyncio.wait_for(writer, 5)
        return connection, socket

    connection, socket = asyncio.run(scenario())
    assert connection.dropped
    assert connection.queue.empty()
    assert connection.queued_bytes == 0
    assert socket.closed_with == 1008


def test_a_queue_is_counted_in_bytes_and_a_client_past_the_limit_is_dropped_at_once() -> None:
    connection = Connection(NeverReads(), Role.SPECTATOR, max_bytes=50_000)  # type: ignore[arg-type]
    big = {"type": "state", "moves": ["7g7f"] * 2000}  # about 14 KB of JSON
    for _ in range(3):
        connection.send(big)
    assert not connection.dropped
    assert connection.queued_bytes == 3 * len(encoded(big))
    connection.send(dict(big))
    assert connection.dropped
    assert connection.queued_bytes == 0
    assert connection.queue.qsize() == 1  # only the close
    connection.send(big)  # nothing more is queued for a dropped client
    assert connection.queue.qsize() == 1


def test_a_reading_client_gets_every_message_in_order() -> None:
    async def scenario() -> Reads:
        socket = Reads()
        connection = Connection(socket, Role.BLACK)  # type: ignore[arg-type]
        writer = asyncio.create_task(connection.writer())
        for n in range(50):
            connection.send({"n": n})
        connection.close_after_queue()
        await asyncio.wait_for(writer, 5)
        return socket

    socket = asyncio.run(scenario())
    assert socket.sent == [f'{{"n":{n}}}' for n in range(50)]
    assert socket.closed_with == 1008


def test_one_broadcast_is_encoded_once() -> None:
    message: dict[str, Any] = {"type": "state", "moves": list(range(10))}
    first = encoded(message)
    assert encoded(message) is first
    assert encoded(dict(message)) == first


def test_a_client_that_went_away_ends_its_writer_quietly() -> None:
    from starlette.websockets import WebSocketDisconnect

    class Gone(NeverReads):
        async def send_text(self, text: str) -> None:
            raise WebSocketDisconnect(1001)

    async def scenario() -> Connection:
        connection = Connection(Gone(), Role.SPECTATOR)  # type: ignore[arg-type]
        writer = asyncio.create_task(connection.writer())
        connection.send({"type": "state"})
        await asyncio.wait_for(writer, 5)  # ends, and raises nothing nobody would retrieve
        return connection

    assert asyncio.run(scenario()).closed
