/* The fast bot's look-ahead in C: a line-by-line port of crewkit/families/trick_taking/bots/knowledge.py's sampler and of the
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

#define FS_ABI 11
#define MAXC 63
#define MAXS 8
#define MAXSUIT 16
#define MAXT 64
#define MAXTR 32   /* tricks in one play-out (63 cards between 2 seats: 31) */
#define MAXCOND 64
#define MAXL 64    /* the longest list a condition builds (crewkit/families/trick_taking/bots/condcode.py: MAX_LIST) */
#define MAXVARS 16
#define LOOK 2        /* sim.py: LOOK, MANY_TASKS */
#define MANY_TASKS 5
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
    int look;                /* tricks a lead looks further (sim.py: World.look) */
    /* mission conditions (conditions.py: CondWorld); cx is NULL for a mission of task cards only */
    struct CondCtx *cx;
    int ntr;                 /* tricks completed, observed and simulated (cx->hist[0..ntr-1]) */
    int won_count[MAXS];
    u64 cond_done;
    int trick_judged;        /* this world judged every condition at the end of its last trick (see judge) */
    u64 goal_mask;           /* conditions.py: CondSetup.goal_mask / goal_last / goal_seat, CondWorld.goal_need */
    int goal_need, goal_won, goal_last, goal_seat;
    int lim_seat, lim_k, cap_k, cap_free; /* conditions.py: CondSetup.lim_seat / lim_k / cap_mask / cap_k / cap_free */
    u64 cap_mask;
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
    /* sim.py: World.refresh_tasks (LOOK, MANY_TASKS) */
    w->look = w->total >= MANY_TASKS ? LOOK : 0;
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

/* sim.py: _lead_eval (the lead and its score, looking w->look tricks further) */
static int lead_eval(const World *w, int depth, int *out_score) {
    int seat = w->turn;
    u64 hand = w->hands[seat];
    *out_score = 0;
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
        if (depth < w->look && trial.status == ST_OPEN) {
            int next;
            lead_eval(&trial, depth + 1, &next);
            score += next / 2;
        }
        if (score > best_score) { best = c; best_score = score; }
    }
    *out_score = best_score;
    return best;
}

static int lead(const World *w) {
    int score;
    return lead_eval(w, 0, &score);
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
 * A port of crewkit/families/trick_taking/bots/conditions.py (CondWorld, choose_play_cond, rollout_cond); the
 * evaluator of the translated conditions (condcode.py) is condeval.h, shared with the solver's C search. */
#include "condeval.h"

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
    int last = w->tricks_left <= 0 || number >= x->total_tricks;
    if ((w->goal_seat >= 0 ? winner == w->goal_seat : (int)(w->goal_mask >> r->wincard & 1)) && (last || !w->goal_last))
        w->goal_won++;
    if (w->status == ST_FAIL) return;
    if (w->status == ST_WON) w->status = ST_OPEN;
    judge(w, 0);
    if (w->status == ST_FAIL) return;
    w->trick_judged = 1;
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

/* conditions.py: _beaters */
static u64 beaters(const Table *t, int x, u64 m) {
    const int *keys = t->keys[t->suit[x] + 1];
    int kx = keys[x];
    u64 out = 0;
    while (m) {
        int y = low_index(m);
        m &= m - 1;
        if (keys[y] > kx) out |= (u64)1 << y;
    }
    return out;
}

/* conditions.py: _lead_before_last */
static int lead_before_last(const World *w, int c, u64 rest, u64 block, int hold) {
    const Table *t = w->t;
    int seat = w->turn, n = w->n;
    if (seat == hold) {
        u64 foreign = w->pmask & ~w->own[seat];
        u64 m = rest;
        while (m) {
            int x = high_index(m);
            m &= ~((u64)1 << x);
            int led = t->suit[x];
            const int *keys = t->keys[led + 1];
            int ok = 1;
            for (int i = 1; i < n && ok; i++)
                if (!can_duck(w, (seat + i) % n, keys, led, keys[x], foreign)) ok = 0;
            if (ok) return x;
        }
        return (rest >> c & 1) ? c : high_index(rest);
    }
    u64 hand = w->hands[seat];
    int best = -1, best_rank = 1 << 30;
    u64 m = rest;
    while (m) {
        int x = low_index(m);
        m &= m - 1;
        if (!(hand & ~((u64)1 << x) & block) && t->rank[x] < best_rank) { best = x; best_rank = t->rank[x]; }
    }
    if (best >= 0) return best;
    return (rest >> c & 1) ? c : low_index(rest);
}

/* conditions.py: _goal_prepare */
static int goal_prepare(const World *w, int c, u64 goals, u64 live) {
    const Table *t = w->t;
    int seat = w->turn;
    int aim = -1, hold = -1;
    u64 block = 0;
    u64 g = goals;
    while (g) {
        int x = low_index(g);
        g &= g - 1;
        int h = holder(w, x);
        u64 b = beaters(t, x, live & ~w->hands[h]);
        if (aim < 0 || popcount(b) < popcount(block)) { aim = x; hold = h; block = b; }
    }
    if (w->goal_seat >= 0) goals = (u64)1 << aim; /* a seat's goal: the card of its hand aimed at is kept back */
    u64 hand = w->hands[seat];
    u64 rest = hand & ~goals;
    int c_goal = (int)(goals >> c & 1);
    if (!w->nplays) {
        if (!rest) return c;
        if (w->pending) return c_goal ? low_index(rest) : c;
        if (w->tricks_left == 2) return lead_before_last(w, c, rest, block, hold);
        if (seat == hold) {
            u64 m = block;
            while (m) {
                int x = low_index(m);
                m &= m - 1;
                u64 strip = t->suit[x] >= 0 ? rest & t->suit_masks[t->suit[x]] : 0;
                if (strip) return high_index(strip);
            }
        } else {
            u64 m = rest & block;
            while (m) {
                int x = high_index(m); /* the strongest first: the hardest to shed later */
                m &= ~((u64)1 << x);
                int s = t->suit[x];
                u64 sm = s >= 0 ? t->suit_masks[s] : 0;
                if (!(w->hands[hold] & sm) || (w->hands[hold] & sm & ~goals)) return x;
            }
        }
        return c_goal ? low_index(rest) : c;
    }
    u64 legal = legal_for(w, seat, w->led);
    if ((legal & (legal - 1)) == 0) return c;
    rest = legal & ~goals;
    if (!rest) return c;
    const int *keys = t->keys[w->led + 1];
    int win_key = w->win_key;
    if (w->tricks_left == 2) {
        if (seat == hold) {
            int top = -1, top_k = -1;
            u64 m = rest;
            while (m) {
                int x = low_index(m);
                m &= m - 1;
                int k = keys[x];
                if (k > win_key && rest_can_duck(w, seat, keys, k, seat)) return x;
                if (k > top_k) { top = x; top_k = k; }
            }
            return top;
        }
        int holder_played = 0;
        for (int j = 0; j < w->nplays; j++)
            if (w->play_seat[j] == hold) holder_played = 1;
        if (holder_played && w->win_seat != hold) return c_goal ? low_index(rest) : c;
        u64 under = 0, keep_safe = 0, m = rest;
        while (m) {
            int x = low_index(m);
            m &= m - 1;
            if (keys[x] < win_key) under |= (u64)1 << x;
            if (!(hand & ~((u64)1 << x) & block)) keep_safe |= (u64)1 << x;
        }
        if (under & keep_safe) return low_index(under & keep_safe);
        if (under) return low_index(under);
        if (keep_safe) return low_index(keep_safe);
        return c_goal ? low_index(rest) : c;
    }
    if ((w->trick_mask | (u64)1 << c) & w->pmask)
        return c_goal ? duck(w, rest, keys, win_key, w->pmask, 1) : c;
    if (seat != hold && (w->led < 0 || !(hand & t->suit_masks[w->led])) && (rest & block))
        return high_index(rest & block);
    if (c_goal) return duck(w, rest, keys, win_key, w->pmask, 0);
    return c;
}

static int goal_play(const World *w, int c) {
    const Table *t = w->t;
    int n = w->n, seat = w->turn;
    u64 live = 0;
    for (int s = 0; s < n; s++) live |= w->hands[s];
    u64 mask = w->goal_seat >= 0 ? w->hands[w->goal_seat] : w->goal_mask; /* a seat's goal: its cards */
    u64 goals = mask & live;
    if (w->goal_last && w->tricks_left > 1) return goals ? goal_prepare(w, c, goals, live) : c;
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
    if (win_card >= 0 && (mask >> win_card & 1)) {
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

/* conditions.py: _max_key */
static int max_key(const World *w, int seat, int led) {
    const int *keys = w->t->keys[led + 1];
    u64 m = legal_for(w, seat, led);
    int top = -1;
    while (m) { int x = low_index(m); m &= m - 1; if (keys[x] > top) top = keys[x]; }
    return top;
}

/* conditions.py: _seat_limit_play */
/* The legal card of the lowest key above key; -1 when none. */
static int lowest_above(const int *keys, u64 legal, int key) {
    int over = -1;
    u64 m = legal;
    while (m) {
        int x = low_index(m);
        m &= m - 1;
        if (keys[x] > key && (over < 0 || keys[x] < keys[over])) over = x;
    }
    return over;
}

static int seat_limit_play(const World *w, int c, int lim, int full, u64 sure) {
    const Table *t = w->t;
    int n = w->n, seat = w->turn;
    u64 hand = w->hands[seat];
    u64 others = 0;
    for (int s = 0; s < n; s++)
        if (s != lim) others |= w->hands[s];
    u64 catch = w->own[lim] & others;
    if (!w->nplays) {
        if (seat != lim) return c;
        if (full && catch) {
            u64 m = sure;
            while (m) {
                int x = low_index(m);
                m &= m - 1;
                for (int i = 1; i < n; i++)
                    if (legal_for(w, (seat + i) % n, t->suit[x]) & catch) return x;
            }
        }
        int best = -1, best_key = 1 << 30;
        u64 m = hand;
        while (m) {
            int x = low_index(m);
            m &= m - 1;
            int led = t->suit[x];
            const int *keys = t->keys[led + 1];
            int nb = 0;
            u64 o = others;
            while (o) { int y = low_index(o); o &= o - 1; if (keys[y] > keys[x]) nb++; }
            int kx = nb * 1000 + keys[x];
            if (kx >= best_key) continue;
            for (int i = 1; i < n; i++) {
                int s = (seat + i) % n;
                if (legal_for(w, s, led) && max_key(w, s, led) > keys[x]) { best = x; best_key = kx; break; }
            }
        }
        return best >= 0 ? best : c;
    }
    u64 legal = legal_for(w, seat, w->led);
    if ((legal & (legal - 1)) == 0) return c;
    const int *keys = t->keys[w->led + 1];
    int win_key = w->win_key;
    if (seat == lim) {
        if (full && (legal & sure)) {
            for (int i = 1; i < n - w->nplays; i++)
                if (legal_for(w, (seat + i) % n, w->led) & catch) return low_index(legal & sure);
        }
        int top = -1;
        u64 m = legal;
        while (m) {
            int x = low_index(m);
            m &= m - 1;
            if (keys[x] < win_key && (top < 0 || t->rank[x] > t->rank[top])) top = x;
        }
        if (top >= 0) return top;
        if (legal & sure) return low_index(legal & sure);
        int low = -1, high = -1;
        m = legal;
        while (m) {
            int x = low_index(m);
            m &= m - 1;
            if (low < 0 || keys[x] < keys[low]) low = x;
            if (high < 0 || keys[x] > keys[high]) high = x;
        }
        for (int i = 1; i < n - w->nplays; i++)
            if (max_key(w, (seat + i) % n, w->led) > keys[low]) return low;
        return high;
    }
    if (!full) return c;
    if (w->win_seat == lim) {
        int over = lowest_above(keys, legal, win_key);
        return over >= 0 ? over : c;
    }
    for (int j = 0; j < w->nplays; j++)
        if (w->play_seat[j] == lim) return c;
    int top = max_key(w, lim, w->led);
    if (top > win_key && keys[c] <= top) {
        int over = lowest_above(keys, legal, top);
        return over >= 0 ? over : c;
    }
    return c;
}

/* conditions.py: _forced */
static inline int forced(const World *w, int seat, int led, u64 cap) {
    u64 legal = legal_for(w, seat, led);
    return legal && !(legal & ~cap);
}

/* conditions.py: _shed_lead */
static int shed_lead(const World *w, int c, u64 cands, u64 cap) {
    const Table *t = w->t;
    int n = w->n, seat = w->turn;
    u64 shed = 0, m = cands;
    while (m) {
        int x = low_index(m);
        m &= m - 1;
        int s = t->suit[x];
        if (s < 0) continue;
        for (int i = 1; i < n; i++) {
            u64 h = w->hands[(seat + i) % n];
            if ((h & cap) && !(h & t->suit_masks[s])) { shed |= (u64)1 << x; break; }
        }
    }
    if (shed) return (shed >> c & 1) ? c : low_index(shed);
    if ((cap >> c & 1) && cands) return low_index(cands);
    return c;
}

/* conditions.py: _cap_play */
static int cap_play(const World *w, int c, u64 cap, int k, int free_last) {
    const Table *t = w->t;
    int n = w->n, seat = w->turn;
    int ends = free_last ? n - 1 : n;
    u64 hand = w->hands[seat];
    if (!w->nplays) {
        u64 mine = hand & cap;
        if (!mine) {
            u64 m = cap;
            while (m) {
                int x = low_index(m);
                m &= m - 1;
                if (t->cat[x] != 1) return c;
            }
            return shed_lead(w, c, hand & ~cap, cap);
        }
        u64 safe = 0, m = mine;
        while (m) {
            int x = low_index(m);
            m &= m - 1;
            int led = t->suit[x], cnt = 1;
            for (int i = 1; i < ends; i++) cnt += forced(w, (seat + i) % n, led, cap);
            if (cnt <= k) safe |= (u64)1 << x;
        }
        if (safe) return (safe >> c & 1) ? c : low_index(safe);
        return shed_lead(w, c, hand & ~cap, cap);
    }
    u64 legal = legal_for(w, seat, w->led);
    if ((legal & (legal - 1)) == 0) return c;
    int led = w->led, after = 0;
    for (int i = 1; i < ends - w->nplays; i++) after += forced(w, (seat + i) % n, led, cap);
    int room = k - popcount(w->trick_mask & cap) - after;
    if (free_last && w->nplays == n - 1) room = 1;
    const int *keys = t->keys[led + 1];
    if (cap >> c & 1) {
        if (room >= 1 || !(legal & ~cap)) return c;
        return duck(w, legal & ~cap, keys, w->win_key, w->pmask, 0);
    }
    if (room >= 1 && (legal & cap) && !(hand & t->suit_masks[led])) return duck(w, legal & cap, keys, w->win_key, w->pmask, 0);
    return c;
}

/* conditions.py: _sure_cards */
static u64 sure_cards(const World *w, int seat) {
    const Table *t = w->t;
    u64 m = w->hands[seat], out = 0, others = 0;
    int got_others = 0;
    while (m) {
        int x = low_index(m);
        m &= m - 1;
        if (t->cat[x] < 2) continue;
        if (!got_others) {
            for (int s = 0; s < w->n; s++)
                if (s != seat) others |= w->hands[s];
            got_others = 1;
        }
        int ok = 1;
        for (int j = 0; j <= t->nsuits && ok; j++) {
            const int *keys = t->keys[j];
            if (keys[x] <= 0) { ok = 0; break; }
            u64 o = others;
            while (o) {
                int y = low_index(o);
                o &= o - 1;
                if (keys[x] <= keys[y]) { ok = 0; break; }
            }
        }
        if (ok) out |= (u64)1 << x;
    }
    return out;
}

/* conditions.py: _spend_sure */
static int spend_sure(const World *w, int c, u64 sure) {
    u64 legal = legal_for(w, w->turn, w->led);
    if ((sure >> c & 1) || !(legal & sure) || !w->nplays) return c;
    if (w->t->keys[w->led + 1][c] < w->win_key) return c;
    return low_index(legal & sure);
}

/* conditions.py: limit_play */
static int limit_play(const World *w, int c) {
    u64 task = (w->trick_mask | (u64)1 << c) & w->pmask;
    if (w->lim_seat >= 0) {
        int lim = w->lim_seat;
        u64 sure = sure_cards(w, lim);
        int left = w->lim_k - w->won_count[lim] - popcount(sure);
        if (task) {
            if (w->turn == lim && left <= 0 && sure) c = spend_sure(w, c, sure);
        } else if (left <= 1) {
            c = seat_limit_play(w, c, lim, left <= 0, sure);
        }
    }
    if (w->cap_mask && !task) c = cap_play(w, c, w->cap_mask, w->cap_k, w->cap_free);
    return c;
}

/* conditions.py: choose_play_cond */
static int choose_play_cond(const World *w) {
    int c = choose_play(w);
    if (c >= 0 && w->goal_won < w->goal_need) c = goal_play(w, c);
    if (c >= 0 && (w->lim_seat >= 0 || w->cap_mask)) c = limit_play(w, c);
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

/* ------------------------------------------------------------------ the sampler (knowledge.py: Sampler) */
static inline u64 splitmix(u64 *state) {
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

typedef struct {
    int n;
    u64 known[MAXS], vd[MAXS];
    int need[MAXS];
    int spare;
    int ncards;
    int order[MAXC];       /* unknown cards, fewest candidate seats first, then by id */
    int count[MAXC];       /* their candidate seats (a run of equal counts is shuffled per attempt) */
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
            if (sm->need[s] && !(sm->vd[s] >> c & 1)) cnt++;
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
    memcpy(sm->count, counts, sizeof(int) * k);
    sm->ncards = k;
}

static void sample(const Sampler *sm, u64 *rng, u64 *hands) {
    int n = sm->n;
    for (int attempt = 0; attempt < 8; attempt++) {
        int need[MAXS];
        for (int s = 0; s < n; s++) { hands[s] = sm->known[s]; need[s] = sm->need[s]; }
        int spare = sm->spare, ok = 1;
        /* each run of cards with as many candidate seats in a random order (Fisher-Yates from its end) */
        int ord[MAXC];
        memcpy(ord, sm->order, sizeof(int) * sm->ncards);
        for (int a = 0; a < sm->ncards;) {
            int b = a + 1;
            while (b < sm->ncards && sm->count[b] == sm->count[a]) b++;
            for (int i = b - 1; i > a; i--) {
                int j = a + (int)(splitmix(rng) % (u64)(i - a + 1));
                int tmp = ord[i]; ord[i] = ord[j]; ord[j] = tmp;
            }
            a = b;
        }
        for (int i = 0; i < sm->ncards; i++) {
            int c = ord[i];
            int total = spare;
            for (int s = 0; s < n; s++)
                if (need[s] && !(sm->vd[s] >> c & 1)) total += need[s];
            if (total <= 0) { ok = 0; break; }
            int r = (int)(splitmix(rng) % (u64)total);
            int chosen = -1;
            for (int s = 0; s < n; s++) {
                if (!need[s] || (sm->vd[s] >> c & 1)) continue;
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
    int n = (int)*p++;
    p++; /* me: the sampler reads need[me] (0 but for JARVIS's own view) */
    int worlds = (int)*p++, rollouts = (int)*p++;
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
    int goal_need = 0, goal_last = 0, goal_seat = -1, lim_seat = -1, lim_k = 0, cap_k = 0, cap_free = 0;
    u64 cap_mask = 0;
    if (cx) {
        ntr0 = read_tricks(cx, &p, n, won0);
        if (ntr0 < 0) return -2;
        done0 = (u64)*p++;
        goal_mask = (u64)*p++;
        goal_need = (int)*p++;
        goal_last = (int)*p++;
        goal_seat = (int)*p++;
        lim_seat = (int)*p++;
        lim_k = (int)*p++;
        cap_mask = (u64)*p++;
        cap_k = (int)*p++;
        cap_free = (int)*p++;
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
            base.goal_last = goal_last;
            base.goal_seat = goal_seat;
            base.lim_seat = lim_seat;
            base.lim_k = lim_k;
            base.cap_mask = cap_mask;
            base.cap_k = cap_k;
            base.cap_free = cap_free;
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

void *fs_cond_new(const ll *pr) { return cond_ctx_new(pr); }

void fs_cond_free(void *p) { cond_ctx_free((CondCtx *)p); }

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
    w.goal_last = (int)*p++;
    w.goal_seat = (int)*p++;
    w.lim_seat = (int)*p++;
    w.lim_k = (int)*p++;
    w.cap_mask = (u64)*p++;
    w.cap_k = (int)*p++;
    w.cap_free = (int)*p++;
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
