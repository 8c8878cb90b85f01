"""Static evaluation: material, pieces in hand, piece placement and king safety.

The score is kept incrementally during search (see :func:`move_delta`).  Most of it lives in two
tables indexed by a king square, a piece code and a square:

* ``OWN[k][piece][sq]``: material, placement and the piece's value as a defender of its own
  king on *k* (golds and silvers next to their king are worth more);
* ``ATTACK[k][piece][sq]``: the piece's value as an attacker of the enemy king on *k*.

Both are from sente's point of view (gote's entries are negative) and ``k == 81`` stands for a
missing king (tsume positions).  A king move changes a whole table row, so it is re-summed with
:func:`full_score`; any other move changes a handful of entries.  The parts that depend on the
whole position (pieces in hand against an exposed king) are added by :func:`extras`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from shogiban.bitboard import BISHOP_RAYS, KING8, ROOK_RAYS, STEP, N, S
from shogiban.pieces import (
    BISHOP,
    GOLD,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    PROM_BISHOP,
    PROM_KNIGHT,
    PROM_LANCE,
    PROM_PAWN,
    PROM_ROOK,
    PROM_SILVER,
    ROOK,
    SILVER,
    PieceType,
)
from shogiban.position import Position, _bishop_attack, _ray, _rook_attack


def _by_type(values: dict[PieceType, int]) -> tuple[int, ...]:
    """A table indexed by piece type (0 unused) from values named by type, so that no value
    lands on another type's index."""
    return (0, *(values[PieceType(pt)] for pt in range(1, max(values) + 1)))


@dataclass(frozen=True)
class EvalParams:
    """The evaluation's parameters, by name: :func:`build_tables` turns them into the tables the
    search reads.  Tuples "by type" are indexed by :class:`~shogiban.pieces.PieceType` (0 unused;
    pawn, lance, knight, silver, bishop, rook, gold, king, then the promoted ones); tuples "by
    advance" by how far a piece stands from its own back rank (0 = own back rank); tuples "by
    distance" by the Chebyshev distance to a king.  ``tools/tune_eval.py`` tunes them on
    Fairy-Stockfish scores, ``tools/spsa_eval.py`` on game results; the values in hand, the king's
    placement, defence and danger, the attack scale and the tempo are SPSA's (1,600 game pairs at
    10,000 nodes, benchmarks/strength.md), the rest hand-set.
    """

    #: Value on the board by type (index 1..14, 8 = king).
    material: tuple[int, ...] = _by_type(
        {PAWN: 90, LANCE: 315, KNIGHT: 405, SILVER: 495, BISHOP: 855, ROOK: 990, GOLD: 540, KING: 0,
         PROM_PAWN: 540, PROM_LANCE: 540, PROM_KNIGHT: 540, PROM_SILVER: 540, PROM_BISHOP: 945, PROM_ROOK: 1395},
    )
    #: Value of the n-th piece of a type in hand (n = 1, 2, ...): more than on the board, a little
    #: less for each further one, never below the floor (index 1..7, by type).
    hand_first: tuple[int, ...] = _by_type(
        {PAWN: 129, LANCE: 337, KNIGHT: 427, SILVER: 542, BISHOP: 921, ROOK: 1065, GOLD: 590},
    )
    hand_step: tuple[int, ...] = _by_type({PAWN: 8, LANCE: 15, KNIGHT: 15, SILVER: 15, BISHOP: 40, ROOK: 50, GOLD: 15})
    hand_floor: tuple[int, ...] = _by_type(
        {PAWN: 85, LANCE: 300, KNIGHT: 380, SILVER: 500, BISHOP: 860, ROOK: 1000, GOLD: 545},
    )
    #: Placement bonuses by advance; the edge penalties are subtracted on files 1 and 9.
    place_pawn: tuple[int, ...] = (0, 0, 0, 5, 10, 15, 20, 25, 0)
    place_lance_home: int = 5  # a lance on its own two back ranks
    place_knight: tuple[int, ...] = (0, 0, 10, 15, 10, 0, -20, 0, 0)
    place_silver: tuple[int, ...] = (-5, 5, 15, 15, 10, 10, 5, 5, 5)
    place_gold: tuple[int, ...] = (0, 10, 5, -5, -10, -10, -10, -10, -10)
    place_king: tuple[int, ...] = (0, 12, -30, -71, -107, -131, -119, -95, -71)
    #: King bonus by distance from the centre file (0 = file 5).
    place_king_file: tuple[int, ...] = (-25, -10, 15, 25, 10)
    edge_knight: int = 10
    edge_silver: int = 10
    edge_gold: int = 10
    #: Defence of the own king, by distance; gold-likes next to it are worth ``defence_gold[1]``
    #: in front or beside, ``defence_gold_behind`` behind.
    defence_gold: tuple[int, ...] = (0, 68, 38, 14)
    defence_gold_behind: int = 48
    defence_silver: tuple[int, ...] = (0, 54, 34, 11)
    defence_knight: int = 10  # within 2
    defence_pawn: int = 12  # in front, within 3, on the king's file or next to it
    defence_rook: int = -20  # within 2 (玉飛接近すべからず: keep the rook away from the own king)
    #: Attack of the enemy king, by distance (before the attack scale).
    attack_gold: tuple[int, ...] = (0, 80, 50, 25, 8)
    attack_silver: tuple[int, ...] = (0, 60, 40, 18, 5)
    attack_knight: int = 20  # at distance 2
    attack_pawn: tuple[int, ...] = (0, 25, 12)
    attack_lance: int = 15  # on the king's file, below it
    attack_dragon: tuple[int, ...] = (0, 150, 100, 60, 30, 10)
    attack_horse: tuple[int, ...] = (0, 110, 70, 40, 20)
    attack_rook: int = 15  # within 3
    #: Scale of the attack terms.
    attack_scale_num: int = 173
    attack_scale_den: int = 100
    #: Penalty by the number of squares next to a king that the enemy attacks.
    attacked: tuple[int, ...] = (0, 25, 75, 149, 249, 361, 486, 623, 772)
    #: Penalty per hand-threat unit by the number of empty squares around the king.
    exposure: tuple[int, ...] = (0, 3, 8, 14, 21, 28, 34, 41, 48)
    #: Penalty per (attacked square next to the king x hand-threat unit).
    attacked_hand: int = 19
    tempo: int = 9


#: The parameters the engine plays with.
DEFAULT_PARAMS = EvalParams()

NO_KING = 81
#: King-relative terms vanish beyond this Chebyshev distance (a king move only touches nearby pieces).
RADIUS = 5
_MAX_HAND = 19

GOLDLIKE = frozenset((7, 9, 10, 11, 12))


def _base_type(piece_type: int) -> int:
    return piece_type - 8 if piece_type > 8 else piece_type


def _placement(p: EvalParams, pt: int, row: int, col: int) -> int:
    """Placement bonus for a sente piece of type *pt* on (row, col), row 0 = rank a."""
    adv = 8 - row
    edge = col in (0, 8)
    if pt == 1:
        return p.place_pawn[adv]
    if pt == 2:
        return p.place_lance_home if adv <= 1 else 0
    if pt == 3:
        return p.place_knight[adv] - (p.edge_knight if edge else 0)
    if pt == 4:
        return p.place_silver[adv] - (p.edge_silver if edge else 0)
    if pt == 7:
        return p.place_gold[adv] - (p.edge_gold if edge else 0)
    if pt == 8:
        return p.place_king[adv] + p.place_king_file[abs(col - 4)]
    return 0


def _by_distance(values: tuple[int, ...], d: int) -> int:
    return values[d] if d < len(values) else 0


def _defence(p: EvalParams, pt: int, dy: int, dx: int) -> int:
    """Bonus for a sente piece standing (dy, dx) from its own king (dy < 0 = in front)."""
    d = max(abs(dy), dx)
    if pt in GOLDLIKE:
        if d == 1 and dy > 0:
            return p.defence_gold_behind
        return _by_distance(p.defence_gold, d)
    if pt == 4:
        return _by_distance(p.defence_silver, d)
    if pt == 3:
        return p.defence_knight if d <= 2 else 0
    if pt == 1:
        return p.defence_pawn if dy < 0 and dx <= 1 and d <= 3 else 0
    if pt == 6:
        return p.defence_rook if d <= 2 else 0
    return 0


def _attack(p: EvalParams, pt: int, dy: int, dx: int) -> int:
    """Bonus for a sente piece standing (dy, dx) from the enemy king."""
    d = max(abs(dy), dx)
    if pt in GOLDLIKE:
        return _by_distance(p.attack_gold, d)
    if pt == 4:
        return _by_distance(p.attack_silver, d)
    if pt == 3:
        return p.attack_knight if d == 2 else 0
    if pt == 1:
        return _by_distance(p.attack_pawn, d)
    if pt == 2:
        return p.attack_lance if dx == 0 and 0 < dy <= RADIUS else 0
    if pt == 14:
        return _by_distance(p.attack_dragon, d)
    if pt == 13:
        return _by_distance(p.attack_horse, d)
    if pt == 6:
        return p.attack_rook if d <= 3 else 0
    return 0


def _build(p: EvalParams = DEFAULT_PARAMS) -> tuple[list[list[list[int]]], list[list[list[int]]]]:
    own: list[list[list[int]]] = []
    attack: list[list[list[int]]] = []
    for k in range(NO_KING + 1):
        own_row: list[list[int]] = [[0] * 81 for _ in range(32)]
        attack_row: list[list[int]] = [[0] * 81 for _ in range(32)]
        for code in range(32):
            pt, color = code & 15, code >> 4
            if not 1 <= pt <= 14:
                continue
            sign = -1 if color else 1
            for sq in range(81):
                # Gote's pieces are sente's seen from the other side: rotate both squares.
                s = 80 - sq if color else sq
                row, col = divmod(s, 9)
                value = p.material[pt] + _placement(p, pt, row, col)
                defence = attacking = 0
                if k != NO_KING:
                    kk = 80 - k if color else k
                    krow, kcol = divmod(kk, 9)
                    if pt != 8:
                        defence = _defence(p, pt, row - krow, abs(col - kcol))
                        # As an attacker, k is the enemy king, seen from the same side.
                        attacking = _attack(p, pt, row - krow, abs(col - kcol))
                own_row[code][sq] = sign * (value + defence)
                attack_row[code][sq] = sign * (attacking * p.attack_scale_num // p.attack_scale_den)
        own.append(own_row)
        attack.append(attack_row)
    return own, attack


def _hand_tables(p: EvalParams = DEFAULT_PARAMS) -> list[list[list[int]]]:
    """HAND[color][pt][n]: signed value of holding the n-th piece of *pt* (n >= 1)."""
    tables: list[list[list[int]]] = []
    for color in (0, 1):
        sign = -1 if color else 1
        per_type: list[list[int]] = [[0] * (_MAX_HAND + 2)]
        for pt in range(1, 8):
            row = [0] + [
                sign * max(p.hand_floor[pt], p.hand_first[pt] - p.hand_step[pt] * (n - 1))
                for n in range(1, _MAX_HAND + 2)
            ]
            per_type.append(row)
        tables.append(per_type)
    return tables


def _hand_sums(hand: list[list[list[int]]]) -> list[list[list[int]]]:
    """HAND_SUM from HAND: the value of holding n pieces of a type."""
    return [[[sum(row[1 : n + 1]) for n in range(len(row))] for row in per_type] for per_type in hand]


class EvalTables(NamedTuple):
    """The tables :func:`build_tables` makes from an :class:`EvalParams` (see the module names)."""

    own: list[list[list[int]]]
    attack: list[list[list[int]]]
    hand: list[list[list[int]]]
    hand_sum: list[list[list[int]]]
    material: tuple[int, ...]
    attacked: tuple[int, ...]
    exposure: tuple[int, ...]
    attacked_hand: int
    tempo: int


def build_tables(params: EvalParams = DEFAULT_PARAMS) -> EvalTables:
    """The evaluation tables for *params* (the module's tables are those of DEFAULT_PARAMS)."""
    own, attack = _build(params)
    hand = _hand_tables(params)
    return EvalTables(
        own, attack, hand, _hand_sums(hand), params.material, params.attacked, params.exposure,
        params.attacked_hand, params.tempo,
    )


DEFAULT_TABLES = build_tables(DEFAULT_PARAMS)

#: Value on the board by piece type (index 1..14, 8 = king), in :class:`~shogiban.pieces.PieceType`
#: order (pawn, lance, knight, silver, bishop, rook, gold, king, then the promoted ones).
MATERIAL: tuple[int, ...] = DEFAULT_PARAMS.material
#: Value of the n-th piece of a type in hand: see :class:`EvalParams`.
HAND_FIRST: tuple[int, ...] = DEFAULT_PARAMS.hand_first
HAND_STEP: tuple[int, ...] = DEFAULT_PARAMS.hand_step
HAND_FLOOR: tuple[int, ...] = DEFAULT_PARAMS.hand_floor
#: Penalty per hand-threat unit by the number of empty squares around the king.
EXPOSURE: tuple[int, ...] = DEFAULT_PARAMS.exposure
TEMPO = DEFAULT_PARAMS.tempo
ATTACK_SCALE_NUM, ATTACK_SCALE_DEN = DEFAULT_PARAMS.attack_scale_num, DEFAULT_PARAMS.attack_scale_den
#: OWN[k][piece][sq] and ATTACK[k][piece][sq]: see the module docstring.
OWN, ATTACK = DEFAULT_TABLES.own, DEFAULT_TABLES.attack
#: HAND[color][pt][n]: the (signed) value the n-th piece of type *pt* in *color*'s hand adds.
HAND = DEFAULT_TABLES.hand
#: HAND_SUM[color][pt][n]: the (signed) value of holding n pieces of type *pt*.
HAND_SUM = DEFAULT_TABLES.hand_sum


def king_index(position: Position, color: int) -> int:
    """Row index into OWN/ATTACK for *color*'s king (NO_KING when it has none)."""
    k = position._kings[color]
    return k if k >= 0 else NO_KING


def full_score(position: Position, tables: EvalTables = DEFAULT_TABLES) -> int:
    """The incremental part of the evaluation, from sente's point of view, summed from scratch
    (with the engine's tables, or *tables* built for other parameters)."""
    OWN, ATTACK, HAND_SUM = tables.own, tables.attack, tables.hand_sum  # noqa: N806
    kb = king_index(position, 0)
    kw = king_index(position, 1)
    board = position._board
    total = 0
    # Sente's pieces defend sente's king and attack gote's, and vice versa.
    for own, att, bits in ((OWN[kb], ATTACK[kw], position._occ[0]), (OWN[kw], ATTACK[kb], position._occ[1])):
        while bits:
            low = bits & -bits
            bits ^= low
            sq = low.bit_length() - 1
            piece = board[sq]
            total += own[piece][sq] + att[piece][sq]
    for color in (0, 1):
        hand = position._hands[color]
        for pt in range(1, 8):
            n = hand[pt]
            if n:
                total += HAND_SUM[color][pt][min(n, _MAX_HAND)]
    return total


def _near(sq: int) -> int:
    row, col = divmod(sq, 9)
    bits = 0
    for r in range(max(0, row - RADIUS), min(8, row + RADIUS) + 1):
        for c in range(max(0, col - RADIUS), min(8, col + RADIUS) + 1):
            bits |= 1 << (r * 9 + c)
    return bits


#: NEAR[sq]: squares within RADIUS of *sq*.
NEAR: tuple[int, ...] = tuple(_near(sq) for sq in range(81))


def _king_delta(position: Position, code: int, frm: int, to: int, piece: int, color: int) -> int:
    """Change of :func:`full_score` made by a king move: the king-relative terms of the pieces
    near the old or the new square change."""
    board = position._board
    ke = position._kings[color ^ 1]
    ke = ke if ke >= 0 else NO_KING
    own_old, own_new = OWN[frm], OWN[to]
    att_old, att_new = ATTACK[frm], ATTACK[to]
    delta = own_new[piece][to] - own_old[piece][frm]
    region = NEAR[frm] | NEAR[to]
    mine = position._occ[color] & region & ~(1 << frm)
    while mine:
        low = mine & -mine
        mine ^= low
        sq = low.bit_length() - 1
        p = board[sq]
        delta += own_new[p][sq] - own_old[p][sq]
    theirs = position._occ[color ^ 1] & region & ~(1 << to)
    while theirs:
        low = theirs & -theirs
        theirs ^= low
        sq = low.bit_length() - 1
        p = board[sq]
        delta += att_new[p][sq] - att_old[p][sq]
    captured = board[to]
    if captured:
        delta -= OWN[ke][captured][to] + att_old[captured][to]
        pt = captured & 15
        if pt > 8:
            pt -= 8
        delta += HAND[color][pt][min(position._hands[color][pt] + 1, _MAX_HAND)]
    return delta


def move_delta(position: Position, code: int) -> int:
    """Change of :func:`full_score` made by the move *code* (not yet pushed)."""
    to = code & 127
    frm = code >> 7 & 127
    color = position._turn
    kings = position._kings
    kc = kings[color]
    ke = kings[color ^ 1]
    kc = kc if kc >= 0 else NO_KING
    ke = ke if ke >= 0 else NO_KING
    if frm >= 81:
        pt = frm - 81
        piece = pt | color << 4
        n = position._hands[color][pt]
        return OWN[kc][piece][to] + ATTACK[ke][piece][to] - HAND[color][pt][min(n, _MAX_HAND)]
    board = position._board
    piece = board[frm]
    if piece & 15 == 8:
        return _king_delta(position, code, frm, to, piece, color)
    new = piece + 8 if code >> 14 else piece
    own = OWN[kc]
    att = ATTACK[ke]
    delta = own[new][to] - own[piece][frm] + att[new][to] - att[piece][frm]
    captured = board[to]
    if captured:
        delta -= OWN[ke][captured][to] + ATTACK[kc][captured][to]
        pt = captured & 15
        if pt > 8:
            pt -= 8
        delta += HAND[color][pt][min(position._hands[color][pt] + 1, _MAX_HAND)]
    return delta


def _threat(hand: tuple[int, ...]) -> int:
    # Indexed by PieceType: 1 pawn, 2 lance, 3 knight, 4 silver, 5 bishop, 6 rook, 7 gold.
    return (
        (hand[1] > 0) + (hand[2] > 0) + (hand[3] > 0) * 2 + (hand[4] > 0) * 3 + (hand[4] > 1) * 3
        + (hand[7] > 0) * 3 + (hand[7] > 1) * 3 + (hand[5] > 0) * 2 + (hand[5] > 1) * 2
        + (hand[6] > 0) * 3 + (hand[6] > 1) * 3
    )


_THREAT_CACHE: dict[tuple[int, ...], int] = {}


def hand_threat(hand: list[int]) -> int:
    """Weight of the pieces in *hand* as drop threats against a king."""
    key = tuple(hand)
    threat = _THREAT_CACHE.get(key)
    if threat is None:
        if len(_THREAT_CACHE) > 1 << 16:
            _THREAT_CACHE.clear()
        threat = _THREAT_CACHE[key] = _threat(key)
    return threat


def _box(sq: int, radius: int) -> int:
    row, col = divmod(sq, 9)
    bits = 0
    for r in range(max(0, row - radius), min(8, row + radius) + 1):
        for c in range(max(0, col - radius), min(8, col + radius) + 1):
            bits |= 1 << (r * 9 + c)
    return bits


#: BOX2[sq] / BOX3[sq]: the 5x5 / 7x7 boxes around *sq*: where a stepping piece (a knight for
#: the larger box) can reach the squares next to a king on *sq*.
BOX2: tuple[int, ...] = tuple(_box(sq, 2) for sq in range(81))
BOX3: tuple[int, ...] = tuple(_box(sq, 3) for sq in range(81))


def _reach(k: int, rays: tuple[int, ...]) -> int:
    bits = 0
    ring = KING8[k] | 1 << k
    for t in range(81):
        if ring >> t & 1:
            bits |= rays[t]
    return bits


#: Squares from which a rook (or dragon) / bishop (or horse) could see a square next to a king on
#: *sq*: sliders elsewhere are skipped.
ROOK_REACH: tuple[int, ...] = tuple(_reach(k, ROOK_RAYS) for k in range(81))
BISHOP_REACH: tuple[int, ...] = tuple(_reach(k, BISHOP_RAYS) for k in range(81))


#: Penalty by the number of squares next to a king that the enemy attacks.
ATTACKED: tuple[int, ...] = DEFAULT_PARAMS.attacked
#: Penalty per (attacked square next to the king x hand-threat unit).
ATTACKED_HAND = DEFAULT_PARAMS.attacked_hand


def attacks_near(position: Position, by: int, k: int) -> int:
    """Squares next to *k* that colour *by* attacks."""
    board = position._board
    bb = position._bb
    occupied = position._occ[0] | position._occ[1]
    o = by << 4
    rooks = bb[6 | o] | bb[14 | o]
    bishops = bb[5 | o] | bb[13 | o]
    lances = bb[2 | o]
    result = 0
    steppers = (position._occ[by] & BOX2[k] | bb[3 | o] & BOX3[k]) & ~(rooks | bishops | lances)
    while steppers:
        low = steppers & -steppers
        steppers ^= low
        sq = low.bit_length() - 1
        result |= STEP[board[sq]][sq]
    sliders = rooks & (ROOK_REACH[k] | BOX2[k])
    while sliders:
        low = sliders & -sliders
        sliders ^= low
        sq = low.bit_length() - 1
        result |= _rook_attack(sq, occupied) | STEP[board[sq]][sq]
    sliders = bishops & (BISHOP_REACH[k] | BOX2[k])
    while sliders:
        low = sliders & -sliders
        sliders ^= low
        sq = low.bit_length() - 1
        result |= _bishop_attack(sq, occupied) | STEP[board[sq]][sq]
    sliders = lances & ROOK_REACH[k]
    while sliders:
        low = sliders & -sliders
        sliders ^= low
        result |= _ray(S if by else N, low.bit_length() - 1, occupied)
    return result & KING8[k]


def king_features(position: Position, color: int) -> tuple[int, int, int] | None:
    """What :func:`king_danger` weighs for *color*'s king: the squares next to it that the enemy
    attacks, the empty squares next to it and the enemy's hand threat (None without a king)."""
    k = position._kings[color]
    if k < 0:
        return None
    ring = KING8[k]
    attacked = attacks_near(position, color ^ 1, k).bit_count()
    empty = (ring & ~(position._occ[0] | position._occ[1])).bit_count()
    return attacked, empty, hand_threat(position._hands[color ^ 1])


def king_danger(position: Position, color: int, tables: EvalTables = DEFAULT_TABLES) -> int:
    """Penalty for *color*'s king: squares next to it that the enemy attacks, and the enemy's
    pieces in hand against the empty and attacked squares around it."""
    features = king_features(position, color)
    if features is None:
        return 0
    attacked, empty, threat = features
    return tables.attacked[attacked] + (tables.exposure[empty] + tables.attacked_hand * attacked) * threat


def extras(position: Position, tables: EvalTables = DEFAULT_TABLES) -> int:
    """The evaluation terms that need the whole position, from sente's point of view: the
    danger around each king (see :func:`king_danger`)."""
    return king_danger(position, 1, tables) - king_danger(position, 0, tables)


def evaluate(position: Position, tables: EvalTables = DEFAULT_TABLES) -> int:
    """Full static evaluation for the side to move, in centipawns (slow path, for tests and
    the root; the search keeps :func:`full_score` incrementally).  *tables* (from
    :func:`build_tables`) evaluates with other parameters, as the tuning tool does."""
    score = full_score(position, tables) + extras(position, tables)
    return (score if position._turn == 0 else -score) + tables.tempo
