/*
 * shogiban._speedups: what every file includes first: the Python headers (before any standard
 * header, as Python asks), INTERNAL (the mark of the names the files share) and MEMBER_OBJECT
 * (the PyMemberDef type of an object field, whose name changed in Python 3.12).
 *
 * Only the public C API is used: no name starting with an underscore and Py, no reading of
 * CPython's own structs (lists, ints, descriptors), no offsets found at run time.
 */

#ifndef SHOGIBAN_SPEEDUPS_COMMON_H
#define SHOGIBAN_SPEEDUPS_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if PY_VERSION_HEX >= 0x030C0000
#define MEMBER_OBJECT Py_T_OBJECT_EX
#else
#include <structmember.h> /* PyMemberDef and its type codes before Python 3.12 */
#define MEMBER_OBJECT T_OBJECT_EX
#endif

#include <stddef.h>
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
