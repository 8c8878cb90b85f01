"""A tiny stand-in for the built-in engine, behind the USI server's SearchBackend interface.

It is not an engine: it "searches" by sleeping a little per depth and plays the legal move that
captures the most valuable piece (else a seeded random one), which is enough to test the
protocol side without depending on :mod:`shogiban.engine`.  ``go mate`` finds mates in one only.
"""

from __future__ import annotations

import random
import threading
import time

from shogiban import Board, Move
from shogiban.usi.backend import InfoCallback, search_limits
from shogiban.usi.model import InfoDict, MateResult, PlayResult, Score
from shogiban.usi.wire import GoCommand

STEP = 0.005
"""Seconds per pretend depth."""


class StandInBackend:
    """See the module docstring.  ``calls`` records what the server asked for."""

    def __init__(self, seed: int = 1) -> None:
        self.level = 8
        self.hash_mb = 64
        self.calls: list[str] = []
        self.limits: list[dict[str, object]] = []
        self._random = random.Random(seed)

    def prepare(self) -> None:
        self.calls.append(f"prepare hash={self.hash_mb} level={self.level}")

    def new_game(self) -> None:
        self.calls.append("new_game")

    def _choose(self, board: Board) -> Move | None:
        moves = list(board.legal_moves)
        if not moves:
            return None
        for move in moves:
            board.push(move)
            mate = board.is_checkmate()
            board.pop()
            if mate:
                return move
        captures = [m for m in moves if board.piece_at(m.to_square) is not None]
        if captures:
            return max(captures, key=lambda m: (board.piece_at(m.to_square).piece_type % 8, m.usi()))  # type: ignore[union-attr]
        return self._random.choice(sorted(moves, key=Move.usi))

    def search(self, board: Board, go: GoCommand, *, stop: threading.Event, on_info: InfoCallback) -> PlayResult:
        limits = search_limits(go, board.turn)
        self.limits.append(limits)
        self.calls.append("search")
        move = self._choose(board)
        if move is None:
            return PlayResult(None, resigned=True)
        after = board.copy(stack=False)
        after.push(move)
        ponder = self._choose(after)
        budget = 0.02 if "movetime" not in limits else min(0.05, float(limits["movetime"]))
        max_depth = int(limits.get("depth", 99))
        start = time.monotonic()
        depth = 0
        info = InfoDict()
        while not stop.is_set():
            depth += 1
            nodes = 100 * depth
            pv = [move] + ([ponder] if ponder is not None else [])
            info = InfoDict(depth=depth, seldepth=depth, time=time.monotonic() - start, nodes=nodes,
                            nps=int(nodes / max(time.monotonic() - start, 1e-3)), score=Score(cp=10 * depth), pv=pv)
            on_info(info)
            if depth >= max_depth or (not limits.get("infinite") and time.monotonic() - start >= budget):
                break
            stop.wait(STEP)
        return PlayResult(move, ponder, info)

    def mate(self, board: Board, timeout: float | None, *, stop: threading.Event) -> MateResult:
        self.calls.append(f"mate {timeout}")
        for move in board.legal_moves:
            board.push(move)
            mate = board.is_checkmate()
            board.pop()
            if mate:
                return MateResult("mate", (move,))
        if timeout is not None and timeout != float("inf"):
            stop.wait(min(timeout, 0.05))
        else:
            stop.wait()
        return MateResult("nomate" if not stop.is_set() else "timeout")
