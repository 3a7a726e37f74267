/* The evaluator of mission conditions translated by crewkit/families/trick_taking/bots/condcode.py: one copy,
 * included by the fast bot's look-ahead (bots/_fastsim.c) and the solver's trick search (solve/_native.c).
 *
 * The including file defines, before including this one: u64, ll, low_index, popcount, MAXC (cards), MAXS
 * (seats), MAXSUIT (suits), MAXT (tasks), MAXTR (tricks), MAXCOND, MAXL, MAXVARS, MAXPART, and the type World,
 * the position the conditions read: n, hands[], nplays, play_card[], ntr (tricks completed, in CondCtx.hist),
 * won_count[], ntasks, task_bits, task_owner, pending (a bit per task not done).
 */
#ifndef CREWKIT_CONDEVAL_H
#define CREWKIT_CONDEVAL_H
/* The conditions are nodes (op, a, b, c) that ev() evaluates over the position x->w and the completed tricks
 * x->hist. Values are 64-bit; NONEV is the DSL's none. Where the DSL would raise an error, ev() sets x->err and
 * the caller leaves the decision to its Python twin, which raises it as the engine does. */
#define NONEV ((ll)INT64_MIN)

enum {
    OP_CONST, OP_VAR, OP_PLAYERS, OP_TRICKS, OP_TASKS, OP_CURCARDS, OP_LATEST, OP_FIRST, OP_LASTTRICK,
    OP_PLAYED_N, OP_LEFT_N, OP_NOT, OP_NEG, OP_AND, OP_OR, OP_ADD, OP_SUB, OP_MUL, OP_FDIV, OP_MOD, OP_IF,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_IN, OP_NOTIN, OP_LISTLIT, OP_CONSTLIST, OP_TRICKS_WON,
    OP_CARDS_WON, OP_HAND, OP_WON_BY, OP_PLAYED, OP_LEFT_UNPLAYED, OP_TRICK_OF, OP_TRICK_AT, OP_LEFT_OF,
    OP_RIGHT_OF, OP_IS_TRUMP, OP_IS_COLOUR, OP_COUNTLIST, OP_ABS, OP_MAX2, OP_MIN2, OP_TASK_OF, OP_DONE,
    OP_TASKS_OF, OP_C_SUIT, OP_C_RANK, OP_C_TRUMP, OP_C_SPECIAL, OP_T_NUMBER, OP_T_LEADER, OP_T_WINNER,
    OP_T_WINCARD, OP_T_CARDS, OP_T_LED, OP_T_FIRST, OP_T_LAST, OP_K_CARD, OP_K_OWNER, OP_K_TOKEN, OP_K_DONE,
    OP_K_TRICK, OP_S_TRUMP, OP_ALL, OP_ANY, OP_COUNT, OP_SUM, OP_MAX, OP_MIN, OP_MEMO,
    OP_STABLE, OP_LOST_FOR, OP_LONGEST_RUN, OP_OTHERS, OP_T_LASTCARD, OP_UNPLAYED_BY, OP_NUMBER_OF_OPS
};

#define MAXMEMO 16 /* condcode.py: MAX_MEMO */

typedef struct {
    int leader, winner, wincard, nplays;
    int seat[MAXS], card[MAXS];
    u64 mask;
    u64 upto; /* the cards of the tricks up to this one */
    /* OP_MEMO: the value of quantifier body k for this trick, valid where bit k of memo_valid is set, and
     * the value of its all/any/count over the tricks up to this one, valid where bit MAXMEMO + k is (a
     * completed trick never changes; whoever writes the record clears the bits); OP_STABLE: the value of
     * stable part k once this trick is the last one completed, valid where bit 2 * MAXMEMO + k is */
    u64 memo_valid;
    ll memo[MAXMEMO], agg[MAXMEMO], stable[MAXMEMO];
    /* which write of this record, and the serial of the record before it when it was written (0 before the
     * first trick): a world that completes the same trick after the same tricks (a trial of score_after,
     * then the play itself) keeps the record and what was memoized in it */
    u64 serial, prev_serial;
} TrickRec;

typedef struct CondCtx {
    int nc, nsuits, total_tricks;
    ll card_suit[MAXC];
    int card_rank[MAXC], card_trump[MAXC], card_special[MAXC], suit_trump[MAXSUIT];
    int ntokens;
    ll token[MAXT];
    int ncond, after_play;
    int fail_at[MAXCOND], done_at[MAXCOND], check[MAXCOND];
    /* The disjuncts of each condition's fail_if and done_if (an `or` taken apart, each list ended by -1), and
     * of a condition judged after every card those that can change during a trick (not STABLE), where
     * in_trick[i] (split_conditions) */
    int fail_parts[MAXCOND][MAXPART + 1], done_parts[MAXCOND][MAXPART + 1];
    int fail_in_trick[MAXCOND][MAXPART + 1], done_in_trick[MAXCOND][MAXPART + 1];
    unsigned char in_trick[MAXCOND];
    /* what a trick's end judges: the parts, with a STABLE part of an in_trick condition read through (its
     * value is read by no later judgement: those of the trick to come skip it) */
    int fail_at_end[MAXCOND][MAXPART + 1], done_at_end[MAXCOND][MAXPART + 1];
    int nnodes, npool;
    ll *code, *pool;
    /* Card predicates as masks (fs_cond_new: fold_quantifiers). A node that reads nothing but its quantifier's
     * variable and constants has its truth for each value 0..nc-1 of that variable in table[node]
     * (has_table); a constant list of distinct values below nc is a set, its mask in table[node] too
     * (is_set); a node that reads only that variable has its values in vals[node] (an array of nc, where
     * none raises an error nor is none). A quantifier all/any/count is then of kind 1 when its body is a
     * mask expression (see vec_ok: tables, not/and/or, played, left_unplayed, trick_of(c) == none, won_by(c)
     * == a constant, a comparison of values with what does not read the variable, the card unplayed by a
     * trick; vec_form[node] says which): its truth for every card at once, so over a set of cards it is a
     * mask operation; or of kind 2 when its body is `A and ...` with A a table, fold_arg[node] that A: an
     * item where A is false is false without evaluating the rest. */
    unsigned char *fold_kind, *has_table, *is_set, *vec_form;
    int *fold_arg;
    u64 *table;
    ll **vals;
    u64 deck; /* the values 0..nc-1 */
    u64 serials; /* TrickRec.serial: the writes so far */
    /* per evaluation */
    const World *w;
    ll vars[MAXVARS];
    long steps;
    int err;
    /* the tricks of the play-out under way: a world writes only at its own ntr and no living copy of it
     * reads beyond its own ntr, so all the copies of one decision share this buffer */
    TrickRec hist[MAXTR];
} CondCtx;

#define MAX_STEPS 2000000L /* crewkit/dsl/limits.py: MAX_STEPS (never reached by an accepted condition) */

static inline int truthy(ll v) { return v != 0 && v != NONEV; }

static ll ev_node(CondCtx *x, int i);
static int ev_list(CondCtx *x, int i, ll *out);

/* A node's value: a variable or a constant here (a third of the nodes a play-out evaluates), the rest by
 * ev_node */
static __attribute__((noinline)) ll quantify(CondCtx *x, const ll *nd);

static inline ll ev(CondCtx *x, int i) {
    const ll *nd = x->code + 4 * i;
    if (!x->err) {
        if (nd[0] == OP_VAR) return x->vars[nd[1]];
        if (nd[0] == OP_CONST) return nd[1];
        if (nd[0] >= OP_ALL && nd[0] <= OP_MIN) return quantify(x, nd); /* the most frequent of the costly */
    }
    return ev_node(x, i);
}

static inline ll bad(CondCtx *x) { x->err = 1; return 0; }

static int seat_ok(CondCtx *x, ll p) {
    if (p == NONEV || p < 0 || p >= x->w->n) { x->err = 1; return 0; }
    return 1;
}

static ll trick_of(const CondCtx *x, ll c) {
    const World *w = x->w;
    if (c < 0 || c >= MAXC) return NONEV;
    u64 bit = (u64)1 << c;
    if (!w->ntr || !(x->hist[w->ntr - 1].upto & bit)) return NONEV;
    for (int i = 0; i < w->ntr; i++)
        if (x->hist[i].mask & bit) return i;
    return NONEV;
}

static int played(const CondCtx *x, ll c) {
    const World *w = x->w;
    if (c >= 0 && c < MAXC && w->ntr && (x->hist[w->ntr - 1].upto >> c & 1)) return 1; /* in a completed trick */
    for (int i = 0; i < x->w->nplays; i++)
        if (x->w->play_card[i] == c) return 1;
    return 0;
}

/* all/any/count(t in tricks: body) with a MEMO body: the running value after each trick is kept in that
 * trick's record, so an evaluation visits only the tricks completed since the last one (the values and the
 * short-circuits are those of the loop in ev) */
static ll over_tricks(CondCtx *x, int op, int slot, int body) {
    int k = (int)x->code[4 * body + 2];
    u64 bit = (u64)1 << (MAXMEMO + k);
    int n = x->w->ntr, j = n - 1;
    while (j >= 0 && !(x->hist[j].memo_valid & bit)) j--;
    ll acc = j >= 0 ? x->hist[j].agg[k] : (op == OP_ALL);
    for (j++; j < n; j++) {
        if (op == OP_COUNT || (op == OP_ALL) == (acc != 0)) {
            x->vars[slot] = j;
            /* the MEMO's body itself: its value for trick j is wanted again only through this running value */
            ll v = ev(x, (int)x->code[4 * body + 1]);
            if (x->err) return 0;
            acc = op == OP_COUNT ? acc + truthy(v) : truthy(v);
        }
        x->hist[j].agg[k] = acc;
        x->hist[j].memo_valid |= bit;
    }
    return acc;
}

/* any/count(t in tricks: A and B) where A is a MEMO of the trick (condcode.py: a filter on the trick, B what
 * reads the position): the tricks where A holds are kept as a mask in the trick records (agg of A's slot),
 * and B is evaluated for those alone, in the order of ev's loop, so the values and errors are ev's */
static ll over_filtered(CondCtx *x, int op, int slot, int body) {
    int left = (int)x->code[4 * body + 1];
    int k = (int)x->code[4 * left + 2];
    u64 bit = (u64)1 << (MAXMEMO + k);
    int n = x->w->ntr, j = n - 1;
    while (j >= 0 && !(x->hist[j].memo_valid & bit)) j--;
    u64 m = j >= 0 ? (u64)x->hist[j].agg[k] : 0;
    for (j++; j < n; j++) {
        x->vars[slot] = j;
        ll v = ev(x, left);
        if (x->err) return 0;
        if (truthy(v)) m |= (u64)1 << j;
        x->hist[j].agg[k] = (ll)m;
        x->hist[j].memo_valid |= bit;
    }
    ll acc = 0;
    while (m) {
        j = low_index(m);
        m &= m - 1;
        x->vars[slot] = j;
        ll v = ev(x, body);
        if (x->err) return 0;
        if (truthy(v)) {
            if (op == OP_ANY) return 1;
            acc++;
        }
    }
    return acc;
}

static ll floordiv(ll a, ll b) { ll q = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) q--; return q; }

/* Quantifiers, the list membership and count(list), out of ev: their list buffers would otherwise make every
 * call of ev, the most frequent in a play-out, reserve half a kilobyte of stack */
/* The cards played so far: in the completed tricks and in the trick in progress. */
static u64 played_mask(const CondCtx *x) {
    const World *w = x->w;
    u64 m = w->ntr ? x->hist[w->ntr - 1].upto : 0;
    for (int j = 0; j < w->nplays; j++) m |= (u64)1 << w->play_card[j];
    return m;
}

enum { VF_CONST_CMP = 1, VF_VALUES_LEFT, VF_VALUES_RIGHT, VF_UNPLAYED_BY }; /* CondCtx.vec_form */

/* Whether value a compares with b as comparison op says. */
static inline int compare(int op, ll a, ll b) {
    switch (op) {
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    default: return a >= b;
    }
}

/* Node i, which does not read the quantifier's variable, evaluated for vec_mask: 0 where it raises an error
 * (then nothing of the attempt is left: the items, evaluated one by one, raise it where ev would). */
static int outer_value(CondCtx *x, int i, ll *out) {
    long steps = x->steps;
    ll v = ev(x, i);
    if (x->err) { x->err = 0; x->steps = steps; return 0; }
    *out = v;
    return 1;
}

static int vec_mask(CondCtx *x, int i, u64 care, u64 *out);

/* vec_mask of an operand of not/and/or: a table or the cards played without a call */
static inline int vec_child(CondCtx *x, int i, u64 care, u64 *out) {
    if (x->has_table[i]) { *out = x->table[i]; return 1; }
    if (x->code[4 * i] == OP_PLAYED) { *out = played_mask(x); return 1; }
    return vec_mask(x, i, care, out);
}

/* The truth of mask expression i (vec_ok) for each value 0..nc-1 of its quantifier's variable, at least for
 * those in care, into *out; 0 when it cannot be had at once in this position (an operand that raises an
 * error or is none where the items would raise one: the caller then evaluates the items one by one). */
static int vec_mask(CondCtx *x, int i, u64 care, u64 *out) {
    if (x->has_table[i]) { *out = x->table[i]; return 1; }
    const ll *nd = x->code + 4 * i;
    const World *w = x->w;
    u64 a, b;
    switch ((int)nd[0]) {
    case OP_NOT:
        if (!vec_child(x, (int)nd[1], care, &a)) return 0;
        *out = x->deck & ~a;
        return 1;
    case OP_AND: case OP_OR:
        if (!vec_child(x, (int)nd[1], care, &a) || !vec_child(x, (int)nd[2], care, &b)) return 0;
        *out = nd[0] == OP_AND ? a & b : a | b;
        return 1;
    case OP_PLAYED: *out = played_mask(x); return 1;
    case OP_LEFT_UNPLAYED: *out = w->ntr >= x->total_tricks ? x->deck & ~played_mask(x) : 0; return 1;
    default: break;
    }
    u64 done = w->ntr ? x->hist[w->ntr - 1].upto & x->deck : 0; /* the cards in completed tricks */
    switch (x->vec_form[i]) {
    case VF_VALUES_LEFT: case VF_VALUES_RIGHT: { /* f(c) compared with g (see vec_ok) */
        int left = x->vec_form[i] == VF_VALUES_LEFT;
        const ll *f = x->vals[left ? nd[1] : nd[2]];
        ll g;
        if (!outer_value(x, (int)(left ? nd[2] : nd[1]), &g)) return 0;
        if (g == NONEV && nd[0] != OP_EQ && nd[0] != OP_NE) return 0; /* an order with none: the items' error */
        int op = (int)nd[0];
        u64 m = 0, q = care & x->deck;
        while (q) {
            int c = low_index(q);
            q &= q - 1;
            if (left ? compare(op, f[c], g) : compare(op, g, f[c])) m |= (u64)1 << c;
        }
        *out = m;
        return 1;
    }
    case VF_UNPLAYED_BY: { /* not in a completed trick up to trick t (OP_UNPLAYED_BY) */
        ll t;
        if (!outer_value(x, (int)nd[2], &t) || t == NONEV) return 0; /* a played card would raise the error */
        if (t < 0) *out = x->deck;
        else if (t >= w->ntr) *out = x->deck & ~done;
        else *out = x->deck & ~x->hist[t].upto;
        return 1;
    }
    default: { /* trick_of(c) == none, won_by(c) == K (a constant seat or none), or != */
        ll l = nd[1], r = nd[2];
        if (x->code[4 * l] == OP_CONST) { ll t = l; l = r; r = t; }
        ll k = x->code[4 * r + 1];
        u64 m = 0; /* the cards for which the operands are equal */
        if (x->code[4 * l] == OP_TRICK_OF || k == NONEV) m = x->deck & ~done; /* in no completed trick */
        else
            for (int t = 0; t < w->ntr; t++)
                if (x->hist[t].winner == k) m |= x->hist[t].mask;
        *out = nd[0] == OP_EQ ? m & x->deck : x->deck & ~m;
        return 1;
    }
    }
}

/* The cards of a quantifier's source when it is a set of cards (the trick in progress, a completed trick's
 * cards, a hand, a constant set) into *m: 1; 0 for other sources (and when the source raised an error) */
static int card_set(CondCtx *x, const ll *nd, u64 *m) {
    const ll *src = x->code + 4 * nd[2];
    const World *w = x->w;
    ll a;
    *m = 0;
    switch ((int)src[0]) {
    case OP_CURCARDS: for (int j = 0; j < w->nplays; j++) *m |= (u64)1 << w->play_card[j]; return 1;
    case OP_T_CARDS:
        a = ev(x, (int)src[1]);
        if (x->err) return 0;
        if (a == NONEV) { bad(x); return 0; }
        *m = x->hist[a].mask;
        return 1;
    case OP_HAND:
        a = ev(x, (int)src[1]);
        if (x->err || !seat_ok(x, a)) return 0;
        *m = w->hands[a];
        return 1;
    case OP_CONSTLIST:
        if (!x->is_set[nd[2]]) return 0;
        *m = x->table[nd[2]];
        return 1;
    default: return 0;
    }
}

static __attribute__((noinline)) ll quantify(CondCtx *x, const ll *nd) {
    int node = (int)((nd - x->code) / 4), kind = x->fold_kind[node];
    u64 truth = 0;
    if (kind == 1) {
        /* over a set of cards, a mask operation (no item can raise an error and the body has no effect, so
         * the order of the items does not matter) */
        u64 m;
        if (card_set(x, nd, &m)) {
            x->steps += popcount(m);
            if (x->steps > MAX_STEPS) return bad(x);
            if (!m) return nd[0] == OP_ALL;
            if (vec_mask(x, (int)nd[3], m, &truth)) {
                switch ((int)nd[0]) {
                case OP_ALL: return (m & ~truth) == 0;
                case OP_ANY: return (m & truth) != 0;
                default: return popcount(m & truth);
                }
            }
        }
        if (x->err) return 0;
        if (!vec_mask(x, (int)nd[3], x->deck, &truth)) kind = 0; /* the items one by one */
    } else if (kind == 2) {
        truth = x->table[x->fold_arg[node]];
    }
    if (nd[0] <= OP_COUNT && x->code[4 * nd[2]] == OP_TRICKS) {
        const ll *body = x->code + 4 * nd[3];
        if (body[0] == OP_MEMO) return over_tricks(x, (int)nd[0], (int)nd[1], (int)nd[3]);
        if (nd[0] != OP_ALL && body[0] == OP_AND && x->code[4 * body[1]] == OP_MEMO
            && x->code[4 * body[1] + 3] == nd[1])
            return over_filtered(x, (int)nd[0], (int)nd[1], (int)nd[3]);
    }
    ll buf[MAXL];
    int slot = (int)nd[1], k = ev_list(x, (int)nd[2], buf);
    x->steps += k;
    if (x->steps > MAX_STEPS) return bad(x);
    ll acc = 0;
    int op = (int)nd[0];
    if (op == OP_ALL) acc = 1;
    if ((op == OP_MAX || op == OP_MIN) && k == 0) return bad(x);
    for (int j = 0; j < k && !x->err; j++) {
        x->vars[slot] = buf[j];
        ll v;
        if (kind && buf[j] >= 0 && buf[j] < x->nc) {
            /* kind 1: the body's truth for this value; kind 2: false where A is, else the body itself */
            int holds = (int)(truth >> buf[j] & 1);
            v = kind == 1 ? holds : (holds ? ev(x, (int)nd[3]) : 0);
        } else {
            v = ev(x, (int)nd[3]);
        }
        if (op == OP_ALL) { if (!truthy(v)) return 0; }
        else if (op == OP_ANY) { if (truthy(v)) return 1; }
        else if (op == OP_COUNT) { if (truthy(v)) acc++; }
        else {
            if (v == NONEV) return bad(x);
            if (op == OP_SUM) { if (__builtin_add_overflow(acc, v, &acc)) return bad(x); }
            else if (j == 0 || (op == OP_MAX ? v > acc : v < acc)) acc = v;
        }
    }
    return acc;
}

static __attribute__((noinline)) ll member(CondCtx *x, const ll *nd) {
    ll buf[MAXL];
    ll a = ev(x, (int)nd[1]);
    int k = ev_list(x, (int)nd[2], buf), found = 0;
    for (int j = 0; j < k; j++) if (buf[j] == a) { found = 1; break; }
    return (nd[0] == OP_IN) ? found : !found;
}

static __attribute__((noinline)) ll count_list(CondCtx *x, const ll *nd) {
    ll buf[MAXL];
    return ev_list(x, (int)nd[1], buf);
}

static ll ev_node(CondCtx *x, int i) {
    if (x->err) return 0;
    const ll *nd = x->code + 4 * i;
    const World *w = x->w;
    ll a, b, r;
    switch ((int)nd[0]) {
    case OP_CONST: return nd[1];
    case OP_VAR: return x->vars[nd[1]];
    case OP_LATEST: return w->ntr ? w->ntr - 1 : NONEV;
    case OP_FIRST: return w->ntr ? 0 : NONEV;
    case OP_LASTTRICK: return (w->ntr && w->ntr == x->total_tricks) ? w->ntr - 1 : NONEV;
    case OP_PLAYED_N: return w->ntr;
    case OP_LEFT_N: return x->total_tricks - w->ntr;
    case OP_NOT: return !truthy(ev(x, (int)nd[1]));
    case OP_NEG: a = ev(x, (int)nd[1]); return a == NONEV ? bad(x) : -a;
    case OP_AND: return truthy(ev(x, (int)nd[1])) && truthy(ev(x, (int)nd[2]));
    case OP_OR: return truthy(ev(x, (int)nd[1])) || truthy(ev(x, (int)nd[2]));
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_FDIV: case OP_MOD:
        a = ev(x, (int)nd[1]);
        b = ev(x, (int)nd[2]);
        if (a == NONEV || b == NONEV) return bad(x);
        switch ((int)nd[0]) {
        case OP_ADD: if (__builtin_add_overflow(a, b, &r) || r == NONEV) return bad(x); return r;
        case OP_SUB: if (__builtin_sub_overflow(a, b, &r) || r == NONEV) return bad(x); return r;
        case OP_MUL: if (__builtin_mul_overflow(a, b, &r) || r == NONEV) return bad(x); return r;
        case OP_FDIV: if (b == 0) return bad(x); return floordiv(a, b);
        default: if (b == 0) return bad(x); r = a % b; if (r != 0 && ((r < 0) != (b < 0))) r += b; return r;
        }
    case OP_IF: return truthy(ev(x, (int)nd[2])) ? ev(x, (int)nd[1]) : ev(x, (int)nd[3]);
    case OP_EQ: return ev(x, (int)nd[1]) == ev(x, (int)nd[2]);
    case OP_NE: return ev(x, (int)nd[1]) != ev(x, (int)nd[2]);
    case OP_LT: case OP_LE: case OP_GT: case OP_GE:
        a = ev(x, (int)nd[1]);
        b = ev(x, (int)nd[2]);
        if (a == NONEV || b == NONEV) return bad(x);
        switch ((int)nd[0]) {
        case OP_LT: return a < b;
        case OP_LE: return a <= b;
        case OP_GT: return a > b;
        default: return a >= b;
        }
    case OP_IN: case OP_NOTIN: return member(x, nd);
    case OP_TRICKS_WON: a = ev(x, (int)nd[1]); return seat_ok(x, a) ? w->won_count[a] : 0;
    case OP_WON_BY: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x);
        r = trick_of(x, a); return r == NONEV ? NONEV : x->hist[r].winner;
    case OP_PLAYED: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x); return played(x, a);
    case OP_LEFT_UNPLAYED: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x);
        return w->ntr >= x->total_tricks && !played(x, a);
    case OP_TRICK_OF: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x); return trick_of(x, a);
    case OP_LOST_FOR: /* (card, seat): won by another seat, or left unplayed once the hands ran out */
        a = ev(x, (int)nd[1]);
        b = ev(x, (int)nd[2]);
        if (a == NONEV) return bad(x);
        if (!seat_ok(x, b)) return 0;
        r = trick_of(x, a);
        if (r != NONEV) return x->hist[r].winner != b;
        return w->ntr >= x->total_tricks && !played(x, a);
    case OP_LONGEST_RUN: { /* the most completed tricks in a row the seat won */
        a = ev(x, (int)nd[1]);
        if (!seat_ok(x, a)) return 0;
        ll best = 0, run = 0;
        for (int j = 0; j < w->ntr; j++) {
            run = x->hist[j].winner == a ? run + 1 : 0;
            if (run > best) best = run;
        }
        return best;
    }
    case OP_TRICK_AT: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x);
        return (a >= 1 && a <= w->ntr) ? a - 1 : NONEV;
    case OP_LEFT_OF: a = ev(x, (int)nd[1]); return seat_ok(x, a) ? (a + 1) % w->n : 0;
    case OP_RIGHT_OF: a = ev(x, (int)nd[1]); return seat_ok(x, a) ? (a - 1 + w->n) % w->n : 0;
    case OP_IS_TRUMP: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x); return x->card_trump[a];
    case OP_IS_COLOUR: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x);
        return x->card_suit[a] != NONEV && !x->card_trump[a];
    case OP_COUNTLIST: return count_list(x, nd);
    case OP_ABS: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x); return a < 0 ? -a : a;
    case OP_MAX2: case OP_MIN2:
        a = ev(x, (int)nd[1]);
        b = ev(x, (int)nd[2]);
        if (a == NONEV || b == NONEV) return bad(x);
        return (nd[0] == OP_MAX2) ? (a > b ? a : b) : (a < b ? a : b);
    case OP_TASK_OF: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x);
        for (int j = 0; j < w->ntasks; j++) if (w->task_bits[j] == (u64)1 << a) return j;
        return NONEV;
    case OP_DONE: a = ev(x, (int)nd[1]); if (a == NONEV) return bad(x); return !(w->pending >> a & 1);
    /* fields: a field of none is none */
    case OP_C_SUIT: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->card_suit[a];
    case OP_C_RANK: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->card_rank[a];
    case OP_C_TRUMP: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->card_trump[a];
    case OP_C_SPECIAL: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->card_special[a];
    case OP_T_NUMBER: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : a + 1;
    case OP_T_LEADER: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->hist[a].leader;
    case OP_T_WINNER: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->hist[a].winner;
    case OP_T_WINCARD: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->hist[a].wincard;
    case OP_T_LASTCARD: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->hist[a].card[x->hist[a].nplays - 1];
    case OP_UNPLAYED_BY: /* (card, trick): trick_of(card) == none or trick_of(card).number > trick.number, read as
                          * "not in a trick up to that one" (condcode.py), so a MEMO of the trick may hold it */
        a = ev(x, (int)nd[1]);
        if (x->err || a == NONEV) return bad(x);
        r = trick_of(x, a);
        if (r == NONEV) return 1;
        b = ev(x, (int)nd[2]);
        if (x->err || b == NONEV) return bad(x);
        return r > b;
    case OP_T_LED: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->card_suit[x->hist[a].card[0]];
    case OP_T_FIRST: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : a == 0;
    case OP_T_LAST: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : a + 1 == x->total_tricks;
    case OP_K_CARD: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : low_index(w->task_bits[a]);
    case OP_K_OWNER: a = ev(x, (int)nd[1]);
        return (a == NONEV || w->task_owner[a] < 0) ? NONEV : w->task_owner[a];
    case OP_K_TOKEN: a = ev(x, (int)nd[1]); return (a == NONEV || a >= x->ntokens) ? NONEV : x->token[a];
    case OP_K_DONE: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : !(w->pending >> a & 1);
    case OP_K_TRICK: a = ev(x, (int)nd[1]);
        if (a == NONEV || (w->pending >> a & 1)) return NONEV;
        r = trick_of(x, low_index(w->task_bits[a]));
        return r == NONEV ? NONEV : r + 1;
    case OP_S_TRUMP: a = ev(x, (int)nd[1]); return a == NONEV ? NONEV : x->suit_trump[a];
    case OP_STABLE: { /* (body, slot): a closed part that changes only when a trick ends (condcode.py) */
        if (!w->ntr) return ev(x, (int)nd[1]);
        TrickRec *rec = &x->hist[w->ntr - 1];
        u64 bit = (u64)1 << (2 * MAXMEMO + nd[2]);
        if (rec->memo_valid & bit) return rec->stable[nd[2]];
        r = ev(x, (int)nd[1]);
        if (!x->err) { rec->stable[nd[2]] = r; rec->memo_valid |= bit; }
        return r;
    }
    case OP_MEMO: { /* (body, memo slot, variable): a body that reads only its trick (condcode.py: pure) */
        ll t = x->vars[nd[3]];
        if (t < 0 || t >= w->ntr) return ev(x, (int)nd[1]);
        TrickRec *rec = &x->hist[t];
        u64 bit = (u64)1 << nd[2];
        if (rec->memo_valid & bit) return rec->memo[nd[2]];
        r = ev(x, (int)nd[1]);
        if (!x->err) { rec->memo[nd[2]] = r; rec->memo_valid |= bit; }
        return r;
    }
    case OP_ALL: case OP_ANY: case OP_COUNT: case OP_SUM: case OP_MAX: case OP_MIN: return quantify(x, nd);
    default: return bad(x); /* a list where a value is needed: condcode.py never emits it */
    }
}

/* A list-valued node into out (at most MAXL items); returns its length. */
static int ev_list(CondCtx *x, int i, ll *out) {
    if (x->err) return 0;
    const ll *nd = x->code + 4 * i;
    const World *w = x->w;
    int k = 0;
    ll a;
    switch ((int)nd[0]) {
    case OP_PLAYERS: for (int s = 0; s < w->n; s++) out[k++] = s; return k;
    case OP_TRICKS: for (int j = 0; j < w->ntr; j++) out[k++] = j; return k;
    case OP_TASKS: for (int j = 0; j < w->ntasks && j < MAXL; j++) out[k++] = j; return k;
    case OP_CURCARDS: for (int j = 0; j < w->nplays; j++) out[k++] = w->play_card[j]; return k;
    case OP_LISTLIT:
        for (ll j = 0; j < nd[2]; j++) out[k++] = ev(x, (int)x->pool[nd[1] + j]);
        return k;
    case OP_CONSTLIST:
        for (ll j = 0; j < nd[2]; j++) out[k++] = x->pool[nd[1] + j];
        return k;
    case OP_CARDS_WON:
        a = ev(x, (int)nd[1]);
        if (!seat_ok(x, a)) return 0;
        for (int j = 0; j < w->ntr; j++)
            if (x->hist[j].winner == a)
                for (int q = 0; q < x->hist[j].nplays && k < MAXL; q++) out[k++] = x->hist[j].card[q];
        return k;
    case OP_HAND: {
        a = ev(x, (int)nd[1]);
        if (!seat_ok(x, a)) return 0;
        u64 m = w->hands[a];
        while (m) { out[k++] = low_index(m); m &= m - 1; }
        return k;
    }
    case OP_TASKS_OF:
        a = ev(x, (int)nd[1]);
        if (!seat_ok(x, a)) return 0;
        for (int j = 0; j < w->ntasks && k < MAXL; j++) if (w->task_owner[j] == a) out[k++] = j;
        return k;
    case OP_OTHERS:
        a = ev(x, (int)nd[1]);
        if (!seat_ok(x, a)) return 0;
        for (int s = 0; s < w->n; s++) if (s != a) out[k++] = s;
        return k;
    case OP_T_CARDS:
        a = ev(x, (int)nd[1]);
        if (a == NONEV) { x->err = 1; return 0; }
        for (int q = 0; q < x->hist[a].nplays; q++) out[k++] = x->hist[a].card[q];
        return k;
    default: x->err = 1; return 0;
    }
}

/* Whether some of the disjuncts in parts (a list ended by -1) is true. */
static int any_part(CondCtx *x, const int *parts) {
    for (; *parts >= 0; parts++)
        if (truthy(ev(x, *parts))) return 1;
    return 0;
}

/* The tricks seen so far, as fs_decide_cond reads them (leader, winner, count, (seat, card) per play), into
 * x->hist; won[s] counts the tricks each seat won. Returns how many, or -1 when they do not fit. */
static int read_tricks(CondCtx *x, const ll **pp, int n, int *won) {
    const ll *p = *pp;
    int ntr = (int)*p++;
    if (ntr < 0 || ntr > MAXTR) return -1;
    for (int j = 0; j < ntr; j++) {
        TrickRec *r = &x->hist[j];
        r->leader = (int)*p++;
        r->winner = (int)*p++;
        r->nplays = (int)*p++;
        if (r->nplays < 1 || r->nplays > MAXS || r->winner < 0 || r->winner >= n) return -1;
        r->mask = 0;
        r->memo_valid = 0;
        r->wincard = -1;
        for (int q = 0; q < r->nplays; q++) {
            r->seat[q] = (int)*p++;
            r->card[q] = (int)*p++;
            r->mask |= (u64)1 << r->card[q];
            if (r->seat[q] == r->winner) r->wincard = r->card[q];
        }
        r->upto = r->mask | (j ? x->hist[j - 1].upto : 0);
        r->prev_serial = j ? x->hist[j - 1].serial : 0;
        r->serial = ++x->serials;
        won[r->winner]++;
    }
    *pp = p;
    return ntr;
}

/* The translated conditions (condcode.py: Program.encode); NULL when they do not fit. */
/* Whether node i reads nothing but variable `slot` and constants (no position, no other variable), so its
 * value is a function of that variable alone. */
static int reads_only_var(const CondCtx *x, int i, ll slot, int depth) {
    if (i < 0 || i >= x->nnodes || depth > 64) return 0;
    const ll *nd = x->code + 4 * i;
    switch ((int)nd[0]) {
    case OP_CONST: return 1;
    case OP_VAR: return nd[1] == slot;
    case OP_NOT: case OP_NEG: case OP_IS_TRUMP: case OP_IS_COLOUR: case OP_ABS: case OP_C_SUIT: case OP_C_RANK:
    case OP_C_TRUMP: case OP_C_SPECIAL: case OP_S_TRUMP:
        return reads_only_var(x, (int)nd[1], slot, depth + 1);
    case OP_AND: case OP_OR: case OP_ADD: case OP_SUB: case OP_MUL: case OP_FDIV: case OP_MOD: case OP_EQ:
    case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_MAX2: case OP_MIN2:
        return reads_only_var(x, (int)nd[1], slot, depth + 1) && reads_only_var(x, (int)nd[2], slot, depth + 1);
    case OP_IF:
        return reads_only_var(x, (int)nd[1], slot, depth + 1) && reads_only_var(x, (int)nd[2], slot, depth + 1)
               && reads_only_var(x, (int)nd[3], slot, depth + 1);
    case OP_IN: case OP_NOTIN:
        return reads_only_var(x, (int)nd[1], slot, depth + 1) && nd[2] >= 0 && nd[2] < x->nnodes
               && x->code[4 * nd[2]] == OP_CONSTLIST;
    default: return 0;
    }
}

/* table[i] and has_table[i] for node i of variable `slot` when it reads only that variable and raises no
 * error for any value 0..nc-1 (ev with a blank position: the node reads none). */
static int make_table(CondCtx *x, int i, ll slot) {
    if (x->has_table[i]) return 1;
    if (!reads_only_var(x, i, slot, 0)) return 0;
    World blank;
    memset(&blank, 0, sizeof blank);
    x->w = &blank;
    u64 m = 0;
    int ok = 1;
    for (int v = 0; v < x->nc && ok; v++) {
        x->err = 0;
        x->steps = 0;
        x->vars[slot] = v;
        ll r = ev(x, i);
        if (x->err) ok = 0;
        else if (truthy(r)) m |= (u64)1 << v;
    }
    x->err = 0;
    x->w = NULL;
    if (!ok) return 0;
    x->table[i] = m;
    x->has_table[i] = 1;
    return 1;
}

static int is_var(const CondCtx *x, ll i, ll slot) {
    return i >= 0 && i < x->nnodes && x->code[4 * i] == OP_VAR && x->code[4 * i + 1] == slot;
}

/* Whether node i reads variable `slot` (conservatively: yes for a node of an unknown shape). */
static int reads_var(const CondCtx *x, ll i, ll slot, int depth) {
    if (i < 0 || i >= x->nnodes || depth > 64) return 1;
    const ll *nd = x->code + 4 * i;
    switch ((int)nd[0]) {
    case OP_CONST: case OP_PLAYERS: case OP_TRICKS: case OP_TASKS: case OP_CURCARDS: case OP_LATEST: case OP_FIRST:
    case OP_LASTTRICK: case OP_PLAYED_N: case OP_LEFT_N: case OP_CONSTLIST:
        return 0;
    case OP_VAR: return nd[1] == slot;
    case OP_NOT: case OP_NEG: case OP_IS_TRUMP: case OP_IS_COLOUR: case OP_ABS: case OP_C_SUIT: case OP_C_RANK:
    case OP_C_TRUMP: case OP_C_SPECIAL: case OP_S_TRUMP: case OP_T_NUMBER: case OP_T_LEADER: case OP_T_WINNER:
    case OP_T_WINCARD: case OP_T_CARDS: case OP_T_LED: case OP_T_FIRST: case OP_T_LAST: case OP_T_LASTCARD:
    case OP_K_CARD: case OP_K_OWNER: case OP_K_TOKEN: case OP_K_DONE: case OP_K_TRICK: case OP_TRICKS_WON:
    case OP_CARDS_WON: case OP_HAND: case OP_WON_BY: case OP_PLAYED: case OP_LEFT_UNPLAYED: case OP_TRICK_OF:
    case OP_TRICK_AT: case OP_LEFT_OF: case OP_RIGHT_OF: case OP_COUNTLIST: case OP_TASK_OF: case OP_DONE:
    case OP_TASKS_OF: case OP_LONGEST_RUN: case OP_OTHERS: case OP_STABLE:
        return reads_var(x, nd[1], slot, depth + 1);
    case OP_MEMO: return nd[3] == slot || reads_var(x, nd[1], slot, depth + 1);
    case OP_AND: case OP_OR: case OP_ADD: case OP_SUB: case OP_MUL: case OP_FDIV: case OP_MOD: case OP_EQ:
    case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_IN: case OP_NOTIN: case OP_MAX2:
    case OP_MIN2: case OP_LOST_FOR: case OP_UNPLAYED_BY:
        return reads_var(x, nd[1], slot, depth + 1) || reads_var(x, nd[2], slot, depth + 1);
    case OP_IF:
        return reads_var(x, nd[1], slot, depth + 1) || reads_var(x, nd[2], slot, depth + 1)
               || reads_var(x, nd[3], slot, depth + 1);
    case OP_ALL: case OP_ANY: case OP_COUNT: case OP_SUM: case OP_MAX: case OP_MIN:
        return reads_var(x, nd[2], slot, depth + 1) || (nd[1] != slot && reads_var(x, nd[3], slot, depth + 1));
    case OP_LISTLIT:
        if (nd[1] < 0 || nd[2] < 0 || nd[1] + nd[2] > x->npool) return 1;
        for (ll j = 0; j < nd[2]; j++)
            if (reads_var(x, x->pool[nd[1] + j], slot, depth + 1)) return 1;
        return 0;
    default: return 1;
    }
}

/* vals[i] for node i of variable `slot` when it reads only that variable and, for every value 0..nc-1, is
 * neither an error nor none. */
static int make_vals(CondCtx *x, int i, ll slot) {
    if (x->vals[i]) return 1;
    if (!reads_only_var(x, i, slot, 0)) return 0;
    ll *v = (ll *)malloc(sizeof(ll) * (size_t)x->nc);
    if (!v) return 0;
    World blank;
    memset(&blank, 0, sizeof blank);
    x->w = &blank;
    int ok = 1;
    for (int c = 0; c < x->nc && ok; c++) {
        x->err = 0;
        x->steps = 0;
        x->vars[slot] = c;
        v[c] = ev(x, i);
        if (x->err || v[c] == NONEV) ok = 0;
    }
    x->err = 0;
    x->w = NULL;
    if (!ok) { free(v); return 0; }
    x->vals[i] = v;
    return 1;
}

/* Whether node i is a mask expression of variable `slot` (vec_mask evaluates it), making the tables it uses. */
static int vec_ok(CondCtx *x, int i, ll slot, int depth) {
    if (i < 0 || i >= x->nnodes || depth > 64) return 0;
    if (make_table(x, i, slot)) return 1;
    const ll *nd = x->code + 4 * i;
    switch ((int)nd[0]) {
    case OP_NOT: return vec_ok(x, (int)nd[1], slot, depth + 1);
    case OP_AND: case OP_OR: return vec_ok(x, (int)nd[1], slot, depth + 1) && vec_ok(x, (int)nd[2], slot, depth + 1);
    case OP_PLAYED: case OP_LEFT_UNPLAYED: return is_var(x, nd[1], slot);
    case OP_UNPLAYED_BY: /* (c, t): the cards not in a completed trick up to t, t read once */
        if (!is_var(x, nd[1], slot) || reads_var(x, nd[2], slot, 0)) return 0;
        x->vec_form[i] = VF_UNPLAYED_BY;
        return 1;
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: {
        ll l = nd[1], r = nd[2];
        if (l < 0 || l >= x->nnodes || r < 0 || r >= x->nnodes) return 0;
        /* f(c) compared with g, g read once: f's values for every card, g not reading c (either way round) */
        if (!reads_var(x, r, slot, 0) && make_vals(x, (int)l, slot)) { x->vec_form[i] = VF_VALUES_LEFT; return 1; }
        if (!reads_var(x, l, slot, 0) && make_vals(x, (int)r, slot)) { x->vec_form[i] = VF_VALUES_RIGHT; return 1; }
        if (nd[0] != OP_EQ && nd[0] != OP_NE) return 0;
        /* trick_of(c) compared with none, or won_by(c) with a constant, either way round */
        if (x->code[4 * l] == OP_CONST) { ll t = l; l = r; r = t; }
        if (x->code[4 * r] != OP_CONST || !is_var(x, x->code[4 * l + 1], slot)) return 0;
        x->vec_form[i] = VF_CONST_CMP;
        if (x->code[4 * l] == OP_TRICK_OF) return x->code[4 * r + 1] == NONEV;
        return x->code[4 * l] == OP_WON_BY; /* a seat that wins no trick (or a value no seat has) matches none */
    }
    default: return 0;
    }
}

/* The disjuncts of node i (an `or` taken apart) into parts, without the STABLE ones when keep_stable is 0 (then
 * counted in *stable); 0 when there are more than MAXPART of them. */
static int split_or(const CondCtx *x, int i, int keep_stable, int *parts, int *n, int *stable, int depth) {
    if (i < 0 || i >= x->nnodes || depth > 64) return 0;
    const ll *nd = x->code + 4 * i;
    if (nd[0] == OP_OR)
        return split_or(x, (int)nd[1], keep_stable, parts, n, stable, depth + 1)
               && split_or(x, (int)nd[2], keep_stable, parts, n, stable, depth + 1);
    if (nd[0] == OP_STABLE && !keep_stable) { (*stable)++; return 1; }
    if (*n >= MAXPART) return 0;
    parts[(*n)++] = i;
    return 1;
}

/* Node i's disjuncts as a list ended by -1 (i itself where they are too many; none where i < 0); 0 when
 * without_stable and they are too many. */
static int disjuncts(const CondCtx *x, int i, int without_stable, int *parts, int *stable) {
    int n = 0;
    if (i >= 0 && !split_or(x, i, !without_stable, parts, &n, stable, 0)) {
        if (without_stable) return 0;
        parts[0] = i;
        n = 1;
    }
    parts[n] = -1;
    return 1;
}

/* fail_parts, done_parts, and fail_in_trick, done_in_trick, in_trick of each condition (see CondCtx); a
 * condition judged after every card without a STABLE disjunct is judged whole during a trick too */
static void split_conditions(CondCtx *x) {
    for (int i = 0; i < x->ncond; i++) {
        int stable = 0;
        disjuncts(x, x->fail_at[i], 0, x->fail_parts[i], &stable);
        disjuncts(x, x->done_at[i], 0, x->done_parts[i], &stable);
        int ok = x->check[i] == 1 && disjuncts(x, x->fail_at[i], 1, x->fail_in_trick[i], &stable)
                 && disjuncts(x, x->done_at[i], 1, x->done_in_trick[i], &stable);
        x->in_trick[i] = (unsigned char)(ok && stable > 0);
        for (int j = 0; j <= MAXPART; j++) {
            int a = x->fail_parts[i][j], b = x->done_parts[i][j];
            x->fail_at_end[i][j] = (x->in_trick[i] && a >= 0 && x->code[4 * a] == OP_STABLE) ? (int)x->code[4 * a + 1] : a;
            x->done_at_end[i][j] = (x->in_trick[i] && b >= 0 && x->code[4 * b] == OP_STABLE) ? (int)x->code[4 * b + 1] : b;
        }
    }
}

/* is_set of every constant list, fold_kind and fold_arg of every quantifier (see CondCtx) */
static void fold_quantifiers(CondCtx *x) {
    x->deck = x->nc >= 64 ? ~(u64)0 : (((u64)1 << x->nc) - 1);
    for (int i = 0; i < x->nnodes; i++) {
        const ll *nd = x->code + 4 * i;
        if (nd[0] != OP_CONSTLIST || nd[1] < 0 || nd[2] < 0 || nd[1] + nd[2] > x->npool) continue;
        u64 m = 0;
        int distinct = 1;
        for (ll j = 0; j < nd[2] && distinct; j++) {
            ll v = x->pool[nd[1] + j];
            if (v < 0 || v >= x->nc || (m >> v & 1)) distinct = 0;
            else m |= (u64)1 << v;
        }
        if (distinct) { x->table[i] = m; x->is_set[i] = 1; }
    }
    for (int i = 0; i < x->nnodes; i++) {
        const ll *nd = x->code + 4 * i;
        if (nd[0] < OP_ALL || nd[0] > OP_MIN || nd[1] < 0 || nd[1] >= MAXVARS) continue;
        int body = (int)nd[3];
        if (body < 0 || body >= x->nnodes) continue;
        if (nd[0] <= OP_COUNT && vec_ok(x, body, nd[1], 0)) {
            x->fold_kind[i] = 1;
            continue;
        }
        int a = body; /* the first operand of `A and B and ...` */
        while (a >= 0 && a < x->nnodes && x->code[4 * a] == OP_AND) a = (int)x->code[4 * a + 1];
        if (a != body && a >= 0 && a < x->nnodes && make_table(x, a, nd[1])) {
            x->fold_kind[i] = 2;
            x->fold_arg[i] = a;
        }
    }
}

static void free_vals(CondCtx *x) {
    if (!x->vals) return;
    for (int i = 0; i <= x->nnodes; i++) free(x->vals[i]);
    free(x->vals);
}

static CondCtx *cond_ctx_new(const ll *pr) {
    const ll *p = pr;
    CondCtx *x = (CondCtx *)calloc(1, sizeof(CondCtx));
    if (!x) return NULL;
    x->nc = (int)*p++;
    x->nsuits = (int)*p++;
    x->total_tricks = (int)*p++;
    if (x->nc <= 0 || x->nc > MAXC || x->nsuits > MAXSUIT) goto fail;
    for (int c = 0; c < x->nc; c++) {
        x->card_suit[c] = *p++;
        x->card_rank[c] = (int)*p++;
        x->card_trump[c] = (int)*p++;
        x->card_special[c] = (int)*p++;
    }
    for (int s = 0; s < x->nsuits; s++) x->suit_trump[s] = (int)*p++;
    x->ntokens = (int)*p++;
    if (x->ntokens < 0 || x->ntokens > MAXT) goto fail;
    for (int i = 0; i < x->ntokens; i++) x->token[i] = *p++;
    x->ncond = (int)*p++;
    if (x->ncond < 0 || x->ncond > MAXCOND) goto fail;
    for (int i = 0; i < x->ncond; i++) {
        x->fail_at[i] = (int)*p++;
        x->done_at[i] = (int)*p++;
        x->check[i] = (int)*p++;
        if (x->check[i] == 1) x->after_play = 1;
    }
    x->nnodes = (int)*p++;
    if (x->nnodes < 0) goto fail;
    x->code = (ll *)malloc(sizeof(ll) * 4 * (size_t)(x->nnodes + 1));
    if (!x->code) goto fail;
    for (int i = 0; i < 4 * x->nnodes; i++) x->code[i] = *p++;
    x->npool = (int)*p++;
    if (x->npool < 0) goto fail;
    x->pool = (ll *)malloc(sizeof(ll) * (size_t)(x->npool + 1));
    if (!x->pool) goto fail;
    for (int i = 0; i < x->npool; i++) x->pool[i] = *p++;
    for (int i = 0; i < x->nnodes; i++) {
        const ll *nd = x->code + 4 * i;
        if (nd[0] < 0 || nd[0] >= OP_NUMBER_OF_OPS) goto fail;
        if ((nd[0] == OP_MEMO || nd[0] == OP_STABLE) && (nd[1] < 0 || nd[1] >= x->nnodes || nd[2] < 0
                                                         || nd[2] >= MAXMEMO || nd[3] < 0 || nd[3] >= MAXVARS))
            goto fail;
    }
    for (int i = 0; i < x->ncond; i++)
        if (x->fail_at[i] >= x->nnodes || x->done_at[i] >= x->nnodes) goto fail;
    x->fold_kind = (unsigned char *)calloc((size_t)x->nnodes + 1, 4);
    x->fold_arg = (int *)calloc((size_t)x->nnodes + 1, sizeof(int));
    x->table = (u64 *)calloc((size_t)x->nnodes + 1, sizeof(u64));
    x->vals = (ll **)calloc((size_t)x->nnodes + 1, sizeof(ll *));
    if (!x->fold_kind || !x->fold_arg || !x->table || !x->vals) goto fail;
    x->has_table = x->fold_kind + x->nnodes + 1;
    x->is_set = x->has_table + x->nnodes + 1;
    x->vec_form = x->is_set + x->nnodes + 1;
    fold_quantifiers(x);
    split_conditions(x);
    return x;
fail:
    free(x->code);
    free(x->pool);
    free(x->fold_kind);
    free(x->fold_arg);
    free(x->table);
    free_vals(x);
    free(x);
    return NULL;
}

static void cond_ctx_free(CondCtx *x) {
    if (!x) return;
    free(x->code);
    free(x->pool);
    free(x->fold_kind);
    free(x->fold_arg);
    free(x->table);
    free_vals(x);
    free(x);
}

#endif
