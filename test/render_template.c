/* Renders the harness's built-in templates over one set of small benchmarks, for the tests
 * that check an output with the tool that reads it (test/test_outputs.sh):
 *   test/render_template BATCH TEMPLATE=FILE...      TEMPLATE: pyperf gbench html json csv
 * Three benchmarks of one title ("a", "b", "c": a loop of 100, 200 and 400 steps), each with
 * the batch given (a fraction makes pyperf's template fail, as it should), and one of another
 * title and unit ("d", batch 64 bytes). Exit 0, or 1 after a message on stderr. */
#include "bench/nanobench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void loop_op(void *arg)
{
    unsigned n = *(const unsigned *)arg, i, x = 0;
    for (i = 0; i < n; ++i) {
        x += i;
        nb_do_not_optimize_away(x);
    }
}

static const char *template_named(const char *name, size_t len)
{
    static const struct {
        const char *name;
        const char *(*tmpl)(void);
    } all[] = {
        {"pyperf", nb_templ_pyperf}, {"gbench", nb_templ_gbench}, {"html", nb_templ_html},
        {"json", nb_templ_json}, {"csv", nb_templ_csv},
    };
    size_t i;
    for (i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (strlen(all[i].name) == len && memcmp(all[i].name, name, len) == 0)
            return all[i].tmpl();
    return NULL;
}

int main(int argc, char **argv)
{
    static unsigned steps[] = {100, 200, 400, 50};
    static const char *const names[] = {"a", "b", "c"};
    char msg[256];
    double batch;
    nb_bench *b;
    int i, status = 0;

    if (argc < 3) {
        fputs("usage: render_template BATCH TEMPLATE=FILE...\n", stderr);
        return 1;
    }
    batch = strtod(argv[1], NULL);
    b = nb_bench_new();
    if (!b) {
        fputs("render_template: out of memory\n", stderr);
        return 1;
    }
    nb_performance_counters(nb_output(nb_min_epoch_time(b, 200000), NULL), 0);
    nb_title(b, "loops");
    for (i = 0; i < 3; ++i)
        nb_run(nb_batch(nb_name(b, names[i]), batch), loop_op, &steps[i]);
    nb_run(nb_unit(nb_batch(nb_title(nb_name(b, "d"), "bytes"), 64), "byte"), loop_op,
           &steps[3]);
    for (i = 2; i < argc; ++i) {
        const char *eq = strchr(argv[i], '='), *tmpl;
        FILE *f;
        tmpl = eq ? template_named(argv[i], (size_t)(eq - argv[i])) : NULL;
        if (!tmpl) {
            fprintf(stderr, "render_template: '%s' is not TEMPLATE=FILE\n", argv[i]);
            status = 1;
            continue;
        }
        f = fopen(eq + 1, "w");
        if (!f) {
            perror(eq + 1);
            status = 1;
            continue;
        }
        if (nb_render_diag(tmpl, b, f, msg, sizeof msg) != 0) {
            fprintf(stderr, "render_template: %s\n", msg);
            status = 1;
        }
        if (fclose(f) != 0)
            status = 1;
    }
    nb_bench_free(b);
    return status;
}
