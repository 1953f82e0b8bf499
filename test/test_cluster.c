/* Tests for the cluster module: the graph, chunking and diagrams on known cases; Core's
 * serialization on a hand-made graph; cluster_linearize against every topological order of
 * random small clusters (many fee-rate ties) and against an independent exact method
 * (repeated densest closure by max-flow, test/cluster_ref.c) on larger ones and on Core's
 * recorded clusters; PostLinearize's guarantees; out-of-memory paths. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cluster_ref.h"
#include "cluster/cluster.h"
#include "cluster/recorded.h"
#include "util/alloc.h"

/* A random graph of n items: each depends on each earlier one with probability
 * dep_pm / 1000; fees from -neg_fee to max_fee, sizes from 1 to max_size (small ranges make
 * many equal fee rates). */
static cluster_graph *random_graph(unsigned n, unsigned cap, unsigned dep_pm, int64_t neg_fee,
                                   int64_t max_fee, int32_t max_size)
{
    cluster_graph *g = cluster_graph_new(cap);
    unsigned i, j;
    if (g == NULL)
        abort();
    for (i = 0; i < n; i++) {
        int64_t fee = (int64_t)check_rng_below((uint64_t)(max_fee + neg_fee + 1)) - neg_fee;
        int32_t size = 1 + (int32_t)check_rng_below((uint64_t)max_size);
        CHECK(cluster_graph_add(g, fee, size) == (int)i);
        for (j = 0; j < i; j++) {
            if (check_rng_below(1000) < dep_pm)
                CHECK(cluster_graph_add_dependency(g, j, i) == 0);
        }
    }
    return g;
}

/* Linearizes g (seed, unbounded cost) and checks the result is a linearization, said to be
 * optimal; returns its chunks in chunks (room for n) and their number. */
static size_t linearize_checked(const cluster_graph *g, uint64_t seed, unsigned *lin,
                                cluster_feefrac *chunks)
{
    cluster_linearize_info info;
    unsigned n = cluster_graph_count(g);
    CHECK(cluster_linearize(g, UINT64_MAX, seed, NULL, lin, &info) == 0);
    CHECK(cluster_is_linearization(g, lin, n));
    CHECK(info.optimal == 1);
    return cluster_chunk(g, lin, chunks);
}

static void test_graph(void)
{
    cluster_graph *g = cluster_graph_new(4);
    unsigned par[4];
    CHECK(cluster_graph_new(0) == NULL);
    CHECK(cluster_graph_new(CLUSTER_MAX_TX + 1) == NULL);
    CHECK(cluster_graph_count(NULL) == 0);
    CHECK(cluster_graph_add(NULL, 1, 1) == -1);
    CHECK(cluster_graph_add(g, 1, 0) == -1);
    CHECK(cluster_graph_add(g, CLUSTER_MAX_FEE + 1, 1) == -1);
    CHECK(cluster_graph_add(g, 5, 1) == 0);
    CHECK(cluster_graph_add(g, 1, 2) == 1);
    CHECK(cluster_graph_add(g, 8, 4) == 2);
    CHECK(cluster_graph_add(g, -CLUSTER_MAX_FEE, INT32_MAX - 7) == 3);
    CHECK(cluster_graph_add(g, 1, 1) == -1); /* full */
    CHECK(cluster_graph_add_dependency(g, 0, 1) == 0);
    CHECK(cluster_graph_add_dependency(g, 1, 2) == 0);
    CHECK(cluster_graph_add_dependency(g, 0, 2) == 0); /* implied: fine */
    CHECK(cluster_graph_add_dependency(g, 2, 0) == -1); /* a cycle */
    CHECK(cluster_graph_add_dependency(g, 1, 1) == -1);
    CHECK(cluster_graph_add_dependency(g, 0, 4) == -1);
    CHECK(cluster_graph_is_ancestor(g, 0, 2));
    CHECK(!cluster_graph_is_ancestor(g, 2, 0));
    CHECK(!cluster_graph_is_ancestor(g, 3, 2));
    CHECK(cluster_graph_parents(g, 2, par, 4) == 1 && par[0] == 1);
    CHECK(cluster_graph_dependency_count(g) == 2);
    CHECK(cluster_graph_feerate(g, 2).fee == 8 && cluster_graph_feerate(g, 2).size == 4);
    CHECK(cluster_graph_feerate(g, 9).size == 0);
    cluster_graph_free(g);
    g = cluster_graph_new(2);
    CHECK(cluster_graph_add(g, 1, INT32_MAX) == 0);
    CHECK(cluster_graph_add(g, 1, 1) == -1); /* the total would pass INT32_MAX */
    cluster_graph_free(g);
    cluster_graph_free(NULL);
}

static void test_chunks_and_diagrams(void)
{
    /* 0 (1/1) <- 1 (9/1); 2 (4/2) alone. */
    cluster_graph *g = cluster_graph_new(3);
    unsigned l1[3] = {0, 1, 2}, l2[3] = {2, 0, 1}, l3[3] = {1, 0, 2};
    cluster_feefrac c1[3], c2[3];
    size_t n1, n2;
    cluster_feefrac a[2] = {{10, 2}, {0, 2}}, b[1] = {{10, 4}}, c[2] = {{6, 1}, {4, 3}};
    cluster_feefrac d[2] = {{3, 1}, {7, 3}};
    cluster_graph_add(g, 1, 1);
    cluster_graph_add(g, 9, 1);
    cluster_graph_add(g, 4, 2);
    cluster_graph_add_dependency(g, 0, 1);
    CHECK(cluster_is_linearization(g, l1, 3));
    CHECK(!cluster_is_linearization(g, l3, 3));
    CHECK(!cluster_is_linearization(g, l1, 2));
    n1 = cluster_chunk(g, l1, c1);
    CHECK(n1 == 2 && c1[0].fee == 10 && c1[0].size == 2 && c1[1].fee == 4 && c1[1].size == 2);
    n2 = cluster_chunk(g, l2, c2);
    /* 2 first (rate 2) then {0, 1} (rate 5) merge into one chunk of 14/4. */
    CHECK(n2 == 1 && c2[0].fee == 14 && c2[0].size == 4);
    CHECK(cluster_diagram_cmp(c1, n1, c2, n2) == 1);
    CHECK(cluster_diagram_cmp(c2, n2, c1, n1) == -1);
    CHECK(cluster_diagram_cmp(c1, n1, c1, n1) == 0);
    /* The same line cut differently is the same diagram. */
    {
        cluster_feefrac e[2] = {{5, 2}, {5, 2}};
        CHECK(cluster_diagram_cmp(e, 2, b, 1) == 0);
    }
    CHECK(cluster_diagram_cmp(a, 2, b, 1) == 1);
    /* c rises faster then slower than d: each above the other somewhere. */
    CHECK(cluster_diagram_cmp(c, 2, d, 2) == 1);
    {
        cluster_feefrac x[2] = {{6, 1}, {0, 3}}, y[1] = {{8, 4}};
        CHECK(cluster_diagram_cmp(x, 2, y, 1) == 2);
        CHECK(cluster_diagram_cmp(y, 1, x, 2) == 2);
    }
    CHECK(cluster_feerate_cmp(a[0], b[0]) == 1);
    CHECK(cluster_feerate_cmp(c[1], d[1]) == -1);
    {
        cluster_feefrac big1 = {CLUSTER_MAX_FEE, INT32_MAX}, big2 = {CLUSTER_MAX_FEE - 1,
                                                                     INT32_MAX - 1};
        cluster_feefrac empty = {0, 0};
        CHECK(cluster_feerate_cmp(big1, big2) == -1);
        CHECK(cluster_feerate_cmp(empty, big1) == 0);
    }
    cluster_graph_free(g);
}

/* A two-item graph in Core's serialization, written by hand from its format: item 0 (size 1,
 * fee 5), item 1 (size 2, fee -2) spending it, each placed at the end; then the terminator. */
static void test_deserialize(void)
{
    static const unsigned char two[] = {0x01, 0x0a, 0x00, 0x02, 0x03, 0x00, 0x00, 0x00};
    unsigned char junk[300];
    size_t used = 0, i, k;
    cluster_graph *g = cluster_graph_deserialize(two, sizeof(two), 64, &used);
    CHECK(g != NULL && used == sizeof(two));
    CHECK(cluster_graph_count(g) == 2);
    CHECK(cluster_graph_feerate(g, 0).fee == 5 && cluster_graph_feerate(g, 0).size == 1);
    CHECK(cluster_graph_feerate(g, 1).fee == -2 && cluster_graph_feerate(g, 1).size == 2);
    CHECK(cluster_graph_is_ancestor(g, 0, 1));
    cluster_graph_free(g);
    /* Truncated: what was read completely stays. */
    g = cluster_graph_deserialize(two, 4, 64, &used);
    CHECK(g != NULL && cluster_graph_count(g) == 1 && used == 4);
    cluster_graph_free(g);
    CHECK(cluster_graph_deserialize(two, sizeof(two), 0, NULL) == NULL);
    g = cluster_graph_deserialize(NULL, 0, 64, NULL);
    CHECK(g != NULL && cluster_graph_count(g) == 0);
    cluster_graph_free(g);
    /* Random bytes: never more items than the capacity, always acyclic. */
    for (k = 0; k < 200; k++) {
        unsigned cap = 1 + (unsigned)check_rng_below(k % 2 ? 64 : 200), n, a, b;
        check_rng_fill(junk, sizeof(junk));
        for (i = 0; i < sizeof(junk); i++)
            junk[i] &= check_rng_below(4) ? 0x7f : 0xff;
        g = cluster_graph_deserialize(junk, check_rng_below(sizeof(junk)), cap, NULL);
        if (g == NULL)
            continue; /* sizes past INT32_MAX */
        n = cluster_graph_count(g);
        CHECK(n <= cap);
        for (a = 0; a < n; a++) {
            for (b = 0; b < n; b++) {
                if (cluster_graph_is_ancestor(g, a, b))
                    CHECK(!cluster_graph_is_ancestor(g, b, a));
            }
        }
        cluster_graph_free(g);
    }
}

/* Against every topological order, on random clusters of up to 8 items (some of 9 and 10,
 * dense enough to keep the orders few), fee rates tying often; and PostLinearize's result is
 * a linearization no worse than its input. */
static void test_brute_force(void)
{
    unsigned round, checked = 0;
    unsigned long orders = 0;
    for (round = 0; round < 600; round++) {
        unsigned n = 1 + round % 8, pct = (unsigned)check_rng_below(60);
        cluster_graph *g;
        unsigned lin[10], post[10];
        cluster_feefrac ch[10], pch[10];
        size_t nch, npch;
        unsigned long above = 0;
        if (round >= 560) {
            n = 9 + round % 2;
            pct = 40 + (unsigned)check_rng_below(40);
        }
        g = random_graph(n, 64, 10 * pct, round % 3 == 0 ? 3 : 0, 6, 1 + round % 4);
        nch = linearize_checked(g, check_rng_u64(), lin, ch);
        orders += cluster_ref_all_orders(g, ch, nch, &above);
        CHECKF(above == 0, "round %u: %lu orders beat the linearization", round, above);
        /* PostLinearize of a random order: a linearization at least as good. */
        {
            unsigned i, j;
            for (i = 0; i < n; i++)
                post[i] = lin[i];
            for (i = 0; i + 1 < n; i++) { /* a few random adjacent swaps that keep topology */
                j = (unsigned)check_rng_below(n - 1);
                if (!cluster_graph_is_ancestor(g, post[j], post[j + 1])) {
                    unsigned t = post[j];
                    post[j] = post[j + 1];
                    post[j + 1] = t;
                }
            }
            memcpy(lin, post, sizeof(post));
            nch = cluster_chunk(g, lin, ch);
            CHECK(cluster_postlinearize(g, post) == 0);
            CHECK(cluster_is_linearization(g, post, n));
            npch = cluster_chunk(g, post, pch);
            CHECK(cluster_diagram_cmp(pch, npch, ch, nch) >= 0 &&
                  cluster_diagram_cmp(pch, npch, ch, nch) != 2);
        }
        checked++;
        cluster_graph_free(g);
    }
    printf("brute force: %u clusters, %lu topological orders compared\n", checked, orders);
}

/* Larger random clusters of every set width, against the independent method; the same seed
 * gives the same order and cost; starting from an old linearization never ends worse. */
static void test_against_reference(void)
{
    static const unsigned sizes[] = {12, 20, 30, 45, 64, 65, 100, 128, 129, 200, 256, 257, 400,
                                     512};
    unsigned *lin = malloc(sizeof(unsigned) * CLUSTER_MAX_TX);
    unsigned *lin2 = malloc(sizeof(unsigned) * CLUSTER_MAX_TX);
    cluster_feefrac *ch = malloc(sizeof(cluster_feefrac) * CLUSTER_MAX_TX);
    cluster_feefrac *ref = malloc(sizeof(cluster_feefrac) * CLUSTER_MAX_TX);
    size_t k;
    if (!lin || !lin2 || !ch || !ref)
        abort();
    for (k = 0; k < 3 * sizeof(sizes) / sizeof(sizes[0]); k++) {
        unsigned n = sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];
        /* Sparser as they grow (about 2 dependencies an item past 100): the algorithm's
         * work grows fast with density, and Core's clusters stop at 64. */
        unsigned pm = n > 100 ? 4000 / n : 100 + (unsigned)check_rng_below(200);
        int32_t max_size = 1 + (int32_t)(k % 3) * 40;
        cluster_graph *g = random_graph(n, n, pm, k % 2 ? 100 : 0, 1000, max_size);
        cluster_linearize_info i1, i2;
        size_t nch, nref;
        uint64_t seed = check_rng_u64();
        nch = linearize_checked(g, seed, lin, ch);
        nref = cluster_ref_optimal(g, ref);
        CHECKF(cluster_diagram_cmp(ch, nch, ref, nref) == 0, "%u items: not the optimal diagram",
               n);
        CHECK(cluster_linearize(g, UINT64_MAX, seed, NULL, lin2, &i1) == 0);
        CHECK(cluster_linearize(g, UINT64_MAX, seed, NULL, lin2, &i2) == 0);
        CHECK(i1.cost == i2.cost && memcmp(lin, lin2, n * sizeof(unsigned)) == 0);
        /* From a reversed-then-postlinearized order... any linearization will do: the
         * result of a budget of 1 (little more than the first topological state). */
        CHECK(cluster_linearize(g, 1, seed, NULL, lin2, &i1) == 0);
        CHECK(cluster_is_linearization(g, lin2, n));
        CHECK(i1.optimal == 0);
        CHECK(cluster_linearize(g, UINT64_MAX, seed + 1, lin2, lin, &i2) == 0);
        CHECK(i2.optimal == 1);
        nch = cluster_chunk(g, lin, ch);
        CHECK(cluster_diagram_cmp(ch, nch, ref, nref) == 0);
        cluster_graph_free(g);
    }
    free(lin);
    free(lin2);
    free(ch);
    free(ref);
}

/* Core's recorded clusters: the sizes Core's names give, optimal within Core's budget of
 * 10,000,000 for the seeds its benchmark uses, and the independent method agrees. */
static void test_recorded(void)
{
    struct {
        const char *const *hex;
        size_t count;
        unsigned first, step;
    } sets[2];
    size_t s, i;
    sets[0].hex = cluster_recorded_historical;
    sets[0].count = cluster_recorded_historical_count;
    sets[0].first = 9;
    sets[0].step = 6;
    sets[1].hex = cluster_recorded_synthetic;
    sets[1].count = cluster_recorded_synthetic_count;
    sets[1].first = 28;
    sets[1].step = 4;
    CHECK(cluster_recorded_historical_count == 10 && cluster_recorded_synthetic_count == 20);
    CHECK(cluster_recorded_graph("0") == NULL && cluster_recorded_graph("zz") == NULL);
    CHECK(cluster_recorded_graph(NULL) == NULL);
    for (s = 0; s < 2; s++) {
        for (i = 0; i < sets[s].count; i++) {
            unsigned char buf[4096];
            size_t len = check_unhex(buf, sizeof(buf), sets[s].hex[i]), used = 0, nref, nch;
            cluster_graph *g, *g2;
            unsigned lin[64], n, seed, a, b;
            cluster_feefrac ch[64], ref[64];
            CHECK(len != (size_t)-1);
            g = cluster_graph_deserialize(buf, len, 64, &used);
            CHECK(g != NULL && used == len);
            /* cluster_recorded_graph reads the same graph. */
            g2 = cluster_recorded_graph(sets[s].hex[i]);
            CHECK(g2 != NULL && cluster_graph_count(g2) == cluster_graph_count(g));
            for (a = 0; g2 != NULL && a < cluster_graph_count(g); a++) {
                CHECK(cluster_graph_feerate(g2, a).fee == cluster_graph_feerate(g, a).fee);
                for (b = 0; b < cluster_graph_count(g); b++)
                    CHECK(cluster_graph_is_ancestor(g2, a, b) ==
                          cluster_graph_is_ancestor(g, a, b));
            }
            cluster_graph_free(g2);
            n = cluster_graph_count(g);
            CHECKF(n == sets[s].first + sets[s].step * (unsigned)(i % 10), "cluster %zu: %u tx",
                   i, n);
            nref = cluster_ref_optimal(g, ref);
            for (seed = 0; seed < 100; seed += 11) {
                cluster_linearize_info info;
                CHECK(cluster_linearize(g, 10000000, seed, NULL, lin, &info) == 0);
                CHECKF(info.optimal == 1, "cluster %zu seed %u: not optimal in budget", i, seed);
                nch = cluster_chunk(g, lin, ch);
                CHECK(cluster_diagram_cmp(ch, nch, ref, nref) == 0);
            }
            cluster_graph_free(g);
        }
    }
}

/* PostLinearize: on Core's worst case (one root, every other item its child, fee rates
 * rising) and on trees, whose result is optimal. */
static void test_postlinearize(void)
{
    unsigned round;
    for (round = 0; round < 200; round++) {
        unsigned n = 2 + (unsigned)check_rng_below(round < 100 ? 60 : 200), i, lin[256];
        int down = round % 2; /* each item one parent (a tree from the root) or one child */
        cluster_graph *g = cluster_graph_new(n);
        cluster_feefrac ch[256], ref[256];
        size_t nch, nref;
        for (i = 0; i < n; i++) {
            cluster_graph_add(g, (int64_t)check_rng_below(50), 1 + (int32_t)check_rng_below(5));
            if (i > 0 && check_rng_below(8) != 0) {
                unsigned other = (unsigned)check_rng_below(i);
                if (down)
                    cluster_graph_add_dependency(g, other, i);
            }
        }
        if (!down) { /* in-trees: each item at most one child */
            for (i = 0; i + 1 < n; i++) {
                if (check_rng_below(8) != 0)
                    cluster_graph_add_dependency(
                        g, i, i + 1 + (unsigned)check_rng_below(n - i - 1));
            }
        }
        /* A valid order: by index (every dependency points forward). */
        for (i = 0; i < n; i++)
            lin[i] = i;
        CHECK(cluster_postlinearize(g, lin) == 0);
        CHECK(cluster_is_linearization(g, lin, n));
        nch = cluster_chunk(g, lin, ch);
        nref = cluster_ref_optimal(g, ref);
        CHECKF(cluster_diagram_cmp(ch, nch, ref, nref) == 0, "tree round %u not optimal", round);
        cluster_graph_free(g);
    }
    {
        cluster_graph *g = cluster_graph_new(99);
        unsigned lin[99], i;
        for (i = 0; i < 99; i++) {
            cluster_graph_add(g, (int64_t)i + 1, 1);
            if (i > 0)
                cluster_graph_add_dependency(g, 0, i);
            lin[i] = i;
        }
        CHECK(cluster_postlinearize(g, lin) == 0);
        /* The root, then the children best first. */
        CHECK(lin[0] == 0 && lin[1] == 98 && lin[98] == 1);
        cluster_graph_free(g);
    }
    CHECK(cluster_postlinearize(NULL, NULL) == -1);
}

static void test_out_of_memory(void)
{
    cluster_graph *g = random_graph(300, 300, 10, 0, 100, 10);
    unsigned lin[300];
    int rc;
    bb_alloc_fail_after(0);
    rc = cluster_linearize(g, UINT64_MAX, 1, NULL, lin, NULL);
    CHECK(rc == -1);
    CHECK(cluster_postlinearize(g, lin) == -1);
    CHECK(cluster_graph_new(10) == NULL);
    bb_alloc_fail_after(-1);
    CHECK(cluster_linearize(g, UINT64_MAX, 1, NULL, lin, NULL) == 0);
    CHECK(cluster_linearize(NULL, UINT64_MAX, 1, NULL, lin, NULL) == -1);
    /* An old order that is not a linearization is refused. */
    lin[0] = lin[1];
    CHECK(cluster_linearize(g, UINT64_MAX, 1, lin, lin, NULL) == -1);
    cluster_graph_free(g);
}

int main(void)
{
    check_rng_init("test_cluster");
    test_graph();
    test_chunks_and_diagrams();
    test_deserialize();
    test_brute_force();
    test_against_reference();
    test_recorded();
    test_postlinearize();
    test_out_of_memory();
    return check_finish();
}
