/*
 * shogiban._speedups: the position read from a PositionState (Pos), and what the move generator shares:
 * attack tests, dead pieces, and the module functions legal_codes, count_legal, has_legal_move.
 */

#ifndef SHOGIBAN_SPEEDUPS_MOVEGEN_H
#define SHOGIBAN_SPEEDUPS_MOVEGEN_H

#include "bitboard.h"
#include "state.h"

typedef struct {
    uint8_t board[81];
    BB bb[32];
    BB occ[2];
    int kings[2];
    long hands[2][8];
    int turn;
} Pos;

/* Whether colour `by` attacks `sq` given `occupied` (Position._is_attacked). */
INTERNAL int is_attacked(const Pos *p, int sq, int by, BB occupied);

/* Whether an unpromoted `pt` of `color` on `sq` could never move again (promotion forced). */
static inline int dead_end(int pt, int color, int sq)
{
    int row = color ? 8 - sq / 9 : sq / 9;
    return (pt <= 2 && row == 0) || (pt == 3 && row <= 1);
}

INTERNAL extern const char legal_codes_doc[], count_legal_doc[], has_legal_move_doc[];
INTERNAL PyObject *legal_codes(PyObject *module, PyObject *position);
INTERNAL PyObject *count_legal(PyObject *module, PyObject *position);
INTERNAL PyObject *py_has_legal_move(PyObject *module, PyObject *position);

#endif /* SHOGIBAN_SPEEDUPS_MOVEGEN_H */
