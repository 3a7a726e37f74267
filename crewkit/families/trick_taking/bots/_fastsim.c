/* The fast bot's look-ahead in C: a line-by-line port of crewkit/families/trick_taking/bots/fast.py's sampler and of the
 * cooperative play-out policy of crewkit/families/trick_taking/bots/sim.py (World, choose_play, rollout).
 *
 * The Python code is the reference ("the twin"): for the same inputs both return the same card and the
 * same per-card wins and votes (tests/bots/test_fast.py compares them on many positions and whole games).
 * Any change here must be made there too, and the other way round.
 *
 * Card ids below 63 (u64 masks); at most 8 seats, 16 suits and 64 tasks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FS_ABI 9
#define MAXC 63
#define MAXS 8
#define MAXSUIT 16
#define MAXT 64
#define MAXTR 32   /* tricks in one play-out (63 cards between 2 seats: 31) */
#define MAXCOND 64
#define MAXL 64    /* the longest list a condition builds (crewkit/families/trick_taking/bots/condcode.py: MAX_LIST) */
#define MAXVARS 16
#define MAXPART 8  /* the disjuncts of a condition judged apart during a trick (CondCtx.fail_in_trick) */

typedef uint64_t u64;
typedef long long ll;

enum { T_NONE = 0, T_NUMBER = 1, T_LAST = 2, T_ARROW = 3 };
enum { ST_FAIL = -1, ST_OPEN = 0, ST_WON = 1 };

typedef struct {
    int nc, nsuits;
    int suit[MAXC], rank[MAXC], cat[MAXC];
    u64 suit_masks[MAXSUIT];
    u64 above[MAXC];
    int keys[MAXSUIT + 1][MAXC];
} Table;

typedef struct {
    const Table *t;
    int n;
    u64 hands[MAXS];
    int nplays, play_seat[MAXS], play_card[MAXS];
    u64 trick_mask;
    int led, leader, turn, win_seat, win_key;
    int ntasks;
    const u64 *task_bits;
    const int *task_owner, *task_kind, *task_k;
    u64 pending;
    int done, total, status, tricks_left;
    u64 pmask, own[MAXS], allowed_cards, threat;
    /* mission conditions (conditions.py: CondWorld); cx is NULL for a mission of task cards only */
    struct CondCtx *cx;
    int ntr;                 /* tricks completed, observed and simulated (cx->hist[0..ntr-1]) */
    int won_count[MAXS];
    u64 cond_done;
    int trick_judged;        /* this world judged every condition at the end of its last trick (see judge) */
    u64 goal_mask;           /* conditions.py: CondSetup.goal_mask, CondWorld.goal_need / goal_won */
    int goal_need, goal_won;
} World;

static void cond_after_trick(World *w, int leader);
static void judge(World *w, int when);

static inline int low_index(u64 m) { return __builtin_ctzll(m); }
static inline int high_index(u64 m) { return 63 - __builtin_clzll(m); }
#if defined(__POPCNT__)
static inline int popcount(u64 m) { return __builtin_popcountll(m); }
#else /* a portable build calls libgcc's table-driven __popcountdi2 for the builtin: this is a few instructions */
static inline int popcount(u64 m) {
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
}
#endif

/* ------------------------------------------------------------------ rules */
static int token_violation(const World *w, u64 pending, u64 completed, int done) {
    int after = done + popcount(completed);
    u64 rest = pending & ~completed;
    u64 q = completed;
    while (q) {
        int i = low_index(q);
        q &= q - 1;
        int kind = w->task_kind[i];
        if (kind == T_NUMBER) {
            int k = w->task_k[i];
            if (!(done < k && k <= after)) return 1;
        } else if (kind == T_LAST) {
            if (rest) return 1;
        } else if (kind == T_ARROW) {
            u64 r = rest;
            while (r) {
                int j = low_index(r);
                r &= r - 1;
                if (w->task_kind[j] == T_ARROW && w->task_k[j] < w->task_k[i]) return 1;
            }
        }
    }
    q = rest;
    while (q) {
        int i = low_index(q);
        q &= q - 1;
        if (w->task_kind[i] == T_NUMBER && w->task_k[i] <= after) return 1;
    }
    return 0;
}

static u64 allowed_tasks(const World *w) {
    u64 p = w->pending;
    if (!p) return 0;
    int nxt = w->done + 1;
    u64 out = 0;
    int forced = -1, lowest_arrow = 99;
    int last_only = (p & (p - 1)) == 0;
    u64 q = p;
    while (q) {
        int i = low_index(q);
        q &= q - 1;
        if (w->task_kind[i] == T_NUMBER && w->task_k[i] == nxt) forced = i;
        else if (w->task_kind[i] == T_ARROW && w->task_k[i] < lowest_arrow) lowest_arrow = w->task_k[i];
    }
    if (forced >= 0) return (u64)1 << forced;
    q = p;
    while (q) {
        u64 low = q & (~q + 1);
        int i = low_index(q);
        q ^= low;
        int kind = w->task_kind[i];
        if (kind == T_NONE) out |= low;
        else if (kind == T_ARROW) { if (w->task_k[i] == lowest_arrow) out |= low; }
        else if (kind == T_LAST) { if (last_only) out |= low; }
    }
    return out;
}

static void refresh_tasks(World *w) {
    u64 m = 0, p = w->pending;
    while (p) { m |= w->task_bits[low_index(p)]; p &= p - 1; }
    w->pmask = m;
    for (int s = 0; s < w->n; s++) w->own[s] = 0;
    u64 allowed = 0;
    p = allowed_tasks(w);
    while (p) {
        int i = low_index(p);
        p &= p - 1;
        w->own[w->task_owner[i]] |= w->task_bits[i];
        allowed |= w->task_bits[i];
    }
    w->allowed_cards = allowed;
    u64 threat = 0;
    p = w->pending;
    while (p) {
        int i = low_index(p);
        p &= p - 1;
        int owner = w->task_owner[i];
        if (owner >= 0) threat |= w->t->above[high_index(w->task_bits[i])] & ~w->hands[owner];
    }
    w->threat = threat;
}

static inline u64 legal_for(const World *w, int seat, int led) {
    u64 hand = w->hands[seat];
    if (led < 0) return hand;
    u64 f = hand & w->t->suit_masks[led];
    return f ? f : hand;
}

static void finish_trick(World *w) {
    int winner = w->win_seat;
    u64 mask = w->trick_mask;
    w->nplays = 0;
    w->trick_mask = 0;
    w->led = -1;
    w->leader = w->turn = winner;
    w->tricks_left -= 1;
    u64 p = w->pending;
    if (p) {
        u64 completed = 0, q = p;
        while (q) {
            u64 low = q & (~q + 1);
            int i = low_index(q);
            q ^= low;
            if (w->task_bits[i] & mask) {
                if (w->task_owner[i] != winner) { w->status = ST_FAIL; return; }
                completed |= low;
            }
        }
        if (completed) {
            if (token_violation(w, p, completed, w->done)) { w->status = ST_FAIL; return; }
            int after = w->done + popcount(completed);
            u64 rest = p & ~completed;
            w->pending = rest;
            w->done = after;
            if (!rest) { w->status = ST_WON; return; }
            refresh_tasks(w);
        }
    }
    if (w->tricks_left <= 0) w->status = w->pending ? ST_FAIL : ST_WON;
}

static void play(World *w, int card) {
    int seat = w->turn;
    u64 bit = (u64)1 << card;
    w->hands[seat] &= ~bit;
    if (w->nplays == 0) {
        int led = w->led = w->t->suit[card];
        w->win_seat = seat;
        w->win_key = w->t->keys[led + 1][card];
    } else {
        int k = w->t->keys[w->led + 1][card];
        if (k > w->win_key) { w->win_key = k; w->win_seat = seat; }
    }
    w->play_seat[w->nplays] = seat;
    w->play_card[w->nplays] = card;
    w->nplays++;
    w->trick_mask |= bit;
    if (w->nplays == w->n) {
        int leader = w->leader;
        finish_trick(w);
        if (w->cx) cond_after_trick(w, leader);
    } else {
        w->turn = (seat + 1) % w->n;
        if (w->cx && w->status == ST_OPEN) judge(w, 1);
    }
}

/* ------------------------------------------------------------------ the policy */
static int can_duck(const World *w, int seat, const int *keys, int led, int beat_key, u64 foreign) {
    u64 hand = w->hands[seat], legal = hand;
    if (led >= 0) {
        u64 follow = hand & w->t->suit_masks[led];
        if (follow) legal = follow;
    }
    legal &= ~foreign;
    while (legal) {
        if (keys[low_index(legal)] < beat_key) return 1;
        legal &= legal - 1;
    }
    return 0;
}

static int rest_can_duck(const World *w, int seat, const int *keys, int beat_key, int winner) {
    u64 foreign = w->pmask & ~w->own[winner];
    int n = w->n;
    for (int i = 1; i < n - w->nplays; i++)
        if (!can_duck(w, (seat + i) % n, keys, w->led, beat_key, foreign)) return 0;
    return 1;
}

static int others_can_duck(const World *w, int seat, int skip, const int *keys, int beat_key) {
    u64 foreign = w->pmask & ~w->own[skip];
    int n = w->n;
    for (int i = 1; i < n - w->nplays; i++) {
        int s = (seat + i) % n;
        if (s != skip && !can_duck(w, s, keys, w->led, beat_key, foreign)) return 0;
    }
    return 1;
}

static int duck(const World *w, u64 legal, const int *keys, int win_key, u64 pend, int task_trick) {
    const Table *t = w->t;
    u64 safe = legal & ~pend;
    if (!safe) safe = legal;
    int best = -1, best_score = 1 << 30;
    int last = w->nplays == w->n - 1;
    int over = task_trick ? 100 : (last ? 0 : 12);
    int trump_cost = (last && !task_trick) ? 2 : 8;
    u64 threat = w->threat;
    while (safe) {
        u64 low = safe & (~safe + 1);
        int c = low_index(safe);
        safe ^= low;
        int score = t->rank[c];
        if (keys[c] > win_key) score += over;
        if (!task_trick && (low & threat)) score -= 12;
        if (t->cat[c] >= 2) score += trump_cost - ((last && !task_trick) ? 10 : 0);
        if (score < best_score) { best = c; best_score = score; }
    }
    return best;
}

static int follow(const World *w) {
    int seat = w->turn;
    u64 legal = legal_for(w, seat, w->led);
    if ((legal & (legal - 1)) == 0) return legal ? low_index(legal) : -1;
    const int *keys = w->t->keys[w->led + 1];
    u64 pend = w->pmask;
    const u64 *own = w->own;
    u64 in_trick = w->trick_mask & pend;
    int win_seat = w->win_seat, win_key = w->win_key;
    int desired = -1;
    if (in_trick) {
        for (int s = 0; s < w->n; s++)
            if (own[s] & in_trick) { desired = s; break; }
    } else {
        u64 mine = own[seat] & legal;
        while (mine) {
            int c = low_index(mine);
            mine &= mine - 1;
            int k = keys[c];
            if (k > win_key && rest_can_duck(w, seat, keys, k, seat)) return c;
        }
        if (win_seat != seat) {
            u64 dump = own[win_seat] & legal;
            while (dump) {
                int c = low_index(dump);
                dump &= dump - 1;
                if (keys[c] < win_key && rest_can_duck(w, seat, keys, win_key, win_seat)) return c;
            }
        }
        u64 give = legal & pend & ~own[seat];
        if (give) {
            int n = w->n;
            for (int i = 1; i < n - w->nplays; i++) {
                int o = (seat + i) % n;
                u64 theirs = give & own[o];
                if (!theirs) continue;
                u64 top = legal_for(w, o, w->led);
                int best_k = 0;
                while (top) {
                    int k = keys[low_index(top)];
                    if (k > best_k) best_k = k;
                    top &= top - 1;
                }
                int c = high_index(theirs);
                if (best_k > win_key && best_k > keys[c] && others_can_duck(w, seat, o, keys, best_k)) return c;
            }
        }
    }
    if (desired == seat) {
        int best = -1, best_k = -1;
        u64 cands = legal & ~(pend & ~own[seat]);
        while (cands) {
            int c = low_index(cands);
            cands &= cands - 1;
            int k = keys[c];
            if (k > win_key && rest_can_duck(w, seat, keys, k, seat)) return c;
            if (k > best_k) { best = c; best_k = k; }
        }
        if (best >= 0) return best;
    } else if (desired >= 0 && win_seat == desired) {
        u64 dump = own[desired] & legal;
        while (dump) {
            int c = low_index(dump);
            dump &= dump - 1;
            if (keys[c] < win_key) return c;
        }
    }
    return duck(w, legal, keys, win_key, pend, desired >= 0);
}

static int lead(const World *w) {
    int seat = w->turn;
    u64 hand = w->hands[seat];
    if ((hand & (hand - 1)) == 0) return hand ? low_index(hand) : -1;
    const Table *t = w->t;
    u64 cands = 0;
    for (int s = 0; s < t->nsuits; s++) {
        u64 m = hand & t->suit_masks[s];
        if (m) cands |= (m & (~m + 1)) | ((u64)1 << high_index(m));
    }
    u64 pend = w->pmask;
    cands |= hand & pend;
    int best = -1, best_score = -(1 << 30);
    int done = w->done;
    World trial;
    while (cands) {
        u64 low = cands & (~cands + 1);
        int c = low_index(cands);
        cands ^= low;
        trial = *w;
        play(&trial, c);
        while (trial.nplays && trial.status == ST_OPEN) {
            int f = follow(&trial);
            if (f < 0) break;
            play(&trial, f);
        }
        int score;
        if (trial.status == ST_FAIL) score = -10000;
        else {
            score = 1000 * (trial.done - done);
            if (trial.status == ST_WON) score += 5000;
            u64 threat = w->threat;
            if (threat) {
                u64 gone = 0;
                for (int s = 0; s < w->n; s++) gone |= w->hands[s] & ~trial.hands[s];
                score += 40 * popcount(gone & threat);
            }
        }
        score -= t->rank[c] * 3;
        if (t->cat[c] >= 2) score -= 40;
        if ((pend & low) && trial.done == done) score -= 200;
        if (score > best_score) { best = c; best_score = score; }
    }
    return best;
}

static inline int choose_play(const World *w) { return w->nplays ? follow(w) : lead(w); }

static int rollout(World *w) {
    while (w->status == ST_OPEN) {
        int c = choose_play(w);
        if (c < 0) return 0; /* an empty hand: an inconsistent world (never for a consistent sample) */
        play(w, c);
    }
    return w->status == ST_WON ? 1 : 0;
}

/* ------------------------------------------------------------------ mission conditions
 * A port of crewkit/families/trick_taking/bots/conditions.py (CondWorld, choose_play_cond, rollout_cond) with the conditions
 * translated by crewkit/families/trick_taking/bots/condcode.py into nodes (op, a, b, c) that ev() evaluates. Values are 64-bit;
 * NONEV is the DSL's none. Where the DSL would raise an error, ev() sets cx->err and the caller makes the
 * decision again in Python (fast.py), so no game differs from the twin's. */
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

static void judge(World *w, int when) {
    CondCtx *x = w->cx;
    if (when == 1 && !x->after_play) return;
    x->w = w;
    for (int i = 0; i < x->ncond; i++) {
        if (w->cond_done >> i & 1) continue;
        if (x->check[i] != when && !(when == 0 && x->check[i] == 1)) continue;
        x->steps = 0;
        /* After a card within a trick, once this world judged the condition at its last trick's end, the
         * STABLE disjuncts of fail_if and done_if were false then (or the world would have failed, or the
         * condition be done) and keep their values until the trick ends: only the others can change */
        const int *f = x->fail_parts[i], *d = x->done_parts[i];
        if (when == 0) { f = x->fail_at_end[i]; d = x->done_at_end[i]; }
        else if (w->trick_judged && x->in_trick[i]) { f = x->fail_in_trick[i]; d = x->done_in_trick[i]; }
        if (any_part(x, f)) { w->status = ST_FAIL; return; }
        if (any_part(x, d)) w->cond_done |= (u64)1 << i;
    }
}

/* conditions.py: CondWorld._after_trick (the plays of the trick are still in play_seat/play_card) */
static void cond_after_trick(World *w, int leader) {
    CondCtx *x = w->cx;
    int winner = w->leader;
    if (w->ntr >= MAXTR) { x->err = 1; w->status = ST_FAIL; return; }
    TrickRec *r = &x->hist[w->ntr];
    u64 prev = w->ntr ? x->hist[w->ntr - 1].serial : 0;
    int same = r->serial && r->prev_serial == prev && r->leader == leader && r->nplays == w->n;
    for (int j = 0; same && j < w->n; j++)
        same = r->seat[j] == w->play_seat[j] && r->card[j] == w->play_card[j];
    if (!same) {
        r->leader = leader;
        r->winner = winner;
        r->nplays = w->n;
        r->mask = 0;
        r->memo_valid = 0;
        for (int j = 0; j < w->n; j++) {
            r->seat[j] = w->play_seat[j];
            r->card[j] = w->play_card[j];
            r->mask |= (u64)1 << w->play_card[j];
            if (w->play_seat[j] == winner) r->wincard = w->play_card[j];
        }
        r->upto = r->mask | (w->ntr ? x->hist[w->ntr - 1].upto : 0);
        r->prev_serial = prev;
        r->serial = ++x->serials;
    }
    w->ntr++;
    int number = w->ntr;
    w->won_count[winner]++;
    if (w->goal_mask >> r->wincard & 1) w->goal_won++;
    if (w->status == ST_FAIL) return;
    if (w->status == ST_WON) w->status = ST_OPEN;
    judge(w, 0);
    if (w->status == ST_FAIL) return;
    w->trick_judged = 1;
    int last = w->tricks_left <= 0 || number >= x->total_tricks;
    int conds_done = 1;
    for (int i = 0; i < x->ncond; i++)
        if (!(w->cond_done >> i & 1) && !(last && x->done_at[i] < 0)) { conds_done = 0; break; }
    if (!w->pending && conds_done) w->status = ST_WON;
    else if (last) w->status = ST_FAIL;
}

/* conditions.py: _score_after */
static int score_after(const World *w, int card, int last) {
    World trial = *w;
    play(&trial, card);
    if (!last) {
        while (trial.nplays && trial.status == ST_OPEN) {
            int f = follow(&trial);
            if (f < 0) break;
            play(&trial, f);
        }
    }
    if (trial.status == ST_FAIL) return -1;
    return popcount(trial.cond_done) + (trial.status == ST_WON ? 10 : 0);
}

/* conditions.py: goal_play */
static int holder(const World *w, int card) {
    for (int s = 0; s < w->n; s++)
        if (w->hands[s] >> card & 1) return s;
    return -1;
}

static int goal_play(const World *w, int c) {
    const Table *t = w->t;
    int n = w->n, seat = w->turn;
    u64 live = 0;
    for (int s = 0; s < n; s++) live |= w->hands[s];
    u64 goals = w->goal_mask & live;
    if (!goals && !w->nplays) return c;
    u64 hand = w->hands[seat];
    u64 block = 0;
    int best_goal = -1, best_count = 99;
    u64 g = goals;
    while (g) {
        int x = low_index(g);
        g &= g - 1;
        u64 b = t->above[x] & live & ~w->hands[holder(w, x)];
        block |= b;
        if (popcount(b) < best_count) { best_goal = x; best_count = popcount(b); }
    }
    if (!w->nplays) {
        u64 foreign = w->pmask & ~w->own[seat];
        u64 m = goals & hand;
        while (m) {
            int x = low_index(m);
            m &= m - 1;
            int led = t->suit[x];
            const int *keys = t->keys[led + 1];
            int ok = 1;
            for (int i = 1; i < n && ok; i++)
                if (!can_duck(w, (seat + i) % n, keys, led, keys[x], foreign)) ok = 0;
            if (ok) return x;
        }
        if (w->pending || t->suit[best_goal] < 0) return c;
        u64 sm = t->suit_masks[t->suit[best_goal]];
        u64 strip = hand & sm & ~goals;
        if (strip && (block & sm)) return high_index(strip);
        return c;
    }
    u64 legal = legal_for(w, seat, w->led);
    if ((legal & (legal - 1)) == 0) return c;
    const int *keys = t->keys[w->led + 1];
    int win_key = w->win_key, win_card = -1;
    for (int j = 0; j < w->nplays; j++)
        if (w->play_seat[j] == w->win_seat) win_card = w->play_card[j];
    u64 rest = legal & ~goals;
    if (win_card >= 0 && (w->goal_mask >> win_card & 1)) {
        u64 under = 0, m = rest;
        while (m) {
            int x = low_index(m);
            m &= m - 1;
            if (keys[x] < win_key) under |= (u64)1 << x;
        }
        if (under & block) return low_index(under & block);
        if (under) return duck(w, under, keys, win_key, w->pmask, 0);
        return c;
    }
    u64 m = goals & legal;
    while (m) {
        int x = low_index(m);
        m &= m - 1;
        if (keys[x] > win_key && rest_can_duck(w, seat, keys, keys[x], seat)) return x;
    }
    if (((w->trick_mask | (u64)1 << c) & w->pmask) || !rest) return c;
    if ((w->led < 0 || !(hand & t->suit_masks[w->led])) && (rest & block)) return low_index(rest & block);
    if (goals >> c & 1) return duck(w, rest, keys, win_key, w->pmask, 0);
    return c;
}

/* conditions.py: choose_play_cond */
static int choose_play_cond(const World *w) {
    int c = choose_play(w);
    if (c >= 0 && w->goal_won < w->goal_need) c = goal_play(w, c);
    if (!w->nplays || c < 0) return c;
    u64 legal = legal_for(w, w->turn, w->led);
    if ((legal & (legal - 1)) == 0) return c;
    int last = w->nplays == w->n - 1;
    if (last) {
        /* the best score; c on a tie, else the lowest card. c is tried last: it is the card most often
         * played, and the trick its trial completes is then the record the play itself finds (and keeps) */
        int best = -1, best_score = 0;
        u64 m = legal & ~((u64)1 << c);
        while (m) {
            int y = low_index(m);
            m &= m - 1;
            int s = score_after(w, y, last);
            if (best < 0 || s > best_score) { best = y; best_score = s; }
        }
        return (best < 0 || score_after(w, c, last) >= best_score) ? c : best;
    }
    if (score_after(w, c, last) >= 0) return c;
    u64 m = legal;
    while (m) {
        int y = low_index(m);
        m &= m - 1;
        if (y != c && score_after(w, y, last) >= 0) return y;
    }
    return c;
}

static int rollout_cond(World *w) {
    while (w->status == ST_OPEN) {
        int c = choose_play_cond(w);
        if (c < 0) return 0;
        play(w, c);
    }
    return w->status == ST_WON ? 1 : 0;
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

/* ------------------------------------------------------------------ the sampler (fast.py: Sampler) */
static inline u64 splitmix(u64 *state) {
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

typedef struct {
    int n, me;
    u64 known[MAXS], vd[MAXS];
    int need[MAXS];
    int spare;
    int ncards;
    int order[MAXC];       /* unknown cards, fewest candidate seats first, then by id */
    u64 unknown;
} Sampler;

static void sampler_init(Sampler *sm) {
    int counts[MAXC], ids[MAXC], k = 0;
    u64 m = sm->unknown;
    while (m) {
        int c = low_index(m);
        m &= m - 1;
        int cnt = 0;
        for (int s = 0; s < sm->n; s++)
            if (s != sm->me && sm->need[s] && !(sm->vd[s] >> c & 1)) cnt++;
        ids[k] = c;
        counts[k] = cnt;
        k++;
    }
    /* stable insertion sort by count (ids ascending already) */
    for (int i = 1; i < k; i++) {
        int ci = counts[i], ii = ids[i], j = i - 1;
        while (j >= 0 && counts[j] > ci) { counts[j + 1] = counts[j]; ids[j + 1] = ids[j]; j--; }
        counts[j + 1] = ci;
        ids[j + 1] = ii;
    }
    memcpy(sm->order, ids, sizeof(int) * k);
    sm->ncards = k;
}

static void sample(const Sampler *sm, u64 *rng, u64 *hands) {
    int n = sm->n;
    for (int attempt = 0; attempt < 8; attempt++) {
        int need[MAXS];
        for (int s = 0; s < n; s++) { hands[s] = sm->known[s]; need[s] = sm->need[s]; }
        int spare = sm->spare, ok = 1;
        for (int i = 0; i < sm->ncards; i++) {
            int c = sm->order[i];
            int total = spare;
            for (int s = 0; s < n; s++)
                if (s != sm->me && need[s] && !(sm->vd[s] >> c & 1)) total += need[s];
            if (total <= 0) { ok = 0; break; }
            int r = (int)(splitmix(rng) % (u64)total);
            int chosen = -1;
            for (int s = 0; s < n; s++) {
                if (s == sm->me || !need[s] || (sm->vd[s] >> c & 1)) continue;
                if (r < need[s]) { chosen = s; break; }
                r -= need[s];
            }
            if (chosen < 0) { spare--; continue; }
            hands[chosen] |= (u64)1 << c;
            need[chosen]--;
        }
        if (ok) {
            int left = 0;
            for (int s = 0; s < n; s++) left |= need[s];
            if (!left) return;
        }
    }
    /* fall back: ignore voids; the unknown cards in a shuffled order, dealt seat by seat */
    int rest[MAXC], k = 0;
    u64 m = sm->unknown;
    while (m) { rest[k++] = low_index(m); m &= m - 1; }
    for (int i = k - 1; i > 0; i--) {
        int j = (int)(splitmix(rng) % (u64)(i + 1));
        int tmp = rest[i]; rest[i] = rest[j]; rest[j] = tmp;
    }
    for (int s = 0; s < n; s++) {
        hands[s] = sm->known[s];
        for (int q = 0; q < sm->need[s] && k > 0; q++) hands[s] |= (u64)1 << rest[--k];
    }
}

/* ------------------------------------------------------------------ the entry points */
int fs_abi(void) { return FS_ABI; }

/* cfg: nc, nsuits, suit[nc], rank[nc], cat[nc], suit_masks[nsuits], above[nc], keys[(nsuits+1)*nc] */
void *fs_new(const ll *cfg) {
    int nc = (int)cfg[0], nsuits = (int)cfg[1];
    if (nc > MAXC || nsuits > MAXSUIT || nc <= 0) return NULL;
    Table *t = (Table *)calloc(1, sizeof(Table));
    if (!t) return NULL;
    t->nc = nc;
    t->nsuits = nsuits;
    const ll *p = cfg + 2;
    for (int c = 0; c < nc; c++) t->suit[c] = (int)*p++;
    for (int c = 0; c < nc; c++) t->rank[c] = (int)*p++;
    for (int c = 0; c < nc; c++) t->cat[c] = (int)*p++;
    for (int s = 0; s < nsuits; s++) t->suit_masks[s] = (u64)*p++;
    for (int c = 0; c < nc; c++) t->above[c] = (u64)*p++;
    for (int l = 0; l <= nsuits; l++)
        for (int c = 0; c < nc; c++) t->keys[l][c] = (int)*p++;
    return t;
}

void fs_free(void *p) { free(p); }

/* One decision. st: n, me, worlds, rollouts (0/1), leader, tricks_left, ncur, (seat, card) * ncur,
 * ntasks, (bit, owner, kind, k, pending) * ntasks, done, spare, candidates, unknown, known[n], void[n], need[n],
 * then the weight of a play-out won against one vote and that of progress (a task done, a goal trick won) in a
 * play-out lost: a card scores win_weight * wins + prog_weight * progress + votes (fast.py: decide_py).
 * wins/votes: per card id (nc entries). Returns the chosen card, or -1 when no world could be played. */
static int decide(const Table *t, CondCtx *cx, const ll *st, unsigned long long seed, int *wins, int *votes,
                  int *prog) {
    const ll *p = st;
    int n = (int)*p++, me = (int)*p++, worlds = (int)*p++, rollouts = (int)*p++;
    int leader = (int)*p++, tricks_left = (int)*p++, ncur = (int)*p++;
    if (n > MAXS || n <= 0) return -1;
    int cur_seat[MAXS], cur_card[MAXS];
    for (int i = 0; i < ncur; i++) { cur_seat[i] = (int)*p++; cur_card[i] = (int)*p++; }
    int ntasks = (int)*p++;
    if (ntasks > MAXT) return -1;
    u64 task_bits[MAXT];
    int task_owner[MAXT], task_kind[MAXT], task_k[MAXT];
    u64 pending = 0;
    for (int i = 0; i < ntasks; i++) {
        task_bits[i] = (u64)*p++;
        task_owner[i] = (int)*p++;
        task_kind[i] = (int)*p++;
        task_k[i] = (int)*p++;
        if (*p++) pending |= (u64)1 << i;
    }
    int done = (int)*p++;
    Sampler sm;
    sm.n = n;
    sm.me = me;
    sm.spare = (int)*p++;
    u64 cands = (u64)*p++;
    sm.unknown = (u64)*p++;
    for (int s = 0; s < n; s++) sm.known[s] = (u64)*p++;
    for (int s = 0; s < n; s++) sm.vd[s] = (u64)*p++;
    for (int s = 0; s < n; s++) sm.need[s] = (int)*p++;
    /* with conditions: the tricks seen so far (leader, winner, count, (seat, card) per play), then the mask
     * of the conditions they completed */
    int ntr0 = 0, won0[MAXS] = {0};
    u64 done0 = 0;
    long win_weight = (long)*p++; /* a play-out won counts this many votes */
    long prog_weight = (long)*p++; /* a task done or goal trick won in a play-out lost counts this many */
    u64 goal_mask = 0;
    int goal_need = 0;
    if (cx) {
        ntr0 = read_tricks(cx, &p, n, won0);
        if (ntr0 < 0) return -2;
        done0 = (u64)*p++;
        goal_mask = (u64)*p++;
        goal_need = (int)*p++;
        cx->err = 0;
    }
    sampler_init(&sm);
    for (int c = 0; c < t->nc; c++) { wins[c] = 0; votes[c] = 0; if (prog) prog[c] = 0; }
    u64 active = cands;
    u64 rng = seed;
    World base, w;
    int check_at = worlds / 2;
    for (int i = 0; i < worlds; i++) {
        if (rollouts && i == check_at && check_at > 0) {
            /* half-way: keep the cards within one win of the best; stop when they all won or all lost */
            int best_w = -1, same = 1, first_w = -1;
            u64 q = cands;
            while (q) { int c = low_index(q); q &= q - 1; if (wins[c] > best_w) best_w = wins[c]; }
            u64 keep = 0;
            q = cands;
            while (q) {
                int c = low_index(q);
                q &= q - 1;
                if (wins[c] >= best_w - 1) {
                    keep |= (u64)1 << c;
                    if (first_w < 0) first_w = wins[c];
                    else if (wins[c] != first_w) same = 0;
                }
            }
            /* (with conditions not when every card lost so far: a mission's conditions can make wins rare) */
            if (same && ((!cx && best_w == 0 && !prog_weight) || best_w == check_at)) break;
            if ((keep & (keep - 1)) == 0) break; /* one card left: it is the choice */
            active = keep;
        }
        memset(&base, 0, sizeof base);
        base.t = t;
        base.n = n;
        sample(&sm, &rng, base.hands);
        base.led = -1;
        base.leader = base.turn = leader;
        base.win_seat = -1;
        base.ntasks = ntasks;
        base.task_bits = task_bits;
        base.task_owner = task_owner;
        base.task_kind = task_kind;
        base.task_k = task_k;
        base.pending = pending;
        base.done = done;
        base.total = ntasks;
        base.status = ST_OPEN;
        base.tricks_left = tricks_left;
        refresh_tasks(&base);
        for (int j = 0; j < ncur; j++) {
            base.turn = cur_seat[j];
            base.hands[cur_seat[j]] |= (u64)1 << cur_card[j];
            play(&base, cur_card[j]);
        }
        if (base.status != ST_OPEN) continue;
        if (cx) { /* conditions.py: cond_world (the trick in progress was replayed without them) */
            base.cx = cx;
            base.ntr = ntr0;
            for (int s = 0; s < n; s++) base.won_count[s] = won0[s];
            base.cond_done = done0;
            base.goal_mask = goal_mask;
            base.goal_need = goal_need;
        }
        int v = cx ? choose_play_cond(&base) : choose_play(&base);
        if (v >= 0) votes[v] += 1;
        if (!rollouts) continue;
        u64 q = active;
        while (q) {
            int c = low_index(q);
            q &= q - 1;
            w = base;
            play(&w, c);
            int won = cx ? rollout_cond(&w) : rollout(&w);
            wins[c] += won;
            if (!won && prog) prog[c] += w.done - done + (w.goal_won < w.goal_need ? w.goal_won : w.goal_need);
        }
        if (cx && cx->err) return -2;
    }
    int best = -1;
    long best_score = -1;
    u64 q = cands;
    while (q) {
        int c = low_index(q);
        q &= q - 1;
        long score = win_weight * wins[c] + votes[c] + (prog ? prog_weight * prog[c] : 0);
        if (score > best_score) { best = c; best_score = score; }
    }
    return best;
}

int fs_decide(void *ctx, const ll *st, unsigned long long seed, int *wins, int *votes, int *prog) {
    return decide((const Table *)ctx, NULL, st, seed, wins, votes, prog);
}

/* One decision with the mission's conditions (fast.py: decide_cond): st as fs_decide, then the weight of a
 * play-out won against a vote, the observed tricks and the done conditions (see decide). Returns the card, -1 when no world could be played, or -2
 * when a condition met what the C evaluator leaves to Python (then decide in Python). */
int fs_decide_cond(void *ctx, void *cond, const ll *st, unsigned long long seed, int *wins, int *votes,
                   int *prog) {
    return decide((const Table *)ctx, (CondCtx *)cond, st, seed, wins, votes, prog);
}

int fs_cond_ops(void) { return OP_NUMBER_OF_OPS; }

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

void *fs_cond_new(const ll *pr) {
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

void fs_cond_free(void *p) {
    CondCtx *x = (CondCtx *)p;
    if (!x) return;
    free(x->code);
    free(x->pool);
    free(x->fold_kind);
    free(x->fold_arg);
    free(x->table);
    free_vals(x);
    free(x);
}

/* Evaluate every condition on one world, for the tests. st: n, hands[n], ncur, (seat, card) * ncur,
 * ntasks, (bit, owner, pending) * ntasks, then the tricks as in fs_decide_cond. out: per condition
 * fail_if, done_if (0/1, or -1 without). Returns 0, or 1 when the evaluator left something to Python. */
int fs_cond_eval(void *cond, const ll *st, int *out) {
    CondCtx *x = (CondCtx *)cond;
    const ll *p = st;
    World w;
    memset(&w, 0, sizeof w);
    u64 bits[MAXT];
    int owner[MAXT];
    w.n = (int)*p++;
    if (w.n <= 0 || w.n > MAXS) return 1;
    for (int s = 0; s < w.n; s++) w.hands[s] = (u64)*p++;
    w.nplays = (int)*p++;
    for (int i = 0; i < w.nplays; i++) { w.play_seat[i] = (int)*p++; w.play_card[i] = (int)*p++; }
    w.ntasks = (int)*p++;
    if (w.ntasks > MAXT) return 1;
    for (int i = 0; i < w.ntasks; i++) {
        bits[i] = (u64)*p++;
        owner[i] = (int)*p++;
        if (*p++) w.pending |= (u64)1 << i;
    }
    w.task_bits = bits;
    w.task_owner = owner;
    w.ntr = read_tricks(x, &p, w.n, w.won_count);
    if (w.ntr < 0) return 1;
    w.cx = x;
    x->w = &w;
    x->err = 0;
    for (int i = 0; i < x->ncond; i++) {
        x->steps = 0;
        out[2 * i] = x->fail_at[i] >= 0 ? truthy(ev(x, x->fail_at[i])) : -1;
        out[2 * i + 1] = x->done_at[i] >= 0 ? truthy(ev(x, x->done_at[i])) : -1;
    }
    return x->err;
}

/* How well a hand suits a task, in ninetieths (fast.py: affinity; the heuristic bot's weights, exact). */
static int affinity(const Table *t, u64 hand, int card, u64 trump_mask) {
    u64 bit = (u64)1 << card;
    int score = 0;
    u64 suit_cards = hand & t->suit_masks[t->suit[card]];
    u64 above = hand & t->above[card];
    if (hand & bit) score += 90 + 30 * t->rank[card];
    score += 108 * popcount(above);
    if (above) score += 10 * t->rank[high_index(above)];
    score += 36 * popcount(hand & trump_mask);
    if (!suit_cards) score += 45 * popcount(hand & trump_mask);
    return score;
}

/* The draft: which task to take. st as fs_decide (tasks with owner -1 are undrafted; candidates: a mask of
 * task indexes), then trump_mask. scores: per task index, 100000 * play-outs won + affinity of the own hand.
 * Returns the chosen task index. */
int fs_draft(void *ctx, const ll *st, unsigned long long seed, long long *scores) {
    const Table *t = (const Table *)ctx;
    const ll *p = st;
    int n = (int)*p++, me = (int)*p++, worlds = (int)*p++;
    p++; /* rollouts flag: unused */
    int leader = (int)*p++, tricks_left = (int)*p++, ncur = (int)*p++;
    if (n > MAXS || n <= 0 || ncur != 0) return -1;
    int ntasks = (int)*p++;
    if (ntasks > MAXT) return -1;
    u64 task_bits[MAXT];
    int task_owner[MAXT], task_kind[MAXT], task_k[MAXT], owners[MAXT], task_card[MAXT];
    u64 pending = 0;
    for (int i = 0; i < ntasks; i++) {
        task_bits[i] = (u64)*p++;
        task_owner[i] = (int)*p++;
        task_kind[i] = (int)*p++;
        task_k[i] = (int)*p++;
        task_card[i] = low_index(task_bits[i]);
        if (*p++) pending |= (u64)1 << i;
    }
    int done = (int)*p++;
    Sampler sm;
    sm.n = n;
    sm.me = me;
    sm.spare = (int)*p++;
    u64 cands = (u64)*p++;
    sm.unknown = (u64)*p++;
    for (int s = 0; s < n; s++) sm.known[s] = (u64)*p++;
    for (int s = 0; s < n; s++) sm.vd[s] = (u64)*p++;
    for (int s = 0; s < n; s++) sm.need[s] = (int)*p++;
    u64 trump_mask = (u64)*p++;
    sampler_init(&sm);
    for (int i = 0; i < ntasks; i++) scores[i] = 0;
    u64 rng = seed;
    u64 hands[MAXS];
    World w;
    for (int wi = 0; wi < worlds; wi++) {
        sample(&sm, &rng, hands);
        u64 q = cands;
        while (q) {
            int first = low_index(q);
            q &= q - 1;
            for (int i = 0; i < ntasks; i++) owners[i] = task_owner[i];
            owners[first] = me;
            int seat = (me + 1) % n;
            for (;;) {
                int best = -1, best_a = 0;
                for (int i = 0; i < ntasks; i++) {
                    if (owners[i] != -1) continue;
                    int a = affinity(t, hands[seat], task_card[i], trump_mask);
                    if (best < 0 || a > best_a || (a == best_a && task_card[i] < task_card[best])) {
                        best = i;
                        best_a = a;
                    }
                }
                if (best < 0) break;
                owners[best] = seat;
                seat = (seat + 1) % n;
            }
            memset(&w, 0, sizeof w);
            w.t = t;
            w.n = n;
            for (int s = 0; s < n; s++) w.hands[s] = hands[s];
            w.led = -1;
            w.leader = w.turn = leader;
            w.win_seat = -1;
            w.ntasks = w.total = ntasks;
            w.task_bits = task_bits;
            w.task_owner = owners;
            w.task_kind = task_kind;
            w.task_k = task_k;
            w.pending = pending;
            w.done = done;
            w.status = ST_OPEN;
            w.tricks_left = tricks_left;
            refresh_tasks(&w);
            scores[first] += 100000LL * rollout(&w);
        }
    }
    int best = -1;
    long long best_score = 0;
    u64 q = cands;
    while (q) {
        int i = low_index(q);
        q &= q - 1;
        scores[i] += affinity(t, sm.known[me], task_card[i], trump_mask);
        if (best < 0 || scores[i] > best_score || (scores[i] == best_score && task_card[i] < task_card[best])) {
            best = i;
            best_score = scores[i];
        }
    }
    return best;
}

/* One play-out from a given position (for the tests): hands[n], the rest as in fs_decide without the
 * sampler part. Returns 1 won, 0 lost. */
static int rollout_at(const Table *t, CondCtx *cx, const ll *st) {
    const ll *p = st;
    World w;
    memset(&w, 0, sizeof w);
    int n = (int)*p++;
    w.t = t;
    w.n = n;
    int leader = (int)*p++;
    w.tricks_left = (int)*p++;
    int ncur = (int)*p++;
    int cur_seat[MAXS], cur_card[MAXS];
    for (int i = 0; i < ncur; i++) { cur_seat[i] = (int)*p++; cur_card[i] = (int)*p++; }
    int ntasks = (int)*p++;
    u64 task_bits[MAXT];
    int task_owner[MAXT], task_kind[MAXT], task_k[MAXT];
    u64 pending = 0;
    for (int i = 0; i < ntasks; i++) {
        task_bits[i] = (u64)*p++;
        task_owner[i] = (int)*p++;
        task_kind[i] = (int)*p++;
        task_k[i] = (int)*p++;
        if (*p++) pending |= (u64)1 << i;
    }
    w.done = (int)*p++;
    for (int s = 0; s < n; s++) w.hands[s] = (u64)*p++;
    w.led = -1;
    w.leader = w.turn = leader;
    w.win_seat = -1;
    w.ntasks = w.total = ntasks;
    w.task_bits = task_bits;
    w.task_owner = task_owner;
    w.task_kind = task_kind;
    w.task_k = task_k;
    w.pending = pending;
    w.status = ST_OPEN;
    refresh_tasks(&w);
    if (!cx) {
        for (int j = 0; j < ncur; j++) {
            w.turn = cur_seat[j];
            w.hands[cur_seat[j]] |= (u64)1 << cur_card[j];
            play(&w, cur_card[j]);
        }
        return rollout(&w);
    }
    /* with conditions (the tricks seen and the done mask follow the hands, as in fs_decide_cond): the
     * trick in progress is replayed without them, its last card (the one weighed) with them */
    int ntr0 = read_tricks(cx, &p, n, w.won_count);
    if (ntr0 < 0) return -2;
    w.cond_done = (u64)*p++;
    w.goal_mask = (u64)*p++;
    w.goal_need = (int)*p++;
    w.ntr = ntr0;
    cx->err = 0;
    if (ncur == 0) {
        /* no card weighed: the play-out of the position itself, from a trick start (the heuristic's role choice,
         * heuristic.py: _choose_player), with the conditions judged from its first card */
        if (w.status != ST_OPEN) return -1;
        w.cx = cx;
        int won = rollout_cond(&w);
        return cx->err ? -2 : won;
    }
    for (int j = 0; j < ncur; j++) {
        w.turn = cur_seat[j];
        w.hands[cur_seat[j]] |= (u64)1 << cur_card[j];
        if (j == ncur - 1) {
            if (w.status != ST_OPEN) return -1; /* not a position the bot weighs a card in */
            w.cx = cx;
        }
        play(&w, cur_card[j]);
    }
    int won = rollout_cond(&w);
    return cx->err ? -2 : won;
}

int fs_rollout(void *ctx, const ll *st) { return rollout_at((const Table *)ctx, NULL, st); }

/* One play-out with the mission's conditions: st as fs_rollout, then the tricks seen and the done mask (as
 * fs_decide_cond reads them); the last card of the trick in progress is the one weighed (none at a trick
 * start with no card on the table: the position is played out as it is). Returns 1 won, 0 lost, -1 when the
 * position is already decided before that card, -2 when Python must play it out. */
int fs_rollout_cond(void *ctx, void *cond, const ll *st) {
    return rollout_at((const Table *)ctx, (CondCtx *)cond, st);
}

/* count play-outs at once (the expert's extra worlds): sts holds count states of len values each, as
 * fs_rollout (cond NULL) or fs_rollout_cond reads them; out[i] is what that call would return */
void fs_rollout_batch(void *ctx, void *cond, const ll *sts, int count, int len, int *out) {
    for (int i = 0; i < count; i++)
        out[i] = rollout_at((const Table *)ctx, (CondCtx *)cond, sts + (size_t)i * (size_t)len);
}
