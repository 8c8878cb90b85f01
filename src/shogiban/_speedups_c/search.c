/*
 * shogiban._speedups, the engine's main search: a port of Searcher.search (negamax PVS below
 * the root) with Searcher._ordered, _repetition, _can_declare's precondition, _has_pieces, the
 * null move, _store, and engine.search.threatens and engine.movegen.may_give_check, giving
 * exactly the Python scores, node counts, lines and selective depths (without evaluation noise).
 *
 * The search plays moves on C copies of the position (the work space of qsearch.c, one Pos per
 * ply) with the Zobrist key and the evaluation kept incrementally, as Searcher.make does; the
 * Python board is only read, but for the rare declaration test (see can_declare).  The state
 * that lives longer than one call stays where the Python search keeps it, in the Searcher's
 * objects, read and written through the C API: the transposition table (a dict: key -> (depth,
 * flag, score, move)), the history (a list of 65536 ints) and the killers (read at the call,
 * written back at its end).  So the Python search and this one share every table, and the root,
 * the reports and the tests see one state whichever search ran.
 *
 * Polling: Searcher._poll is called exactly where the Python search calls it (the node count
 * reaching next_poll, at a node or after a quiescence search), with Searcher.nodes and .seldepth
 * up to date; an exception it raises (SearchStopped) unwinds the search and propagates.
 */

#include "search.h"
#include "see.h"

#define EXACT 0
#define LOWER 1
#define UPPER 2
#define NO_MOVES 10000
/* search._MALUS_MOVES */
#define MALUS_MOVES 32

/* -- may_give_check, threatens ------------------------------------------------------------- */

/* position.KIND: 0 stepper, 1 lance, 2 bishop, 3 rook, 4 horse, 5 dragon. */
static inline int piece_kind(int piece)
{
    switch (piece & 15) {
    case 2: return 1;
    case 5: return 2;
    case 6: return 3;
    case 13: return 4;
    case 14: return 5;
    default: return 0;
    }
}

/* position.piece_attacks. */
static inline BB piece_attacks(int piece, int sq, BB occupied)
{
    switch (piece_kind(piece)) {
    case 1: return ray_attack(piece & 16 ? S : N, sq, occupied);
    case 2: return bishop_attack(sq, occupied);
    case 3: return rook_attack(sq, occupied);
    case 4: return bb_or(bishop_attack(sq, occupied), STEP[piece][sq]);
    case 5: return bb_or(rook_attack(sq, occupied), STEP[piece][sq]);
    default: return STEP[piece][sq];
    }
}

/* engine.movegen.may_give_check. */
static int may_give_check(const Pos *p, int code)
{
    int color = p->turn, eksq = p->kings[color ^ 1], to = code & 127, frm = code >> 7 & 127, piece, kind;
    BB occupied = bb_or(p->occ[0], p->occ[1]), line;
    if (eksq < 0)
        return 0;
    if (frm >= 81) {
        piece = (frm - 81) | color << 4;
    } else {
        if (bb_has(bb_or(ROOK_RAYS[eksq], BISHOP_RAYS[eksq]), frm))
            return 1;
        piece = p->board[frm];
        if (code >> 14)
            piece += 8;
        occupied = bb_xor(occupied, BIT[frm]);
    }
    if (bb_has(STEP[piece][to], eksq))
        return 1;
    kind = piece_kind(piece);
    if (kind == 0)
        return 0;
    if (kind == 1)
        line = RAYS[piece & 16 ? S : N][to];
    else if (kind == 2 || kind == 4)
        line = BISHOP_RAYS[to];
    else
        line = ROOK_RAYS[to];
    return bb_has(line, eksq) && !bb_any(bb_and(BETWEEN[to][eksq], occupied));
}

/* engine.search.threatens. */
static int threatens(const EvalTables *t, const Pos *p, int code)
{
    int color = p->turn, them = color ^ 1, frm = code >> 7 & 127, to = code & 127, piece, value;
    BB occupied = bb_or(p->occ[0], p->occ[1]), hits;
    if (frm >= 81) {
        piece = (frm - 81) | color << 4;
    } else {
        piece = p->board[frm];
        if ((piece & 15) == 8)
            return 0;
        if (code >> 14)
            piece += 8;
        occupied = bb_xor(occupied, BIT[frm]);
    }
    hits = bb_and(piece_attacks(piece, to, occupied), p->occ[them]);
    if (!bb_any(hits))
        return 0;
    if (p->kings[them] >= 0)
        hits = bb_andnot(hits, BIT[p->kings[them]]);
    value = t->victim[piece];
    while (bb_any(hits))
        if (t->victim[p->board[bb_pop(&hits)]] > value)
            return 1;
    return 0;
}

/* -- the search's state ---------------------------------------------------------------------- */

typedef struct {
    Search q; /* the node count, the limit, seldepth, qmax, max_ply, the tables and the work space */
    ModuleState *st;
    PyObject *searcher, *position, *tt, *history, *rep;
    long long next_poll;
    Py_ssize_t tt_limit;
    int declares, ply0, error;
    /* Searcher.keys and .checks followed by this call's path, checks[i] whether the position
     * keys[i] is in check; real[i]: keys[i] is a position the board's _rep counts (not one
     * reached by a null move) */
    uint64_t *keys;
    uint8_t *checks, *real;
    int n, floor, base;
    /* the moves played from the call's position (0: a null move), for the declaration test */
    uint16_t path[QS_PLIES];
    int killers[QS_PLIES][2];
} CSearch;

static int poll(CSearch *c);

/* Set Searcher.nodes and .seldepth; -1 with an exception. */
static int write_counts(CSearch *c)
{
    PyObject *nodes = PyLong_FromLongLong(c->q.nodes), *seldepth = PyLong_FromLong(c->q.seldepth);
    int r = -1;
    if (nodes != NULL && seldepth != NULL && PyObject_SetAttrString(c->searcher, "nodes", nodes) == 0
        && PyObject_SetAttrString(c->searcher, "seldepth", seldepth) == 0)
        r = 0;
    Py_XDECREF(nodes);
    Py_XDECREF(seldepth);
    return r;
}

/* Searcher._poll, with the counts written first and next_poll read after. */
static int poll(CSearch *c)
{
    PyObject *r, *next;
    long long v;
    if (write_counts(c) < 0)
        return -1;
    r = PyObject_CallMethod(c->searcher, "_poll", NULL);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    next = PyObject_GetAttrString(c->searcher, "next_poll");
    if (next == NULL)
        return -1;
    v = PyLong_AsLongLong(next);
    Py_DECREF(next);
    if (v == -1 && PyErr_Occurred())
        return -1;
    c->next_poll = v;
    return 0;
}

/* The key after `code` on `p` whose key is `h` (Position._push). */
static uint64_t key_after(const ModuleState *st, const Pos *p, int code, uint64_t h)
{
    int to = code & 127, frm = code >> 7 & 127, color = p->turn;
    if (frm >= 81) {
        int pt = frm - 81, piece = pt | color << 4;
        long n = p->hands[color][pt];
        h ^= st->z_sq[piece][to] ^ st->z_hand[color][pt][n] ^ st->z_hand[color][pt][n - 1];
    } else {
        int piece = p->board[frm], captured = p->board[to], moved = code >> 14 ? piece + 8 : piece;
        if (captured) {
            int pt = (captured & 15) > 8 ? captured & 7 : captured & 15;
            long n = p->hands[color][pt];
            h ^= st->z_sq[captured][to] ^ st->z_hand[color][pt][n] ^ st->z_hand[color][pt][n + 1];
        }
        h ^= st->z_sq[piece][frm] ^ st->z_sq[moved][to];
    }
    return h ^ st->z_white;
}

/* Searcher._repetition, with the board's `_rep.get(key, 0) > 1` test before it: 1 with the
 * score in *score when the position repeats, 0 if not, -1 with an exception. */
static int repetition(CSearch *c, int ply, int *score)
{
    int n = c->n - 1, j, m, ours = 1, theirs = 1;
    uint64_t h = c->keys[n];
    for (j = n - 4; j >= c->floor; j -= 2)
        if (c->keys[j] == h)
            break;
    if (j < c->floor)
        return 0; /* no repetition, or (with _rep's count above 1) one beyond a null move */
    if (!c->real[j]) {
        /* keys[j] was reached by a null move, which the board's _rep does not count: the count
         * is the entry's, plus this call's real positions with the key (the current one too) */
        long long count = 0;
        PyObject *key = PyLong_FromUnsignedLongLong(h), *value;
        if (key == NULL)
            return -1;
        value = PyDict_GetItemWithError(c->rep, key);
        Py_DECREF(key);
        if (value == NULL && PyErr_Occurred())
            return -1;
        if (value != NULL && (count = PyLong_AsLongLong(value)) == -1 && PyErr_Occurred())
            return -1;
        for (m = c->base; m <= n; m++)
            count += c->real[m] && c->keys[m] == h;
        if (count <= 1)
            return 0;
    }
    /* move m gave check: the position keys[m + 1] is in check */
    for (m = j; m < n; m += 2)
        ours &= c->checks[m + 1];
    for (m = j + 1; m < n; m += 2)
        theirs &= c->checks[m + 1];
    if (theirs && !ours)
        *score = c->q.t->perpetual_win - ply;
    else if (ours && !theirs)
        *score = -(c->q.t->perpetual_win - ply);
    else
        *score = 0;
    return 1;
}

/* Searcher._can_declare: the cheap precondition here, the rules (rules.declaration_status) in
 * Python: Searcher._can_declare_after plays this call's path on the board, asks, and takes it
 * back.  1, 0, or -1 with an exception. */
static int can_declare(CSearch *c, const Pos *p, int ply)
{
    int k = p->kings[p->turn], i, r;
    PyObject *path, *result;
    if (k < 0 || !(p->turn ? k >= 54 : k < 27) || !c->declares)
        return 0;
    path = PyList_New(ply - c->ply0);
    if (path == NULL)
        return -1;
    for (i = 0; i < ply - c->ply0; i++) {
        PyObject *code = PyLong_FromLong(c->path[i]);
        if (code == NULL) {
            Py_DECREF(path);
            return -1;
        }
        PyList_SET_ITEM(path, i, code);
    }
    result = PyObject_CallMethod(c->searcher, "_can_declare_after", "N", path);
    if (result == NULL)
        return -1;
    r = PyObject_IsTrue(result);
    Py_DECREF(result);
    return r;
}

/* Searcher._has_pieces. */
static int has_pieces(const Pos *p)
{
    int color = p->turn, pt;
    for (pt = 2; pt < 8; pt++)
        if (p->hands[color][pt])
            return 1;
    return bb_any(bb_andnot(bb_andnot(p->occ[color], p->bb[1 | color << 4]), p->bb[8 | color << 4]));
}

/* Sort codes[0..n) by keys (highest first), equals in their order (Python's stable sort with
 * reverse=True): each key carries its index below it, so that all keys differ. */
static void sort_desc(uint16_t *codes, int64_t *keys, int64_t *scratch, int n)
{
    int i, width;
    uint16_t original[MAX_MOVES];
    if (n < 2)
        return;
    for (i = 0; i < n; i++) {
        keys[i] = keys[i] * 8192 + (8191 - i);
        original[i] = codes[i];
    }
    /* bottom-up merge sort, descending */
    for (width = 1; width < n; width *= 2) {
        int lo;
        for (lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                scratch[k++] = keys[a] > keys[b] ? keys[a++] : keys[b++];
            while (a < mid)
                scratch[k++] = keys[a++];
            while (b < hi)
                scratch[k++] = keys[b++];
        }
        memcpy(keys, scratch, (size_t)n * sizeof *keys);
    }
    for (i = 0; i < n; i++)
        codes[i] = original[8191 - (int)(keys[i] & 8191)];
}

static int contains(const uint16_t *codes, int n, int code)
{
    int i;
    for (i = 0; i < n; i++)
        if (codes[i] == code)
            return 1;
    return 0;
}

/* Searcher.make: play `code` from ply's position into the next ply's; its score. */
static int make(CSearch *c, int ply, int code, int score)
{
    Work *w = c->q.w;
    const Pos *p = &w->pos[ply];
    Pos *child = &w->pos[ply + 1];
    int delta = move_delta(c->q.t, p, code);
    uint64_t h = key_after(c->st, p, code, c->keys[c->n - 1]);
    play(p, child, code);
    c->keys[c->n] = h;
    c->checks[c->n] = (uint8_t)in_check(child);
    c->real[c->n] = 1;
    c->n++;
    c->path[ply - c->ply0] = (uint16_t)code;
    return score + delta;
}

/* Searcher.qsearch through the compiled quiescence search, as Searcher.qsearch calls it. */
static int qs(CSearch *c, int alpha, int beta, int ply, int score)
{
    int value = qsearch(&c->q, alpha, beta, ply, 0, score, c->checks[c->n - 1]);
    if (c->q.failed) {
        PyErr_SetString(PyExc_IndexError, "search(): a king would be captured");
        c->error = 1;
        return 0;
    }
    if (c->q.stopped) {
        c->q.stopped = 0;
        if (write_counts(c) == 0)
            PyErr_SetNone(c->q.t->stopped_exc);
        c->error = 1;
        return 0;
    }
    if (c->q.nodes >= c->next_poll && poll(c) < 0) {
        c->error = 1;
        return 0;
    }
    return value;
}

/* history[index] += delta; -1 with an exception. */
static int add_history(PyObject *history, int index, long long delta)
{
    PyObject *updated;
    long long v = PyLong_AsLongLong(PyList_GET_ITEM(history, index));
    if (v == -1 && PyErr_Occurred())
        return -1;
    if ((updated = PyLong_FromLongLong(v + delta)) == NULL)
        return -1;
    PyList_SetItem(history, index, updated);
    return 0;
}

/* search._exchange: the exchange value of a capture or promotion when it may be negative, else 0 */
static int exchange_value(const EvalTables *t, const Pos *p, int code)
{
    int attacker = p->board[code >> 7 & 127], gain = t->gain[p->board[code & 127]];
    if (code >> 14) {
        gain += t->material[(attacker & 15) + 8] - t->material[attacker & 15];
        attacker += 8;
    }
    return gain < t->gain[attacker] ? see(t, p, code) : 0;
}

static PyObject *tt_entry(int depth, int flag, int score, int code)
{
    return Py_BuildValue("(iiii)", depth, flag, score, code);
}

/* Searcher.search at `ply`, whose position is the work space's pos[ply] with the incremental
 * score `score`.  On an error (c->error set, an exception raised) the value is meaningless. */
static int search(CSearch *c, int depth, int alpha, int beta, int ply, int null_ok, int score)
{
    EvalTables *t = c->q.t;
    Work *w = c->q.w;
    const Pos *p = &w->pos[ply];
    int mate = t->mate, mate_bound = t->mate_bound, inf = mate + 1;
    int in_check, tt_move = 0, pv_node, prune_quiets = 0, n, ncaps, i, best, best_code = 0, original_alpha;
    int turn_bit, late, searched, phase, next_cap, next_quiet, k0, k1, value, flag, ntried = 0;
    uint16_t tried[MALUS_MOVES];
    uint64_t h;
    uint16_t *codes, *order;
    PyObject *key, *entry;
    c->q.nodes++;
    if (c->q.nodes >= c->next_poll && poll(c) < 0) {
        c->error = 1;
        return 0;
    }
    w->pv_len[ply] = 0;
    in_check = c->checks[c->n - 1];
    if (ply) {
        int rep;
        switch (repetition(c, ply, &rep)) {
        case -1: c->error = 1; return 0;
        case 1: return rep;
        default: break;
        }
        if (alpha < -mate + ply)
            alpha = -mate + ply;
        if (beta > mate - ply - 1)
            beta = mate - ply - 1;
        if (alpha >= beta)
            return alpha;
        if (ply >= t->max_ply)
            return static_eval(t, p, score);
    }
    if (in_check)
        depth++;
    if (depth <= 0)
        return qs(c, alpha, beta, ply, score);
    if (ply > c->q.seldepth)
        c->q.seldepth = ply;
    if (!in_check) {
        int r = can_declare(c, p, ply);
        if (r < 0) {
            c->error = 1;
            return 0;
        }
        if (r)
            return mate - ply;
    }
    h = c->keys[c->n - 1];
    key = PyLong_FromUnsignedLongLong(h);
    if (key == NULL) {
        c->error = 1;
        return 0;
    }
    pv_node = beta - alpha > 1;
    entry = PyDict_GetItemWithError(c->tt, key);
    if (entry == NULL && PyErr_Occurred())
        goto error;
    if (entry != NULL) {
        long e[4];
        if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 4) {
            PyErr_SetString(PyExc_TypeError, "search(): a table entry must be a tuple of 4 ints");
            goto error;
        }
        for (i = 0; i < 4; i++)
            if ((e[i] = PyLong_AsLong(PyTuple_GET_ITEM(entry, i))) == -1 && PyErr_Occurred())
                goto error;
        tt_move = (int)e[3];
        if (e[0] >= depth && !pv_node && ply) {
            long e_score = e[2];
            if (e_score >= mate_bound)
                e_score -= ply;
            else if (e_score <= -mate_bound)
                e_score += ply;
            if (e[1] == EXACT || (e[1] == LOWER && e_score >= beta) || (e[1] == UPPER && e_score <= alpha)) {
                Py_DECREF(key);
                return (int)e_score;
            }
        }
    }
    if (!pv_node && !in_check && beta < mate_bound && beta > -mate_bound) {
        int stat = static_eval(t, p, score);
        prune_quiets = depth <= 3 && stat + 250 * depth <= alpha;
        if (depth <= 5 && stat - 180 * depth >= beta) {
            Py_DECREF(key);
            return stat;
        }
        if (null_ok && depth >= 3 && stat >= beta && has_pieces(p)) {
            int reduction = 3 + depth / 4, saved_floor = c->floor;
            Pos *child = &w->pos[ply + 1];
            memcpy(child, p, sizeof *child);
            child->turn ^= 1;
            c->keys[c->n] = h ^ c->st->z_white;
            c->checks[c->n] = 0;
            c->real[c->n] = 0;
            c->floor = c->n;
            c->n++;
            c->path[ply - c->ply0] = 0;
            value = -search(c, depth - 1 - reduction, -beta, -beta + 1, ply + 1, 0, score);
            c->n--;
            c->floor = saved_floor;
            if (c->error)
                goto error;
            if (value >= beta) {
                Py_DECREF(key);
                return value >= mate_bound ? beta : value;
            }
        }
    }
    codes = w->codes[ply];
    n = (int)generate_codes(p, codes);
    if (n == 0) {
        Py_DECREF(key);
        return -mate + ply;
    }
    turn_bit = p->turn ? 32768 : 0;
    best = -inf;
    original_alpha = alpha;
    late = !pv_node && !in_check && depth < 4 ? t->late_moves[depth] : NO_MOVES;
    /* Searcher._ordered, as the generator runs: the table move; the captures by MVV-LVA; the
     * killers; the quiet moves by history, sorted only when reached (the history changes as the
     * earlier moves are searched) */
    order = w->order[ply];
    ncaps = 0;
    for (i = 0; i < n; i++)
        if (p->board[codes[i] & 127]) {
            w->sort_keys[0][ncaps] = t->mvv_lva[p->board[codes[i] & 127] << 5 | p->board[codes[i] >> 7 & 127]];
            order[ncaps++] = codes[i];
        }
    sort_desc(order, w->sort_keys[0], w->sort_keys[1], ncaps);
    {
        int nq = ncaps;
        for (i = 0; i < n; i++)
            if (!p->board[codes[i] & 127])
                order[nq++] = codes[i];
    }
    k0 = c->killers[ply][0];
    k1 = c->killers[ply][1];
    phase = tt_move && contains(codes, n, tt_move) ? 0 : 1;
    next_cap = 0;
    next_quiet = ncaps;
    for (searched = 0;; searched++) {
        int code = 0, quiet, threat = 0, losing, gives_check, child_score;
        /* the next move */
        while (!code && phase < 6) {
            switch (phase) {
            case 0: code = tt_move; phase = 1; break;
            case 1:
                if (next_cap < ncaps) {
                    if (order[next_cap] != tt_move)
                        code = order[next_cap];
                    next_cap++;
                } else {
                    phase = 2;
                }
                break;
            case 2:
                if (k0 && k0 != tt_move && contains(codes, n, k0) && !p->board[k0 & 127])
                    code = k0;
                phase = 3;
                break;
            case 3:
                if (k1 && k1 != tt_move && contains(codes, n, k1) && !p->board[k1 & 127])
                    code = k1;
                phase = 4;
                break;
            case 4:
                /* the quiet moves by history, sorted now (after the killers' searches) */
                {
                    int nq = n - ncaps;
                    for (i = 0; i < nq; i++) {
                        PyObject *item = PyList_GET_ITEM(c->history, order[ncaps + i] | turn_bit);
                        long long v = PyLong_AsLongLong(item);
                        if (v == -1 && PyErr_Occurred())
                            goto error;
                        w->sort_keys[0][i] = v;
                    }
                    sort_desc(order + ncaps, w->sort_keys[0], w->sort_keys[1], nq);
                }
                phase = 5;
                break;
            default:
                if (next_quiet < n) {
                    int q = order[next_quiet++];
                    if (q != tt_move && q != k0 && q != k1)
                        code = q;
                } else {
                    phase = 6;
                }
                break;
            }
        }
        if (!code)
            break;
        quiet = !p->board[code & 127] && !(code >> 14);
        if (quiet && searched && (prune_quiets || searched >= late) && best > -mate_bound) {
            if (may_give_check(p, code)) {
                /* searched */
            } else if (prune_quiets || !threatens(t, p, code)) {
                continue;
            } else {
                threat = 1;
            }
        } else if (quiet && searched >= 3 && depth >= 3 && !in_check) {
            threat = threatens(t, p, code);
        }
        losing = 0;
        if (!quiet && searched && !in_check && (depth >= 3 ? searched >= 3 : !pv_node)) {
            int exchange = exchange_value(t, p, code);
            if (exchange < 0) {
                /* Searcher.search: skipped near the leaves when it loses too much, else reduced */
                if (depth < 3) {
                    if (exchange < -t->see_margin * depth && best > -mate_bound && !may_give_check(p, code))
                        continue;
                } else {
                    losing = 1;
                }
            }
        }
        if (takes_king(p, code)) {
            PyErr_SetString(PyExc_IndexError, "search(): a king would be captured");
            goto error;
        }
        child_score = make(c, ply, code, score);
        gives_check = c->checks[c->n - 1];
        if (searched == 0) {
            value = -search(c, depth - 1, -beta, -alpha, ply + 1, 1, child_score);
        } else {
            int reduction = 0;
            if (depth >= 3 && searched >= 3 && (quiet || losing) && !in_check && !gives_check) {
                long long good = PyLong_AsLongLong(PyList_GET_ITEM(c->history, code | turn_bit));
                if (good == -1 && PyErr_Occurred()) {
                    c->n--;
                    goto error;
                }
                reduction = t->lmr[depth < 63 ? depth : 63][searched < 63 ? searched : 63];
                if (pv_node)
                    reduction--;
                if (threat || code == c->killers[ply][0] || code == c->killers[ply][1])
                    reduction--;
                if (good < 0)
                    reduction++;
                else if (good > 64LL * depth * depth)
                    reduction--;
                if (reduction > depth - 2)
                    reduction = depth - 2;
                if (reduction < 0)
                    reduction = 0;
            }
            value = -search(c, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, 1, child_score);
            if (!c->error && reduction && value > alpha)
                value = -search(c, depth - 1, -alpha - 1, -alpha, ply + 1, 1, child_score);
            if (!c->error && alpha < value && value < beta)
                value = -search(c, depth - 1, -beta, -alpha, ply + 1, 1, child_score);
        }
        c->n--;
        if (c->error)
            goto error;
        if (value > best) {
            best = value;
            best_code = code;
            if (value > alpha) {
                alpha = value;
                set_pv(w, ply, code);
                if (value >= beta) {
                    if (quiet) {
                        long long bonus = (long long)depth * depth;
                        if (c->killers[ply][0] != code) {
                            c->killers[ply][1] = c->killers[ply][0];
                            c->killers[ply][0] = code;
                        }
                        if (add_history(c->history, code | turn_bit, bonus) < 0)
                            goto error;
                        /* the quiet moves searched before failed: a malus */
                        for (i = 0; i < ntried; i++)
                            if (add_history(c->history, tried[i] | turn_bit, -bonus) < 0)
                                goto error;
                    }
                    break;
                }
            }
        }
        if (quiet && ntried < MALUS_MOVES)
            tried[ntried++] = (uint16_t)code;
    }
    flag = best >= beta ? LOWER : best > original_alpha ? EXACT : UPPER;
    /* Searcher._store */
    if (PyDict_Size(c->tt) >= c->tt_limit)
        PyDict_Clear(c->tt);
    {
        int stored = best;
        if (stored >= mate_bound)
            stored += ply;
        else if (stored <= -mate_bound)
            stored -= ply;
        entry = tt_entry(depth, flag, stored, best_code);
        if (entry == NULL || PyDict_SetItem(c->tt, key, entry) < 0) {
            Py_XDECREF(entry);
            goto error;
        }
        Py_DECREF(entry);
    }
    Py_DECREF(key);
    return best;
error:
    c->error = 1;
    Py_DECREF(key);
    return 0;
}

/* -- module functions ------------------------------------------------------------------------ */

const char set_search_doc[] = PyDoc_STR(
    "set_search(stopped, max_ply, mate_bound, perpetual_win, see_margin, late_moves, lmr, /)\n--\n\n"
    "Hand over shogiban.engine.search's SearchStopped and constants (MAX_PLY, MATE_BOUND, PERPETUAL_WIN,\n"
    "_SEE_MARGIN, _LATE_MOVES, 4 ints, and _LMR flattened, 64 * 64 ints in 0..127); set_eval must be called\n"
    "first.");

PyObject *set_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ModuleState *st = module_state(module);
    EvalTables *t = need_eval(st);
    long v[4];
    int i, late[4];
    int8_t lmr[64][64];
    PyObject *seq;
    if (t == NULL)
        return NULL;
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "set_search() takes 7 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!PyExceptionClass_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "set_search(): stopped must be an exception class");
        return NULL;
    }
    for (i = 0; i < 4; i++)
        if ((v[i] = PyLong_AsLong(args[i + 1])) == -1 && PyErr_Occurred())
            return NULL;
    if (v[0] < 1 || v[0] > QS_PLIES - 8) {
        PyErr_Format(PyExc_ValueError, "set_search(): max_ply must be in 1..%d", QS_PLIES - 8);
        return NULL;
    }
    if (v[3] < 0 || v[3] > 100000) {
        PyErr_SetString(PyExc_ValueError, "set_search(): see_margin must be in 0..100000");
        return NULL;
    }
    seq = PySequence_Fast(args[5], "set_search(): late_moves must be a sequence");
    if (seq == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "set_search(): late_moves must hold 4 ints");
        return NULL;
    }
    for (i = 0; i < 4; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        late[i] = x < 0 ? 0 : x > NO_MOVES ? NO_MOVES : (int)x;
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(args[6], "set_search(): lmr must be a sequence");
    if (seq == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 64 * 64) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "set_search(): lmr must hold 64 * 64 ints");
        return NULL;
    }
    for (i = 0; i < 64 * 64; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        if (x < 0 || x > 127) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "set_search(): lmr values must be in 0..127");
            return NULL;
        }
        lmr[i / 64][i % 64] = (int8_t)x;
    }
    Py_DECREF(seq);
    Py_INCREF(args[0]);
    Py_XSETREF(t->stopped_exc, args[0]);
    t->max_ply = (int)v[0];
    t->mate_bound = (int)v[1];
    t->perpetual_win = (int)v[2];
    t->see_margin = (int)v[3];
    memcpy(t->late_moves, late, sizeof late);
    memcpy(t->lmr, lmr, sizeof lmr);
    Py_RETURN_NONE;
}

static PyObject *get_attr(PyObject *obj, const char *name, long long *value)
{
    PyObject *attr = PyObject_GetAttrString(obj, name);
    if (attr != NULL && value != NULL) {
        *value = PyLong_AsLongLong(attr);
        if (*value == -1 && PyErr_Occurred()) {
            Py_DECREF(attr);
            return NULL;
        }
    }
    return attr;
}

const char search_doc[] = PyDoc_STR(
    "search(searcher, depth, alpha, beta, ply, null_ok, /)\n--\n\n"
    "Searcher.search(depth, alpha, beta, ply, null_ok) without evaluation noise, from the searcher's board\n"
    "and path (keys, checks, evals, floor), with its table (a dict), history (a list), killers and\n"
    "counters; updates them as the Python search does and returns (score, pv), pv the list of codes\n"
    "Searcher.pv[ply] would hold.  Exceptions of Searcher._poll (SearchStopped) propagate.");

PyObject *py_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ModuleState *st = module_state(module);
    EvalTables *t = st->eval;
    CSearch c;
    long long a[5], v;
    PyObject *keys = NULL, *checks = NULL, *evals = NULL, *killers = NULL, *obj = NULL, *result = NULL;
    Py_ssize_t len, i;
    int score = 0, value, null_ok;
    if (t == NULL || t->stopped_exc == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "shogiban._speedups: set_eval() and set_search() were not called");
        return NULL;
    }
    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "search() takes 6 arguments (%zd given)", nargs);
        return NULL;
    }
    for (i = 0; i < 4; i++) {
        a[i] = PyLong_AsLongLong(args[i + 1]);
        if (a[i] == -1 && PyErr_Occurred())
            return NULL;
        if (a[i] < -(1LL << 30) || a[i] > (1LL << 30)) {
            PyErr_SetString(PyExc_ValueError, "search(): an argument is out of range");
            return NULL;
        }
    }
    if ((null_ok = PyObject_IsTrue(args[5])) < 0)
        return NULL;
    if (a[3] < 0 || a[3] > t->max_ply) {
        PyErr_Format(PyExc_ValueError, "search(): ply must be in 0..%d", t->max_ply);
        return NULL;
    }
    memset(&c, 0, sizeof c);
    c.st = st;
    c.searcher = args[0];
    c.q.t = t;
    c.q.max_ply = t->max_ply;
    c.ply0 = (int)a[3];
    /* the searcher's state */
    if ((c.position = get_attr(c.searcher, "pos", NULL)) == NULL || (c.rep = get_attr(c.position, "_rep", NULL)) == NULL
        || (c.tt = get_attr(c.searcher, "tt", NULL)) == NULL || (c.history = get_attr(c.searcher, "history", NULL)) == NULL
        || (keys = get_attr(c.searcher, "keys", NULL)) == NULL || (checks = get_attr(c.searcher, "checks", NULL)) == NULL
        || (evals = get_attr(c.searcher, "evals", NULL)) == NULL
        || (killers = get_attr(c.searcher, "killers", NULL)) == NULL)
        goto done;
    if (!PyDict_CheckExact(c.tt) || !PyDict_CheckExact(c.rep) || !PyList_CheckExact(c.history)
        || PyList_GET_SIZE(c.history) != 65536 || !PyList_CheckExact(keys) || !PyList_CheckExact(checks)
        || !PyList_CheckExact(evals) || PyList_GET_SIZE(evals) < 1 || !PyList_CheckExact(killers)
        || PyList_GET_SIZE(killers) < t->max_ply + 2 || PyList_GET_SIZE(keys) < 1
        || PyList_GET_SIZE(checks) != PyList_GET_SIZE(keys) - 1) {
        PyErr_SetString(PyExc_TypeError,
                        "search(): the searcher's tt must be a dict, history a list of 65536 ints, keys, checks, "
                        "evals and killers lists (checks one shorter than keys)");
        goto done;
    }
    for (i = 0; i < 6; i++) {
        static const char *names[6] = {"nodes", "next_poll", "seldepth", "qmax", "tt_limit", "floor"};
        Py_XDECREF(obj);
        if ((obj = get_attr(c.searcher, names[i], &v)) == NULL)
            goto done;
        switch (i) {
        case 0: c.q.nodes = v; break;
        case 1: c.next_poll = v; break;
        case 2: c.q.seldepth = (int)v; break;
        case 3: c.q.qmax = (int)v; break;
        case 4: c.tt_limit = (Py_ssize_t)v; break;
        default: c.floor = (int)v; break;
        }
    }
    Py_XDECREF(obj);
    if ((obj = get_attr(c.searcher, "max_nodes", NULL)) == NULL)
        goto done;
    if (obj == Py_None) {
        c.q.limit = -1;
    } else {
        if ((c.q.limit = PyLong_AsLongLong(obj)) == -1 && PyErr_Occurred())
            goto done;
        if (c.q.limit < 0)
            c.q.limit = 0;
    }
    Py_XDECREF(obj);
    if ((obj = get_attr(c.searcher, "_declares", NULL)) == NULL || (c.declares = PyObject_IsTrue(obj)) < 0)
        goto done;
    Py_CLEAR(obj);
    score = (int)PyLong_AsLong(PyList_GET_ITEM(evals, PyList_GET_SIZE(evals) - 1));
    if (score == -1 && PyErr_Occurred())
        goto done;
    /* the path */
    len = PyList_GET_SIZE(keys);
    c.keys = PyMem_Malloc((size_t)(len + QS_PLIES) * sizeof *c.keys);
    c.checks = PyMem_Malloc((size_t)(len + QS_PLIES));
    c.real = PyMem_Malloc((size_t)(len + QS_PLIES));
    if (c.keys == NULL || c.checks == NULL || c.real == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    c.checks[0] = 0; /* Searcher.checks[i] is about keys[i + 1]: here checks[i] is about keys[i] */
    for (i = 0; i < len; i++) {
        c.keys[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(keys, i));
        if (c.keys[i] == (uint64_t)-1 && PyErr_Occurred())
            goto done;
        if (i + 1 < len) {
            int check = PyObject_IsTrue(PyList_GET_ITEM(checks, i));
            if (check < 0)
                goto done;
            c.checks[i + 1] = (uint8_t)check;
        }
        c.real[i] = 1;
    }
    c.n = c.base = (int)len;
    if (c.floor < 0 || c.floor > c.n) {
        PyErr_SetString(PyExc_ValueError, "search(): floor out of range");
        goto done;
    }
    /* the killers */
    for (i = 0; i < t->max_ply + 2; i++) {
        PyObject *pair = PyList_GET_ITEM(killers, i);
        long k[2];
        int j;
        if (!PyList_CheckExact(pair) || PyList_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "search(): killers must be lists of 2 codes");
            goto done;
        }
        for (j = 0; j < 2; j++) {
            if ((k[j] = PyLong_AsLong(PyList_GET_ITEM(pair, j))) == -1 && PyErr_Occurred())
                goto done;
            c.killers[i][j] = (int)k[j];
        }
    }
    if ((c.q.w = acquire_work(t)) == NULL)
        goto done;
    if (load_position(st, c.position, &c.q.w->pos[c.ply0]) < 0) {
        release_work(t, c.q.w);
        goto done;
    }
    value = search(&c, (int)a[0], (int)a[1], (int)a[2], c.ply0, null_ok, score);
    {
        /* write back the counters and the killers, keeping an exception raised */
        PyObject *type, *exc, *tb;
        PyErr_Fetch(&type, &exc, &tb);
        if (write_counts(&c) < 0) {
            Py_XDECREF(type), Py_XDECREF(exc), Py_XDECREF(tb);
            release_work(t, c.q.w);
            goto done;
        }
        for (i = 0; i < t->max_ply + 2; i++) {
            PyObject *pair = PyList_GET_ITEM(killers, i);
            int j;
            for (j = 0; j < 2; j++) {
                PyObject *old = PyList_GET_ITEM(pair, j), *now;
                long k = PyLong_AsLong(old);
                if (k == c.killers[i][j])
                    continue;
                if ((now = PyLong_FromLong(c.killers[i][j])) == NULL) {
                    Py_XDECREF(type), Py_XDECREF(exc), Py_XDECREF(tb);
                    release_work(t, c.q.w);
                    goto done;
                }
                PyList_SetItem(pair, j, now);
            }
        }
        PyErr_Restore(type, exc, tb);
    }
    if (!c.error) {
        Work *w = c.q.w;
        int plen = w->pv_len[c.ply0];
        PyObject *pv = PyList_New(plen);
        if (pv != NULL) {
            for (i = 0; i < plen; i++) {
                PyObject *code = PyLong_FromLong(w->pv[c.ply0][i]);
                if (code == NULL) {
                    Py_CLEAR(pv);
                    break;
                }
                PyList_SET_ITEM(pv, i, code);
            }
        }
        if (pv != NULL)
            result = Py_BuildValue("(iN)", value, pv);
    }
    release_work(t, c.q.w);
done:
    PyMem_Free(c.keys);
    PyMem_Free(c.checks);
    PyMem_Free(c.real);
    Py_XDECREF(obj);
    Py_XDECREF(keys);
    Py_XDECREF(checks);
    Py_XDECREF(evals);
    Py_XDECREF(killers);
    Py_XDECREF(c.position);
    Py_XDECREF(c.rep);
    Py_XDECREF(c.tt);
    Py_XDECREF(c.history);
    return result;
}

/* (position, code) from the arguments of may_give_check and threatens; -1 with an exception. */
static int position_and_code(ModuleState *st, PyObject *const *args, Py_ssize_t nargs, const char *name, Pos *p,
                             int *code)
{
    long v;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes 2 arguments (%zd given)", name, nargs);
        return -1;
    }
    v = PyLong_AsLong(args[1]);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v >= CODE_LIMIT || (v & 127) >= 81 || (v >> 7 & 127) >= 81 + 8) {
        PyErr_Format(PyExc_ValueError, "%s(): %ld is not a move code", name, v);
        return -1;
    }
    *code = (int)v;
    return load_position(st, args[0], p);
}

const char may_give_check_doc[] = PyDoc_STR(
    "may_give_check(position, code, /)\n--\n\n"
    "shogiban.engine.movegen.may_give_check(position, code).");

PyObject *py_may_give_check(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Pos p;
    int code;
    if (position_and_code(module_state(module), args, nargs, "may_give_check", &p, &code) < 0)
        return NULL;
    return PyBool_FromLong(may_give_check(&p, code));
}

const char see_doc[] = PyDoc_STR(
    "see(position, code, /)\n--\n\n"
    "shogiban.engine.see.see(position, code) (set_eval must have been called).");

PyObject *py_see(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ModuleState *st = module_state(module);
    EvalTables *t = need_eval(st);
    Pos p;
    int code;
    if (t == NULL || position_and_code(st, args, nargs, "see", &p, &code) < 0)
        return NULL;
    return PyLong_FromLong(see(t, &p, code));
}

const char threatens_doc[] = PyDoc_STR(
    "threatens(position, code, /)\n--\n\n"
    "shogiban.engine.search.threatens(position, code) (set_eval must have been called).");

PyObject *py_threatens(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ModuleState *st = module_state(module);
    EvalTables *t = need_eval(st);
    Pos p;
    int code;
    if (t == NULL || position_and_code(st, args, nargs, "threatens", &p, &code) < 0)
        return NULL;
    return PyBool_FromLong(threatens(t, &p, code));
}
