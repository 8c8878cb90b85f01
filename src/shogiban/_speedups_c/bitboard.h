/*
 * shogiban._speedups: the 81-square bitboard BB and its inline operations, the tables that
 * tables.c fills once, and the sliding attacks read from them.
 *
 * Bitboards are 81 bits in two words: lo holds squares 0..62 (ranks a..g), hi holds squares
 * 63..80 (ranks h and i) in its bits 0..17, so each rank's nine bits sit inside one word.
 */

#ifndef SHOGIBAN_SPEEDUPS_BITBOARD_H
#define SHOGIBAN_SPEEDUPS_BITBOARD_H

#include "common.h"

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

/* -- tables, filled once by ensure_tables() -------------------------------------------------- */

/* They are constants of the board geometry, the same for every interpreter, so they are plain C
 * data shared by all the module's instances (they hold no Python object). */

enum { N, S, W, E, NW, NE, SW, SE };
/* Rays that run towards higher square numbers: the nearest blocker is the lowest bit. */
static const int POSITIVE[8] = {0, 1, 0, 1, 0, 0, 1, 1};

INTERNAL extern BB BIT[81];
INTERNAL extern BB FULL;
INTERNAL extern BB RAYS[8][81];
INTERNAL extern BB ROOK_RAYS[81];
INTERNAL extern BB BISHOP_RAYS[81];
INTERNAL extern BB STEP[32][81];
INTERNAL extern BB BETWEEN[81][81];
INTERNAL extern BB COLUMN[9];
/* DROP_ALLOWED[color][pt]: where a dropped piece could still move. */
INTERNAL extern BB DROP_ALLOWED[2][8];

/* Fill the tables on the first call (each module exec calls it; see tables.c for the locking). */
INTERNAL void ensure_tables(void);

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

#endif /* SHOGIBAN_SPEEDUPS_BITBOARD_H */
