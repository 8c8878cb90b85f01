/*
 * shogiban._speedups: static exchange evaluation, the twin of shogiban.engine.see.see, on the
 * values set_eval derives from the evaluation's MATERIAL (EvalTables gain, promotion_gain,
 * lva_order).
 */

#ifndef SHOGIBAN_SPEEDUPS_SEE_H
#define SHOGIBAN_SPEEDUPS_SEE_H

#include "qsearch.h"

/* The exchange value of `code` (not yet played) for the side to move (engine.see.see). */
INTERNAL int see(const EvalTables *t, const Pos *p, int code);

#endif /* SHOGIBAN_SPEEDUPS_SEE_H */
