/* The fast bot's look-ahead in C: a line-by-line port of crewkit/bots/fast.py's sampler and of the
 * cooperative play-out policy of crewkit/bots/sim.py (World, choose_play, rollout).
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

#define FS_ABI 1
#define MAXC 63
#define MAXS 8
#define MAXSUIT 16
#define MAXT 64

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
} World;

static inline int low_index(u64 m) { return __builtin_ctzll(m); }
static inline int high_index(u64 m) { return 63 - __builtin_clzll(m); }
static inline int popcount(u64 m) { return __builtin_popcountll(m); }

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
    if (w->nplays == w->n) finish_trick(w);
    else w->turn = (seat + 1) % w->n;
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
 * ntasks, (bit, owner, kind, k, pending) * ntasks, done, spare, candidates, unknown, known[n], void[n], need[n].
 * wins/votes: per card id (nc entries). Returns the chosen card, or -1 when no world could be played. */
int fs_decide(void *ctx, const ll *st, unsigned long long seed, int *wins, int *votes) {
    const Table *t = (const Table *)ctx;
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
    sampler_init(&sm);
    for (int c = 0; c < t->nc; c++) { wins[c] = 0; votes[c] = 0; }
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
            if (same && (best_w == 0 || best_w == check_at)) break;
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
        int v = choose_play(&base);
        if (v >= 0) votes[v] += 1;
        if (!rollouts) continue;
        u64 q = active;
        while (q) {
            int c = low_index(q);
            q &= q - 1;
            w = base;
            play(&w, c);
            wins[c] += rollout(&w);
        }
    }
    int best = -1;
    long best_score = -1;
    u64 q = cands;
    while (q) {
        int c = low_index(q);
        q &= q - 1;
        long score = 10L * wins[c] + votes[c];
        if (score > best_score) { best = c; best_score = score; }
    }
    return best;
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
int fs_rollout(void *ctx, const ll *st) {
    const Table *t = (const Table *)ctx;
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
    for (int j = 0; j < ncur; j++) {
        w.turn = cur_seat[j];
        w.hands[cur_seat[j]] |= (u64)1 << cur_card[j];
        play(&w, cur_card[j]);
    }
    return rollout(&w);
}
