/* -against's JSON document (against_json.h), with jansson. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/against_json.h"
#include "util/alloc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

struct against_json {
    json_t *root;
    json_t *results;           /* root's "results", borrowed */
    const char *other;         /* root's "comparedTo", borrowed */
};

against_json *bench_against_json_new(const char *other)
{
    against_json *j = bb_malloc(sizeof *j);
    json_t *list = json_array();
    if (!j || !list) {
        bb_free(j);
        json_decref(list);
        return NULL;
    }
    j->other = NULL;
    j->results = list;
    j->root = json_object();
    /* json_object_set_new takes the value's reference, also when it fails */
    if (!j->root) {
        json_decref(list);
    } else if (json_object_set_new(j->root, "results", list) == 0) {
        json_t *s = json_string(other ? other : "");
        if (s && json_object_set_new(j->root, "comparedTo", s) == 0)
            j->other = json_string_value(s);
    }
    if (!j->other) {
        json_decref(j->root);
        bb_free(j);
        return NULL;
    }
    return j;
}

/* A number, or null where it is not finite (JSON has no NaN). */
static json_t *number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static const char *verdict_word(const verdict_row *w)
{
    if (w->r.significant)
        return w->r.estimate < 1 ? "slower" : "faster";
    return w->within ? "within" : "=";
}

/* The comparison's members of w into o (the ratio as the table prints it: this build's time
 * over the other's, the reciprocal of nb_ratio's). 0, or -1. */
static int set_comparison(json_t *o, const verdict_row *w, const char *other)
{
    int bad = 0;
    bad |= json_object_set_new(o, "comparedTo", json_string(other ? other : ""));
    bad |= json_object_set_new(o, "ratio", number(1 / w->r.estimate));
    bad |= json_object_set_new(o, "ratioLow", number(1 / w->r.high));
    bad |= json_object_set_new(o, "ratioHigh", number(1 / w->r.low));
    bad |= json_object_set_new(o, "significant", json_boolean(w->r.significant));
    bad |= json_object_set_new(o, "verdict", json_string(verdict_word(w)));
    bad |= json_object_set_new(o, "equivalence", number(w->equivalence));
    bad |= json_object_set_new(o, "regression", json_boolean(w->regression));
    bad |= json_object_set_new(o, "rounds", json_integer((json_int_t)w->rounds));
    bad |= json_object_set_new(o, "seconds", number(w->seconds));
    return bad ? -1 : 0;
}

int bench_against_json_add(against_json *j, const verdict_row *w, double batch,
                           uint64_t iterations, const double *self_ns)
{
    json_t *o, *ms;
    size_t i;
    int bad = 0;
    if (!j || !w || !w->name || !w->unit || !(batch > 0) || (w->rounds && !self_ns))
        return -1;
    o = json_object();
    ms = json_array();
    /* the list takes o's reference, and o ms's, also when that fails */
    if (!o || !ms || json_array_append_new(j->results, o) != 0) {
        json_decref(ms);
        return -1;
    }
    bad |= json_object_set_new(o, "name", json_string(w->name));
    bad |= json_object_set_new(o, "unit", json_string(w->unit));
    bad |= json_object_set_new(o, "batch", json_real(batch));
    bad |= json_object_set_new(o, "epochs", json_integer((json_int_t)w->rounds));
    if (json_object_set_new(o, "measurements", ms) != 0)
        return -1;
    for (i = 0; i < w->rounds && !bad; i++) {
        json_t *m = json_object();
        if (!m || json_array_append_new(ms, m) != 0)
            return -1;
        bad |= json_object_set_new(m, "iterations", json_integer((json_int_t)iterations));
        bad |= json_object_set_new(m, "elapsed", number(self_ns[i] * batch * 1e-9));
    }
    return bad || set_comparison(o, w, j->other) != 0 ? -1 : 0;
}

char *bench_against_json_text(const against_json *j)
{
    return j ? json_dumps(j->root, JSON_INDENT(4) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))
             : NULL;
}

void bench_against_json_text_free(char *text)
{
    free(text);
}

void bench_against_json_free(against_json *j)
{
    if (!j)
        return;
    json_decref(j->root);
    bb_free(j);
}
