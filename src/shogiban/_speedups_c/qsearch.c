/*
 * shogiban._speedups, the engine's evaluation and quiescence search: a port of
 * shogiban.engine.evaluate (full_score, move_delta, attacks_near, king_danger, extras) and of
 * Searcher.qsearch (with the capture generator engine.movegen.capture_codes) that gives exactly
 * the Python scores, node counts and principal variations.
 *
 * The Python module stays the reference: set_eval hands its tables over once (as set_zobrist does
 * for hashing), so no value is written twice.  The search plays moves on C copies of the
 * position (Pos, from movegen.h), one per ply in the work space, and keeps the evaluation
 * incrementally as Searcher.make does; the Python Position is only read.
 *
 * Each section names the Python function it mirrors; the orders matter (a stable sort of the
 * moves by MVV-LVA keeps the generation order among equals, and the first of equal scores wins).
 */

#include "pushpop.h"
#include "qsearch.h"
#include "see.h"

#define PROMOTION 0x4000

void free_eval(ModuleState *st)
{
    if (st->eval != NULL) {
        while (st->eval->free_work != NULL) {
            Work *w = st->eval->free_work;
            st->eval->free_work = w->next;
            PyMem_Free(w);
        }
        Py_CLEAR(st->eval->stopped_exc);
    }
    PyMem_Free(st->eval);
    st->eval = NULL;
}

Work *acquire_work(EvalTables *t)
{
    Work *w = t->free_work;
    if (w != NULL) {
        t->free_work = w->next;
        return w;
    }
    w = PyMem_Malloc(sizeof *w);
    if (w == NULL)
        PyErr_NoMemory();
    return w;
}

void release_work(EvalTables *t, Work *w) { w->next = t->free_work, t->free_work = w; }

EvalTables *need_eval(ModuleState *st)
{
    if (st->eval == NULL)
        PyErr_SetString(PyExc_RuntimeError, "shogiban._speedups: set_eval() was not called");
    return st->eval;
}

/* -- set_eval ------------------------------------------------------------------------------ */

/* Read a nested sequence of ints of the given shape into `out` (row-major); -1 with an exception. */
static int read_ints(PyObject *obj, const Py_ssize_t *shape, int ndim, int32_t **out, const char *name)
{
    PyObject *seq = PySequence_Fast(obj, "shogiban._speedups.set_eval: a table must be a sequence");
    Py_ssize_t i, n;
    if (seq == NULL)
        return -1;
    n = PySequence_Fast_GET_SIZE(seq);
    if (n != shape[0]) {
        PyErr_Format(PyExc_ValueError, "shogiban._speedups.set_eval: %s has %zd items where %zd were expected", name,
                     n, shape[0]);
        Py_DECREF(seq);
        return -1;
    }
    for (i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (ndim > 1) {
            if (read_ints(item, shape + 1, ndim - 1, out, name) < 0) {
                Py_DECREF(seq);
                return -1;
            }
        } else {
            long v = PyLong_AsLong(item);
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return -1;
            }
            if (v < -(1L << 24) || v > (1L << 24)) {
                PyErr_Format(PyExc_ValueError, "shogiban._speedups.set_eval: %s holds %ld, too large", name, v);
                Py_DECREF(seq);
                return -1;
            }
            *(*out)++ = (int32_t)v;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static int read_table(PyObject *obj, const Py_ssize_t *shape, int ndim, int32_t *dest, const char *name)
{
    int32_t *cursor = dest;
    return read_ints(obj, shape, ndim, &cursor, name);
}

static int read_int(PyObject *obj, int32_t *dest, const char *name)
{
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < -(1L << 24) || v > (1L << 24)) {
        PyErr_Format(PyExc_ValueError, "shogiban._speedups.set_eval: %s = %ld, too large", name, v);
        return -1;
    }
    *dest = (int32_t)v;
    return 0;
}

/* The squares within `radius` (Chebyshev) of `sq` (evaluate._near, evaluate._box). */
static BB box(int sq, int radius)
{
    BB bits = EMPTY;
    int row = sq / 9, col = sq % 9, r, c;
    for (r = row - radius; r <= row + radius; r++)
        for (c = col - radius; c <= col + radius; c++)
            if (r >= 0 && r < 9 && c >= 0 && c < 9)
                bits = bb_or(bits, BIT[r * 9 + c]);
    return bits;
}

const char set_eval_doc[] = PyDoc_STR(
    "set_eval(own, attack, hand, hand_sum, material, attacked, exposure, attacked_hand, tempo, radius, mate, /)\n"
    "--\n\n"
    "Hand over shogiban.engine.evaluate's tables (OWN, ATTACK, HAND, HAND_SUM, MATERIAL, ATTACKED,\n"
    "EXPOSURE), its constants (ATTACKED_HAND, TEMPO, RADIUS) and the search's MATE.");

PyObject *set_eval(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const Py_ssize_t king_table[3] = {NO_KING + 1, 32, 81}, hand_table[3] = {2, 8, HAND_ROW};
    static const Py_ssize_t material_shape[1] = {15}, nine[1] = {9};
    ModuleState *st = module_state(module);
    EvalTables *t;
    int32_t radius;
    int sq, k, c, v, a;
    if (nargs != 11) {
        PyErr_Format(PyExc_TypeError, "set_eval() takes 11 arguments (%zd given)", nargs);
        return NULL;
    }
    t = PyMem_Calloc(1, sizeof *t);
    if (t == NULL)
        return PyErr_NoMemory();
    if (read_table(args[0], king_table, 3, &t->own[0][0][0], "OWN") < 0
        || read_table(args[1], king_table, 3, &t->attack[0][0][0], "ATTACK") < 0
        || read_table(args[2], hand_table, 3, &t->hand[0][0][0], "HAND") < 0
        || read_table(args[3], hand_table, 3, &t->hand_sum[0][0][0], "HAND_SUM") < 0
        || read_table(args[4], material_shape, 1, t->material, "MATERIAL") < 0
        || read_table(args[5], nine, 1, t->attacked, "ATTACKED") < 0
        || read_table(args[6], nine, 1, t->exposure, "EXPOSURE") < 0
        || read_int(args[7], &t->attacked_hand, "ATTACKED_HAND") < 0 || read_int(args[8], &t->tempo, "TEMPO") < 0
        || read_int(args[9], &radius, "RADIUS") < 0 || read_int(args[10], &t->mate, "MATE") < 0) {
        PyMem_Free(t);
        return NULL;
    }
    for (sq = 0; sq < 81; sq++) {
        BB ring = bb_or(STEP[8][sq], BIT[sq]), rook = EMPTY, bishop = EMPTY, rest = ring;
        t->near[sq] = box(sq, radius);
        t->box2[sq] = box(sq, 2);
        t->box3[sq] = box(sq, 3);
        while (bb_any(rest)) {
            k = bb_pop(&rest);
            rook = bb_or(rook, ROOK_RAYS[k]);
            bishop = bb_or(bishop, BISHOP_RAYS[k]);
        }
        t->rook_reach[sq] = rook;
        t->bishop_reach[sq] = bishop;
    }
    for (c = 0; c < 32; c++) {
        int pt = c & 15;
        t->victim[c] = t->attacker[c] = 0;
        if (pt >= 1 && pt <= 14) {
            t->victim[c] = t->material[pt];
            t->attacker[c] = pt != 8 ? t->material[pt] : 2000;
        }
        t->gain[c] = pt ? t->victim[c] + t->material[pt > 8 ? pt - 8 : pt] : t->victim[c];
        t->promotion_gain[c] = pt >= 1 && pt <= 6 ? t->material[pt + 8] - t->material[pt] : 0;
    }
    /* see.ORDER: by material, the king last, the type breaking ties (a stable insertion sort) */
    for (a = 0; a < 14; a++) {
        int pt = a + 1, key = pt != 8 ? t->material[pt] : INT32_MAX;
        for (v = a; v > 0; v--) {
            int prev = t->lva_order[v - 1];
            if ((prev != 8 ? t->material[prev] : INT32_MAX) <= key)
                break;
            t->lva_order[v] = t->lva_order[v - 1];
        }
        t->lva_order[v] = (uint8_t)pt;
    }
    for (v = 0; v < 32; v++)
        for (a = 0; a < 32; a++) {
            /* Python's // rounds down; the attacker values are never negative */
            t->mvv_lva[v << 5 | a] = t->victim[v] * 8 - t->attacker[a] / 16;
        }
    if (st->eval != NULL) { /* keep set_search's values */
        t->stopped_exc = st->eval->stopped_exc;
        st->eval->stopped_exc = NULL;
        t->max_ply = st->eval->max_ply;
        t->mate_bound = st->eval->mate_bound;
        t->perpetual_win = st->eval->perpetual_win;
        memcpy(t->late_moves, st->eval->late_moves, sizeof t->late_moves);
    }
    free_eval(st);
    st->eval = t;
    Py_RETURN_NONE;
}

/* -- the evaluation ------------------------------------------------------------------------ */

static inline int king_row(const Pos *p, int color) { return p->kings[color] >= 0 ? p->kings[color] : NO_KING; }
static inline long min_hand(long n) { return n < MAX_HAND ? n : MAX_HAND; }

/* evaluate.full_score. */
static int full_score(const EvalTables *t, const Pos *p)
{
    int kb = king_row(p, 0), kw = king_row(p, 1), total = 0, color, pt;
    for (color = 0; color < 2; color++) {
        const int32_t(*own)[81] = t->own[color ? kw : kb];
        const int32_t(*att)[81] = t->attack[color ? kb : kw];
        BB bits = p->occ[color];
        while (bb_any(bits)) {
            int sq = bb_pop(&bits), piece = p->board[sq];
            total += own[piece][sq] + att[piece][sq];
        }
    }
    for (color = 0; color < 2; color++)
        for (pt = 1; pt < 8; pt++) {
            long n = p->hands[color][pt];
            if (n)
                total += t->hand_sum[color][pt][min_hand(n)];
        }
    return total;
}

/* evaluate.attacks_near: the squares next to `k` that colour `by` attacks. */
static BB attacks_near(const EvalTables *t, const Pos *p, int by, int k)
{
    const BB *bb = p->bb;
    BB occupied = bb_or(p->occ[0], p->occ[1]), result = EMPTY, steppers, sliders;
    int o = by << 4;
    BB rooks = bb_or(bb[6 | o], bb[14 | o]), bishops = bb_or(bb[5 | o], bb[13 | o]), lances = bb[2 | o];
    steppers = bb_or(bb_and(p->occ[by], t->box2[k]), bb_and(bb[3 | o], t->box3[k]));
    steppers = bb_andnot(steppers, bb_or(bb_or(rooks, bishops), lances));
    while (bb_any(steppers)) {
        int sq = bb_pop(&steppers);
        result = bb_or(result, STEP[p->board[sq]][sq]);
    }
    sliders = bb_and(rooks, bb_or(t->rook_reach[k], t->box2[k]));
    while (bb_any(sliders)) {
        int sq = bb_pop(&sliders);
        result = bb_or(result, bb_or(rook_attack(sq, occupied), STEP[p->board[sq]][sq]));
    }
    sliders = bb_and(bishops, bb_or(t->bishop_reach[k], t->box2[k]));
    while (bb_any(sliders)) {
        int sq = bb_pop(&sliders);
        result = bb_or(result, bb_or(bishop_attack(sq, occupied), STEP[p->board[sq]][sq]));
    }
    sliders = bb_and(lances, t->rook_reach[k]);
    while (bb_any(sliders))
        result = bb_or(result, ray_attack(by ? S : N, bb_pop(&sliders), occupied));
    return bb_and(result, STEP[8][k]);
}

/* evaluate._threat: the weight of a hand as drop threats. */
static int hand_threat(const long *hand)
{
    return (hand[1] > 0) + (hand[2] > 0) + (hand[3] > 0) * 2 + (hand[4] > 0) * 3 + (hand[4] > 1) * 3
           + (hand[7] > 0) * 3 + (hand[7] > 1) * 3 + (hand[5] > 0) * 2 + (hand[5] > 1) * 2 + (hand[6] > 0) * 3
           + (hand[6] > 1) * 3;
}

/* evaluate.king_danger. */
static int king_danger(const EvalTables *t, const Pos *p, int color)
{
    int k = p->kings[color], attacked, empty, threat;
    if (k < 0)
        return 0;
    attacked = bb_count(attacks_near(t, p, color ^ 1, k));
    empty = bb_count(bb_andnot(STEP[8][k], bb_or(p->occ[0], p->occ[1])));
    threat = hand_threat(p->hands[color ^ 1]);
    return t->attacked[attacked] + (t->exposure[empty] + t->attacked_hand * attacked) * threat;
}

/* evaluate.extras. */
static inline int extras(const EvalTables *t, const Pos *p) { return king_danger(t, p, 1) - king_danger(t, p, 0); }

/* Searcher.static_eval without noise: `score` is the incremental full_score. */
int static_eval(const EvalTables *t, const Pos *p, int score)
{
    score += extras(t, p);
    return (p->turn == 0 ? score : -score) + t->tempo;
}

/* evaluate._king_delta. */
static int king_delta(const EvalTables *t, const Pos *p, int frm, int to, int piece, int color)
{
    int ke = king_row(p, color ^ 1), captured = p->board[to];
    const int32_t(*own_old)[81] = t->own[frm], (*own_new)[81] = t->own[to];
    const int32_t(*att_old)[81] = t->attack[frm], (*att_new)[81] = t->attack[to];
    int delta = own_new[piece][to] - own_old[piece][frm];
    BB region = bb_or(t->near[frm], t->near[to]);
    BB mine = bb_andnot(bb_and(p->occ[color], region), BIT[frm]);
    BB theirs = bb_andnot(bb_and(p->occ[color ^ 1], region), BIT[to]);
    while (bb_any(mine)) {
        int sq = bb_pop(&mine), q = p->board[sq];
        delta += own_new[q][sq] - own_old[q][sq];
    }
    while (bb_any(theirs)) {
        int sq = bb_pop(&theirs), q = p->board[sq];
        delta += att_new[q][sq] - att_old[q][sq];
    }
    if (captured) {
        int pt = captured & 15;
        delta -= t->own[ke][captured][to] + att_old[captured][to];
        if (pt > 8)
            pt -= 8;
        delta += t->hand[color][pt][min_hand(p->hands[color][pt] + 1)];
    }
    return delta;
}

/* evaluate.move_delta: the change of full_score made by `code` (not yet played). */
int move_delta(const EvalTables *t, const Pos *p, int code)
{
    int to = code & 127, frm = code >> 7 & 127, color = p->turn;
    int kc = king_row(p, color), ke = king_row(p, color ^ 1), piece, promoted, captured, delta;
    if (frm >= 81) {
        int pt = frm - 81;
        piece = pt | color << 4;
        return t->own[kc][piece][to] + t->attack[ke][piece][to] - t->hand[color][pt][min_hand(p->hands[color][pt])];
    }
    piece = p->board[frm];
    if ((piece & 15) == 8)
        return king_delta(t, p, frm, to, piece, color);
    promoted = code >> 14 ? piece + 8 : piece;
    delta = t->own[kc][promoted][to] - t->own[kc][piece][frm] + t->attack[ke][promoted][to]
            - t->attack[ke][piece][frm];
    captured = p->board[to];
    if (captured) {
        int pt = captured & 15;
        delta -= t->own[ke][captured][to] + t->attack[kc][captured][to];
        if (pt > 8)
            pt -= 8;
        delta += t->hand[color][pt][min_hand(p->hands[color][pt] + 1)];
    }
    return delta;
}

/* -- playing a move on a copy ---------------------------------------------------------------- */

/* `to` = `from` with `code` played (Position._push, without the key, stack and counts). */
void play(const Pos *from, Pos *to, int code)
{
    int dst = code & 127, frm = code >> 7 & 127, color = from->turn;
    memcpy(to, from, sizeof *to);
    if (frm >= 81) {
        int pt = frm - 81, piece = pt | color << 4;
        to->board[dst] = (uint8_t)piece;
        to->bb[piece] = bb_or(to->bb[piece], BIT[dst]);
        to->occ[color] = bb_or(to->occ[color], BIT[dst]);
        to->hands[color][pt]--;
    } else {
        int piece = from->board[frm], captured = from->board[dst];
        int moved = code >> 14 ? piece + 8 : piece;
        to->board[frm] = 0;
        to->bb[piece] = bb_xor(to->bb[piece], BIT[frm]);
        to->occ[color] = bb_xor(to->occ[color], BIT[frm]);
        if (captured) {
            int pt = captured & 15;
            to->bb[captured] = bb_xor(to->bb[captured], BIT[dst]);
            to->occ[color ^ 1] = bb_xor(to->occ[color ^ 1], BIT[dst]);
            to->hands[color][pt > 8 ? pt - 8 : pt]++;
        }
        to->board[dst] = (uint8_t)moved;
        to->bb[moved] = bb_or(to->bb[moved], BIT[dst]);
        to->occ[color] = bb_or(to->occ[color], BIT[dst]);
        if ((piece & 15) == 8)
            to->kings[color] = dst;
    }
    to->turn = color ^ 1;
}

/* Position._in_check. */
int in_check(const Pos *p)
{
    int k = p->kings[p->turn];
    return k >= 0 && is_attacked(p, k, p->turn ^ 1, bb_or(p->occ[0], p->occ[1]));
}

/* -- captures (engine.movegen.capture_codes) ------------------------------------------------- */

static inline int in_zone(int color, int sq) { return color ? sq >= 54 : sq < 27; }

/* engine.movegen._codes: position._codes_for without the non-promotions of pawns, bishops and
 * rooks that may promote. */
static inline int add_codes(uint16_t *codes, int n, int piece, int frm, int to)
{
    int pt = piece & 15, color = piece >> 4, base = to | frm << 7;
    if (pt >= 1 && pt <= 6 && (in_zone(color, frm) || in_zone(color, to))) {
        codes[n++] = (uint16_t)(base | PROMOTION);
        if (!dead_end(pt, color, to) && pt != 1 && pt != 5 && pt != 6)
            codes[n++] = (uint16_t)base;
    } else {
        codes[n++] = (uint16_t)base;
    }
    return n;
}

/* engine.movegen.capture_codes: legal captures and pawn promotions (not in check); their number. */
static int capture_codes(const Pos *p, uint16_t *codes)
{
    int color = p->turn, them = color ^ 1, ksq = p->kings[color], n = 0;
    BB own = p->occ[color], enemy = p->occ[them], occupied = bb_or(own, enemy);
    BB pinned = EMPTY, others = own, pawns, zone_empty;
    BB lines[81];
    if (ksq >= 0) {
        BB checkers, dests = bb_and(STEP[8][ksq], enemy), without_king = bb_xor(occupied, BIT[ksq]);
        others = bb_xor(others, BIT[ksq]);
        checkers_and_pins(p, ksq, color, occupied, &checkers, &pinned, lines);
        while (bb_any(dests)) {
            int to = bb_pop(&dests);
            if (!is_attacked(p, to, them, without_king))
                codes[n++] = (uint16_t)(to | ksq << 7);
        }
    }
    /* ZONE[color] & ~occupied */
    zone_empty = EMPTY;
    if (color)
        zone_empty.hi = ~occupied.hi & HI_MASK, zone_empty.lo = ~occupied.lo & (UINT64_C(0x1FF) << 54);
    else
        zone_empty.lo = ~occupied.lo & ((UINT64_C(1) << 27) - 1);
    pawns = bb_andnot(p->bb[1 | color << 4], pinned);
    if (bb_any(pawns)) {
        int step = color ? -9 : 9, rank, col;
        BB dests = bb_and(color ? bb_south(pawns) : bb_north(pawns), bb_or(enemy, zone_empty));
        others = bb_andnot(others, pawns);
        for (rank = 0; rank < 9; rank++) {
            unsigned bits = bb_rank(dests, rank);
            for (col = 8; bits && col >= 0; col--) {
                if (bits >> col & 1) {
                    int to = rank * 9 + col, frm = to + step, base = to | frm << 7;
                    /* position._codes_for, keeping the promotions and the captures outside the zone */
                    if (in_zone(color, frm) || in_zone(color, to)) {
                        codes[n++] = (uint16_t)(base | PROMOTION);
                    } else if (p->board[to]) {
                        codes[n++] = (uint16_t)base;
                    }
                    bits ^= 1u << col;
                }
            }
        }
    }
    while (bb_any(others)) {
        int sq = bb_pop(&others), piece = p->board[sq];
        BB dests;
        switch (piece & 15) {
        case 2: dests = ray_attack(piece & 16 ? S : N, sq, occupied); break;
        case 5: dests = bishop_attack(sq, occupied); break;
        case 6: dests = rook_attack(sq, occupied); break;
        case 13: dests = bb_or(bishop_attack(sq, occupied), STEP[piece][sq]); break;
        case 14: dests = bb_or(rook_attack(sq, occupied), STEP[piece][sq]); break;
        default: dests = STEP[piece][sq]; break;
        }
        dests = bb_and(dests, (piece & 15) == 1 ? bb_or(enemy, zone_empty) : enemy);
        if (bb_has(pinned, sq))
            dests = bb_and(dests, lines[sq]);
        while (bb_any(dests))
            n = add_codes(codes, n, piece, sq, bb_pop(&dests));
    }
    return n;
}

/* Sort codes[0..n) by keys, highest first, keeping the order of equals (Python's stable sort
 * with reverse=True). */
static void sort_by_keys(uint16_t *codes, int32_t *keys, int n)
{
    int i, j;
    for (i = 1; i < n; i++) {
        uint16_t code = codes[i];
        int32_t key = keys[i];
        for (j = i; j > 0 && keys[j - 1] < key; j--) {
            codes[j] = codes[j - 1];
            keys[j] = keys[j - 1];
        }
        codes[j] = code;
        keys[j] = key;
    }
}

/* -- the quiescence search (Searcher.qsearch) ------------------------------------------------ */


void set_pv(Work *w, int ply, int code)
{
    int len = w->pv_len[ply + 1];
    w->pv[ply][0] = (uint16_t)code;
    memcpy(&w->pv[ply][1], w->pv[ply + 1], (size_t)len * sizeof w->pv[ply][0]);
    w->pv_len[ply] = len + 1;
}

/* A king taken (a position the search never meets): move_delta would index past the hand tables. */
int takes_king(const Pos *p, int code) { return (code >> 7 & 127) < 81 && (p->board[code & 127] & 15) == 8; }

/* One move of a quiescence node (evasion or capture): play *code* from the node at *ply*, search
   the child, and fold its score into *best and *alpha (and the line on a new alpha).  1 on a beta
   cutoff, -1 when the search unwinds (stopped, or a king capture), else 0. */
static int qsearch_child(Search *s, int code, int beta, int *alpha, int *best, int ply, int qply, int score)
{
    Work *w = s->w;
    const Pos *p = &w->pos[ply];
    Pos *child = &w->pos[ply + 1];
    int value;
    if (takes_king(p, code)) {
        s->failed = 1;
        return -1;
    }
    value = move_delta(s->t, p, code);
    play(p, child, code);
    value = -qsearch(s, -beta, -*alpha, ply + 1, qply + 1, score + value, in_check(child));
    if (s->stopped || s->failed)
        return -1;
    if (value > *best) {
        *best = value;
        if (value > *alpha) {
            *alpha = value;
            set_pv(w, ply, code);
            if (value >= beta)
                return 1;
        }
    }
    return 0;
}

int qsearch(Search *s, int alpha, int beta, int ply, int qply, int score, int check)
{
    EvalTables *t = s->t;
    Work *w = s->w;
    const Pos *p = &w->pos[ply];
    uint16_t *codes = w->codes[ply];
    int mate = t->mate, inf = mate + 1, n, i, best, stand;
    s->nodes++;
    if (s->limit >= 0 && s->nodes >= s->limit) {
        s->stopped = 1;
        return 0;
    }
    w->pv_len[ply] = 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (check) {
        n = (int)generate_codes(p, codes);
        if (n == 0)
            return -mate + ply;
        if (ply >= s->max_ply || qply >= s->qmax + 4)
            return static_eval(t, p, score);
        for (i = 0; i < n; i++)
            w->keys[i] = t->victim[p->board[codes[i] & 127]];
        sort_by_keys(codes, w->keys, n);
        best = -inf;
        for (i = 0; i < n; i++) {
            int step = qsearch_child(s, codes[i], beta, &alpha, &best, ply, qply, score);
            if (step < 0)
                return 0;
            if (step > 0)
                break;
        }
        return best;
    }
    stand = static_eval(t, p, score);
    if (stand >= beta || qply >= s->qmax || ply >= s->max_ply)
        return stand;
    if (stand > alpha)
        alpha = stand;
    n = capture_codes(p, codes);
    if (n == 0)
        return stand;
    for (i = 0; i < n; i++)
        w->keys[i] = t->mvv_lva[p->board[codes[i] & 127] << 5 | p->board[codes[i] >> 7 & 127]];
    sort_by_keys(codes, w->keys, n);
    best = stand;
    {
        int margin = stand + 200 - alpha;
        for (i = 0; i < n; i++) {
            int code = codes[i], to = code & 127, victim = p->board[to], attacker = p->board[code >> 7 & 127];
            int gain = t->gain[victim], step;
            if (code >> 14)
                gain += t->material[(attacker & 15) + 8] - t->material[attacker & 15];
            if (gain + margin < 0)
                continue; /* delta pruning */
            /* a losing exchange (see() only when losing the mover could cost more than the gain) */
            if (gain < t->gain[code >> 14 ? attacker + 8 : attacker] && see(t, p, code) < 0)
                continue;
            step = qsearch_child(s, code, beta, &alpha, &best, ply, qply, score);
            if (step < 0)
                return 0;
            if (step > 0)
                break;
        }
    }
    return best;
}

/* -- module functions ------------------------------------------------------------------------ */

const char eval_parts_doc[] = PyDoc_STR(
    "eval_parts(position, /)\n--\n\n"
    "(full_score, king_danger of sente, king_danger of gote), as shogiban.engine.evaluate computes them.");

PyObject *eval_parts(PyObject *module, PyObject *position)
{
    ModuleState *st = module_state(module);
    EvalTables *t = need_eval(st);
    Pos p;
    if (t == NULL || load_position(st, position, &p) < 0)
        return NULL;
    return Py_BuildValue("(iii)", full_score(t, &p), king_danger(t, &p, 0), king_danger(t, &p, 1));
}

const char attacks_near_doc[] = PyDoc_STR(
    "attacks_near(position, by, k, /)\n--\n\n"
    "The squares next to k that colour by attacks (shogiban.engine.evaluate.attacks_near).");

PyObject *py_attacks_near(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ModuleState *st = module_state(module);
    EvalTables *t = need_eval(st);
    Pos p;
    long by, k;
    if (t == NULL)
        return NULL;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "attacks_near() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    by = PyLong_AsLong(args[1]);
    k = PyLong_AsLong(args[2]);
    if ((by == -1 || k == -1) && PyErr_Occurred())
        return NULL;
    if (by < 0 || by > 1 || k < 0 || k > 80) {
        PyErr_SetString(PyExc_ValueError, "attacks_near(): by must be 0 or 1 and k a square");
        return NULL;
    }
    if (load_position(st, args[0], &p) < 0)
        return NULL;
    return bb_to_long(st, attacks_near(t, &p, (int)by, (int)k));
}

const char qsearch_doc[] = PyDoc_STR(
    "qsearch(position, score, in_check, alpha, beta, ply, qply, qmax, max_ply, nodes, limit, /)\n--\n\n"
    "Searcher.qsearch without evaluation noise: `score` is the incremental full_score of the position\n"
    "(Searcher.evals[-1]) and `in_check` whether the side to move is in check.  Counts nodes from\n"
    "`nodes` and stops when the count reaches `limit` (None: no limit).  Returns (score, nodes, seldepth,\n"
    "pv) where pv is the list of codes Searcher.pv[ply] would hold, or None when the limit stopped it.");

PyObject *py_qsearch(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ModuleState *st = module_state(module);
    EvalTables *t = need_eval(st);
    Search s;
    long v[7];
    int i, check, score;
    PyObject *pv, *result;
    if (t == NULL)
        return NULL;
    if (nargs != 11) {
        PyErr_Format(PyExc_TypeError, "qsearch() takes 11 arguments (%zd given)", nargs);
        return NULL;
    }
    /* score, alpha, beta, ply, qply, qmax, max_ply */
    {
        static const int which[7] = {1, 3, 4, 5, 6, 7, 8};
        for (i = 0; i < 7; i++) {
            v[i] = PyLong_AsLong(args[which[i]]);
            if (v[i] == -1 && PyErr_Occurred())
                return NULL;
            if (v[i] < -(1L << 30) || v[i] > (1L << 30)) {
                PyErr_SetString(PyExc_ValueError, "qsearch(): an argument is out of range");
                return NULL;
            }
        }
    }
    if ((check = PyObject_IsTrue(args[2])) < 0)
        return NULL;
    if (v[6] < 0 || v[6] >= QS_PLIES - 1 || v[3] < 0 || v[3] > v[6] || v[4] < 0) {
        PyErr_Format(PyExc_ValueError, "qsearch(): ply %ld and max_ply %ld must be in 0..%d", v[3], v[6],
                     QS_PLIES - 2);
        return NULL;
    }
    s.t = t;
    s.nodes = PyLong_AsLongLong(args[9]);
    if (s.nodes == -1 && PyErr_Occurred())
        return NULL;
    if (args[10] == Py_None) {
        s.limit = -1;
    } else {
        s.limit = PyLong_AsLongLong(args[10]);
        if (s.limit == -1 && PyErr_Occurred())
            return NULL;
        if (s.limit < 0)
            s.limit = 0;
    }
    s.seldepth = 0;
    s.qmax = (int)v[5];
    s.max_ply = (int)v[6];
    s.stopped = s.failed = 0;
    if ((s.w = acquire_work(t)) == NULL)
        return NULL;
    if (load_position(st, args[0], &s.w->pos[v[3]]) < 0) {
        release_work(t, s.w);
        return NULL;
    }
    score = qsearch(&s, (int)v[1], (int)v[2], (int)v[3], (int)v[4], (int)v[0], check);
    release_work(t, s.w);
    if (s.failed) {
        PyErr_SetString(PyExc_IndexError, "qsearch(): a king would be captured");
        return NULL;
    }
    if (s.stopped) {
        pv = Py_None;
        Py_INCREF(pv);
    } else {
        int len = s.w->pv_len[v[3]];
        pv = PyList_New(len);
        if (pv == NULL)
            return NULL;
        for (i = 0; i < len; i++) {
            PyObject *code = PyLong_FromLong(s.w->pv[v[3]][i]);
            if (code == NULL) {
                Py_DECREF(pv);
                return NULL;
            }
            PyList_SET_ITEM(pv, i, code);
        }
    }
    result = Py_BuildValue("(iLiN)", score, s.nodes, s.seldepth, pv);
    return result;
}
