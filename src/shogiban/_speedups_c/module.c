/*
 * shogiban._speedups: optional compiled twins of the hot paths of shogiban's rules core.
 * This file holds the method table and PyInit__speedups; the code is in the files beside it.
 *
 * The pure-Python code is the reference everywhere; each function here gives exactly its results.
 *
 * The files (common.h is included first by all of them):
 *
 *   bitboard.h, tables.c   the bitboard type and its inline operations, the tables and the
 *                          sliding attacks;
 *   movegen.h, movegen.c   legal moves: legal_codes, count_legal, has_legal_move;
 *   pushpop.h, pushpop.c   push and pop in place: bind_position, bind_board;
 *   sfen.h, sfen.c         SFEN: set_sfen, parse_sfen, make_sfen;
 *   common.h               the Python headers and INTERNAL (names shared between the files).
 *
 * C99 and the CPython C API (with a few of CPython's own exported helpers up to 3.12, switched
 * to their public replacements from 3.13); GCC/Clang bit-scan builtins with a portable fallback.
 */

#include "movegen.h"
#include "pushpop.h"
#include "sfen.h"

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
    "Compiled legal move generation, push/pop and SFEN for shogiban's rules core (optional; the "
    "same results as the pure-Python code).",
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
