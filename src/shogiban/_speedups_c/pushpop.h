/*
 * shogiban._speedups: push and pop (the methods of PositionState and BoardState), the 81-bit
 * bitboard as a Python int, and the module functions methods_for (the methods for a subclass),
 * set_zobrist and set_moves (which hand the module the Python tables push/pop need).
 */

#ifndef SHOGIBAN_SPEEDUPS_PUSHPOP_H
#define SHOGIBAN_SPEEDUPS_PUSHPOP_H

#include "bitboard.h"
#include "state.h"

/* The 81-bit bitboard as the Python int the pure-Python code uses (bit i = square i). */
INTERNAL PyObject *bb_to_long(ModuleState *st, BB a);

/* Fill st->bit_obj (module exec). */
INTERNAL int make_bit_objects(ModuleState *st);

/* The methods of PositionState (_push, _pop) and BoardState (push, pop). */
INTERNAL extern PyMethodDef position_methods[];
INTERNAL extern PyMethodDef board_methods[];

INTERNAL extern const char methods_for_doc[], set_zobrist_doc[], set_moves_doc[];
INTERNAL PyObject *methods_for(PyObject *module, PyObject *cls);
INTERNAL PyObject *set_zobrist(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *set_moves(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif /* SHOGIBAN_SPEEDUPS_PUSHPOP_H */
