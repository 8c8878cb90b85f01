/*
 * shogiban._speedups: the Position slots, their layout and the Zobrist tables that push/pop
 * share with the SFEN set-up, and the module functions bind_position and bind_board.
 */

#ifndef SHOGIBAN_SPEEDUPS_PUSHPOP_H
#define SHOGIBAN_SPEEDUPS_PUSHPOP_H

#include "bitboard.h"

enum { S_BOARD, S_BB, S_OCC, S_KINGS, S_HANDS, S_TURN, S_STACK, S_HASH, S_REP, S_COUNT };
INTERNAL extern Py_ssize_t slot_offset[S_COUNT];
INTERNAL extern PyTypeObject *position_type; /* set by bind_position */
INTERNAL extern PyObject *str_code;          /* made by PyInit__speedups */

#define ZOBRIST_HAND 82 /* counts 0..zobrist.MAX_HAND */
INTERNAL extern uint64_t Z_SQ[32][81];
INTERNAL extern uint64_t Z_HAND[2][8][ZOBRIST_HAND];
INTERNAL extern uint64_t Z_WHITE;

#define SLOT_PTR(obj, offset) ((PyObject **)((char *)(obj) + (offset)))

/* Store `value` (a new reference, stolen) in the slot at `offset`. */
static inline void set_slot(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    PyObject **p = SLOT_PTR(obj, offset);
    PyObject *old = *p;
    *p = value;
    Py_XDECREF(old);
}

/* The 81-bit bitboard as the Python int the pure-Python code uses (bit i = square i). */
INTERNAL PyObject *bb_to_long(BB a);

INTERNAL extern const char bind_position_doc[], bind_board_doc[];
INTERNAL PyObject *bind_position(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *bind_board(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif /* SHOGIBAN_SPEEDUPS_PUSHPOP_H */
