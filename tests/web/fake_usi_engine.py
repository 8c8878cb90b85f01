"""A tiny USI engine for the web tests: answers ``go`` with the first legal move, or misbehaves
as told by its argument (``illegal``, ``resign``, ``crash``)."""

from __future__ import annotations

import sys

from shogiban import Board, Move


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "first"
    board = Board()
    for raw in sys.stdin:
        line = raw.strip()
        if line == "usi":
            print("id name fake-web-engine", flush=True)
            print("usiok", flush=True)
        elif line == "isready":
            print("readyok", flush=True)
        elif line.startswith("position"):
            words = line.split()
            if words[1] == "startpos":
                board = Board()
                rest = words[2:]
            else:
                board = Board(" ".join(words[2:6]))
                rest = words[6:]
            if rest and rest[0] == "moves":
                for usi in rest[1:]:
                    board.push(Move.from_usi(usi))
        elif line.startswith("go"):
            if mode == "crash":
                return 3
            if mode == "resign":
                print("bestmove resign", flush=True)
            elif mode == "illegal":
                print("bestmove 5a5e", flush=True)
            else:
                print(f"bestmove {next(iter(board.legal_moves)).usi()}", flush=True)
        elif line == "quit":
            return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
