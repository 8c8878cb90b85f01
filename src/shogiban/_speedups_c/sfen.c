/*
 * shogiban._speedups, SFEN: parsing well-formed SFEN, setting a Position up from it (with the
 * impossible-position checks) and writing it.
 *
 * SFEN (set_sfen, parse_sfen, make_sfen) has a fast path for well-formed text; anything else goes
 * back to the Python code, which says what is wrong.
 */

#include "movegen.h"
#include "pushpop.h"
#include "sfen.h"

/* -- SFEN -------------------------------------------------------------------------------------
 *
 * A fast path for the common, well-formed SFEN.  Anything unusual (other whitespace, a leading
 * "sfen", "startpos", URL underscores, non-ASCII text, any error) makes it answer None, and the
 * Python code handles the text, with its exact error messages.  So it must accept nothing that
 * shogiban.sfen would reject, and give the same fields for everything it accepts.
 */

/* A list of ints from C values (NULL with an exception on failure). */
static PyObject *int_list(const long *values, Py_ssize_t n)
{
    PyObject *list = PyList_New(n);
    Py_ssize_t i;
    if (list == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

typedef struct {
    uint8_t board[81];
    long hands[2][8];
    int turn;
    long long number;
} Sfen;

/* Piece type of an SFEN letter (upper case: sente), 0 for anything else. */
static int letter_type(char ch)
{
    switch (ch >= 'a' && ch <= 'z' ? ch - 32 : ch) {
    case 'P': return 1;
    case 'L': return 2;
    case 'N': return 3;
    case 'S': return 4;
    case 'B': return 5;
    case 'R': return 6;
    case 'G': return 7;
    case 'K': return 8;
    default: return 0;
    }
}

/* What str.split() and str.strip() take for whitespace, among ASCII characters. */
static inline int py_space(char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r') || (ch >= 0x1c && ch <= 0x1f); }

static int parse_board(const char *s, Py_ssize_t len, uint8_t board[81])
{
    int rank = 0, cells = 0, promoted = 0;
    Py_ssize_t i;
    for (i = 0; i <= len; i++) {
        char ch = i < len ? s[i] : '/';
        int pt;
        if (ch == '/') {
            if (promoted || cells != 9 || rank >= 9)
                return 0;
            rank++;
            cells = 0;
            continue;
        }
        if (ch >= '1' && ch <= '9' && !promoted) {
            int k = ch - '0';
            if (cells + k > 9)
                return 0;
            memset(board + rank * 9 + cells, 0, (size_t)k);
            cells += k;
        } else if (ch == '+' && !promoted) {
            promoted = 1;
        } else if ((pt = letter_type(ch)) != 0) {
            if (promoted) {
                if (pt > 6)
                    return 0;
                pt += 8;
                promoted = 0;
            }
            if (cells >= 9)
                return 0;
            board[rank * 9 + cells++] = (uint8_t)(pt | (ch >= 'a' ? 16 : 0));
        } else {
            return 0;
        }
    }
    return rank == 9;
}

static int parse_hands(const char *s, Py_ssize_t len, long hands[2][8])
{
    long count = 0;
    int digits = 0;
    Py_ssize_t i;
    memset(hands, 0, sizeof(long) * 16);
    if (len == 1 && s[0] == '-')
        return 1;
    for (i = 0; i < len; i++) {
        char ch = s[i];
        int pt, color;
        if (ch >= '0' && ch <= '9') {
            count = count > 1000000 ? count : count * 10 + (ch - '0');
            digits = 1;
            continue;
        }
        pt = letter_type(ch);
        if (pt == 0 || pt == 8)
            return 0;
        color = ch >= 'a';
        hands[color][pt] += digits ? count : 1;
        if (hands[color][pt] > ZOBRIST_HAND - 1)
            return 0;
        count = 0;
        digits = 0;
    }
    return !digits;
}

/* Parse `text`: 1 when the fast path took it, 0 to leave it to Python. */
static int parse_sfen_fast(PyObject *text, Sfen *out)
{
    const char *s, *field[5];
    Py_ssize_t len, start = 0, flen[5], i;
    int n = 0;
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text))
        return 0;
    s = (const char *)PyUnicode_DATA(text);
    len = PyUnicode_GET_LENGTH(text);
    while (start < len && py_space(s[start]))
        start++;
    while (len > start && py_space(s[len - 1]))
        len--;
    /* Fields separated by spaces only; the first not "sfen" (nor the one-field "startpos"). */
    i = start;
    while (i < len) {
        Py_ssize_t j = i;
        while (j < len && s[j] != ' ') {
            if (py_space(s[j]) || s[j] == '_')
                return 0;
            j++;
        }
        if (n == 4)
            return 0;
        field[n] = s + i;
        flen[n++] = j - i;
        while (j < len && s[j] == ' ')
            j++;
        i = j;
    }
    if (n < 3 || (flen[0] == 4 && memcmp(field[0], "sfen", 4) == 0))
        return 0;
    if (!parse_board(field[0], flen[0], out->board))
        return 0;
    if (flen[1] != 1 || (field[1][0] != 'b' && field[1][0] != 'w'))
        return 0;
    out->turn = field[1][0] == 'w';
    if (!parse_hands(field[2], flen[2], out->hands))
        return 0;
    out->number = 1;
    if (n == 4) {
        long long v = 0;
        if (flen[3] > 18)
            return 0;
        for (i = 0; i < flen[3]; i++) {
            if (field[3][i] < '0' || field[3][i] > '9')
                return 0;
            v = v * 10 + (field[3][i] - '0');
        }
        out->number = v > 1 ? v : 1;
    }
    return 1;
}

/* Whether the position is impossible (the Python _position_problem finds a reason). */
static int position_problem(const Pos *p)
{
    static const int dead_codes[6] = {1, 2, 3, 17, 18, 19};
    static const int most[9] = {0, 18, 4, 4, 4, 2, 2, 4, 2}; /* shogiban.pieces.PIECE_COUNTS */
    int i, color, pt, ksq;
    for (i = 0; i < 6; i++) {
        int code = dead_codes[i];
        BB pieces = p->bb[code];
        while (bb_any(pieces)) {
            if (dead_end(code & 15, code >> 4, bb_pop(&pieces)))
                return 1;
        }
    }
    for (color = 0; color < 2; color++) {
        BB pawns = p->bb[1 | color << 4];
        unsigned columns = 0;
        if (bb_several(p->bb[8 | color << 4]))
            return 1;
        while (bb_any(pawns)) {
            unsigned column = 1u << (bb_pop(&pawns) % 9);
            if (columns & column)
                return 1;
            columns |= column;
        }
    }
    for (pt = 1; pt <= 8; pt++) {
        long total = bb_count(p->bb[pt]) + bb_count(p->bb[pt | 16]);
        if (pt <= 6)
            total += bb_count(p->bb[pt + 8]) + bb_count(p->bb[pt + 24]);
        if (pt != 8)
            total += p->hands[0][pt] + p->hands[1][pt];
        if (total > most[pt])
            return 1;
    }
    ksq = p->kings[p->turn ^ 1];
    return ksq >= 0 && is_attacked(p, ksq, p->turn, bb_or(p->occ[0], p->occ[1]));
}

enum { F_BOARD, F_BB, F_OCC, F_KINGS, F_HANDS, F_TURN, F_STACK, F_HASH, F_REP, F_COUNT };

/* Set the Position fields from a parsed SFEN, as Board.set_sfen does: 1 done, 0 impossible
 * position (not lenient: left to Python for the message), -1 error. */
static int set_up(ModuleState *st, PyObject *self, const Sfen *f, int lenient)
{
    PositionState *fields = (PositionState *)self;
    PyObject **targets[F_COUNT] = {&fields->board, &fields->bb,    &fields->occ,  &fields->kings, &fields->hands,
                                   &fields->turn,  &fields->stack, &fields->hash, &fields->rep};
    Pos p;
    uint64_t key = f->turn ? st->z_white : 0;
    long values[81];
    PyObject *objs[F_COUNT] = {NULL}, *one = NULL;
    int sq, c, pt, i;

    memset(p.bb, 0, sizeof p.bb);
    p.occ[0] = p.occ[1] = EMPTY;
    for (sq = 0; sq < 81; sq++) {
        int piece = f->board[sq];
        p.board[sq] = (uint8_t)piece;
        if (piece) {
            p.bb[piece] = bb_or(p.bb[piece], BIT[sq]);
            p.occ[piece >> 4] = bb_or(p.occ[piece >> 4], BIT[sq]);
            key ^= st->z_sq[piece][sq];
        }
    }
    for (c = 0; c < 2; c++) {
        for (pt = 0; pt < 8; pt++) {
            p.hands[c][pt] = f->hands[c][pt];
            if (pt && f->hands[c][pt])
                key ^= st->z_hand[c][pt][f->hands[c][pt]];
        }
        p.kings[c] = bb_any(p.bb[8 | c << 4]) ? bb_msb(p.bb[8 | c << 4]) : -1;
    }
    p.turn = f->turn;
    if (!lenient && position_problem(&p))
        return 0;

    for (sq = 0; sq < 81; sq++)
        values[sq] = p.board[sq];
    if ((objs[F_BOARD] = int_list(values, 81)) == NULL || (objs[F_BB] = PyList_New(32)) == NULL
        || (objs[F_OCC] = PyList_New(2)) == NULL || (objs[F_HANDS] = PyList_New(2)) == NULL)
        goto fail;
    for (i = 0; i < 32; i++) {
        PyObject *value = bb_to_long(st, p.bb[i]);
        if (value == NULL)
            goto fail;
        PyList_SET_ITEM(objs[F_BB], i, value);
    }
    for (c = 0; c < 2; c++) {
        PyObject *value = bb_to_long(st, p.occ[c]);
        if (value == NULL)
            goto fail;
        PyList_SET_ITEM(objs[F_OCC], c, value);
        value = int_list(f->hands[c], 8);
        if (value == NULL)
            goto fail;
        PyList_SET_ITEM(objs[F_HANDS], c, value);
        values[c] = p.kings[c];
    }
    if ((objs[F_KINGS] = int_list(values, 2)) == NULL || (objs[F_TURN] = PyLong_FromLong(p.turn)) == NULL
        || (objs[F_STACK] = PyList_New(0)) == NULL || (objs[F_HASH] = PyLong_FromUnsignedLongLong(key)) == NULL
        || (objs[F_REP] = PyDict_New()) == NULL || (one = PyLong_FromLong(1)) == NULL
        || PyDict_SetItem(objs[F_REP], objs[F_HASH], one) < 0)
        goto fail;
    Py_DECREF(one);
    for (i = 0; i < F_COUNT; i++)
        set_field(targets[i], objs[i]);
    return 1;
fail:
    Py_XDECREF(one);
    for (i = 0; i < F_COUNT; i++)
        Py_XDECREF(objs[i]);
    return -1;
}

const char set_sfen_doc[] = PyDoc_STR(
    "set_sfen(position, sfen, lenient, /)\n--\n\n"
    "Set up *position* (board, bitboards, kings, hands, side, key, empty history) from a\n"
    "well-formed *sfen* and return its move number; None leaves the text to the Python code\n"
    "(anything unusual, malformed, or impossible when not *lenient*), with the position unchanged.");

PyObject *py_set_sfen(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ModuleState *st = module_state(module);
    Sfen f;
    int lenient, done;
    if (nargs != 3 || !PyObject_TypeCheck(args[0], st->position_type)) {
        PyErr_SetString(PyExc_TypeError, "set_sfen(position, sfen, lenient) needs a shogiban Position");
        return NULL;
    }
    if (!st->zobrist_ready) {
        PyErr_SetString(PyExc_RuntimeError, "shogiban._speedups: set_zobrist() was not called");
        return NULL;
    }
    if ((lenient = PyObject_IsTrue(args[2])) < 0)
        return NULL;
    if (!parse_sfen_fast(args[1], &f))
        Py_RETURN_NONE;
    done = set_up(st, args[0], &f, lenient);
    if (done < 0)
        return NULL;
    if (!done)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(f.number);
}

const char parse_sfen_doc[] = PyDoc_STR(
    "parse_sfen(sfen, /)\n--\n\n"
    "(board, turn, hands, move_number) of a well-formed *sfen*, as shogiban.sfen.parse_sfen\n"
    "reads it, or None to leave the text to the Python code.");

PyObject *py_parse_sfen(PyObject *module, PyObject *text)
{
    Sfen f;
    long values[81];
    PyObject *board, *hands;
    int sq;
    (void)module;
    if (!parse_sfen_fast(text, &f))
        Py_RETURN_NONE;
    for (sq = 0; sq < 81; sq++)
        values[sq] = f.board[sq];
    board = int_list(values, 81);
    hands = PyList_New(2);
    if (board == NULL || hands == NULL)
        goto fail;
    for (sq = 0; sq < 2; sq++) {
        PyObject *hand = int_list(f.hands[sq], 8);
        if (hand == NULL)
            goto fail;
        PyList_SET_ITEM(hands, sq, hand);
    }
    return Py_BuildValue("(NiNL)", board, f.turn, hands, f.number);
fail:
    Py_XDECREF(board);
    Py_XDECREF(hands);
    return NULL;
}

/* An int of `seq` (a list or tuple, index checked) in [low, high]: 1, or 0 for anything else. */
static int seq_int(PyObject *seq, Py_ssize_t i, int exact, long low, long high, long *out)
{
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
    if (exact ? !PyLong_CheckExact(item) : !PyLong_Check(item))
        return 0;
    *out = PyLong_AsLong(item);
    if (*out == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return *out >= low && *out <= high;
}

static inline int list_or_tuple(PyObject *obj, Py_ssize_t size)
{
    return (PyList_Check(obj) || PyTuple_Check(obj)) && PySequence_Fast_GET_SIZE(obj) >= size;
}

const char make_sfen_doc[] = PyDoc_STR(
    "make_sfen(board, turn, hands, move_number, /)\n--\n\n"
    "The canonical SFEN, as shogiban.sfen.make_sfen writes it, or None for input it leaves to\n"
    "the Python code (anything but plain ints in the usual ranges).");

PyObject *py_make_sfen(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char letters[] = "?PLNSBRGK";
    static const int order[7] = {6, 5, 7, 4, 3, 2, 1}; /* R B G S N L P */
    char buf[512];
    int len = 0, r, col, c, i;
    long v, turn;
    PyObject *board, *hands, *number;
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "make_sfen(board, turn, hands, move_number)");
        return NULL;
    }
    board = args[0];
    hands = args[2];
    number = args[3];
    if (!list_or_tuple(board, 81) || !list_or_tuple(hands, 2) || !PyLong_Check(args[1]))
        Py_RETURN_NONE;
    turn = PyLong_AsLong(args[1]);
    if (turn != 0 && turn != 1) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    for (r = 0; r < 9; r++) {
        int empty = 0;
        if (r)
            buf[len++] = '/';
        for (col = 0; col < 9; col++) {
            int pt;
            if (!seq_int(board, r * 9 + col, 0, 0, 31, &v))
                Py_RETURN_NONE;
            if (!v) {
                empty++;
                continue;
            }
            pt = (int)(v & 15);
            if (pt == 0 || pt == 15)
                Py_RETURN_NONE;
            if (empty) {
                buf[len++] = (char)('0' + empty);
                empty = 0;
            }
            if (pt > 8) {
                buf[len++] = '+';
                pt -= 8;
            }
            buf[len++] = (char)(letters[pt] + (v >= 16 ? 32 : 0));
        }
        if (empty)
            buf[len++] = (char)('0' + empty);
    }
    buf[len++] = ' ';
    buf[len++] = turn ? 'w' : 'b';
    buf[len++] = ' ';
    i = len;
    for (c = 0; c < 2; c++) {
        PyObject *hand = PySequence_Fast_GET_ITEM(hands, c);
        int k;
        if (!list_or_tuple(hand, 8))
            Py_RETURN_NONE;
        for (k = 0; k < 7; k++) {
            if (!seq_int(hand, order[k], 1, 0, 999999999, &v))
                Py_RETURN_NONE;
            if (v > 1)
                len += sprintf(buf + len, "%ld", v);
            if (v)
                buf[len++] = (char)(letters[order[k]] + (c ? 32 : 0));
        }
    }
    if (len == i)
        buf[len++] = '-';
    if (number != Py_None) {
        long long n;
        if (!PyLong_CheckExact(number))
            Py_RETURN_NONE;
        n = PyLong_AsLongLong(number);
        if (n == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        len += sprintf(buf + len, " %lld", n);
    }
    return PyUnicode_FromStringAndSize(buf, len);
}
