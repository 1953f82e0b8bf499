/* seq_sim: -against's stopping rule (sequential.h) replayed on recorded rounds.
 *
 *   BENCH_BITCOIN_AGAINST_DUMP=rounds.txt bench_bitcoin -against=... -filter=...   (record)
 *   seq_sim rounds.txt ROW [PLANT_PCT [SIMS [SEED]]]                               (replay)
 *
 * The recording holds, per run of bench_bitcoin, every round of every row to its cap (the
 * hook measures every look): name, round, pair, this build's and the other's ns per unit.
 * A pair's rounds in one run form a block (its process-level difference and its order of
 * builds stay together). Each simulated comparison draws eight blocks of ROW at random, with
 * replacement, and negates each one's log ratios or not at random: two processes of one build
 * are exchangeable, so the truth is "no difference" whatever the recording's sample mean;
 * then makes this build PLANT_PCT percent slower (default 0), and runs
 * the looks as -against does for a single row: the interval at each look at the union
 * bound's confidence, stopping at the first verdict. Prints how often each verdict came and
 * the rounds at the stop (median, 90th percentile). Exit 2 on bad input. */
#include "bench_bitcoin/clustered.h"
#include "bench_bitcoin/sequential.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAIRS 8
#define MAX_BLOCKS 4096
#define BLOCK_ROUNDS 128          /* 1024 rounds over 8 pairs */
#define MAX_SIMS 100000

typedef struct {
    double d[BLOCK_ROUNDS];       /* log(other / this) per round of the pair, in order */
    size_t n;
} block;

static block blocks[MAX_BLOCKS];
static size_t nblocks;
/* The design compared (SEQ_SIM_TRIM, SEQ_SIM_GROWTH in the environment): each pair's
 * reduction, and the factor between looks (the product's, sequential.h, by default). */
static double trim = -1;
static size_t growth = BENCH_SEQ_GROWTH;
static double last_share = BENCH_SEQ_LAST_SHARE;   /* SEQ_SIM_LAST */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Reads ROW's rounds from path into blocks (a run starts where round 0 comes again). 0, or
 * -1 after one line on stderr. */
static int load(const char *path, const char *row)
{
    FILE *f = fopen(path, "r");
    char name[256];
    size_t round, pair, base = 0, runs = 0;
    double self, other;
    if (!f) {
        fprintf(stderr, "seq_sim: cannot open '%s'\n", path);
        return -1;
    }
    while (fscanf(f, "%255s %zu %zu %lg %lg", name, &round, &pair, &self, &other) == 5) {
        block *b;
        if (strcmp(name, row) != 0)
            continue;
        if (round == 0) {
            base = nblocks;
            runs++;
        }
        if (pair >= PAIRS || base + PAIRS > MAX_BLOCKS || !(self > 0 && other > 0)) {
            fprintf(stderr, "seq_sim: '%s': a round out of range\n", path);
            fclose(f);
            return -1;
        }
        if (base + pair >= nblocks)
            nblocks = base + PAIRS;
        b = &blocks[base + pair];
        if (b->n < BLOCK_ROUNDS)
            b->d[b->n++] = log(other / self);
    }
    fclose(f);
    if (nblocks == 0) {
        fprintf(stderr, "seq_sim: no rounds of '%s' in '%s'\n", row, path);
        return -1;
    }
    fprintf(stderr, "seq_sim: %s: %zu runs, %zu blocks\n", row, runs, nblocks);
    return 0;
}

/* Per verdict, how many comparisons stopped at each look. */
static size_t at_look[4][BENCH_SEQ_MAX_LOOKS];

/* One simulated comparison: its verdict, the rounds at its stop into *rounds. */
static bench_seq_verdict simulate(double shift, double equivalence, size_t *rounds)
{
    static double self[PAIRS * BLOCK_ROUNDS], other[PAIRS * BLOCK_ROUNDS];
    static size_t pair[PAIRS * BLOCK_ROUNDS];
    size_t looks[BENCH_SEQ_MAX_LOOKS], nlooks, k, r, avail = BLOCK_ROUNDS;
    const block *pick[PAIRS];
    double sign[PAIRS];
    bench_seq_verdict v = BENCH_SEQ_UNDECIDED;
    for (k = 0; k < PAIRS; k++) {
        uint64_t x = rng_next();
        pick[k] = &blocks[(x >> 1) % nblocks];
        sign[k] = x & 1 ? -1 : 1;
        if (pick[k]->n < avail)
            avail = pick[k]->n;
    }
    nlooks = bench_seq_schedule(avail * PAIRS, growth, looks);
    for (r = 0; r < avail * PAIRS; r++) {
        pair[r] = r % PAIRS;
        self[r] = 1;
        other[r] = exp(sign[r % PAIRS] * pick[r % PAIRS]->d[r / PAIRS] - shift);
    }
    for (k = 0; k < nlooks && v == BENCH_SEQ_UNDECIDED; k++) {
        nb_ratio ratio;
        *rounds = looks[k];
        double c = bench_seq_look_confidence(0.95, 1, nlooks, k, last_share);
        if (bench_clustered_ratio_trimmed(other, self, pair, looks[k], PAIRS, trim, 1, c,
                                          &ratio) == 0)
            v = bench_seq_decide(&ratio, equivalence);
    }
    at_look[v][k - 1]++;
    return v;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    static size_t stops[MAX_SIMS];
    size_t count[4] = {0, 0, 0, 0}, i, sims;
    double plant;
    if (argc < 3 || argc > 6) {
        fprintf(stderr, "usage: seq_sim ROUNDS_FILE ROW [PLANT_PCT [SIMS [SEED]]]\n");
        return 2;
    }
    plant = argc > 3 ? atof(argv[3]) : 0;
    sims = argc > 4 ? (size_t)atol(argv[4]) : 2000;
    rng_state = argc > 5 ? (uint64_t)atoll(argv[5]) : 1;
    if (sims == 0 || sims > MAX_SIMS || !(plant > -50 && plant < 100)) {
        fprintf(stderr, "seq_sim: bad PLANT_PCT or SIMS\n");
        return 2;
    }
    if (getenv("SEQ_SIM_TRIM"))
        trim = atof(getenv("SEQ_SIM_TRIM"));
    if (getenv("SEQ_SIM_GROWTH"))
        growth = (size_t)atol(getenv("SEQ_SIM_GROWTH"));
    if (getenv("SEQ_SIM_LAST"))
        last_share = atof(getenv("SEQ_SIM_LAST"));
    if (trim < 0)
        trim = 0.25;
    if (!(trim <= 0.5) || growth < 2 || !(last_share > 0 && last_share < 1)) {
        fprintf(stderr, "seq_sim: bad SEQ_SIM_TRIM, SEQ_SIM_GROWTH or SEQ_SIM_LAST\n");
        return 2;
    }
    if (load(argv[1], argv[2]) != 0)
        return 2;
    for (i = 0; i < sims; i++)
        count[simulate(log1p(plant / 100), 1, &stops[i])]++;
    qsort(stops, sims, sizeof *stops, cmp_size);
    printf("trim %g growth %zu last %g: ", trim, growth, last_share);
    printf("%s plant %g%%: %zu sims: slower %.3f faster %.3f within %.3f undecided %.3f; "
           "rounds at the stop: median %zu, 90th percentile %zu\n", argv[2], plant, sims,
           (double)count[BENCH_SEQ_SLOWER] / (double)sims,
           (double)count[BENCH_SEQ_FASTER] / (double)sims,
           (double)count[BENCH_SEQ_WITHIN] / (double)sims,
           (double)count[BENCH_SEQ_UNDECIDED] / (double)sims, stops[sims / 2],
           stops[sims * 9 / 10]);
    for (i = 0; i < 4; i++) {
        size_t k;
        static const char *const verdicts[4] = {"undecided", "faster", "slower", "within"};
        printf("  %-9s stopped at each look:", verdicts[i]);
        for (k = 0; k < BENCH_SEQ_MAX_LOOKS; k++)
            printf(" %zu", at_look[i][k]);
        putchar('\n');
    }
    return 0;
}
