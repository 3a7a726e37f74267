/* The adversarial search of one round (Hammer) in C: the Python search's twin (solve/adversarial.py,
 * RoundSearch._value and _force), loaded through ctypes (solve/adversarial_native.py).
 *
 * The same state (hands and won cards as bitmasks, the trick under way, the completed tricks as condeval.h's
 * records), the same legal plays, trick winner, move order, card merging, table keys (exact, or relative at a
 * trick's start where the formulas cannot tell cards apart) and fail-soft alpha-beta with lower/upper bounds
 * in the table. The round's settlement is round_verdict's, with the mission card's formulas evaluated by the
 * fast bot's evaluator (../bots/condeval.h, the program condcode.py makes of them, `p` its variable 0); a
 * formula that raises an error there (none where a number is needed, ...) returns AD_ERROR and the Python
 * search takes the question. Values are chips times the search's scale (integers). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define AD_ABI 1
#define AD_NODES -1
#define AD_TIME -2
#define AD_ERROR -4
#define AD_OK 0

typedef uint64_t u64;
typedef long long ll;

static inline int low_index(u64 m) { return __builtin_ctzll(m); }
static inline int popcount(u64 m) { /* SWAR: the library's call costs more without -mpopcnt */
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
}

#define MAXC 63
#define MAXT 40
#include "_condworld.h"

#define KEYW 6 /* 384 bits: a key that does not fit is not tabled */
#define INF (1LL << 40)
#define TAG_FORCE 15

typedef struct {
    u64 w[KEYW];
    ll lo, hi; /* the value table's bounds (-INF / INF: unknown); the challenge's table: lo is the answer */
} Entry;

typedef struct {
    int n, nc, nsuits, total, dealer, challenge, next_card, settle_early, hidden_replaces, base_other, scale;
    int others_in_challenge;
    ll hidden_payment, success_payment, failure_payment;
    int node_score, node_settled, node_hidden, node_success, node_fail;
    int suit_of[MAXC], rank[MAXC];
    int *strength; /* (nsuits + 1) * nc: row led + 1 */
    u64 follow_mask[MAXSUIT];
    u64 free_mask, not_first, not_last;
    int merge; /* classes known: merged cards and the relative key */
    int cls[MAXC], label[MAXC], label_bits;
    int higher[MAXC][MAXC], nhigher[MAXC]; /* higher cards of the suit, by rank */
    int norder[MAXSUIT + 1], order[MAXSUIT + 1][MAXC]; /* each suit's cards in rank order; the suitless */
    int ngroups;
    u64 groups[4 * MAXC];
    int seat_bits, count_bits, cid_bits;
    /* quick bounds (round_bounds.py): a penalty score linear in the cards and tricks won, the hidden mission */
    int bounds_on, b_hidden;
    ll b_const, b_card[MAXC], b_trick[MAXTR];
    u64 b_card_mask, b_hidden_cards;
    /* the state */
    u64 hands[MAXS], won[MAXS];
    int plays_seat[MAXS], plays_cid[MAXS], nplays, led, turn, ntr;
    World cw;
    CondCtx *cx;
    ll verdict_delta[MAXS];
    int verdict_success, has_verdict;
    /* search */
    ll hist[MAXS][MAXC];
    ll nodes, limit;
    double deadline;
    int stop; /* AD_NODES, AD_TIME or AD_ERROR once the search must stop */
    Entry *table;
    u64 cap, count, max_cap, generation; /* generation: how often the table was made anew (entries moved) */
} Ad;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline u64 mix64(u64 x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* ------------------------------------------------------------------ table */
static int table_alloc(Ad *a, u64 cap) {
    Entry *t = (Entry *)calloc(cap, sizeof(Entry));
    if (!t) return 0;
    free(a->table);
    a->table = t;
    a->cap = cap;
    a->count = 0;
    a->generation++;
    return 1;
}

static Entry *table_find(Ad *a, const u64 *k, int add) {
    u64 h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < KEYW; i++) {
        h = (h ^ k[i]) * 0xff51afd7ed558ccdULL;
        h ^= h >> 29;
    }
    h = mix64(h);
    u64 mask = a->cap - 1;
    for (u64 j = h & mask;; j = (j + 1) & mask) {
        Entry *e = &a->table[j];
        if (e->w[0] == 0) {
            if (!add) return NULL;
            if ((a->count + 1) * 4 > a->cap * 3) {
                if (a->cap < a->max_cap) {
                    Entry *old = a->table;
                    u64 oldcap = a->cap;
                    a->table = NULL;
                    if (!table_alloc(a, a->cap * 2)) { a->table = old; a->cap = oldcap; return NULL; }
                    for (u64 q = 0; q < oldcap; q++)
                        if (old[q].w[0]) {
                            Entry *d = table_find(a, old[q].w, 1);
                            if (d) *d = old[q];
                        }
                    free(old);
                    return table_find(a, k, 1);
                }
                /* full: the new entry takes the place of the one at its home slot (a slot never empties, so
                 * the other keys' probe chains hold; every entry is exact, so one lost is only searched again) */
                e = &a->table[h & mask];
                memcpy(e->w, k, sizeof(u64) * KEYW);
                e->lo = -INF;
                e->hi = INF;
                return e;
            }
            memcpy(e->w, k, sizeof(u64) * KEYW);
            e->lo = -INF;
            e->hi = INF;
            a->count++;
            return e;
        }
        if (memcmp(e->w, k, sizeof(u64) * KEYW) == 0) return e;
    }
}

static inline int put_bits(u64 *k, int *bit, u64 v, int nbits) {
    int b = *bit;
    if (b + nbits > 64 * KEYW) return 0;
    int w = b >> 6, o = b & 63;
    if (nbits < 64) v &= (1ULL << nbits) - 1;
    k[w] |= v << o;
    if (o && o + nbits > 64) k[w + 1] |= v >> (64 - o);
    *bit = b + nbits;
    return 1;
}

/* The key of the position for question `tag` (the seat judged, or TAG_FORCE), as the Python search's key():
 * exact (hands, the trick under way, trick winners, won cards), or at a trick's start with merging, relative
 * (who holds the remaining cards of each suit in rank order with their labels, how many cards of each group
 * each seat won, the trick winners). 0 when it does not fit (then the position is not tabled). */
static int make_key(Ad *a, u64 *k, int tag) {
    memset(k, 0, sizeof(u64) * KEYW);
    int bit = 0, ok = 1;
    ok &= put_bits(k, &bit, 1, 1); /* the marker: never an empty slot */
    ok &= put_bits(k, &bit, (u64)tag, 4);
    ok &= put_bits(k, &bit, (u64)a->ntr, 6);
    for (int t = 0; t < a->ntr; t++) ok &= put_bits(k, &bit, (u64)a->cx->hist[t].winner, a->seat_bits);
    if (a->nplays || !a->merge) {
        ok &= put_bits(k, &bit, 0, 1);
        ok &= put_bits(k, &bit, (u64)a->nplays, 4);
        for (int i = 0; i < a->nplays; i++) {
            ok &= put_bits(k, &bit, (u64)a->plays_seat[i], a->seat_bits);
            ok &= put_bits(k, &bit, (u64)a->plays_cid[i], a->cid_bits);
        }
        for (int s = 0; s < a->n; s++) ok &= put_bits(k, &bit, a->hands[s], a->nc);
        for (int s = 0; s < a->n; s++) ok &= put_bits(k, &bit, a->won[s], a->nc);
        return ok;
    }
    ok &= put_bits(k, &bit, 1, 1);
    ok &= put_bits(k, &bit, (u64)a->turn, a->seat_bits);
    u64 all = 0;
    int holder[MAXC];
    for (int s = 0; s < a->n; s++) {
        all |= a->hands[s];
        for (u64 m = a->hands[s]; m; m &= m - 1) holder[low_index(m)] = s;
    }
    for (int g = 0; g <= a->nsuits; g++) {
        int cnt = 0;
        for (int j = 0; j < a->norder[g]; j++) cnt += (int)((all >> a->order[g][j]) & 1);
        ok &= put_bits(k, &bit, (u64)cnt, 7); /* the suit's cards left, then each one's holder and label */
        for (int j = 0; j < a->norder[g]; j++) {
            int c = a->order[g][j];
            if (!((all >> c) & 1)) continue;
            ok &= put_bits(k, &bit, (u64)holder[c] | ((u64)a->label[c] << a->seat_bits), a->seat_bits + a->label_bits);
        }
    }
    for (int s = 0; s < a->n; s++)
        for (int g = 0; g < a->ngroups; g++)
            ok &= put_bits(k, &bit, (u64)popcount(a->won[s] & a->groups[g]), a->count_bits);
    return ok;
}

/* ------------------------------------------------------------------ rules */
static u64 legal(Ad *a) {
    u64 hand = a->hands[a->turn];
    u64 led_mask = a->led >= 0 ? a->follow_mask[a->led] : 0;
    u64 follow = hand & led_mask;
    u64 lg = follow ? (follow | (hand & a->free_mask)) : hand;
    if (a->free_mask) {
        int number = a->ntr + 1;
        u64 forbidden = (number == 1 ? a->not_first : 0) | (number == a->total ? a->not_last : 0);
        if (forbidden && (lg & ~forbidden)) lg &= ~forbidden;
    }
    return lg;
}

static void sync_world(Ad *a) {
    World *w = &a->cw;
    memcpy(w->hands, a->hands, sizeof(u64) * (size_t)a->n);
    w->nplays = a->nplays;
    for (int k = 0; k < a->nplays; k++) w->play_card[k] = a->plays_cid[k];
    w->ntr = a->ntr;
    a->cx->w = w;
}

static ll eval_node(Ad *a, int node, int p) {
    CondCtx *x = a->cx;
    x->steps = 0;
    x->vars[0] = p;
    ll v = ev(x, node);
    if (x->err) a->stop = AD_ERROR;
    return v;
}

/* penalty_deltas (scoring.py) in the search's units; only: a mask of the seats scored */
static void penalty_deltas(Ad *a, unsigned only, ll *deltas) {
    int n = a->n;
    ll scores[MAXS];
    for (int q = 0; q < n; q++) deltas[q] = 0;
    for (int p = 0; p < n; p++) {
        scores[p] = 0;
        if (!((only >> p) & 1) || a->node_score < 0) continue;
        ll v = eval_node(a, a->node_score, p);
        if (v == NONEV) a->stop = AD_ERROR;
        scores[p] = v;
    }
    if (a->node_hidden >= 0)
        for (int p = 0; p < n; p++) {
            if (!((only >> p) & 1) || p == a->dealer) continue;
            if (truthy(eval_node(a, a->node_hidden, p))) {
                if (a->hidden_replaces) scores[p] = 0;
                for (int q = 0; q < n; q++)
                    if (q != p) {
                        deltas[q] -= a->hidden_payment * a->scale;
                        deltas[p] += a->hidden_payment * a->scale;
                    }
            }
        }
    for (int p = 0; p < n; p++) {
        if (!((only >> p) & 1)) continue;
        deltas[p] += scores[p] * a->scale;
        if (a->base_other)
            for (int q = 0; q < n; q++)
                if (q != p) deltas[q] -= scores[p] * a->scale / (n - 1);
    }
}

/* round_verdict (rounds.py) after trick `number`: sets has_verdict, verdict_success and verdict_delta */
static void verdict(Ad *a, int number) {
    int last = number >= a->total;
    a->has_verdict = 0;
    sync_world(a);
    a->cx->err = 0;
    int n = a->n;
    if (a->challenge) {
        int result = -1; /* 1 success, 0 failure */
        if (a->node_fail >= 0 && truthy(eval_node(a, a->node_fail, 0))) result = 0;
        else if (a->node_success >= 0 && truthy(eval_node(a, a->node_success, 0)) && (a->settle_early || last))
            result = 1;
        else if (last) result = 0;
        if (a->stop) return;
        if (result < 0 || (!a->settle_early && !last)) return;
        ll amount = result ? a->success_payment : -a->failure_payment;
        for (int q = 0; q < n; q++) a->verdict_delta[q] = 0;
        for (int q = 0; q < n; q++)
            if (q != a->dealer) {
                a->verdict_delta[q] -= amount * a->scale;
                a->verdict_delta[a->dealer] += amount * a->scale;
            }
        if (a->others_in_challenge) {
            ll extra[MAXS];
            penalty_deltas(a, ((1u << n) - 1) & ~(1u << a->dealer), extra);
            for (int q = 0; q < n; q++) a->verdict_delta[q] += extra[q];
        }
        a->verdict_success = result;
        a->has_verdict = !a->stop;
        return;
    }
    int settled = !last && a->settle_early && a->node_settled >= 0 && truthy(eval_node(a, a->node_settled, 0));
    if (a->stop) return;
    if (!last && !settled) return;
    penalty_deltas(a, (1u << n) - 1, a->verdict_delta);
    a->verdict_success = 0;
    a->has_verdict = !a->stop;
}

typedef struct {
    int led, turn, nplays;
} Saved;

static Saved play(Ad *a, int cid) {
    Saved sv = {a->led, a->turn, a->nplays};
    int seat = a->turn;
    a->hands[seat] &= ~(1ULL << cid);
    int leads = a->nplays == 0;
    a->plays_seat[a->nplays] = seat;
    a->plays_cid[a->nplays] = cid;
    a->nplays++;
    if (a->led < 0 && a->suit_of[cid] >= 0 && (leads || a->next_card)) a->led = a->suit_of[cid];
    a->has_verdict = 0;
    if (a->nplays < a->n) {
        a->turn = (seat + 1) % a->n;
        return sv;
    }
    const int *row = a->strength + (a->led + 1) * a->nc;
    int best = 0;
    for (int i = 1; i < a->nplays; i++)
        if (row[a->plays_cid[i]] > row[a->plays_cid[best]]) best = i;
    int winner = a->plays_seat[best];
    CondCtx *x = a->cx;
    TrickRec *rec = &x->hist[a->ntr];
    u64 mask = 0;
    rec->leader = a->plays_seat[0];
    rec->winner = winner;
    rec->wincard = a->plays_cid[best];
    rec->nplays = a->nplays;
    for (int k = 0; k < a->nplays; k++) {
        rec->seat[k] = a->plays_seat[k];
        rec->card[k] = a->plays_cid[k];
        mask |= 1ULL << a->plays_cid[k];
    }
    rec->mask = mask;
    rec->upto = mask | (a->ntr ? x->hist[a->ntr - 1].upto : 0);
    rec->memo_valid = 0;
    rec->serial = ++x->serials;
    rec->prev_serial = a->ntr ? x->hist[a->ntr - 1].serial : 0;
    a->won[winner] |= mask;
    a->cw.won_count[winner]++;
    a->ntr++;
    a->nplays = 0;
    a->led = -1;
    a->turn = winner;
    verdict(a, a->ntr);
    return sv;
}

static void undo(Ad *a, int cid, Saved sv) {
    if (a->nplays == 0) { /* the play ended a trick: take it back (later plays wrote over its cards) */
        a->ntr--;
        TrickRec *rec = &a->cx->hist[a->ntr];
        a->won[rec->winner] &= ~rec->mask;
        a->cw.won_count[rec->winner]--;
        for (int k = 0; k < rec->nplays; k++) {
            a->plays_seat[k] = rec->seat[k];
            a->plays_cid[k] = rec->card[k];
        }
    }
    a->hands[sv.turn] |= 1ULL << cid;
    a->led = sv.led;
    a->turn = sv.turn;
    a->nplays = sv.nplays;
    a->has_verdict = 0;
}

/* RoundSearch.ordered then _moves: plays that would win the trick now first (strongest first), then the lowest
 * (at a lead: the highest first); of merged cards only the highest; then by the seat's cut-offs (stable) */
static int moves(Ad *a, int *out) {
    u64 lg = legal(a);
    int ids[MAXC], k = 0;
    u64 present = 0;
    if (a->merge) {
        for (int s = 0; s < a->n; s++) present |= a->hands[s];
        for (int i = 0; i < a->nplays; i++) present |= 1ULL << a->plays_cid[i];
    }
    u64 hand = a->hands[a->turn];
    for (u64 m = lg; m; m &= m - 1) {
        int c = low_index(m), keep = 1;
        if (a->merge)
            for (int j = 0; j < a->nhigher[c]; j++) {
                int h = a->higher[c][j];
                if ((present >> h) & 1) {
                    if (((hand >> h) & 1) && a->cls[h] == a->cls[c]) keep = 0;
                    break;
                }
            }
        if (keep) ids[k++] = c;
    }
    ll key1[MAXC], key2[MAXC];
    const ll *hs = a->hist[a->turn];
    if (!a->nplays) {
        for (int i = 0; i < k; i++) { key1[i] = 0; key2[i] = -a->rank[ids[i]]; }
    } else {
        const int *row = a->led >= 0 ? a->strength + (a->led + 1) * a->nc : NULL;
        int best = 0;
        if (row)
            for (int i = 0; i < a->nplays; i++)
                if (row[a->plays_cid[i]] > best) best = row[a->plays_cid[i]];
        for (int i = 0; i < k; i++) {
            int c = ids[i];
            if (a->suit_of[c] < 0) { key1[i] = 0; key2[i] = 0; continue; }
            int s = row ? row[c] : 0;
            if (s > best) { key1[i] = 0; key2[i] = -s; }
            else { key1[i] = 1; key2[i] = a->rank[c]; }
        }
    }
    /* insertion sort by (-cut-offs, key1, key2, id): Python's two stable sorts */
    for (int i = 0; i < k; i++) out[i] = i;
    for (int i = 1; i < k; i++) {
        int v = out[i], j = i - 1;
        while (j >= 0) {
            int u = out[j];
            ll hu = hs[ids[u]], hv = hs[ids[v]];
            int greater = hu < hv || (hu == hv && (key1[u] > key1[v] || (key1[u] == key1[v] &&
                          (key2[u] > key2[v] || (key2[u] == key2[v] && ids[u] > ids[v])))));
            if (!greater) break;
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = v;
    }
    for (int i = 0; i < k; i++) out[i] = ids[out[i]];
    return k;
}

static int count_node(Ad *a) {
    a->nodes++;
    if (a->nodes > a->limit) { a->stop = AD_NODES; return 0; }
    if (a->deadline >= 0 && !(a->nodes & 1023) && now_seconds() > a->deadline) { a->stop = AD_TIME; return 0; }
    return 1;
}

/* round_bounds.chip_bounds: at least *lo, at most *hi chips (units) for `seat` from the position */
static void chip_bounds(Ad *a, int seat, ll *lo_out, ll *hi_out) {
    int n = a->n;
    ll scale = a->scale, other = a->base_other ? -scale / (n - 1) : 0;
    ll lo = a->b_const * (scale + (n - 1) * other), hi;
    ll coef[MAXS];
    for (int q = 0; q < n; q++) coef[q] = q == seat ? scale : other;
    hi = lo;
    u64 owned = 0;
    for (int q = 0; q < n; q++) {
        u64 m = a->won[q] & a->b_card_mask;
        owned |= m;
        for (; m; m &= m - 1) {
            ll v = a->b_card[low_index(m)] * coef[q];
            lo += v;
            hi += v;
        }
    }
    for (u64 m = a->b_card_mask & ~owned; m; m &= m - 1) {
        ll w = a->b_card[low_index(m)], x = w * scale, y = w * other;
        ll mn = x < y ? x : y, mx = x > y ? x : y;
        lo += mn < 0 ? mn : 0;
        hi += mx > 0 ? mx : 0;
    }
    const TrickRec *hist = a->cx->hist;
    for (int t = 0; t < a->total; t++) {
        ll w = a->b_trick[t];
        if (!w) continue;
        if (t < a->ntr) {
            ll v = w * coef[hist[t].winner];
            lo += v;
            hi += v;
        } else {
            ll x = w * scale, y = w * other;
            ll mn = x < y ? x : y, mx = x > y ? x : y;
            lo += mn < 0 ? mn : 0;
            hi += mx > 0 ? mx : 0;
        }
    }
    if (a->b_hidden) {
        int others = 0; /* others who can still achieve it (of every trick, or every card of a set, at most one) */
        for (int q = 0; q < n; q++) {
            if (q == a->dealer) continue;
            int possible = 1;
            if (a->b_hidden == 1) {
                for (int t = 0; t < a->ntr && possible; t++)
                    if (hist[t].winner != q) possible = 0;
            } else if (a->b_hidden == 2) {
                for (int r = 0; r < n && possible; r++)
                    if (r != q && (a->won[r] & a->b_hidden_cards)) possible = 0;
            }
            if (!possible) continue;
            if (q == seat) hi += a->hidden_payment * (n - 1) * scale;
            else others++;
        }
        if (a->b_hidden <= 2 && others > 1) others = 1;
        lo -= a->hidden_payment * scale * others;
    }
    *lo_out = lo;
    *hi_out = hi;
}

/* RoundSearch._value: fail-soft alpha-beta on `seat`'s chip change (units); a->stop set when it ran out */
static ll value(Ad *a, int seat, ll alpha, ll beta) {
    u64 k[KEYW];
    int tabled = make_key(a, k, seat);
    Entry *e = tabled ? table_find(a, k, 0) : NULL; /* kept for the store while the table does not move */
    u64 generation = a->generation;
    ll lo = e ? e->lo : -INF, hi = e ? e->hi : INF;
    if (e) {
        if (lo == hi) return lo;
        if (lo != -INF && lo >= beta) return lo;
        if (hi != INF && hi <= alpha) return hi;
    }
    ll al = alpha > lo ? alpha : lo, be = beta < hi ? beta : hi;
    ll a0 = al, b0 = be;
    if (a->bounds_on) { /* the chips the cards and tricks left can still bring settle the test */
        ll blo, bhi;
        chip_bounds(a, seat, &blo, &bhi);
        if (bhi <= alpha) return bhi;
        if (blo >= beta) return blo;
    }
    if (!count_node(a)) return 0;
    int maximise = a->turn == seat;
    ll best = 0;
    int have = 0;
    ll *hs = a->hist[a->turn];
    int mv[MAXC];
    int nm = moves(a, mv);
    for (int i = 0; i < nm; i++) {
        int cid = mv[i];
        Saved sv = play(a, cid);
        ll v;
        if (a->stop) { undo(a, cid, sv); return 0; }
        if (a->has_verdict) v = a->verdict_delta[seat];
        else v = value(a, seat, al, be);
        undo(a, cid, sv);
        if (a->stop) return 0;
        if (maximise) {
            if (!have || v > best) best = v;
            if (v > al) al = v;
        } else {
            if (!have || v < best) best = v;
            if (v < be) be = v;
        }
        have = 1;
        if (al >= be) {
            hs[cid] += (ll)(a->total - a->ntr) * (a->total - a->ntr); /* higher up weighs more */
            break;
        }
    }
    if (tabled) {
        /* the slot may have moved (table regrown) or been given to another key since (a full table) */
        if (!e || generation != a->generation || memcmp(e->w, k, sizeof(u64) * KEYW) != 0)
            e = table_find(a, k, 1);
        if (e) {
            if (a0 != -INF && best <= a0) { e->lo = lo; e->hi = best; }
            else if (b0 != INF && best >= b0) { e->lo = best; e->hi = hi; }
            else { e->lo = best; e->hi = best; }
        }
    }
    return best;
}

/* RoundSearch._force: can the dealer force the challenge's success? */
static int force(Ad *a) {
    u64 k[KEYW];
    int tabled = make_key(a, k, TAG_FORCE);
    Entry *e = tabled ? table_find(a, k, 0) : NULL;
    if (e) return (int)e->lo;
    if (!count_node(a)) return 0;
    int dealer_moves = a->turn == a->dealer;
    int result = !dealer_moves;
    ll *hs = a->hist[a->turn];
    int mv[MAXC];
    int nm = moves(a, mv);
    for (int i = 0; i < nm; i++) {
        int cid = mv[i];
        Saved sv = play(a, cid);
        int v;
        if (a->stop) { undo(a, cid, sv); return 0; }
        v = a->has_verdict ? a->verdict_success : force(a);
        undo(a, cid, sv);
        if (a->stop) return 0;
        if (v == dealer_moves) {
            result = v;
            hs[cid] += (ll)(a->total - a->ntr) * (a->total - a->ntr); /* higher up weighs more */
            break;
        }
    }
    if (tabled) {
        e = table_find(a, k, 1);
        if (e) e->lo = result;
    }
    return result;
}

/* ------------------------------------------------------------------ the library's functions */
int ad_abi(void) { return AD_ABI; }

static int bits_for(int v) {
    int b = 1;
    while ((1 << b) <= v) b++;
    return b;
}

/* cfg: see adversarial_native.py (config) */
void *ad_new(const long long *cfg, long long max_entries) {
    Ad *a = (Ad *)calloc(1, sizeof(Ad));
    if (!a) return NULL;
    int i = 0;
    a->n = (int)cfg[i++];
    a->nc = (int)cfg[i++];
    a->nsuits = (int)cfg[i++];
    a->total = (int)cfg[i++];
    if (a->n < 2 || a->n > MAXS || a->nc < 1 || a->nc > MAXC || a->nsuits < 1 || a->nsuits > MAXSUIT - 1 ||
        a->total < 1 || a->total >= MAXTR) {
        free(a);
        return NULL;
    }
    a->dealer = (int)cfg[i++];
    a->challenge = (int)cfg[i++];
    a->next_card = (int)cfg[i++];
    a->settle_early = (int)cfg[i++];
    a->hidden_replaces = (int)cfg[i++];
    a->base_other = (int)cfg[i++];
    a->scale = (int)cfg[i++];
    a->others_in_challenge = (int)cfg[i++];
    a->hidden_payment = cfg[i++];
    a->success_payment = cfg[i++];
    a->failure_payment = cfg[i++];
    a->node_score = (int)cfg[i++];
    a->node_settled = (int)cfg[i++];
    a->node_hidden = (int)cfg[i++];
    a->node_success = (int)cfg[i++];
    a->node_fail = (int)cfg[i++];
    int nc = a->nc;
    for (int c = 0; c < nc; c++) a->suit_of[c] = (int)cfg[i++];
    for (int c = 0; c < nc; c++) a->rank[c] = (int)cfg[i++];
    a->strength = (int *)malloc(sizeof(int) * (size_t)((a->nsuits + 1) * nc));
    if (!a->strength) { free(a); return NULL; }
    for (int j = 0; j < (a->nsuits + 1) * nc; j++) a->strength[j] = (int)cfg[i++];
    for (int s = 0; s < a->nsuits; s++) a->follow_mask[s] = (u64)cfg[i++];
    a->free_mask = (u64)cfg[i++];
    a->not_first = (u64)cfg[i++];
    a->not_last = (u64)cfg[i++];
    a->merge = (int)cfg[i++];
    int maxlabel = 0;
    for (int c = 0; c < nc; c++) a->cls[c] = (int)cfg[i++];
    for (int c = 0; c < nc; c++) {
        a->label[c] = (int)cfg[i++];
        if (a->label[c] > maxlabel) maxlabel = a->label[c];
    }
    for (int c = 0; c < nc; c++) {
        a->nhigher[c] = (int)cfg[i++];
        for (int j = 0; j < a->nhigher[c]; j++) a->higher[c][j] = (int)cfg[i++];
    }
    for (int g = 0; g <= a->nsuits; g++) {
        a->norder[g] = (int)cfg[i++];
        for (int j = 0; j < a->norder[g]; j++) a->order[g][j] = (int)cfg[i++];
    }
    a->ngroups = (int)cfg[i++];
    if (a->ngroups < 0 || a->ngroups > 4 * MAXC) { free(a->strength); free(a); return NULL; }
    for (int g = 0; g < a->ngroups; g++) a->groups[g] = (u64)cfg[i++];
    a->bounds_on = (int)cfg[i++];
    if (a->bounds_on) {
        a->b_hidden = (int)cfg[i++];
        a->b_hidden_cards = (u64)cfg[i++];
        a->b_const = cfg[i++];
        for (int c = 0; c < nc; c++) {
            a->b_card[c] = cfg[i++];
            if (a->b_card[c]) a->b_card_mask |= 1ULL << c;
        }
        for (int t = 0; t < a->total; t++) a->b_trick[t] = cfg[i++];
    }
    a->label_bits = bits_for(maxlabel);
    a->seat_bits = bits_for(a->n - 1);
    int biggest = 0;
    for (int g = 0; g < a->ngroups; g++)
        if (popcount(a->groups[g]) > biggest) biggest = popcount(a->groups[g]);
    a->count_bits = bits_for(biggest);
    a->cid_bits = bits_for(nc - 1);
    a->cx = cond_ctx_new(cfg + i);
    if (!a->cx) { free(a->strength); free(a); return NULL; }
    a->cw.n = a->n;
    a->max_cap = 1024;
    while (a->max_cap < (u64)max_entries) a->max_cap <<= 1;
    if (!table_alloc(a, a->max_cap)) { cond_ctx_free(a->cx); free(a->strength); free(a); return NULL; }
    return a;
}

void ad_free(void *p) {
    Ad *a = (Ad *)p;
    if (!a) return;
    cond_ctx_free(a->cx);
    free(a->strength);
    free(a->table);
    free(a);
}

long long ad_nodes(void *p) { return ((Ad *)p)->nodes; }

/* pos: the hands (n), the trick under way (count, then seat and card per play), led, turn, the completed
 * tricks (count, then per trick its leader, winner, winning card, count and seat and card per play) */
static int load(Ad *a, const long long *pos) {
    int i = 0, n = a->n;
    for (int s = 0; s < n; s++) a->hands[s] = (u64)pos[i++];
    a->nplays = (int)pos[i++];
    if (a->nplays < 0 || a->nplays >= n) return 0;
    for (int k = 0; k < a->nplays; k++) {
        a->plays_seat[k] = (int)pos[i++];
        a->plays_cid[k] = (int)pos[i++];
    }
    a->led = (int)pos[i++];
    a->turn = (int)pos[i++];
    a->ntr = (int)pos[i++];
    if (a->ntr < 0 || a->ntr >= a->total) return 0;
    CondCtx *x = a->cx;
    for (int s = 0; s < n; s++) { a->won[s] = 0; a->cw.won_count[s] = 0; }
    for (int t = 0; t < a->ntr; t++) {
        TrickRec *rec = &x->hist[t];
        rec->leader = (int)pos[i++];
        rec->winner = (int)pos[i++];
        rec->wincard = (int)pos[i++];
        rec->nplays = (int)pos[i++];
        if (rec->nplays < 1 || rec->nplays > n || rec->winner < 0 || rec->winner >= n) return 0;
        u64 mask = 0;
        for (int k = 0; k < rec->nplays; k++) {
            rec->seat[k] = (int)pos[i++];
            rec->card[k] = (int)pos[i++];
            mask |= 1ULL << rec->card[k];
        }
        rec->mask = mask;
        rec->upto = mask | (t ? x->hist[t - 1].upto : 0);
        rec->memo_valid = 0;
        rec->serial = ++x->serials;
        rec->prev_serial = t ? x->hist[t - 1].serial : 0;
        a->won[rec->winner] |= mask;
        a->cw.won_count[rec->winner]++;
    }
    a->has_verdict = 0;
    a->stop = 0;
    return 1;
}

/* A null-window or open test of `seat`'s value from the position: AD_OK with *out the fail-soft value, or
 * AD_NODES / AD_TIME / AD_ERROR (undecided; the table keeps only what was searched to the end) */
int ad_value(void *p, const long long *pos, int seat, long long alpha, long long beta, long long max_nodes,
             double seconds, long long *out) {
    Ad *a = (Ad *)p;
    if (!load(a, pos)) return AD_ERROR;
    a->limit = a->nodes + max_nodes;
    a->deadline = seconds >= 0 ? now_seconds() + seconds : -1;
    ll v = value(a, seat, alpha, beta);
    if (a->stop) return a->stop;
    *out = v;
    return AD_OK;
}

int ad_force(void *p, const long long *pos, long long max_nodes, double seconds, long long *out) {
    Ad *a = (Ad *)p;
    if (!load(a, pos)) return AD_ERROR;
    a->limit = a->nodes + max_nodes;
    a->deadline = seconds >= 0 ? now_seconds() + seconds : -1;
    int v = force(a);
    if (a->stop) return a->stop;
    *out = v;
    return AD_OK;
}
