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

/* More moves than one side can have: with k pieces, at most 2 k (81 - k) <= 3280 board moves
 * (each to a square it does not occupy, promoting or not), plus 7 x 81 drops. */
#define MAX_MOVES 4096

/* Whether colour `by` attacks `sq` given `occupied` (Position._is_attacked). */
INTERNAL int is_attacked(const Pos *p, int sq, int by, BB occupied);

/* Whether an unpromoted `pt` of `color` on `sq` could never move again (promotion forced). */
static inline int dead_end(int pt, int color, int sq)
{
    int row = color ? 8 - sq / 9 : sq / 9;
    return (pt <= 2 && row == 0) || (pt == 3 && row <= 1);
}

/* Checkers of `color`'s king on `ksq`, its pinned pieces and each pinned piece's line
 * (Position._checkers_and_pins); lines[sq] is set only for pinned squares. */
INTERNAL void checkers_and_pins(const Pos *p, int ksq, int color, BB occupied, BB *checkers, BB *pinned,
                                BB lines[81]);

/* The legal codes of `p` into `codes` (room for MAX_MOVES), in the order of legal_codes; their number. */
INTERNAL Py_ssize_t generate_codes(const Pos *p, uint16_t *codes);

/* Fill `p` from a Position (a PositionState's fields, or any object's attributes); -1 with an exception. */
INTERNAL int load_position(ModuleState *st, PyObject *position, Pos *p);

INTERNAL extern const char legal_codes_doc[], count_legal_doc[], has_legal_move_doc[];
INTERNAL PyObject *legal_codes(PyObject *module, PyObject *position);
INTERNAL PyObject *count_legal(PyObject *module, PyObject *position);
INTERNAL PyObject *py_has_legal_move(PyObject *module, PyObject *position);

#endif /* SHOGIBAN_SPEEDUPS_MOVEGEN_H */
