/*
 * shogiban._speedups: the engine's main search below the root (shogiban.engine.search:
 * Searcher.search with its move ordering, pruning and path bookkeeping, may_give_check and
 * threatens), exactly as the Python code searches without evaluation noise.
 */

#ifndef SHOGIBAN_SPEEDUPS_SEARCH_H
#define SHOGIBAN_SPEEDUPS_SEARCH_H

#include "qsearch.h"

INTERNAL extern const char set_search_doc[], search_doc[], may_give_check_doc[], threatens_doc[], see_doc[];
INTERNAL PyObject *set_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *py_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *py_may_give_check(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *py_threatens(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *py_see(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif /* SHOGIBAN_SPEEDUPS_SEARCH_H */
