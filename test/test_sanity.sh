#!/bin/sh
# bench_bitcoin -sanity-check: every registered benchmark runs exactly once, one epoch of one
# iteration, prints no table and exits 0. Under --enable-sanitizers this is the run that puts
# every benchmark's code through ASan and UBSan.
set -u
. "$(dirname "$0")/lib.sh"
prog=$top_builddir/bench_bitcoin
make_tmp test_sanity

# The benchmarks every CPU runs, and Core's per-implementation SHA-256 rows for the
# implementations this one offers (as -compare lists them: each "SHA256 [impl]" row), in
# byte-wise order.
always="CHACHA20_1MB
CHACHA20_256BYTES
CHACHA20_64BYTES
ComplexMemPool
FSCHACHA20POLY1305_1MB
FSCHACHA20POLY1305_256BYTES
FSCHACHA20POLY1305_64BYTES
FastRandom_1bit
FastRandom_32bit
MempoolEviction
POLY1305_1MB
POLY1305_256BYTES
POLY1305_64BYTES
PrevectorClearNontrivial
PrevectorClearTrivial
PrevectorDeserializeNontrivial
PrevectorDeserializeTrivial
PrevectorDestructorNontrivial
PrevectorDestructorTrivial
PrevectorFillVectorDirectNontrivial
PrevectorFillVectorDirectTrivial
PrevectorFillVectorIndirectNontrivial
PrevectorFillVectorIndirectTrivial
PrevectorResizeNontrivial
PrevectorResizeTrivial
RIPEMD160
SHA1
SHA256
SHA256D64_1024
SHA256D64_1024_STANDARD
SHA256_32b
SHA256_32b_STANDARD
SHA256_STANDARD
SHA3_256_1M
SHA512
SipHash_32b"
# The cluster-linearization and current mempool rows (src/bench_bitcoin/cluster_linearize.c,
# mempool_stress.c, mempool_ephemeral.c, rpc_mempool.c).
always="$always
LinearizeOptimallyHistoricalPerCost_15tx_22dep
LinearizeOptimallyHistoricalPerCost_21tx_20dep
LinearizeOptimallyHistoricalPerCost_27tx_31dep
LinearizeOptimallyHistoricalPerCost_33tx_77dep
LinearizeOptimallyHistoricalPerCost_39tx_38dep
LinearizeOptimallyHistoricalPerCost_45tx_58dep
LinearizeOptimallyHistoricalPerCost_51tx_51dep
LinearizeOptimallyHistoricalPerCost_57tx_58dep
LinearizeOptimallyHistoricalPerCost_63tx_75dep
LinearizeOptimallyHistoricalPerCost_9tx_14dep
LinearizeOptimallyHistoricalTotal_15tx_22dep
LinearizeOptimallyHistoricalTotal_21tx_20dep
LinearizeOptimallyHistoricalTotal_27tx_31dep
LinearizeOptimallyHistoricalTotal_33tx_77dep
LinearizeOptimallyHistoricalTotal_39tx_38dep
LinearizeOptimallyHistoricalTotal_45tx_58dep
LinearizeOptimallyHistoricalTotal_51tx_51dep
LinearizeOptimallyHistoricalTotal_57tx_58dep
LinearizeOptimallyHistoricalTotal_63tx_75dep
LinearizeOptimallyHistoricalTotal_9tx_14dep
LinearizeOptimallySyntheticPerCost_28tx_180dep
LinearizeOptimallySyntheticPerCost_28tx_81dep
LinearizeOptimallySyntheticPerCost_32tx_103dep
LinearizeOptimallySyntheticPerCost_32tx_240dep
LinearizeOptimallySyntheticPerCost_36tx_116dep
LinearizeOptimallySyntheticPerCost_36tx_320dep
LinearizeOptimallySyntheticPerCost_40tx_143dep
LinearizeOptimallySyntheticPerCost_40tx_399dep
LinearizeOptimallySyntheticPerCost_44tx_163dep
LinearizeOptimallySyntheticPerCost_44tx_459dep
LinearizeOptimallySyntheticPerCost_48tx_160dep
LinearizeOptimallySyntheticPerCost_48tx_575dep
LinearizeOptimallySyntheticPerCost_52tx_200dep
LinearizeOptimallySyntheticPerCost_52tx_660dep
LinearizeOptimallySyntheticPerCost_56tx_232dep
LinearizeOptimallySyntheticPerCost_56tx_780dep
LinearizeOptimallySyntheticPerCost_60tx_251dep
LinearizeOptimallySyntheticPerCost_60tx_899dep
LinearizeOptimallySyntheticPerCost_64tx_1008dep
LinearizeOptimallySyntheticPerCost_64tx_317dep
LinearizeOptimallySyntheticTotal_28tx_180dep
LinearizeOptimallySyntheticTotal_28tx_81dep
LinearizeOptimallySyntheticTotal_32tx_103dep
LinearizeOptimallySyntheticTotal_32tx_240dep
LinearizeOptimallySyntheticTotal_36tx_116dep
LinearizeOptimallySyntheticTotal_36tx_320dep
LinearizeOptimallySyntheticTotal_40tx_143dep
LinearizeOptimallySyntheticTotal_40tx_399dep
LinearizeOptimallySyntheticTotal_44tx_163dep
LinearizeOptimallySyntheticTotal_44tx_459dep
LinearizeOptimallySyntheticTotal_48tx_160dep
LinearizeOptimallySyntheticTotal_48tx_575dep
LinearizeOptimallySyntheticTotal_52tx_200dep
LinearizeOptimallySyntheticTotal_52tx_660dep
LinearizeOptimallySyntheticTotal_56tx_232dep
LinearizeOptimallySyntheticTotal_56tx_780dep
LinearizeOptimallySyntheticTotal_60tx_251dep
LinearizeOptimallySyntheticTotal_60tx_899dep
LinearizeOptimallySyntheticTotal_64tx_1008dep
LinearizeOptimallySyntheticTotal_64tx_317dep
MemPoolAddTransactions
MemPoolAncestorsDescendants
MempoolCheckEphemeralSpends
PostLinearize16TxWorstCase
PostLinearize32TxWorstCase
PostLinearize48TxWorstCase
PostLinearize64TxWorstCase
PostLinearize75TxWorstCase
PostLinearize99TxWorstCase
RpcMempool"
# The MuHash, random, hashpadding and merkle_root rows (src/bench_bitcoin/muhash.c,
# random.c, hashpadding.c, merkle_root.c).
always="$always
MuHash
MuHashMul
MuHashDiv
MuHashPrecompute
MuHashFinalize
FastRandom_rand64
FastRandom_rand32
FastRandom_randbool
FastRandom_randbits
FastRandom_randrange100
FastRandom_randrange1000
FastRandom_randrange1000000
FastRandom_stdshuffle100
InsecureRandom_rand64
InsecureRandom_rand32
InsecureRandom_randbool
InsecureRandom_randbits
InsecureRandom_randrange100
InsecureRandom_randrange1000
InsecureRandom_randrange1000000
InsecureRandom_stdshuffle100
PrePadded
RegularPadded
MerkleRoot
MerkleRootWithMutation"
"$prog" -list -compare -filter=SHA256 >"$tmp/impls" 2>/dev/null || fail "-list -compare exited $?"
pinned=
for pair in sse41:SSE4 avx2:AVX2 shani:SHANI; do
    grep -q -x -F "SHA256 [${pair%%:*}]" "$tmp/impls" || continue
    for row in SHA256 SHA256_32b SHA256D64_1024; do
        pinned="$pinned
${row}_${pair#*:}"
    done
done
expected=$(printf '%s%s\n' "$always" "$pinned" | LC_ALL=C sort)

"$prog" -list >"$tmp/list" 2>"$tmp/list.err" || fail "-list exited $?"
[ "$(cat "$tmp/list")" = "$expected" ] || fail "-list is not the expected benchmarks in byte-wise order:
$(cat "$tmp/list")"

"$prog" -sanity-check -output-csv="$tmp/sanity.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "-sanity-check exited $rc: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "-sanity-check printed on stdout: $(head -3 "$tmp/out")"
grep -q "^Using the '.*' SHA256 implementation\$" "$tmp/err" ||
    fail "no SHA256 implementation line on stderr: $(cat "$tmp/err")"

# One CSV row per benchmark, in order, each with 1 epoch of 1 iteration (its time may be 0
# where the clock is coarse).
if [ -f "$tmp/sanity.csv" ]; then
    tail -n +2 "$tmp/sanity.csv" | cut -d, -f1 >"$tmp/names"
    [ "$(cat "$tmp/names")" = "$expected" ] || fail "CSV rows are not the registered benchmarks:
$(cat "$tmp/names")"
    bad=$(tail -n +2 "$tmp/sanity.csv" | awk -F, '!($2 == 1 && $3 == 1 && $7 >= 0) { print }')
    [ -z "$bad" ] || fail "rows without exactly one epoch of one iteration: $bad"
else
    fail "-output-csv wrote no file"
fi

# Each name as a filter selects exactly that benchmark (whole-name match: SHA256 is not
# SHA256_32b, SHA1 is not a prefix match of anything else).
for name in $expected; do
    got=$("$prog" -list -filter="$name" 2>&1)
    [ "$got" = "$name" ] || fail "-filter=$name selects: $got"
done

# -compare: every implementation of every hash benchmark, and OpenSSL's rows, once each (under
# --enable-sanitizers, the pinned variants and the OpenSSL calls go through ASan and UBSan).
"$prog" -list -compare >"$tmp/rows" 2>/dev/null || fail "-list -compare exited $?"
"$prog" -sanity-check -compare -output-csv="$tmp/compare.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "-sanity-check -compare exited $rc: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "-sanity-check -compare printed on stdout: $(head -3 "$tmp/out")"
if [ -f "$tmp/compare.csv" ]; then
    [ "$(tail -n +2 "$tmp/compare.csv" | cut -d, -f1)" = "$(cat "$tmp/rows")" ] ||
        fail "-sanity-check -compare rows differ from -list -compare: $(cat "$tmp/compare.csv")"
    [ "$(wc -l <"$tmp/rows")" -ge 10 ] ||
        fail "-list -compare lists too few rows: $(cat "$tmp/rows")"
else
    fail "-sanity-check -compare wrote no CSV"
fi

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "sanity check passed for all $(echo "$expected" | wc -l) benchmarks"
