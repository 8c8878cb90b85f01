/*
 * shogiban._speedups: optional compiled twins of the hot paths of shogiban's rules core.
 *
 * The pure-Python code is the reference everywhere; each function here gives exactly its results.
 *
 * Legal move generation (legal_codes, count_legal, has_legal_move) is a port of
 * Position._legal_codes that returns the same codes in the same order (the engine, the tsume
 * solver and the notation modules depend on the order), so every section follows the Python
 * method it mirrors:
 *
 *   1. king moves (destinations ascending);
 *   2. double check: stop; single check: targets become the checker and the squares between;
 *   3. unpinned pawns in bulk, by destination rank ascending, columns descending in a rank;
 *   4. every other piece by square ascending, destinations ascending, the promoting code before
 *      the non-promoting one;
 *   5. drops: pawn, lance, knight (each rank ascending, columns descending), then silver, bishop,
 *      rook and gold interleaved rank by rank.
 *
 * It reads the position from the Python object (_board, _hands, _turn, _kings) and rebuilds the
 * bitboards here from the board, which is cheaper than converting the Python ints.
 *
 * Push and pop (bind_position, bind_board) are method descriptors put on Position and Board in
 * place of the Python methods; they edit the Python state (lists of ints, 81-bit Python-int
 * bitboards, the Zobrist key, the move stack and the repetition counts) in place, the same way.
 *
 * SFEN (set_sfen, parse_sfen, make_sfen) has a fast path for well-formed text; anything else goes
 * back to the Python code, which says what is wrong.
 *
 * Bitboards are 81 bits in two words: lo holds squares 0..62 (ranks a..g), hi holds squares
 * 63..80 (ranks h and i) in its bits 0..17, so each rank's nine bits sit inside one word.
 *
 * C99 and the CPython C API (with a few of CPython's own exported helpers up to 3.12, switched
 * to their public replacements from 3.13); GCC/Clang bit-scan builtins with a portable fallback.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h> /* PyMemberDef (Python 3.11) */

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

/* -- Python ints and lists ------------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
#else
static inline int popcount64(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}
#endif

static inline int bb_count(BB a) { return popcount64(a.lo) + popcount64(a.hi); }

/* The 81-bit bitboard as the Python int the pure-Python code uses (bit i = square i). */
static PyObject *bb_to_long(BB a)
{
    unsigned char bytes[16];
    uint64_t low = a.lo | a.hi << 63, high = a.hi >> 1;
    int i;
    if (!a.hi)
        return PyLong_FromUnsignedLongLong(a.lo);
    for (i = 0; i < 8; i++) {
        bytes[i] = (unsigned char)(low >> (8 * i));
        bytes[8 + i] = (unsigned char)(high >> (8 * i));
    }
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(bytes, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(bytes, 16, 1, 0);
#endif
}

/* A list of ints from C values (NULL with an exception on failure). */
static PyObject *int_list(const long *values, Py_ssize_t n)
{
    PyObject *list = PyList_New(n);
    Py_ssize_t i;
    if (list == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* Python's rule for an index into a sequence of `size` items: negative counts from the end. */
static int py_index(long long i, Py_ssize_t size, Py_ssize_t *out)
{
    if (i < 0)
        i += size;
    if (i < 0 || i >= size) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return -1;
    }
    *out = (Py_ssize_t)i;
    return 0;
}

/* -- the live state of a Position: slots read and written in place ---------------------------
 *
 * Position._push and _pop (and Board.push / Board.pop) change the Python objects exactly as the
 * Python methods do, because the engine, the tsume solver and the rules read those attributes
 * directly.  The slots are reached at their offsets, which bind_position takes once from the
 * member descriptors that __slots__ creates (this is what CPython's own slot access does, without
 * an attribute lookup per field).  Every index is checked before anything changes: where the
 * Python method would fail half-way (a king captured, an index out of range) this one raises
 * the same exception type before touching the state.  Every value that an update replaces is
 * checked to be an exact int first, so no Python code (a finaliser) can run and change the lists
 * while an update is in progress.
 */

enum { S_BOARD, S_BB, S_OCC, S_KINGS, S_HANDS, S_TURN, S_STACK, S_HASH, S_REP, S_COUNT };
static const char *const SLOT_NAMES[S_COUNT] = {"_board", "_bb",    "_occ",  "_kings", "_hands",
                                                "_turn",  "_stack", "_hash", "_rep"};
static Py_ssize_t slot_offset[S_COUNT];
static Py_ssize_t ending_offset;     /* Board._ending */
static PyTypeObject *position_type;  /* set by bind_position */
static PyObject *moves_table;        /* shogiban.move.MOVES, set by bind_board */
static PyObject *board_pop_fallback; /* the Python Board.pop, for a recorded game end */
static PyTypeObject *move_type;      /* shogiban.move.Move, and the offset of its code slot */
static Py_ssize_t code_offset;
static PyObject *str_code;

#define ZOBRIST_HAND 82 /* counts 0..zobrist.MAX_HAND */
static uint64_t Z_SQ[32][81];
static uint64_t Z_HAND[2][8][ZOBRIST_HAND];
static uint64_t Z_WHITE;
static PyObject *BIT_OBJ[81];       /* 1 << sq as Python ints */
static PyObject *PAIR_OBJ[81 * 81]; /* BIT[a] | BIT[b], made on first use */

#define SLOT_PTR(obj, offset) ((PyObject **)((char *)(obj) + (offset)))

/* The value of slot `i` (borrowed), or NULL with AttributeError when it was never set. */
static inline PyObject *slot(PyObject *obj, int i)
{
    PyObject *value = *SLOT_PTR(obj, slot_offset[i]);
    if (value == NULL)
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%s'", Py_TYPE(obj)->tp_name,
                     SLOT_NAMES[i]);
    return value;
}

/* Store `value` (a new reference, stolen) in the slot at `offset`. */
static inline void set_slot(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    PyObject **p = SLOT_PTR(obj, offset);
    PyObject *old = *p;
    *p = value;
    Py_XDECREF(old);
}

static PyObject *pair_bits(int a, int b)
{
    PyObject **cell = &PAIR_OBJ[a * 81 + b];
    if (*cell == NULL)
        *cell = PyNumber_Or(BIT_OBJ[a], BIT_OBJ[b]); /* the table keeps this reference */
    return *cell;
}

/* The repetition counts _rep are keyed by Zobrist keys (ints in 0 .. 2**64 - 1).  Up to Python 3.12
 * the dict calls take the key's hash, computed here as int's hash is (the value modulo the
 * Mersenne prime 2**_PyHASH_BITS - 1), instead of hashing the same int twice per update. */
#if PY_VERSION_HEX < 0x030D0000
static inline Py_hash_t key_hash(uint64_t key)
{
    const uint64_t modulus = ((uint64_t)1 << _PyHASH_BITS) - 1;
    while (key > modulus)
        key = (key & modulus) + (key >> _PyHASH_BITS);
    return (Py_hash_t)(key == modulus ? 0 : key);
}
#define REP_GET(rep, obj, key) _PyDict_GetItem_KnownHash(rep, obj, key_hash(key))
#define REP_SET(rep, obj, key, value) _PyDict_SetItem_KnownHash(rep, obj, value, key_hash(key))
#define REP_DEL(rep, obj, key) _PyDict_DelItem_KnownHash(rep, obj, key_hash(key))
#else
#define REP_GET(rep, obj, key) PyDict_GetItemWithError(rep, obj)
#define REP_SET(rep, obj, key, value) PyDict_SetItem(rep, obj, value)
#define REP_DEL(rep, obj, key) PyDict_DelItem(rep, obj)
#endif

typedef struct {
    PyObject *board, *bb, *occ, *kings, *hands, *stack, *rep, *hash; /* borrowed */
    int turn;
    uint64_t key;
} Live;

/* A Zobrist key (an int in 0 .. 2**64 - 1) as a C integer; -1 with OverflowError outside.
 * (PyLong_AsUnsignedLongLong goes through a generic byte conversion in 3.11 and 3.12.) */
static inline int read_key(PyObject *obj, uint64_t *out)
{
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(obj, out, 8,
                                           Py_ASNATIVEBYTES_NATIVE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                                               | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0)
        return -1;
    if (need > 8) {
        PyErr_SetString(PyExc_OverflowError, "position _hash does not fit in 64 bits");
        return -1;
    }
    return 0;
#else
    if (_PyLong_Sign(obj) < 0 || _PyLong_NumBits(obj) > 64) {
        PyErr_SetString(PyExc_OverflowError, "position _hash must be an int in 0 .. 2**64 - 1");
        return -1;
    }
    *out = PyLong_AsUnsignedLongLongMask(obj);
    return 0;
#endif
}

static int check_list(PyObject *value, Py_ssize_t size, int i)
{
    if (PyList_CheckExact(value) && (size < 0 || PyList_GET_SIZE(value) == size))
        return 0;
    PyErr_Format(PyExc_TypeError, "position %s must be a list of %zd items, not %.100s", SLOT_NAMES[i], size,
                 Py_TYPE(value)->tp_name);
    return -1;
}

/* Why live_load refused the position: the exception for its first bad field. */
static int live_error(PyObject *self)
{
    static const Py_ssize_t sizes[S_COUNT] = {81, 32, 2, 2, 2, 0, -1, 0, 0};
    PyObject *value;
    int i;
    for (i = 0; i < S_COUNT; i++) {
        if ((value = slot(self, i)) == NULL)
            return -1;
        if (i <= S_STACK && i != S_TURN && check_list(value, sizes[i], i) < 0)
            return -1;
        if (i == S_REP && !PyDict_CheckExact(value)) {
            PyErr_Format(PyExc_TypeError, "position _rep must be a dict, not %.100s", Py_TYPE(value)->tp_name);
            return -1;
        }
        if (i == S_KINGS && !(PyLong_CheckExact(PyList_GET_ITEM(value, 0)) && PyLong_CheckExact(PyList_GET_ITEM(value, 1)))) {
            PyErr_SetString(PyExc_TypeError, "position _kings must hold two ints");
            return -1;
        }
        if ((i == S_HASH || i == S_TURN) && !PyLong_CheckExact(value)) {
            PyErr_Format(PyExc_TypeError, "position %s must be an int, not %.100s", SLOT_NAMES[i],
                         Py_TYPE(value)->tp_name);
            return -1;
        }
    }
    PyErr_SetString(PyExc_ValueError, "position _turn must be 0 or 1");
    return -1;
}

#define LIST_OF(obj, size) ((obj) != NULL && PyList_CheckExact(obj) && PyList_GET_SIZE(obj) == (size))

/* The fields of `self` (borrowed), checked to have the types and sizes the Python code gives them. */
static inline int live_load(PyObject *self, Live *s)
{
    PyObject *turn = *SLOT_PTR(self, slot_offset[S_TURN]);
    s->board = *SLOT_PTR(self, slot_offset[S_BOARD]);
    s->bb = *SLOT_PTR(self, slot_offset[S_BB]);
    s->occ = *SLOT_PTR(self, slot_offset[S_OCC]);
    s->kings = *SLOT_PTR(self, slot_offset[S_KINGS]);
    s->hands = *SLOT_PTR(self, slot_offset[S_HANDS]);
    s->stack = *SLOT_PTR(self, slot_offset[S_STACK]);
    s->hash = *SLOT_PTR(self, slot_offset[S_HASH]);
    s->rep = *SLOT_PTR(self, slot_offset[S_REP]);
    if (!(LIST_OF(s->board, 81) && LIST_OF(s->bb, 32) && LIST_OF(s->occ, 2) && LIST_OF(s->kings, 2)
          && LIST_OF(s->hands, 2) && s->stack != NULL && PyList_CheckExact(s->stack) && s->rep != NULL
          && PyDict_CheckExact(s->rep) && s->hash != NULL && PyLong_CheckExact(s->hash) && turn != NULL
          && PyLong_CheckExact(turn) && PyLong_CheckExact(PyList_GET_ITEM(s->kings, 0))
          && PyLong_CheckExact(PyList_GET_ITEM(s->kings, 1))))
        return live_error(self);
    s->turn = (int)PyLong_AsLong(turn);
    if (s->turn != 0 && s->turn != 1)
        return live_error(self);
    return read_key(s->hash, &s->key);
}

/* An int item of a list whose size is known; -1 with TypeError for anything but an exact int. */
static inline int int_at(PyObject *list, Py_ssize_t i, long *out)
{
    PyObject *item = PyList_GET_ITEM(list, i);
    if (!PyLong_CheckExact(item)) {
        PyErr_Format(PyExc_TypeError, "position state holds a %.100s where an int belongs", Py_TYPE(item)->tp_name);
        return -1;
    }
    *out = PyLong_AsLong(item);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* A hand list of the position (a list of 8 counts). */
static PyObject *hand_of(const Live *s, int color)
{
    PyObject *hand = PyList_GET_ITEM(s->hands, color);
    if (check_list(hand, 8, S_HANDS) < 0)
        return NULL;
    return hand;
}

static inline int set_int(PyObject *list, Py_ssize_t i, long value)
{
    PyObject *item = PyLong_FromLong(value);
    if (item == NULL)
        return -1;
    return PyList_SetItem(list, i, item);
}

/* list[i] |= bits (or ^= bits). */
static inline int apply_bits(PyObject *list, Py_ssize_t i, PyObject *bits, int use_or)
{
    PyObject *old = PyList_GET_ITEM(list, i), *value;
    if (!PyLong_CheckExact(old)) {
        PyErr_SetString(PyExc_TypeError, "position bitboards must be ints");
        return -1;
    }
    /* Both are exact ints: int's own slots, without the generic dispatch. */
    value = use_or ? PyLong_Type.tp_as_number->nb_or(old, bits) : PyLong_Type.tp_as_number->nb_xor(old, bits);
    if (value == NULL)
        return -1;
    PyList_SET_ITEM(list, i, value);
    Py_DECREF(old);
    return 0;
}

#define OR 1
#define XOR 0

/* The captured piece's type as it goes to the hand (Python: captured & 7 if captured & 15 > 8
 * else captured & 15). */
static inline long hand_type(long captured) { return (captured & 15) > 8 ? captured & 7 : captured & 15; }

/* Position._push. */
static PyObject *push_code(PyObject *self, PyObject *code_obj)
{
    Live s;
    long long code;
    int to, frm, color, promote;
    long piece, captured = 0, n, moved;
    Py_ssize_t ipiece, inew, icap = 0, ipt = 0, zn = 0, zm = 0;
    PyObject *hand = NULL, *entry, *key, *count, *value;
    uint64_t h;

    code = PyLong_AsLongLong(code_obj);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    if (live_load(self, &s) < 0)
        return NULL;
    to = (int)(code & 127);
    frm = (int)(code >> 7 & 127);
    promote = (code >> 14) != 0;
    color = s.turn;
    h = s.key;
    if (to >= 81)
        return PyErr_Format(PyExc_IndexError, "tuple index out of range");
    if (frm >= 81) {
        /* A drop: every check first, then the changes, in the Python method's order. */
        if (py_index(frm - 81, 8, &ipt) < 0 || (hand = hand_of(&s, color)) == NULL || int_at(hand, ipt, &n) < 0
            || py_index(n, ZOBRIST_HAND, &zn) < 0 || py_index((long long)n - 1, ZOBRIST_HAND, &zm) < 0
            || int_at(s.board, to, &captured) < 0)
            return NULL;
        captured = 0; /* (board[to] was read only to check that it is an int) */
        piece = (long)ipt | color << 4;
        if (set_int(s.board, to, piece) < 0 || apply_bits(s.bb, piece, BIT_OBJ[to], OR) < 0
            || apply_bits(s.occ, color, BIT_OBJ[to], OR) < 0 || set_int(hand, ipt, n - 1) < 0)
            return NULL;
        h ^= Z_SQ[piece][to] ^ Z_HAND[color][ipt][zn] ^ Z_HAND[color][ipt][zm];
    } else {
        if (int_at(s.board, frm, &piece) < 0 || int_at(s.board, to, &captured) < 0
            || py_index(piece, 32, &ipiece) < 0)
            return NULL;
        moved = promote ? piece + 8 : piece;
        if (py_index(moved, 32, &inew) < 0)
            return NULL;
        if (captured) {
            if (py_index(captured, 32, &icap) < 0 || (hand = hand_of(&s, color)) == NULL
                || py_index(hand_type(captured), 8, &ipt) < 0 || int_at(hand, ipt, &n) < 0
                || py_index(n, ZOBRIST_HAND, &zn) < 0 || py_index((long long)n + 1, ZOBRIST_HAND, &zm) < 0)
                return NULL;
            if (apply_bits(s.bb, icap, BIT_OBJ[to], XOR) < 0 || apply_bits(s.occ, color ^ 1, BIT_OBJ[to], XOR) < 0
                || set_int(hand, ipt, n + 1) < 0)
                return NULL;
            h ^= Z_SQ[icap][to] ^ Z_HAND[color][ipt][zn] ^ Z_HAND[color][ipt][zm];
        }
        if (set_int(s.board, frm, 0) < 0 || set_int(s.board, to, moved) < 0
            || apply_bits(s.bb, ipiece, BIT_OBJ[frm], XOR) < 0 || apply_bits(s.bb, inew, BIT_OBJ[to], OR) < 0)
            return NULL;
        value = pair_bits(frm, to);
        if (value == NULL || apply_bits(s.occ, color, value, XOR) < 0)
            return NULL;
        h ^= Z_SQ[ipiece][frm] ^ Z_SQ[inew][to];
        if ((piece & 15) == 8 && set_int(s.kings, color, to) < 0)
            return NULL;
    }
    /* self._stack.append((code, captured, self._hash)) */
    entry = PyTuple_New(3);
    if (entry == NULL)
        return NULL;
    Py_INCREF(code_obj);
    PyTuple_SET_ITEM(entry, 0, code_obj);
    value = PyLong_FromLong(captured);
    if (value == NULL) {
        Py_DECREF(entry);
        return NULL;
    }
    PyTuple_SET_ITEM(entry, 1, value);
    Py_INCREF(s.hash);
    PyTuple_SET_ITEM(entry, 2, s.hash);
    if (PyList_Append(s.stack, entry) < 0) {
        Py_DECREF(entry);
        return NULL;
    }
    Py_DECREF(entry);
    h ^= Z_WHITE;
    key = PyLong_FromUnsignedLongLong(h);
    value = PyLong_FromLong(color ^ 1);
    if (key == NULL || value == NULL) {
        Py_XDECREF(key);
        Py_XDECREF(value);
        return NULL;
    }
    set_slot(self, slot_offset[S_HASH], key); /* the slot owns key; s.hash lives on in the entry */
    set_slot(self, slot_offset[S_TURN], value);
    /* rep[h] = rep.get(h, 0) + 1 */
    count = REP_GET(s.rep, key, h);
    n = 0;
    if (count == NULL) {
        if (PyErr_Occurred())
            return NULL;
    } else if (!PyLong_CheckExact(count) || ((n = PyLong_AsLong(count)) == -1 && PyErr_Occurred())) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "position _rep counts must be ints");
        return NULL;
    }
    value = PyLong_FromLong(n + 1);
    if (value == NULL || REP_SET(s.rep, key, h, value) < 0) {
        Py_XDECREF(value);
        return NULL;
    }
    Py_DECREF(value);
    Py_RETURN_NONE;
}

/* Position._pop: returns the code (a new reference). */
static PyObject *pop_code(PyObject *self)
{
    Live s;
    Py_ssize_t size, ipiece, iold = 0, icap = 0, ipt = 0;
    PyObject *entry, *code_obj, *captured_obj, *prev, *count, *hand = NULL, *value;
    long long code;
    long captured, piece, old = 0, n = 0, left, replaced;
    int to, frm, color, promote;

    if (live_load(self, &s) < 0)
        return NULL;
    size = PyList_GET_SIZE(s.stack);
    if (size == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty list");
        return NULL;
    }
    entry = PyList_GET_ITEM(s.stack, size - 1);
    if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 3) {
        PyErr_SetString(PyExc_TypeError, "position _stack entries must be (code, captured, key) tuples");
        return NULL;
    }
    code_obj = PyTuple_GET_ITEM(entry, 0);
    captured_obj = PyTuple_GET_ITEM(entry, 1);
    prev = PyTuple_GET_ITEM(entry, 2);
    if (!PyLong_CheckExact(code_obj) || !PyLong_CheckExact(captured_obj)) {
        PyErr_SetString(PyExc_TypeError, "position _stack entries must hold int codes");
        return NULL;
    }
    code = PyLong_AsLongLong(code_obj);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    captured = PyLong_AsLong(captured_obj);
    if (captured == -1 && PyErr_Occurred())
        return NULL;
    count = REP_GET(s.rep, s.hash, s.key);
    if (count == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, s.hash);
        return NULL;
    }
    if (!PyLong_CheckExact(count) || ((left = PyLong_AsLong(count)) == -1 && PyErr_Occurred())) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "position _rep counts must be ints");
        return NULL;
    }
    left--;
    color = s.turn ^ 1;
    to = (int)(code & 127);
    frm = (int)(code >> 7 & 127);
    promote = (code >> 14) != 0;
    if (to >= 81)
        return PyErr_Format(PyExc_IndexError, "tuple index out of range");
    if (int_at(s.board, to, &piece) < 0 || py_index(piece, 32, &ipiece) < 0)
        return NULL;
    if (frm >= 81) {
        if ((hand = hand_of(&s, color)) == NULL || py_index(frm - 81, 8, &ipt) < 0 || int_at(hand, ipt, &n) < 0)
            return NULL;
    } else {
        old = promote ? piece - 8 : piece;
        if (py_index(old, 32, &iold) < 0 || int_at(s.board, frm, &replaced) < 0)
            return NULL;
        if (captured
            && (py_index(captured, 32, &icap) < 0 || (hand = hand_of(&s, color)) == NULL
                || py_index(hand_type(captured), 8, &ipt) < 0 || int_at(hand, ipt, &n) < 0))
            return NULL;
    }

    /* Checked: now the changes.  The entry and the key it holds outlive the list and the slot. */
    Py_INCREF(entry);
    if (((PyListObject *)s.stack)->allocated > size >> 1) {
        /* list.pop() without the call; the list keeps its room (as when it shrinks by one). */
        Py_SET_SIZE(s.stack, size - 1);
        Py_DECREF(entry); /* the list's reference: ours keeps it alive */
    } else if (PyList_SetSlice(s.stack, size - 1, size, NULL) < 0) {
        goto fail;
    }
    if (left) {
        value = PyLong_FromLong(left);
        if (value == NULL || REP_SET(s.rep, s.hash, s.key, value) < 0) {
            Py_XDECREF(value);
            goto fail;
        }
        Py_DECREF(value);
    } else if (REP_DEL(s.rep, s.hash, s.key) < 0) {
        goto fail;
    }
    value = PyLong_FromLong(color);
    if (value == NULL)
        goto fail;
    Py_INCREF(prev);
    set_slot(self, slot_offset[S_HASH], prev);
    set_slot(self, slot_offset[S_TURN], value);
    if (frm >= 81) {
        if (set_int(s.board, to, 0) < 0 || apply_bits(s.bb, ipiece, BIT_OBJ[to], XOR) < 0
            || apply_bits(s.occ, color, BIT_OBJ[to], XOR) < 0 || set_int(hand, ipt, n + 1) < 0)
            goto fail;
    } else {
        if (set_int(s.board, frm, old) < 0 || apply_bits(s.bb, ipiece, BIT_OBJ[to], XOR) < 0
            || apply_bits(s.bb, iold, BIT_OBJ[frm], OR) < 0)
            goto fail;
        value = pair_bits(frm, to);
        if (value == NULL || apply_bits(s.occ, color, value, XOR) < 0)
            goto fail;
        if (captured) {
            Py_INCREF(captured_obj);
            if (PyList_SetItem(s.board, to, captured_obj) < 0 || apply_bits(s.bb, icap, BIT_OBJ[to], OR) < 0
                || apply_bits(s.occ, color ^ 1, BIT_OBJ[to], OR) < 0 || set_int(hand, ipt, n - 1) < 0)
                goto fail;
        } else if (set_int(s.board, to, 0) < 0) {
            goto fail;
        }
        if ((old & 15) == 8 && set_int(s.kings, color, frm) < 0)
            goto fail;
    }
    Py_INCREF(code_obj);
    Py_DECREF(entry);
    return code_obj;
fail:
    Py_DECREF(entry);
    return NULL;
}

static PyObject *py_pop(PyObject *self, PyObject *unused)
{
    (void)unused;
    return pop_code(self);
}

/* Board.push: self._push(move.code).  Called as push(move) or push(move=move), like the Python one. */
static PyObject *board_push(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *code, *result, *move;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs + nkw != 1
        || (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "move") != 0)) {
        PyErr_SetString(PyExc_TypeError, "push() takes exactly one argument: move");
        return NULL;
    }
    move = args[0];
    if (Py_IS_TYPE(move, move_type) && (code = *SLOT_PTR(move, code_offset)) != NULL)
        Py_INCREF(code); /* a Move: its one slot */
    else if ((code = PyObject_GetAttr(move, str_code)) == NULL)
        return NULL;
    result = push_code(self, code);
    Py_DECREF(code);
    return result;
}

/* Board.pop: the Python method when a game end is recorded, else MOVES[self._pop()]. */
static PyObject *board_pop(PyObject *self, PyObject *unused)
{
    PyObject *ending = *SLOT_PTR(self, ending_offset), *code, *move;
    (void)unused;
    if (ending == NULL) {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '_ending'", Py_TYPE(self)->tp_name);
        return NULL;
    }
    if (ending != Py_None)
        return PyObject_CallOneArg(board_pop_fallback, self);
    code = pop_code(self);
    if (code == NULL)
        return NULL;
    if (PyList_CheckExact(moves_table)) {
        /* MOVES[code], as list indexing does it */
        long long i = PyLong_AsLongLong(code);
        Py_ssize_t at;
        Py_DECREF(code);
        if ((i == -1 && PyErr_Occurred()) || py_index(i, PyList_GET_SIZE(moves_table), &at) < 0)
            return NULL;
        move = PyList_GET_ITEM(moves_table, at);
        Py_INCREF(move);
        return move;
    }
    move = PyObject_GetItem(moves_table, code);
    Py_DECREF(code);
    return move;
}

PyDoc_STRVAR(push_doc, "_push($self, code, /)\n--\n\nPlay the move *code*, trusted to be legal (or at least possible).");
PyDoc_STRVAR(pop_doc, "_pop($self, /)\n--\n\nUndo the last move and return its code.");
PyDoc_STRVAR(board_push_doc,
             "push($self, /, move)\n--\n\n"
             "Play *move* without checking it (fast); use :meth:`push_legal` or :meth:`push_usi` to validate.");
PyDoc_STRVAR(board_pop_doc,
             "pop($self, /)\n--\n\n"
             "Undo the last move and return it.  A recorded illegal move, declaration or impasse\n"
             "settlement made after the last move is withdrawn first (an illegal move is returned alone).\n\n"
             ":raises IndexError: if there is nothing to undo.");

static PyMethodDef position_methods[] = {
    {"_push", push_code, METH_O, push_doc},
    {"_pop", py_pop, METH_NOARGS, pop_doc},
};
static PyMethodDef board_methods[] = {
    {"push", (PyCFunction)(void (*)(void))board_push, METH_FASTCALL | METH_KEYWORDS, board_push_doc},
    {"pop", board_pop, METH_NOARGS, board_pop_doc},
};

/* A dict of method descriptors of `type` for `defs`: class attributes that bind like methods. */
static PyObject *descriptors(PyTypeObject *type, PyMethodDef *defs, int n)
{
    PyObject *result = PyDict_New();
    int i;
    if (result == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *descr = PyDescr_NewMethod(type, &defs[i]);
        if (descr == NULL || PyDict_SetItemString(result, defs[i].ml_name, descr) < 0) {
            Py_XDECREF(descr);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(descr);
    }
    return result;
}

/* The offset of the __slots__ member `name` of `type`, or -1 with an exception. */
static Py_ssize_t member_offset(PyTypeObject *type, const char *name)
{
    PyObject *descr = PyDict_GetItemString(type->tp_dict, name);
    PyMemberDef *member;
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%.100s.%s is not a __slots__ member", type->tp_name, name);
        return -1;
    }
    member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != 16 /* T_OBJECT_EX */ || member->flags != 0) {
        PyErr_Format(PyExc_TypeError, "%.100s.%s is not a writable object slot", type->tp_name, name);
        return -1;
    }
    return member->offset;
}

static int load_u64(PyObject *obj, uint64_t *out)
{
    *out = PyLong_AsUnsignedLongLong(obj);
    return *out == (uint64_t)-1 && PyErr_Occurred() ? -1 : 0;
}

/* table[i] as a tuple of exactly `size` items (a new reference), or NULL with an exception. */
static PyObject *tuple_item(PyObject *table, Py_ssize_t i, Py_ssize_t size)
{
    PyObject *item = PySequence_GetItem(table, i);
    if (item != NULL && (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != size)) {
        PyErr_Format(PyExc_ValueError, "zobrist table row must be a tuple of %zd ints", size);
        Py_CLEAR(item);
    }
    return item;
}

static int load_zobrist(PyObject *piece_square, PyObject *hand, PyObject *white)
{
    int code, sq, c, pt, n;
    for (code = 0; code < 32; code++) {
        PyObject *row = tuple_item(piece_square, code, 81);
        if (row == NULL)
            return -1;
        for (sq = 0; sq < 81; sq++) {
            if (load_u64(PyTuple_GET_ITEM(row, sq), &Z_SQ[code][sq]) < 0) {
                Py_DECREF(row);
                return -1;
            }
        }
        Py_DECREF(row);
    }
    for (c = 0; c < 2; c++) {
        PyObject *side = tuple_item(hand, c, 8);
        if (side == NULL)
            return -1;
        for (pt = 0; pt < 8; pt++) {
            PyObject *row = PyTuple_GET_ITEM(side, pt);
            if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != ZOBRIST_HAND) {
                PyErr_Format(PyExc_ValueError, "zobrist hand rows must hold %d keys (MAX_HAND + 1)", ZOBRIST_HAND);
                Py_DECREF(side);
                return -1;
            }
            for (n = 0; n < ZOBRIST_HAND; n++) {
                if (load_u64(PyTuple_GET_ITEM(row, n), &Z_HAND[c][pt][n]) < 0) {
                    Py_DECREF(side);
                    return -1;
                }
            }
        }
        Py_DECREF(side);
    }
    return load_u64(white, &Z_WHITE);
}

PyDoc_STRVAR(bind_position_doc,
             "bind_position(position_class, piece_square, hand, white_to_move, /)\n--\n\n"
             "Take the Zobrist tables (shogiban.zobrist) and the slot layout of Position; return the\n"
             "compiled methods {'_push': ..., '_pop': ...} as descriptors to put on the class.");

static PyObject *bind_position(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyTypeObject *type;
    Py_ssize_t offsets[S_COUNT];
    int i;
    (void)module;
    if (nargs != 4 || !PyType_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "bind_position(position_class, piece_square, hand, white_to_move)");
        return NULL;
    }
    type = (PyTypeObject *)args[0];
    for (i = 0; i < S_COUNT; i++) {
        if ((offsets[i] = member_offset(type, SLOT_NAMES[i])) < 0)
            return NULL;
    }
    if (load_zobrist(args[1], args[2], args[3]) < 0)
        return NULL;
    for (i = 0; i < 81; i++) {
        if (BIT_OBJ[i] == NULL && (BIT_OBJ[i] = bb_to_long(BIT[i])) == NULL)
            return NULL;
    }
    memcpy(slot_offset, offsets, sizeof offsets);
    Py_INCREF(type);
    Py_XSETREF(position_type, type);
    return descriptors(type, position_methods, 2);
}

PyDoc_STRVAR(bind_board_doc,
             "bind_board(board_class, move_class, moves, python_pop, /)\n--\n\n"
             "After bind_position: take Board's and Move's layout, shogiban.move.MOVES and the Python Board.pop\n"
             "(called when a game end is recorded); return {'push': ..., 'pop': ...} as descriptors.");

static PyObject *bind_board(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyTypeObject *type;
    Py_ssize_t offset, moved;
    (void)module;
    if (nargs != 4 || !PyType_Check(args[0]) || position_type == NULL
        || !PyType_IsSubtype((PyTypeObject *)args[0], position_type) || !PyType_Check(args[1])
        || !PyCallable_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "bind_board(board_class, move_class, moves, python_pop) needs a subclass of the bound Position");
        return NULL;
    }
    type = (PyTypeObject *)args[0];
    if ((offset = member_offset(type, "_ending")) < 0 || (moved = member_offset((PyTypeObject *)args[1], "code")) < 0)
        return NULL;
    ending_offset = offset;
    code_offset = moved;
    Py_INCREF(args[1]);
    Py_XSETREF(move_type, (PyTypeObject *)args[1]);
    Py_INCREF(args[2]);
    Py_XSETREF(moves_table, args[2]);
    Py_INCREF(args[3]);
    Py_XSETREF(board_pop_fallback, args[3]);
    return descriptors(type, board_methods, 2);
}

/* -- SFEN -------------------------------------------------------------------------------------
 *
 * A fast path for the common, well-formed SFEN.  Anything unusual (other whitespace, a leading
 * "sfen", "startpos", URL underscores, non-ASCII text, any error) makes it answer None, and the
 * Python code handles the text, with its exact error messages.  So it must accept nothing that
 * shogiban.sfen would reject, and give the same fields for everything it accepts.
 */

typedef struct {
    uint8_t board[81];
    long hands[2][8];
    int turn;
    long long number;
} Sfen;

/* Piece type of an SFEN letter (upper case: sente), 0 for anything else. */
static int letter_type(char ch)
{
    switch (ch >= 'a' && ch <= 'z' ? ch - 32 : ch) {
    case 'P': return 1;
    case 'L': return 2;
    case 'N': return 3;
    case 'S': return 4;
    case 'B': return 5;
    case 'R': return 6;
    case 'G': return 7;
    case 'K': return 8;
    default: return 0;
    }
}

/* What str.split() and str.strip() take for whitespace, among ASCII characters. */
static inline int py_space(char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r') || (ch >= 0x1c && ch <= 0x1f); }

static int parse_board(const char *s, Py_ssize_t len, uint8_t board[81])
{
    int rank = 0, cells = 0, promoted = 0;
    Py_ssize_t i;
    for (i = 0; i <= len; i++) {
        char ch = i < len ? s[i] : '/';
        int pt;
        if (ch == '/') {
            if (promoted || cells != 9 || rank >= 9)
                return 0;
            rank++;
            cells = 0;
            continue;
        }
        if (ch >= '1' && ch <= '9' && !promoted) {
            int k = ch - '0';
            if (cells + k > 9)
                return 0;
            memset(board + rank * 9 + cells, 0, (size_t)k);
            cells += k;
        } else if (ch == '+' && !promoted) {
            promoted = 1;
        } else if ((pt = letter_type(ch)) != 0) {
            if (promoted) {
                if (pt > 6)
                    return 0;
                pt += 8;
                promoted = 0;
            }
            if (cells >= 9)
                return 0;
            board[rank * 9 + cells++] = (uint8_t)(pt | (ch >= 'a' ? 16 : 0));
        } else {
            return 0;
        }
    }
    return rank == 9;
}

static int parse_hands(const char *s, Py_ssize_t len, long hands[2][8])
{
    long count = 0;
    int digits = 0;
    Py_ssize_t i;
    memset(hands, 0, sizeof(long) * 16);
    if (len == 1 && s[0] == '-')
        return 1;
    for (i = 0; i < len; i++) {
        char ch = s[i];
        int pt, color;
        if (ch >= '0' && ch <= '9') {
            count = count > 1000000 ? count : count * 10 + (ch - '0');
            digits = 1;
            continue;
        }
        pt = letter_type(ch);
        if (pt == 0 || pt == 8)
            return 0;
        color = ch >= 'a';
        hands[color][pt] += digits ? count : 1;
        if (hands[color][pt] > ZOBRIST_HAND - 1)
            return 0;
        count = 0;
        digits = 0;
    }
    return !digits;
}

/* Parse `text`: 1 when the fast path took it, 0 to leave it to Python. */
static int parse_sfen_fast(PyObject *text, Sfen *out)
{
    const char *s, *field[5];
    Py_ssize_t len, start = 0, flen[5], i;
    int n = 0;
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text))
        return 0;
    s = (const char *)PyUnicode_DATA(text);
    len = PyUnicode_GET_LENGTH(text);
    while (start < len && py_space(s[start]))
        start++;
    while (len > start && py_space(s[len - 1]))
        len--;
    /* Fields separated by spaces only; the first not "sfen" (nor the one-field "startpos"). */
    i = start;
    while (i < len) {
        Py_ssize_t j = i;
        while (j < len && s[j] != ' ') {
            if (py_space(s[j]) || s[j] == '_')
                return 0;
            j++;
        }
        if (n == 4)
            return 0;
        field[n] = s + i;
        flen[n++] = j - i;
        while (j < len && s[j] == ' ')
            j++;
        i = j;
    }
    if (n < 3 || (flen[0] == 4 && memcmp(field[0], "sfen", 4) == 0))
        return 0;
    if (!parse_board(field[0], flen[0], out->board))
        return 0;
    if (flen[1] != 1 || (field[1][0] != 'b' && field[1][0] != 'w'))
        return 0;
    out->turn = field[1][0] == 'w';
    if (!parse_hands(field[2], flen[2], out->hands))
        return 0;
    out->number = 1;
    if (n == 4) {
        long long v = 0;
        if (flen[3] > 18)
            return 0;
        for (i = 0; i < flen[3]; i++) {
            if (field[3][i] < '0' || field[3][i] > '9')
                return 0;
            v = v * 10 + (field[3][i] - '0');
        }
        out->number = v > 1 ? v : 1;
    }
    return 1;
}

/* Whether the position is impossible (the Python _position_problem finds a reason). */
static int position_problem(const Pos *p)
{
    static const int dead_codes[6] = {1, 2, 3, 17, 18, 19};
    static const int most[9] = {0, 18, 4, 4, 4, 2, 2, 4, 2}; /* shogiban.pieces.PIECE_COUNTS */
    int i, color, pt, ksq;
    for (i = 0; i < 6; i++) {
        int code = dead_codes[i];
        BB pieces = p->bb[code];
        while (bb_any(pieces)) {
            if (dead_end(code & 15, code >> 4, bb_pop(&pieces)))
                return 1;
        }
    }
    for (color = 0; color < 2; color++) {
        BB pawns = p->bb[1 | color << 4];
        unsigned columns = 0;
        if (bb_several(p->bb[8 | color << 4]))
            return 1;
        while (bb_any(pawns)) {
            unsigned column = 1u << (bb_pop(&pawns) % 9);
            if (columns & column)
                return 1;
            columns |= column;
        }
    }
    for (pt = 1; pt <= 8; pt++) {
        long total = bb_count(p->bb[pt]) + bb_count(p->bb[pt | 16]);
        if (pt <= 6)
            total += bb_count(p->bb[pt + 8]) + bb_count(p->bb[pt + 24]);
        if (pt != 8)
            total += p->hands[0][pt] + p->hands[1][pt];
        if (total > most[pt])
            return 1;
    }
    ksq = p->kings[p->turn ^ 1];
    return ksq >= 0 && is_attacked(p, ksq, p->turn, bb_or(p->occ[0], p->occ[1]));
}

/* Set the Position slots from a parsed SFEN, as Board.set_sfen does: 1 done, 0 impossible
 * position (not lenient: left to Python for the message), -1 error. */
static int set_up(PyObject *self, const Sfen *f, int lenient)
{
    Pos p;
    uint64_t key = f->turn ? Z_WHITE : 0;
    long values[81];
    PyObject *objs[S_COUNT] = {NULL}, *one = NULL;
    int sq, c, pt, i;

    memset(p.bb, 0, sizeof p.bb);
    p.occ[0] = p.occ[1] = EMPTY;
    for (sq = 0; sq < 81; sq++) {
        int piece = f->board[sq];
        p.board[sq] = (uint8_t)piece;
        if (piece) {
            p.bb[piece] = bb_or(p.bb[piece], BIT[sq]);
            p.occ[piece >> 4] = bb_or(p.occ[piece >> 4], BIT[sq]);
            key ^= Z_SQ[piece][sq];
        }
    }
    for (c = 0; c < 2; c++) {
        for (pt = 0; pt < 8; pt++) {
            p.hands[c][pt] = f->hands[c][pt];
            if (pt && f->hands[c][pt])
                key ^= Z_HAND[c][pt][f->hands[c][pt]];
        }
        p.kings[c] = bb_any(p.bb[8 | c << 4]) ? bb_msb(p.bb[8 | c << 4]) : -1;
    }
    p.turn = f->turn;
    if (!lenient && position_problem(&p))
        return 0;

    for (sq = 0; sq < 81; sq++)
        values[sq] = p.board[sq];
    if ((objs[S_BOARD] = int_list(values, 81)) == NULL || (objs[S_BB] = PyList_New(32)) == NULL
        || (objs[S_OCC] = PyList_New(2)) == NULL || (objs[S_HANDS] = PyList_New(2)) == NULL)
        goto fail;
    for (i = 0; i < 32; i++) {
        PyObject *value = bb_to_long(p.bb[i]);
        if (value == NULL)
            goto fail;
        PyList_SET_ITEM(objs[S_BB], i, value);
    }
    for (c = 0; c < 2; c++) {
        PyObject *value = bb_to_long(p.occ[c]);
        if (value == NULL)
            goto fail;
        PyList_SET_ITEM(objs[S_OCC], c, value);
        value = int_list(f->hands[c], 8);
        if (value == NULL)
            goto fail;
        PyList_SET_ITEM(objs[S_HANDS], c, value);
        values[c] = p.kings[c];
    }
    if ((objs[S_KINGS] = int_list(values, 2)) == NULL || (objs[S_TURN] = PyLong_FromLong(p.turn)) == NULL
        || (objs[S_STACK] = PyList_New(0)) == NULL || (objs[S_HASH] = PyLong_FromUnsignedLongLong(key)) == NULL
        || (objs[S_REP] = PyDict_New()) == NULL || (one = PyLong_FromLong(1)) == NULL
        || PyDict_SetItem(objs[S_REP], objs[S_HASH], one) < 0)
        goto fail;
    Py_DECREF(one);
    for (i = 0; i < S_COUNT; i++)
        set_slot(self, slot_offset[i], objs[i]);
    return 1;
fail:
    Py_XDECREF(one);
    for (i = 0; i < S_COUNT; i++)
        Py_XDECREF(objs[i]);
    return -1;
}

PyDoc_STRVAR(set_sfen_doc,
             "set_sfen(position, sfen, lenient, /)\n--\n\n"
             "Set up *position* (board, bitboards, kings, hands, side, key, empty history) from a\n"
             "well-formed *sfen* and return its move number; None leaves the text to the Python code\n"
             "(anything unusual, malformed, or impossible when not *lenient*), with the position unchanged.");

static PyObject *py_set_sfen(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Sfen f;
    int lenient, done;
    (void)module;
    if (nargs != 3 || position_type == NULL || !PyObject_TypeCheck(args[0], position_type)) {
        PyErr_SetString(PyExc_TypeError, "set_sfen(position, sfen, lenient) needs a Position (after bind_position)");
        return NULL;
    }
    if ((lenient = PyObject_IsTrue(args[2])) < 0)
        return NULL;
    if (!parse_sfen_fast(args[1], &f))
        Py_RETURN_NONE;
    done = set_up(args[0], &f, lenient);
    if (done < 0)
        return NULL;
    if (!done)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(f.number);
}

PyDoc_STRVAR(parse_sfen_doc,
             "parse_sfen(sfen, /)\n--\n\n"
             "(board, turn, hands, move_number) of a well-formed *sfen*, as shogiban.sfen.parse_sfen\n"
             "reads it, or None to leave the text to the Python code.");

static PyObject *py_parse_sfen(PyObject *module, PyObject *text)
{
    Sfen f;
    long values[81];
    PyObject *board, *hands;
    int sq;
    (void)module;
    if (!parse_sfen_fast(text, &f))
        Py_RETURN_NONE;
    for (sq = 0; sq < 81; sq++)
        values[sq] = f.board[sq];
    board = int_list(values, 81);
    hands = PyList_New(2);
    if (board == NULL || hands == NULL)
        goto fail;
    for (sq = 0; sq < 2; sq++) {
        PyObject *hand = int_list(f.hands[sq], 8);
        if (hand == NULL)
            goto fail;
        PyList_SET_ITEM(hands, sq, hand);
    }
    return Py_BuildValue("(NiNL)", board, f.turn, hands, f.number);
fail:
    Py_XDECREF(board);
    Py_XDECREF(hands);
    return NULL;
}

/* An int of `seq` (a list or tuple, index checked) in [low, high]: 1, or 0 for anything else. */
static int seq_int(PyObject *seq, Py_ssize_t i, int exact, long low, long high, long *out)
{
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
    if (exact ? !PyLong_CheckExact(item) : !PyLong_Check(item))
        return 0;
    *out = PyLong_AsLong(item);
    if (*out == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return *out >= low && *out <= high;
}

static inline int list_or_tuple(PyObject *obj, Py_ssize_t size)
{
    return (PyList_Check(obj) || PyTuple_Check(obj)) && PySequence_Fast_GET_SIZE(obj) >= size;
}

PyDoc_STRVAR(make_sfen_doc,
             "make_sfen(board, turn, hands, move_number, /)\n--\n\n"
             "The canonical SFEN, as shogiban.sfen.make_sfen writes it, or None for input it leaves to\n"
             "the Python code (anything but plain ints in the usual ranges).");

static PyObject *py_make_sfen(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char letters[] = "?PLNSBRGK";
    static const int order[7] = {6, 5, 7, 4, 3, 2, 1}; /* R B G S N L P */
    char buf[512];
    int len = 0, r, col, c, i;
    long v, turn;
    PyObject *board, *hands, *number;
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "make_sfen(board, turn, hands, move_number)");
        return NULL;
    }
    board = args[0];
    hands = args[2];
    number = args[3];
    if (!list_or_tuple(board, 81) || !list_or_tuple(hands, 2) || !PyLong_Check(args[1]))
        Py_RETURN_NONE;
    turn = PyLong_AsLong(args[1]);
    if (turn != 0 && turn != 1) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    for (r = 0; r < 9; r++) {
        int empty = 0;
        if (r)
            buf[len++] = '/';
        for (col = 0; col < 9; col++) {
            int pt;
            if (!seq_int(board, r * 9 + col, 0, 0, 31, &v))
                Py_RETURN_NONE;
            if (!v) {
                empty++;
                continue;
            }
            pt = (int)(v & 15);
            if (pt == 0 || pt == 15)
                Py_RETURN_NONE;
            if (empty) {
                buf[len++] = (char)('0' + empty);
                empty = 0;
            }
            if (pt > 8) {
                buf[len++] = '+';
                pt -= 8;
            }
            buf[len++] = (char)(letters[pt] + (v >= 16 ? 32 : 0));
        }
        if (empty)
            buf[len++] = (char)('0' + empty);
    }
    buf[len++] = ' ';
    buf[len++] = turn ? 'w' : 'b';
    buf[len++] = ' ';
    i = len;
    for (c = 0; c < 2; c++) {
        PyObject *hand = PySequence_Fast_GET_ITEM(hands, c);
        int k;
        if (!list_or_tuple(hand, 8))
            Py_RETURN_NONE;
        for (k = 0; k < 7; k++) {
            if (!seq_int(hand, order[k], 1, 0, 999999999, &v))
                Py_RETURN_NONE;
            if (v > 1)
                len += sprintf(buf + len, "%ld", v);
            if (v)
                buf[len++] = (char)(letters[order[k]] + (c ? 32 : 0));
        }
    }
    if (len == i)
        buf[len++] = '-';
    if (number != Py_None) {
        long long n;
        if (!PyLong_CheckExact(number))
            Py_RETURN_NONE;
        n = PyLong_AsLongLong(number);
        if (n == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        len += sprintf(buf + len, " %lld", n);
    }
    return PyUnicode_FromStringAndSize(buf, len);
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
    {"bind_position", (PyCFunction)(void (*)(void))bind_position, METH_FASTCALL, bind_position_doc},
    {"bind_board", (PyCFunction)(void (*)(void))bind_board, METH_FASTCALL, bind_board_doc},
    {"set_sfen", (PyCFunction)(void (*)(void))py_set_sfen, METH_FASTCALL, set_sfen_doc},
    {"parse_sfen", py_parse_sfen, METH_O, parse_sfen_doc},
    {"make_sfen", (PyCFunction)(void (*)(void))py_make_sfen, METH_FASTCALL, make_sfen_doc},
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
    str_code = PyUnicode_InternFromString("code");
    if (str_board == NULL || str_hands == NULL || str_turn == NULL || str_kings == NULL || str_code == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}
