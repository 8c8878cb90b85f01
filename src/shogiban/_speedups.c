/*
 * shogiban._speedups: optional compiled legal move generation for shogiban.position.Position.
 *
 * The pure-Python generator in position.py is the reference.  This is a port of it that returns
 * the same codes in the same order (the engine, the tsume solver and the notation modules depend
 * on the order), so every section below follows the Python method it mirrors:
 *
 *   1. king moves (destinations ascending);
 *   2. double check: stop; single check: targets become the checker and the squares between;
 *   3. unpinned pawns in bulk, by destination rank ascending, columns descending in a rank;
 *   4. every other piece by square ascending, destinations ascending, the promoting code before
 *      the non-promoting one;
 *   5. drops: pawn, lance, knight (each rank ascending, columns descending), then silver, bishop,
 *      rook and gold interleaved rank by rank.
 *
 * The position is read from the Python object (_board, _hands, _turn, _kings) and its bitboards
 * are rebuilt here from the board, which is cheaper than converting the Python ints.
 *
 * Bitboards are 81 bits in two words: lo holds squares 0..62 (ranks a..g), hi holds squares
 * 63..80 (ranks h and i) in its bits 0..17, so each rank's nine bits sit inside one word.
 *
 * C99 and the plain CPython C API; GCC/Clang bit-scan builtins with a portable fallback.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

/* -- bitboards ------------------------------------------------------------------------------ */

typedef struct {
    uint64_t lo;
    uint64_t hi;
} BB;

#define HI_MASK ((UINT64_C(1) << 18) - 1)
#define LO_MASK ((UINT64_C(1) << 63) - 1)

#if defined(__GNUC__) || defined(__clang__)
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int msb64(uint64_t x) { return 63 - __builtin_clzll(x); }
#else
static inline int ctz64(uint64_t x)
{
    int n = 0;
    if (!(x & 0xFFFFFFFFu)) { n += 32; x >>= 32; }
    if (!(x & 0xFFFFu)) { n += 16; x >>= 16; }
    if (!(x & 0xFFu)) { n += 8; x >>= 8; }
    if (!(x & 0xFu)) { n += 4; x >>= 4; }
    if (!(x & 0x3u)) { n += 2; x >>= 2; }
    if (!(x & 0x1u)) { n += 1; }
    return n;
}
static inline int msb64(uint64_t x)
{
    int n = 0;
    if (x >> 32) { n += 32; x >>= 32; }
    if (x >> 16) { n += 16; x >>= 16; }
    if (x >> 8) { n += 8; x >>= 8; }
    if (x >> 4) { n += 4; x >>= 4; }
    if (x >> 2) { n += 2; x >>= 2; }
    if (x >> 1) { n += 1; }
    return n;
}
#endif

static const BB EMPTY = {0, 0};

static inline BB bb_or(BB a, BB b) { BB r = {a.lo | b.lo, a.hi | b.hi}; return r; }
static inline BB bb_and(BB a, BB b) { BB r = {a.lo & b.lo, a.hi & b.hi}; return r; }
static inline BB bb_andnot(BB a, BB b) { BB r = {a.lo & ~b.lo, a.hi & ~b.hi}; return r; }
static inline BB bb_xor(BB a, BB b) { BB r = {a.lo ^ b.lo, a.hi ^ b.hi}; return r; }
static inline int bb_any(BB a) { return (a.lo | a.hi) != 0; }
static inline int bb_has(BB a, int sq)
{
    return sq < 63 ? (int)(a.lo >> sq & 1) : (int)(a.hi >> (sq - 63) & 1);
}
static inline int bb_lsb(BB a) { return a.lo ? ctz64(a.lo) : 63 + ctz64(a.hi); }
static inline int bb_msb(BB a) { return a.hi ? 63 + msb64(a.hi) : msb64(a.lo); }
static inline int bb_pop(BB *a)
{
    int sq;
    if (a->lo) {
        sq = ctz64(a->lo);
        a->lo &= a->lo - 1;
    } else {
        sq = 63 + ctz64(a->hi);
        a->hi &= a->hi - 1;
    }
    return sq;
}
static inline int bb_several(BB a)
{
    return (a.lo & (a.lo - 1)) != 0 || (a.hi & (a.hi - 1)) != 0 || (a.lo != 0 && a.hi != 0);
}
/* The nine bits of rank r (0 = rank a). */
static inline unsigned bb_rank(BB a, int r)
{
    return (unsigned)(r < 7 ? a.lo >> (9 * r) : a.hi >> (9 * (r - 7))) & 511u;
}
/* Every square one rank towards rank a (sente's forward move). */
static inline BB bb_north(BB a)
{
    BB r = {(a.lo >> 9) | ((a.hi & 511u) << 54), a.hi >> 9};
    return r;
}
/* Every square one rank towards rank i (gote's forward move). */
static inline BB bb_south(BB a)
{
    BB r = {(a.lo << 9) & LO_MASK, ((a.hi << 9) | (a.lo >> 54)) & HI_MASK};
    return r;
}

/* -- tables, filled once by init_tables() ---------------------------------------------------- */

enum { N, S, W, E, NW, NE, SW, SE };
static const int DIR_COL[8] = {0, 0, -1, 1, -1, 1, -1, 1};
static const int DIR_ROW[8] = {-1, 1, 0, 0, -1, -1, 1, 1};
/* Rays that run towards higher square numbers: the nearest blocker is the lowest bit. */
static const int POSITIVE[8] = {0, 1, 0, 1, 0, 0, 1, 1};

static BB BIT[81];
static BB FULL;
static BB RAYS[8][81];
static BB ROOK_RAYS[81];
static BB BISHOP_RAYS[81];
static BB STEP[32][81];
static BB BETWEEN[81][81];
static BB COLUMN[9];
/* DROP_ALLOWED[color][pt]: where a dropped piece could still move. */
static BB DROP_ALLOWED[2][8];

#define PROMOTION_FLAG (1 << 14)
/* Upper bound of the codes: promotion flag | from 80 << 7 | to 80. */
#define CODE_LIMIT (1 << 15)
/* More moves than one side can have: with k pieces, at most 2 k (81 - k) <= 3280 board moves
 * (each to a square it does not occupy, promoting or not), plus 7 x 81 drops. */
#define MAX_MOVES 4096

static void init_tables(void)
{
    static const int gold[6][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}};
    static const int silver[5][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}};
    static const int knight[2][2] = {{-1, -2}, {1, -2}};
    static const int pawn[1][2] = {{0, -1}};
    static const int orth[4][2] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0}};
    static const int diag[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    int sq, d, code, i, a, b, c, r;

    FULL = EMPTY;
    for (sq = 0; sq < 81; sq++) {
        BB bit = EMPTY;
        if (sq < 63)
            bit.lo = UINT64_C(1) << sq;
        else
            bit.hi = UINT64_C(1) << (sq - 63);
        BIT[sq] = bit;
        FULL = bb_or(FULL, bit);
    }
    for (d = 0; d < 8; d++) {
        for (sq = 0; sq < 81; sq++) {
            BB ray = EMPTY;
            int col = sq % 9 + DIR_COL[d], row = sq / 9 + DIR_ROW[d];
            while (col >= 0 && col < 9 && row >= 0 && row < 9) {
                ray = bb_or(ray, BIT[row * 9 + col]);
                col += DIR_COL[d];
                row += DIR_ROW[d];
            }
            RAYS[d][sq] = ray;
        }
    }
    for (sq = 0; sq < 81; sq++) {
        ROOK_RAYS[sq] = bb_or(bb_or(RAYS[N][sq], RAYS[S][sq]), bb_or(RAYS[W][sq], RAYS[E][sq]));
        BISHOP_RAYS[sq] = bb_or(bb_or(RAYS[NW][sq], RAYS[NE][sq]), bb_or(RAYS[SW][sq], RAYS[SE][sq]));
    }
    for (code = 0; code < 32; code++) {
        int pt = code & 15, sign = code >> 4 ? -1 : 1, count = 0;
        const int(*offsets)[2] = NULL;
        int all8[8][2];
        switch (pt) {
        case 1: offsets = pawn; count = 1; break;
        case 3: offsets = knight; count = 2; break;
        case 4: offsets = silver; count = 5; break;
        case 7: case 9: case 10: case 11: case 12: offsets = gold; count = 6; break;
        case 8:
            for (i = 0; i < 8; i++) {
                all8[i][0] = DIR_COL[i];
                all8[i][1] = DIR_ROW[i];
            }
            offsets = (const int(*)[2])all8;
            count = 8;
            break;
        case 13: offsets = orth; count = 4; break;
        case 14: offsets = diag; count = 4; break;
        default: break;
        }
        for (sq = 0; sq < 81; sq++) {
            BB steps = EMPTY;
            for (i = 0; i < count; i++) {
                int col = sq % 9 + sign * offsets[i][0], row = sq / 9 + sign * offsets[i][1];
                if (col >= 0 && col < 9 && row >= 0 && row < 9)
                    steps = bb_or(steps, BIT[row * 9 + col]);
            }
            STEP[code][sq] = steps;
        }
    }
    for (a = 0; a < 81; a++) {
        for (b = 0; b < 81; b++) {
            BB between = EMPTY;
            for (d = 0; d < 8; d++) {
                if (bb_has(RAYS[d][a], b)) {
                    between = bb_andnot(bb_andnot(RAYS[d][a], RAYS[d][b]), BIT[b]);
                    break;
                }
            }
            BETWEEN[a][b] = between;
        }
    }
    for (c = 0; c < 9; c++) {
        COLUMN[c] = EMPTY;
        for (r = 0; r < 9; r++)
            COLUMN[c] = bb_or(COLUMN[c], BIT[r * 9 + c]);
    }
    for (c = 0; c < 2; c++) {
        BB last1 = EMPTY, last2 = EMPTY;
        for (i = 0; i < 9; i++) {
            int near = c ? 72 + i : i, next = c ? 63 + i : 9 + i;
            last1 = bb_or(last1, BIT[near]);
            last2 = bb_or(last2, bb_or(BIT[near], BIT[next]));
        }
        for (i = 0; i < 8; i++)
            DROP_ALLOWED[c][i] = FULL;
        DROP_ALLOWED[c][1] = bb_xor(FULL, last1);
        DROP_ALLOWED[c][2] = bb_xor(FULL, last1);
        DROP_ALLOWED[c][3] = bb_xor(FULL, last2);
    }
}

static inline BB ray_attack(int d, int sq, BB occupied)
{
    BB ray = RAYS[d][sq];
    BB blockers = bb_and(ray, occupied);
    if (bb_any(blockers))
        ray = bb_xor(ray, RAYS[d][POSITIVE[d] ? bb_lsb(blockers) : bb_msb(blockers)]);
    return ray;
}

static inline BB rook_attack(int sq, BB occupied)
{
    return bb_or(bb_or(ray_attack(N, sq, occupied), ray_attack(S, sq, occupied)),
                 bb_or(ray_attack(W, sq, occupied), ray_attack(E, sq, occupied)));
}

static inline BB bishop_attack(int sq, BB occupied)
{
    return bb_or(bb_or(ray_attack(NW, sq, occupied), ray_attack(NE, sq, occupied)),
                 bb_or(ray_attack(SW, sq, occupied), ray_attack(SE, sq, occupied)));
}

/* -- the position ---------------------------------------------------------------------------- */

typedef struct {
    uint8_t board[81];
    BB bb[32];
    BB occ[2];
    int kings[2];
    long hands[2][8];
    int turn;
} Pos;

/* Whether colour `by` attacks `sq` given `occupied` (Position._is_attacked). */
static int is_attacked(const Pos *p, int sq, int by, BB occupied)
{
    const BB *bb = p->bb;
    int o = by << 4, m = (by ^ 1) << 4; /* a piece of the other colour on sq mirrors the steps */
    BB golds = bb_or(bb_or(bb[7 | o], bb[9 | o]), bb_or(bb_or(bb[10 | o], bb[11 | o]), bb[12 | o]));
    BB kings = bb_or(bb[8 | o], bb_or(bb[13 | o], bb[14 | o]));
    BB candidates;
    if (bb_any(bb_and(STEP[1 | m][sq], bb[1 | o])) || bb_any(bb_and(STEP[8][sq], kings))
        || bb_any(bb_and(STEP[7 | m][sq], golds)) || bb_any(bb_and(STEP[4 | m][sq], bb[4 | o]))
        || bb_any(bb_and(STEP[3 | m][sq], bb[3 | o])))
        return 1;
    candidates = bb_or(bb_and(ROOK_RAYS[sq], bb_or(bb[6 | o], bb[14 | o])),
                       bb_and(BISHOP_RAYS[sq], bb_or(bb[5 | o], bb[13 | o])));
    candidates = bb_or(candidates, bb_and(RAYS[by ? N : S][sq], bb[2 | o]));
    while (bb_any(candidates)) {
        int c = bb_pop(&candidates);
        if (!bb_any(bb_and(BETWEEN[sq][c], occupied)))
            return 1;
    }
    return 0;
}

/* Non-sliding attackers of `color`'s king square `sq` (Position._attackers_by_steps). */
static BB attackers_by_steps(const Pos *p, int sq, int color)
{
    const BB *bb = p->bb;
    int o = (color ^ 1) << 4, m = color << 4;
    BB golds = bb_or(bb_or(bb[7 | o], bb[9 | o]), bb_or(bb_or(bb[10 | o], bb[11 | o]), bb[12 | o]));
    BB kings = bb_or(bb[8 | o], bb_or(bb[13 | o], bb[14 | o]));
    BB r = bb_and(STEP[1 | m][sq], bb[1 | o]);
    r = bb_or(r, bb_and(STEP[3 | m][sq], bb[3 | o]));
    r = bb_or(r, bb_and(STEP[4 | m][sq], bb[4 | o]));
    r = bb_or(r, bb_and(STEP[7 | m][sq], golds));
    r = bb_or(r, bb_and(STEP[8][sq], kings));
    return r;
}

/* Checkers of `color`'s king on `ksq`, its pinned pieces and each pinned piece's line
 * (Position._checkers_and_pins); lines[sq] is set only for pinned squares. */
static void checkers_and_pins(const Pos *p, int ksq, int color, BB occupied, BB *checkers, BB *pinned,
                              BB lines[81])
{
    const BB *bb = p->bb;
    int o = (color ^ 1) << 4;
    BB rooks = bb_or(bb[6 | o], bb[14 | o]);
    BB bishops = bb_or(bb[5 | o], bb[13 | o]);
    BB snipers = bb_or(bb_and(ROOK_RAYS[ksq], rooks), bb_and(BISHOP_RAYS[ksq], bishops));
    BB own = p->occ[color];
    snipers = bb_or(snipers, bb_and(RAYS[color ? S : N][ksq], bb[2 | o]));
    *checkers = attackers_by_steps(p, ksq, color);
    *pinned = EMPTY;
    while (bb_any(snipers)) {
        int s = bb_pop(&snipers);
        BB between = BETWEEN[ksq][s];
        BB blockers = bb_and(between, occupied);
        if (!bb_any(blockers)) {
            *checkers = bb_or(*checkers, BIT[s]);
        } else if (!bb_several(blockers) && bb_any(bb_and(blockers, own))) {
            *pinned = bb_or(*pinned, blockers);
            lines[bb_lsb(blockers)] = bb_or(between, BIT[s]);
        }
    }
}

/* -- move output ----------------------------------------------------------------------------- */

enum { MODE_LIST, MODE_COUNT, MODE_ANY };

typedef struct {
    uint16_t *codes; /* written in MODE_LIST only */
    Py_ssize_t n;
    int mode;
} Out;

static inline void emit(Out *out, int code)
{
    if (out->mode == MODE_LIST && out->n < MAX_MOVES)
        out->codes[out->n] = (uint16_t)code;
    out->n++;
}

#define FOUND_ONE(out) ((out)->mode == MODE_ANY && (out)->n > 0)

static inline int in_zone(int color, int sq) { return color ? sq >= 54 : sq < 27; }

/* Whether an unpromoted `pt` of `color` on `sq` could never move again (promotion forced). */
static inline int dead_end(int pt, int color, int sq)
{
    int row = color ? 8 - sq / 9 : sq / 9;
    return (pt <= 2 && row == 0) || (pt == 3 && row <= 1);
}

/* The codes of `piece` from `frm` to `to` with its promotion choices (position._codes_for). */
static inline void emit_move(Out *out, int piece, int frm, int to)
{
    int pt = piece & 15, color = piece >> 4;
    int base = to | frm << 7;
    if (pt >= 1 && pt <= 6 && (in_zone(color, frm) || in_zone(color, to))) {
        emit(out, base | PROMOTION_FLAG);
        if (!dead_end(pt, color, to))
            emit(out, base);
    } else {
        emit(out, base);
    }
}

/* Drops of `pt` onto `mask`: ranks ascending, columns descending (the order of DROP_CHUNKS). */
static void emit_drops(Out *out, int pt, BB mask)
{
    int rank, col, base = (81 + pt) << 7;
    for (rank = 0; rank < 9; rank++) {
        unsigned bits = bb_rank(mask, rank);
        for (col = 8; bits && col >= 0; col--) {
            if (bits >> col & 1) {
                emit(out, base | (rank * 9 + col));
                bits ^= 1u << col;
            }
        }
    }
}

/* -- legal moves ----------------------------------------------------------------------------- */

static void generate(const Pos *p, Out *out);

/* Position._king_moves: the king's steps to squares the enemy does not attack. */
static void king_moves(const Pos *p, Out *out, int ksq, int color, BB own, BB occupied)
{
    BB dests = bb_andnot(STEP[8][ksq], own);
    BB without_king = bb_xor(occupied, BIT[ksq]);
    while (bb_any(dests)) {
        int sq = bb_pop(&dests);
        if (!is_attacked(p, sq, color ^ 1, without_king))
            emit(out, sq | ksq << 7);
    }
}

static int has_legal_move(const Pos *p)
{
    Out out = {NULL, 0, MODE_ANY};
    generate(p, &out);
    return out.n > 0;
}

/* Position._is_pawn_drop_mate: whether a pawn dropped on `sq` (giving check) leaves no reply. */
static int is_pawn_drop_mate(const Pos *p, int sq)
{
    int attacker = p->turn, defender = attacker ^ 1;
    int eksq = p->kings[defender];
    int piece = 1 | attacker << 4;
    BB occupied = bb_or(bb_or(p->occ[0], p->occ[1]), BIT[sq]);
    BB without_king = bb_xor(occupied, BIT[eksq]);
    BB flights;
    Pos after;
    /* Cheap refutations first: the king takes an undefended pawn, or steps to a safe square. */
    if (!is_attacked(p, sq, attacker, without_king))
        return 0;
    flights = bb_andnot(bb_andnot(STEP[8][eksq], p->occ[defender]), BIT[sq]);
    while (bb_any(flights)) {
        if (!is_attacked(p, bb_pop(&flights), attacker, without_king))
            return 0;
    }
    /* Otherwise play the drop on a copy and look for any legal reply (a pinned capturer has none). */
    memcpy(&after, p, sizeof after);
    after.board[sq] = (uint8_t)piece;
    after.bb[piece] = bb_or(after.bb[piece], BIT[sq]);
    after.occ[attacker] = bb_or(after.occ[attacker], BIT[sq]);
    after.hands[attacker][1]--;
    after.turn = defender;
    return !has_legal_move(&after);
}

/* Position._pawn_drop_mask: no second pawn on a file (nifu), no pawn drop mate. */
static BB pawn_drop_mask(const Pos *p, BB mask, int color)
{
    BB pawns = p->bb[1 | color << 4];
    int eksq = p->kings[color ^ 1];
    if (bb_any(pawns)) {
        unsigned cols = 0;
        int rank, col;
        for (rank = 0; rank < 9; rank++)
            cols |= bb_rank(pawns, rank);
        for (col = 0; col < 9; col++) {
            if (cols >> col & 1)
                mask = bb_andnot(mask, COLUMN[col]);
        }
    }
    if (eksq >= 0) {
        int front = color ? eksq - 9 : eksq + 9;
        if (front >= 0 && front < 81 && bb_has(mask, front) && is_pawn_drop_mate(p, front))
            mask = bb_xor(mask, BIT[front]);
    }
    return mask;
}

/* Position._legal_codes. */
static void generate(const Pos *p, Out *out)
{
    int color = p->turn;
    BB own = p->occ[color];
    BB occupied = bb_or(own, p->occ[color ^ 1]);
    int ksq = p->kings[color];
    /* As in Python: the enemy king is never a capture target. */
    BB enemy_king = p->bb[8 | (color ^ 1) << 4];
    BB target = bb_andnot(bb_andnot(FULL, own), enemy_king);
    BB drop_target = bb_andnot(FULL, occupied);
    BB pinned = EMPTY, others = own, pawns;
    BB lines[81];

    if (ksq >= 0) {
        BB checkers;
        others = bb_xor(others, BIT[ksq]);
        checkers_and_pins(p, ksq, color, occupied, &checkers, &pinned, lines);
        king_moves(p, out, ksq, color, bb_or(own, enemy_king), occupied);
        if (bb_any(checkers)) {
            BB between;
            if (bb_several(checkers))
                return; /* double check: only the king may move */
            between = BETWEEN[ksq][bb_lsb(checkers)];
            target = bb_andnot(bb_or(between, checkers), enemy_king);
            drop_target = between;
        }
        if (FOUND_ONE(out))
            return;
    }

    pawns = bb_andnot(p->bb[1 | color << 4], pinned);
    if (bb_any(pawns)) {
        /* Unpinned pawns all at once, by destination rank, columns descending within a rank. */
        int piece = 1 | color << 4, step = color ? -9 : 9, rank, col;
        BB dests = bb_and(color ? bb_south(pawns) : bb_north(pawns), target);
        others = bb_andnot(others, pawns);
        for (rank = 0; rank < 9; rank++) {
            unsigned bits = bb_rank(dests, rank);
            for (col = 8; bits && col >= 0; col--) {
                if (bits >> col & 1) {
                    int to = rank * 9 + col;
                    emit_move(out, piece, to + step, to);
                    bits ^= 1u << col;
                }
            }
        }
        if (FOUND_ONE(out))
            return;
    }

    while (bb_any(others)) {
        int sq = bb_pop(&others);
        int piece = p->board[sq];
        BB dests;
        switch (piece & 15) {
        case 2: dests = ray_attack(piece & 16 ? S : N, sq, occupied); break;
        case 5: dests = bishop_attack(sq, occupied); break;
        case 6: dests = rook_attack(sq, occupied); break;
        case 13: dests = bb_or(bishop_attack(sq, occupied), STEP[piece][sq]); break;
        case 14: dests = bb_or(rook_attack(sq, occupied), STEP[piece][sq]); break;
        default: dests = STEP[piece][sq]; break;
        }
        dests = bb_and(dests, target);
        if (bb_has(pinned, sq))
            dests = bb_and(dests, lines[sq]);
        while (bb_any(dests))
            emit_move(out, piece, sq, bb_pop(&dests));
        if (FOUND_ONE(out))
            return;
    }

    if (bb_any(drop_target)) {
        const long *hand = p->hands[color];
        unsigned held = (hand[4] ? 1u : 0u) | (hand[5] ? 2u : 0u) | (hand[6] ? 4u : 0u) | (hand[7] ? 8u : 0u);
        if (hand[1])
            emit_drops(out, 1, pawn_drop_mask(p, bb_and(drop_target, DROP_ALLOWED[color][1]), color));
        if (hand[2])
            emit_drops(out, 2, bb_and(drop_target, DROP_ALLOWED[color][2]));
        if (hand[3])
            emit_drops(out, 3, bb_and(drop_target, DROP_ALLOWED[color][3]));
        if (held) {
            /* Silver, bishop, rook and gold interleaved rank by rank (position._free_drops). */
            int rank, col, i;
            for (rank = 0; rank < 9; rank++) {
                unsigned bits = bb_rank(drop_target, rank);
                if (!bits)
                    continue;
                for (i = 0; i < 4; i++) {
                    int base = (81 + 4 + i) << 7;
                    if (!(held >> i & 1))
                        continue;
                    for (col = 8; col >= 0; col--) {
                        if (bits >> col & 1)
                            emit(out, base | (rank * 9 + col));
                    }
                }
            }
        }
    }
}

/* -- reading a Python Position --------------------------------------------------------------- */

static PyObject *str_board, *str_hands, *str_turn, *str_kings;
/* One int object per move code, shared by every list returned (allocated on first use). */
static PyObject *code_objects[CODE_LIMIT];

static long small_int(PyObject *obj, long low, long high, const char *what)
{
    long value;
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "position %s holds a non-int: %R", what, obj);
        return -1000;
    }
    value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred())
        return -1000;
    if (value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "position %s holds %ld, outside %ld..%ld", what, value, low, high);
        return -1000;
    }
    return value;
}

static PyObject *get_list(PyObject *position, PyObject *name, Py_ssize_t min_size)
{
    PyObject *value = PyObject_GetAttr(position, name);
    if (value == NULL)
        return NULL;
    if (!PyList_Check(value) || PyList_GET_SIZE(value) < min_size) {
        PyErr_Format(PyExc_TypeError, "position %U must be a list of at least %zd items, not %R", name, min_size,
                     value);
        Py_DECREF(value);
        return NULL;
    }
    return value;
}

/* Fill `p` from a shogiban.position.Position; 0 on success, -1 with an exception set. */
static int load(PyObject *position, Pos *p)
{
    PyObject *board = NULL, *hands = NULL, *kings = NULL, *turn = NULL;
    int result = -1, sq, c, i;
    long v;

    memset(p->bb, 0, sizeof p->bb);
    p->occ[0] = p->occ[1] = EMPTY;
    board = get_list(position, str_board, 81);
    if (board == NULL)
        goto done;
    for (sq = 0; sq < 81; sq++) {
        PyObject *item = PyList_GET_ITEM(board, sq);
        v = small_int(item, 0, 31, "_board");
        if (v == -1000)
            goto done;
        if (v && ((v & 15) == 0 || (v & 15) == 15)) {
            PyErr_Format(PyExc_ValueError, "position _board holds %ld, not a piece code", v);
            goto done;
        }
        p->board[sq] = (uint8_t)v;
        if (v) {
            p->bb[v] = bb_or(p->bb[v], BIT[sq]);
            p->occ[v >> 4] = bb_or(p->occ[v >> 4], BIT[sq]);
        }
    }
    hands = get_list(position, str_hands, 2);
    if (hands == NULL)
        goto done;
    for (c = 0; c < 2; c++) {
        PyObject *hand = PyList_GET_ITEM(hands, c);
        if (!PyList_Check(hand) || PyList_GET_SIZE(hand) < 8) {
            PyErr_Format(PyExc_TypeError, "position _hands must hold two lists of 8 counts, not %R", hand);
            goto done;
        }
        p->hands[c][0] = 0;
        for (i = 1; i < 8; i++) {
            v = small_int(PyList_GET_ITEM(hand, i), 0, 1L << 30, "_hands");
            if (v == -1000)
                goto done;
            p->hands[c][i] = v;
        }
    }
    kings = get_list(position, str_kings, 2);
    if (kings == NULL)
        goto done;
    for (c = 0; c < 2; c++) {
        v = small_int(PyList_GET_ITEM(kings, c), -1, 80, "_kings");
        if (v == -1000)
            goto done;
        p->kings[c] = (int)v;
    }
    turn = PyObject_GetAttr(position, str_turn);
    if (turn == NULL)
        goto done;
    v = small_int(turn, 0, 1, "_turn");
    if (v == -1000)
        goto done;
    p->turn = (int)v;
    result = 0;
done:
    Py_XDECREF(board);
    Py_XDECREF(hands);
    Py_XDECREF(kings);
    Py_XDECREF(turn);
    return result;
}

/* -- module functions ------------------------------------------------------------------------ */

PyDoc_STRVAR(legal_codes_doc,
             "legal_codes(position, /)\n--\n\n"
             "Codes of every legal move of the side to move, in the order of Position._legal_codes.");

static PyObject *legal_codes(PyObject *module, PyObject *position)
{
    Pos p;
    uint16_t codes[MAX_MOVES];
    Out out = {codes, 0, MODE_LIST};
    PyObject *list;
    Py_ssize_t i;
    (void)module;
    if (load(position, &p) < 0)
        return NULL;
    generate(&p, &out);
    if (out.n > MAX_MOVES) { /* impossible (see MAX_MOVES); refuse rather than return a short list */
        PyErr_SetString(PyExc_RuntimeError, "more legal moves than the compiled generator can hold");
        return NULL;
    }
    list = PyList_New(out.n);
    if (list == NULL)
        return NULL;
    for (i = 0; i < out.n; i++) {
        int code = codes[i];
        PyObject *obj = code_objects[code];
        if (obj == NULL) {
            obj = PyLong_FromLong(code);
            if (obj == NULL) {
                Py_DECREF(list);
                return NULL;
            }
            code_objects[code] = obj; /* the table keeps this reference */
        }
        Py_INCREF(obj);
        PyList_SET_ITEM(list, i, obj);
    }
    return list;
}

PyDoc_STRVAR(count_legal_doc,
             "count_legal(position, /)\n--\n\n"
             "Number of legal moves of the side to move: len(legal_codes(position)) without the list.");

static PyObject *count_legal(PyObject *module, PyObject *position)
{
    Pos p;
    Out out = {NULL, 0, MODE_COUNT};
    (void)module;
    if (load(position, &p) < 0)
        return NULL;
    generate(&p, &out);
    return PyLong_FromSsize_t(out.n);
}

PyDoc_STRVAR(has_legal_move_doc,
             "has_legal_move(position, /)\n--\n\n"
             "Whether the side to move has a legal move (stops at the first one found).");

static PyObject *py_has_legal_move(PyObject *module, PyObject *position)
{
    Pos p;
    (void)module;
    if (load(position, &p) < 0)
        return NULL;
    return PyBool_FromLong(has_legal_move(&p));
}

static PyMethodDef methods[] = {
    {"legal_codes", legal_codes, METH_O, legal_codes_doc},
    {"count_legal", count_legal, METH_O, count_legal_doc},
    {"has_legal_move", py_has_legal_move, METH_O, has_legal_move_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "shogiban._speedups",
    "Compiled legal move generation for shogiban.position.Position (optional; same results as the "
    "pure-Python code).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    init_tables();
    str_board = PyUnicode_InternFromString("_board");
    str_hands = PyUnicode_InternFromString("_hands");
    str_turn = PyUnicode_InternFromString("_turn");
    str_kings = PyUnicode_InternFromString("_kings");
    if (str_board == NULL || str_hands == NULL || str_turn == NULL || str_kings == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}
