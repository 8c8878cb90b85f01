/*
 * shogiban._speedups, push and pop: Position._push/_pop and Board.push/pop as methods of
 * PositionState and BoardState, which edit the Python state in place (lists of ints, 81-bit
 * Python-int bitboards, the Zobrist key, the move stack and the repetition counts) exactly as the
 * Python methods do, because the engine, the tsume solver and the rules read those fields
 * directly.  Also set_zobrist and set_moves, which hand the module the tables push/pop need.
 *
 * Every index is checked before anything changes: where the Python method would fail half-way
 * (a king captured, an index out of range) this one raises the same exception type before
 * touching the state.  Every value that an update replaces is checked to be an exact int first,
 * so no Python code (a finaliser) can run and change the lists while an update is in progress.
 */

#include "pushpop.h"

/* -- Python ints and lists ------------------------------------------------------------------- */

#if PY_VERSION_HEX < 0x030D0000
/* (bits << (63 + 9 * rank)) for rank 0 (h) or 1 (i) and nine bits, made on first use. */
static PyObject *high_rank(ModuleState *st, int rank, unsigned bits)
{
    PyObject **cell = &st->high_bits[rank][bits];
    if (*cell == NULL) {
        PyObject *value = PyLong_FromUnsignedLong(bits), *shift = PyLong_FromLong(63 + 9 * rank);
        if (value != NULL && shift != NULL)
            *cell = PyNumber_Lshift(value, shift); /* the table keeps this reference */
        Py_XDECREF(value);
        Py_XDECREF(shift);
    }
    return *cell;
}
#endif

PyObject *bb_to_long(ModuleState *st, BB a)
{
#if PY_VERSION_HEX >= 0x030D0000
    /* bits 0..63 and 64..80 of the value lo | hi << 63 */
    uint64_t low = a.lo | a.hi << 63, high = a.hi >> 1;
    unsigned char bytes[16];
    int i;
    (void)st;
    if (!high)
        return PyLong_FromUnsignedLongLong(low);
    for (i = 0; i < 8; i++) {
        bytes[i] = (unsigned char)(low >> (8 * i));
        bytes[8 + i] = (unsigned char)(high >> (8 * i));
    }
    return PyLong_FromUnsignedNativeBytes(bytes, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    /* No public constructor from bytes before 3.13: ranks a..g as one int, or'ed with the ints
     * of ranks h and i from a table (a bitboard with pieces in rank h or i alone is one of them). */
    PyObject *result = NULL, *part;
    int rank;
    if (a.hi == 0 || a.lo != 0) {
        if ((result = PyLong_FromUnsignedLongLong(a.lo)) == NULL)
            return NULL;
    }
    for (rank = 0; rank < 2; rank++) {
        unsigned bits = (unsigned)(a.hi >> (9 * rank)) & 511u;
        if (bits == 0)
            continue;
        if ((part = high_rank(st, rank, bits)) == NULL) {
            Py_XDECREF(result);
            return NULL;
        }
        if (result == NULL) {
            Py_INCREF(part);
            result = part;
        } else {
            PyObject *value = st->int_or(result, part);
            Py_DECREF(result);
            if ((result = value) == NULL)
                return NULL;
        }
    }
    return result;
#endif
}

int make_bit_objects(ModuleState *st)
{
    int sq;
    for (sq = 0; sq < 81; sq++) {
        if ((st->bit_obj[sq] = bb_to_long(st, BIT[sq])) == NULL)
            return -1;
    }
    return 0;
}

/* Python's rule for an index into a sequence of `size` items: negative counts from the end. */
static int py_index(long long i, Py_ssize_t size, Py_ssize_t *out)
{
    if (i < 0)
        i += size;
    if (i < 0 || i >= size) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return -1;
    }
    *out = (Py_ssize_t)i;
    return 0;
}

static PyObject *pair_bits(ModuleState *st, int a, int b)
{
    PyObject **cell = &st->pair_obj[a * 81 + b];
    if (*cell == NULL)
        *cell = st->int_or(st->bit_obj[a], st->bit_obj[b]); /* the table keeps this reference */
    return *cell;
}

/* -- the live state of a Position ------------------------------------------------------------ */

enum { F_BOARD, F_BB, F_OCC, F_KINGS, F_HANDS, F_TURN, F_STACK, F_HASH, F_REP, F_COUNT };
static const char *const FIELD_NAMES[F_COUNT] = {"_board", "_bb",    "_occ",  "_kings", "_hands",
                                                 "_turn",  "_stack", "_hash", "_rep"};

typedef struct {
    PyObject *board, *bb, *occ, *kings, *hands, *stack, *rep, *hash; /* borrowed */
    int turn;
    uint64_t key;
} Live;

/* A Zobrist key (an int in 0 .. 2**64 - 1) as a C integer; -1 with OverflowError outside. */
static inline int read_key(const ModuleState *st, PyObject *obj, uint64_t *out)
{
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(obj, out, 8,
                                           Py_ASNATIVEBYTES_NATIVE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                                               | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    (void)st;
    if (need >= 0 && need <= 8)
        return 0;
    if (need < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError)) /* (ValueError: negative) */
            return -1;
        PyErr_Clear();
    }
#else
    /* PyLong_AsUnsignedLongLong converts through bytes here; this takes the digits directly:
     * below 2**63 as a long long, else the low 64 bits once the value is known to be at most
     * 2**64 - 1. */
    int overflow;
    long long value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (overflow == 0 && value >= 0) {
        *out = (uint64_t)value;
        return 0;
    }
    if (overflow > 0) {
        PyObject *below = st->int_compare(obj, st->key_limit, Py_LE);
        if (below == NULL)
            return -1;
        overflow = below == Py_True;
        Py_DECREF(below);
        if (overflow) {
            *out = PyLong_AsUnsignedLongLongMask(obj);
            return 0;
        }
    }
#endif
    PyErr_SetString(PyExc_OverflowError, "position _hash must be an int in 0 .. 2**64 - 1");
    return -1;
}

static int check_list(PyObject *value, Py_ssize_t size, int i)
{
    if (PyList_CheckExact(value) && (size < 0 || PyList_GET_SIZE(value) == size))
        return 0;
    PyErr_Format(PyExc_TypeError, "position %s must be a list of %zd items, not %.100s", FIELD_NAMES[i], size,
                 Py_TYPE(value)->tp_name);
    return -1;
}

/* Why live_load refused the position: the exception for its first bad field. */
static int live_error(PyObject *self)
{
    static const Py_ssize_t sizes[F_COUNT] = {81, 32, 2, 2, 2, 0, -1, 0, 0};
    PositionState *p = (PositionState *)self;
    PyObject *fields[F_COUNT] = {p->board, p->bb, p->occ, p->kings, p->hands, p->turn, p->stack, p->hash, p->rep};
    int i;
    for (i = 0; i < F_COUNT; i++) {
        PyObject *value = fields[i];
        if (value == NULL) {
            PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%s'", Py_TYPE(self)->tp_name,
                         FIELD_NAMES[i]);
            return -1;
        }
        if (i <= F_STACK && i != F_TURN && check_list(value, sizes[i], i) < 0)
            return -1;
        if (i == F_REP && !PyDict_CheckExact(value)) {
            PyErr_Format(PyExc_TypeError, "position _rep must be a dict, not %.100s", Py_TYPE(value)->tp_name);
            return -1;
        }
        if (i == F_KINGS
            && !(PyLong_CheckExact(PyList_GET_ITEM(value, 0)) && PyLong_CheckExact(PyList_GET_ITEM(value, 1)))) {
            PyErr_SetString(PyExc_TypeError, "position _kings must hold two ints");
            return -1;
        }
        if ((i == F_HASH || i == F_TURN) && !PyLong_CheckExact(value)) {
            PyErr_Format(PyExc_TypeError, "position %s must be an int, not %.100s", FIELD_NAMES[i],
                         Py_TYPE(value)->tp_name);
            return -1;
        }
    }
    PyErr_SetString(PyExc_ValueError, "position _turn must be 0 or 1");
    return -1;
}

#define LIST_OF(obj, size) ((obj) != NULL && PyList_CheckExact(obj) && PyList_GET_SIZE(obj) == (size))

/* The fields of `self` (borrowed), checked to have the types and sizes the Python code gives them;
 * with `need_key`, the key as a C integer too. */
static inline int live_load(const ModuleState *st, PyObject *self, Live *s, int need_key)
{
    PositionState *p = (PositionState *)self;
    PyObject *turn = p->turn;
    s->board = p->board;
    s->bb = p->bb;
    s->occ = p->occ;
    s->kings = p->kings;
    s->hands = p->hands;
    s->stack = p->stack;
    s->hash = p->hash;
    s->rep = p->rep;
    if (!(LIST_OF(s->board, 81) && LIST_OF(s->bb, 32) && LIST_OF(s->occ, 2) && LIST_OF(s->kings, 2)
          && LIST_OF(s->hands, 2) && s->stack != NULL && PyList_CheckExact(s->stack) && s->rep != NULL
          && PyDict_CheckExact(s->rep) && s->hash != NULL && PyLong_CheckExact(s->hash) && turn != NULL
          && PyLong_CheckExact(turn) && PyLong_CheckExact(PyList_GET_ITEM(s->kings, 0))
          && PyLong_CheckExact(PyList_GET_ITEM(s->kings, 1))))
        return live_error(self);
    s->turn = (int)PyLong_AsLong(turn);
    if (s->turn != 0 && s->turn != 1)
        return live_error(self);
    return need_key ? read_key(st, s->hash, &s->key) : 0;
}

/* An int item of a list whose size is known; -1 with TypeError for anything but an exact int. */
static inline int int_at(PyObject *list, Py_ssize_t i, long *out)
{
    PyObject *item = PyList_GET_ITEM(list, i);
    if (!PyLong_CheckExact(item)) {
        PyErr_Format(PyExc_TypeError, "position state holds a %.100s where an int belongs", Py_TYPE(item)->tp_name);
        return -1;
    }
    *out = PyLong_AsLong(item);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* A hand list of the position (a list of 8 counts). */
static PyObject *hand_of(const Live *s, int color)
{
    PyObject *hand = PyList_GET_ITEM(s->hands, color);
    if (check_list(hand, 8, F_HANDS) < 0)
        return NULL;
    return hand;
}

/* list[i] = value, where list[i] was checked to be an exact int (so dropping it runs no code). */
static inline int set_int(PyObject *list, Py_ssize_t i, long value)
{
    PyObject *item = PyLong_FromLong(value), *old;
    if (item == NULL)
        return -1;
    old = PyList_GET_ITEM(list, i);
    PyList_SET_ITEM(list, i, item);
    Py_DECREF(old);
    return 0;
}

/* list[i] |= bits (or ^= bits). */
static inline int apply_bits(const ModuleState *st, PyObject *list, Py_ssize_t i, PyObject *bits, int use_or)
{
    PyObject *old = PyList_GET_ITEM(list, i), *value;
    if (!PyLong_CheckExact(old)) {
        PyErr_SetString(PyExc_TypeError, "position bitboards must be ints");
        return -1;
    }
    /* Both are exact ints: int's own operation, without the generic dispatch of PyNumber_Or. */
    value = use_or ? st->int_or(old, bits) : st->int_xor(old, bits);
    if (value == NULL)
        return -1;
    PyList_SET_ITEM(list, i, value);
    Py_DECREF(old);
    return 0;
}

#define OR 1
#define XOR 0

/* The captured piece's type as it goes to the hand (Python: captured & 7 if captured & 15 > 8
 * else captured & 15). */
static inline long hand_type(long captured) { return (captured & 15) > 8 ? captured & 7 : captured & 15; }

static int need_zobrist(const ModuleState *st)
{
    if (st->zobrist_ready)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "shogiban._speedups: set_zobrist() was not called");
    return -1;
}

/* Position._push. */
static PyObject *push_code(PyObject *self, ModuleState *st, PyObject *code_obj)
{
    PositionState *p = (PositionState *)self;
    Live s;
    long long code;
    int to, frm, color, promote;
    long piece, captured = 0, n, moved;
    Py_ssize_t ipiece, inew, icap = 0, ipt = 0, zn = 0, zm = 0, size;
    PyObject *hand = NULL, *entry, *key, *count, *value;
    uint64_t h;

    if (need_zobrist(st) < 0)
        return NULL;
    code = PyLong_AsLongLong(code_obj);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    if (live_load(st, self, &s, 1) < 0)
        return NULL;
    to = (int)(code & 127);
    frm = (int)(code >> 7 & 127);
    promote = (code >> 14) != 0;
    color = s.turn;
    h = s.key;
    if (to >= 81)
        return PyErr_Format(PyExc_IndexError, "tuple index out of range");
    if (frm >= 81) {
        /* A drop: every check first, then the changes, in the Python method's order. */
        if (py_index(frm - 81, 8, &ipt) < 0 || (hand = hand_of(&s, color)) == NULL || int_at(hand, ipt, &n) < 0
            || py_index(n, ZOBRIST_HAND, &zn) < 0 || py_index((long long)n - 1, ZOBRIST_HAND, &zm) < 0
            || int_at(s.board, to, &captured) < 0)
            return NULL;
        captured = 0; /* (board[to] was read only to check that it is an int) */
        piece = (long)ipt | color << 4;
        if (set_int(s.board, to, piece) < 0 || apply_bits(st, s.bb, piece, st->bit_obj[to], OR) < 0
            || apply_bits(st, s.occ, color, st->bit_obj[to], OR) < 0 || set_int(hand, ipt, n - 1) < 0)
            return NULL;
        h ^= st->z_sq[piece][to] ^ st->z_hand[color][ipt][zn] ^ st->z_hand[color][ipt][zm];
    } else {
        if (int_at(s.board, frm, &piece) < 0 || int_at(s.board, to, &captured) < 0
            || py_index(piece, 32, &ipiece) < 0)
            return NULL;
        moved = promote ? piece + 8 : piece;
        if (py_index(moved, 32, &inew) < 0)
            return NULL;
        if (captured) {
            if (py_index(captured, 32, &icap) < 0 || (hand = hand_of(&s, color)) == NULL
                || py_index(hand_type(captured), 8, &ipt) < 0 || int_at(hand, ipt, &n) < 0
                || py_index(n, ZOBRIST_HAND, &zn) < 0 || py_index((long long)n + 1, ZOBRIST_HAND, &zm) < 0)
                return NULL;
            if (apply_bits(st, s.bb, icap, st->bit_obj[to], XOR) < 0
                || apply_bits(st, s.occ, color ^ 1, st->bit_obj[to], XOR) < 0 || set_int(hand, ipt, n + 1) < 0)
                return NULL;
            h ^= st->z_sq[icap][to] ^ st->z_hand[color][ipt][zn] ^ st->z_hand[color][ipt][zm];
        }
        if (set_int(s.board, frm, 0) < 0 || set_int(s.board, to, moved) < 0
            || apply_bits(st, s.bb, ipiece, st->bit_obj[frm], XOR) < 0 || apply_bits(st, s.bb, inew, st->bit_obj[to], OR) < 0)
            return NULL;
        value = pair_bits(st, frm, to);
        if (value == NULL || apply_bits(st, s.occ, color, value, XOR) < 0)
            return NULL;
        h ^= st->z_sq[ipiece][frm] ^ st->z_sq[inew][to];
        if ((piece & 15) == 8 && set_int(s.kings, color, to) < 0)
            return NULL;
    }
    /* self._stack.append((code, captured, self._hash)) */
    entry = PyTuple_New(3);
    if (entry == NULL)
        return NULL;
    Py_INCREF(code_obj);
    PyTuple_SET_ITEM(entry, 0, code_obj);
    value = PyLong_FromLong(captured);
    if (value == NULL) {
        Py_DECREF(entry);
        return NULL;
    }
    PyTuple_SET_ITEM(entry, 1, value);
    Py_INCREF(s.hash);
    PyTuple_SET_ITEM(entry, 2, s.hash);
    if (PyList_Append(s.stack, entry) < 0) {
        Py_DECREF(entry);
        return NULL;
    }
    Py_DECREF(entry);
    h ^= st->z_white;
    key = PyLong_FromUnsignedLongLong(h);
    value = PyLong_FromLong(color ^ 1);
    if (key == NULL || value == NULL) {
        Py_XDECREF(key);
        Py_XDECREF(value);
        return NULL;
    }
    set_field(&p->hash, key); /* the field owns key; s.hash lives on in the entry */
    set_field(&p->turn, value);
    /* rep[h] = rep.get(h, 0) + 1: a new key is the usual case, inserted with one lookup */
    size = PyDict_GET_SIZE(s.rep);
    value = PyLong_FromLong(1);
    if (value == NULL)
        return NULL;
    count = PyDict_SetDefault(s.rep, key, value); /* borrowed */
    Py_DECREF(value);
    if (count == NULL)
        return NULL;
    if (PyDict_GET_SIZE(s.rep) != size)
        Py_RETURN_NONE;
    if (!PyLong_CheckExact(count) || ((n = PyLong_AsLong(count)) == -1 && PyErr_Occurred())) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "position _rep counts must be ints");
        return NULL;
    }
    value = PyLong_FromLong(n + 1);
    if (value == NULL || PyDict_SetItem(s.rep, key, value) < 0) {
        Py_XDECREF(value);
        return NULL;
    }
    Py_DECREF(value);
    Py_RETURN_NONE;
}

/* Position._pop: returns the code (a new reference). */
static PyObject *pop_code(PyObject *self, ModuleState *st)
{
    PositionState *p = (PositionState *)self;
    Live s;
    Py_ssize_t size, ipiece, iold = 0, icap = 0, ipt = 0;
    PyObject *entry, *code_obj, *captured_obj, *prev, *count, *hand = NULL, *value, *key;
    long long code;
    long captured, piece, old = 0, n = 0, left, replaced;
    int to, frm, color, promote;

    if (live_load(st, self, &s, 0) < 0)
        return NULL;
    size = PyList_GET_SIZE(s.stack);
    if (size == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty list");
        return NULL;
    }
    entry = PyList_GET_ITEM(s.stack, size - 1);
    if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 3) {
        PyErr_SetString(PyExc_TypeError, "position _stack entries must be (code, captured, key) tuples");
        return NULL;
    }
    code_obj = PyTuple_GET_ITEM(entry, 0);
    captured_obj = PyTuple_GET_ITEM(entry, 1);
    prev = PyTuple_GET_ITEM(entry, 2);
    if (!PyLong_CheckExact(code_obj) || !PyLong_CheckExact(captured_obj)) {
        PyErr_SetString(PyExc_TypeError, "position _stack entries must hold int codes");
        return NULL;
    }
    code = PyLong_AsLongLong(code_obj);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    captured = PyLong_AsLong(captured_obj);
    if (captured == -1 && PyErr_Occurred())
        return NULL;
    count = PyDict_GetItemWithError(s.rep, s.hash);
    if (count == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, s.hash);
        return NULL;
    }
    if (!PyLong_CheckExact(count) || ((left = PyLong_AsLong(count)) == -1 && PyErr_Occurred())) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "position _rep counts must be ints");
        return NULL;
    }
    left--;
    color = s.turn ^ 1;
    to = (int)(code & 127);
    frm = (int)(code >> 7 & 127);
    promote = (code >> 14) != 0;
    if (to >= 81)
        return PyErr_Format(PyExc_IndexError, "tuple index out of range");
    if (int_at(s.board, to, &piece) < 0 || py_index(piece, 32, &ipiece) < 0)
        return NULL;
    if (frm >= 81) {
        if ((hand = hand_of(&s, color)) == NULL || py_index(frm - 81, 8, &ipt) < 0 || int_at(hand, ipt, &n) < 0)
            return NULL;
    } else {
        old = promote ? piece - 8 : piece;
        if (py_index(old, 32, &iold) < 0 || int_at(s.board, frm, &replaced) < 0)
            return NULL;
        if (captured
            && (py_index(captured, 32, &icap) < 0 || (hand = hand_of(&s, color)) == NULL
                || py_index(hand_type(captured), 8, &ipt) < 0 || int_at(hand, ipt, &n) < 0))
            return NULL;
    }

    /* Checked: now the changes.  The entry (with the code and key it holds) and the current key
     * outlive the list item and the field they leave. */
    Py_INCREF(entry);
    key = s.hash;
    Py_INCREF(key);
    if (PyList_SetSlice(s.stack, size - 1, size, NULL) < 0)
        goto fail;
    if (left) {
        value = PyLong_FromLong(left);
        if (value == NULL || PyDict_SetItem(s.rep, key, value) < 0) {
            Py_XDECREF(value);
            goto fail;
        }
        Py_DECREF(value);
    } else if (PyDict_DelItem(s.rep, key) < 0) {
        goto fail;
    }
    value = PyLong_FromLong(color);
    if (value == NULL)
        goto fail;
    Py_INCREF(prev);
    set_field(&p->hash, prev);
    set_field(&p->turn, value);
    if (frm >= 81) {
        if (set_int(s.board, to, 0) < 0 || apply_bits(st, s.bb, ipiece, st->bit_obj[to], XOR) < 0
            || apply_bits(st, s.occ, color, st->bit_obj[to], XOR) < 0 || set_int(hand, ipt, n + 1) < 0)
            goto fail;
    } else {
        if (set_int(s.board, frm, old) < 0 || apply_bits(st, s.bb, ipiece, st->bit_obj[to], XOR) < 0
            || apply_bits(st, s.bb, iold, st->bit_obj[frm], OR) < 0)
            goto fail;
        value = pair_bits(st, frm, to);
        if (value == NULL || apply_bits(st, s.occ, color, value, XOR) < 0)
            goto fail;
        if (captured) {
            Py_INCREF(captured_obj);
            if (PyList_SetItem(s.board, to, captured_obj) < 0 || apply_bits(st, s.bb, icap, st->bit_obj[to], OR) < 0
                || apply_bits(st, s.occ, color ^ 1, st->bit_obj[to], OR) < 0 || set_int(hand, ipt, n - 1) < 0)
                goto fail;
        } else if (set_int(s.board, to, 0) < 0) {
            goto fail;
        }
        if ((old & 15) == 8 && set_int(s.kings, color, frm) < 0)
            goto fail;
    }
    Py_INCREF(code_obj);
    Py_DECREF(key);
    Py_DECREF(entry);
    return code_obj;
fail:
    Py_DECREF(key);
    Py_DECREF(entry);
    return NULL;
}

/* -- the methods ----------------------------------------------------------------------------- */

/* PositionState._push(code) */
static PyObject *position_push(PyObject *self, PyObject *code)
{
    ModuleState *st = object_state(self);
    return st == NULL ? NULL : push_code(self, st, code);
}

/* PositionState._pop() */
static PyObject *position_pop(PyObject *self, PyObject *unused)
{
    ModuleState *st = object_state(self);
    (void)unused;
    return st == NULL ? NULL : pop_code(self, st);
}

/* The code of a Move (a new reference): for a Move itself, straight through the class's `code`
 * descriptor (what attribute access does for a data descriptor, without the lookup). */
static PyObject *move_code(ModuleState *st, PyObject *move)
{
    if (Py_IS_TYPE(move, st->move_type) && st->code_get != NULL)
        return st->code_get(st->code_descr, move, (PyObject *)st->move_type);
    return PyObject_GetAttr(move, st->str_code);
}

static int need_moves(const ModuleState *st)
{
    if (st->moves != NULL)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "shogiban._speedups: set_moves() was not called");
    return -1;
}

/* BoardState.push(move): self._push(move.code).  Called as push(move) or push(move=move), like the
 * Python one. */
static PyObject *board_push(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    ModuleState *st = object_state(self);
    PyObject *move, *code, *result;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (st == NULL)
        return NULL;
    if (nargs + nkw != 1
        || (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "move") != 0)) {
        PyErr_SetString(PyExc_TypeError, "push() takes exactly one argument: move");
        return NULL;
    }
    move = args[0];
    if (need_moves(st) < 0 || (code = move_code(st, move)) == NULL)
        return NULL;
    result = push_code(self, st, code);
    Py_DECREF(code);
    return result;
}

/* BoardState.pop(): the Python method when a game end is recorded, else MOVES[self._pop()]. */
static PyObject *board_pop(PyObject *self, PyObject *unused)
{
    ModuleState *st = object_state(self);
    PyObject *ending = ((BoardState *)self)->ending, *code, *move;
    (void)unused;
    if (st == NULL || need_moves(st) < 0)
        return NULL;
    if (ending == NULL) {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '_ending'", Py_TYPE(self)->tp_name);
        return NULL;
    }
    if (ending != Py_None)
        return PyObject_CallOneArg(st->python_pop, self);
    code = pop_code(self, st);
    if (code == NULL)
        return NULL;
    if (PyList_CheckExact(st->moves)) {
        /* MOVES[code], as list indexing does it */
        long long i = PyLong_AsLongLong(code);
        Py_ssize_t at;
        Py_DECREF(code);
        if ((i == -1 && PyErr_Occurred()) || py_index(i, PyList_GET_SIZE(st->moves), &at) < 0)
            return NULL;
        move = PyList_GET_ITEM(st->moves, at);
        Py_INCREF(move);
        return move;
    }
    move = PyObject_GetItem(st->moves, code);
    Py_DECREF(code);
    return move;
}

PyMethodDef position_methods[] = {
    {"_push", position_push, METH_O,
     PyDoc_STR("_push($self, code, /)\n--\n\nPlay the move *code*, trusted to be legal (or at least possible).")},
    {"_pop", position_pop, METH_NOARGS, PyDoc_STR("_pop($self, /)\n--\n\nUndo the last move and return its code.")},
    {NULL, NULL, 0, NULL},
};

PyMethodDef board_methods[] = {
    {"push", (PyCFunction)(void (*)(void))board_push, METH_FASTCALL | METH_KEYWORDS,
     PyDoc_STR("push($self, /, move)\n--\n\n"
               "Play *move* without checking it (fast); use :meth:`push_legal` or :meth:`push_usi` to validate.")},
    {"pop", board_pop, METH_NOARGS,
     PyDoc_STR("pop($self, /)\n--\n\n"
               "Undo the last move and return it.  A recorded illegal move, declaration or impasse\n"
               "settlement made after the last move is withdrawn first (an illegal move is returned alone).\n\n"
               ":raises IndexError: if there is nothing to undo.")},
    {NULL, NULL, 0, NULL},
};

/* -- methods_for, set_zobrist, set_moves ---------------------------------------------------- */

/* Add a method descriptor of `type` for each of `defs` to `result`. */
static int add_descriptors(PyObject *result, PyTypeObject *type, PyMethodDef *defs)
{
    for (; defs->ml_name != NULL; defs++) {
        PyObject *descr = PyDescr_NewMethod(type, defs);
        if (descr == NULL || PyDict_SetItemString(result, defs->ml_name, descr) < 0) {
            Py_XDECREF(descr);
            return -1;
        }
        Py_DECREF(descr);
    }
    return 0;
}

const char methods_for_doc[] = PyDoc_STR(
    "methods_for(cls, /)\n--\n\n"
    "The compiled methods as method descriptors of *cls*, a subclass of PositionState: {'_push', '_pop'},\n"
    "and {'push', 'pop'} too for a subclass of BoardState.  (CPython calls a method straight from\n"
    "its specialised bytecode only when the instance's type is the descriptor's own class, so the\n"
    "classes get descriptors of their own rather than inheriting the base types' ones.)");

PyObject *methods_for(PyObject *module, PyObject *cls)
{
    ModuleState *st = module_state(module);
    PyObject *result;
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, st->position_type)) {
        PyErr_SetString(PyExc_TypeError, "methods_for() needs a subclass of PositionState");
        return NULL;
    }
    if ((result = PyDict_New()) == NULL)
        return NULL;
    if (add_descriptors(result, (PyTypeObject *)cls, position_methods) < 0
        || (PyType_IsSubtype((PyTypeObject *)cls, st->board_type)
            && add_descriptors(result, (PyTypeObject *)cls, board_methods) < 0)) {
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

/* -- set_zobrist, set_moves ------------------------------------------------------------------ */

static int load_u64(PyObject *obj, uint64_t *out)
{
    *out = PyLong_AsUnsignedLongLong(obj);
    return *out == (uint64_t)-1 && PyErr_Occurred() ? -1 : 0;
}

/* table[i] as a tuple of exactly `size` items (a new reference), or NULL with an exception. */
static PyObject *tuple_item(PyObject *table, Py_ssize_t i, Py_ssize_t size)
{
    PyObject *item = PySequence_GetItem(table, i);
    if (item != NULL && (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != size)) {
        PyErr_Format(PyExc_ValueError, "zobrist table row must be a tuple of %zd ints", size);
        Py_CLEAR(item);
    }
    return item;
}

/* Read the tables into `z_sq`, `z_hand`, `z_white`. */
static int load_zobrist(PyObject *piece_square, PyObject *hand, PyObject *white, uint64_t z_sq[32][81],
                        uint64_t z_hand[2][8][ZOBRIST_HAND], uint64_t *z_white)
{
    int code, sq, c, pt, n;
    for (code = 0; code < 32; code++) {
        PyObject *row = tuple_item(piece_square, code, 81);
        if (row == NULL)
            return -1;
        for (sq = 0; sq < 81; sq++) {
            if (load_u64(PyTuple_GET_ITEM(row, sq), &z_sq[code][sq]) < 0) {
                Py_DECREF(row);
                return -1;
            }
        }
        Py_DECREF(row);
    }
    for (c = 0; c < 2; c++) {
        PyObject *side = tuple_item(hand, c, 8);
        if (side == NULL)
            return -1;
        for (pt = 0; pt < 8; pt++) {
            PyObject *row = PyTuple_GET_ITEM(side, pt);
            if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != ZOBRIST_HAND) {
                PyErr_Format(PyExc_ValueError, "zobrist hand rows must hold %d keys (MAX_HAND + 1)", ZOBRIST_HAND);
                Py_DECREF(side);
                return -1;
            }
            for (n = 0; n < ZOBRIST_HAND; n++) {
                if (load_u64(PyTuple_GET_ITEM(row, n), &z_hand[c][pt][n]) < 0) {
                    Py_DECREF(side);
                    return -1;
                }
            }
        }
        Py_DECREF(side);
    }
    return load_u64(white, z_white);
}

const char set_zobrist_doc[] = PyDoc_STR(
    "set_zobrist(piece_square, hand, white_to_move, /)\n--\n\n"
    "Take shogiban.zobrist's tables (kept as C integers from now on): push, pop and set_sfen\n"
    "need them.");

PyObject *set_zobrist(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ModuleState *st = module_state(module);
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "set_zobrist(piece_square, hand, white_to_move)");
        return NULL;
    }
    /* Until the tables are whole again, push, pop and set_sfen refuse to run. */
    st->zobrist_ready = 0;
    if (load_zobrist(args[0], args[1], args[2], st->z_sq, st->z_hand, &st->z_white) < 0)
        return NULL;
    st->zobrist_ready = 1;
    Py_RETURN_NONE;
}

const char set_moves_doc[] = PyDoc_STR(
    "set_moves(move_class, moves, python_pop, /)\n--\n\n"
    "Take shogiban.move.Move, shogiban.move.MOVES (code -> Move) and the Python Board.pop (called\n"
    "when a game end is recorded): Board.push and Board.pop need them.");

PyObject *set_moves(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ModuleState *st = module_state(module);
    PyObject *descr;
    if (nargs != 3 || !PyType_Check(args[0]) || !PyCallable_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "set_moves(move_class, moves, python_pop)");
        return NULL;
    }
    /* Move.code on the class is its descriptor; a data descriptor (a slot) wins over anything an
     * instance could hold, so calling its __get__ is what move.code does.  Else: getattr. */
    if ((descr = PyObject_GetAttr(args[0], st->str_code)) == NULL)
        return NULL;
    st->code_get = NULL;
    set_field(&st->code_descr, descr);
    if (PyType_GetSlot(Py_TYPE(descr), Py_tp_descr_set) != NULL)
        st->code_get = (descrgetfunc)PyType_GetSlot(Py_TYPE(descr), Py_tp_descr_get);
    Py_INCREF(args[0]);
    set_field((PyObject **)&st->move_type, args[0]);
    Py_INCREF(args[1]);
    set_field(&st->moves, args[1]);
    Py_INCREF(args[2]);
    set_field(&st->python_pop, args[2]);
    Py_RETURN_NONE;
}
