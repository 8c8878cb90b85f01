/*
 * shogiban._speedups: the bitboard tables (single bits, rays, steps, lines between squares,
 * columns, drop zones) and ensure_tables(), which fills them once at the first import.
 */

#include "bitboard.h"

static const int DIR_COL[8] = {0, 0, -1, 1, -1, 1, -1, 1};
static const int DIR_ROW[8] = {-1, 1, 0, 0, -1, -1, 1, 1};

BB BIT[81];
BB FULL;
BB RAYS[8][81];
BB ROOK_RAYS[81];
BB BISHOP_RAYS[81];
BB STEP[32][81];
BB BETWEEN[81][81];
BB COLUMN[9];
/* DROP_ALLOWED[color][pt]: where a dropped piece could still move. */
BB DROP_ALLOWED[2][8];

static void fill_tables(void)
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

/* Each interpreter that imports the module runs its exec, which calls this.  Interpreters with a
 * GIL of their own (Python 3.13+, where the module says it supports them) may do so at the same
 * time, so the first fill is done under a lock; before 3.13 the module is loaded only into
 * interpreters that share the main GIL, which serialises the calls. */
#if PY_VERSION_HEX >= 0x030D0000
static PyMutex tables_lock;
#endif
static int tables_ready;

void ensure_tables(void)
{
#if PY_VERSION_HEX >= 0x030D0000
    PyMutex_Lock(&tables_lock);
#endif
    if (!tables_ready) {
        fill_tables();
        tables_ready = 1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    PyMutex_Unlock(&tables_lock);
#endif
}
