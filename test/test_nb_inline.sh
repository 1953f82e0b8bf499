#!/bin/sh
# nb_run, nb_run_n and NB_RUN cost the measured code nothing per iteration: with the op a
# function the compiler sees, the loop the caller's compiler makes calls no function through
# a pointer (an op that did not inline would be called through one). Checked on the machine
# code of a small file at -O2, with the C compilers installed (cc, gcc, clang), on x86-64.
set -u
. "$(dirname "$0")/lib.sh"
command -v objdump >/dev/null 2>&1 || skip "objdump is not installed (binutils)"
[ "$(uname -m)" = x86_64 ] || skip "the check reads x86-64 machine code"
make_tmp test_nb_inline
cat >"$tmp/ops.c" <<'EOC'
#include "nanobench.h"
static unsigned long counter;
static void inc(void *arg) { (void)arg; counter++; nb_clobber_memory(); }
NB_OP_N(inc_n, inc)
void run_plain(nb_bench *b);
void run_plain(nb_bench *b) { nb_run(nb_name(b, "inc"), inc, NULL); }
void run_n(nb_bench *b);
void run_n(nb_bench *b) { nb_run_n(nb_name(b, "inc"), inc_n, NULL); }
void run_spec(nb_bench *b);
void run_spec(nb_bench *b) { NB_RUN(b, .name = "inc", .unit = "op", .batch = 1, .op = inc); }
EOC
compilers=0
for cc in ${CC:-cc} gcc clang; do
    command -v "$cc" >/dev/null 2>&1 || continue
    "$cc" -O2 -std=c99 -I"$top_srcdir/src/bench" -c "$tmp/ops.c" -o "$tmp/ops.o" 2>"$tmp/err" ||
        { fail "$cc: $(head -n 3 "$tmp/err")"; continue; }
    compilers=$((compilers + 1))
    objdump -d --no-show-raw-insn "$tmp/ops.o" >"$tmp/dis"
    for f in run_plain run_n run_spec; do
        awk -v f="<$f>:" '$2 == f { on = 1; next } /^[0-9a-f]+ </ { on = 0 } on' "$tmp/dis" \
            >"$tmp/$f"
        [ -s "$tmp/$f" ] || { fail "$cc: no $f in the object"; continue; }
        if grep -qE 'call[a-z]* +\*' "$tmp/$f"; then
            fail "$cc -O2: $f calls through a pointer: $(grep -E 'call[a-z]* +\*' "$tmp/$f" |
                head -n 2 | tr -s ' \t' ' ')"
        fi
    done
done
[ "$compilers" -gt 0 ] || skip "no C compiler found"
echo "$compilers compiler(s): nb_run, nb_run_n and NB_RUN inline the op"
[ "$failures" -eq 0 ]
