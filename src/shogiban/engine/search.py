"""The search: iterative deepening PVS with aspiration windows, a transposition table,
quiescence, null-move pruning and late-move reductions, on the core's int move codes.

Scores are centipawns for the side to move.  A mate found in the tree scores ``MATE - plies``
(positive when the side to move mates).  Reports are :class:`~shogiban.engines.InfoDict` dicts.

MultiPV: with ``multipv`` n > 1 each iteration searches the root n times, the k-th time without
the moves of the k - 1 better lines (at full width), and reports the lines in rank order; with 1
the search is the plain one.  Repetitions score as a draw, or as a loss for the side
that gave every check of the cycle (連続王手の千日手); an entering-king declaration scores as a win.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Iterator

from shogiban import zobrist
from shogiban.bitboard import ZONE
from shogiban.board import Board
from shogiban.engine.evaluate import (
    ATTACK,
    ATTACKED,
    ATTACKED_HAND,
    EXPOSURE,
    HAND,
    HAND_SUM,
    MATERIAL,
    OWN,
    RADIUS,
    TEMPO,
    extras,
    full_score,
    move_delta,
)
from shogiban.engine.levels import LevelProfile
from shogiban.engine.movegen import capture_codes, may_give_check
from shogiban.engine.see import see
from shogiban.engine.timeman import TimePlan
from shogiban.engines.results import InfoDict
from shogiban.engines.score import PovScore, Score
from shogiban.move import MOVES
from shogiban.outcome import EnteringKingRule
from shogiban.position import SPEEDUPS, piece_attacks
from shogiban.rules import declaration_status

MATE = 100_000
#: Scores beyond this are mates (distance in plies = MATE - |score|).
MATE_BOUND = MATE - 1_000
#: A win by the opponent's perpetual check: far above any material, below every mate.
PERPETUAL_WIN = 50_000
INF = MATE + 1
MAX_PLY = 100
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Late-move pruning: at non-PV nodes of these depths, quiet moves past this many are skipped.
_LATE_MOVES = (0, 14, 22, 36)
_Z_WHITE = zobrist.WHITE_TO_MOVE
#: Late-move reductions by depth and move number (both capped at 63): logarithmic in each, as in
#: Stockfish, before the adjustments of :meth:`Searcher.search` (PV node, killer, threat, history).
_LMR = [[int(0.5 + math.log(d) * math.log(m) / 2.25) if d and m else 0 for m in range(64)] for d in range(64)]
#: How many quiet moves that failed to cut are punished (their history lowered) at a cut.
_MALUS_MOVES = 32
#: Per ply of depth, how much a capture or promotion may lose by exchange at depth 1 or 2 before
#: the main search skips it (in the quiescence search's units: a pawn taken gains about 190).
_SEE_MARGIN = 200
#: Bytes one transposition-table entry costs in CPython (dict slot, int key, tuple of 4 ints).
TT_ENTRY_BYTES = 200
#: Seconds between two reports in a long iteration: GUIs show the last report as the engine's
#: line, and a silent engine looks hung.
INFO_INTERVAL = 1.0

# Capture ordering (MVV-LVA): the victim's value first, the cheaper attacker first among equals.
_VICTIM = [0] * 32
_ATTACKER = [0] * 32
for _code in range(32):
    _pt = _code & 15
    if 1 <= _pt <= 14:
        _VICTIM[_code] = MATERIAL[_pt]
        _ATTACKER[_code] = MATERIAL[_pt] if _pt != 8 else 2000
_MVV_LVA = [_VICTIM[v] * 8 - _ATTACKER[a] // 16 for v in range(32) for a in range(32)]
#: What capturing a piece gains: its board value and the value of the piece it becomes in hand.
_GAIN = [(_VICTIM[c] + (MATERIAL[(c & 15) - 8 if c & 15 > 8 else c & 15] if c & 15 else 0)) for c in range(32)]


#: The compiled quiescence search (shogiban._speedups.qsearch, given the evaluation's tables once
#: here), which returns exactly what :meth:`Searcher.qsearch` does without evaluation noise; None
#: without the accelerator.
_QSearch = Callable[
    [Board, int, bool, int, int, int, int, int, int, int, int | None], tuple[int, int, int, list[int] | None]
]
_c_qsearch: _QSearch | None = None
if SPEEDUPS is not None:
    SPEEDUPS.set_eval(OWN, ATTACK, HAND, HAND_SUM, MATERIAL, ATTACKED, EXPOSURE, ATTACKED_HAND, TEMPO, RADIUS, MATE)
    _c_qsearch = SPEEDUPS.qsearch


def _exchange(pos: Board, code: int) -> int:
    """The static exchange value of a capture or promotion when it may be negative, else 0 (no
    need to play the exchange out when losing the mover costs no more than the move gains)."""
    board = pos._board
    attacker = board[code >> 7 & 127]
    gain = _GAIN[board[code & 127]]
    if code >> 14:
        gain += MATERIAL[(attacker & 15) + 8] - MATERIAL[attacker & 15]
        attacker += 8
    return see(pos, code) if gain < _GAIN[attacker] else 0


def threatens(pos: Board, code: int) -> bool:
    """Whether the quiet move *code* (not yet played) attacks, from its destination, an enemy
    piece worth more than the piece that moves (a drop or move that forks or hunts a rook, a
    bishop, a gold).  Such moves are tactics more than quiet moves: late-move pruning keeps them
    and late-move reductions take one ply less from them, so that the reply a search one ply
    later finds at once (a bishop dropped on a rook and a gold) is not pruned away here."""
    color = pos._turn
    frm = code >> 7 & 127
    to = code & 127
    if frm >= 81:
        piece = (frm - 81) | color << 4
        occupied = pos._occ[0] | pos._occ[1]
    else:
        piece = pos._board[frm]
        if piece & 15 == 8:
            return False  # a king is no attacker worth fearing
        if code >> 14:
            piece += 8
        occupied = (pos._occ[0] | pos._occ[1]) ^ (1 << frm)
    hits = piece_attacks(piece, to, occupied)
    them = color ^ 1
    hits &= pos._occ[them]
    if not hits:
        return False
    hits &= ~(1 << pos._kings[them]) if pos._kings[them] >= 0 else -1
    value = _VICTIM[piece]
    board = pos._board
    while hits:
        low = hits & -hits
        hits ^= low
        if _VICTIM[board[low.bit_length() - 1]] > value:
            return True
    return False


def _proven(score: int, depth: int) -> bool:
    """Whether *score*, found by a full-width search to *depth*, is a mate no deeper search changes."""
    return abs(score) >= MATE_BOUND and depth >= (MATE - abs(score)) + 2


class SearchStopped(Exception):  # noqa: N818 - a signal, not an error
    """Raised inside the tree when the search must stop (stop event, time or nodes)."""


#: The compiled main search (shogiban._speedups.search, given SearchStopped and the constants
#: once here), which does exactly what :meth:`Searcher.search` does without evaluation noise, on
#: the searcher's own table, history, killers and counters; None without the accelerator.
_Search = Callable[["Searcher", int, int, int, int, bool], tuple[int, list[int]]]
_c_search: _Search | None = None
if SPEEDUPS is not None:
    SPEEDUPS.set_search(
        SearchStopped, MAX_PLY, MATE_BOUND, PERPETUAL_WIN, _SEE_MARGIN, _LATE_MOVES, [r for row in _LMR for r in row]
    )
    _c_search = SPEEDUPS.search


def mate_in(score: int) -> int | None:
    """Plies to mate for a mate score (negative when the side to move is mated), else None."""
    if score >= MATE_BOUND:
        return MATE - score
    if score <= -MATE_BOUND:
        return -(MATE + score)
    return None


class Searcher:
    """One search over a private copy of the board; the engine keeps the table and history."""

    def __init__(
        self,
        board: Board,
        profile: LevelProfile,
        tt: dict[int, tuple[int, int, int, int]],
        tt_limit: int,
        history: list[int],
        rng: random.Random,
        *,
        plan: TimePlan,
        max_depth: int | None,
        max_nodes: int | None,
        stop: threading.Event | None,
        on_info: Callable[[InfoDict], None] | None,
        clock: Callable[[], float] = time.perf_counter,
        start: float | None = None,
        multipv: int = 1,
    ) -> None:
        self.pos = board
        self.turn = board.turn
        self.multipv = max(1, multipv)
        self.profile = profile
        self.tt = tt
        self.tt_limit = tt_limit
        self.history = history
        self.rng = rng
        self.plan = plan
        self.max_depth = min(max_depth or MAX_PLY - 10, MAX_PLY - 10)
        self.max_nodes = max_nodes
        self.stop = stop
        self.on_info = on_info
        self.rule = board.entering_king_rule
        self.nodes = 0
        self.seldepth = 0
        self.next_poll = 0
        self.clock = clock
        #: When this move's time began (the caller may have received ``go`` a while ago).
        self.start = clock() if start is None else start
        self.deadline = self.start + plan.hard if plan.hard is not None else None
        #: What the search would answer now: (code, score, pv, depth), or None before any.
        self.best: tuple[int, int, list[int], int] | None = None
        self.depth = 0
        #: The MultiPV line being searched (0 for the best one).
        self.line = 0
        self.reported: InfoDict | None = None
        self.next_report = self.start + INFO_INTERVAL
        self.noise = profile.noise
        self.noise_key = rng.getrandbits(64) | 1
        self.qmax = profile.qsearch_plies
        #: The compiled quiescence search, used when there is no evaluation noise (else None).
        self.compiled_qsearch: _QSearch | None = _c_qsearch if not self.noise else None
        #: The compiled main search, used (below the root) when the compiled quiescence search is.
        self.compiled_search: _Search | None = _c_search if not self.noise else None
        #: Whether a declaration can win under this game's rule (the compiled search's precondition).
        self._declares = self.rule is not EnteringKingRule.NONE
        self.killers: list[list[int]] = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.pv: list[list[int]] = [[] for _ in range(MAX_PLY + 2)]
        # Path state, aligned with the board's move stack (game history included): the key of
        # every position, whether each move gave check, and the incremental evaluation.
        self.keys: list[int] = []
        self.checks: list[bool] = []
        self.floor = 0  # index in keys of the position after the last null move
        self.evals: list[int] = [full_score(board)]
        self._load_history()
        self._poll_step()

    # -- path bookkeeping ----------------------------------------------------------------------

    def _load_history(self) -> None:
        """Keys and check flags of the game so far, for repetition and perpetual-check rules."""
        probe = self.pos.copy()
        keys: list[int] = [probe._hash]
        checks: list[bool] = []
        while probe._stack:
            checks.append(probe._in_check())
            probe._pop()
            keys.append(probe._hash)
        keys.reverse()
        checks.reverse()
        self.keys = keys
        self.checks = checks
        if not checks:
            # Whether the side to move is in check at the root, when there is no history.
            self.checks = [self.pos._in_check()]
            self.keys = [keys[0], keys[0]]
            self.floor = 1

    def make(self, code: int) -> None:
        """Play *code* on the board, keeping the evaluation and the path up to date."""
        pos = self.pos
        delta = move_delta(pos, code)
        pos._push(code)
        self.evals.append(self.evals[-1] + delta)
        self.keys.append(pos._hash)
        self.checks.append(pos._in_check())

    def unmake(self) -> None:
        """Take back the last :meth:`make`."""
        self.pos._pop()
        self.evals.pop()
        self.keys.pop()
        self.checks.pop()

    # -- stopping ------------------------------------------------------------------------------

    def _poll_step(self) -> None:
        step = self.nodes + 64
        if self.max_nodes is not None:
            step = min(step, self.max_nodes)
        self.next_poll = step

    def _poll(self) -> None:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise SearchStopped
        if self.stop is not None and self.stop.is_set():
            raise SearchStopped
        now = self.clock()
        if self.deadline is not None and now >= self.deadline:
            raise SearchStopped
        if now >= self.next_report and self.on_info is not None:
            self._report(self._current_info())
        self._poll_step()

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return self.clock() - self.start

    def _report(self, info: InfoDict) -> None:
        """Send *info* to the caller (and wait :data:`INFO_INTERVAL` for the next progress report)."""
        self.reported = info
        self.next_report = self.clock() + INFO_INTERVAL
        if self.on_info is not None:
            self.on_info(info)

    def _current_info(self) -> InfoDict:
        """A report from inside an iteration: the best move so far (found in this iteration, else
        the last one), or only the progress before any."""
        partial = self.partial if self.line == 0 else None  # other lines' searches exclude the best
        if partial is not None:
            _, score, pv, lower = partial
            return self.info(self.depth, score, pv, lowerbound=lower)
        if self.best is not None:
            _, score, pv, depth = self.best
            return self.info(depth, score, pv)
        return self.info(max(1, self.depth), None, [])

    # -- evaluation and rules ------------------------------------------------------------------

    def static_eval(self) -> int:
        """Static evaluation for the side to move (with this level's noise)."""
        pos = self.pos
        score = self.evals[-1] + extras(pos)
        if self.noise:
            amp = self.noise
            score += (pos._hash * self.noise_key >> 32) % (2 * amp + 1) - amp
        return (score if pos._turn == 0 else -score) + TEMPO

    def _repetition(self, ply: int) -> int | None:
        """Score of a repeated position (None if the earlier occurrence is beyond a null move)."""
        keys = self.keys
        n = len(keys) - 1
        h = keys[n]
        j = n - 4
        while j >= self.floor:
            if keys[j] == h:
                break
            j -= 2
        else:
            return None
        checks = self.checks
        # Moves j..n-1: the side to move now made j, j+2, ...; the opponent j+1, j+3, ...
        ours = all(checks[m] for m in range(j, n, 2))
        theirs = all(checks[m] for m in range(j + 1, n, 2))
        if theirs and not ours:
            return PERPETUAL_WIN - ply
        if ours and not theirs:
            return -(PERPETUAL_WIN - ply)
        return 0

    def _can_declare_after(self, path: list[int]) -> bool:
        """:meth:`_can_declare` after the moves *path* (0: a null move) from the board's position,
        which is restored after; the compiled search asks this when its precondition holds."""
        pos = self.pos
        done = 0
        try:
            for code in path:
                if code:
                    pos._push(code)
                else:
                    pos._turn ^= 1
                    pos._hash ^= _Z_WHITE
                done += 1
            return self._can_declare()
        finally:
            for code in reversed(path[:done]):
                if code:
                    pos._pop()
                else:
                    pos._turn ^= 1
                    pos._hash ^= _Z_WHITE

    def _can_declare(self) -> bool:
        pos = self.pos
        color = pos._turn
        k = pos._kings[color]
        if k < 0 or not ZONE[color] >> k & 1 or self.rule is EnteringKingRule.NONE:
            return False
        return declaration_status(pos, self.rule).wins

    # -- move ordering ---------------------------------------------------------------------------

    def _ordered(self, codes: list[int], tt_move: int, ply: int) -> Iterator[int]:
        """The moves in search order: table move, captures (MVV-LVA), killers, then the other
        moves (promotions without a capture included) by history."""
        board = self.pos._board
        if tt_move and tt_move in codes:
            yield tt_move
        caps = [c for c in codes if board[c & 127]]
        if caps:
            caps.sort(key=lambda c: _MVV_LVA[board[c & 127] << 5 | board[c >> 7 & 127]], reverse=True)
            for c in caps:
                if c != tt_move:
                    yield c
        killers = self.killers[ply]
        k0, k1 = killers
        if k0 and k0 != tt_move and k0 in codes and not board[k0 & 127]:
            yield k0
        if k1 and k1 != tt_move and k1 in codes and not board[k1 & 127]:
            yield k1
        quiets = [c for c in codes if not board[c & 127]]
        if self.pos._turn:
            hist = self.history
            quiets.sort(key=lambda c: hist[c | 32768], reverse=True)
        else:
            quiets.sort(key=self.history.__getitem__, reverse=True)
        for c in quiets:
            if c != tt_move and c != k0 and c != k1:
                yield c

    # -- the tree ------------------------------------------------------------------------------

    def search(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool) -> int:
        """Negamax PVS to *depth* plies; the score of the position for the side to move."""
        compiled = self.compiled_search
        if compiled is not None and self.compiled_qsearch is not None:
            score, self.pv[ply] = compiled(self, depth, alpha, beta, ply, null_ok)
            return score
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self._poll()
        pos = self.pos
        self.pv[ply] = []
        in_check = self.checks[-1]
        if ply:
            if pos._rep.get(pos._hash, 0) > 1:
                rep = self._repetition(ply)
                if rep is not None:
                    return rep
            # Mate-distance pruning: no line from here beats a mate already found nearer the root.
            if alpha < -MATE + ply:
                alpha = -MATE + ply
            if beta > MATE - ply - 1:
                beta = MATE - ply - 1
            if alpha >= beta:
                return alpha
            if ply >= MAX_PLY:
                return self.static_eval()
        if in_check:
            depth += 1
        if depth <= 0:
            return self.qsearch(alpha, beta, ply, 0)
        if ply > self.seldepth:
            self.seldepth = ply
        if not in_check and self._can_declare():
            return MATE - ply
        h = pos._hash
        entry = self.tt.get(h)
        tt_move = 0
        pv_node = beta - alpha > 1
        if entry is not None:
            e_depth, e_flag, e_score, tt_move = entry
            if e_depth >= depth and not pv_node and ply:
                if e_score >= MATE_BOUND:
                    e_score -= ply
                elif e_score <= -MATE_BOUND:
                    e_score += ply
                if (
                    e_flag == _EXACT
                    or (e_flag == _LOWER and e_score >= beta)
                    or (e_flag == _UPPER and e_score <= alpha)
                ):
                    return e_score
        prune_quiets = False
        if not pv_node and not in_check and abs(beta) < MATE_BOUND:
            static = self.static_eval()
            # Futility: near the leaves, quiet moves cannot lift a score this far below alpha.
            prune_quiets = depth <= 3 and static + 250 * depth <= alpha
            # Reverse futility: far above beta near the leaves, a quiet move will not lose it all.
            if depth <= 5 and static - 180 * depth >= beta:
                return static
            if null_ok and depth >= 3 and static >= beta and self._has_pieces():
                reduction = 3 + depth // 4
                self._null_push()
                try:
                    score = -self.search(depth - 1 - reduction, -beta, -beta + 1, ply + 1, False)
                finally:
                    self._null_pop()
                if score >= beta:
                    return beta if score >= MATE_BOUND else score
        codes = pos._legal_codes()
        if not codes:
            return -MATE + ply  # no legal move loses, in check or not
        board = pos._board
        turn_bit = 32768 if pos._turn else 0
        best = -INF
        best_code = 0
        original_alpha = alpha
        killers = self.killers[ply]
        late = _LATE_MOVES[depth] if not pv_node and not in_check and depth < len(_LATE_MOVES) else 10_000
        history = self.history
        tried: list[int] = []  # the quiet moves searched that did not cut (the first _MALUS_MOVES)
        for searched, code in enumerate(self._ordered(codes, tt_move, ply)):
            quiet = not board[code & 127] and not code >> 14
            threat = False
            if quiet and searched and (prune_quiets or searched >= late) and best > -MATE_BOUND:
                if may_give_check(pos, code):
                    pass
                elif prune_quiets or not threatens(pos, code):
                    continue
                else:
                    threat = True
            elif quiet and searched >= 3 and depth >= 3 and not in_check:
                threat = threatens(pos, code)
            losing = False
            if not quiet and searched and not in_check and (searched >= 3 if depth >= 3 else not pv_node):
                exchange = _exchange(pos, code)
                if exchange < 0:
                    # A capture or promotion that loses by exchange: near the leaves, one that
                    # loses more than _SEE_MARGIN a ply is skipped (unless it may check); deeper,
                    # it is reduced when late, as a quiet move is.
                    if depth < 3:
                        if exchange < -_SEE_MARGIN * depth and best > -MATE_BOUND and not may_give_check(pos, code):
                            continue
                    else:
                        losing = True
            self.make(code)
            gives_check = self.checks[-1]
            try:
                if searched == 0:
                    score = -self.search(depth - 1, -beta, -alpha, ply + 1, True)
                else:
                    reduction = 0
                    if depth >= 3 and searched >= 3 and (quiet or losing) and not in_check and not gives_check:
                        reduction = _LMR[min(depth, 63)][min(searched, 63)]
                        if pv_node:
                            reduction -= 1
                        if threat or code == killers[0] or code == killers[1]:
                            reduction -= 1  # a threat or a killer: one ply less reduced
                        good = history[code | turn_bit]
                        if good < 0:
                            reduction += 1  # its history says it fails: one ply more
                        elif good > 64 * depth * depth:
                            reduction -= 1
                        reduction = max(0, min(reduction, depth - 2))
                    score = -self.search(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, True)
                    if reduction and score > alpha:
                        score = -self.search(depth - 1, -alpha - 1, -alpha, ply + 1, True)
                    if alpha < score < beta:
                        score = -self.search(depth - 1, -beta, -alpha, ply + 1, True)
            finally:
                self.unmake()
            if score > best:
                best = score
                best_code = code
                if score > alpha:
                    alpha = score
                    self.pv[ply] = [code, *self.pv[ply + 1]]
                    if score >= beta:
                        if quiet:
                            if killers[0] != code:
                                killers[1] = killers[0]
                                killers[0] = code
                            bonus = depth * depth
                            history[code | turn_bit] += bonus
                            for other in tried:  # the quiet moves searched before failed: a malus
                                history[other | turn_bit] -= bonus
                        break
            if quiet and len(tried) < _MALUS_MOVES:
                tried.append(code)
        flag = _LOWER if best >= beta else _EXACT if best > original_alpha else _UPPER
        self._store(h, depth, flag, best, ply, best_code)
        return best

    def _store(self, h: int, depth: int, flag: int, score: int, ply: int, code: int) -> None:
        tt = self.tt
        if len(tt) >= self.tt_limit:
            tt.clear()
        if score >= MATE_BOUND:
            score += ply
        elif score <= -MATE_BOUND:
            score -= ply
        tt[h] = (depth, flag, score, code)

    def _has_pieces(self) -> bool:
        """Whether the side to move has something besides pawns (null move is unsafe otherwise)."""
        pos = self.pos
        color = pos._turn
        hand = pos._hands[color]
        if any(hand[2:8]):
            return True
        own = pos._occ[color] & ~pos._bb[1 | color << 4] & ~pos._bb[8 | color << 4]
        return own != 0

    def _null_push(self) -> None:
        pos = self.pos
        pos._turn ^= 1
        pos._hash ^= _Z_WHITE
        self.keys.append(pos._hash)
        self.checks.append(False)
        self.evals.append(self.evals[-1])
        self._saved_floor = self.floor
        self.floor = len(self.keys) - 1

    def _null_pop(self) -> None:
        pos = self.pos
        pos._turn ^= 1
        pos._hash ^= _Z_WHITE
        self.keys.pop()
        self.checks.pop()
        self.evals.pop()
        self.floor = self._saved_floor

    def qsearch(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        """Quiescence: captures and promotions until the position is quiet; every evasion
        when in check (so mates at the horizon are seen)."""
        compiled = self.compiled_qsearch
        if compiled is not None:
            score, nodes, seldepth, pv = compiled(
                self.pos, self.evals[-1], self.checks[-1], alpha, beta, ply, qply, self.qmax, MAX_PLY,
                self.nodes, self.max_nodes,
            )
            self.nodes = nodes
            if seldepth > self.seldepth:
                self.seldepth = seldepth
            if pv is None:
                raise SearchStopped
            self.pv[ply] = pv
            if nodes >= self.next_poll:
                self._poll()  # the stop event, the clock and the progress reports
            return score
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self._poll()
        self.pv[ply] = []
        if ply > self.seldepth:
            self.seldepth = ply
        pos = self.pos
        if self.checks[-1]:
            codes = pos._legal_codes()
            if not codes:
                return -MATE + ply
            if ply >= MAX_PLY or qply >= self.qmax + 4:
                return self.static_eval()
            best = -INF
            board = pos._board
            codes.sort(key=lambda c: _VICTIM[board[c & 127]], reverse=True)
            for code in codes:
                self.make(code)
                try:
                    score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1)
                finally:
                    self.unmake()
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        self.pv[ply] = [code, *self.pv[ply + 1]]
                        if score >= beta:
                            break
            return best
        stand = self.static_eval()
        if stand >= beta or qply >= self.qmax or ply >= MAX_PLY:
            return stand
        if stand > alpha:
            alpha = stand
        caps = capture_codes(pos)
        if not caps:
            return stand
        board = pos._board
        caps.sort(key=lambda c: _MVV_LVA[board[c & 127] << 5 | board[c >> 7 & 127]], reverse=True)
        best = stand
        margin = stand + 200 - alpha
        for code in caps:
            victim = board[code & 127]
            attacker = board[code >> 7 & 127]
            if code >> 14:
                gain = _GAIN[victim] + MATERIAL[(attacker & 15) + 8] - MATERIAL[attacker & 15]
                attacker += 8
            else:
                gain = _GAIN[victim]
            if gain + margin < 0:
                continue  # delta pruning: even winning this cannot lift the score to alpha
            # A losing exchange; no need to play it out when losing the mover costs no more than
            # the gain (the exchange is then worth at least the difference).
            if gain < _GAIN[attacker] and see(pos, code) < 0:
                continue
            self.make(code)
            try:
                score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1)
            finally:
                self.unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    self.pv[ply] = [code, *self.pv[ply + 1]]
                    if score >= beta:
                        break
        return best

    # -- the root ------------------------------------------------------------------------------

    def root(self, moves: list[int], depth: int, alpha: int, beta: int) -> tuple[int, int]:
        """Search the root *moves* (best first) to *depth*; returns (score, best code) and
        moves the best to the front.  A stop inside raises :class:`SearchStopped` after
        recording the best move found so far in ``self.partial``."""
        best = -INF
        best_code = moves[0]
        self.pv[0] = []
        for i, code in enumerate(moves):
            self.make(code)
            try:
                if i == 0:
                    score = -self.search(depth - 1, -beta, -alpha, 1, True)
                else:
                    score = -self.search(depth - 1, -alpha - 1, -alpha, 1, True)
                    if alpha < score < beta:
                        score = -self.search(depth - 1, -beta, -alpha, 1, True)
            finally:
                self.unmake()
            if score > best:
                best = score
                best_code = code
                if score > alpha:
                    alpha = score
                    self.pv[0] = [code, *self.pv[1]]
                    # A fail high is only a lower bound of the move's score.
                    self.partial = (code, score, list(self.pv[0]), score >= beta)
                    if score >= beta:
                        break
        moves.remove(best_code)
        moves.insert(0, best_code)
        return best, best_code

    #: The best move of the iteration in progress: (code, score, pv, lowerbound).
    partial: tuple[int, int, list[int], bool] | None = None
    #: Whether the answer of :meth:`think` comes from a completed iteration.
    settled = False
    #: MultiPV: the scores of the lines after the best one, of the last iteration searched.
    line_scores: tuple[int, ...] = ()
    #: MultiPV: the score and line of line 1 after the lines of the last iteration were ranked.
    ranked_best = 0
    ranked_pv: list[int] = []  # noqa: RUF012 - always replaced, never mutated

    def think(self, moves: list[int]) -> tuple[int, int, list[int], InfoDict | None]:
        """Iterative deepening over the root *moves* until a limit is reached.

        Returns (best code, score, principal variation, last report).  When a limit interrupts an
        iteration, the best move it completed wins over the previous iteration's choice.  The
        last report sent to ``on_info`` is always the answer's own line and score (GUIs show it
        as the engine's), and reports come at least every :data:`INFO_INTERVAL` seconds.
        """
        plan = self.plan
        self.line_scores = ()
        best_code = moves[0]
        best_score = 0
        best_pv: list[int] = [best_code]
        last: InfoDict | None = None
        lines: list[InfoDict] = []  # MultiPV: the lines of the last iteration, best first
        stretch = 1.0
        score = 0
        for depth in range(1, self.max_depth + 1):
            self.partial = None
            self.depth = depth
            try:
                score, code = self._aspiration(moves, depth, score)
            except SearchStopped:
                # Any root move completed in this iteration beat every move searched before it at
                # the new depth (the previous best comes first): it is the better choice, even
                # with a lower score than the previous iteration gave (the old best may be refuted).
                if self.partial is not None:
                    best_code, best_score, best_pv, lower = self.partial
                    last = self.info(depth, best_score, best_pv, lowerbound=lower)
                    self.settled = False  # not every root move was searched at this depth
                elif last is None:
                    last = self.info(depth, None, best_pv)  # stopped before any score
                else:  # the last iteration's answer stands: report it with the nodes and time spent
                    last = self.info(last["depth"], best_score, best_pv)
                if self.multipv > 1:
                    self._report_rest([last], lines)
                break
            previous_code = best_code
            best_code, best_score = code, score
            self.settled = True
            best_pv = list(self.pv[0]) or [code]
            self.best = (code, score, best_pv, depth)
            if self.multipv > 1:
                # The other lines are searched before any line of this iteration is reported: one
                # of them may outscore this line (see _other_lines), and then it is line 1.
                current: list[InfoDict] = []
                finished = self._other_lines(moves, depth, (score, code, best_pv), current)
                last = current[0]
                best_code, best_score, best_pv = moves[0], self.ranked_best, list(self.ranked_pv)
                code, score = best_code, best_score
                self.best = (code, score, best_pv, depth)
                if not finished:
                    self._report_rest(current, lines)
                    break
                lines = current
            else:
                last = self.info(depth, score, best_pv)
                self._report(last)
            if code != previous_code and depth > 1:
                stretch = min(2.0, stretch * 1.4)  # the best move changed: think longer
            else:
                stretch = max(1.0, stretch * 0.9)
            if len(moves) == 1 and not plan.exact and plan.soft is not None:
                break  # a forced move: no need to think
            # A mate is proven (or suffered) at full width: deeper search adds nothing to that line.
            # With MultiPV the other lines must be mates too: a line of another move stopped at
            # this depth would be compared with the mate at a depth far below the limit.
            if not plan.exact and _proven(score, depth) and self._lines_proven(depth):
                break
            # A budget that cannot be saved for later (byoyomi alone) is used to the end, like movetime.
            use_all = plan.exact or (plan.hard is not None and plan.soft is not None and plan.soft >= plan.hard)
            if plan.soft is not None and not use_all:
                elapsed = self.elapsed()
                soft = plan.soft * stretch
                if plan.hard is not None:
                    soft = min(soft, plan.hard)
                # The next iteration takes several times this one: do not start what cannot end.
                if elapsed >= soft * 0.55:
                    break
        if last is not None and last is not self.reported:
            if self.multipv > 1:  # with the nodes and time the other lines took too
                last = last.copy()
                elapsed = self.elapsed()
                last["nodes"], last["time"] = self.nodes, elapsed
                last["nps"] = int(self.nodes / elapsed) if elapsed > 0 else 0
            self._report(last)  # the answer's own line comes last
        return best_code, best_score, best_pv, last

    def _lines_proven(self, depth: int) -> bool:
        """MultiPV: whether every line after the best one is a proven mate at *depth*."""
        scores: tuple[int, ...] = self.line_scores
        return all(_proven(score, depth) for score in scores)

    def _other_lines(
        self, moves: list[int], depth: int, first: tuple[int, int, list[int]], current: list[InfoDict]
    ) -> bool:
        """MultiPV: search the lines after the best one, *first* (score, code, pv), at *depth*,
        each without the moves of the lines above it (the front of *moves*), then rank every line
        of the iteration by score, report them in rank order and add them to *current*.  The
        front of *moves* ends in rank order, ``ranked_best`` and ``ranked_pv`` are line 1's score
        and line.  Returns False if a limit stopped the search (the lines finished by then are
        ranked and reported).

        A move searched with a null window in one line's search may score more in a later line's
        (the table and the pruning differ from one search to the next, and a line searched at full
        width is not cut by the best line's score): the finished lines are ranked by their scores,
        so that no line reports more than the line above it, and a later line that outscores the
        first becomes line 1, the move played."""
        found: list[tuple[int, int, list[int]]] = [first]
        stopped = False
        try:
            for rank in range(2, min(self.multipv, len(moves)) + 1):
                self.line = rank - 1
                rest = moves[rank - 1 :]
                score, code = self.root(rest, depth, -INF, INF)
                moves[rank - 1 :] = rest  # its best first: the next line starts after it
                found.append((score, code, list(self.pv[0]) or [code]))
        except SearchStopped:
            stopped = True
        finally:
            self.line = 0
        found.sort(key=lambda line: -line[0])  # stable: equal scores keep their search order
        self.ranked_best, _, self.ranked_pv = found[0]
        self.line_scores = tuple(score for score, _, _ in found[1:])
        moves[: len(found)] = [code for _, code, _ in found]
        for rank, (score, _, pv) in enumerate(found, 1):
            info = self.info(depth, score, pv, rank=rank)
            self._report(info)
            current.append(info)
        return not stopped

    def _report_rest(self, current: list[InfoDict], previous: list[InfoDict]) -> None:
        """MultiPV, when a limit stopped an iteration: the ranks below *current* (the lines this
        iteration finished) go to the previous iteration's lines of other moves, reported again
        under their new ranks so that no move shows twice."""
        taken = {info["pv"][0] for info in current if info.get("pv")}
        rank = len(current)
        for info in previous:
            if rank >= self.multipv:
                break
            pv = info.get("pv")
            if not pv or pv[0] in taken:
                continue
            rank += 1
            taken.add(pv[0])
            if info.get("multipv") != rank:
                info = info.copy()
                info["multipv"] = rank
            self._report(info)

    def _aspiration(self, moves: list[int], depth: int, guess: int) -> tuple[int, int]:
        """Root search in a window around *guess*, widened on failure."""
        if depth < 4 or abs(guess) >= MATE_BOUND // 2:
            return self.root(moves, depth, -INF, INF)
        window = 60
        alpha, beta = guess - window, guess + window
        while True:
            score, code = self.root(moves, depth, alpha, beta)
            if score <= alpha:
                alpha = max(-INF, alpha - window * 4)
            elif score >= beta:
                beta = min(INF, beta + window * 4)
            else:
                return score, code
            window *= 4
            if window > 2000:
                alpha, beta = -INF, INF

    def info(
        self, depth: int, score: int | None, pv: list[int], *, lowerbound: bool = False, rank: int = 1
    ) -> InfoDict:
        """A progress report of the line *rank* (1 is the best; ``multipv`` is set when several
        lines are searched).  A *score* of None means none is known yet."""
        elapsed = self.elapsed()
        info = InfoDict(
            depth=depth,
            seldepth=max(self.seldepth, depth),
            nodes=self.nodes,
            time=elapsed,
            nps=int(self.nodes / elapsed) if elapsed > 0 else 0,
        )
        if score is not None:
            mate = mate_in(score)
            if mate is None:
                info["score"] = PovScore(Score(cp=score, lowerbound=lowerbound), self.turn)
            else:
                info["score"] = PovScore(Score(mate=mate, lowerbound=lowerbound), self.turn)
        moves = [m for m in (MOVES[c] for c in pv) if m is not None]
        if moves:
            info["pv"] = moves
        if self.multipv > 1:
            info["multipv"] = rank
        return info

