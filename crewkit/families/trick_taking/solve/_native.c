/* The solver's trick search, in C.
 *
 * This file mirrors crewkit/families/trick_taking/solve/core.py (TrickSearch) for positions without neighbour
 * draws, suitless or free cards: plain missions and card-blind conditions (a winner automaton) with the
 * relative key of suits as contiguous id ranges, and mission conditions of any other shape evaluated by the
 * fast bot's evaluator (../bots/condeval.h: condcode.py's program), with the Python search's history summary
 * as the key. It visits the same nodes in the same order as the Python search, so node counts and winning
 * lines are identical (tests/solve/test_native.py and test_native_conditions.py check that); it is only faster. Python builds the tables
 * (card powers, masks, tasks and tokens) and loads this library through ctypes (crewkit/families/trick_taking/solve/native.py).
 *
 * Plain C99, no Python headers: it is compiled with the system C compiler into a shared library.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__unix__) || defined(__APPLE__)
#include <signal.h>
#define CK_SIGNALS 1
#endif

#define CK_ABI 10
#define MAXC 63
#define MAXN 6
#define MAXSU 8 /* suits */
#define MAXT 40
#define KEYW 4 /* 64-bit words of a packed key */

#define R_WIN 1
#define R_LOST 0
#define R_NODES -1
#define R_TIME -2
#define R_INTERRUPT -3
#define R_ERROR -4 /* a condition raised an error the DSL reports: the Python search takes the position */

/* Ctrl-C while the search runs: Python cannot see the signal before the call returns, so the search
 * catches SIGINT itself (only when asked: from the main thread) and returns R_INTERRUPT. */
#ifdef CK_SIGNALS
static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
}
#endif

typedef uint64_t u64;
typedef long long ll;

static inline int low_index(u64 m) { return __builtin_ctzll(m); }
static inline int popcount(u64 m) { return __builtin_popcountll(m); }

/* the position mission conditions read (condeval.h), shared with the round search */
#include "_condworld.h"

typedef struct {
    int score, cid, nl, wp, w, wc, o;
} Move;

typedef struct {
    u64 w[KEYW];
} Key;

typedef struct {
    /* rules */
    int n, ncards, nsuits, total, must_follow, check_order, merge, ntasks, nspans;
    int card_suit[MAXC], order_rank[MAXC], owner_of[MAXC], task_of[MAXC];
    int *power; /* (nsuits + 1) * ncards: power[(led + 1) * ncards + cid] */
    u64 suit_mask[MAXSU], higher[MAXC], lower[MAXC], order_cards;
    int span_lo[MAXSU], span_len[MAXSU];
    u64 span_mask[MAXSU];
    int n_num, num_task[MAXT], num_k[MAXT];
    int n_omega, omega_task[MAXT];
    int n_arrow, arrow_task[MAXT], arrow_r[MAXT];
    u64 task_card[MAXT];
    int played_tab[MAXN][MAXN];
    int has_tokens, holder_bits;
    /* free draft: the undrafted task cards (owned by whoever wins them), the cards beating each card led */
    int draft;
    u64 undrafted, beaters[MAXC];
    int mclass[MAXC]; /* merge only cards of one class (conditions tell the classes apart: native.merge_classes) */
    /* card-blind mission conditions as an automaton over trick winners (TrickSearch.winner_automaton):
     * na states; a_child[state * n + w] is the state after seat w wins a trick (-1: a condition fails),
     * a_complete[state] whether every condition is done there; astate is the position's state */
    int na, abits, astate;
    int late; /* no success before the last trick (a compiled condition's card is left unplayed) */
    int *a_child, *a_allowed;
    uint8_t *a_complete;
    /* a_most[state * n + w]: the most tricks seat w can still win on winners the conditions accept (255: any);
     * trumplike: the cards strong in every led suit; beats_any[c]: the cards stronger than c in some led suit */
    uint8_t *a_most;
    u64 trumplike, beats_any[MAXC];
    /* mission conditions evaluated here (cx NULL without): the view cw they read, the game's tasks in it,
     * the conditions done, and the history summary of the key (TrickSearch._key): each seat's won cards and
     * the cards it won tricks with; ckbits: bits of a card's place in the key */
    CondCtx *cx;
    World cw;
    u64 real_bits[MAXT];
    int real_owner[MAXT], nreal, ckbits;
    u64 cond_done, won[MAXN], winmask[MAXN];
    /* the history digest (native.py: history_digest), when the conditions read the past only through the values
     * of quantifiers over the tricks (dig_node) and each seat's tricks won (dig_counts): the key holds those
     * values instead of the summary */
    int digest, ndig, dig_node[16], dig_counts;
    u64 dig_winners; /* the cards whose winner the conditions read (native.winner_cards), 0: none */
    /* the conditions' goal (TrickSearch._goal): cards whose winning a trick the goal_cond-th condition counts */
    u64 goal_mask;
    int goal_cond, goal_k;
    int goal_last; /* the goal is the round's last trick, K = 1 (TrickSearch.goal_last; goal_k 0 in the config) */
    u64 lead_only; /* cards weak in every led suit but their own (goal_out_of_reach) */
    u64 strong_all; /* cards strong in every led suit (trumps: the goal order) */
    /* the goal's count bound applies (goal_counts.py: applies); per card, the cards of its suit no stronger */
    int goal_counts;
    u64 not_above[MAXC];
    struct GoalTables *goal_tab; /* goal_counts_short's tables (allocated on first use) */
    /* cards claimed by a seat (compiled.CompiledConditions.claims): a trick holding one goes to that seat (owner_of)
     * or its condition fails; cut as a task's trick */
    u64 claimed;
    /* position */
    u64 hands[MAXN];
    int leader, led, ntricks, ndone;
    u64 open_tasks, remaining, table;
    int plays_seat[MAXN], plays_cid[MAXN], nplays;
    int task_trick[MAXT]; /* 0: open, else the trick that completed it */
    int quota_left[MAXN]; /* free draft: how many more tasks each seat takes */
    int need[MAXN];       /* the tricks each owner's open tasks need (too_few_tricks; read by sure_wins_exceed) */
    int only;             /* >= 0: the root tries only this card (TrickSearch.run_split) */
    int split_trick;      /* run_split: the trick (number of tricks played) whose leads are split, else -1 */
    long long split_first, split_growth;
    /* search */
    long long nodes, max_nodes, next_check; /* max_nodes < 0: none */
    double deadline;                       /* < 0: none (CLOCK_MONOTONIC seconds) */
    int line_seat[64], line_cid[64], nline;
    /* table of positions proved lost */
    Key *slots;
    u64 cap, count;
    long long max_table;
} Ctx;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sync_view(Ctx *c);

/* ------------------------------------------------------------------ table */
/* A position's relative key packed into KEYW words (exact, no hashing shortcut):
 * a marker bit, the leader, the open tasks, then per suit the number of remaining cards and per card
 * (in rank order) its holder and whether it is an open task card. With the open tasks known, the k-th
 * marked card of a suit is the k-th open task of that suit in rank order, so this holds exactly what
 * the Python key (holder, task index per card) holds. */
static inline u64 mix64(u64 x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline u64 key_hash(const Key *k) {
    u64 h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < KEYW; i++) h = mix64(h ^ k->w[i]) + (u64)i;
    return h;
}

static inline int key_empty(const Key *k) { return k->w[0] == 0; } /* the marker bit is never 0 */

static int table_alloc(Ctx *c, u64 cap) {
    Key *s = (Key *)calloc(cap, sizeof(Key));
    if (!s) return 0;
    free(c->slots);
    c->slots = s;
    c->cap = cap;
    c->count = 0;
    return 1;
}

static int table_has(Ctx *c, const Key *k, u64 h) {
    u64 mask = c->cap - 1;
    for (u64 i = h & mask;; i = (i + 1) & mask) {
        const Key *s = c->slots + i;
        if (key_empty(s)) return 0;
        if (memcmp(s, k, sizeof(Key)) == 0) return 1;
    }
}

static void table_put_raw(Ctx *c, const Key *k, u64 h) {
    u64 mask = c->cap - 1;
    for (u64 i = h & mask;; i = (i + 1) & mask) {
        Key *s = c->slots + i;
        if (key_empty(s)) {
            *s = *k;
            c->count++;
            return;
        }
        if (memcmp(s, k, sizeof(Key)) == 0) return;
    }
}

static void table_grow(Ctx *c) {
    u64 old_cap = c->cap;
    Key *old = c->slots;
    Key *s = (Key *)calloc(old_cap * 2, sizeof(Key));
    if (!s) return; /* stay at this size: the table is only a speed-up */
    c->slots = s;
    c->cap = old_cap * 2;
    c->count = 0;
    for (u64 i = 0; i < old_cap; i++)
        if (!key_empty(old + i)) table_put_raw(c, old + i, key_hash(old + i));
    free(old);
}

/* the Python search: ``if len(dead) >= MAX_TABLE: dead.clear()`` before adding, when ``clear_full`` */
static void table_add(Ctx *c, const Key *k, u64 h, int clear_full) {
    if (clear_full && (long long)c->count >= c->max_table) {
        memset(c->slots, 0, c->cap * sizeof(Key));
        c->count = 0;
    }
    if ((c->count + 1) * 4 > c->cap * 3) table_grow(c);
    if ((c->count + 1) * 10 > c->cap * 9) return; /* could not grow: skip rather than fill up */
    table_put_raw(c, k, h);
}

static inline void put_bits(Key *k, int *bit, u64 v, int nbits) {
    int at = *bit, wi = at >> 6, off = at & 63;
    k->w[wi] |= v << off;
    if (off + nbits > 64) k->w[wi + 1] |= v >> (64 - off);
    *bit = at + nbits;
}

/* compress8[x][m]: the bits of x where m has a 1, packed low (a table version of BMI2's pext) */
static uint8_t compress8[256][256];
static uint8_t popcount8[256];
static int compress_ready;

static void compress_init(void) {
    if (compress_ready) return;
    for (int m = 0; m < 256; m++) {
        int pc = 0;
        for (int b = 0; b < 8; b++) pc += (m >> b) & 1;
        popcount8[m] = (uint8_t)pc;
        for (int x = 0; x < 256; x++) {
            int out = 0, k = 0;
            for (int b = 0; b < 8; b++)
                if ((m >> b) & 1) out |= ((x >> b) & 1) << k++;
            compress8[x][m] = (uint8_t)out;
        }
    }
    compress_ready = 1;
}

static inline u64 compress16(u64 x, u64 m) {
    return (u64)compress8[x & 0xFF][m & 0xFF] | ((u64)compress8[(x >> 8) & 0xFF][(m >> 8) & 0xFF] << popcount8[m & 0xFF]);
}

/* Per suit: the number of remaining cards, then bit-planes over those cards in rank order: the holder's
 * seat number bit by bit, then "open task card". */
/* With mission conditions: the leader, the open tasks, the conditions done and, per card, where it is: in a
 * hand (the seat), won by a seat (n + seat), won by a seat as the trick's winning card (2n + seat), nowhere
 * (3n): exactly the Python search's summary key (hands, won cards, cards won with, tricks won). */
static void make_cond_key(Ctx *c, Key *k) {
    memset(k, 0, sizeof(Key));
    int bit = 0, n = c->n;
    put_bits(k, &bit, 1, 1);
    put_bits(k, &bit, (u64)c->leader, 3);
    u64 open_idx = 0;
    for (u64 m = c->open_tasks; m; m &= m - 1) open_idx |= 1ULL << c->task_of[low_index(m)];
    put_bits(k, &bit, open_idx, c->ntasks);
    put_bits(k, &bit, c->cond_done, c->cx->ncond);
    uint8_t place[MAXC];
    memset(place, 3 * n, sizeof place);
    for (int seat = 0; seat < n; seat++) {
        for (u64 m = c->hands[seat]; m; m &= m - 1) place[low_index(m)] = (uint8_t)seat;
        for (u64 m = c->won[seat]; m; m &= m - 1)
            place[low_index(m)] = (uint8_t)(((c->winmask[seat] >> low_index(m)) & 1 ? 2 * n : n) + seat);
    }
    for (int cid = 0; cid < c->ncards; cid++) put_bits(k, &bit, place[cid], c->ckbits);
}

/* With the history digest: the leader, the open tasks, the conditions done, who holds each card (n: nobody; or
 * n + the seat that won it when the conditions read who won a card, 2n: nobody), the digest's values (16 bits
 * each, 0xFFFF for an error or a value beyond) and each seat's tricks won. */
static void make_digest_key(Ctx *c, Key *k) {
    memset(k, 0, sizeof(Key));
    int bit = 0, n = c->n;
    CondCtx *x = c->cx;
    put_bits(k, &bit, 1, 1);
    put_bits(k, &bit, (u64)c->leader, 3);
    u64 open_idx = 0;
    for (u64 m = c->open_tasks; m; m &= m - 1) open_idx |= 1ULL << c->task_of[low_index(m)];
    put_bits(k, &bit, open_idx, c->ntasks);
    put_bits(k, &bit, c->cond_done, x->ncond);
    uint8_t place[MAXC];
    memset(place, c->dig_winners ? 2 * n : n, sizeof place);
    for (int seat = 0; seat < n; seat++) {
        for (u64 m = c->hands[seat]; m; m &= m - 1) place[low_index(m)] = (uint8_t)seat;
        for (u64 m = c->won[seat] & c->dig_winners; m; m &= m - 1) place[low_index(m)] = (uint8_t)(n + seat);
    }
    for (int cid = 0; cid < c->ncards; cid++) put_bits(k, &bit, place[cid], c->ckbits);
    sync_view(c);
    for (int j = 0; j < c->ndig; j++) {
        x->err = 0;
        x->steps = 0;
        ll v = ev(x, c->dig_node[j]);
        put_bits(k, &bit, (x->err || v < 0 || v >= 0xFFFF) ? 0xFFFF : (u64)v, 16);
    }
    x->err = 0;
    if (c->dig_counts)
        for (int seat = 0; seat < n; seat++) put_bits(k, &bit, (u64)c->cw.won_count[seat], 6);
}

static void make_key(Ctx *c, Key *k) {
    if (c->cx) {
        if (c->digest) make_digest_key(c, k);
        else make_cond_key(c, k);
        return;
    }
    u64 planes[3] = {0, 0, 0}, all = 0;
    for (int seat = 0; seat < c->n; seat++) {
        u64 h = c->hands[seat];
        all |= h;
        if (seat & 1) planes[0] |= h;
        if (seat & 2) planes[1] |= h;
        if (seat & 4) planes[2] |= h;
    }
    int hb = c->holder_bits;
    memset(k, 0, sizeof(Key));
    int bit = 0;
    put_bits(k, &bit, 1, 1);
    put_bits(k, &bit, (u64)c->leader, 3);
    u64 open_idx = 0;
    u64 m = c->open_tasks;
    while (m) {
        open_idx |= 1ULL << c->task_of[low_index(m)];
        m &= m - 1;
    }
    put_bits(k, &bit, open_idx, c->ntasks);
    if (c->draft)
        for (int seat = 0; seat < c->n; seat++) put_bits(k, &bit, (u64)c->quota_left[seat], 6);
    if (c->na) put_bits(k, &bit, (u64)c->astate, c->abits);
    for (int si = 0; si < c->nspans; si++) {
        int lo = c->span_lo[si];
        u64 wm = (1ULL << c->span_len[si]) - 1;
        u64 rem = (all >> lo) & wm;
        int cnt = popcount8[rem & 0xFF] + popcount8[(rem >> 8) & 0xFF];
        put_bits(k, &bit, (u64)cnt, 5);
        if (!cnt) continue;
        for (int b = 0; b < hb; b++) put_bits(k, &bit, compress16((planes[b] >> lo) & wm, rem), cnt);
        put_bits(k, &bit, compress16((c->open_tasks >> lo) & wm, rem), cnt);
    }
}

/* ------------------------------------------------------------------ budget */
static int check_budget(Ctx *c) {
    c->next_check = c->nodes + 256;
#ifdef CK_SIGNALS
    if (interrupted) return R_INTERRUPT;
#endif
    if (c->max_nodes >= 0 && c->nodes >= c->max_nodes) return R_NODES;
    if (c->deadline >= 0 && now_seconds() >= c->deadline) return R_TIME;
    return 0;
}

/* ------------------------------------------------------------------ helpers */
static int max_power(Ctx *c, int seat, int led) {
    u64 hand = c->hands[seat];
    if (led >= 0 && c->must_follow) {
        u64 follow = hand & c->suit_mask[led];
        if (follow) hand = follow;
    }
    int best = 0;
    while (hand) {
        int cid = low_index(hand);
        hand &= hand - 1;
        int p = c->power[((led >= 0 ? led : c->card_suit[cid]) + 1) * c->ncards + cid];
        if (p > best) best = p;
    }
    return best;
}

static int leads_to_own_task(Ctx *c, int seat, int cid) {
    int s = c->card_suit[cid];
    if (s < 0) return 0;
    u64 m = c->open_tasks & c->suit_mask[s] & ~c->hands[seat] & ((1ULL << cid) - 1);
    while (m) {
        int d = low_index(m);
        m &= m - 1;
        if (c->owner_of[d] == seat) return 1;
    }
    return 0;
}

/* TrickSearch._next_task_holder: the owner of the open numbered task to be done next when it holds that task's
 * card, else -1 (move order only) */
static int next_task_holder(const Ctx *c) {
    int k = c->ndone + 1;
    for (int a = 0; a < c->n_num; a++) {
        if (c->num_k[a] != k) continue;
        u64 card = c->task_card[c->num_task[a]];
        int o = c->owner_of[low_index(card)];
        if (o >= 0 && (c->open_tasks & card) && (c->hands[o] & card)) return o;
        return -1;
    }
    return -1;
}

/* TrickSearch._gives_lead: after this play (power p in a trick led in nl), seat x surely wins the trick */
static int gives_lead(Ctx *c, int pos, int seat, int x, int nl, int p, int best_pow, int played, int *maxp) {
    int top;
    if (pos == 0) {
        if (x == seat) return 0;
        int mk = x * (MAXSU + 1) + (nl + 1);
        top = maxp[mk];
        if (top < 0) top = maxp[mk] = max_power(c, x, nl);
        if (top <= p) return 0;
    } else {
        if (x != seat || p <= best_pow) return 0;
        top = p;
    }
    for (int y = 0; y < c->n; y++) {
        if (y == x || ((played >> y) & 1)) continue;
        int mk = y * (MAXSU + 1) + (nl + 1);
        int mp = maxp[mk];
        if (mp < 0) mp = maxp[mk] = max_power(c, y, nl);
        if (mp >= top) return 0;
    }
    return 1;
}

/* TrickSearch._task_keepers: the cards of hand (seat's, holding no trump) each the only one above an open task
 * card of seat's of its suit that another hand holds (move order only) */
static u64 task_keepers(const Ctx *c, int seat, u64 hand) {
    if (hand & c->strong_all) return 0;
    u64 keep = 0;
    for (u64 m = c->open_tasks & c->remaining & ~hand & ~c->table; m; m &= m - 1) {
        int t = low_index(m);
        if (c->owner_of[t] != seat) continue;
        u64 above = hand & c->higher[t];
        if (above && !(above & (above - 1))) keep |= above;
    }
    return keep;
}

/* TrickSearch._goal_lead_holds: goal card cid led by seat (move order only): 2 when every other hand can play a
 * card weaker than cid in the trick, 1 when some can only play a goal card above it (still a goal trick), else 0 */
static int goal_lead_holds(const Ctx *c, int seat, int cid) {
    int s = c->card_suit[cid];
    if (s < 0) return 0;
    const int *row = c->power + (s + 1) * c->ncards;
    int p = row[cid], strict = 1;
    u64 smask = c->suit_mask[s];
    for (int x = 0; x < c->n; x++) {
        if (x == seat) continue;
        u64 h = c->hands[x];
        if (c->must_follow && (h & smask)) h &= smask;
        int under = 0;
        for (u64 k = h; k; k &= k - 1)
            if (row[low_index(k)] < p) {
                under = 1;
                break;
            }
        if (!under) {
            if (!(h & c->goal_mask)) return 0;
            strict = 0;
        }
    }
    return strict ? 2 : 1;
}

static int doomed(Ctx *c) {
    u64 open_tasks = c->open_tasks;
    int selfwon[MAXT], k = 0;
    u64 m = open_tasks & c->order_cards;
    while (m) {
        int cid = low_index(m);
        u64 low = m & -m;
        m &= m - 1;
        int o = c->owner_of[cid];
        if (o >= 0 && (c->hands[o] & low)) selfwon[k++] = cid;
    }
    if (k < 2) return 0;
    u64 owned[MAXN] = {0};
    m = open_tasks;
    while (m) {
        int cid = low_index(m);
        u64 low = m & -m;
        m &= m - 1;
        int o = c->owner_of[cid];
        if (o >= 0) owned[o] |= low;
    }
    u64 reach[MAXT];
    int any_edge = 0;
    for (int i = 0; i < k; i++) reach[i] = 0;
    for (int i = 0; i < k; i++) {
        int cc = selfwon[i];
        int o = c->owner_of[cc];
        int s = c->card_suit[cc];
        u64 others_tasks = open_tasks & ~owned[o] & ~c->undrafted; /* an undrafted task may go to o */
        for (int j = 0; j < k; j++) {
            int d = selfwon[j];
            int x = c->owner_of[d];
            if (x == o || c->card_suit[d] != s) continue;
            u64 held = c->hands[x] & c->suit_mask[s];
            if (!(held & c->lower[cc] & ~others_tasks)) {
                reach[j] |= 1ULL << i;
                any_edge = 1;
            }
        }
    }
    if (!any_edge) return 0;
    for (int mid = 0; mid < k; mid++) {
        u64 bit = 1ULL << mid;
        u64 via = reach[mid];
        for (int i = 0; i < k; i++)
            if (reach[i] & bit) reach[i] |= via;
    }
    for (int i = 0; i < k; i++)
        if ((reach[i] >> i) & 1) return 1;
    return 0;
}

/* TrickSearch._low_card_bound: a seat o holds L, its lowest card of a plain suit s that is an open task of its
 * own (or a card it claims, when o plays all its cards). L must win its trick, so by then a hand with no s card
 * below L is void in s, while o still holds L: an o task h of s in such a hand is won in a trick led in s only
 * under a higher s card of o (greedy matching), else it is discarded on a trick of another suit that o wins with
 * a card of another suit. Per s and o: o needs as many cards outside s as the most such h of one hand (else
 * lost, -1), and as many tricks as its own s tasks plus that number (raised in c->need). */
static int low_card_bound(Ctx *c) {
    u64 rem = c->remaining;
    int left = c->total - c->ntricks;
    /* open tasks and claimed cards: each one played must go to its owner */
    u64 open = c->open_tasks & ~c->undrafted, watch = open | (c->claimed & rem);
    for (int s = 0; s < c->nsuits; s++) {
        u64 sm = c->suit_mask[s] & c->order_cards, ws = watch & sm;
        if (!ws) continue;
        for (int o = 0; o < c->n; o++) {
            u64 hand_o = c->hands[o], so = hand_o & sm, mine = 0;
            int spare = popcount(hand_o) > left;
            for (u64 m = so & (spare ? open : ws); m; m &= m - 1)
                if (c->owner_of[low_index(m)] == o) mine |= m & -m;
            if (!mine) continue;
            int low = low_index(mine);
            int most = 0;
            for (int x = 0; x < c->n; x++) {
                if (x == o || (c->hands[x] & sm & c->lower[low])) continue;
                int k = 0;
                u64 free = so;
                for (u64 m = c->hands[x] & ws; m; m &= m - 1) {
                    int h = low_index(m);
                    if (c->owner_of[h] != o) continue;
                    u64 up = c->higher[h] & free;
                    if (up) free &= ~(up & -up);
                    else k++;
                }
                if (k > most) most = k;
            }
            if (!most) continue;
            if (popcount(hand_o & ~sm) < most) return -1;
            int own = popcount(mine);
            if (own + most > c->need[o]) c->need[o] = own + most;
        }
    }
    return 0;
}

/* Each trick completes the tasks of one owner at most, and two task cards in one hand need two tricks:
 * owner o needs at least max over holders h of (o's open task cards in h's hand) more tricks. */
static int too_few_tricks(Ctx *c) {
    int cnt[MAXN][MAXN];
    memset(cnt, 0, sizeof cnt);
    memset(c->need, 0, sizeof c->need);
    u64 m = c->open_tasks;
    if (!m) {
        /* cards claimed by a seat (no tasks): the low-card bound alone */
        if (!c->claimed || !c->check_order) return 0;
        if (low_card_bound(c)) return 1;
        int need = 0;
        for (int o = 0; o < c->n; o++) need += c->need[o];
        return need > c->total - c->ntricks;
    }
    while (m) {
        int cid = low_index(m);
        m &= m - 1;
        int o = c->owner_of[cid];
        if (o < 0) continue;
        for (int h = 0; h < c->n; h++)
            if ((c->hands[h] >> cid) & 1) {
                cnt[o][h]++;
                break;
            }
    }
    int need = 0, left = c->total - c->ntricks;
    for (int o = 0; o < c->n; o++) {
        int best = 0, own = 0;
        for (int h = 0; h < c->n; h++) {
            if (cnt[o][h] > best) best = cnt[o][h];
            own += cnt[o][h];
        }
        /* free draft: a seat still to take q tasks (besides its own open ones) needs ceil((q + own) / n) */
        if (c->undrafted && c->quota_left[o]) {
            int k = (c->quota_left[o] + own + c->n - 1) / c->n;
            if (k > best) best = k;
        }
        c->need[o] = best;
    }
    if (c->check_order && low_card_bound(c)) return 1;
    for (int o = 0; o < c->n; o++) need += c->need[o];
    if (c->undrafted)
        for (int h = 0; h < c->n; h++) /* the open task cards of one hand need a trick each */
            if (__builtin_popcountll(c->hands[h] & c->open_tasks) > left) return 1;
    return need > left;
}

/* Augmenting path from item i (core._matching): match[b] is the item holding bit b, or -1. */
static int augment(const u64 *wants, int i, u64 *seen, int *match) {
    for (u64 m = wants[i] & ~*seen; m; m &= m - 1) {
        int b = low_index(m);
        *seen |= (u64)1 << b;
        if (match[b] < 0 || augment(wants, match[b], seen, match)) {
            match[b] = i;
            return 1;
        }
    }
    return 0;
}

/* The size of a largest matching of items to distinct bits, item i taking a bit of wants[i]. */
static int matching(const u64 *wants, int nw) {
    int match[64], size = 0;
    for (int b = 0; b < 64; b++) match[b] = -1;
    for (int i = 0; i < nw; i++) {
        u64 seen = 0;
        if (wants[i] && augment(wants, i, &seen, match)) size++;
    }
    return size;
}

/* The sure-win bound (TrickSearch._sure_wins): a card strong in every led suit wins its trick unless a card
 * of another hand that beats it falls there, one such card per trick (a matching: TrickSearch.sure_wins), and an owner's open tasks need c->need tricks (too_few_tricks, just run); a seat that
 * surely wins more of the tricks left than the conditions let it: lost. */
static int sure_wins_exceed(Ctx *c) {
    const uint8_t *most = c->a_most + c->astate * c->n;
    int left = c->total - c->ntricks;
    for (int seat = 0; seat < c->n; seat++) {
        if (most[seat] >= 255) continue;
        u64 hand = c->hands[seat], others = c->remaining & ~hand;
        u64 wants[MAXC];
        int nw = 0;
        for (u64 m = hand & c->trumplike; m; m &= m - 1) wants[nw++] = c->beats_any[low_index(m)] & others;
        int sure = nw - matching(wants, nw);
        int kept = __builtin_popcountll(hand) - left;
        if (kept > 0) sure -= kept;
        if (sure > most[seat] || c->need[seat] > most[seat]) return 1;
    }
    return 0;
}

/* Free draft: the leader wins every trick left (none of its cards can be beaten when led), yet another
 * seat must still take a task or own an open one. */
/* TrickSearch._goal_out_of_reach: at a trick start, the goal's cards cannot win the tricks it still needs. A
 * goal card g of suit s that wins only a trick it leads (weak in every other led suit, and no other hand holds a
 * weaker card of s) wins trick T (1: this one) only if its holder h leads T (so h won trick T - 1, and T = 1 only
 * when h leads now) and every other hand x is void in s by then (must follow): x's k cards of s take k tricks,
 * plus, when a trick led in s would take g (h has fewer other cards of s than k), the tricks to become void in
 * another suit and discard, or x's own lead now when no trick may be led in s; and x must hold a card of another
 * suit that does not beat g (not a trump) to play in T. Goal wins in tricks T and T + 1
 * need the same holder when the second card wins only a trick it leads. Lost when no choice of distinct tricks
 * does it. */
static int goal_fits(const int *early, const int *holder, int ne, int t, int left, int need, u64 used, int prev) {
    if (!need) return 1;
    if (left - t + 1 < need) return 0;
    for (int i = 0; i < ne; i++) {
        if (((used >> i) & 1) || early[i] > t) continue;
        if (holder[i] >= 0 && prev >= 0 && holder[i] != prev) continue;
        int h = holder[i] >= 0 ? holder[i] : -2 - holder[i];
        if (goal_fits(early, holder, ne, t + 1, left, need - 1, used | (1ULL << i), h)) return 1;
    }
    return goal_fits(early, holder, ne, t + 1, left, need, used, -1);
}

static int goal_counts_short(Ctx *c, int need, int left);

static int goal_out_of_reach(Ctx *c) {
    if (!c->goal_mask || ((c->cond_done >> c->goal_cond) & 1)) return 0;
    u64 won = 0;
    for (int x = 0; x < c->n; x++) won |= c->winmask[x];
    /* the last trick's goal: one win, in the last trick (any trick from 1 to left: the same test) */
    int need = c->goal_last ? 1 : c->goal_k - popcount(won & c->goal_mask);
    if (need <= 0) return 0;
    int left = c->total - c->ntricks;
    /* per goal card in a hand: the earliest trick it can win, its holder (-2 - holder: it may win following) */
    int early[MAXC], holder[MAXC], ne = 0;
    for (u64 g = c->goal_mask & c->remaining; g; g &= g - 1) {
        int gc = low_index(g), h = 0;
        while (!((c->hands[h] >> gc) & 1)) h++;
        int e = 1, hold = -2 - h, s = c->card_suit[gc];
        if ((c->lead_only >> gc) & 1) {
            const int *row = c->power + (s + 1) * c->ncards;
            int spare = popcount(c->hands[h] & c->suit_mask[s]) - 1;
            e = h == c->leader ? 1 : 2;
            hold = h;
            for (int x = 0; x < c->n; x++) {
                if (x == h) continue;
                u64 m = c->hands[x] & c->suit_mask[s];
                int k = popcount(m);
                for (; m; m &= m - 1)
                    if (row[low_index(m)] < row[gc]) break;
                if (m) { /* a weaker card of s another hand may lead: g may win following it */
                    e = 1;
                    hold = -2 - h;
                    break;
                }
                /* x plays a card that does not beat g when g wins: not of s, nor stronger (a trump) */
                u64 safe = 0;
                for (u64 o = c->hands[x] & ~c->suit_mask[s]; o; o &= o - 1)
                    if (row[low_index(o)] < row[gc]) {
                        safe = 1;
                        break;
                    }
                if (!safe) {
                    e = left + 1;
                    break;
                }
                if (!k) continue;
                int other = 0;
                if (k > spare) {
                    other = 99;
                    for (int t = 0; t < c->nsuits; t++) {
                        if (t == s) continue;
                        int a = popcount(c->hands[x] & c->suit_mask[t]);
                        if (a < other) other = a;
                    }
                }
                if (spare <= 0 && x == c->leader && other < 1) other = 1;
                if (k + other + 1 > e) e = k + other + 1;
            }
        }
        if (e > left) continue;
        early[ne] = e;
        holder[ne] = hold;
        ne++;
    }
    if (ne < need || !goal_fits(early, holder, ne, 1, left, need, 0, -1)) return 1;
    return c->goal_counts && goal_counts_short(c, need, left);
}

/* goal_counts.py (the proof is there): the goal's wins split over the suits, every hand's cards placed in the
 * free tricks, its follows and its discards. */
static int goal_counts_apply(Ctx *c) {
    u64 goal = c->goal_mask, all = c->ncards >= 64 ? ~0ULL : (1ULL << c->ncards) - 1;
    if (!goal || (goal & ~c->lead_only) || (all & ~(c->lead_only | c->strong_all))) return 0;
    for (u64 t = c->strong_all; t; t &= t - 1) {
        int tc = low_index(t);
        for (u64 g = goal; g; g &= g - 1)
            if (c->card_suit[tc] == c->card_suit[low_index(g)]) return 0;
        /* a trump beats every other card whatever is led */
        for (int led = 0; led < c->nsuits; led++) {
            const int *row = c->power + (led + 1) * c->ncards;
            for (u64 d = all & ~c->strong_all; d; d &= d - 1)
                if (row[tc] <= row[low_index(d)]) return 0;
        }
    }
    return 1;
}

#define GOAL_MAX_STEPS 2000 /* goal_counts.MAX_STEPS */
#define GOAL_MEMO 4096      /* above 2 * GOAL_MAX_STEPS: the table of lost orders never fills */
#define GOAL_LEAVES 1024    /* splits remembered (a full table: checked again, the same answer) */
#define GOAL_MAX_TASKS 6    /* goal_counts.MAX_TASKS */

/* goal_counts._fits: some order of the suits a hand discards in meets the test */
static int counts_order_fits(int cap, const int *high, const int *disc, int k) {
    uint8_t good[1 << MAXSU];
    good[0] = 1;
    for (int sub = 1; sub < (1 << k); sub++) {
        int hi = 0;
        good[sub] = 0;
        for (int i = 0; i < k; i++)
            if ((sub >> i) & 1) hi += high[i];
        for (int i = 0; i < k; i++) {
            if (!((sub >> i) & 1) || !good[sub ^ (1 << i)]) continue;
            int rest = sub ^ (1 << i), ds = 0;
            for (int j = 0; j < k; j++)
                if ((rest >> j) & 1) ds += disc[j];
            if (hi - ds <= cap) {
                good[sub] = 1;
                break;
            }
        }
    }
    return good[(1 << k) - 1];
}

/* goal_counts_short's tables of lost orders and of splits checked (a generation number instead of clearing) */
struct GoalTables {
    u64 memo_key[GOAL_MEMO], leaf_key[GOAL_LEAVES];
    unsigned memo_gen[GOAL_MEMO], leaf_gen[GOAL_LEAVES], gen;
    uint8_t leaf_fit[GOAL_LEAVES];
};

/* the state of goal_counts.short's search over the goal tricks' order */
typedef struct {
    struct GoalTables *tab;
    int k, n, left, last, steps, count[MAXSU], cap[MAXN], q[MAXN][MAXSU], p[MAXN][MAXSU], req[MAXSU][MAXC + 1];
    u64 winners[MAXSU];
    int after_free; /* the hands that may lead after a free trick */
    /* step 6 (goal_counts._task_tricks): task cards whose trick is a goal trick their owner wins; per card its
     * owner, holder, the goal suits whose tricks may take it and per suit the hands that must not lead such a trick */
    int nt, t_owner[GOAL_MAX_TASKS], t_holder[GOAL_MAX_TASKS], t_bad[GOAL_MAX_TASKS][MAXSU], t_before[GOAL_MAX_TASKS][MAXSU];
    unsigned t_ok[GOAL_MAX_TASKS];
    int slack; /* free tricks holding no trump, at most */
    /* step 7 (goal_counts._winners_of_leads): who may win a free trick led by each hand; this trick's, following suit */
    int beat[MAXN], beat_first;
} GoalOrder;

/* goal_counts._winners_of_leads */
static int goal_winners_of_leads(const Ctx *c, int y, int follow) {
    int out = 1 << y;
    for (u64 m = c->hands[y]; m; m &= m - 1) {
        int cid = low_index(m), su = c->card_suit[cid];
        if (su < 0) return (1 << c->n) - 1;
        const int *row = c->power + (su + 1) * c->ncards;
        u64 sm = c->suit_mask[su];
        for (int z = 0; z < c->n; z++) {
            if ((out >> z) & 1) continue;
            u64 h = c->hands[z];
            u64 pool = follow && (h & sm) ? h & sm : h;
            for (; pool; pool &= pool - 1)
                if (row[low_index(pool)] > row[cid]) {
                    out |= 1 << z;
                    break;
                }
        }
    }
    return out;
}

/* goal_counts._free_task_tricks: per owner, the most of step 6's task cards not in done in one hand, summed */
static int goal_free_task_tricks(const GoalOrder *g, unsigned done) {
    int total = 0;
    for (int o = 0; o < g->n; o++) {
        int most = 0;
        for (int h = 0; h < g->n; h++) {
            int k = 0;
            for (int b = 0; b < g->nt; b++)
                if (!((done >> b) & 1) && g->t_owner[b] == o && g->t_holder[b] == h) k++;
            if (k > most) most = k;
        }
        total += most;
    }
    return total;
}


static u64 goal_pack(const GoalOrder *g, const int *w) {
    u64 key = 0;
    for (int j = 0; j < g->k; j++) key = (key << 5) | (u64)w[j];
    return key;
}

/* goal_counts.short's hands_fit: step 3 for every hand */
static int goal_hands_fit(const GoalOrder *g, const int *w) {
    for (int x = 0; x < g->n; x++) {
        int cap = g->cap[x], high[MAXSU], disc[MAXSU], nd = 0;
        for (int j = 0; j < g->k; j++) {
            int e = w[j] - g->q[x][j];
            if (e <= 0) continue;
            if (g->p[x][j]) {
                high[nd] = g->p[x][j];
                disc[nd++] = e;
            } else {
                cap += e;
            }
        }
        if (nd && !counts_order_fits(cap, high, disc, nd)) return 0;
    }
    return 1;
}

static int goal_leaf(const GoalOrder *g, const int *w) {
    struct GoalTables *tb = g->tab;
    u64 key = goal_pack(g, w) + 1;
    unsigned h = (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> 54) & (GOAL_LEAVES - 1);
    for (int probe = 0; probe < GOAL_LEAVES; probe++, h = (h + 1) & (GOAL_LEAVES - 1)) {
        if (tb->leaf_gen[h] != tb->gen) {
            int fit = goal_hands_fit(g, w);
            tb->leaf_gen[h] = tb->gen;
            tb->leaf_key[h] = key;
            tb->leaf_fit[h] = (uint8_t)fit;
            return fit;
        }
        if (tb->leaf_key[h] == key) return tb->leaf_fit[h];
    }
    return goal_hands_fit(g, w);
}

static int goal_memo_find(struct GoalTables *tb, u64 key, int add) {
    unsigned h = (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> 52) & (GOAL_MEMO - 1);
    for (;; h = (h + 1) & (GOAL_MEMO - 1)) {
        if (tb->memo_gen[h] != tb->gen) {
            if (add) {
                tb->memo_gen[h] = tb->gen;
                tb->memo_key[h] = key;
            }
            return 0;
        }
        if (tb->memo_key[h] == key) return 1;
    }
}

/* goal_counts.short's order: tricks t.. can hold rest more goal tricks, w per suit so far, t led by a hand of
 * the set lead */
static int goal_order_fits(GoalOrder *g, int t, int rest, int *w, int lead, unsigned done) {
    if (!rest) return (!g->nt || goal_free_task_tricks(g, done) <= g->slack) && goal_leaf(g, w);
    if (g->left - t + 1 < rest) return 0;
    u64 key = (((goal_pack(g, w) << 6 | (u64)t) << 7 | (u64)lead) << GOAL_MAX_TASKS | done) + 1;
    if (goal_memo_find(g->tab, key, 0)) return 0;
    /* a goal trick takes at most one task card per holder to one owner: step 6's need falls by one at most */
    if (g->nt && goal_free_task_tricks(g, done) - rest > g->slack) return 0;
    if (++g->steps > GOAL_MAX_STEPS) return 1;
    if (!g->last || t == g->left) {
        for (int j = 0; j < g->k; j++) {
            int i = w[j] + 1;
            if (i > g->count[j] || t - i < g->req[j][i]) continue;
            int leaders = 0;
            for (int y = 0; y < g->n; y++)
                if (((lead >> y) & 1) && g->q[y][j] >= i) leaders |= 1 << y;
            if (!leaders) continue;
            w[j] = i;
            /* the task cards this trick may take, when the free tricks cannot take those left */
            int tight = g->nt && goal_free_task_tricks(g, done) > g->slack;
            for (u64 m = g->winners[j]; m; m &= m - 1) {
                int x = low_index(m);
                if (g->q[x][j] < i) continue;
                /* goal_counts._task_sets: the task cards this trick may take, one per holder, the most first */
                int mine[GOAL_MAX_TASKS], nm = 0;
                for (int b = 0; b < g->nt && tight; b++)
                    if (!((done >> b) & 1) && g->t_owner[b] == x && ((g->t_ok[b] >> j) & 1) && t > g->t_before[b][j])
                        mine[nm++] = b;
                for (unsigned sub = 1u << nm; sub-- > 0;) {
                    unsigned more = 0;
                    int holders = 0, barred = 0, good = 1;
                    for (int a = 0; a < nm; a++) {
                        if (!((sub >> a) & 1)) continue;
                        int b = mine[a], h = g->t_holder[b];
                        if ((holders >> h) & 1) {
                            good = 0;
                            break;
                        }
                        holders |= 1 << h;
                        barred |= g->t_bad[b][j];
                        more |= 1u << b;
                    }
                    if (good && (leaders & ~barred) && goal_order_fits(g, t + 1, rest - 1, w, 1 << x, done | more)) {
                        w[j] = i - 1;
                        return 1;
                    }
                }
            }
            w[j] = i - 1;
        }
    }
    if (g->left - t >= rest) {
        int next = g->beat_first;
        if (t != 1) {
            next = 0;
            for (int y = 0; y < g->n; y++)
                if ((lead >> y) & 1) next |= g->beat[y];
        }
        if (goal_order_fits(g, t + 1, rest, w, g->after_free & next, done)) return 1;
    }
    goal_memo_find(g->tab, key, 1);
    return 0;
}

static int goal_counts_short(Ctx *c, int need, int left) {
    u64 goal = c->goal_mask & c->remaining;
    GoalOrder g;
    u64 sm[MAXSU], lo[MAXSU], gsm[MAXSU];
    int total = 0;
    g.k = 0;
    g.n = c->n;
    g.left = left;
    g.last = c->goal_last;
    g.steps = 0;
    for (int s = 0; s < c->nsuits; s++) {
        u64 gs = goal & c->suit_mask[s];
        if (!gs) continue;
        int top = 63 - __builtin_clzll(gs);
        for (u64 m = gs; m; m &= m - 1)
            if (!((c->not_above[top] >> low_index(m)) & 1)) top = low_index(m);
        sm[g.k] = c->suit_mask[s];
        lo[g.k] = c->not_above[top];
        gsm[g.k] = gs;
        g.count[g.k] = popcount(gs);
        total += g.count[g.k];
        g.k++;
    }
    if (total < need) return 1;
    int free = left - need;
    for (int x = 0; x < c->n; x++) {
        u64 h = c->hands[x];
        int m = popcount(h);
        if (m < left) return 0;
        g.cap[x] = free + m - left - popcount(h & c->strong_all);
        if (g.cap[x] < 0) return 1;
        for (int j = 0; j < g.k; j++) {
            g.q[x][j] = popcount(h & lo[j]);
            g.p[x][j] = popcount(h & sm[j] & ~lo[j]);
        }
    }
    for (int j = 0; j < g.k; j++) {
        g.winners[j] = 0;
        for (int x = 0; x < c->n; x++)
            if (c->hands[x] & gsm[j]) g.winners[j] |= 1ULL << x;
        for (int i = 0; i <= g.count[j]; i++) {
            int r = 0;
            for (int x = 0; x < c->n; x++)
                if (g.q[x][j] < i && g.p[x][j] > r) r = g.p[x][j];
            g.req[j][i] = r;
        }
    }
    g.after_free = (1 << c->n) - 1; /* goal_counts.short's after_free */
    for (int x = 0; x < c->n; x++)
        if (popcount(c->hands[x]) == left && popcount(c->hands[x] & c->strong_all) == free) {
            g.after_free = 0;
            for (int y = 0; y < c->n; y++)
                if (c->hands[y] & c->strong_all) g.after_free |= 1 << y;
            break;
        }
    /* step 7 */
    g.beat_first = goal_winners_of_leads(c, c->leader, 1);
    for (int y = 0; y < c->n; y++) g.beat[y] = goal_winners_of_leads(c, y, 0);
    /* step 6 (goal_counts._task_tricks) */
    g.nt = 0;
    g.slack = g.cap[0];
    for (int x = 1; x < c->n; x++)
        if (g.cap[x] < g.slack) g.slack = g.cap[x];
    {
        int nt = 0;
        for (u64 m = c->open_tasks & ~c->undrafted; m; m &= m - 1) {
            int cid = low_index(m), o = c->owner_of[cid];
            u64 bit = 1ULL << cid;
            if (o < 0 || (c->hands[o] & c->strong_all)) continue;
            int h = 0;
            while (!(c->hands[h] & bit)) h++;
            if (c->strong_all & bit) return 1; /* its trick holds a trump: a free trick, never won by o */
            unsigned ok = 0;
            int bad[MAXSU], before[MAXSU];
            for (int j = 0; j < g.k; j++) {
                bad[j] = before[j] = 0;
                if (h == o) {
                    if (gsm[j] & bit) ok |= 1u << j;
                } else if (sm[j] & bit) {
                    if (lo[j] & bit) ok |= 1u << j;
                } else {
                    ok |= 1u << j;
                    bad[j] = 1 << h;
                    before[j] = popcount(c->hands[h] & sm[j]);
                }
            }
            if (nt < GOAL_MAX_TASKS) {
                g.t_owner[nt] = o;
                g.t_holder[nt] = h;
                g.t_ok[nt] = ok;
                for (int j = 0; j < g.k; j++) {
                    g.t_bad[nt][j] = bad[j];
                    g.t_before[nt][j] = before[j];
                }
            }
            nt++;
        }
        g.nt = nt <= GOAL_MAX_TASKS ? nt : 0;
        if (g.nt && goal_free_task_tricks(&g, 0) <= g.slack) g.nt = 0; /* the free tricks can take them all */
    }
    if (!c->goal_tab && !(c->goal_tab = (struct GoalTables *)calloc(1, sizeof(struct GoalTables)))) return 0;
    g.tab = c->goal_tab;
    if (++g.tab->gen == 0) { /* wrapped: clear the stamps */
        memset(g.tab->memo_gen, 0, sizeof g.tab->memo_gen);
        memset(g.tab->leaf_gen, 0, sizeof g.tab->leaf_gen);
        g.tab->gen = 1;
    }
    int w[MAXSU] = {0};
    return !goal_order_fits(&g, 1, need, w, 1 << c->leader, 0);
}

static int sweeps(Ctx *c) {
    int leader = c->leader;
    u64 hand = c->hands[leader], threat = 0;
    for (u64 m = hand; m; m &= m - 1) threat |= c->beaters[low_index(m)];
    if (threat & c->remaining & ~hand) return 0;
    for (int seat = 0; seat < c->n; seat++)
        if (seat != leader && c->quota_left[seat]) return 1;
    for (u64 m = c->open_tasks & ~c->undrafted; m; m &= m - 1)
        if (c->owner_of[low_index(m)] != leader) return 1;
    return 0;
}

static int tokens_ok(Ctx *c, const int *completed, int ncomp, int before, int after) {
    for (int a = 0; a < c->n_num; a++) {
        int i = c->num_task[a], kk = c->num_k[a], now = 0;
        for (int q = 0; q < ncomp; q++)
            if (completed[q] == i) now = 1;
        if (now) {
            if (!(before < kk && kk <= after)) return 0;
        } else if (!c->task_trick[i] && after >= kk) {
            return 0;
        }
    }
    for (int a = 0; a < c->n_omega; a++) {
        int i = c->omega_task[a], now = 0;
        for (int q = 0; q < ncomp; q++)
            if (completed[q] == i) now = 1;
        if (now && after < c->ntasks) return 0;
    }
    for (int a = 0; a < c->n_arrow; a++) {
        int i = c->arrow_task[a], r = c->arrow_r[a], now = 0;
        for (int q = 0; q < ncomp; q++)
            if (completed[q] == i) now = 1;
        if (!now) continue;
        for (int b = 0; b < c->n_arrow; b++) {
            int j = c->arrow_task[b], r2 = c->arrow_r[b], jnow = 0;
            for (int q = 0; q < ncomp; q++)
                if (completed[q] == j) jnow = 1;
            if (r2 < r && !jnow && !c->task_trick[j]) return 0;
        }
    }
    return 1;
}

/* ------------------------------------------------------------------ mission conditions */
/* The view the conditions read, from the search state (what changes during a trick). */
static void sync_view(Ctx *c) {
    World *w = &c->cw;
    memcpy(w->hands, c->hands, sizeof(u64) * (size_t)c->n);
    w->nplays = c->nplays;
    for (int k = 0; k < c->nplays; k++) w->play_card[k] = c->plays_cid[k];
    w->ntr = c->ntricks;
    u64 pending = 0;
    for (int i = 0; i < c->nreal; i++)
        if (c->open_tasks & c->real_bits[i]) pending |= 1ULL << i;
    w->pending = pending;
    c->cx->w = w;
}

/* TrickSearch._conditions: the conditions not done yet (only those checked after every play when
 * after_play), fail_if before done_if, in order. R_LOST when one fails, R_ERROR when one raises an error,
 * else R_WIN with the conditions newly done in *newly. */
static int judge_conditions(Ctx *c, int after_play, u64 *newly) {
    CondCtx *x = c->cx;
    sync_view(c);
    x->err = 0;
    *newly = 0;
    for (int i = 0; i < x->ncond; i++) {
        if ((c->cond_done >> i) & 1) continue;
        if (after_play && x->check[i] != 1) continue;
        x->steps = 0;
        if (any_part(x, x->fail_parts[i])) return x->err ? R_ERROR : R_LOST;
        if (x->err) return R_ERROR;
        if (any_part(x, x->done_parts[i])) *newly |= 1ULL << i;
        if (x->err) return R_ERROR;
    }
    return R_WIN;
}

/* ------------------------------------------------------------------ search */
static int play(Ctx *c, int pos, int best_pow, int best_seat, int best_cid, int towner);

static int trick_body(Ctx *c) {
    c->table = 0;
    Key key;
    make_key(c, &key);
    u64 h = key_hash(&key);
    if (table_has(c, &key, h)) return R_LOST;
    if (too_few_tricks(c)) {
        table_add(c, &key, h, 0);
        return R_LOST;
    }
    if (c->na && sure_wins_exceed(c)) {
        table_add(c, &key, h, 0);
        return R_LOST;
    }
    if (c->check_order && doomed(c)) {
        table_add(c, &key, h, 0);
        return R_LOST;
    }
    if (c->undrafted && c->check_order && sweeps(c)) {
        table_add(c, &key, h, 0);
        return R_LOST;
    }
    if (c->check_order && goal_out_of_reach(c)) {
        table_add(c, &key, h, 0);
        return R_LOST;
    }
    int r = play(c, 0, 0, c->leader, -1, -1);
    if (r != R_LOST) return r;
    table_add(c, &key, h, 1);
    return R_LOST;
}

static int descend(Ctx *c, u64 mask, int winner, int before, int after, int number) {
    int saved_nplays = c->nplays, saved_led = c->led, saved_leader = c->leader, saved_astate = c->astate;
    if (c->na) c->astate = c->a_child[c->astate * c->n + winner];
    int sp_seat[MAXN], sp_cid[MAXN];
    memcpy(sp_seat, c->plays_seat, sizeof sp_seat);
    memcpy(sp_cid, c->plays_cid, sizeof sp_cid);
    u64 saved_remaining = c->remaining, open_before = c->open_tasks;
    c->open_tasks = open_before & ~mask;
    c->ndone = after;
    c->ntricks = number;
    c->nplays = 0;
    c->led = -1;
    c->leader = winner;
    c->remaining = saved_remaining & ~mask;
    int r = trick_body(c);
    c->leader = saved_leader;
    c->led = saved_led;
    c->nplays = saved_nplays;
    memcpy(c->plays_seat, sp_seat, sizeof sp_seat);
    memcpy(c->plays_cid, sp_cid, sizeof sp_cid);
    c->remaining = saved_remaining;
    c->table = mask;
    c->ndone = before;
    c->open_tasks = open_before;
    c->ntricks = number - 1;
    c->astate = saved_astate;
    return r;
}

static int end_trick_owned(Ctx *c, int winner, int towner);
static int end_trick_cond(Ctx *c, int winner, int win_cid, int towner);

/* free draft: the winner takes the undrafted tasks of the trick if it has room for them */
static int end_trick(Ctx *c, int winner, int win_cid, int towner) {
    if (c->cx) return end_trick_cond(c, winner, win_cid, towner);
    u64 m = c->table & c->open_tasks;
    u64 free = m & c->undrafted;
    if (free) {
        if (m != free && towner != winner) return R_LOST;
        int k = __builtin_popcountll(free);
        if (c->quota_left[winner] < k) return R_LOST;
        c->quota_left[winner] -= k;
        int r = end_trick_owned(c, winner, winner);
        c->quota_left[winner] += k;
        return r;
    }
    return end_trick_owned(c, winner, towner);
}

static int end_trick_owned(Ctx *c, int winner, int towner) {
    u64 mask = c->table;
    u64 m = mask & c->open_tasks;
    if (m && towner != winner) return R_LOST;
    int before = c->ndone;
    int number = c->ntricks + 1;
    int complete = 1;
    if (c->na) {
        int next = c->a_child[c->astate * c->n + winner];
        if (next < 0) return R_LOST; /* a condition fails, or no later winners can satisfy them */
        complete = c->a_complete[next];
    }
    if (!c->has_tokens) {
        int after = before;
        for (u64 t = m; t; t &= t - 1) after++;
        if (after == c->ntasks && complete && (number >= c->total || ((c->ntasks || c->na) && !c->late)))
            return R_WIN;
        if (number >= c->total) return R_LOST;
        return descend(c, mask, winner, before, after, number);
    }
    int completed[MAXT], ncomp = 0;
    while (m) {
        int cid = low_index(m);
        m &= m - 1;
        completed[ncomp++] = c->task_of[cid];
    }
    int after = before + ncomp;
    if (ncomp && !tokens_ok(c, completed, ncomp, before, after)) return R_LOST;
    if (after == c->ntasks && complete && (number >= c->total || ((c->ntasks || c->na) && !c->late)))
        return R_WIN;
    if (number >= c->total) return R_LOST;
    for (int q = 0; q < ncomp; q++) c->task_trick[completed[q]] = number;
    int r = descend(c, mask, winner, before, after, number);
    for (int q = 0; q < ncomp; q++) c->task_trick[completed[q]] = 0;
    return r;
}

/* TrickSearch._end_trick_owned with mission conditions: the trick joins the history (condeval.h's records),
 * every condition not done is judged, then success, the end of the hands or the next trick. */
static int end_trick_cond(Ctx *c, int winner, int win_cid, int towner) {
    u64 mask = c->table;
    u64 m = mask & c->open_tasks;
    if (m && towner != winner) return R_LOST;
    if ((mask & c->claimed) && towner != winner) return R_LOST; /* a claimed card to another seat */
    int before = c->ndone, number = c->ntricks + 1;
    int completed[MAXT], ncomp = 0;
    for (u64 t = m; t; t &= t - 1) completed[ncomp++] = c->task_of[low_index(t)];
    int after = before + ncomp;
    if (ncomp && c->has_tokens && !tokens_ok(c, completed, ncomp, before, after)) return R_LOST;
    CondCtx *x = c->cx;
    if (c->ntricks >= MAXTR) return R_ERROR;
    int wc = win_cid >= 0 ? win_cid : c->plays_cid[0];
    TrickRec *rec = &x->hist[c->ntricks];
    rec->leader = c->leader;
    rec->winner = winner;
    rec->wincard = wc;
    rec->nplays = c->nplays;
    for (int k = 0; k < c->nplays; k++) {
        rec->seat[k] = c->plays_seat[k];
        rec->card[k] = c->plays_cid[k];
    }
    rec->mask = mask;
    rec->upto = mask | (c->ntricks ? x->hist[c->ntricks - 1].upto : 0);
    rec->memo_valid = 0;
    rec->serial = ++x->serials;
    rec->prev_serial = c->ntricks ? x->hist[c->ntricks - 1].serial : 0;
    /* apply the trick (undone below) */
    u64 won_before = c->won[winner], winmask_before = c->winmask[winner];
    c->won[winner] |= mask;
    c->winmask[winner] |= 1ULL << wc;
    c->cw.won_count[winner]++;
    for (int q = 0; q < ncomp; q++) c->task_trick[completed[q]] = number;
    u64 open_before = c->open_tasks, saved_remaining = c->remaining;
    int saved_nplays = c->nplays, saved_led = c->led, saved_leader = c->leader;
    int sp_seat[MAXN], sp_cid[MAXN];
    memcpy(sp_seat, c->plays_seat, sizeof sp_seat);
    memcpy(sp_cid, c->plays_cid, sizeof sp_cid);
    c->open_tasks = open_before & ~mask;
    c->ndone = after;
    c->ntricks = number;
    c->nplays = 0;
    c->led = -1;
    c->leader = winner;
    u64 newly;
    int r = judge_conditions(c, 0, &newly);
    if (r == R_WIN) {
        c->cond_done |= newly;
        int last = number >= c->total, done = 1;
        for (int i = 0; i < x->ncond && done; i++)
            if (!((c->cond_done >> i) & 1) && !(last && x->done_at[i] < 0)) done = 0;
        if (after == c->ntasks && done && (last || !c->late)) r = R_WIN;
        else if (last) r = R_LOST;
        else {
            c->remaining = saved_remaining & ~mask;
            r = trick_body(c);
        }
        c->cond_done &= ~newly;
    }
    c->leader = saved_leader;
    c->led = saved_led;
    c->nplays = saved_nplays;
    memcpy(c->plays_seat, sp_seat, sizeof sp_seat);
    memcpy(c->plays_cid, sp_cid, sizeof sp_cid);
    c->remaining = saved_remaining;
    c->table = mask;
    c->ndone = before;
    c->open_tasks = open_before;
    c->ntricks = number - 1;
    for (int q = 0; q < ncomp; q++) c->task_trick[completed[q]] = 0;
    c->cw.won_count[winner]--;
    c->won[winner] = won_before;
    c->winmask[winner] = winmask_before;
    return r;
}

static void sort_moves(Move *mv, int k) {
    /* insertion sort, descending by (score, cid): the Python search sorts the tuples in reverse */
    for (int i = 1; i < k; i++) {
        Move x = mv[i];
        int j = i - 1;
        while (j >= 0 && (mv[j].score < x.score || (mv[j].score == x.score && mv[j].cid < x.cid))) {
            mv[j + 1] = mv[j];
            j--;
        }
        mv[j + 1] = x;
    }
}

static int play(Ctx *c, int pos, int best_pow, int best_seat, int best_cid, int towner) {
    int n = c->n;
    int leader = c->leader;
    int seat = leader + pos;
    if (seat >= n) seat -= n;
    u64 hand = c->hands[seat];
    int led = c->led;
    u64 legal;
    if (led >= 0 && c->must_follow) {
        legal = hand & c->suit_mask[led];
        if (!legal) legal = hand;
    } else {
        legal = hand;
    }
    u64 open_tasks = c->open_tasks, remaining = c->remaining;
    u64 watch = open_tasks | c->claimed; /* cards whose trick must go to their owner */
    int played = c->played_tab[leader][pos];
    const int *prow = led >= 0 ? c->power + (led + 1) * c->ncards : NULL;
    Move moves[MAXC];
    int nm = 0;
    int maxp[MAXN * (MAXSU + 1)];
    memset(maxp, 0xFF, sizeof maxp); /* -1: not computed yet */
    /* free draft: undrafted task cards go to the trick's winner, who must still have room for them */
    u64 undrafted = c->undrafted & open_tasks;
    u64 free_on_table = c->table & undrafted;
    /* card-blind conditions: the seats that may win this trick (the others break a condition) */
    int allowed = c->na ? c->a_allowed[c->astate] : -1;
    u64 goal = c->goal_mask && !((c->cond_done >> c->goal_cond) & 1) ? c->goal_mask : 0;
    /* the last trick's goal before the last trick: a goal card's win is spent, so keep them back */
    int goal_early = c->goal_last && c->ntricks + 1 < c->total;
    /* the suits of the goal cards still to play, of those in this hand, and (leading) of those another hand
     * holds alone in their suit */
    u64 gsuits = 0, hsuits = 0, lone = 0;
    for (u64 g = goal & remaining; g; g &= g - 1) {
        int gs = c->card_suit[low_index(g)];
        if (gs < 0) continue;
        gsuits |= c->suit_mask[gs];
        if (hand & g & -g) hsuits |= c->suit_mask[gs];
        else if (pos == 0) /* its holder has no other card of its suit: a lead in that suit takes it */
            for (int x = 0; x < n; x++)
                if ((c->hands[x] & g & -g) && !(c->hands[x] & c->suit_mask[gs] & ~(g & -g))) lone |= c->suit_mask[gs];
    }
    /* with an open goal: this hand's last card above an open task card of its own that another hand holds */
    u64 keep = goal ? task_keepers(c, seat, hand) : 0;
    /* with an open goal: the owner of the task next in order, holding its card, wants the lead (-1: none) */
    int nxt_owner = goal && c->n_num ? next_task_holder(c) : -1;
    u64 m = legal;
    while (m) {
        int cid = low_index(m);
        u64 bit = m & -m;
        m &= m - 1;
        int s = c->card_suit[cid];
        u64 is_task = watch & bit;
        if (c->merge && !(open_tasks & bit) && s >= 0) {
            u64 above = remaining & c->higher[cid];
            if (above) {
                u64 nxt = above & -above;
                if ((legal & nxt) && !(open_tasks & nxt) && c->mclass[cid] == c->mclass[low_index(nxt)]) continue;
            }
        }
        int nl, p;
        if (prow) {
            nl = led;
            p = prow[cid];
        } else {
            nl = s;
            p = c->power[(s + 1) * c->ncards + cid];
        }
        int w, wp, wc;
        if (p > best_pow) {
            w = seat; wp = p; wc = cid;
        } else {
            w = best_seat; wp = best_pow; wc = best_cid;
        }
        if (!((allowed >> w) & 1)) {
            /* a seat the conditions forbid is winning: someone allowed yet to play must beat it */
            int found = 0;
            for (int x = 0; x < n; x++) {
                if (((allowed >> x) & 1) && !((played >> x) & 1)) {
                    int mk = x * (MAXSU + 1) + (nl + 1);
                    int mp = maxp[mk];
                    if (mp < 0) mp = maxp[mk] = max_power(c, x, nl);
                    if (mp > wp) {
                        found = 1;
                        break;
                    }
                }
            }
            if (!found) continue;
        }
        int o = towner;
        if (is_task && !(bit & undrafted)) {
            int to = c->owner_of[cid];
            if (to < 0 || (o >= 0 && o != to)) continue;
            o = to;
        }
        int rank = c->order_rank[cid];
        int score, glh;
        u64 free = free_on_table | (bit & undrafted);
        int nf = 0;
        if (free) {
            nf = __builtin_popcountll(free);
            if (o >= 0) {
                if (c->quota_left[o] < nf) continue;
            } else if (c->quota_left[w] < nf) {
                /* the trick must go to a seat yet to play with room for its undrafted tasks */
                int found = 0;
                for (int x = 0; x < n; x++) {
                    if (c->quota_left[x] >= nf && !((played >> x) & 1)) {
                        int mk = x * (MAXSU + 1) + (nl + 1);
                        int mp = maxp[mk];
                        if (mp < 0) mp = maxp[mk] = max_power(c, x, nl);
                        if (mp > wp) {
                            found = 1;
                            break;
                        }
                    }
                }
                if (!found) continue;
            }
        }
        if (o >= 0) {
            if ((played >> o) & 1) {
                if (w != o) continue;
                score = 3000 + (is_task ? 500 : 0) - rank;
                if (pos == 0 && !(remaining & ~hand & c->higher[cid])) score += 400;
            } else {
                int mk = o * (MAXSU + 1) + (nl + 1);
                int mp = maxp[mk];
                if (mp < 0) mp = maxp[mk] = max_power(c, o, nl);
                if (mp <= wp) continue;
                score = 1000 - rank;
            }
        } else if (pos == 0 && leads_to_own_task(c, seat, cid)) {
            score = 2000 + rank;
        } else if ((bit & undrafted) && c->quota_left[w] >= nf) {
            score = 1500 - rank; /* free draft: an undrafted task to a seat with room for it */
        } else if (keep & bit) {
            score = -600 - rank; /* the last card above its own task card another hand holds: tried late */
        } else if (goal && wc >= 0 && ((goal >> wc) & 1) && !goal_early &&
                   (pos || !(remaining & ~hand & c->higher[cid]))) {
            score = 900 - rank; /* a goal card wins the trick so far (TrickSearch._moves) */
        } else if (goal && pos == 0 && (goal & bit) && !goal_early && (glh = goal_lead_holds(c, seat, cid))) {
            /* a goal card led that every other hand can stay under; one a hand may have to overtake with a goal card
             * of its own: not tried last */
            score = (glh == 2 ? 850 : -500) - rank;
        } else if (nxt_owner >= 0 && gives_lead(c, pos, seat, nxt_owner, nl, p, best_pow, played, maxp)) {
            score = 700 - rank; /* the next task's owner takes the trick (and the lead) with its highest card */
        } else if (goal & bit) {
            score = -1000 - rank; /* a goal card that cannot win this trick: tried last */
        } else if (pos == 0 && (lone & bit)) {
            score = -500 - rank; /* leading it takes a goal card its holder holds alone in the suit */
        } else if (goal && pos == 0 && ((c->strong_all >> cid) & 1) && !(hand & goal)) {
            /* a trump led by a hand without a goal card (a holder keeps its trumps to take the lead back): the
             * hands void in its suit discard (the goal's suits) */
            score = 600 + rank;
        } else if (pos == 0 && (gsuits & bit)) {
            score = 500 + rank; /* lead high in a goal card's suit: the other hands run out of it */
        } else if (pos && nl != s && (gsuits & bit & ~hsuits)) {
            score = 500 - rank; /* discard in a goal card's suit that this hand does not hold the goal card of */
        } else {
            score = -rank;
        }
        Move *mv = &moves[nm++];
        mv->score = score; mv->cid = cid; mv->nl = nl; mv->wp = wp; mv->w = w; mv->wc = wc; mv->o = o;
    }
    if (nm > 1) sort_moves(moves, nm);
    if (c->only >= 0) { /* run_split: this one first play only */
        int k = 0;
        for (int i = 0; i < nm; i++)
            if (moves[i].cid == c->only) moves[k++] = moves[i];
        nm = k;
        c->only = -1;
    }

    int last = pos == n - 1;
    /* TrickSearch.run_split: the leads of the next trick side by side too, with node budgets growing
     * split_growth-fold (pending: the plays whose budget ran out, tried again with the next budget) */
    int split = pos == 0 && c->ntricks == c->split_trick && nm > 1;
    long long budget = c->split_first;
    int pending[MAXC], np = nm;
    if (split)
        for (int i = 0; i < nm; i++) pending[i] = i;
    while (np) {
        int kept = 0;
        for (int q = 0; q < np; q++) {
            Move *mv = &moves[split ? pending[q] : q];
            long long outer = c->max_nodes;
            if (split) {
                long long lim = c->nodes + budget;
                if (outer >= 0 && lim > outer) lim = outer;
                c->max_nodes = lim;
                if (c->next_check > lim) c->next_check = lim;
            }
            c->nodes++;
            if (c->nodes >= c->next_check) {
                int b = check_budget(c);
                if (b) {
                    if (split) c->max_nodes = outer;
                    if (b == R_NODES && split && !(outer >= 0 && c->nodes >= outer)) {
                        pending[kept++] = pending[q];
                        continue;
                    }
                    return b;
                }
            }
            u64 bit = 1ULL << mv->cid;
            c->hands[seat] = hand ^ bit;
            c->plays_seat[c->nplays] = seat;
            c->plays_cid[c->nplays] = mv->cid;
            c->nplays++;
            c->table |= bit;
            c->led = mv->nl;
            int r;
            if (last) {
                r = end_trick(c, mv->w, mv->wc, mv->o);
            } else if (c->cx && c->cx->after_play) {
                u64 newly;
                r = judge_conditions(c, 1, &newly);
                if (r == R_WIN) {
                    c->cond_done |= newly;
                    r = play(c, pos + 1, mv->wp, mv->w, mv->wc, mv->o);
                    c->cond_done &= ~newly;
                }
            } else {
                r = play(c, pos + 1, mv->wp, mv->w, mv->wc, mv->o);
            }
            c->led = led;
            c->table ^= bit;
            c->nplays--;
            c->hands[seat] = hand;
            if (split) c->max_nodes = outer;
            if (r == R_WIN) {
                c->line_seat[c->nline] = seat;
                c->line_cid[c->nline] = mv->cid;
                c->nline++;
                return R_WIN;
            }
            if (r == R_NODES && split && !(outer >= 0 && c->nodes >= outer)) {
                pending[kept++] = pending[q];
                continue;
            }
            if (r != R_LOST) return r;
        }
        if (!split) break;
        np = kept;
        budget *= c->split_growth;
    }
    return R_LOST;
}

/* ------------------------------------------------------------------ API */
int ck_abi(void) { return CK_ABI; }

/* ``cfg`` layout (int64): see crewkit/families/trick_taking/solve/native.py (_config). Returns NULL when it does not fit. */
void *ck_new(const long long *cfg, long long max_table) {
    Ctx *c = (Ctx *)calloc(1, sizeof(Ctx));
    if (!c) return NULL;
    int i = 0;
    c->n = (int)cfg[i++];
    c->ncards = (int)cfg[i++];
    c->nsuits = (int)cfg[i++];
    c->total = (int)cfg[i++];
    c->must_follow = (int)cfg[i++];
    c->check_order = (int)cfg[i++];
    c->merge = (int)cfg[i++];
    c->ntasks = (int)cfg[i++];
    c->nspans = (int)cfg[i++];
    c->n_num = (int)cfg[i++];
    c->n_omega = (int)cfg[i++];
    c->n_arrow = (int)cfg[i++];
    if (c->n < 1 || c->n > MAXN || c->ncards < 1 || c->ncards > MAXC || c->nsuits < 1 || c->nsuits > MAXSU ||
        c->ntasks > MAXT || c->nspans > MAXSU || c->n_num > MAXT || c->n_omega > MAXT || c->n_arrow > MAXT) {
        free(c);
        return NULL;
    }
    int nc = c->ncards;
    for (int k = 0; k < nc; k++) c->card_suit[k] = (int)cfg[i++];
    for (int k = 0; k < nc; k++) c->order_rank[k] = (int)cfg[i++];
    for (int k = 0; k < nc; k++) c->owner_of[k] = (int)cfg[i++];
    for (int k = 0; k < nc; k++) c->task_of[k] = (int)cfg[i++];
    c->power = (int *)malloc(sizeof(int) * (size_t)((c->nsuits + 1) * nc));
    if (!c->power) {
        free(c);
        return NULL;
    }
    for (int k = 0; k < (c->nsuits + 1) * nc; k++) c->power[k] = (int)cfg[i++];
    for (int k = 0; k < c->nsuits; k++) c->suit_mask[k] = (u64)cfg[i++];
    for (int k = 0; k < nc; k++) c->higher[k] = (u64)cfg[i++];
    for (int k = 0; k < nc; k++) c->lower[k] = (u64)cfg[i++];
    c->order_cards = (u64)cfg[i++];
    for (int k = 0; k < c->nspans; k++) {
        c->span_lo[k] = (int)cfg[i++];
        c->span_len[k] = (int)cfg[i++];
        c->span_mask[k] = ((1ULL << c->span_len[k]) - 1) << c->span_lo[k];
    }
    for (int k = 0; k < c->n_num; k++) {
        c->num_task[k] = (int)cfg[i++];
        c->num_k[k] = (int)cfg[i++];
    }
    for (int k = 0; k < c->n_omega; k++) c->omega_task[k] = (int)cfg[i++];
    for (int k = 0; k < c->n_arrow; k++) {
        c->arrow_task[k] = (int)cfg[i++];
        c->arrow_r[k] = (int)cfg[i++];
    }
    for (int k = 0; k < c->ntasks; k++) c->task_card[k] = (u64)cfg[i++];
    c->draft = (int)cfg[i++];
    c->undrafted = (u64)cfg[i++];
    for (int k = 0; k < nc; k++) c->beaters[k] = (u64)cfg[i++];
    c->late = (int)cfg[i++];
    c->na = (int)cfg[i++];
    if (c->na < 0 || c->na > (1 << 20)) {
        free(c->power);
        free(c);
        return NULL;
    }
    if (c->na) {
        c->a_child = (int *)malloc(sizeof(int) * (size_t)c->na * (size_t)c->n);
        c->a_allowed = (int *)malloc(sizeof(int) * (size_t)c->na);
        c->a_complete = (uint8_t *)malloc((size_t)c->na);
        c->a_most = (uint8_t *)malloc((size_t)c->na * (size_t)c->n);
        if (!c->a_child || !c->a_allowed || !c->a_complete || !c->a_most) {
            free(c->a_child); free(c->a_allowed); free(c->a_complete); free(c->a_most); free(c->power); free(c);
            return NULL;
        }
        for (int st = 0; st < c->na; st++) {
            c->a_complete[st] = (uint8_t)(cfg[i++] != 0);
            int allowed = 0;
            for (int w = 0; w < c->n; w++) {
                int ch = (int)cfg[i++];
                if (ch >= c->na) ch = -1;
                c->a_child[st * c->n + w] = ch;
                if (ch >= 0) allowed |= 1 << w;
            }
            c->a_allowed[st] = allowed;
            for (int w = 0; w < c->n; w++) {
                long long v = cfg[i++];
                c->a_most[st * c->n + w] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
        c->trumplike = (u64)cfg[i++];
        for (int k = 0; k < nc; k++) c->beats_any[k] = (u64)cfg[i++];
        while ((1 << c->abits) < c->na) c->abits++;
    }
    for (int k = 0; k < nc; k++) c->mclass[k] = (int)cfg[i++];
    /* mission conditions (native.py: the game's tasks, then condcode.py's Program.encode) */
    if (cfg[i++]) {
        c->nreal = (int)cfg[i++];
        if (c->nreal < 0 || c->nreal > c->ntasks || c->na || c->draft) goto refuse;
        for (int k = 0; k < c->nreal; k++) {
            c->real_bits[k] = (u64)cfg[i++];
            c->real_owner[k] = (int)cfg[i++];
        }
        long long plen = cfg[i++]; /* the program's length */
        c->cx = cond_ctx_new(cfg + i);
        if (!c->cx || c->cx->total_tricks != c->total || c->cx->ncond > 64) goto refuse;
        c->cw.n = c->n;
        c->cw.ntasks = c->nreal;
        c->cw.task_bits = c->real_bits;
        c->cw.task_owner = c->real_owner;
        i += (int)plen;
        c->digest = (int)cfg[i++];
        if (c->digest) {
            c->ndig = (int)cfg[i++];
            if (c->ndig < 0 || c->ndig > 16) goto refuse;
            for (int k = 0; k < c->ndig; k++) {
                c->dig_node[k] = (int)cfg[i++];
                if (c->dig_node[k] < 0 || c->dig_node[k] >= c->cx->nnodes) goto refuse;
            }
            c->dig_counts = (int)cfg[i++];
            c->dig_winners = (u64)cfg[i++];
        }
        c->goal_mask = (u64)cfg[i++];
        c->goal_cond = (int)cfg[i++];
        c->goal_k = (int)cfg[i++];
        c->goal_last = c->goal_k == 0;
        if (c->goal_last) c->goal_k = 1;
        c->claimed = (u64)cfg[i++];
        if (c->goal_cond >= c->cx->ncond) goto refuse;
        if (c->goal_cond < 0) c->goal_mask = 0;
        int places = c->digest ? (c->dig_winners ? 2 * c->n + 1 : c->n + 1) : 3 * c->n + 1;
        while ((1 << c->ckbits) < places) c->ckbits++;
    }
    for (int k = 0; k < nc; k++) { /* weak (power 0) in every led suit but its own; strong in every one */
        int s = c->card_suit[k], weak = s >= 0;
        for (int led = 0; led < c->nsuits && weak; led++)
            if (led != s && c->power[(led + 1) * nc + k] > 0) weak = 0;
        if (weak) c->lead_only |= 1ULL << k;
        int strong = 1;
        for (int led = 0; led < c->nsuits && strong; led++)
            if (c->power[(led + 1) * nc + k] <= 0) strong = 0;
        if (strong) c->strong_all |= 1ULL << k;
    }
    for (int k = 0; k < nc; k++) { /* goal_counts.not_above */
        int s = c->card_suit[k];
        if (s < 0) continue;
        const int *row = c->power + (s + 1) * nc;
        for (u64 m = c->suit_mask[s]; m; m &= m - 1)
            if (row[low_index(m)] <= row[k]) c->not_above[k] |= 1ULL << low_index(m);
    }
    c->goal_counts = goal_counts_apply(c);
    c->has_tokens = c->n_num || c->n_omega || c->n_arrow;
    c->holder_bits = c->n <= 2 ? 1 : c->n <= 4 ? 2 : 3;
    int span_cards = 0;
    for (int k = 0; k < c->nspans; k++) span_cards += c->span_len[k];
    if (c->cx ? 1 + 3 + c->ntasks + c->cx->ncond + nc * c->ckbits + 16 * c->ndig + 6 * c->n * c->dig_counts > 64 * KEYW
              : 1 + 3 + c->ntasks + (c->draft ? 6 * c->n : 0) + c->abits + 5 * c->nspans +
                    span_cards * (c->holder_bits + 1) > 64 * KEYW)
        goto refuse;
    for (int lead = 0; lead < c->n; lead++)
        for (int pos = 0; pos < c->n; pos++) {
            int bits = 0;
            for (int j = 0; j <= pos; j++) bits |= 1 << ((lead + j) % c->n);
            c->played_tab[lead][pos] = bits;
        }
    c->max_table = max_table;
    compress_init();
    if (!table_alloc(c, 1 << 10)) goto refuse; /* grows on demand: a draft search holds one table per assignment */
    return c;
refuse:
    if (c->cx) cond_ctx_free(c->cx);
    free(c->a_child); free(c->a_allowed); free(c->a_complete); free(c->a_most);
    free(c->power);
    free(c);
    return NULL;
}

void ck_free(void *p) {
    Ctx *c = (Ctx *)p;
    if (!c) return;
    free(c->slots);
    if (c->cx) cond_ctx_free(c->cx);
    free(c->a_child);
    free(c->a_allowed);
    free(c->a_complete);
    free(c->a_most);
    free(c->power);
    free(c->goal_tab);
    free(c);
}

long long ck_nodes(void *p) { return ((Ctx *)p)->nodes; }
long long ck_table_size(void *p) { return (long long)((Ctx *)p)->count; }

/* Run from a position. ``pos`` layout (int64): leader, led, ntricks, ndone, open_tasks, nplays,
 * (seat, cid) * nplays, hands[n], task_trick[ntasks]. ``max_nodes`` < 0 and ``seconds`` < 0: no bound.
 * Returns R_WIN / R_LOST / R_NODES / R_TIME / R_INTERRUPT; on R_WIN the line is in ``line`` as seat, cid
 * pairs. ``catch_sigint``: Ctrl-C stops the search (R_INTERRUPT) instead of waiting for its end. */
static int run(Ctx *c, const long long *pos, long long max_nodes, double seconds, int *line, int *line_len,
               int only, long long split_first, long long split_growth);

int ck_run(void *p, const long long *pos, long long max_nodes, double seconds, int *line, int *line_len,
           int catch_sigint, int only, long long split_first, long long split_growth) {
    Ctx *c = (Ctx *)p;
#ifdef CK_SIGNALS
    struct sigaction mine, before;
    if (catch_sigint) {
        interrupted = 0;
        memset(&mine, 0, sizeof mine);
        mine.sa_handler = on_sigint;
        sigemptyset(&mine.sa_mask);
        sigaction(SIGINT, &mine, &before);
    }
    int r = run(c, pos, max_nodes, seconds, line, line_len, only, split_first, split_growth);
    if (catch_sigint) {
        sigaction(SIGINT, &before, NULL);
        if (interrupted && r != R_WIN && r != R_LOST) r = R_INTERRUPT;
        interrupted = 0;
    }
    return r;
#else
    (void)catch_sigint;
    return run(c, pos, max_nodes, seconds, line, line_len, only, split_first, split_growth);
#endif
}

static int run(Ctx *c, const long long *pos, long long max_nodes, double seconds, int *line, int *line_len,
               int only, long long split_first, long long split_growth) {
    int i = 0;
    c->leader = (int)pos[i++];
    c->led = (int)pos[i++];
    c->ntricks = (int)pos[i++];
    c->ndone = (int)pos[i++];
    c->open_tasks = (u64)pos[i++];
    c->nplays = (int)pos[i++];
    for (int k = 0; k < c->nplays; k++) {
        c->plays_seat[k] = (int)pos[i++];
        c->plays_cid[k] = (int)pos[i++];
    }
    for (int k = 0; k < c->n; k++) c->hands[k] = (u64)pos[i++];
    for (int k = 0; k < c->ntasks; k++) c->task_trick[k] = (int)pos[i++];
    for (int k = 0; k < c->n; k++) c->quota_left[k] = (int)pos[i++];
    c->astate = c->na ? (int)pos[i++] : 0;
    if (c->na && (c->astate < 0 || c->astate >= c->na)) return R_LOST;
    if (c->cx) { /* the conditions done, won cards, cards won with, then the tricks so far (condcode.trick_tail) */
        c->cond_done = (u64)pos[i++];
        for (int k = 0; k < c->n; k++) c->won[k] = (u64)pos[i++];
        for (int k = 0; k < c->n; k++) c->winmask[k] = (u64)pos[i++];
        const ll *pp = pos + i;
        memset(c->cw.won_count, 0, sizeof c->cw.won_count);
        if (read_tricks(c->cx, &pp, c->n, c->cw.won_count) != c->ntricks) return R_ERROR;
    }
    c->only = -1;
    /* run_split's first card (only): the next trick's leads are split as well (split_first > 0) */
    c->split_trick = only >= 0 && split_first > 0 && !c->nplays ? c->ntricks + 1 : -1;
    c->split_first = split_first;
    c->split_growth = split_growth;
    c->max_nodes = max_nodes < 0 ? -1 : c->nodes + max_nodes;
    c->deadline = seconds < 0 ? -1.0 : now_seconds() + seconds;
    c->next_check = c->nodes + 256;
    c->nline = 0;
    *line_len = 0;
    int r;
    if (c->nplays) {
        c->table = 0;
        for (int k = 0; k < c->nplays; k++) c->table |= 1ULL << c->plays_cid[k];
        c->remaining = c->table;
        for (int k = 0; k < c->n; k++) c->remaining |= c->hands[k];
        int best_pow = 0, best_seat = c->plays_seat[0], best_cid = c->plays_cid[0], towner = -1;
        for (int k = 0; k < c->nplays; k++) {
            int seat = c->plays_seat[k], cid = c->plays_cid[k];
            int pw = c->led >= 0 ? c->power[(c->led + 1) * c->ncards + cid]
                                 : c->power[(c->card_suit[cid] + 1) * c->ncards + cid];
            if (pw > best_pow) {
                best_pow = pw; best_seat = seat; best_cid = cid;
            }
            if (((c->open_tasks | c->claimed) >> cid) & 1) {
                int o = c->owner_of[cid];
                if (o < 0 || (towner >= 0 && towner != o)) return R_LOST;
                towner = o;
            }
        }
        r = play(c, c->nplays, best_pow, best_seat, best_cid, towner);
    } else {
        u64 rem = 0;
        for (int k = 0; k < c->n; k++) rem |= c->hands[k];
        c->remaining = rem;
        if (only >= 0) { /* one first card, from the trick start itself (no table entry for the root) */
            c->table = 0;
            c->only = only;
            r = play(c, 0, 0, c->leader, -1, -1);
            c->only = -1;
        } else {
            r = trick_body(c);
        }
    }
    if (r == R_WIN) {
        /* the line was collected from the end backwards */
        for (int k = 0; k < c->nline; k++) {
            line[2 * k] = c->line_seat[c->nline - 1 - k];
            line[2 * k + 1] = c->line_cid[c->nline - 1 - k];
        }
        *line_len = c->nline;
    }
    return r;
}
