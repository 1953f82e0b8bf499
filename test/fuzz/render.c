/* Fuzz target: nb_render (src/bench/nb_render.c) expanding arbitrary templates over fixed
 * results: a bench with one result and one with three (names with quotes, control bytes and
 * invalid UTF-8, context values, a complexity N), measured on a fake clock so that a finding
 * replays the same way. The first input byte picks the bench and whether, and after how many
 * allocations, memory runs out; the rest is the template (up to its first NUL).
 *
 * Checks: 0, or -1 with errno EINVAL or ENOMEM (ENOMEM only when memory was made to run out)
 * and nothing written; the same template renders the same bytes every time, also when a
 * render with memory running out succeeded; a template without "{{" is copied as it is. */
#include "fuzz.h"

#include "bench/nanobench.h"
#include "bench/nb_test_hooks.h"
#include "util/alloc.h"

#include <errno.h>
#include <string.h>

static nb_bench *benches[2];
static uint64_t fake_ns;

static uint64_t fake_now(void *ctx)
{
    (void)ctx;
    return fake_ns;
}

static void fake_op(void *arg)
{
    fake_ns += 1 + (size_t)arg % 7 * 1000;
}

static nb_bench *make_bench(size_t results)
{
    static const char *const names[] = {
        "plain", "quote \" back \\ nl \n tab \t", "ctl \001 del \177 bad \xff utf8 \xc3\xa9",
    };
    nb_bench *b = nb_bench_new();
    size_t i;
    if (!b)
        abort();
    nb_output(nb_performance_counters(b, 0), NULL);
    nb_test_set_clock(b, fake_now, NULL, 20);
    nb_epochs(nb_epoch_iterations(b, 3), 5);
    nb_context(b, "key", "value <&'\">");
    for (i = 0; i < results; i++) {
        nb_complexity_n(nb_name(nb_unit(b, i ? "byte" : "op"), names[i]), (double)(i * 10));
        nb_batch(b, (double)(i + 1));
        nb_run(b, fake_op, (void *)(uintptr_t)i);
    }
    if (nb_result_count(b) != results)
        abort();
    return b;
}

/* Renders tmpl over b into *out (malloc'ed, *len bytes); returns nb_render's status with
 * errno in *err. */
static int render(const char *tmpl, const nb_bench *b, char **out, size_t *len, int *err)
{
    FILE *f = open_memstream(out, len);
    int rc;
    if (!f)
        abort();
    errno = 0;
    rc = nb_render(tmpl, b, f);
    *err = errno;
    if (fclose(f) != 0)
        abort();
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    char *tmpl, *want = NULL, *got = NULL;
    size_t want_len = 0, got_len = 0, tlen;
    const uint8_t *text;
    int rc, first, err, inject;
    unsigned choice;
    const nb_bench *b;

    if (!benches[0]) {
        benches[0] = make_bench(1);
        benches[1] = make_bench(3);
    }
    fuzz_init(&in, data, size);
    choice = fuzz_u8(&in);
    b = benches[choice & 1];
    inject = (choice >> 1) & 1;
    text = fuzz_bytes(&in, in.left, &tlen);
    if (!(tmpl = malloc(tlen + 1)))
        return 0;
    memcpy(tmpl, text, tlen);
    tmpl[tlen] = '\0';

    first = render(tmpl, b, &want, &want_len, &err);
    FUZZ_CHECK(first == 0 || first == -1);
    FUZZ_CHECK(first == 0 || (err == EINVAL && want_len == 0));
    if (first == 0 && !strstr(tmpl, "{{"))
        FUZZ_CHECK(want_len == strlen(tmpl) && memcmp(want, tmpl, want_len) == 0);

    if (inject)
        bb_alloc_fail_after((long)(choice >> 2));
    rc = render(tmpl, b, &got, &got_len, &err);
    bb_alloc_fail_after(-1);
    if (rc == 0) {
        FUZZ_CHECK(first == 0);
        FUZZ_CHECK(got_len == want_len && memcmp(got, want, want_len) == 0);
    } else {
        /* Refused as before, or out of memory where memory was made to run out. */
        FUZZ_CHECK(rc == -1 && got_len == 0);
        FUZZ_CHECK((first == -1 && err == EINVAL) || (inject && err == ENOMEM));
    }
    free(want);
    free(got);
    free(tmpl);
    return 0;
}
