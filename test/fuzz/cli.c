/* Fuzz target: bench_bitcoin's command line, parsed as a function (options.h): up to 16
 * arguments, separated by NUL bytes in the input, each taken as it is (a leading '-' or not).
 *
 * Checks: the parser returns 0 or -1; -1 comes with exactly one error line, which names the
 * program and holds no control character (a newline in a value is escaped); 0 comes with
 * none, and with options inside their documented ranges; parsing the same line again gives
 * the same verdict and the same options; nothing leaks (LeakSanitizer, in the fuzz build). */
#include "fuzz.h"

#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/diag.h"
#include "bench_bitcoin/options.h"

#include <math.h>
#include <string.h>

#define MAX_ARGS 16

static char message[1024];
static char program[] = "bench_bitcoin";

/* Parses argv into o with the error line captured in message; returns the parser's status. */
static int parse(int argc, char **argv, bench_options *o)
{
    int rc;
    bench_options_init(o);
    bench_error_capture(message, sizeof message);
    rc = bench_parse_options(argc, argv, o);
    bench_error_capture(NULL, 0);
    return rc;
}

static void check_result(int rc, const bench_options *o)
{
    size_t i;
    FUZZ_CHECK(rc == 0 || rc == -1);
    if (rc != 0) {
        FUZZ_CHECK(strncmp(message, "bench_bitcoin: ", 15) == 0 && message[15] != '\0');
        for (i = 0; message[i]; i++)
            FUZZ_CHECK((unsigned char)message[i] >= 0x20 && message[i] != 0x7f);
        return;
    }
    FUZZ_CHECK(message[0] == '\0');
    FUZZ_CHECK(o->min_time_ns >= 0 && o->min_time_ns <= BENCH_MAX_MIN_TIME_NS);
    FUZZ_CHECK((o->filter == NULL) == (o->match == NULL));
    FUZZ_CHECK((o->filter == NULL) == (o->filter_hint == NULL));
    if (o->filter_hint && o->filter_hint[0]) {   /* a hint only when nothing matched */
        size_t total, k;
        bench_rows(&total);
        for (k = 0; k < total; k++)
            FUZZ_CHECK(!o->match[k]);
    }
    FUZZ_CHECK(!(o->compare && o->asymptote_count));
    for (i = 0; i < o->asymptote_count; i++)
        FUZZ_CHECK(o->asymptote[i] >= 1 && o->asymptote[i] <= BENCH_MAX_COMPLEXITY_N
                   && o->asymptote[i] == floor(o->asymptote[i]));
    for (i = 0; i < BENCH_OUTPUT_COUNT; i++)
        FUZZ_CHECK(!o->output[i] || o->output[i][0]);
    FUZZ_CHECK(o->priority != 0 && (o->priority & ~(unsigned)BENCH_PRIORITY_ALL) == 0);
    FUZZ_CHECK(o->priority_text != NULL || o->priority == BENCH_PRIORITY_ALL);
}

/* The parts of two parsed option sets that must agree. */
static int same(const bench_options *a, const bench_options *b)
{
    size_t total;
    bench_rows(&total);
    return a->filter == b->filter && a->list == b->list && a->sanity_check == b->sanity_check
           && a->help == b->help && a->compare == b->compare && a->no_pin == b->no_pin
           && a->min_time_ns == b->min_time_ns
           && memcmp(a->output, b->output, sizeof a->output) == 0
           && a->asymptote_count == b->asymptote_count
           && a->priority == b->priority && a->priority_text == b->priority_text
           && (!a->asymptote_count
               || memcmp(a->asymptote, b->asymptote,
                         a->asymptote_count * sizeof *a->asymptote) == 0)
           && (!a->match || memcmp(a->match, b->match, total) == 0)
           && (!a->filter_hint || strcmp(a->filter_hint, b->filter_hint) == 0);
}

/* The comparison options (-against, -baseline, -max-regression, -serve-protocol) of a parse
 * that succeeded: the gate only with something to compare, and never a combination the parser
 * refuses; and the same fields of a second parse. */
static void check_comparison(const bench_options *o, const bench_options *again)
{
    FUZZ_CHECK(o->max_regression == -1
               || (o->max_regression >= 0 && isfinite(o->max_regression)));
    FUZZ_CHECK(o->max_regression < 0 || o->against || o->baseline);
    FUZZ_CHECK(!o->against || !(o->compare || o->asymptote_count || o->sanity_check
                                || o->baseline || o->output[BENCH_OUTPUT_CSV]
                                || o->output[BENCH_OUTPUT_JSON]));
    FUZZ_CHECK(!o->baseline || !(o->compare || o->asymptote_count || o->sanity_check
                                 || o->instructions));
    FUZZ_CHECK(o->against == again->against && o->baseline == again->baseline
               && o->max_regression == again->max_regression && o->serve == again->serve
               && o->instructions == again->instructions);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *argv[MAX_ARGS + 2];
    bench_options first, again;
    int argc = 1, rc;
    size_t i, start = 0;

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    argv[0] = program;
    for (i = 0; i <= size && argc <= MAX_ARGS; i++) {
        if (text[i] == '\0') {
            argv[argc++] = text + start;
            start = i + 1;
        }
    }
    argv[argc] = NULL;

    rc = parse(argc, argv, &first);
    check_result(rc, &first);
    FUZZ_CHECK(parse(argc, argv, &again) == rc);
    FUZZ_CHECK(rc != 0 || same(&first, &again));
    if (rc == 0)
        check_comparison(&first, &again);
    bench_options_free(&first);
    bench_options_free(&again);
    free(text);
    return 0;
}
