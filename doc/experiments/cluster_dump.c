/* Prints Core's recorded benchmark clusters (src/cluster/recorded.c) in cluster-linearize's
 * input format, each after a line "# NAME_<n>tx_<m>dep" (Core's row name) and followed by a
 * blank line; with -costs, instead one line per cluster and seed 0..99: "NAME SEED COST" and
 * the linearization, for checking that another implementation draws the same choices.
 * Built and used by doc/experiments/cluster_side_by_side.sh. */
#include <stdio.h>
#include <string.h>

#include "cluster/cluster.h"
#include "cluster/recorded.h"

int main(int argc, char **argv)
{
    static const char *const names[2] = {"Historical", "Synthetic"};
    const char *const *sets[2] = {cluster_recorded_historical, cluster_recorded_synthetic};
    size_t counts[2] = {cluster_recorded_historical_count, cluster_recorded_synthetic_count};
    int costs = argc > 1 && strcmp(argv[1], "-costs") == 0;
    size_t s, k;
    for (s = 0; s < 2; s++) {
        for (k = 0; k < counts[s]; k++) {
            cluster_graph *g = cluster_recorded_graph(sets[s][k]);
            unsigned n = cluster_graph_count(g), i, j, par[64], np, lin[64];
            char name[64];
            snprintf(name, sizeof(name), "%s_%utx_%udep", names[s], n,
                     cluster_graph_dependency_count(g));
            if (costs) {
                uint64_t seed;
                for (seed = 0; seed < 100; seed++) {
                    cluster_linearize_info info;
                    cluster_linearize(g, 10000000, seed, NULL, lin, &info);
                    printf("%s %llu %llu", name, (unsigned long long)seed,
                           (unsigned long long)info.cost);
                    for (i = 0; i < n; i++)
                        printf(" %u", lin[i]);
                    printf("\n");
                }
            } else {
                printf("# %s\n", name);
                for (i = 0; i < n; i++) {
                    cluster_feefrac f = cluster_graph_feerate(g, i);
                    printf("%lld %ld", (long long)f.fee, (long)f.size);
                    np = cluster_graph_parents(g, i, par, 64);
                    for (j = 0; j < np; j++)
                        printf(" %u", par[j]);
                    printf("\n");
                }
                printf("\n");
            }
            cluster_graph_free(g);
        }
    }
    return 0;
}
