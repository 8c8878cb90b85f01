/*
 * shogiban._speedups: the storage the module owns.
 *
 *   PositionState   the base type of shogiban.position.Position: a C struct with one PyObject *
 *                   per field (_board, _bb, _occ, _kings, _hands, _turn, _stack, _hash, _rep),
 *                   which Python reads and writes as member descriptors (as fast as __slots__)
 *                   and C reaches through the struct;
 *   BoardState      PositionState with Board's _ending, the base type of shogiban.board.Board;
 *   ModuleState     what one module object holds: its two types, the Python objects handed to
 *                   it by set_zobrist / set_moves and made by it, and the Zobrist keys as C ints.
 *
 * The types are heap types made per module object (multi-phase init), so each interpreter that
 * imports the module has its own types and state.
 */

#ifndef SHOGIBAN_SPEEDUPS_STATE_H
#define SHOGIBAN_SPEEDUPS_STATE_H

#include "common.h"

struct ModuleState;
struct EvalTables;

typedef struct {
    PyObject_HEAD
    /* The state of the module whose PositionState this instance's class derives from, set when
     * the instance is made: the instance holds its class, which holds that module, so it lives
     * as long as the instance.  Not visible from Python. */
    struct ModuleState *module_state;
    PyObject *board; /* list of 81 piece codes */
    PyObject *bb;    /* list of 32 bitboards (Python ints) by piece code */
    PyObject *occ;   /* list of 2 bitboards by colour */
    PyObject *kings; /* list of 2 king squares (-1: none) */
    PyObject *hands; /* list of 2 lists of 8 counts */
    PyObject *turn;  /* int 0 or 1 */
    PyObject *stack; /* list of (code, captured, key before) tuples */
    PyObject *hash;  /* the Zobrist key, an int in 0 .. 2**64 - 1 */
    PyObject *rep;   /* dict: key -> times seen */
} PositionState;

typedef struct {
    PositionState position;
    PyObject *ending; /* Board._ending: None or the recorded game end */
} BoardState;

/* Move codes: promotion flag | from << 7 | to, below 1 << 15. */
#define CODE_LIMIT (1 << 15)
#define ZOBRIST_HAND 82 /* hand counts 0 .. zobrist.MAX_HAND */

typedef struct ModuleState {
    PyTypeObject *position_type; /* PositionState */
    PyTypeObject *board_type;    /* BoardState */
    /* set_moves: shogiban.move.Move, shogiban.move.MOVES and the Python Board.pop */
    PyTypeObject *move_type;
    PyObject *moves;
    PyObject *python_pop;
    PyObject *str_code;     /* "code" */
    PyObject *code_descr;   /* Move.code (a data descriptor), and how to read it */
    descrgetfunc code_get;
    /* int's own |, ^ and comparison (from PyType_GetSlot), for two exact ints; the largest key */
    binaryfunc int_or, int_xor;
    richcmpfunc int_compare;
    PyObject *key_limit;
    /* 1 << sq, and (1 << a) | (1 << b) made on first use, as Python ints */
    PyObject *bit_obj[81];
    PyObject *pair_obj[81 * 81];
    /* before 3.13: bits << 63 (rank h) and bits << 72 (rank i) for nine bits, made on first use */
    PyObject *high_bits[2][512];
    /* one int object per move code, shared by every list legal_codes returns (made on first use) */
    PyObject *code_obj[CODE_LIMIT];
    /* set_zobrist: shogiban.zobrist's tables as C integers */
    int zobrist_ready;
    uint64_t z_sq[32][81];
    uint64_t z_hand[2][8][ZOBRIST_HAND];
    uint64_t z_white;
    /* set_eval: shogiban.engine.evaluate's tables as C integers, and the quiescence search's
     * work space (qsearch.c); NULL until set_eval is called */
    struct EvalTables *eval;
} ModuleState;

INTERNAL extern PyType_Spec position_state_spec;
INTERNAL extern PyType_Spec board_state_spec;
INTERNAL extern struct PyModuleDef module_def;

static inline ModuleState *module_state(PyObject *module) { return (ModuleState *)PyModule_GetState(module); }

/* The state of the module whose PositionState `self` is an instance of, or NULL with an exception.
 * (Methods could be told their defining class with METH_METHOD instead, but CPython calls those
 * through a slower path than METH_O and METH_NOARGS: see docs/speedups.md.) */
static inline ModuleState *object_state(PyObject *self)
{
    PyObject *module;
    if (((PositionState *)self)->module_state != NULL)
        return ((PositionState *)self)->module_state;
    module = PyType_GetModuleByDef(Py_TYPE(self), &module_def);
    return module == NULL ? NULL : module_state(module);
}

/* Replace an owned field with `value` (a new reference, stolen; may be NULL). */
static inline void set_field(PyObject **field, PyObject *value)
{
    PyObject *old = *field;
    *field = value;
    Py_XDECREF(old);
}

#endif /* SHOGIBAN_SPEEDUPS_STATE_H */
