/* Model test for one prevector kind, included by test_prevector.c once per
 * kind after defining:
 *
 *   MODEL_VEC        the prevector type (with its serialisers)
 *   MODEL_T, MODEL_N its element type and inline count
 *   MODEL_NEW(e)     makes *e what the vector makes for a new element
 *   MODEL_RAND(e)    makes *e a random element
 *   MODEL_ID         a suffix for this kind's function names
 * (all undefined again at the end of this file)
 *
 * Defines `static void model_<MODEL_ID>_run(unsigned long ops)`: random
 * operations on a few vectors beside a reference (a plain array plus the
 * capacity that Core's rules predict), with allocation failure injected at
 * random. After every step: size, capacity, is_direct, allocated_memory and
 * contents agree; an operation that needed memory when memory was refused
 * returned -1 and changed nothing; exactly one allocation happened where the
 * rules say the storage moves, none elsewhere.
 *
 * Optional, for a fuzz target that makes the choices instead of the RNG (they stay defined
 * for the next kind):
 *   MODEL_BELOW(n)       a choice in [0, n) (default: check_rng_below)
 *   MODEL_MORE(step)     whether to take step number step (default: step < ops)
 *   MODEL_NO_COVERAGE    leaves out the final check that the walk crossed the inline/heap
 *                        boundary and failed often (a short fuzz input need not) */
#ifndef MODEL_BELOW
#define MODEL_BELOW(n) check_rng_below(n)
#endif
#ifndef MODEL_MORE
#define MODEL_MORE(step) ((step) < ops)
#endif

#define MODEL_CAT2(a, b) a##_##b
#define MODEL_CAT(a, b) MODEL_CAT2(a, b)
#define V(f) MODEL_CAT(MODEL_VEC, f)
#define M(f) MODEL_CAT(MODEL_CAT(model, MODEL_ID), f)

#define MODEL_VECS 3

typedef struct {
    MODEL_T *e;   /* plain realloc, never the failing allocator */
    size_t room;  /* elements e holds */
    size_t size;  /* what the prevector must report */
    size_t cap;
    int direct;
} M(ref);

static void M(ref_room)(M(ref) *r, size_t n)
{
    if (n <= r->room)
        return;
    r->e = realloc(r->e, n * sizeof(MODEL_T));
    if (!r->e) {
        fprintf(stderr, "model: out of memory\n");
        exit(99);
    }
    r->room = n;
}

static void M(ref_reset)(M(ref) *r)
{
    r->size = 0;
    r->cap = MODEL_N;
    r->direct = 1;
}

/* Core's change_capacity: inline when it fits, else exactly c on the heap. */
static void M(ref_change)(M(ref) *r, size_t c)
{
    if (c <= MODEL_N) {
        r->cap = MODEL_N;
        r->direct = 1;
    } else {
        r->cap = c;
        r->direct = 0;
    }
}

/* Growth for push_back/insert to need elements: whether it allocates. */
static int M(ref_grow)(M(ref) *r, size_t need, int apply)
{
    if (need <= r->cap)
        return 0;
    if (apply)
        M(ref_change)(r, need + need / 2);
    return 1;
}

/* Growth to exactly n (resize, reserve, assign, copy, unserialize). */
static int M(ref_exact)(M(ref) *r, size_t n, int apply)
{
    if (n <= r->cap)
        return 0;
    if (apply)
        M(ref_change)(r, n);
    return 1;
}

static void M(ref_resize)(M(ref) *r, size_t n)
{
    size_t i;
    M(ref_room)(r, n);
    for (i = r->size; i < n; i++)
        MODEL_NEW(&r->e[i]);
    r->size = n;
}

static int M(check)(MODEL_VEC *v, const M(ref) *r, const char *op, unsigned long step)
{
    size_t n = V(size)(v);
    int ok = 1;
    ok &= CHECKF(n == r->size, "%s step %lu: size %zu, want %zu", op, step, n, r->size);
    ok &= CHECKF(V(capacity)(v) == r->cap, "%s step %lu: capacity %zu, want %zu", op, step,
                 V(capacity)(v), r->cap);
    ok &= CHECKF(V(is_direct)(v) == r->direct, "%s step %lu: is_direct %d, want %d", op, step,
                 V(is_direct)(v), r->direct);
    ok &= CHECKF(V(allocated_memory)(v) == (r->direct ? 0 : r->cap * sizeof(MODEL_T)),
                 "%s step %lu: allocated_memory %zu", op, step, V(allocated_memory)(v));
    ok &= CHECKF((const MODEL_T *)V(data)(v) == V(cdata)(v) && V(data)(v) != NULL, "%s: data",
                 op);
    if (ok && n)
        ok &= CHECKF(memcmp(V(cdata)(v), r->e, n * sizeof(MODEL_T)) == 0,
                     "%s step %lu: contents differ", op, step);
    return ok;
}

static size_t M(rand_size)(void)
{
    switch (MODEL_BELOW(8)) {
    case 0:
        return (size_t)MODEL_BELOW(4);
    case 1:
        return MODEL_N - 1 + (size_t)MODEL_BELOW(3); /* N-1, N, N+1 */
    case 2:
        return (size_t)MODEL_BELOW(200);
    default:
        return (size_t)MODEL_BELOW(2 * MODEL_N + 8);
    }
}

/* Reference compare: shorter first, then the bytes. */
static int M(ref_compare)(const M(ref) *a, const M(ref) *b)
{
    int c;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    c = a->size ? memcmp(a->e, b->e, a->size * sizeof(MODEL_T)) : 0;
    return (c > 0) - (c < 0);
}

static void M(run)(unsigned long ops)
{
    MODEL_VEC vs[MODEL_VECS];
    M(ref) rs[MODEL_VECS];
    MODEL_T src[256];
    M(ref) scratch; /* only its buffer: what is about to be copied in */
    MODEL_T *tmp;
    byte_stream stream;
    unsigned long step;
    unsigned long crossed_out = 0, crossed_in = 0, failed = 0;
    size_t i;

    stream_init(&stream);
    for (i = 0; i < MODEL_VECS; i++) {
        V(init)(&vs[i]);
        memset(&rs[i], 0, sizeof rs[i]);
        M(ref_room)(&rs[i], 256); /* never NULL, even for empty copies */
        M(ref_reset)(&rs[i]);
    }
    memset(&scratch, 0, sizeof scratch);
    M(ref_room)(&scratch, 256);

    for (step = 0; MODEL_MORE(step); step++) {
        size_t a = (size_t)MODEL_BELOW(MODEL_VECS);
        size_t b = (size_t)MODEL_BELOW(MODEL_VECS);
        MODEL_VEC *v = &vs[a];
        M(ref) *r = &rs[a];
        int inject = MODEL_BELOW(6) == 0;
        int need = 0, invalid = 0, rc = 0, want, was_direct = r->direct;
        unsigned long allocs = bb_alloc_count();
        const MODEL_T *old_data = V(cdata)(v);
        size_t n, pos, k;
        unsigned op = (unsigned)MODEL_BELOW(17);
        const char *name = "?";

        M(ref_room)(&scratch, r->size + rs[b].size + 256);
        tmp = scratch.e;
        for (i = 0; i < 256; i++)
            MODEL_RAND(&src[i]);
        if (inject)
            bb_alloc_fail_after(0);

        switch (op) {
        case 0:
            name = "resize";
            n = M(rand_size)();
            need = M(ref_exact)(r, n, 0);
            rc = V(resize)(v, n);
            if (!(need && inject)) {
                M(ref_exact)(r, n, 1);
                M(ref_resize)(r, n);
            }
            break;
        case 1:
            name = "resize_uninit";
            n = M(rand_size)();
            need = M(ref_exact)(r, n, 0);
            rc = V(resize_uninit)(v, n);
            if (rc == 0) {
                /* The new tail is the caller's to write. */
                k = r->size;
                M(ref_exact)(r, n, 1);
                M(ref_room)(r, n);
                for (pos = k; pos < n; pos++) {
                    memcpy(&r->e[pos], &src[pos % 256], sizeof(MODEL_T));
                    memcpy(&V(data)(v)[pos], &src[pos % 256], sizeof(MODEL_T));
                }
                r->size = n;
            }
            break;
        case 2:
            name = "reserve";
            n = M(rand_size)();
            need = M(ref_exact)(r, n, 0);
            rc = V(reserve)(v, n);
            if (!(need && inject))
                M(ref_exact)(r, n, 1);
            break;
        case 3:
            name = "clear";
            V(clear)(v);
            r->size = 0;
            break;
        case 4:
            name = "push_back";
            need = M(ref_grow)(r, r->size + 1, 0);
            M(ref_room)(r, r->size + 1);
            /* Half the time the value comes from the vector itself. */
            if (r->size && MODEL_BELOW(2)) {
                pos = (size_t)MODEL_BELOW(r->size);
                rc = V(push_back)(v, (const MODEL_T *)&V(data)(v)[pos]);
                memcpy(&src[0], &r->e[pos], sizeof(MODEL_T));
            } else {
                rc = V(push_back)(v, (const MODEL_T *)&src[0]);
            }
            if (!(need && inject)) {
                M(ref_grow)(r, r->size + 1, 1);
                memcpy(&r->e[r->size++], &src[0], sizeof(MODEL_T));
            }
            break;
        case 5:
            name = "pop_back";
            V(pop_back)(v);
            if (r->size)
                r->size--;
            break;
        case 6:
        case 7:
            name = "insert";
            pos = (size_t)MODEL_BELOW(r->size + 2); /* size + 1: invalid */
            n = M(rand_size)() % 64;
            if (op == 7 && r->size) {
                /* From the vector itself, anywhere relative to pos. */
                k = (size_t)MODEL_BELOW(r->size);
                n = n % (r->size - k + 1);
                memcpy(tmp, r->e + k, n * sizeof(MODEL_T));
                invalid = pos > r->size;
                need = !invalid && n && M(ref_grow)(r, r->size + n, 0);
                rc = V(insert)(v, pos, (const MODEL_T *)V(data)(v) + k, n);
            } else {
                memcpy(tmp, src, n * sizeof(MODEL_T));
                invalid = pos > r->size;
                need = !invalid && n && M(ref_grow)(r, r->size + n, 0);
                rc = V(insert)(v, pos, n ? (const MODEL_T *)src : NULL, n);
            }
            if (!invalid && !(need && inject) && n) {
                M(ref_grow)(r, r->size + n, 1);
                M(ref_room)(r, r->size + n);
                memmove(r->e + pos + n, r->e + pos, (r->size - pos) * sizeof(MODEL_T));
                memcpy(r->e + pos, tmp, n * sizeof(MODEL_T));
                r->size += n;
            }
            break;
        case 8:
            name = "erase";
            pos = (size_t)MODEL_BELOW(r->size + 3);
            k = (size_t)MODEL_BELOW(r->size + 3); /* past the end: clamped */
            V(erase)(v, pos, k);
            if (k > r->size)
                k = r->size;
            if (pos < k) {
                memmove(r->e + pos, r->e + k, (r->size - k) * sizeof(MODEL_T));
                r->size -= k - pos;
            }
            break;
        case 9:
            name = "assign";
            n = M(rand_size)() % 256;
            if (r->size && MODEL_BELOW(3) == 0) {
                k = (size_t)MODEL_BELOW(r->size);
                n = n % (r->size - k + 1);
                memcpy(tmp, r->e + k, n * sizeof(MODEL_T));
                rc = V(assign)(v, (const MODEL_T *)V(data)(v) + k, n);
            } else {
                memcpy(tmp, src, n * sizeof(MODEL_T));
                need = M(ref_exact)(r, n, 0);
                rc = V(assign)(v, n ? (const MODEL_T *)src : NULL, n);
            }
            if (!(need && inject)) {
                M(ref_exact)(r, n, 1);
                M(ref_room)(r, n);
                memcpy(r->e, tmp, n * sizeof(MODEL_T));
                r->size = n;
            }
            break;
        case 10:
            name = "copy";
            need = a != b && M(ref_exact)(r, rs[b].size, 0);
            rc = V(copy)(v, &vs[b]);
            if (a != b && !(need && inject)) {
                M(ref_exact)(r, rs[b].size, 1);
                M(ref_room)(r, rs[b].size);
                if (rs[b].size)
                    memcpy(r->e, rs[b].e, rs[b].size * sizeof(MODEL_T));
                r->size = rs[b].size;
            }
            break;
        case 11: {
            M(ref) t;
            name = "swap";
            V(swap)(v, &vs[b]);
            t = *r;
            *r = rs[b];
            rs[b] = t;
            old_data = V(cdata)(v); /* moved with the contents */
            was_direct = r->direct;
            CHECK(M(check)(&vs[b], &rs[b], "swap (other)", step));
            break;
        }
        case 12:
            name = "shrink_to_fit";
            /* Heap to a smaller heap block reallocates; back inline does not. */
            need = !r->direct && r->size != r->cap && r->size > MODEL_N;
            rc = V(shrink_to_fit)(v);
            if (!r->direct && !(need && inject))
                M(ref_change)(r, r->size);
            break;
        case 13:
            name = "destroy";
            V(destroy)(v);
            if (MODEL_BELOW(2))
                V(init)(v);
            M(ref_reset)(r);
            break;
        case 14:
            name = "compare";
            CHECK(V(compare)(v, &vs[b]) == M(ref_compare)(r, &rs[b]));
            CHECK(V(compare)(&vs[b], v) == -M(ref_compare)(r, &rs[b]));
            CHECK(V(equal)(v, &vs[b]) == (M(ref_compare)(r, &rs[b]) == 0));
            CHECK(V(equal)(v, v) && V(compare)(v, v) == 0);
            break;
        case 15:
            name = "write element";
            if (r->size) {
                pos = (size_t)MODEL_BELOW(r->size);
                memcpy(&V(data)(v)[pos], &src[1], sizeof(MODEL_T));
                memcpy(&r->e[pos], &src[1], sizeof(MODEL_T));
            }
            break;
        default:
            /* Serialise b (the allocator working), read it back into a. */
            name = "unserialize";
            bb_alloc_fail_after(-1);
            stream_clear(&stream);
            CHECK(V(serialize)(&vs[b], &stream) == 0);
            if (inject)
                bb_alloc_fail_after(0);
            allocs = bb_alloc_count();
            n = rs[b].size;
            memcpy(tmp, rs[b].e, n * sizeof(MODEL_T));
            need = M(ref_exact)(r, n, 0);
            rc = V(unserialize)(v, &stream);
            if (!(need && inject)) {
                CHECK(stream_remaining(&stream) == 0);
                M(ref_exact)(r, n, 1);
                M(ref_room)(r, n);
                memcpy(r->e, tmp, n * sizeof(MODEL_T));
                r->size = n;
            } else {
                CHECK(stream.pos == 0);
            }
            break;
        }
        bb_alloc_fail_after(-1);

        want = (invalid || (need && inject)) ? -1 : 0;
        CHECKF(rc == want, "%s step %lu: returned %d, want %d", name, step, rc, want);
        CHECKF(bb_alloc_count() - allocs == (unsigned long)(want == 0 && need),
               "%s step %lu: %lu allocations, want %d", name, step,
               bb_alloc_count() - allocs, want == 0 && need);
        if (rc != 0)
            CHECKF(V(cdata)(v) == old_data, "%s step %lu: storage moved on failure", name, step);
        failed += rc != 0;
        crossed_out += was_direct && !r->direct;
        crossed_in += !was_direct && r->direct;
        if (!M(check)(v, r, name, step) || check_failures())
            break;
    }
#ifndef MODEL_NO_COVERAGE
    /* The walk must have crossed the boundary often, both ways, and failed. */
    CHECKF(crossed_out > ops / 100 && crossed_in > ops / 100 && failed > ops / 100,
           "coverage: %lu out, %lu in, %lu failures", crossed_out, crossed_in, failed);
#else
    (void)crossed_out;
    (void)crossed_in;
    (void)failed;
    (void)ops;
#endif

    for (i = 0; i < MODEL_VECS; i++) {
        V(destroy)(&vs[i]);
        free(rs[i].e);
    }
    free(scratch.e);
    stream_destroy(&stream);
}

#undef MODEL_VECS
#undef M
#undef V
#undef MODEL_CAT
#undef MODEL_CAT2
/* The parameters too, so that the next kind can define its own. */
#undef MODEL_VEC
#undef MODEL_T
#undef MODEL_N
#undef MODEL_NEW
#undef MODEL_RAND
#undef MODEL_ID
