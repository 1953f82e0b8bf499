/* The harness's side of counting under callgrind that needs no valgrind: reading callgrind's
 * dump files back (fixed texts in the format callgrind 3.19 writes), and nb_valgrind_run's
 * argument and "no valgrind" errors. The counting itself runs under valgrind in
 * test_instructions.sh. */
#include "bench/nb_test_hooks.h"
#include "check.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/test_nb_valgrind.XXXXXX";

/* Writes text to a file in dir; returns its path (static buffer). */
static const char *write_dump(const char *name, const char *text)
{
    static char path[256];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

#define HEADER "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 42\n" \
               "cmd:  ./prog\npart: 3\n\n"

static void test_branch_sim(void)
{
    double c[NB_MEASURE_COUNT];
    unsigned has;
    const char *p = write_dump("a", HEADER
        "desc: Trigger: Client Request: nanobench 3 SHA256\n\n"
        "positions: line\nevents: Ir Bc Bcm Bi Bim\nsummary: 601080 100001 7 20 3\n\n"
        "fn=(1) op\n5 601080 100001 7 20 3\n\ntotals: 601080 100001 7 20 3\n");
    CHECK(nb_vg_read_dump(p, "nanobench 3 SHA256", c, &has) == 0);
    CHECK(has == ((1u << NB_INSTRUCTIONS) | (1u << NB_BRANCH_INSTRUCTIONS)
                  | (1u << NB_BRANCH_MISSES)));
    CHECK(c[NB_INSTRUCTIONS] == 601080);
    CHECK(c[NB_BRANCH_INSTRUCTIONS] == 100021);
    CHECK(c[NB_BRANCH_MISSES] == 10);
    CHECK(isnan(c[NB_CPU_CYCLES]));
    /* any trigger accepted with NULL; another one refused */
    CHECK(nb_vg_read_dump(p, NULL, c, &has) == 0);
    CHECK(nb_vg_read_dump(p, "nanobench 4 SHA256", c, &has) == -1);
    CHECK(nb_vg_read_dump(p, "nanobench 3 SHA25", c, &has) == -1);
    CHECK(has == 0);
}

static void test_trailing_zeros(void)
{
    /* callgrind leaves trailing zero costs out, also in the totals */
    double c[NB_MEASURE_COUNT];
    unsigned has;
    const char *p = write_dump("b", HEADER "events: Ir Bc Bcm Bi Bim\ntotals: 4000 500\n");
    CHECK(nb_vg_read_dump(p, NULL, c, &has) == 0);
    CHECK(c[NB_INSTRUCTIONS] == 4000);
    CHECK(c[NB_BRANCH_INSTRUCTIONS] == 500);
    CHECK(c[NB_BRANCH_MISSES] == 0);
    p = write_dump("c", HEADER "events: Ir Bc Bcm Bi Bim\ntotals: 0\n");
    CHECK(nb_vg_read_dump(p, NULL, c, &has) == 0);
    CHECK(c[NB_INSTRUCTIONS] == 0 && c[NB_BRANCH_INSTRUCTIONS] == 0);
}

static void test_instructions_only(void)
{
    /* without --branch-sim, and with the summary only; a cache-sim set in another order */
    double c[NB_MEASURE_COUNT];
    unsigned has;
    const char *p = write_dump("d", HEADER "events: Ir\nsummary: 12345\n");
    CHECK(nb_vg_read_dump(p, NULL, c, &has) == 0);
    CHECK(has == 1u << NB_INSTRUCTIONS);
    CHECK(c[NB_INSTRUCTIONS] == 12345 && isnan(c[NB_BRANCH_INSTRUCTIONS]));
    p = write_dump("e", HEADER "events: Dr Dw Ir\ntotals: 7 8 9\n");
    CHECK(nb_vg_read_dump(p, NULL, c, &has) == 0);
    CHECK(c[NB_INSTRUCTIONS] == 9);
}

static void test_long_lines(void)
{
    /* a function name longer than the reader's buffer, holding text that looks like a key
     * where a piece of it starts */
    double c[NB_MEASURE_COUNT];
    unsigned has;
    size_t pad = 3000, len = strlen(HEADER), start;
    char *text = malloc(len + pad + 200);
    CHECK(text != NULL);
    if (!text)
        return;
    strcpy(text, HEADER "events: Ir\ntotals: 77\n");
    start = strlen(text);
    strcat(text, "fn=(9) ");
    len = strlen(text);
    memset(text + len, 'x', pad);
    /* the reader takes 1023 bytes of a line at a time: its second piece of this line starts
     * with "totals: 1" */
    memcpy(text + start + 1023, "totals: 1", 9);
    strcpy(text + len + pad, "\n");
    CHECK(nb_vg_read_dump(write_dump("f", text), NULL, c, &has) == 0);
    CHECK(c[NB_INSTRUCTIONS] == 77);
    free(text);
}

static void test_bad_files(void)
{
    double c[NB_MEASURE_COUNT];
    unsigned has = 99;
    char missing[256];
    snprintf(missing, sizeof missing, "%s/none", dir);
    CHECK(nb_vg_read_dump(missing, NULL, c, &has) == -1 && has == 0);
    CHECK(nb_vg_read_dump(write_dump("g", "not a dump\n"), NULL, c, &has) == -1);
    CHECK(nb_vg_read_dump(write_dump("h", HEADER "events: Ir\n"), NULL, c, &has) == -1);
    CHECK(nb_vg_read_dump(write_dump("i", HEADER "events: Bc\ntotals: 5\n"), NULL, c, &has)
          == -1);
    CHECK(nb_vg_read_dump(write_dump("j", HEADER "events: Ir\ntotals: x\n"), NULL, c, &has)
          == -1);
}

static void test_run_errors(void)
{
    static char *const none[] = {NULL};
    static char *const prog[] = {(char *)"true", NULL};
    nb_valgrind_report rep;
    const char *path = getenv("PATH");
    char *saved = path ? strdup(path) : NULL;
    errno = 0;
    CHECK(nb_valgrind_run(none, NULL, &rep) == -1 && errno == EINVAL);
    CHECK(nb_valgrind_run(NULL, NULL, &rep) == -1 && errno == EINVAL);
    CHECK(nb_valgrind_run(prog, NULL, NULL) == -1 && errno == EINVAL);
    /* no valgrind in PATH: ENOENT, and nothing was run */
    CHECK(setenv("PATH", dir, 1) == 0);
    errno = 0;
    CHECK(nb_valgrind_run(prog, NULL, &rep) == -1 && errno == ENOENT);
    if (saved)
        setenv("PATH", saved, 1);
    free(saved);
}

int main(void)
{
    char cmd[300];
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_branch_sim();
    test_trailing_zeros();
    test_instructions_only();
    test_long_lines();
    test_bad_files();
    test_run_errors();
    /* outside valgrind nothing counts, whatever the build */
    CHECK(nb_valgrind_counting() == 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_finish();
}
