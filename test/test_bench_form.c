/* bench_bitcoin's benchmark form (src/bench_bitcoin/bench.h) and its registry: the runner's
 * half of the contract on test definitions (a zeroed state of state_size bytes, setup with
 * the row's n, the op run, teardown once, also after a failed setup, batch and unit on the
 * result, the per-epoch and per-iteration setups, a pin put back), and the rows the registry
 * makes from the suite's tables (sorted, unique, pinned rows named and available as their
 * variant is). */
#include "bench_bitcoin/bench.h"
#include "check.h"
#include "crypto/variant.h"

#include <string.h>

typedef struct {
    int zeroed;            /* the state was all zero when setup saw it */
    double n;              /* the n setup got */
    uint64_t iterations;   /* op_n's iterations, summed */
    int epoch_setups, iteration_setups;
    int fail_setup;
} probe_state;

static int teardowns;
static const char *pinned_while_running;   /* SHA-256's variant seen by the op */

static int probe_setup(void *state, double n)
{
    probe_state *s = state;
    static const probe_state zero;
    s->zeroed = memcmp(s, &zero, sizeof zero) == 0;
    s->n = n;
    return 0;
}

static int failing_setup(void *state, double n)
{
    (void)state;
    (void)n;
    return -1;
}

static void probe_op_n(void *state, uint64_t iters)
{
    probe_state *s = state;
    s->iterations += iters;
    pinned_while_running = crypto_variant_current(crypto_variant_set_find("sha256"));
}

static probe_state last;   /* the state as teardown saw it */

static void probe_teardown(void *state)
{
    teardowns++;
    if (state)
        last = *(probe_state *)state;
}

static void count_epoch(void *state)
{
    ((probe_state *)state)->epoch_setups++;
}

static void count_iteration(void *state)
{
    ((probe_state *)state)->iteration_setups++;
}

/* A bench that runs few short epochs and prints nothing. */
static nb_bench *quiet_bench(void)
{
    nb_bench *b = nb_bench_new();
    nb_output(b, NULL);
    nb_epochs(b, 3);
    nb_epoch_iterations(b, 4);
    nb_name(b, "Probe");
    return b;
}

static void test_run(void)
{
    static const bench_def def = {.name = "Probe", .state_size = sizeof(probe_state),
                                  .setup = probe_setup, .op_n = probe_op_n,
                                  .teardown = probe_teardown, .epoch_setup = count_epoch,
                                  .batch = 64, .unit = "byte", .complexity_n = 800};
    bench_row row;
    nb_bench *b = quiet_bench();
    const nb_result *r;

    memset(&row, 0, sizeof row);
    strcpy(row.name, "Probe");
    row.def = &def;
    teardowns = 0;
    CHECK(bench_row_run(&row, b) == 0);
    CHECK(teardowns == 1);
    CHECK(last.zeroed && last.n == 800);     /* no -asymptote: the row's default n */
    CHECK(last.iterations == 12);            /* 3 epochs of 4 */
    CHECKF(last.epoch_setups >= 3, "%d epoch setups for 3 epochs", last.epoch_setups);
    CHECK(nb_result_count(b) == 1);
    r = nb_result_at(b, 0);
    CHECK(r && nb_result_batch(r) == 64 && strcmp(nb_result_unit(r), "byte") == 0);

    /* the complexity N given is the one setup sees */
    nb_complexity_n(b, 25);
    CHECK(bench_row_run(&row, b) == 0);
    CHECK(last.n == 25);
    nb_bench_free(b);
}

static void test_iteration_setup(void)
{
    static const bench_def def = {.name = "ProbeEach", .state_size = sizeof(probe_state),
                                  .setup = probe_setup, .op_n = probe_op_n,
                                  .teardown = probe_teardown,
                                  .iteration_setup = count_iteration};
    bench_row row;
    nb_bench *b = quiet_bench();
    memset(&row, 0, sizeof row);
    strcpy(row.name, "ProbeEach");
    row.def = &def;
    CHECK(bench_row_run(&row, b) == 0);
    CHECK(last.iterations == 12);
    CHECKF(last.iteration_setups >= 12, "%d setups for 12 iterations", last.iteration_setups);
    CHECK(last.n < 0);                       /* a row that reads no n gets none */
    nb_bench_free(b);
}

static void test_failed_setup(void)
{
    static const bench_def def = {.name = "Broken", .state_size = sizeof(probe_state),
                                  .setup = failing_setup, .op_n = probe_op_n,
                                  .teardown = probe_teardown};
    char message[256];
    bench_row row;
    void *state = (void *)&row;
    nb_bench *b = quiet_bench();
    memset(&row, 0, sizeof row);
    strcpy(row.name, "Broken");
    row.def = &def;
    teardowns = 0;
    bench_error_capture(message, sizeof message);
    CHECK(bench_row_run(&row, b) == -1);
    bench_error_capture(NULL, 0);
    CHECK(teardowns == 1);                   /* teardown frees what a failed setup made */
    CHECK(strcmp(message, "bench_bitcoin: Broken: out of memory") == 0);
    CHECK(nb_result_count(b) == 0);
    bench_error_capture(message, sizeof message);
    CHECK(bench_state_new(&def, "Broken", -1, &state) == -1 && state == NULL);
    bench_error_capture(NULL, 0);
    nb_bench_free(b);
}

static void test_pin(void)
{
    static const bench_def def = {.name = "ProbePinned", .state_size = sizeof(probe_state),
                                  .op_n = probe_op_n, .family = "sha256"};
    const crypto_variant_set *set = crypto_variant_set_find("sha256");
    char automatic[128];
    bench_row row;
    nb_bench *b = quiet_bench();
    crypto_autodetect();
    snprintf(automatic, sizeof automatic, "%s", crypto_variant_current(set));
    memset(&row, 0, sizeof row);
    strcpy(row.name, "ProbePinned_STANDARD");
    row.def = &def;
    row.pin = "standard";
    CHECK(bench_row_available(&row));
    CHECK(bench_row_run(&row, b) == 0);
    CHECK(pinned_while_running && strcmp(pinned_while_running, "standard") == 0);
    CHECK(strcmp(crypto_variant_current(set), automatic) == 0);   /* put back */
    row.pin = "no-such-variant";
    CHECK(!bench_row_available(&row));
    nb_bench_free(b);
}

static void test_registry(void)
{
    size_t n, i, pinned = 0;
    const bench_row *rows = bench_rows(&n);
    CHECK(n > 0);
    for (i = 0; i < n; i++) {
        CHECK(rows[i].def && rows[i].def->op_n && rows[i].name[0]);
        if (i > 0)
            CHECKF(strcmp(rows[i - 1].name, rows[i].name) < 0, "%s before %s",
                   rows[i - 1].name, rows[i].name);
        CHECK(bench_row_find(rows[i].name) == &rows[i]);
        if (rows[i].pin) {
            /* <NAME>_<SUFFIX>, the def's name then one of its pins' suffixes */
            size_t len = strlen(rows[i].def->name);
            pinned++;
            CHECK(strncmp(rows[i].name, rows[i].def->name, len) == 0
                  && rows[i].name[len] == '_');
            CHECK(crypto_variant_set_find(rows[i].def->family) != NULL);
        }
    }
    CHECK(pinned >= 3);   /* SHA256's, SHA256_32b's, SHA256D64_1024's _STANDARD at least */
    CHECK(bench_row_find("SHA256_STANDARD")
          && bench_row_available(bench_row_find("SHA256_STANDARD")));
    CHECK(bench_row_find("NoSuchRow") == NULL && bench_row_find(NULL) == NULL);
}

int main(void)
{
    check_rng_init("test_bench_form");
    test_run();
    test_iteration_setup();
    test_failed_setup();
    test_pin();
    test_registry();
    return check_finish();
}
