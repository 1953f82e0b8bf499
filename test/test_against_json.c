/* -against's -output-json document (against_json.h) read back by the one reader
 * (results.h): every comparison member round-trips, a NaN is null, this build's rounds are
 * the result's epochs; a verdict that is not -against's, or one without its members, is
 * refused; bad arguments are refused. */
#include "bench_bitcoin/against_json.h"
#include "bench_bitcoin/results.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static verdict_row row(const char *name, double est, double low, double high, int within,
                       size_t rounds)
{
    verdict_row w;
    memset(&w, 0, sizeof w);
    w.name = name;
    w.unit = "byte";
    w.quantity = "ns";
    w.r.estimate = est;   /* the other's time over this build's */
    w.r.low = low;
    w.r.high = high;
    w.r.significant = low > 1 || high < 1;
    w.within = within;
    w.equivalence = 1;
    w.rounds = rounds;
    w.seconds = 0.25;
    return w;
}

static void test_round_trip(void)
{
    static const double self_ns[3] = {2.0, 2.5, 3.0};
    against_json *j = bench_against_json_new("../parent/bench_bitcoin");
    verdict_row slower = row("SHA256", 0.5, 0.4, 0.8, 0, 3);
    verdict_row within = row("SipHash", 1.0, 0.995, 1.005, 1, 3);
    verdict_row none = row("Empty", NAN, NAN, NAN, 0, 3);
    bench_results r;
    char err[300], *text;
    CHECK(j != NULL);
    slower.regression = 1;
    CHECK(bench_against_json_add(j, &slower, 64, 1000, self_ns) == 0);
    CHECK(bench_against_json_add(j, &within, 64, 1000, self_ns) == 0);
    CHECK(bench_against_json_add(j, &none, 64, 1000, self_ns) == 0);
    text = bench_against_json_text(j);
    CHECK(text != NULL);
    CHECK(strstr(text, "\"comparedTo\": \"../parent/bench_bitcoin\"") != NULL);
    CHECK(strstr(text, "\"regression\": true") != NULL && strstr(text, "\"ratio\": null"));
    CHECKF(bench_results_parse(text, strlen(text), &r, err, sizeof err) == 0, "%s", err);
    CHECK(r.count == 3);
    if (r.count == 3) {
        /* this build's time over the other's: the reciprocals, bounds swapped */
        CHECK(strcmp(r.rows[0].verdict, "slower") == 0 && fabs(r.rows[0].ratio - 2) < 1e-12);
        CHECK(fabs(r.rows[0].ratio_low - 1.25) < 1e-12 && fabs(r.rows[0].ratio_high - 2.5)
              < 1e-12);
        CHECK(r.rows[0].rounds == 3 && r.rows[0].seconds == 0.25 && r.rows[0].count == 3);
        /* elapsed: seconds per iteration, 64 units of 2.5 ns */
        CHECK(fabs(r.rows[0].elapsed[1] - 160e-9) < 1e-20 && r.rows[0].batch == 64);
        CHECK(strcmp(r.rows[1].verdict, "within") == 0);
        CHECK(strcmp(r.rows[2].verdict, "=") == 0 && isnan(r.rows[2].ratio));
    }
    bench_results_free(&r);
    bench_against_json_text_free(text);
    bench_against_json_free(j);
}

/* A one-result file whose comparison members are members (a JSON fragment). */
static int parses(const char *members)
{
    char doc[1024], err[300];
    bench_results r;
    int rc;
    snprintf(doc, sizeof doc, "{\"results\": [{\"name\": \"A\", \"unit\": \"op\", \"batch\": 1, "
             "\"measurements\": [{\"elapsed\": 1e-9}]%s}]}", members);
    rc = bench_results_parse(doc, strlen(doc), &r, err, sizeof err);
    bench_results_free(&r);
    return rc;
}

static void test_refused(void)
{
    static const char full[] = ", \"ratio\": 1, \"ratioLow\": 0.9, \"ratioHigh\": null, "
                               "\"rounds\": 16, \"seconds\": 0.1";
    char m[512];
    verdict_row w = row("A", 1, 0.9, 1.1, 0, 0);
    CHECK(parses("") == 0);   /* a plain run's result: no comparison */
    snprintf(m, sizeof m, ", \"verdict\": \"=\"%s", full);
    CHECK(parses(m) == 0);
    snprintf(m, sizeof m, ", \"verdict\": \"same\"%s", full);
    CHECK(parses(m) == -1);
    snprintf(m, sizeof m, ", \"verdict\": 1%s", full);
    CHECK(parses(m) == -1);
    CHECK(parses(", \"verdict\": \"within\", \"ratio\": 1") == -1);
    snprintf(m, sizeof m, ", \"verdict\": \"faster\"%s", full);
    *strstr(m, "16") = '-';   /* rounds -6 */
    CHECK(parses(m) == -1);
    CHECK(bench_against_json_add(NULL, &w, 1, 1, NULL) == -1);
    CHECK(bench_against_json_text(NULL) == NULL);
    bench_against_json_free(NULL);
}

int main(void)
{
    test_round_trip();
    test_refused();
    return check_finish();
}
