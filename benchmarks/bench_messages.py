"""Message models: pydantic v2 against msgspec, for what the web server does with every frame.

    python benchmarks/bench_messages.py [--repeat 7] [--number 20000]

* **decode**: a client's ``move`` frame (JSON text) decoded and validated into its declared model,
  told apart from the other client messages by ``type``.  pydantic runs the server's own path
  (:func:`shogiban.web.schema.read_message`: the bounded pre-checks of ``decode_json``, then the
  model), and also ``validate_json`` alone; msgspec decodes into tagged ``Struct`` types with the
  same bounds (``Meta``).
* **encode**: a server ``move`` message (a move, the position with its move lists, the clock)
  written as JSON: the standard library's ``encode_json`` of the message as a dict (the server's
  path before the messages were models), the server's path now
  (:func:`shogiban.web.messages.encode_message` of the :class:`~shogiban.web.messages.MoveMessage`
  model), pydantic's ``dump_json`` of the dict, and ``msgspec.json.encode``.
* **build**: the ``MoveMessage`` model made from its parts, and its largest part, the position
  with its move lists (what a room does once per role on every move: the checks of each field).

Figures are microseconds per message, the median of ``--repeat`` runs of ``--number`` messages;
ratios compare medians of the same run.  msgspec is optional (``pip install msgspec``): without
it only pydantic and the standard library are measured.
"""

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import TypeAdapter

from shogiban.web.messages import MoveMessage, PositionInfo, encode_message
from shogiban.web.schema import _CLIENT_MESSAGE, encode_json, read_message

FRAME = '{"type": "move", "usi": "7g7f", "ply": 12}'
MOVE_MESSAGE: dict[str, Any] = {  # a shogiban.web.messages.MoveMessage, as JSON data
    "type": "move",
    "v": 1,
    "move": {"ply": 13, "usi": "7g7f", "label": "☗7六歩(77)", "forms": {"kif": "7六歩(77)", "csa": "+7776FU"},
             "spent_ms": 1234},
    "position": {"sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2", "ply": 13,
                 "turn": "w", "last_move": "7g7f", "check": False,
                 "dests": {f"{file}c": [f"{file}d"] for file in range(1, 10)},
                 "drop_dests": {}},
    "clock": {"enabled": True, "black": 598_100, "white": 600_000, "black_byoyomi": 30_000, "white_byoyomi": 30_000,
              "byoyomi": 30_000, "increment": 0, "running": "w"},
    "outcome": None,
    "can": {"move": True, "impasse": False, "undo": False, "hint": False, "declare": False, "resign": True,
            "join": False},
    "thinking": False,
}


def measure(run: Callable[[], object], number: int, repeat: int) -> float:
    """Median microseconds per call over *repeat* runs of *number* calls."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            run()
        runs.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(runs)


def msgspec_cases() -> dict[str, Callable[[], object]]:
    try:
        import msgspec
    except ImportError:
        return {}
    ply_type = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]
    usi_type = Annotated[str, msgspec.Meta(min_length=1, max_length=8)]

    class Move(msgspec.Struct, tag_field="type", tag="move"):
        usi: usi_type  # type: ignore[valid-type]
        ply: ply_type  # type: ignore[valid-type]

    class Undo(msgspec.Struct, tag_field="type", tag="undo"):
        ply: ply_type  # type: ignore[valid-type]

    class Ping(msgspec.Struct, tag_field="type", tag="ping"):
        pass

    class Hello(msgspec.Struct, tag_field="type", tag="hello"):
        token: Annotated[str, msgspec.Meta(max_length=200)] | None = None

    decoder = msgspec.json.Decoder(Move | Undo | Ping | Hello)
    encoder = msgspec.json.Encoder()
    frame = FRAME.encode()
    assert decoder.decode(frame) == Move(usi="7g7f", ply=12)
    return {"decode msgspec Struct": lambda: decoder.decode(frame),
            "encode msgspec": lambda: encoder.encode(MOVE_MESSAGE)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=20_000)
    args = parser.parse_args()
    # The TypedDicts of shogiban.web.messages are typing.TypedDict, which pydantic takes only on
    # Python 3.12+: the message goes through as a plain dict (what encode_json writes too).
    move_adapter: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])
    frame = FRAME.encode()
    move_model = MoveMessage.model_validate(MOVE_MESSAGE)
    assert encode_message(move_model) == encode_json(MOVE_MESSAGE)
    parts = {name: getattr(move_model, name) for name in ("move", "position", "clock", "outcome", "can", "thinking")}
    cases: dict[str, Callable[[], object]] = {
        "decode pydantic read_message": lambda: read_message(FRAME),
        "decode pydantic validate_json": lambda: _CLIENT_MESSAGE.validate_json(frame),
        "encode stdlib encode_json": lambda: encode_json(MOVE_MESSAGE),
        "encode server encode_message": lambda: encode_message(move_model),
        "encode pydantic dump_json": lambda: move_adapter.dump_json(MOVE_MESSAGE),
        **msgspec_cases(),
        "build MoveMessage from parts": lambda: MoveMessage(**parts),
        "build PositionInfo": lambda: PositionInfo(**MOVE_MESSAGE["position"]),
    }
    results = {name: measure(run, args.number, args.repeat) for name, run in cases.items()}
    for name, micros in results.items():
        print(f"{name:32} {micros:8.2f} µs")
    kind: Literal["decode", "encode"]
    for kind, base in (("decode", "decode pydantic read_message"), ("encode", "encode stdlib encode_json")):
        for name, micros in results.items():
            if name.startswith(kind) and name != base:
                print(f"{base} / {name}: {results[base] / micros:.1f}x")


if __name__ == "__main__":
    main()
