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
from shogiban.engines import InfoDict, Limit, MateResult, PlayResult, PovScore, Score
from shogiban.engines.limit import to_seconds
from shogiban.usi.backend import InfoCallback, go_limit
from shogiban.usi.wire import GoCommand

STEP = 0.005
"""Seconds per pretend depth."""


class StandInBackend:
    """See the module docstring.  ``calls`` records what the server asked for, ``limits`` the
    limit of each search.  With ``multipv`` n, each pretend depth reports n distinct lines."""

    def __init__(self, seed: int = 1) -> None:
        self.level = 8
        self.hash_mb = 64
        self.multipv = 1
        self.calls: list[str] = []
        self.limits: list[Limit] = []
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
        limit = go_limit(go)
        self.limits.append(limit)
        self.calls.append("search")
        move = self._choose(board)
        if move is None:
            return PlayResult(None, resigned=True)
        allowed = [m for m in go.searchmoves if board.is_legal(m)] or list(board.legal_moves)
        if move not in allowed:
            move = min(allowed, key=Move.usi)
        after = board.copy(stack=False)
        after.push(move)
        ponder = self._choose(after)
        others = sorted((m for m in allowed if m != move), key=Move.usi)[: self.multipv - 1]
        budget = 0.02 if limit.time is None else min(0.05, to_seconds(limit.time))
        max_depth = limit.depth or 99
        start = time.monotonic()
        depth = 0
        info = InfoDict()
        while not stop.is_set():
            depth += 1
            nodes = 100 * depth
            lines = [[move] + ([ponder] if ponder is not None else []), *([other] for other in others)]
            for rank, pv in reversed(list(enumerate(lines, 1))):  # line 1 last: the answer's own
                info = InfoDict(depth=depth, seldepth=depth, time=time.monotonic() - start, nodes=nodes,
                                nps=int(nodes / max(time.monotonic() - start, 1e-3)),
                                score=PovScore(Score(cp=10 * depth - rank), board.turn), pv=pv)
                if self.multipv > 1:
                    info["multipv"] = rank
                on_info(info)
            if depth >= max_depth or (not limit.infinite and time.monotonic() - start >= budget):
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
