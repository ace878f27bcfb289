/* A fixed-rule Vändåtta engine in C: the yardstick that scripts/c_yardstick.py times our
 * engine against.
 *
 * Written from docs/spec.md and docs/engine-rules.md (not from the numba kernel), for the
 * `standard` preset's rules only, 4 players, single deals, every seat playing `random`:
 *
 *   52 cards, no jokers; 7 cards each; seat 0 (förhand) moves first, play goes to seat+1.
 *   Start card: an eight is buried (another card is turned first, then the eight goes back into
 *   the talon), repeated while needed; an ace makes every player draw one card, förhand first,
 *   and förhand then plays on the ace.
 *   On an ordinary top: same suit, same rank, or any eight. On an ace: an ordinary card of its
 *   suit (no ace on ace, no eight on ace). On an eight: an ordinary card of the named suit (no
 *   eight or ace on an eight). A hand of only eights and aces has no legal play; the last card
 *   of a hand must be ordinary.
 *   An ace makes each other player draw one card, from the ace player's left, and then its
 *   player moves again on it (a new move: if it cannot play it draws as usual). An eight names
 *   a suit: `random` names the suit it holds most ordinary cards of (ties: the lowest suit).
 *   A player with no legal card draws one card at a time, at most 3, and must play the drawn
 *   card at once if it is legal (only that card); otherwise it passes. An empty talon is
 *   refilled with the discards under the top card (unlimited reshuffles); with none, nothing
 *   is drawn. Blocked: 4 turns in a row without a card played or drawn. Capped: 5,000 turns.
 *   `random`'s card: a uniformly random legal card (must_play is on: never a draw by choice).
 *   Nobody forgets the call, so there is no call penalty.
 *
 * The representation is the point of the exercise: a hand, the talon and the discards under
 * the top are 64-bit masks of card types (bit rank*4+suit, ranks A=0 .. K=12, suits 0-3),
 * legality is a few mask operations, and a draw takes a uniformly random card of the talon set
 * with one random number: the k-th set bit by pdep + tzcnt (BMI2), or a bit loop without BMI2.
 * The random stream is xoshiro256** seeded by splitmix64; a number below n is Lemire's
 * multiply-and-reject on 32 bits (exact, as the numba kernel's).
 *
 * Build: gcc -O2 -march=native -o vandatta vandatta.c
 * Run:   ./vandatta [DEALS [SEED]]   (default 1000000 deals, seed 1)
 * Prints deals per second of process CPU time and the games' statistics (one `name value` a
 * line): deals, cpu_seconds, deals_per_s, the mean and standard deviation per deal of turns,
 * cards played, cards drawn and reshuffles (turns_mean, turns_sd, ...), and the shares of
 * deals first_wins (won by seat 0, who moves first), won, blocked and capped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#define PLAYERS 4
#define HAND 7
#ifndef DRAW_LIMIT /* -DDRAW_LIMIT=2 breaks a rule: the test's control that the statistics see it */
#define DRAW_LIMIT 3
#endif
#define TURN_CAP 5000

#define FULL ((1ULL << 52) - 1)
#define SUIT_MASK(s) (0x1111111111111ULL << (s)) /* bits s, s+4, ..., s+48 */
#define RANK_MASK(r) (0xFULL << (4 * (r)))
#define ACES RANK_MASK(0)
#define EIGHTS RANK_MASK(7)
#define ORDINARY (FULL & ~ACES & ~EIGHTS)

enum { EFF_ORDINARY, EFF_ACE, EFF_EIGHT };
enum { END_WON, END_BLOCKED, END_CAPPED };

/* ---- random numbers: xoshiro256**, seeded by splitmix64 ---- */
typedef struct { uint64_t s[4]; } Rng;

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next_u64(Rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}

/* uniform in [0, n), n >= 1: Lemire's multiply-and-reject on the top 32 bits */
static inline uint32_t below(Rng *r, uint32_t n) {
    uint64_t m = (next_u64(r) >> 32) * n;
    if ((uint32_t)m < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while ((uint32_t)m < t) m = (next_u64(r) >> 32) * n;
    }
    return (uint32_t)(m >> 32);
}

/* ---- masks ---- */
static inline int popcount(uint64_t m) { return __builtin_popcountll(m); }

/* the card type of the j-th (0-based) set bit of m */
static inline int nth_bit(uint64_t m, int j) {
#if defined(__BMI2__)
    return (int)_tzcnt_u64(_pdep_u64(1ULL << j, m));
#else
    while (j-- > 0) m &= m - 1;
    return __builtin_ctzll(m);
#endif
}

static inline int random_card(Rng *r, uint64_t m) { return nth_bit(m, (int)below(r, popcount(m))); }

/* ---- one deal ---- */
typedef struct {
    uint64_t hand[PLAYERS];
    uint64_t talon;  /* the talon as a set: a draw takes a uniformly random member */
    uint64_t pile;   /* the discards under the top card */
    int top, eff, suit, rank;
    long plays, draws, reshuffles;
    Rng *rng;
} Deal;

/* one card from the talon into p's hand, reshuffling the discards if it is empty; -1: none */
static inline int draw(Deal *d, int p) {
    if (d->talon == 0) {
        if (d->pile == 0) return -1;
        d->talon = d->pile;
        d->pile = 0;
        d->reshuffles++;
    }
    int card = random_card(d->rng, d->talon);
    d->talon &= ~(1ULL << card);
    d->hand[p] |= 1ULL << card;
    d->draws++;
    return card;
}

/* the card types the top accepts, before the hand's own limits */
static inline uint64_t on_top(const Deal *d) {
    if (d->eff == EFF_ORDINARY) return SUIT_MASK(d->suit) | RANK_MASK(d->rank) | EIGHTS;
    return SUIT_MASK(d->suit) & ORDINARY; /* on an ace, and on an eight's named suit */
}

/* the cards of `accepts` that hand h (count cards) may play */
static inline uint64_t legal(uint64_t h, int count, uint64_t accepts) {
    if ((h & ORDINARY) == 0) return 0; /* only specials: the hand must draw */
    uint64_t m = accepts & h;
    if (count == 1) m &= ORDINARY;     /* never go out on an eight or an ace */
    return m;
}

/* `random`'s suit after an eight: the suit with most ordinary cards in hand, ties the lowest */
static inline int longest_suit(uint64_t h) {
    int best = 0, best_k = -1;
    for (int s = 0; s < 4; s++) {
        int k = popcount(h & SUIT_MASK(s) & ORDINARY);
        if (k > best_k) { best_k = k; best = s; }
    }
    return best;
}

/* p's move: the card it plays (from hand, or the card it just drew), -1 after a pass */
static inline int move(Deal *d, int p) {
    uint64_t accepts = on_top(d);
    int count = popcount(d->hand[p]);
    uint64_t m = legal(d->hand[p], count, accepts);
    if (m) return random_card(d->rng, m);
    for (int drawn = 0; drawn < DRAW_LIMIT; drawn++) {
        int card = draw(d, p);
        if (card < 0) break;
        count++;
        if (legal(d->hand[p], count, accepts & (1ULL << card))) return card;
    }
    return -1;
}

/* play card: 2 if the hand is now empty, 1 if p moves again (an ace), else 0 */
static inline int play(Deal *d, int p, int card) {
    d->hand[p] &= ~(1ULL << card);
    d->pile |= 1ULL << d->top;
    d->top = card;
    d->plays++;
    if (d->hand[p] == 0) return 2;
    d->suit = card & 3;
    d->rank = card >> 2;
    if (d->rank == 0) { /* ace: everyone else draws one, from p's left; p moves again */
        d->eff = EFF_ACE;
        for (int i = 1; i < PLAYERS; i++) draw(d, (p + i) % PLAYERS);
        return 1;
    }
    if (d->rank == 7) { /* eight: p names a suit */
        d->eff = EFF_EIGHT;
        d->suit = longest_suit(d->hand[p]);
        return 0;
    }
    d->eff = EFF_ORDINARY;
    return 0;
}

/* one deal: the winner (-1 blocked or capped), its end reason and turns */
static int play_deal(Deal *d, int *reason, int *turns_out) {
    d->talon = FULL;
    d->pile = 0;
    for (int p = 0; p < PLAYERS; p++) {
        d->hand[p] = 0;
        for (int i = 0; i < HAND; i++) draw(d, p);
    }
    d->draws = 0; /* the deal's cards are not draws */
    int card = random_card(d->rng, d->talon);
    d->talon &= ~(1ULL << card);
    while ((1ULL << card) & EIGHTS && d->talon) { /* bury a start eight: turn another first */
        int again = random_card(d->rng, d->talon);
        d->talon = (d->talon & ~(1ULL << again)) | (1ULL << card);
        card = again;
    }
    d->top = card;
    d->suit = card & 3;
    d->rank = card >> 2;
    d->eff = d->rank == 0 ? EFF_ACE : EFF_ORDINARY;
    if (d->rank == 0)
        for (int p = 0; p < PLAYERS; p++) draw(d, p); /* these count as draws */
    int p = 0, idle = 0, turns = 0;
    while (turns < TURN_CAP) {
        turns++;
        long plays = d->plays, draws = d->draws;
        int status = 1;
        while (status == 1) {
            int c = move(d, p);
            status = c >= 0 ? play(d, p, c) : 0;
        }
        if (status == 2) { *reason = END_WON; *turns_out = turns; return p; }
        idle = (d->plays == plays && d->draws == draws) ? idle + 1 : 0;
        if (idle >= PLAYERS) { *reason = END_BLOCKED; *turns_out = turns; return -1; }
        p = (p + 1) % PLAYERS;
    }
    *reason = END_CAPPED;
    *turns_out = turns;
    return -1;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* mean and sample standard deviation of n values from their sum and sum of squares */
static void print_mean_sd(const char *name, double sum, double sq, long n) {
    double mean = sum / n, var = n > 1 ? (sq - sum * mean) / (n - 1) : 0;
    printf("%s_mean %.6f\n%s_sd %.6f\n", name, mean, name, sqrt(var > 0 ? var : 0));
}

int main(int argc, char **argv) {
    long deals = argc > 1 ? atol(argv[1]) : 1000000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (deals < 1) { fprintf(stderr, "usage: %s [DEALS [SEED]]\n", argv[0]); return 2; }
    Rng rng;
    for (int i = 0; i < 4; i++) rng.s[i] = splitmix64(&seed);
    long first_wins = 0, ends[3] = {0, 0, 0};
    /* per deal: turns, plays, draws, reshuffles; their sums and sums of squares */
    double sum[4] = {0, 0, 0, 0}, sq[4] = {0, 0, 0, 0};
    double t0 = cpu_seconds();
    for (long g = 0; g < deals; g++) {
        Deal d = {.rng = &rng};
        int reason, turns;
        int winner = play_deal(&d, &reason, &turns);
        first_wins += winner == 0;
        ends[reason]++;
        double x[4] = {turns, d.plays, d.draws, d.reshuffles};
        for (int i = 0; i < 4; i++) { sum[i] += x[i]; sq[i] += x[i] * x[i]; }
    }
    double seconds = cpu_seconds() - t0;
    printf("deals %ld\n", deals);
    printf("cpu_seconds %.6f\n", seconds);
    printf("deals_per_s %.1f\n", deals / seconds);
    const char *names[4] = {"turns", "plays", "draws", "reshuffles"};
    for (int i = 0; i < 4; i++) print_mean_sd(names[i], sum[i], sq[i], deals);
    printf("first_wins %.6f\n", (double)first_wins / deals);
    printf("won %.6f\n", (double)ends[END_WON] / deals);
    printf("blocked %.6f\n", (double)ends[END_BLOCKED] / deals);
    printf("capped %.6f\n", (double)ends[END_CAPPED] / deals);
    return 0;
}
