/*
 * shogiban._speedups: optional compiled twins of the hot paths of shogiban's rules core.
 * This file holds the module: its functions, its state's life cycle and its multi-phase init;
 * the code is in the files beside it.
 *
 * The pure-Python code is the reference everywhere; each function here gives exactly its results.
 *
 * The files (common.h is included first by all of them):
 *
 *   bitboard.h, tables.c   the bitboard type and its inline operations, the tables and the
 *                          sliding attacks;
 *   state.h, state.c       the storage the module owns: the types PositionState and BoardState
 *                          (the bases of Position and Board) and the module state;
 *   movegen.h, movegen.c   legal moves: legal_codes, count_legal, has_legal_move;
 *   pushpop.h, pushpop.c   push and pop (the types' methods), methods_for, set_zobrist,
 *                          set_moves;
 *   sfen.h, sfen.c         SFEN: set_sfen, parse_sfen, make_sfen;
 *   qsearch.h, qsearch.c   the engine's evaluation and quiescence search: set_eval, eval_parts,
 *                          attacks_near, qsearch;
 *   search.h, search.c     the engine's main search below the root: set_search, search,
 *                          may_give_check, threatens, see;
 *   see.h, see.c           static exchange evaluation (the quiescence search's capture filter);
 *   common.h               the Python headers, INTERNAL and MEMBER_OBJECT.
 *
 * C99 on the public CPython C API (with PyLong_*NativeBytes from 3.13); GCC/Clang bit-scan
 * builtins with a portable fallback.
 */

#include "movegen.h"
#include "pushpop.h"
#include "qsearch.h"
#include "search.h"
#include "sfen.h"

/* The digest of the C sources this module was compiled from (hatch_build.py passes it in);
 * shogiban.position compares it with the sources beside the package, if any, at import. */
#ifndef SHOGIBAN_SOURCE_DIGEST
#define SHOGIBAN_SOURCE_DIGEST "unknown"
#endif

static PyMethodDef methods[] = {
    {"legal_codes", legal_codes, METH_O, legal_codes_doc},
    {"count_legal", count_legal, METH_O, count_legal_doc},
    {"has_legal_move", py_has_legal_move, METH_O, has_legal_move_doc},
    {"methods_for", methods_for, METH_O, methods_for_doc},
    {"set_zobrist", (PyCFunction)(void (*)(void))set_zobrist, METH_FASTCALL, set_zobrist_doc},
    {"set_moves", (PyCFunction)(void (*)(void))set_moves, METH_FASTCALL, set_moves_doc},
    {"set_sfen", (PyCFunction)(void (*)(void))py_set_sfen, METH_FASTCALL, set_sfen_doc},
    {"parse_sfen", py_parse_sfen, METH_O, parse_sfen_doc},
    {"make_sfen", (PyCFunction)(void (*)(void))py_make_sfen, METH_FASTCALL, make_sfen_doc},
    {"set_eval", (PyCFunction)(void (*)(void))set_eval, METH_FASTCALL, set_eval_doc},
    {"eval_parts", eval_parts, METH_O, eval_parts_doc},
    {"attacks_near", (PyCFunction)(void (*)(void))py_attacks_near, METH_FASTCALL, attacks_near_doc},
    {"qsearch", (PyCFunction)(void (*)(void))py_qsearch, METH_FASTCALL, qsearch_doc},
    {"set_search", (PyCFunction)(void (*)(void))set_search, METH_FASTCALL, set_search_doc},
    {"search", (PyCFunction)(void (*)(void))py_search, METH_FASTCALL, search_doc},
    {"may_give_check", (PyCFunction)(void (*)(void))py_may_give_check, METH_FASTCALL, may_give_check_doc},
    {"threatens", (PyCFunction)(void (*)(void))py_threatens, METH_FASTCALL, threatens_doc},
    {"see", (PyCFunction)(void (*)(void))py_see, METH_FASTCALL, see_doc},
    {NULL, NULL, 0, NULL},
};

static int module_exec(PyObject *module)
{
    ModuleState *st = module_state(module);
    ensure_tables();
    st->position_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &position_state_spec, NULL);
    if (st->position_type == NULL)
        return -1;
    st->board_type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &board_state_spec, (PyObject *)st->position_type);
    st->int_or = (binaryfunc)PyType_GetSlot(&PyLong_Type, Py_nb_or);
    st->int_xor = (binaryfunc)PyType_GetSlot(&PyLong_Type, Py_nb_xor);
    st->int_compare = (richcmpfunc)PyType_GetSlot(&PyLong_Type, Py_tp_richcompare);
    if (st->board_type == NULL || st->int_or == NULL || st->int_xor == NULL || st->int_compare == NULL
        || (st->str_code = PyUnicode_InternFromString("code")) == NULL
        || (st->key_limit = PyLong_FromUnsignedLongLong(UINT64_MAX)) == NULL || make_bit_objects(st) < 0)
        return -1;
    if (PyModule_AddType(module, st->position_type) < 0 || PyModule_AddType(module, st->board_type) < 0
        || PyModule_AddStringConstant(module, "SOURCE_DIGEST", SHOGIBAN_SOURCE_DIGEST) < 0)
        return -1;
    return 0;
}

/* Only the objects that can be part of a reference cycle: the ints in the tables cannot. */
static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    ModuleState *st = module_state(module);
    if (st == NULL)
        return 0;
    Py_VISIT(st->position_type);
    Py_VISIT(st->board_type);
    Py_VISIT(st->move_type);
    Py_VISIT(st->moves);
    Py_VISIT(st->python_pop);
    Py_VISIT(st->code_descr);
    return 0;
}

static int module_clear(PyObject *module)
{
    ModuleState *st = module_state(module);
    if (st == NULL)
        return 0;
    Py_CLEAR(st->position_type);
    Py_CLEAR(st->board_type);
    Py_CLEAR(st->move_type);
    Py_CLEAR(st->moves);
    Py_CLEAR(st->python_pop);
    Py_CLEAR(st->code_descr);
    st->code_get = NULL;
    return 0;
}

static void module_free(void *module)
{
    ModuleState *st = module_state((PyObject *)module);
    size_t i;
    if (st == NULL)
        return;
    module_clear((PyObject *)module);
    free_eval(st);
    Py_CLEAR(st->str_code);
    Py_CLEAR(st->key_limit);
    for (i = 0; i < sizeof st->bit_obj / sizeof st->bit_obj[0]; i++)
        Py_CLEAR(st->bit_obj[i]);
    for (i = 0; i < sizeof st->pair_obj / sizeof st->pair_obj[0]; i++)
        Py_CLEAR(st->pair_obj[i]);
    for (i = 0; i < sizeof st->code_obj / sizeof st->code_obj[0]; i++)
        Py_CLEAR(st->code_obj[i]);
    for (i = 0; i < 512; i++) {
        Py_CLEAR(st->high_bits[0][i]);
        Py_CLEAR(st->high_bits[1][i]);
    }
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, (void *)module_exec},
#if PY_VERSION_HEX >= 0x030D0000
    /* Everything is per module object, but for the geometry tables, filled once under a lock. */
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#elif PY_VERSION_HEX >= 0x030C0000
    /* No public lock before 3.13 for the first fill of the tables: only interpreters sharing the GIL. */
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_SUPPORTED},
#endif
    {0, NULL},
};

struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "shogiban._speedups",
    "Compiled legal move generation, push/pop and SFEN for shogiban's rules core, and the engine's "
    "evaluation and search (optional; the same results as the pure-Python code).",
    sizeof(ModuleState),
    methods,
    module_slots,
    module_traverse,
    module_clear,
    module_free,
};

PyMODINIT_FUNC PyInit__speedups(void) { return PyModuleDef_Init(&module_def); }
