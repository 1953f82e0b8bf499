/* Fuzz target: cluster linearization (src/cluster/cluster.h) on graphs the input builds.
 *
 * Input: a byte choosing the set width (64, 128, 256 or 512 bits; at most 80 items in any,
 * so that the slow method stays quick), 8 bytes
 * of seed, a byte choosing a cost budget (unbounded, or small), then the graph in Core's
 * DepGraphFormatter serialization (cluster_graph_deserialize, which takes any bytes).
 * Checks: the result is a linearization; unbounded, it is said optimal; when said optimal, its
 * diagram is the one the independent max-flow method (test/cluster_ref.c) finds, and never
 * above it; the
 * same seed gives the same order and cost; starting from the result changes nothing for the
 * worse; PostLinearize never worsens an order and keeps it a linearization. */
#include "fuzz.h"

#include "../cluster_ref.h"
#include "cluster/cluster.h"

#include <string.h>

#define MAX_ITEMS 80

static int no_worse(const cluster_feefrac *a, size_t na, const cluster_feefrac *b, size_t nb)
{
    int c = cluster_diagram_cmp(a, na, b, nb);
    return c == 0 || c == 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned caps[] = {64, 128, 256, 512};
    fuzz_input in;
    unsigned cap, n, i, lin[CLUSTER_MAX_TX], lin2[CLUSTER_MAX_TX], post[CLUSTER_MAX_TX];
    uint64_t seed, budget;
    cluster_feefrac ch[CLUSTER_MAX_TX], ref[CLUSTER_MAX_TX], pch[CLUSTER_MAX_TX];
    size_t nch, nref, npch, got;
    cluster_linearize_info info, info2;
    const uint8_t *rest;
    cluster_graph *g;
    fuzz_init(&in, data, size);
    cap = caps[fuzz_u8(&in) % 4];
    seed = fuzz_u64(&in);
    budget = fuzz_u8(&in);
    budget = budget < 128 ? UINT64_MAX : (budget - 127) * 500;
    rest = fuzz_bytes(&in, in.left, &got);
    {
        /* Read at most MAX_ITEMS (64 for the 64-bit width), then copy into a graph of the
         * chosen width. */
        cluster_graph *r = cluster_graph_deserialize(rest, got, cap < MAX_ITEMS ? cap : MAX_ITEMS,
                                                     NULL);
        unsigned j;
        if (r == NULL)
            return 0; /* sizes past INT32_MAX */
        n = cluster_graph_count(r);
        g = cluster_graph_new(cap);
        FUZZ_CHECK(g != NULL);
        for (i = 0; i < n; i++) {
            cluster_feefrac f = cluster_graph_feerate(r, i);
            FUZZ_CHECK(cluster_graph_add(g, f.fee, f.size) == (int)i);
        }
        for (i = 0; i < n; i++) {
            for (j = 0; j < n; j++) {
                if (cluster_graph_is_ancestor(r, j, i))
                    FUZZ_CHECK(cluster_graph_add_dependency(g, j, i) == 0);
            }
        }
        cluster_graph_free(r);
    }

    FUZZ_CHECK(cluster_linearize(g, budget, seed, NULL, lin, &info) == 0);
    FUZZ_CHECK(cluster_is_linearization(g, lin, n));
    nch = cluster_chunk(g, lin, ch);
    nref = cluster_ref_optimal(g, ref);
    if (budget == UINT64_MAX)
        FUZZ_CHECK(info.optimal);
    if (info.optimal)
        FUZZ_CHECK(cluster_diagram_cmp(ch, nch, ref, nref) == 0);
    else
        FUZZ_CHECK(no_worse(ref, nref, ch, nch));
    FUZZ_CHECK(cluster_linearize(g, budget, seed, NULL, lin2, &info2) == 0);
    FUZZ_CHECK(info2.cost == info.cost && memcmp(lin, lin2, n * sizeof(unsigned)) == 0);

    /* From the result as the old order: never worse. */
    FUZZ_CHECK(cluster_linearize(g, budget, seed ^ 1, lin, lin2, &info2) == 0);
    FUZZ_CHECK(cluster_is_linearization(g, lin2, n));
    npch = cluster_chunk(g, lin2, pch);
    FUZZ_CHECK(no_worse(pch, npch, ch, nch));

    /* PostLinearize of the index order (a linearization: the reader gives items in position
     * order, which need not be topological, so sort topologically by ancestor count first). */
    for (i = 0; i < n; i++)
        post[i] = i;
    for (i = 1; i < n; i++) { /* insertion sort by number of ancestors */
        unsigned x = post[i], j = i, ax = 0, k;
        for (k = 0; k < n; k++)
            ax += (unsigned)cluster_graph_is_ancestor(g, k, x);
        while (j > 0) {
            unsigned ay = 0;
            for (k = 0; k < n; k++)
                ay += (unsigned)cluster_graph_is_ancestor(g, k, post[j - 1]);
            if (ay <= ax)
                break;
            post[j] = post[j - 1];
            j--;
        }
        post[j] = x;
    }
    FUZZ_CHECK(cluster_is_linearization(g, post, n));
    nch = cluster_chunk(g, post, ch);
    FUZZ_CHECK(cluster_postlinearize(g, post) == 0);
    FUZZ_CHECK(cluster_is_linearization(g, post, n));
    npch = cluster_chunk(g, post, pch);
    FUZZ_CHECK(no_worse(pch, npch, ch, nch));
    FUZZ_CHECK(no_worse(ref, nref, pch, npch));
    cluster_graph_free(g);
    return 0;
}
