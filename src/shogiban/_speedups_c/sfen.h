/*
 * shogiban._speedups: the SFEN module functions set_sfen, parse_sfen and make_sfen.
 */

#ifndef SHOGIBAN_SPEEDUPS_SFEN_H
#define SHOGIBAN_SPEEDUPS_SFEN_H

#include "common.h"

INTERNAL extern const char set_sfen_doc[], parse_sfen_doc[], make_sfen_doc[];
INTERNAL PyObject *py_set_sfen(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *py_parse_sfen(PyObject *module, PyObject *text);
INTERNAL PyObject *py_make_sfen(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif /* SHOGIBAN_SPEEDUPS_SFEN_H */
