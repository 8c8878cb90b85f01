"""Depth-first proof-number search (df-pn, Nagai 2002) for mates by continuous checks.

The search runs with a depth bound: a node at remaining depth *d* asks "mate within *d* plies?",
so iterating the bound 1, 3, 5, ... yields the shortest mate (the length where the defender picks
the longest resistance and the attacker the quickest mate).  Refinements:

* df-pn+ style initial numbers: a new attacker child's proof number is the number of replies it
  leaves the defender, and a child with none is a mate found without searching it;
* a transposition table keyed by the board and side to move (hands left out), whose entries
  carry the attacker's hand (:mod:`shogiban.tsume.table`): a mate holds for any hand holding at
  least the proof pieces (証明駒) the proof needed, a refutation for any hand holding at most its
  disproof pieces (反証駒: more of the kinds already held, where that gives no new check);
* repetitions on the current path count as refuted (perpetual check is no mate); such a result
  depends on the path, so it is kept out of the table until the repeated node is left (a light
  answer to the graph-history-interaction problem);
* refutations remember whether the depth bound caused them, so "no mate at all" is told apart
  from "no mate within the bound".

All of it works in place on one :class:`~shogiban.position.Position` with int move codes.
"""

from __future__ import annotations

import threading
import time

from shogiban.bitboard import BETWEEN
from shogiban.position import Position
from shogiban.tsume.checks import check_codes
from shogiban.tsume.futile import EvasionCache, evasion_codes, king_has_flight
from shogiban.tsume.hands import HAND_ALL, SHIFT, UNIT, hand_covers, hand_max, hand_min, hand_with, pack_hand
from shogiban.tsume.table import DEPTH_INF, Table
from shogiban.zobrist import HAND as _Z_HAND
from shogiban.zobrist import PIECE_SQUARE as _Z_SQ
from shogiban.zobrist import WHITE_TO_MOVE as _Z_WHITE

__all__ = ["DEPTH_INF", "INF", "UNBOUNDED", "DfPn", "SearchAbortedError", "board_key"]

#: Infinite proof or disproof number.
INF = 1 << 40
#: The depth of a search without bound (larger than any real bound, smaller than DEPTH_INF).
UNBOUNDED = 1 << 19
#: "Depends on no repeated ancestor".
NO_REP = 1 << 30
_MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1
# Boards in the table, and positions in the reply cache, before they are thinned out.
_TABLE_LIMIT = 300_000
# The proof number of a new defender child whose king has a flight (its replies not generated).
_FLIGHT_ESTIMATE = 6
_CACHE_LIMIT = 100_000


class SearchAbortedError(Exception):
    """The search hit its time limit, node limit or stop event."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def board_key(pos: Position) -> int:
    """Zobrist key of the board and side to move, hands left out."""
    key = pos._hash
    for color in (0, 1):
        hand = pos._hands[color]
        zh = _Z_HAND[color]
        for pt in range(1, 8):
            if hand[pt]:
                key ^= zh[pt][hand[pt]]
    return key


def _full(key: int, hand: int) -> int:
    return key ^ (hand * _MIX) & _MASK


class DfPn:
    """A df-pn searcher for mates by *attacker* (default: the side to move of *pos*); it owns
    *pos* while searching.

    :param attacker: the mating side, 0 (sente) or 1 (gote); give it when *pos* has the defender
        to move (for :meth:`prove_and`).
    :param conventions: apply the tsume conventions (futile interpositions do not count).
    :param deadline: ``time.monotonic()`` value at which to give up, or None.
    :param stop: an event that aborts the search when set.
    :param max_nodes: node budget, or None.
    """

    def __init__(
        self,
        pos: Position,
        *,
        attacker: int | None = None,
        conventions: bool = True,
        deadline: float | None = None,
        stop: threading.Event | None = None,
        max_nodes: int | None = None,
    ) -> None:
        self.pos = pos
        self.attacker = pos._turn if attacker is None else attacker
        self.conventions = conventions
        self.deadline = deadline
        self.stop = stop
        self.max_nodes = max_nodes
        self.nodes = 0
        #: Node count at which a bounded probe (see :meth:`probe`) gives up.
        self.probe_limit: int | None = None
        self._next_poll = 256
        self.table = Table()
        #: :meth:`Table.lookup` of :attr:`table`.
        self.lookup = self.table.lookup
        self._store = self.table.store
        self.cache: EvasionCache = {}
        self.path: dict[int, int] = {}

    # -- limits ---------------------------------------------------------------------------------

    def _poll(self) -> None:
        self._next_poll = self.nodes + 256
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise SearchAbortedError("nodes")
        if self.probe_limit is not None and self.nodes >= self.probe_limit:
            raise SearchAbortedError("probe")
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise SearchAbortedError("timeout")
        if self.stop is not None and self.stop.is_set():
            raise SearchAbortedError("stop")
        if len(self.cache) > _CACHE_LIMIT:
            self.cache.clear()
        if len(self.table) > _TABLE_LIMIT:
            self.table.shrink()

    # -- helpers ----------------------------------------------------------------------------------

    def root_key(self) -> tuple[int, int]:
        """``(board key, packed attacker hand)`` of the current position."""
        return board_key(self.pos), pack_hand(self.pos._hands[self.attacker])

    def child(self, key: int, hand: int, code: int) -> tuple[int, int]:
        """Key and attacker hand after the side to move plays *code* (without playing it)."""
        pos = self.pos
        board = pos._board
        to = code & 127
        frm = code >> 7 & 127
        mover = pos._turn
        if frm >= 81:
            pt = frm - 81
            key ^= _Z_SQ[pt | mover << 4][to] ^ _Z_WHITE
            if mover == self.attacker:
                hand -= UNIT[pt]
            return key, hand
        piece = board[frm]
        new = piece + 8 if code >> 14 else piece
        key ^= _Z_SQ[piece][frm] ^ _Z_SQ[new][to] ^ _Z_WHITE
        captured = board[to]
        if captured:
            key ^= _Z_SQ[captured][to]
            if mover == self.attacker:
                pt = captured & 15
                hand += UNIT[pt - 8 if pt > 8 else pt]
        return key, hand

    def _interposable(self) -> bool:
        """Whether the defender (to move, in check) could have blocked the check with a drop."""
        pos = self.pos
        color = pos._turn
        ksq = pos._kings[color]
        checkers = pos._attackers(ksq, color ^ 1, pos._occ[0] | pos._occ[1])
        if not checkers or checkers & (checkers - 1):
            return False
        return bool(BETWEEN[ksq][checkers.bit_length() - 1])

    def _and_proof_hand(self, hand: int, proof: int) -> int:
        """Proof pieces of a proven defender node: *proof* (what its replies needed) plus, when a
        drop could block the check, every attacker piece of a type the defender lacks (with fewer,
        the defender would hold one to drop)."""
        if not self._interposable():
            return proof
        defender_hand = self.pos._hands[self.pos._turn]
        for pt in range(1, 8):
            if not defender_hand[pt]:
                s = SHIFT[pt]
                proof = proof & ~(0x7F << s) | hand & (0x7F << s)
        return proof

    def evasions(self) -> list[int]:
        """The defender's replies that count in the current position."""
        return evasion_codes(self.pos, self.conventions, self.cache)

    # -- search -----------------------------------------------------------------------------------

    def or_node(self, key: int, hand: int, depth: int, th_pn: int, th_dn: int, ply: int) -> tuple[int, int, int, bool]:
        """Search the attacker node (current position) within *depth* plies.

        Returns ``(pn, dn, rep, limited)``: *rep* is the path index of a repeated ancestor the
        result depends on (``NO_REP`` if none; such a result is not stored) and *limited*
        whether a refutation is due to the depth bound.
        """
        self.nodes += 1
        if self.nodes >= self._next_poll:
            self._poll()
        pos = self.pos
        codes = check_codes(pos)
        if not codes:
            # No check now, nor with more of the pieces in hand; a new kind of piece could give one.
            self._store(key, self._or_disproof_hand(hand, codes, []), INF, 0, DEPTH_INF)
            return INF, 0, NO_REP, False
        n = len(codes)
        cdepth = depth - 1 if depth < UNBOUNDED else depth
        ckey = [0] * n
        chand = [0] * n
        cpn = [0] * n
        cdn = [0] * n
        crep = [NO_REP] * n
        clim = [False] * n
        cdis = [0] * n  # the hand each refuted child is refuted for
        path = self.path
        lookup = self.lookup
        child = self.child
        push = pos._push
        pop = pos._pop
        conventions = self.conventions
        cache = self.cache
        for i in range(n):
            code = codes[i]
            k, h = child(key, hand, code)
            ckey[i] = k
            chand[i] = h
            r = path.get(_full(k, h))
            if r is not None:
                cpn[i] = INF
                crep[i] = r
                clim[i] = False  # a repetition is no depth artefact
                cdis[i] = h
                continue
            e = lookup(k, h, cdepth)
            if e is not None:
                if e[1] == 0:
                    return self._or_proven(key, hand, code, e)
                cpn[i] = e[1]
                cdn[i] = e[2]
                if e[2] == 0:
                    clim[i] = e[3] < DEPTH_INF
                    cdis[i] = e[0]
                continue
            push(code)
            if king_has_flight(pos):
                pop()
                if cdepth == 0:
                    cpn[i] = INF
                    clim[i] = True
                    cdis[i] = HAND_ALL  # a king flight does not depend on the hands
                else:
                    cpn[i] = _FLIGHT_ESTIMATE
                    cdn[i] = 1
                    self._store(k, h, _FLIGHT_ESTIMATE, 1, cdepth)
                continue
            replies = cache.get(pos._hash)
            if replies is None:
                replies = pos._legal_codes()
                if replies and conventions and replies[-1] >> 7 & 127 >= 81:
                    if replies[0] >> 7 & 127 >= 81:
                        # Only drops: they may all be futile.
                        replies = evasion_codes(pos, conventions, cache)
                else:
                    cache[pos._hash] = replies  # exactly what the node's own expansion needs
            if not replies:
                proof = self._and_proof_hand(h, 0)
                pop()
                self._store(k, proof, 0, INF, 0)
                return self._or_proven(key, hand, code, [proof, 0, INF, 0, 0])
            pop()
            if cdepth == 0:
                cpn[i] = INF
                clim[i] = True
                # A board-move reply does not depend on the hands; drops need the defender's pieces.
                cdis[i] = HAND_ALL if replies[0] >> 7 & 127 < 81 else h
            else:
                cpn[i] = len(replies)
                cdn[i] = 1
                self._store(k, h, cpn[i], 1, cdepth)

        while True:
            best = 0
            pn1 = pn2 = INF
            dn_sum = 0
            for i in range(n):
                p = cpn[i]
                if p < pn2:
                    if p < pn1:
                        pn2 = pn1
                        pn1 = p
                        best = i
                    else:
                        pn2 = p
                dn_sum += cdn[i]
            if pn1 == 0:
                e = lookup(ckey[best], chand[best], cdepth)
                assert e is not None
                assert e[1] == 0
                return self._or_proven(key, hand, codes[best], e)
            if dn_sum == 0:
                rep = min(crep)
                limited = True in clim
                if rep >= ply:
                    refuted = self._or_disproof_hand(hand, codes, cdis)
                    self._store(key, refuted, INF, 0, depth if limited else DEPTH_INF)
                    return INF, 0, NO_REP, limited
                return INF, 0, rep, limited
            if dn_sum > INF:
                dn_sum = INF
            if pn1 >= th_pn or dn_sum >= th_dn:
                self._store(key, hand, pn1, dn_sum, depth)
                return pn1, dn_sum, NO_REP, False
            c_th_pn = pn2 + 1 + (pn2 >> 2) if pn2 < INF else INF
            if c_th_pn > th_pn:
                c_th_pn = th_pn
            c_th_dn = th_dn - dn_sum + cdn[best]
            k = ckey[best]
            h = chand[best]
            full = _full(k, h)
            path[full] = ply + 1
            push(codes[best])
            try:
                p, d, r, lim = self.and_node(k, h, cdepth, c_th_pn, c_th_dn, ply + 1)
            finally:
                pop()
                del path[full]
            cpn[best] = p
            cdn[best] = d
            crep[best] = r
            clim[best] = lim
            if d == 0:
                e = lookup(k, h, cdepth)
                cdis[best] = e[0] if e is not None and e[2] == 0 else h

    def _or_disproof_hand(self, hand: int, codes: list[int], refuted: list[int]) -> int:
        """Disproof pieces (反証駒) of a refuted attacker node: the largest hand for which every
        check is still refuted.  More pieces of a type the attacker already holds add no new
        check; a type it lacks would, so those stay at zero."""
        board = self.pos._board
        bound = HAND_ALL
        for code, child in zip(codes, refuted, strict=True):
            frm = code >> 7 & 127
            if frm >= 81:
                s = SHIFT[frm - 81]
                if child >> s & 0x7F != 0x7F:
                    child += 1 << s
            else:
                captured = board[code & 127]
                if captured:
                    pt = captured & 15
                    s = SHIFT[pt - 8 if pt > 8 else pt]
                    if child >> s & 0x7F:
                        child -= 1 << s
            bound = hand_min(bound, child)
        for pt in range(1, 8):
            if not hand >> SHIFT[pt] & 0x7F:
                bound = hand_with(bound, pt, 0)
        return bound if hand_covers(bound, hand) else hand

    @staticmethod
    def _and_disproof_hand(hand: int, code: int, refuted: int) -> int:
        """Disproof pieces of a defender node refuted by *code*: those of the position after it
        when *code* moves a piece on the board; a refuting drop depends on the defender's hand
        (to hold the piece, and for whether it is futile), so then only *hand* itself."""
        if code >> 7 & 127 >= 81:
            return hand
        return refuted if hand_covers(refuted, hand) else hand

    def _or_proven(self, key: int, hand: int, code: int, entry: list[int]) -> tuple[int, int, int, bool]:
        proof = entry[0]
        frm = code >> 7 & 127
        if frm >= 81:
            proof += UNIT[frm - 81]
        else:
            captured = self.pos._board[code & 127]
            if captured:
                pt = captured & 15
                s = SHIFT[pt - 8 if pt > 8 else pt]
                if proof >> s & 0x7F:
                    proof -= 1 << s
        self._store(key, proof, 0, INF, entry[3] + 1, code)
        return 0, INF, NO_REP, False

    def and_node(self, key: int, hand: int, depth: int, th_pn: int, th_dn: int, ply: int) -> tuple[int, int, int, bool]:
        """Search the defender node (current position): mate within *depth* plies?  See :meth:`or_node`."""
        self.nodes += 1
        if self.nodes >= self._next_poll:
            self._poll()
        pos = self.pos
        codes = evasion_codes(pos, self.conventions, self.cache)
        if not codes:
            self._store(key, self._and_proof_hand(hand, 0), 0, INF, 0)
            return 0, INF, NO_REP, False
        if depth <= 0:
            return INF, 0, NO_REP, True
        n = len(codes)
        cdepth = depth - 1 if depth < UNBOUNDED else depth
        ckey = [0] * n
        cpn = [1] * n
        cdn = [1] * n
        cproof = [0] * n
        clen = [0] * n
        path = self.path
        lookup = self.lookup
        child = self.child
        for i in range(n):
            code = codes[i]
            k = child(key, hand, code)[0]
            ckey[i] = k
            r = path.get(_full(k, hand))
            if r is not None:
                if r >= ply:  # pragma: no cover - a defender move cannot recreate its own node
                    r = NO_REP
                return INF, 0, r, False
            e = lookup(k, hand, cdepth)
            if e is not None:
                if e[2] == 0:
                    refuted = self._and_disproof_hand(hand, code, e[0])
                    self._store(key, refuted, INF, 0, depth if e[3] < DEPTH_INF else DEPTH_INF)
                    return INF, 0, NO_REP, e[3] < DEPTH_INF
                cpn[i] = e[1]
                cdn[i] = e[2]
                if e[1] == 0:
                    cproof[i] = e[0]
                    clen[i] = e[3]

        push = pos._push
        pop = pos._pop
        while True:
            best = 0
            dn1 = dn2 = INF
            pn_sum = 0
            for i in range(n):
                d = cdn[i]
                if d < dn2:
                    if d < dn1:
                        dn2 = dn1
                        dn1 = d
                        best = i
                    else:
                        dn2 = d
                pn_sum += cpn[i]
            if pn_sum == 0:
                proof = 0
                length = 0
                for i in range(n):
                    proof = hand_max(proof, cproof[i]) if cproof[i] else proof
                    if clen[i] > length:
                        length = clen[i]
                self._store(key, self._and_proof_hand(hand, proof), 0, INF, length + 1)
                return 0, INF, NO_REP, False
            if dn1 == 0:
                raise AssertionError("unreachable: refuted children return at once")  # pragma: no cover
            if pn_sum > INF:
                pn_sum = INF
            if pn_sum >= th_pn or dn1 >= th_dn:
                self._store(key, hand, pn_sum, dn1, depth)
                return pn_sum, dn1, NO_REP, False
            c_th_dn = dn2 + 1 + (dn2 >> 2) if dn2 < INF else INF
            if c_th_dn > th_dn:
                c_th_dn = th_dn
            c_th_pn = th_pn - pn_sum + cpn[best]
            k = ckey[best]
            full = _full(k, hand)
            path[full] = ply + 1
            push(codes[best])
            try:
                p, d, r, lim = self.or_node(k, hand, cdepth, c_th_pn, c_th_dn, ply + 1)
            finally:
                pop()
                del path[full]
            if d == 0:
                if r >= ply:
                    e = lookup(k, hand, cdepth)
                    refuted = self._and_disproof_hand(hand, codes[best], e[0] if e is not None and e[2] == 0 else hand)
                    self._store(key, refuted, INF, 0, depth if lim else DEPTH_INF)
                    return INF, 0, NO_REP, lim
                return INF, 0, r, lim
            cpn[best] = p
            cdn[best] = d
            if p == 0:
                e = lookup(k, hand, cdepth)
                assert e is not None
                assert e[1] == 0
                cproof[best] = e[0]
                clen[best] = e[3]

    # -- driving ----------------------------------------------------------------------------------

    def prove(self, depth: int) -> tuple[int, int, bool]:
        """Search the current position (attacker to move) within *depth* plies until decided.

        Returns ``(pn, dn, limited)``: pn 0 for a mate, dn 0 for a refutation (limited by the
        depth bound or not).
        """
        key, hand = self.root_key()
        full = _full(key, hand)
        if full in self.path:
            return INF, 0, True  # a repetition of the line that leads here
        ply = len(self.path)
        self.path[full] = ply
        try:
            pn, dn, _rep, limited = self.or_node(key, hand, depth, INF, INF, ply)
        finally:
            del self.path[full]
        return pn, dn, limited

    def probe(self, nodes: int) -> tuple[int, int, bool] | None:
        """Search the current position without a depth bound for about *nodes* nodes.

        Returns what :meth:`prove` returns, or None when the budget ran out first.  A refutation
        found this way holds at any length; a proof's length (in the table) bounds the shortest.
        """
        self.probe_limit = self.nodes + nodes
        try:
            return self.prove(UNBOUNDED)
        except SearchAbortedError as aborted:
            if aborted.reason != "probe":
                raise
            return None
        finally:
            self.probe_limit = None

    def prove_and(self, depth: int) -> tuple[int, int, bool]:
        """Like :meth:`prove` for a defender-to-move position (mate within *depth* plies?)."""
        key, hand = self.root_key()
        full = _full(key, hand)
        if full in self.path:
            return INF, 0, True  # a repetition of the line that leads here
        ply = len(self.path)
        self.path[full] = ply
        try:
            pn, dn, _rep, limited = self.and_node(key, hand, depth, INF, INF, ply)
        finally:
            del self.path[full]
        return pn, dn, limited
