/*
 * shogiban._speedups: what every file includes first: the Python headers (before any standard
 * header, as Python asks) and INTERNAL, the mark of the names the files share.
 */

#ifndef SHOGIBAN_SPEEDUPS_COMMON_H
#define SHOGIBAN_SPEEDUPS_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h> /* PyMemberDef (Python 3.11) */

#include <stdint.h>
#include <string.h>

/* A name one file defines for another: hidden, so it is not exported from the module and the
 * compiler reaches it directly (no GOT or PLT indirection, as for the static names it was). */
#if defined(__GNUC__) || defined(__clang__)
#define INTERNAL __attribute__((visibility("hidden")))
#else
#define INTERNAL
#endif

#endif /* SHOGIBAN_SPEEDUPS_COMMON_H */
