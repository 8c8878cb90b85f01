"""The fast core of a position: state, push/pop on int move codes, attacks, legal moves.

:class:`shogiban.board.Board` builds the public API on top.  Everything here works on plain ints
(piece codes ``piece_type | color << 4``, move codes from :mod:`shogiban.move`) so the hot loops
stay cheap; nothing here validates its input.
"""

from __future__ import annotations

from contextlib import suppress
from types import MemberDescriptorType
from typing import TYPE_CHECKING

from shogiban import _accelerator, zobrist
from shogiban.bitboard import (
    BETWEEN,
    BISHOP_RAYS,
    BIT,
    COLUMNS,
    FULL,
    KING8,
    NE,
    NW,
    RAYS,
    ROOK_RAYS,
    SE,
    STEP,
    SW,
    ZONE,
    E,
    N,
    S,
    W,
    ray_attack,
)

if TYPE_CHECKING:
    from collections.abc import Callable


#: The C accelerator (``shogiban._speedups``) when it was built (and matches its sources), else
#: None.  Its functions return exactly what the Python methods below return, in the same order;
#: those methods are the reference.
SPEEDUPS = _accelerator.load()
_c_legal_codes: Callable[[Position], list[int]] | None = SPEEDUPS.legal_codes if SPEEDUPS else None
_c_has_legal_move: Callable[[Position], bool] | None = SPEEDUPS.has_legal_move if SPEEDUPS else None
_c_count_legal: Callable[[Position], int] | None = SPEEDUPS.count_legal if SPEEDUPS else None

PROMOTION_FLAG = 1 << 14
_Z_SQ = zobrist.PIECE_SQUARE
_Z_HAND = zobrist.HAND
_Z_WHITE = zobrist.WHITE_TO_MOVE

# How each piece code finds its destinations: 0 steps only, 1 lance, 2 bishop, 3 rook,
# 4 horse (bishop + steps), 5 dragon (rook + steps).
_KIND = [0] * 32
for _c in (0, 16):
    _KIND[2 | _c] = 1
    _KIND[5 | _c] = 2
    _KIND[6 | _c] = 3
    _KIND[13 | _c] = 4
    _KIND[14 | _c] = 5
KIND: tuple[int, ...] = tuple(_KIND)

#: Squares where each colour may drop each piece type (no piece that could never move again).
_LAST1 = (0x1FF, 0x1FF << 72)
_LAST2 = (0x3FFFF, 0x3FFFF << 63)
DROP_ALLOWED: tuple[tuple[int, ...], ...] = tuple(
    (0, FULL ^ _LAST1[c], FULL ^ _LAST1[c], FULL ^ _LAST2[c], FULL, FULL, FULL, FULL) for c in (0, 1)
)
#: Squares where an unpromoted piece of this code could never move again (promotion is forced).
DEAD_END: tuple[int, ...] = tuple(
    (_LAST1[c >> 4] if c & 15 in (1, 2) else _LAST2[c >> 4] if c & 15 == 3 else 0) for c in range(32)
)


def _codes_for(piece: int, sq: int, dests: int) -> tuple[int, ...]:
    """Move codes of *piece* on *sq* to every square of *dests*, with the promotion choices."""
    color = piece >> 4
    promotable = (piece & 15) <= 6 and piece & 15 != 0 and piece & 15 != 8
    zone = ZONE[color]
    from_zone = zone >> sq & 1
    dead = DEAD_END[piece]
    out: list[int] = []
    while dests:
        low = dests & -dests
        dests ^= low
        to = low.bit_length() - 1
        base = to | sq << 7
        if promotable and (from_zone or zone & low):
            out.append(base | PROMOTION_FLAG)
            if not dead & low:
                out.append(base)
        else:
            out.append(base)
    return tuple(out)


# Memo of _codes_for per (piece, square): the destination sets a piece meets are few.
_MOVE_CACHE: list[dict[int, tuple[int, ...]]] = [{} for _ in range(32 * 81)]
_CACHE_LIMIT = 1 << 14


def _chunks(codes_by_column: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """For each 9-bit pattern, the codes of the columns set in it (built incrementally: the table
    entry for a pattern extends the entry without its lowest bit, which keeps imports fast)."""
    table: list[tuple[int, ...]] = [()]
    for bits in range(1, 512):
        low = bits & -bits
        table.append(table[bits ^ low] + codes_by_column[low.bit_length() - 1])
    return tuple(table)


def _drop_chunks(pt: int, rank: int) -> tuple[tuple[int, ...], ...]:
    base = (81 + pt) << 7
    return _chunks([(base | (rank * 9 + col),) for col in range(9)])


#: DROP_CHUNKS[pt][rank][bits]: drop codes of *pt* onto the squares of *rank* set in 9-bit *bits*.
DROP_CHUNKS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = (
    (),
    *(tuple(_drop_chunks(pt, r) for r in range(9)) for pt in range(1, 8)),
)


def _area(sq: int, files: int, ranks: int) -> int:
    col, row = sq % 9, sq // 9
    return sum(BIT[r * 9 + c] for r in range(max(0, row - ranks), min(9, row + ranks + 1))
               for c in range(max(0, col - files), min(9, col + files + 1)))


#: Where a non-sliding piece attacking a square next to the king can stand (knights included).
STEPPER_AREA: tuple[int, ...] = tuple(_area(sq, 2, 3) for sq in range(81))
def _lines_near(sq: int, rays: tuple[int, ...]) -> int:
    lines = rays[sq] | KING8[sq]
    for t in range(81):
        if KING8[sq] >> t & 1:
            lines |= rays[t]
    return lines


#: Lines through the king's neighbourhood, where rooks/lances and bishops attacking it must stand.
ROOK_AREA: tuple[int, ...] = tuple(_lines_near(sq, ROOK_RAYS) for sq in range(81))
BISHOP_AREA: tuple[int, ...] = tuple(_lines_near(sq, BISHOP_RAYS) for sq in range(81))


def _pawn_chunks(color: int, rank: int) -> tuple[tuple[int, ...], ...]:
    """Codes of pawn pushes onto the squares of *rank* set in each 9-bit pattern."""
    step = 9 if color == 0 else -9
    piece = 1 | color << 4
    columns = []
    for col in range(9):
        to = rank * 9 + col
        columns.append(_codes_for(piece, to + step, BIT[to]) if 0 <= to + step < 81 else ())
    return _chunks(columns)


#: PAWN_CHUNKS[color][rank][bits]: pawn pushes of *color* onto *rank* (promotion choices included).
PAWN_CHUNKS = tuple(tuple(_pawn_chunks(c, r) for r in range(9)) for c in (0, 1))
#: Drop codes for gold, silver, bishop and rook, which may go anywhere, by (held types, rank, bits).
_FREE_DROP_TYPES = (4, 5, 6, 7)
_FREE_DROP_CACHE: list[dict[int, tuple[int, ...]]] = [{} for _ in range(9)]


def _free_drops(rank: int, key: int) -> tuple[int, ...]:
    held, bits = key >> 9, key & 511
    codes: list[int] = []
    for i, pt in enumerate(_FREE_DROP_TYPES):
        if held >> i & 1:
            codes += DROP_CHUNKS[pt][rank][bits]
    result = _FREE_DROP_CACHE[rank][key] = tuple(codes)
    return result


class _PyPositionState:
    """The fields of a Position, for the pure-Python core.  With the accelerator, Position derives
    from its ``PositionState`` instead: the same fields in a C struct, which Python reads and
    writes as fast as these slots and the compiled code reaches directly."""

    __slots__ = ("_bb", "_board", "_hands", "_hash", "_kings", "_occ", "_rep", "_stack", "_turn")


if TYPE_CHECKING:
    _PositionState = _PyPositionState
else:
    _PositionState = _PyPositionState if SPEEDUPS is None else SPEEDUPS.PositionState


class Position(_PositionState):
    """Board, hands, side to move and the move stack, with fast unchecked push/pop."""

    __slots__ = ()  # the fields are the base's: _PyPositionState or the compiled PositionState

    def __getstate__(self) -> tuple[None, dict[str, object]]:
        """What copy and pickle save: (None, every field that is set), as ``object.__getstate__``
        gives for slotted objects, but also with the compiled base's fields, which are member
        descriptors of a C type rather than ``__slots__`` that it could find."""
        state: dict[str, object] = {}
        for cls in type(self).__mro__:
            for name, attribute in vars(cls).items():
                if isinstance(attribute, MemberDescriptorType) and name not in state:
                    with suppress(AttributeError):  # (a field never set)
                        state[name] = attribute.__get__(self, cls)
        return None, state

    def __init__(self) -> None:
        self._board: list[int] = [0] * 81
        self._bb: list[int] = [0] * 32
        self._occ: list[int] = [0, 0]
        self._kings: list[int] = [-1, -1]
        self._hands: list[list[int]] = [[0] * 8, [0] * 8]
        self._turn: int = 0
        self._stack: list[tuple[int, int, int]] = []  # (move code, captured piece code, key before)
        self._hash: int = 0
        self._rep: dict[int, int] = {}

    # -- public read access ---------------------------------------------------------------------
    # For the notations, record readers and front ends, which must not read the fields above: fast
    # views of the state (live and unchecked; do not modify what they return).

    @property
    def piece_codes(self) -> list[int]:
        """The piece code (``piece_type | color << 4``, 0 for empty) on each square 0..80; the
        live list: read it, do not modify it."""
        return self._board

    @property
    def side_to_move(self) -> int:
        """The side to move as an int: 0 sente, 1 gote (``Board.turn`` is the :class:`Color`)."""
        return self._turn

    def hand_counts(self, color: int) -> list[int]:
        """*color*'s hand as counts indexed by piece type 1..7 (index 0 unused); the live list."""
        return self._hands[color]

    def pieces_mask(self, piece_type: int, color: int) -> int:
        """Bitboard (bit *sq* set) of *color*'s pieces of *piece_type*."""
        return self._bb[piece_type | color << 4]

    def occupancy(self, color: int | None = None) -> int:
        """Bitboard of the squares *color*'s pieces (or all pieces) stand on."""
        return self._occ[0] | self._occ[1] if color is None else self._occ[color]

    def state_key(self) -> tuple[int, int, int, int]:
        """A key of board, hands and side to move (the Zobrist key with the occupancy, so that
        a key collision needs the same occupancy too)."""
        return self._hash, self._occ[0], self._occ[1], self._turn

    def push_code(self, code: int) -> None:
        """Play the move with internal *code* (:mod:`shogiban.move`) unchecked: for readers that
        have validated it (``Board.push`` takes a :class:`~shogiban.move.Move`)."""
        self._py_push(code)  # the compiled _push takes this name below, when it is built

    def legal_codes(self) -> list[int]:
        """Codes of every legal move of the side to move (a new list)."""
        return self._legal_codes()

    # -- set-up ---------------------------------------------------------------------------------

    def _clear(self) -> None:
        Position.__init__(self)

    def _put(self, sq: int, piece: int) -> None:
        """Place *piece* on *sq* (which must be empty)."""
        self._board[sq] = piece
        self._bb[piece] |= BIT[sq]
        self._occ[piece >> 4] |= BIT[sq]
        if piece & 15 == 8:
            self._kings[piece >> 4] = sq

    def _remove(self, sq: int) -> None:
        piece = self._board[sq]
        if piece:
            self._board[sq] = 0
            self._bb[piece] ^= BIT[sq]
            self._occ[piece >> 4] ^= BIT[sq]
            if piece & 15 == 8 and self._kings[piece >> 4] == sq:
                rest = self._bb[piece]
                self._kings[piece >> 4] = rest.bit_length() - 1 if rest else -1

    def _compute_hash(self) -> int:
        h = _Z_WHITE if self._turn else 0
        for sq, piece in enumerate(self._board):
            if piece:
                h ^= _Z_SQ[piece][sq]
        for color in (0, 1):
            for pt in range(1, 8):
                h ^= _Z_HAND[color][pt][self._hands[color][pt]]
        return h

    def _reset_history(self, key: int | None = None) -> None:
        """Clear the move stack; *key* is the position's Zobrist key when the caller has it."""
        self._stack = []
        self._hash = self._compute_hash() if key is None else key
        self._rep = {self._hash: 1}

    # -- make / unmake ----------------------------------------------------------------------------

    def _py_push(self, code: int) -> None:
        """Play the move *code*, trusted to be legal (or at least possible).

        The pure-Python reference: ``_push`` is the compiled twin when the accelerator is built.
        """
        to = code & 127
        frm = code >> 7 & 127
        color = self._turn
        board = self._board
        bb = self._bb
        occ = self._occ
        h = self._hash
        bit_to = BIT[to]
        if frm >= 81:
            pt = frm - 81
            piece = pt | color << 4
            board[to] = piece
            bb[piece] |= bit_to
            occ[color] |= bit_to
            hand = self._hands[color]
            n = hand[pt]
            hand[pt] = n - 1
            zh = _Z_HAND[color][pt]
            h ^= _Z_SQ[piece][to] ^ zh[n] ^ zh[n - 1]
            captured = 0
        else:
            piece = board[frm]
            captured = board[to]
            bit_from = BIT[frm]
            if captured:
                bb[captured] ^= bit_to
                occ[color ^ 1] ^= bit_to
                pt = captured & 7 if captured & 15 > 8 else captured & 15
                hand = self._hands[color]
                n = hand[pt]
                hand[pt] = n + 1
                zh = _Z_HAND[color][pt]
                h ^= _Z_SQ[captured][to] ^ zh[n] ^ zh[n + 1]
            new = piece + 8 if code >> 14 else piece
            board[frm] = 0
            board[to] = new
            bb[piece] ^= bit_from
            bb[new] |= bit_to
            occ[color] ^= bit_from | bit_to
            h ^= _Z_SQ[piece][frm] ^ _Z_SQ[new][to]
            if piece & 15 == 8:
                self._kings[color] = to
        self._stack.append((code, captured, self._hash))
        h ^= _Z_WHITE
        self._hash = h
        self._turn = color ^ 1
        rep = self._rep
        rep[h] = rep.get(h, 0) + 1

    def _py_pop(self) -> int:
        """Undo the last move and return its code (the reference for the compiled ``_pop``)."""
        code, captured, prev = self._stack.pop()
        rep = self._rep
        n = rep[self._hash] - 1
        if n:
            rep[self._hash] = n
        else:
            del rep[self._hash]
        self._hash = prev
        color = self._turn ^ 1
        self._turn = color
        to = code & 127
        frm = code >> 7 & 127
        board = self._board
        bb = self._bb
        occ = self._occ
        bit_to = BIT[to]
        piece = board[to]
        if frm >= 81:
            board[to] = 0
            bb[piece] ^= bit_to
            occ[color] ^= bit_to
            self._hands[color][frm - 81] += 1
        else:
            old = piece - 8 if code >> 14 else piece
            bit_from = BIT[frm]
            board[frm] = old
            bb[piece] ^= bit_to
            bb[old] |= bit_from
            occ[color] ^= bit_from | bit_to
            if captured:
                board[to] = captured
                bb[captured] |= bit_to
                occ[color ^ 1] |= bit_to
                pt = captured & 7 if captured & 15 > 8 else captured & 15
                self._hands[color][pt] -= 1
            else:
                board[to] = 0
            if old & 15 == 8:
                self._kings[color] = frm
        return code

    # Replaced below by the compiled twins, which change the same objects in the same way.
    _push = _py_push
    _pop = _py_pop

    # -- attacks --------------------------------------------------------------------------------

    def _attackers(self, sq: int, by: int, occupied: int) -> int:
        """Bitboard of the pieces of colour *by* that attack *sq*, given *occupied*."""
        bb = self._bb
        o = by << 4
        m = (by ^ 1) << 4  # a piece of the other colour on sq mirrors the attackers' steps
        result = (
            (STEP[1 | m][sq] & bb[1 | o])
            | (STEP[3 | m][sq] & bb[3 | o])
            | (STEP[4 | m][sq] & bb[4 | o])
            | (STEP[7 | m][sq] & (bb[7 | o] | bb[9 | o] | bb[10 | o] | bb[11 | o] | bb[12 | o]))
            | (KING8[sq] & (bb[8 | o] | bb[13 | o] | bb[14 | o]))
        )
        rooks = bb[6 | o] | bb[14 | o]
        if ROOK_RAYS[sq] & rooks:
            result |= _rook_attack(sq, occupied) & rooks
        bishops = bb[5 | o] | bb[13 | o]
        if BISHOP_RAYS[sq] & bishops:
            result |= _bishop_attack(sq, occupied) & bishops
        lances = bb[2 | o]
        d = N if by else S  # a gote lance attacks from the north of sq
        if RAYS[d][sq] & lances:
            result |= _ray(d, sq, occupied) & lances
        return result

    def _is_attacked(self, sq: int, by: int, occupied: int) -> bool:
        """Whether colour *by* attacks *sq*, given *occupied* (faster than :meth:`_attackers`)."""
        bb = self._bb
        o = by << 4
        m = (by ^ 1) << 4
        if (
            STEP[1 | m][sq] & bb[1 | o]
            or KING8[sq] & (bb[8 | o] | bb[13 | o] | bb[14 | o])
            or STEP[7 | m][sq] & (bb[7 | o] | bb[9 | o] | bb[10 | o] | bb[11 | o] | bb[12 | o])
            or STEP[4 | m][sq] & bb[4 | o]
            or STEP[3 | m][sq] & bb[3 | o]
        ):
            return True
        between = BETWEEN[sq]
        # A slider attacks sq when nothing stands between them on its line.
        candidates = (ROOK_RAYS[sq] & (bb[6 | o] | bb[14 | o])) | (BISHOP_RAYS[sq] & (bb[5 | o] | bb[13 | o]))
        candidates |= RAYS[N if by else S][sq] & bb[2 | o]
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            if not between[low.bit_length() - 1] & occupied:
                return True
        return False

    def _in_check(self) -> bool:
        ksq = self._kings[self._turn]
        return ksq >= 0 and self._is_attacked(ksq, self._turn ^ 1, self._occ[0] | self._occ[1])

    def _checkers_and_pins(self, ksq: int, color: int, occupied: int) -> tuple[int, int, dict[int, int]]:
        """Checkers of *color*'s king on *ksq*, its pinned pieces and, per pinned square, its line."""
        bb = self._bb
        o = (color ^ 1) << 4
        checkers = self._attackers_by_steps(ksq, color)
        rooks = bb[6 | o] | bb[14 | o]
        bishops = bb[5 | o] | bb[13 | o]
        snipers = (ROOK_RAYS[ksq] & rooks) | (BISHOP_RAYS[ksq] & bishops) | (RAYS[S if color else N][ksq] & bb[2 | o])
        pinned = 0
        lines: dict[int, int] = {}
        own = self._occ[color]
        while snipers:
            low = snipers & -snipers
            snipers ^= low
            between = BETWEEN[ksq][low.bit_length() - 1]
            blockers = between & occupied
            if not blockers:
                checkers |= low
            elif not blockers & (blockers - 1) and blockers & own:
                pinned |= blockers
                lines[blockers.bit_length() - 1] = between | low
        return checkers, pinned, lines

    def _attackers_by_steps(self, sq: int, color: int) -> int:
        """Non-sliding attackers of the enemy of *color* on *sq* (adjacent horse/dragon included)."""
        bb = self._bb
        o = (color ^ 1) << 4
        m = color << 4
        return (
            (STEP[1 | m][sq] & bb[1 | o])
            | (STEP[3 | m][sq] & bb[3 | o])
            | (STEP[4 | m][sq] & bb[4 | o])
            | (STEP[7 | m][sq] & (bb[7 | o] | bb[9 | o] | bb[10 | o] | bb[11 | o] | bb[12 | o]))
            | (KING8[sq] & (bb[8 | o] | bb[13 | o] | bb[14 | o]))
        )

    # -- legal moves ------------------------------------------------------------------------------

    def _legal_codes(self) -> list[int]:
        """Codes of every legal move of the side to move (compiled when the accelerator is built)."""
        if _c_legal_codes is not None:
            return _c_legal_codes(self)
        return self._py_legal_codes()

    def _py_legal_codes(self) -> list[int]:
        """The pure-Python legal move generator: the reference for the compiled one."""
        color = self._turn
        board = self._board
        own = self._occ[color]
        occupied = own | self._occ[color ^ 1]
        ksq = self._kings[color]
        moves: list[int] = []
        # The enemy king is never captured: in a possible position it is never attackable on our
        # move, and in a lenient set-up where it is, taking it would be no shogi move at all.
        enemy_king = self._bb[8 | (color ^ 1) << 4]
        target = FULL ^ own ^ enemy_king
        drop_target = FULL ^ occupied
        pinned = 0
        lines: dict[int, int] = {}
        others = own
        cache_all = _MOVE_CACHE
        if ksq >= 0:
            others ^= BIT[ksq]
            checkers, pinned, lines = self._checkers_and_pins(ksq, color, occupied)
            self._king_moves(moves, ksq, color, own | enemy_king, occupied)
            if checkers:
                if checkers & (checkers - 1):
                    return moves  # double check: only the king may move
                between = BETWEEN[ksq][checkers.bit_length() - 1]
                target = (between | checkers) & ~enemy_king
                drop_target = between
        pawns = self._bb[1 | color << 4] & ~pinned
        if pawns:
            # Unpinned pawns all at once: shift them forward and read the codes rank by rank.
            others ^= pawns
            dests = (pawns >> 9 if color == 0 else pawns << 9) & target
            chunks = PAWN_CHUNKS[color]
            rank = 0
            while dests:
                bits = dests & 511
                if bits:
                    moves += chunks[rank][bits]
                dests >>= 9
                rank += 1
        while others:
            low = others & -others
            others ^= low
            sq = low.bit_length() - 1
            piece = board[sq]
            dests = piece_attacks(piece, sq, occupied) & target
            if low & pinned:
                dests &= lines[sq]
            if dests:
                cache = cache_all[piece * 81 + sq]
                codes = cache.get(dests)
                if codes is None:
                    codes = _codes_for(piece, sq, dests)
                    if len(cache) > _CACHE_LIMIT:
                        cache.clear()
                    cache[dests] = codes
                moves += codes
        if drop_target:
            hand = self._hands[color]
            if hand[1]:
                self._add_drops(moves, 1, self._pawn_drop_mask(drop_target & DROP_ALLOWED[color][1], color))
            if hand[2]:
                self._add_drops(moves, 2, drop_target & DROP_ALLOWED[color][2])
            if hand[3]:
                self._add_drops(moves, 3, drop_target & DROP_ALLOWED[color][3])
            held = (hand[4] and 1) | (hand[5] and 2) | (hand[6] and 4) | (hand[7] and 8)
            if held:
                held <<= 9
                mask = drop_target
                rank = 0
                while mask:
                    bits = mask & 511
                    if bits:
                        cache = _FREE_DROP_CACHE[rank]
                        key = held | bits
                        codes = cache.get(key)
                        moves += codes if codes is not None else _free_drops(rank, key)
                    mask >>= 9
                    rank += 1
        return moves

    @staticmethod
    def _add_drops(moves: list[int], pt: int, mask: int) -> None:
        chunks = DROP_CHUNKS[pt]
        rank = 0
        while mask:
            bits = mask & 511
            if bits:
                moves += chunks[rank][bits]
            mask >>= 9
            rank += 1

    def _pawn_drop_mask(self, mask: int, color: int) -> int:
        """Restrict pawn drop squares for 二歩 (two pawns on a file) and 打ち歩詰め (pawn drop mate)."""
        p = self._bb[1 | color << 4]
        if p:
            cols = (p | p >> 9 | p >> 18 | p >> 27 | p >> 36 | p >> 45 | p >> 54 | p >> 63 | p >> 72) & 511
            mask &= ~COLUMNS[cols]
        eksq = self._kings[color ^ 1]
        if eksq >= 0:
            front = eksq - 9 if color else eksq + 9
            if 0 <= front < 81 and mask >> front & 1 and self._is_pawn_drop_mate(front):
                mask ^= BIT[front]
        return mask

    def _is_pawn_drop_mate(self, sq: int) -> bool:
        """Whether dropping a pawn on *sq* (giving check) leaves the opponent no legal reply."""
        attacker = self._turn
        defender = attacker ^ 1
        eksq = self._kings[defender]
        occupied = self._occ[0] | self._occ[1] | BIT[sq]
        without_king = occupied ^ BIT[eksq]
        # Cheap refutations first: the king takes an undefended pawn, or steps to a safe square.
        if not self._is_attacked(sq, attacker, without_king):
            return False
        flights = KING8[eksq] & ~self._occ[defender] & ~BIT[sq]
        while flights:
            low = flights & -flights
            flights ^= low
            if not self._is_attacked(low.bit_length() - 1, attacker, without_king):
                return False
        self._push(sq | (81 + 1) << 7)
        try:
            return not self._has_legal_move()
        finally:
            self._pop()

    def _has_legal_move(self) -> bool:
        if _c_has_legal_move is not None:
            return _c_has_legal_move(self)
        return bool(self._py_legal_codes())

    def _king_moves(self, moves: list[int], ksq: int, color: int, own: int, occupied: int) -> None:
        dests = KING8[ksq] & ~own
        if not dests:
            return
        # The attack test of _is_attacked, inlined with the enemy's pieces gathered once.
        bb = self._bb
        o = (color ^ 1) << 4
        m = color << 4
        step_pawn, step_knight, step_silver, step_gold = STEP[1 | m], STEP[3 | m], STEP[4 | m], STEP[7 | m]
        pawns, knights, silvers = bb[1 | o], bb[3 | o], bb[4 | o]
        golds = bb[7 | o] | bb[9 | o] | bb[10 | o] | bb[11 | o] | bb[12 | o]
        kings = bb[8 | o] | bb[13 | o] | bb[14 | o]
        rooks = bb[6 | o] | bb[14 | o]
        bishops = bb[5 | o] | bb[13 | o]
        lances = bb[2 | o]
        lance_rays = RAYS[N if color == 0 else S]
        without_king = occupied ^ BIT[ksq]
        # Most of the time no enemy piece is near enough to matter: skip those tests wholesale.
        steppers = STEPPER_AREA[ksq] & (pawns | knights | silvers | golds | kings)
        sliders = (ROOK_AREA[ksq] & (rooks | lances)) | (BISHOP_AREA[ksq] & bishops)
        if not steppers and not sliders:
            safe = dests
        else:
            safe = 0
            while dests:
                low = dests & -dests
                dests ^= low
                sq = low.bit_length() - 1
                if steppers and (
                    step_pawn[sq] & pawns
                    or KING8[sq] & kings
                    or step_gold[sq] & golds
                    or step_silver[sq] & silvers
                    or step_knight[sq] & knights
                ):
                    continue
                if sliders:
                    candidates = (ROOK_RAYS[sq] & rooks) | (BISHOP_RAYS[sq] & bishops) | (lance_rays[sq] & lances)
                    between = BETWEEN[sq]
                    while candidates:
                        c = candidates & -candidates
                        if not between[c.bit_length() - 1] & without_king:
                            break
                        candidates ^= c
                    else:
                        safe |= low
                else:
                    safe |= low
        if safe:
            piece = 8 | m
            cache = _MOVE_CACHE[piece * 81 + ksq]
            codes = cache.get(safe)
            if codes is None:
                codes = cache[safe] = _codes_for(piece, ksq, safe)
            moves += codes

    def _perft(self, depth: int) -> int:
        if depth <= 1:
            if depth != 1:
                return 1
            return _c_count_legal(self) if _c_count_legal is not None else len(self._py_legal_codes())
        total = 0
        push = self._push
        pop = self._pop
        for code in self._legal_codes():
            push(code)
            total += self._perft(depth - 1)
            pop()
        return total


if SPEEDUPS is not None:
    # The compiled _push/_pop: methods that edit the PositionState fields in place, as method
    # descriptors of Position itself (CPython's fast call path wants the class's own).  The module
    # keeps the Zobrist tables (Python ints here) as C integers from now on.
    SPEEDUPS.set_zobrist(zobrist.PIECE_SQUARE, zobrist.HAND, zobrist.WHITE_TO_MOVE)
    _COMPILED = SPEEDUPS.methods_for(Position)
    Position._push = _COMPILED["_push"]
    Position._pop = _COMPILED["_pop"]
    # The public name of the same method, as fast (no Python frame in between).
    Position.push_code = Position._push  # type: ignore[method-assign]


# Other modules import the ray helper from here under this name.
_ray = ray_attack


_RN, _RS, _RW, _RE = RAYS[N], RAYS[S], RAYS[W], RAYS[E]
_RNW, _RNE, _RSW, _RSE = RAYS[NW], RAYS[NE], RAYS[SW], RAYS[SE]


def _rook_attack(sq: int, occupied: int) -> int:
    # N and W run towards lower square numbers (nearest blocker = highest bit), S and E higher.
    n = _RN[sq]
    b = n & occupied
    if b:
        n ^= _RN[b.bit_length() - 1]
    s = _RS[sq]
    b = s & occupied
    if b:
        s ^= _RS[(b & -b).bit_length() - 1]
    w = _RW[sq]
    b = w & occupied
    if b:
        w ^= _RW[b.bit_length() - 1]
    e = _RE[sq]
    b = e & occupied
    if b:
        e ^= _RE[(b & -b).bit_length() - 1]
    return n | s | w | e


def _bishop_attack(sq: int, occupied: int) -> int:
    a = _RNW[sq]
    b = a & occupied
    if b:
        a ^= _RNW[b.bit_length() - 1]
    c = _RNE[sq]
    b = c & occupied
    if b:
        c ^= _RNE[b.bit_length() - 1]
    d = _RSW[sq]
    b = d & occupied
    if b:
        d ^= _RSW[(b & -b).bit_length() - 1]
    e = _RSE[sq]
    b = e & occupied
    if b:
        e ^= _RSE[(b & -b).bit_length() - 1]
    return a | c | d | e


def piece_attacks(piece: int, sq: int, occupied: int) -> int:
    """Squares the piece code *piece* on *sq* attacks with *occupied* blocking its slides: the one
    place that knows how each kind of piece moves (the move, capture and check generators and the
    search's threat tests all ask here)."""
    kind = KIND[piece]
    if kind == 0:
        return STEP[piece][sq]
    if kind == 1:
        return _ray(S if piece & 16 else N, sq, occupied)
    if kind == 2:
        return _bishop_attack(sq, occupied)
    if kind == 3:
        return _rook_attack(sq, occupied)
    if kind == 4:
        return _bishop_attack(sq, occupied) | STEP[piece][sq]
    return _rook_attack(sq, occupied) | STEP[piece][sq]
