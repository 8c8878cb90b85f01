/*
 * shogiban._speedups, static exchange evaluation: a port of shogiban.engine.see.see that gives
 * the same value for every move (the quiescence search skips the captures it finds losing, so
 * the two must agree exactly for the searches to match).
 */

#include "see.h"

static inline int in_zone(int color, int sq) { return color ? sq >= 54 : sq < 27; }

/* Both colours' pieces in `occupied` that attack `sq` through `occupied` (engine.see._attackers,
 * Position._attackers for each colour). */
static BB attackers_to(const Pos *p, int sq, BB occupied)
{
    const BB *bb = p->bb;
    BB r = EMPTY, rooks, bishops;
    int by;
    for (by = 0; by < 2; by++) {
        int o = by << 4, m = (by ^ 1) << 4; /* a piece of the other colour on sq mirrors the steps */
        BB golds = bb_or(bb_or(bb[7 | o], bb[9 | o]), bb_or(bb_or(bb[10 | o], bb[11 | o]), bb[12 | o]));
        BB kings = bb_or(bb[8 | o], bb_or(bb[13 | o], bb[14 | o]));
        r = bb_or(r, bb_and(STEP[1 | m][sq], bb[1 | o]));
        r = bb_or(r, bb_and(STEP[3 | m][sq], bb[3 | o]));
        r = bb_or(r, bb_and(STEP[4 | m][sq], bb[4 | o]));
        r = bb_or(r, bb_and(STEP[7 | m][sq], golds));
        r = bb_or(r, bb_and(STEP[8][sq], kings));
    }
    rooks = bb_or(bb_or(bb[6], bb[14]), bb_or(bb[22], bb[30]));
    bishops = bb_or(bb_or(bb[5], bb[13]), bb_or(bb[21], bb[29]));
    if (bb_any(bb_and(ROOK_RAYS[sq], rooks)))
        r = bb_or(r, bb_and(rook_attack(sq, occupied), rooks));
    if (bb_any(bb_and(BISHOP_RAYS[sq], bishops)))
        r = bb_or(r, bb_and(bishop_attack(sq, occupied), bishops));
    /* a sente lance attacks from the south of sq, a gote lance from the north */
    r = bb_or(r, bb_and(ray_attack(S, sq, occupied), bb[2]));
    r = bb_or(r, bb_and(ray_attack(N, sq, occupied), bb[18]));
    return bb_and(r, occupied);
}

int see(const EvalTables *t, const Pos *p, int code)
{
    int gains[40]; /* one capture per piece at most: 40 pieces */
    int to = code & 127, frm = code >> 7 & 127, color = p->turn, side, piece, d;
    BB occupied = bb_or(p->occ[0], p->occ[1]), attackers, aligned = bb_or(ROOK_RAYS[to], BISHOP_RAYS[to]);
    if (frm >= 81) {
        piece = (frm - 81) | color << 4;
        gains[0] = 0;
    } else {
        piece = p->board[frm];
        gains[0] = t->gain[p->board[to]];
        occupied = bb_xor(occupied, BIT[frm]);
        if (code >> 14) {
            gains[0] += t->promotion_gain[piece];
            piece += 8;
        }
    }
    d = 0;
    attackers = attackers_to(p, to, occupied);
    side = color ^ 1;
    for (;;) {
        BB mine = bb_and(attackers, p->occ[side]), found = EMPTY;
        int i, pt = 0, sq, gain;
        if (!bb_any(mine) || d >= 39)
            break;
        for (i = 0; i < 14; i++) {
            pt = t->lva_order[i];
            found = bb_and(mine, p->bb[pt | side << 4]);
            if (bb_any(found))
                break;
        }
        sq = bb_lsb(found);
        occupied = bb_xor(occupied, BIT[sq]);
        if (bb_has(aligned, sq))
            attackers = attackers_to(p, to, occupied); /* the sliders behind it join */
        else
            attackers = bb_xor(attackers, BIT[sq]);
        if (pt == 8 && bb_any(bb_and(attackers, p->occ[side ^ 1])))
            break; /* the king cannot take on a square the enemy still attacks */
        gain = t->gain[piece] - gains[d];
        piece = pt | side << 4;
        if (pt <= 6 && (in_zone(side, sq) || in_zone(side, to))) {
            gain += t->promotion_gain[piece];
            piece += 8;
        }
        gains[++d] = gain;
        side ^= 1;
    }
    /* each side takes only when it does not lose by it: from the last capture back */
    for (; d; d--)
        if (gains[d] > -gains[d - 1])
            gains[d - 1] = -gains[d];
    return gains[0];
}
