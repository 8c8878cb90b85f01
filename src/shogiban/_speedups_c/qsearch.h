/*
 * shogiban._speedups: the engine's static evaluation (shogiban.engine.evaluate: full_score,
 * move_delta, extras with king_danger and attacks_near) and its quiescence search
 * (shogiban.engine.search.Searcher.qsearch), on the tables set_eval hands over from Python.
 */

#ifndef SHOGIBAN_SPEEDUPS_QSEARCH_H
#define SHOGIBAN_SPEEDUPS_QSEARCH_H

#include "movegen.h"

/* Free what set_eval allocated (module free). */
INTERNAL void free_eval(ModuleState *st);

INTERNAL extern const char set_eval_doc[], eval_parts_doc[], attacks_near_doc[], qsearch_doc[];
INTERNAL PyObject *set_eval(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *eval_parts(PyObject *module, PyObject *position);
INTERNAL PyObject *py_attacks_near(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *py_qsearch(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif /* SHOGIBAN_SPEEDUPS_QSEARCH_H */
