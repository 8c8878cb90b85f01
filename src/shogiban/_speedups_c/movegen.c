/*
 * shogiban._speedups, legal moves: attacks, checks and pins, the generator and its 打ち歩詰め test,
 * reading a Python Position, and the module functions legal_codes, count_legal, has_legal_move.
 *
 * Legal move generation (legal_codes, count_legal, has_legal_move) is a port of
 * Position._legal_codes that returns the same codes in the same order (the engine, the tsume
 * solver and the notation modules depend on the order), so every section follows the Python
 * method it mirrors:
 *
 *   1. king moves (destinations ascending);
 *   2. double check: stop; single check: targets become the checker and the squares between;
 *   3. unpinned pawns in bulk, by destination rank ascending, columns descending in a rank;
 *   4. every other piece by square ascending, destinations ascending, the promoting code before
 *      the non-promoting one;
 *   5. drops: pawn, lance, knight (each rank ascending, columns descending), then silver, bishop,
 *      rook and gold interleaved rank by rank.
 *
 * It reads the position from the PositionState fields (_board, _hands, _turn, _kings) and rebuilds
 * the bitboards here from the board, which is cheaper than converting the Python ints.
 */

#include "movegen.h"

#define PROMOTION_FLAG (1 << 14)

/* -- the position ---------------------------------------------------------------------------- */

/* Whether colour `by` attacks `sq` given `occupied` (Position._is_attacked). */
int is_attacked(const Pos *p, int sq, int by, BB occupied)
{
    const BB *bb = p->bb;
    int o = by << 4, m = (by ^ 1) << 4; /* a piece of the other colour on sq mirrors the steps */
    BB golds = bb_or(bb_or(bb[7 | o], bb[9 | o]), bb_or(bb_or(bb[10 | o], bb[11 | o]), bb[12 | o]));
    BB kings = bb_or(bb[8 | o], bb_or(bb[13 | o], bb[14 | o]));
    BB candidates;
    if (bb_any(bb_and(STEP[1 | m][sq], bb[1 | o])) || bb_any(bb_and(STEP[8][sq], kings))
        || bb_any(bb_and(STEP[7 | m][sq], golds)) || bb_any(bb_and(STEP[4 | m][sq], bb[4 | o]))
        || bb_any(bb_and(STEP[3 | m][sq], bb[3 | o])))
        return 1;
    candidates = bb_or(bb_and(ROOK_RAYS[sq], bb_or(bb[6 | o], bb[14 | o])),
                       bb_and(BISHOP_RAYS[sq], bb_or(bb[5 | o], bb[13 | o])));
    candidates = bb_or(candidates, bb_and(RAYS[by ? N : S][sq], bb[2 | o]));
    while (bb_any(candidates)) {
        int c = bb_pop(&candidates);
        if (!bb_any(bb_and(BETWEEN[sq][c], occupied)))
            return 1;
    }
    return 0;
}

/* Non-sliding attackers of `color`'s king square `sq` (Position._attackers_by_steps). */
static BB attackers_by_steps(const Pos *p, int sq, int color)
{
    const BB *bb = p->bb;
    int o = (color ^ 1) << 4, m = color << 4;
    BB golds = bb_or(bb_or(bb[7 | o], bb[9 | o]), bb_or(bb_or(bb[10 | o], bb[11 | o]), bb[12 | o]));
    BB kings = bb_or(bb[8 | o], bb_or(bb[13 | o], bb[14 | o]));
    BB r = bb_and(STEP[1 | m][sq], bb[1 | o]);
    r = bb_or(r, bb_and(STEP[3 | m][sq], bb[3 | o]));
    r = bb_or(r, bb_and(STEP[4 | m][sq], bb[4 | o]));
    r = bb_or(r, bb_and(STEP[7 | m][sq], golds));
    r = bb_or(r, bb_and(STEP[8][sq], kings));
    return r;
}

/* Checkers of `color`'s king on `ksq`, its pinned pieces and each pinned piece's line
 * (Position._checkers_and_pins); lines[sq] is set only for pinned squares. */
void checkers_and_pins(const Pos *p, int ksq, int color, BB occupied, BB *checkers, BB *pinned, BB lines[81])
{
    const BB *bb = p->bb;
    int o = (color ^ 1) << 4;
    BB rooks = bb_or(bb[6 | o], bb[14 | o]);
    BB bishops = bb_or(bb[5 | o], bb[13 | o]);
    BB snipers = bb_or(bb_and(ROOK_RAYS[ksq], rooks), bb_and(BISHOP_RAYS[ksq], bishops));
    BB own = p->occ[color];
    snipers = bb_or(snipers, bb_and(RAYS[color ? S : N][ksq], bb[2 | o]));
    *checkers = attackers_by_steps(p, ksq, color);
    *pinned = EMPTY;
    while (bb_any(snipers)) {
        int s = bb_pop(&snipers);
        BB between = BETWEEN[ksq][s];
        BB blockers = bb_and(between, occupied);
        if (!bb_any(blockers)) {
            *checkers = bb_or(*checkers, BIT[s]);
        } else if (!bb_several(blockers) && bb_any(bb_and(blockers, own))) {
            *pinned = bb_or(*pinned, blockers);
            lines[bb_lsb(blockers)] = bb_or(between, BIT[s]);
        }
    }
}

/* -- move output ----------------------------------------------------------------------------- */

enum { MODE_LIST, MODE_COUNT, MODE_ANY };

typedef struct {
    uint16_t *codes; /* written in MODE_LIST only */
    Py_ssize_t n;
    int mode;
} Out;

static inline void emit(Out *out, int code)
{
    if (out->mode == MODE_LIST && out->n < MAX_MOVES)
        out->codes[out->n] = (uint16_t)code;
    out->n++;
}

#define FOUND_ONE(out) ((out)->mode == MODE_ANY && (out)->n > 0)

static inline int in_zone(int color, int sq) { return color ? sq >= 54 : sq < 27; }

/* The codes of `piece` from `frm` to `to` with its promotion choices (position._codes_for). */
static inline void emit_move(Out *out, int piece, int frm, int to)
{
    int pt = piece & 15, color = piece >> 4;
    int base = to | frm << 7;
    if (pt >= 1 && pt <= 6 && (in_zone(color, frm) || in_zone(color, to))) {
        emit(out, base | PROMOTION_FLAG);
        if (!dead_end(pt, color, to))
            emit(out, base);
    } else {
        emit(out, base);
    }
}

/* Drops of `pt` onto `mask`: ranks ascending, columns descending (the order of DROP_CHUNKS). */
static void emit_drops(Out *out, int pt, BB mask)
{
    int rank, col, base = (81 + pt) << 7;
    for (rank = 0; rank < 9; rank++) {
        unsigned bits = bb_rank(mask, rank);
        for (col = 8; bits && col >= 0; col--) {
            if (bits >> col & 1) {
                emit(out, base | (rank * 9 + col));
                bits ^= 1u << col;
            }
        }
    }
}

/* -- legal moves ----------------------------------------------------------------------------- */

static void generate(const Pos *p, Out *out);

/* Position._king_moves: the king's steps to squares the enemy does not attack. */
static void king_moves(const Pos *p, Out *out, int ksq, int color, BB own, BB occupied)
{
    BB dests = bb_andnot(STEP[8][ksq], own);
    BB without_king = bb_xor(occupied, BIT[ksq]);
    while (bb_any(dests)) {
        int sq = bb_pop(&dests);
        if (!is_attacked(p, sq, color ^ 1, without_king))
            emit(out, sq | ksq << 7);
    }
}

static int has_legal_move(const Pos *p)
{
    Out out = {NULL, 0, MODE_ANY};
    generate(p, &out);
    return out.n > 0;
}

/* Position._is_pawn_drop_mate: whether a pawn dropped on `sq` (giving check) leaves no reply. */
static int is_pawn_drop_mate(const Pos *p, int sq)
{
    int attacker = p->turn, defender = attacker ^ 1;
    int eksq = p->kings[defender];
    int piece = 1 | attacker << 4;
    BB occupied = bb_or(bb_or(p->occ[0], p->occ[1]), BIT[sq]);
    BB without_king = bb_xor(occupied, BIT[eksq]);
    BB flights;
    Pos after;
    /* Cheap refutations first: the king takes an undefended pawn, or steps to a safe square. */
    if (!is_attacked(p, sq, attacker, without_king))
        return 0;
    flights = bb_andnot(bb_andnot(STEP[8][eksq], p->occ[defender]), BIT[sq]);
    while (bb_any(flights)) {
        if (!is_attacked(p, bb_pop(&flights), attacker, without_king))
            return 0;
    }
    /* Otherwise play the drop on a copy and look for any legal reply (a pinned capturer has none). */
    memcpy(&after, p, sizeof after);
    after.board[sq] = (uint8_t)piece;
    after.bb[piece] = bb_or(after.bb[piece], BIT[sq]);
    after.occ[attacker] = bb_or(after.occ[attacker], BIT[sq]);
    after.hands[attacker][1]--;
    after.turn = defender;
    return !has_legal_move(&after);
}

/* Position._pawn_drop_mask: no second pawn on a file (nifu), no pawn drop mate. */
static BB pawn_drop_mask(const Pos *p, BB mask, int color)
{
    BB pawns = p->bb[1 | color << 4];
    int eksq = p->kings[color ^ 1];
    if (bb_any(pawns)) {
        unsigned cols = 0;
        int rank, col;
        for (rank = 0; rank < 9; rank++)
            cols |= bb_rank(pawns, rank);
        for (col = 0; col < 9; col++) {
            if (cols >> col & 1)
                mask = bb_andnot(mask, COLUMN[col]);
        }
    }
    if (eksq >= 0) {
        int front = color ? eksq - 9 : eksq + 9;
        if (front >= 0 && front < 81 && bb_has(mask, front) && is_pawn_drop_mate(p, front))
            mask = bb_xor(mask, BIT[front]);
    }
    return mask;
}

/* Position._legal_codes. */
static void generate(const Pos *p, Out *out)
{
    int color = p->turn;
    BB own = p->occ[color];
    BB occupied = bb_or(own, p->occ[color ^ 1]);
    int ksq = p->kings[color];
    /* As in Python: the enemy king is never a capture target. */
    BB enemy_king = p->bb[8 | (color ^ 1) << 4];
    BB target = bb_andnot(bb_andnot(FULL, own), enemy_king);
    BB drop_target = bb_andnot(FULL, occupied);
    BB pinned = EMPTY, others = own, pawns;
    BB lines[81];

    if (ksq >= 0) {
        BB checkers;
        others = bb_xor(others, BIT[ksq]);
        checkers_and_pins(p, ksq, color, occupied, &checkers, &pinned, lines);
        king_moves(p, out, ksq, color, bb_or(own, enemy_king), occupied);
        if (bb_any(checkers)) {
            BB between;
            if (bb_several(checkers))
                return; /* double check: only the king may move */
            between = BETWEEN[ksq][bb_lsb(checkers)];
            target = bb_andnot(bb_or(between, checkers), enemy_king);
            drop_target = between;
        }
        if (FOUND_ONE(out))
            return;
    }

    pawns = bb_andnot(p->bb[1 | color << 4], pinned);
    if (bb_any(pawns)) {
        /* Unpinned pawns all at once, by destination rank, columns descending within a rank. */
        int piece = 1 | color << 4, step = color ? -9 : 9, rank, col;
        BB dests = bb_and(color ? bb_south(pawns) : bb_north(pawns), target);
        others = bb_andnot(others, pawns);
        for (rank = 0; rank < 9; rank++) {
            unsigned bits = bb_rank(dests, rank);
            for (col = 8; bits && col >= 0; col--) {
                if (bits >> col & 1) {
                    int to = rank * 9 + col;
                    emit_move(out, piece, to + step, to);
                    bits ^= 1u << col;
                }
            }
        }
        if (FOUND_ONE(out))
            return;
    }

    while (bb_any(others)) {
        int sq = bb_pop(&others);
        int piece = p->board[sq];
        BB dests;
        switch (piece & 15) {
        case 2: dests = ray_attack(piece & 16 ? S : N, sq, occupied); break;
        case 5: dests = bishop_attack(sq, occupied); break;
        case 6: dests = rook_attack(sq, occupied); break;
        case 13: dests = bb_or(bishop_attack(sq, occupied), STEP[piece][sq]); break;
        case 14: dests = bb_or(rook_attack(sq, occupied), STEP[piece][sq]); break;
        default: dests = STEP[piece][sq]; break;
        }
        dests = bb_and(dests, target);
        if (bb_has(pinned, sq))
            dests = bb_and(dests, lines[sq]);
        while (bb_any(dests))
            emit_move(out, piece, sq, bb_pop(&dests));
        if (FOUND_ONE(out))
            return;
    }

    if (bb_any(drop_target)) {
        const long *hand = p->hands[color];
        unsigned held = (hand[4] ? 1u : 0u) | (hand[5] ? 2u : 0u) | (hand[6] ? 4u : 0u) | (hand[7] ? 8u : 0u);
        if (hand[1])
            emit_drops(out, 1, pawn_drop_mask(p, bb_and(drop_target, DROP_ALLOWED[color][1]), color));
        if (hand[2])
            emit_drops(out, 2, bb_and(drop_target, DROP_ALLOWED[color][2]));
        if (hand[3])
            emit_drops(out, 3, bb_and(drop_target, DROP_ALLOWED[color][3]));
        if (held) {
            /* Silver, bishop, rook and gold interleaved rank by rank (position._free_drops). */
            int rank, col, i;
            for (rank = 0; rank < 9; rank++) {
                unsigned bits = bb_rank(drop_target, rank);
                if (!bits)
                    continue;
                for (i = 0; i < 4; i++) {
                    int base = (81 + 4 + i) << 7;
                    if (!(held >> i & 1))
                        continue;
                    for (col = 8; col >= 0; col--) {
                        if (bits >> col & 1)
                            emit(out, base | (rank * 9 + col));
                    }
                }
            }
        }
    }
}

/* The legal codes of `p` into `codes` (MAX_MOVES of room), in the order of legal_codes; their number. */
Py_ssize_t generate_codes(const Pos *p, uint16_t *codes)
{
    Out out = {codes, 0, MODE_LIST};
    generate(p, &out);
    return out.n;
}

/* -- reading a Position ---------------------------------------------------------------------- */

static long small_int(PyObject *obj, long low, long high, const char *what)
{
    long value;
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "position %s holds a non-int: %R", what, obj);
        return -1000;
    }
    value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred())
        return -1000;
    if (value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "position %s holds %ld, outside %ld..%ld", what, value, low, high);
        return -1000;
    }
    return value;
}

/* A list field (borrowed), or NULL with an exception. */
static PyObject *list_field(PyObject *position, PyObject *value, const char *name, Py_ssize_t min_size)
{
    if (value == NULL) {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%s'", Py_TYPE(position)->tp_name, name);
        return NULL;
    }
    if (!PyList_Check(value) || PyList_GET_SIZE(value) < min_size) {
        PyErr_Format(PyExc_TypeError, "position %s must be a list of at least %zd items, not %R", name, min_size,
                     value);
        return NULL;
    }
    return value;
}

/* Fill `p` from a position's fields (borrowed; NULL for one never set); 0 on success, -1 with an
 * exception set.  Nothing here runs Python code that could change them. */
static int load_fields(PyObject *position, PyObject *board, PyObject *hands, PyObject *kings, PyObject *turn,
                       Pos *p)
{
    int sq, c, i;
    long v;

    memset(p->bb, 0, sizeof p->bb);
    p->occ[0] = p->occ[1] = EMPTY;
    board = list_field(position, board, "_board", 81);
    if (board == NULL)
        return -1;
    for (sq = 0; sq < 81; sq++) {
        PyObject *item = PyList_GET_ITEM(board, sq);
        v = small_int(item, 0, 31, "_board");
        if (v == -1000)
            return -1;
        if (v && ((v & 15) == 0 || (v & 15) == 15)) {
            PyErr_Format(PyExc_ValueError, "position _board holds %ld, not a piece code", v);
            return -1;
        }
        p->board[sq] = (uint8_t)v;
        if (v) {
            p->bb[v] = bb_or(p->bb[v], BIT[sq]);
            p->occ[v >> 4] = bb_or(p->occ[v >> 4], BIT[sq]);
        }
    }
    hands = list_field(position, hands, "_hands", 2);
    if (hands == NULL)
        return -1;
    for (c = 0; c < 2; c++) {
        PyObject *hand = PyList_GET_ITEM(hands, c);
        if (!PyList_Check(hand) || PyList_GET_SIZE(hand) < 8) {
            PyErr_Format(PyExc_TypeError, "position _hands must hold two lists of 8 counts, not %R", hand);
            return -1;
        }
        p->hands[c][0] = 0;
        for (i = 1; i < 8; i++) {
            v = small_int(PyList_GET_ITEM(hand, i), 0, 1L << 30, "_hands");
            if (v == -1000)
                return -1;
            p->hands[c][i] = v;
        }
    }
    kings = list_field(position, kings, "_kings", 2);
    if (kings == NULL)
        return -1;
    for (c = 0; c < 2; c++) {
        v = small_int(PyList_GET_ITEM(kings, c), -1, 80, "_kings");
        if (v == -1000)
            return -1;
        p->kings[c] = (int)v;
    }
    if (turn == NULL) {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '_turn'", Py_TYPE(position)->tp_name);
        return -1;
    }
    v = small_int(turn, 0, 1, "_turn");
    if (v == -1000)
        return -1;
    p->turn = (int)v;
    return 0;
}

/* Fill `p` from a Position: a PositionState's own fields, or for any other object (a Position of
 * the pure-Python core, which the tests compare with) its attributes by name. */
int load_position(ModuleState *st, PyObject *position, Pos *p)
{
    static const char *const names[4] = {"_board", "_hands", "_kings", "_turn"};
    PyObject *values[4] = {NULL, NULL, NULL, NULL};
    int i, result = -1;
    if (PyObject_TypeCheck(position, st->position_type)) {
        PositionState *f = (PositionState *)position;
        return load_fields(position, f->board, f->hands, f->kings, f->turn, p);
    }
    for (i = 0; i < 4; i++) {
        if ((values[i] = PyObject_GetAttrString(position, names[i])) == NULL)
            goto done;
    }
    result = load_fields(position, values[0], values[1], values[2], values[3], p);
done:
    for (i = 0; i < 4; i++)
        Py_XDECREF(values[i]);
    return result;
}

/* -- module functions ------------------------------------------------------------------------ */

const char legal_codes_doc[] = PyDoc_STR(
    "legal_codes(position, /)\n--\n\n"
    "Codes of every legal move of the side to move, in the order of Position._legal_codes.");

PyObject *legal_codes(PyObject *module, PyObject *position)
{
    Pos p;
    uint16_t codes[MAX_MOVES];
    Out out = {codes, 0, MODE_LIST};
    PyObject *list;
    Py_ssize_t i;
    ModuleState *st = module_state(module);
    if (load_position(st, position, &p) < 0)
        return NULL;
    generate(&p, &out);
    if (out.n > MAX_MOVES) { /* impossible (see MAX_MOVES); refuse rather than return a short list */
        PyErr_SetString(PyExc_RuntimeError, "more legal moves than the compiled generator can hold");
        return NULL;
    }
    list = PyList_New(out.n);
    if (list == NULL)
        return NULL;
    for (i = 0; i < out.n; i++) {
        int code = codes[i];
        PyObject *obj = st->code_obj[code];
        if (obj == NULL) {
            obj = PyLong_FromLong(code);
            if (obj == NULL) {
                Py_DECREF(list);
                return NULL;
            }
            st->code_obj[code] = obj; /* the table keeps this reference */
        }
        Py_INCREF(obj);
        PyList_SET_ITEM(list, i, obj);
    }
    return list;
}

const char count_legal_doc[] = PyDoc_STR(
    "count_legal(position, /)\n--\n\n"
    "Number of legal moves of the side to move: len(legal_codes(position)) without the list.");

PyObject *count_legal(PyObject *module, PyObject *position)
{
    Pos p;
    Out out = {NULL, 0, MODE_COUNT};
    if (load_position(module_state(module), position, &p) < 0)
        return NULL;
    generate(&p, &out);
    return PyLong_FromSsize_t(out.n);
}

const char has_legal_move_doc[] = PyDoc_STR(
    "has_legal_move(position, /)\n--\n\n"
    "Whether the side to move has a legal move (stops at the first one found).");

PyObject *py_has_legal_move(PyObject *module, PyObject *position)
{
    Pos p;
    if (load_position(module_state(module), position, &p) < 0)
        return NULL;
    return PyBool_FromLong(has_legal_move(&p));
}
