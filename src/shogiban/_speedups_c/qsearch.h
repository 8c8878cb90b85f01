/*
 * shogiban._speedups: the engine's static evaluation (shogiban.engine.evaluate: full_score,
 * move_delta, extras with king_danger and attacks_near) and its quiescence search
 * (shogiban.engine.search.Searcher.qsearch), on the tables set_eval hands over from Python.
 */

#ifndef SHOGIBAN_SPEEDUPS_QSEARCH_H
#define SHOGIBAN_SPEEDUPS_QSEARCH_H

#include "movegen.h"

#define NO_KING 81
#define MAX_HAND 19
#define HAND_ROW (MAX_HAND + 2)
/* Plies the work space holds: the search's MAX_PLY must be below this. */
#define QS_PLIES 128

typedef struct EvalTables {
    int32_t own[NO_KING + 1][32][81];
    int32_t attack[NO_KING + 1][32][81];
    int32_t hand[2][8][HAND_ROW];
    int32_t hand_sum[2][8][HAND_ROW];
    int32_t material[15];
    int32_t attacked[9];
    int32_t exposure[9];
    int32_t attacked_hand, tempo, mate;
    /* evaluate.NEAR, BOX2, BOX3, ROOK_REACH, BISHOP_REACH */
    BB near[81], box2[81], box3[81], rook_reach[81], bishop_reach[81];
    /* search._VICTIM, _ATTACKER, _GAIN and _MVV_LVA */
    int32_t victim[32], attacker[32], gain[32];
    int32_t mvv_lva[32 * 32];
    /* see.PROMOTION_GAIN and see.ORDER (the piece types from the least valuable attacker) */
    int32_t promotion_gain[32];
    uint8_t lva_order[14];
    /* work spaces not in use (see acquire_work) */
    struct Work *free_work;
    /* set_search: search.SearchStopped and the search's constants */
    PyObject *stopped_exc;
    int max_ply, mate_bound, perpetual_win, see_margin, late_moves[4];
    /* search._LMR: late-move reductions by depth and move number (each capped at 63) */
    int8_t lmr[64][64];
} EvalTables;

/* A search's work space: a position, its moves and its line per ply.  One per search in
 * progress: the main search calls back into Python (polling), where another thread may search
 * too, so each call takes a work space of its own from the module's free list. */
typedef struct Work {
    Pos pos[QS_PLIES];
    uint16_t codes[QS_PLIES][MAX_MOVES];
    int32_t keys[MAX_MOVES];
    uint16_t pv[QS_PLIES][QS_PLIES];
    int pv_len[QS_PLIES];
    /* the main search's move order per ply and its sort keys (search.c) */
    uint16_t order[QS_PLIES][MAX_MOVES];
    int64_t sort_keys[2][MAX_MOVES];
    struct Work *next;
} Work;

/* The quiescence search's state (the main search's too). */
typedef struct {
    EvalTables *t;
    Work *w;
    long long nodes, limit; /* limit < 0: none */
    int seldepth, qmax, max_ply, stopped, failed;
} Search;

/* Free what set_eval allocated (module free). */
INTERNAL void free_eval(ModuleState *st);

/* A work space from the free list (or a new one; NULL with an exception), and back. */
INTERNAL Work *acquire_work(EvalTables *t);
INTERNAL void release_work(EvalTables *t, Work *w);
/* The module's tables, or NULL with RuntimeError set when set_eval() was not called. */
INTERNAL EvalTables *need_eval(ModuleState *st);

/* What the main search shares with the quiescence search. */
INTERNAL int move_delta(const EvalTables *t, const Pos *p, int code);
INTERNAL void play(const Pos *from, Pos *to, int code);
INTERNAL int static_eval(const EvalTables *t, const Pos *p, int score);
INTERNAL int in_check(const Pos *p);
INTERNAL int takes_king(const Pos *p, int code);
INTERNAL void set_pv(Work *w, int ply, int code);
INTERNAL int qsearch(Search *s, int alpha, int beta, int ply, int qply, int score, int check);

INTERNAL extern const char set_eval_doc[], eval_parts_doc[], attacks_near_doc[], qsearch_doc[];
INTERNAL PyObject *set_eval(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *eval_parts(PyObject *module, PyObject *position);
INTERNAL PyObject *py_attacks_near(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *py_qsearch(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif /* SHOGIBAN_SPEEDUPS_QSEARCH_H */
