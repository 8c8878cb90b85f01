/*
 * shogiban._speedups, push and pop: Position._push/_pop and Board.push/pop edit the Python state
 * in place (slots, bitboard ints, Zobrist key, repetition counts); bind_position, bind_board.
 *
 * Push and pop (bind_position, bind_board) are method descriptors put on Position and Board in
 * place of the Python methods; they edit the Python state (lists of ints, 81-bit Python-int
 * bitboards, the Zobrist key, the move stack and the repetition counts) in place, the same way.
 */

#include "pushpop.h"

/* -- Python ints and lists ------------------------------------------------------------------- */

/* The 81-bit bitboard as the Python int the pure-Python code uses (bit i = square i). */
PyObject *bb_to_long(BB a)
{
    unsigned char bytes[16];
    uint64_t low = a.lo | a.hi << 63, high = a.hi >> 1;
    int i;
    if (!a.hi)
        return PyLong_FromUnsignedLongLong(a.lo);
    for (i = 0; i < 8; i++) {
        bytes[i] = (unsigned char)(low >> (8 * i));
        bytes[8 + i] = (unsigned char)(high >> (8 * i));
    }
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(bytes, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(bytes, 16, 1, 0);
#endif
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

/* -- the live state of a Position: slots read and written in place ---------------------------
 *
 * Position._push and _pop (and Board.push / Board.pop) change the Python objects exactly as the
 * Python methods do, because the engine, the tsume solver and the rules read those attributes
 * directly.  The slots are reached at their offsets, which bind_position takes once from the
 * member descriptors that __slots__ creates (this is what CPython's own slot access does, without
 * an attribute lookup per field).  Every index is checked before anything changes: where the
 * Python method would fail half-way (a king captured, an index out of range) this one raises
 * the same exception type before touching the state.  Every value that an update replaces is
 * checked to be an exact int first, so no Python code (a finaliser) can run and change the lists
 * while an update is in progress.
 */

static const char *const SLOT_NAMES[S_COUNT] = {"_board", "_bb",    "_occ",  "_kings", "_hands",
                                                "_turn",  "_stack", "_hash", "_rep"};
Py_ssize_t slot_offset[S_COUNT];
static Py_ssize_t ending_offset;     /* Board._ending */
PyTypeObject *position_type;         /* set by bind_position */
static PyObject *moves_table;        /* shogiban.move.MOVES, set by bind_board */
static PyObject *board_pop_fallback; /* the Python Board.pop, for a recorded game end */
static PyTypeObject *move_type;      /* shogiban.move.Move, and the offset of its code slot */
static Py_ssize_t code_offset;
PyObject *str_code;

uint64_t Z_SQ[32][81];
uint64_t Z_HAND[2][8][ZOBRIST_HAND];
uint64_t Z_WHITE;
static PyObject *BIT_OBJ[81];       /* 1 << sq as Python ints */
static PyObject *PAIR_OBJ[81 * 81]; /* BIT[a] | BIT[b], made on first use */

/* The value of slot `i` (borrowed), or NULL with AttributeError when it was never set. */
static inline PyObject *slot(PyObject *obj, int i)
{
    PyObject *value = *SLOT_PTR(obj, slot_offset[i]);
    if (value == NULL)
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%s'", Py_TYPE(obj)->tp_name,
                     SLOT_NAMES[i]);
    return value;
}

static PyObject *pair_bits(int a, int b)
{
    PyObject **cell = &PAIR_OBJ[a * 81 + b];
    if (*cell == NULL)
        *cell = PyNumber_Or(BIT_OBJ[a], BIT_OBJ[b]); /* the table keeps this reference */
    return *cell;
}

/* The repetition counts _rep are keyed by Zobrist keys (ints in 0 .. 2**64 - 1).  Up to Python 3.12
 * the dict calls take the key's hash, computed here as int's hash is (the value modulo the
 * Mersenne prime 2**_PyHASH_BITS - 1), instead of hashing the same int twice per update. */
#if PY_VERSION_HEX < 0x030D0000
static inline Py_hash_t key_hash(uint64_t key)
{
    const uint64_t modulus = ((uint64_t)1 << _PyHASH_BITS) - 1;
    while (key > modulus)
        key = (key & modulus) + (key >> _PyHASH_BITS);
    return (Py_hash_t)(key == modulus ? 0 : key);
}
#define REP_GET(rep, obj, key) _PyDict_GetItem_KnownHash(rep, obj, key_hash(key))
#define REP_SET(rep, obj, key, value) _PyDict_SetItem_KnownHash(rep, obj, value, key_hash(key))
#define REP_DEL(rep, obj, key) _PyDict_DelItem_KnownHash(rep, obj, key_hash(key))
#else
#define REP_GET(rep, obj, key) PyDict_GetItemWithError(rep, obj)
#define REP_SET(rep, obj, key, value) PyDict_SetItem(rep, obj, value)
#define REP_DEL(rep, obj, key) PyDict_DelItem(rep, obj)
#endif

typedef struct {
    PyObject *board, *bb, *occ, *kings, *hands, *stack, *rep, *hash; /* borrowed */
    int turn;
    uint64_t key;
} Live;

/* A Zobrist key (an int in 0 .. 2**64 - 1) as a C integer; -1 with OverflowError outside.
 * (PyLong_AsUnsignedLongLong goes through a generic byte conversion in 3.11 and 3.12.) */
static inline int read_key(PyObject *obj, uint64_t *out)
{
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(obj, out, 8,
                                           Py_ASNATIVEBYTES_NATIVE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                                               | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0)
        return -1;
    if (need > 8) {
        PyErr_SetString(PyExc_OverflowError, "position _hash does not fit in 64 bits");
        return -1;
    }
    return 0;
#else
    if (_PyLong_Sign(obj) < 0 || _PyLong_NumBits(obj) > 64) {
        PyErr_SetString(PyExc_OverflowError, "position _hash must be an int in 0 .. 2**64 - 1");
        return -1;
    }
    *out = PyLong_AsUnsignedLongLongMask(obj);
    return 0;
#endif
}

static int check_list(PyObject *value, Py_ssize_t size, int i)
{
    if (PyList_CheckExact(value) && (size < 0 || PyList_GET_SIZE(value) == size))
        return 0;
    PyErr_Format(PyExc_TypeError, "position %s must be a list of %zd items, not %.100s", SLOT_NAMES[i], size,
                 Py_TYPE(value)->tp_name);
    return -1;
}

/* Why live_load refused the position: the exception for its first bad field. */
static int live_error(PyObject *self)
{
    static const Py_ssize_t sizes[S_COUNT] = {81, 32, 2, 2, 2, 0, -1, 0, 0};
    PyObject *value;
    int i;
    for (i = 0; i < S_COUNT; i++) {
        if ((value = slot(self, i)) == NULL)
            return -1;
        if (i <= S_STACK && i != S_TURN && check_list(value, sizes[i], i) < 0)
            return -1;
        if (i == S_REP && !PyDict_CheckExact(value)) {
            PyErr_Format(PyExc_TypeError, "position _rep must be a dict, not %.100s", Py_TYPE(value)->tp_name);
            return -1;
        }
        if (i == S_KINGS && !(PyLong_CheckExact(PyList_GET_ITEM(value, 0)) && PyLong_CheckExact(PyList_GET_ITEM(value, 1)))) {
            PyErr_SetString(PyExc_TypeError, "position _kings must hold two ints");
            return -1;
        }
        if ((i == S_HASH || i == S_TURN) && !PyLong_CheckExact(value)) {
            PyErr_Format(PyExc_TypeError, "position %s must be an int, not %.100s", SLOT_NAMES[i],
                         Py_TYPE(value)->tp_name);
            return -1;
        }
    }
    PyErr_SetString(PyExc_ValueError, "position _turn must be 0 or 1");
    return -1;
}

#define LIST_OF(obj, size) ((obj) != NULL && PyList_CheckExact(obj) && PyList_GET_SIZE(obj) == (size))

/* The fields of `self` (borrowed), checked to have the types and sizes the Python code gives them. */
static inline int live_load(PyObject *self, Live *s)
{
    PyObject *turn = *SLOT_PTR(self, slot_offset[S_TURN]);
    s->board = *SLOT_PTR(self, slot_offset[S_BOARD]);
    s->bb = *SLOT_PTR(self, slot_offset[S_BB]);
    s->occ = *SLOT_PTR(self, slot_offset[S_OCC]);
    s->kings = *SLOT_PTR(self, slot_offset[S_KINGS]);
    s->hands = *SLOT_PTR(self, slot_offset[S_HANDS]);
    s->stack = *SLOT_PTR(self, slot_offset[S_STACK]);
    s->hash = *SLOT_PTR(self, slot_offset[S_HASH]);
    s->rep = *SLOT_PTR(self, slot_offset[S_REP]);
    if (!(LIST_OF(s->board, 81) && LIST_OF(s->bb, 32) && LIST_OF(s->occ, 2) && LIST_OF(s->kings, 2)
          && LIST_OF(s->hands, 2) && s->stack != NULL && PyList_CheckExact(s->stack) && s->rep != NULL
          && PyDict_CheckExact(s->rep) && s->hash != NULL && PyLong_CheckExact(s->hash) && turn != NULL
          && PyLong_CheckExact(turn) && PyLong_CheckExact(PyList_GET_ITEM(s->kings, 0))
          && PyLong_CheckExact(PyList_GET_ITEM(s->kings, 1))))
        return live_error(self);
    s->turn = (int)PyLong_AsLong(turn);
    if (s->turn != 0 && s->turn != 1)
        return live_error(self);
    return read_key(s->hash, &s->key);
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
    if (check_list(hand, 8, S_HANDS) < 0)
        return NULL;
    return hand;
}

static inline int set_int(PyObject *list, Py_ssize_t i, long value)
{
    PyObject *item = PyLong_FromLong(value);
    if (item == NULL)
        return -1;
    return PyList_SetItem(list, i, item);
}

/* list[i] |= bits (or ^= bits). */
static inline int apply_bits(PyObject *list, Py_ssize_t i, PyObject *bits, int use_or)
{
    PyObject *old = PyList_GET_ITEM(list, i), *value;
    if (!PyLong_CheckExact(old)) {
        PyErr_SetString(PyExc_TypeError, "position bitboards must be ints");
        return -1;
    }
    /* Both are exact ints: int's own slots, without the generic dispatch. */
    value = use_or ? PyLong_Type.tp_as_number->nb_or(old, bits) : PyLong_Type.tp_as_number->nb_xor(old, bits);
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

/* Position._push. */
static PyObject *push_code(PyObject *self, PyObject *code_obj)
{
    Live s;
    long long code;
    int to, frm, color, promote;
    long piece, captured = 0, n, moved;
    Py_ssize_t ipiece, inew, icap = 0, ipt = 0, zn = 0, zm = 0;
    PyObject *hand = NULL, *entry, *key, *count, *value;
    uint64_t h;

    code = PyLong_AsLongLong(code_obj);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    if (live_load(self, &s) < 0)
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
        if (set_int(s.board, to, piece) < 0 || apply_bits(s.bb, piece, BIT_OBJ[to], OR) < 0
            || apply_bits(s.occ, color, BIT_OBJ[to], OR) < 0 || set_int(hand, ipt, n - 1) < 0)
            return NULL;
        h ^= Z_SQ[piece][to] ^ Z_HAND[color][ipt][zn] ^ Z_HAND[color][ipt][zm];
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
            if (apply_bits(s.bb, icap, BIT_OBJ[to], XOR) < 0 || apply_bits(s.occ, color ^ 1, BIT_OBJ[to], XOR) < 0
                || set_int(hand, ipt, n + 1) < 0)
                return NULL;
            h ^= Z_SQ[icap][to] ^ Z_HAND[color][ipt][zn] ^ Z_HAND[color][ipt][zm];
        }
        if (set_int(s.board, frm, 0) < 0 || set_int(s.board, to, moved) < 0
            || apply_bits(s.bb, ipiece, BIT_OBJ[frm], XOR) < 0 || apply_bits(s.bb, inew, BIT_OBJ[to], OR) < 0)
            return NULL;
        value = pair_bits(frm, to);
        if (value == NULL || apply_bits(s.occ, color, value, XOR) < 0)
            return NULL;
        h ^= Z_SQ[ipiece][frm] ^ Z_SQ[inew][to];
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
    h ^= Z_WHITE;
    key = PyLong_FromUnsignedLongLong(h);
    value = PyLong_FromLong(color ^ 1);
    if (key == NULL || value == NULL) {
        Py_XDECREF(key);
        Py_XDECREF(value);
        return NULL;
    }
    set_slot(self, slot_offset[S_HASH], key); /* the slot owns key; s.hash lives on in the entry */
    set_slot(self, slot_offset[S_TURN], value);
    /* rep[h] = rep.get(h, 0) + 1 */
    count = REP_GET(s.rep, key, h);
    n = 0;
    if (count == NULL) {
        if (PyErr_Occurred())
            return NULL;
    } else if (!PyLong_CheckExact(count) || ((n = PyLong_AsLong(count)) == -1 && PyErr_Occurred())) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "position _rep counts must be ints");
        return NULL;
    }
    value = PyLong_FromLong(n + 1);
    if (value == NULL || REP_SET(s.rep, key, h, value) < 0) {
        Py_XDECREF(value);
        return NULL;
    }
    Py_DECREF(value);
    Py_RETURN_NONE;
}

/* Position._pop: returns the code (a new reference). */
static PyObject *pop_code(PyObject *self)
{
    Live s;
    Py_ssize_t size, ipiece, iold = 0, icap = 0, ipt = 0;
    PyObject *entry, *code_obj, *captured_obj, *prev, *count, *hand = NULL, *value;
    long long code;
    long captured, piece, old = 0, n = 0, left, replaced;
    int to, frm, color, promote;

    if (live_load(self, &s) < 0)
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
    count = REP_GET(s.rep, s.hash, s.key);
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

    /* Checked: now the changes.  The entry and the key it holds outlive the list and the slot. */
    Py_INCREF(entry);
    if (((PyListObject *)s.stack)->allocated > size >> 1) {
        /* list.pop() without the call; the list keeps its room (as when it shrinks by one). */
        Py_SET_SIZE(s.stack, size - 1);
        Py_DECREF(entry); /* the list's reference: ours keeps it alive */
    } else if (PyList_SetSlice(s.stack, size - 1, size, NULL) < 0) {
        goto fail;
    }
    if (left) {
        value = PyLong_FromLong(left);
        if (value == NULL || REP_SET(s.rep, s.hash, s.key, value) < 0) {
            Py_XDECREF(value);
            goto fail;
        }
        Py_DECREF(value);
    } else if (REP_DEL(s.rep, s.hash, s.key) < 0) {
        goto fail;
    }
    value = PyLong_FromLong(color);
    if (value == NULL)
        goto fail;
    Py_INCREF(prev);
    set_slot(self, slot_offset[S_HASH], prev);
    set_slot(self, slot_offset[S_TURN], value);
    if (frm >= 81) {
        if (set_int(s.board, to, 0) < 0 || apply_bits(s.bb, ipiece, BIT_OBJ[to], XOR) < 0
            || apply_bits(s.occ, color, BIT_OBJ[to], XOR) < 0 || set_int(hand, ipt, n + 1) < 0)
            goto fail;
    } else {
        if (set_int(s.board, frm, old) < 0 || apply_bits(s.bb, ipiece, BIT_OBJ[to], XOR) < 0
            || apply_bits(s.bb, iold, BIT_OBJ[frm], OR) < 0)
            goto fail;
        value = pair_bits(frm, to);
        if (value == NULL || apply_bits(s.occ, color, value, XOR) < 0)
            goto fail;
        if (captured) {
            Py_INCREF(captured_obj);
            if (PyList_SetItem(s.board, to, captured_obj) < 0 || apply_bits(s.bb, icap, BIT_OBJ[to], OR) < 0
                || apply_bits(s.occ, color ^ 1, BIT_OBJ[to], OR) < 0 || set_int(hand, ipt, n - 1) < 0)
                goto fail;
        } else if (set_int(s.board, to, 0) < 0) {
            goto fail;
        }
        if ((old & 15) == 8 && set_int(s.kings, color, frm) < 0)
            goto fail;
    }
    Py_INCREF(code_obj);
    Py_DECREF(entry);
    return code_obj;
fail:
    Py_DECREF(entry);
    return NULL;
}

static PyObject *py_pop(PyObject *self, PyObject *unused)
{
    (void)unused;
    return pop_code(self);
}

/* Board.push: self._push(move.code).  Called as push(move) or push(move=move), like the Python one. */
static PyObject *board_push(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *code, *result, *move;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs + nkw != 1
        || (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "move") != 0)) {
        PyErr_SetString(PyExc_TypeError, "push() takes exactly one argument: move");
        return NULL;
    }
    move = args[0];
    if (Py_IS_TYPE(move, move_type) && (code = *SLOT_PTR(move, code_offset)) != NULL)
        Py_INCREF(code); /* a Move: its one slot */
    else if ((code = PyObject_GetAttr(move, str_code)) == NULL)
        return NULL;
    result = push_code(self, code);
    Py_DECREF(code);
    return result;
}

/* Board.pop: the Python method when a game end is recorded, else MOVES[self._pop()]. */
static PyObject *board_pop(PyObject *self, PyObject *unused)
{
    PyObject *ending = *SLOT_PTR(self, ending_offset), *code, *move;
    (void)unused;
    if (ending == NULL) {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '_ending'", Py_TYPE(self)->tp_name);
        return NULL;
    }
    if (ending != Py_None)
        return PyObject_CallOneArg(board_pop_fallback, self);
    code = pop_code(self);
    if (code == NULL)
        return NULL;
    if (PyList_CheckExact(moves_table)) {
        /* MOVES[code], as list indexing does it */
        long long i = PyLong_AsLongLong(code);
        Py_ssize_t at;
        Py_DECREF(code);
        if ((i == -1 && PyErr_Occurred()) || py_index(i, PyList_GET_SIZE(moves_table), &at) < 0)
            return NULL;
        move = PyList_GET_ITEM(moves_table, at);
        Py_INCREF(move);
        return move;
    }
    move = PyObject_GetItem(moves_table, code);
    Py_DECREF(code);
    return move;
}

PyDoc_STRVAR(push_doc, "_push($self, code, /)\n--\n\nPlay the move *code*, trusted to be legal (or at least possible).");
PyDoc_STRVAR(pop_doc, "_pop($self, /)\n--\n\nUndo the last move and return its code.");
PyDoc_STRVAR(board_push_doc,
             "push($self, /, move)\n--\n\n"
             "Play *move* without checking it (fast); use :meth:`push_legal` or :meth:`push_usi` to validate.");
PyDoc_STRVAR(board_pop_doc,
             "pop($self, /)\n--\n\n"
             "Undo the last move and return it.  A recorded illegal move, declaration or impasse\n"
             "settlement made after the last move is withdrawn first (an illegal move is returned alone).\n\n"
             ":raises IndexError: if there is nothing to undo.");

static PyMethodDef position_methods[] = {
    {"_push", push_code, METH_O, push_doc},
    {"_pop", py_pop, METH_NOARGS, pop_doc},
};
static PyMethodDef board_methods[] = {
    {"push", (PyCFunction)(void (*)(void))board_push, METH_FASTCALL | METH_KEYWORDS, board_push_doc},
    {"pop", board_pop, METH_NOARGS, board_pop_doc},
};

/* A dict of method descriptors of `type` for `defs`: class attributes that bind like methods. */
static PyObject *descriptors(PyTypeObject *type, PyMethodDef *defs, int n)
{
    PyObject *result = PyDict_New();
    int i;
    if (result == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *descr = PyDescr_NewMethod(type, &defs[i]);
        if (descr == NULL || PyDict_SetItemString(result, defs[i].ml_name, descr) < 0) {
            Py_XDECREF(descr);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(descr);
    }
    return result;
}

/* The offset of the __slots__ member `name` of `type`, or -1 with an exception. */
static Py_ssize_t member_offset(PyTypeObject *type, const char *name)
{
    PyObject *descr = PyDict_GetItemString(type->tp_dict, name);
    PyMemberDef *member;
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%.100s.%s is not a __slots__ member", type->tp_name, name);
        return -1;
    }
    member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != 16 /* T_OBJECT_EX */ || member->flags != 0) {
        PyErr_Format(PyExc_TypeError, "%.100s.%s is not a writable object slot", type->tp_name, name);
        return -1;
    }
    return member->offset;
}

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

static int load_zobrist(PyObject *piece_square, PyObject *hand, PyObject *white)
{
    int code, sq, c, pt, n;
    for (code = 0; code < 32; code++) {
        PyObject *row = tuple_item(piece_square, code, 81);
        if (row == NULL)
            return -1;
        for (sq = 0; sq < 81; sq++) {
            if (load_u64(PyTuple_GET_ITEM(row, sq), &Z_SQ[code][sq]) < 0) {
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
                if (load_u64(PyTuple_GET_ITEM(row, n), &Z_HAND[c][pt][n]) < 0) {
                    Py_DECREF(side);
                    return -1;
                }
            }
        }
        Py_DECREF(side);
    }
    return load_u64(white, &Z_WHITE);
}

const char bind_position_doc[] = PyDoc_STR(
    "bind_position(position_class, piece_square, hand, white_to_move, /)\n--\n\n"
    "Take the Zobrist tables (shogiban.zobrist) and the slot layout of Position; return the\n"
    "compiled methods {'_push': ..., '_pop': ...} as descriptors to put on the class.");

PyObject *bind_position(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyTypeObject *type;
    Py_ssize_t offsets[S_COUNT];
    int i;
    (void)module;
    if (nargs != 4 || !PyType_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "bind_position(position_class, piece_square, hand, white_to_move)");
        return NULL;
    }
    type = (PyTypeObject *)args[0];
    for (i = 0; i < S_COUNT; i++) {
        if ((offsets[i] = member_offset(type, SLOT_NAMES[i])) < 0)
            return NULL;
    }
    if (load_zobrist(args[1], args[2], args[3]) < 0)
        return NULL;
    for (i = 0; i < 81; i++) {
        if (BIT_OBJ[i] == NULL && (BIT_OBJ[i] = bb_to_long(BIT[i])) == NULL)
            return NULL;
    }
    memcpy(slot_offset, offsets, sizeof offsets);
    Py_INCREF(type);
    Py_XSETREF(position_type, type);
    return descriptors(type, position_methods, 2);
}

const char bind_board_doc[] = PyDoc_STR(
    "bind_board(board_class, move_class, moves, python_pop, /)\n--\n\n"
    "After bind_position: take Board's and Move's layout, shogiban.move.MOVES and the Python Board.pop\n"
    "(called when a game end is recorded); return {'push': ..., 'pop': ...} as descriptors.");

PyObject *bind_board(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyTypeObject *type;
    Py_ssize_t offset, moved;
    (void)module;
    if (nargs != 4 || !PyType_Check(args[0]) || position_type == NULL
        || !PyType_IsSubtype((PyTypeObject *)args[0], position_type) || !PyType_Check(args[1])
        || !PyCallable_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "bind_board(board_class, move_class, moves, python_pop) needs a subclass of the bound Position");
        return NULL;
    }
    type = (PyTypeObject *)args[0];
    if ((offset = member_offset(type, "_ending")) < 0 || (moved = member_offset((PyTypeObject *)args[1], "code")) < 0)
        return NULL;
    ending_offset = offset;
    code_offset = moved;
    Py_INCREF(args[1]);
    Py_XSETREF(move_type, (PyTypeObject *)args[1]);
    Py_INCREF(args[2]);
    Py_XSETREF(moves_table, args[2]);
    Py_INCREF(args[3]);
    Py_XSETREF(board_pop_fallback, args[3]);
    return descriptors(type, board_methods, 2);
}
