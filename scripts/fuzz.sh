#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang-14, ASan + UBSan), writes their seed
# corpora from the project's own generators, and runs each target for SECONDS_PER_TARGET
# (default 60), one after the other. Prints one line per target and exits 1 when a fuzzer
# found a crash, timeout, leak or out-of-memory input, naming the file to turn into a
# regression (tests/fuzz/regressions/<target>/). Everything it writes stays in build/fuzz:
#   build/fuzz/seeds/<target>/      generated seeds (rewritten every run)
#   build/fuzz/corpus/<target>/     the working corpus, grown across runs
#   build/fuzz/artifacts/<target>/  inputs that crashed
#   build/fuzz/logs/<target>.log    the fuzzer's output
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [SECONDS_PER_TARGET]   (a positive whole number; default 60)" >&2
  exit 2
fi

# The compiler and libFuzzer's runtime; the rest of the build's packages are the quick
# start's (scripts/quickstart.sh).
packages=(clang-14 libclang-rt-14-dev)
bash scripts/install_packages.sh "${packages[@]}"

build=build/fuzz
source scripts/skip_empty_ccache.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

targets=(server_message workload_file session_document stream_decoder)
rm -rf "$build/seeds"
"$build/tests/fuzz/lbm_fuzz_corpus_generator" "$build/seeds" "${targets[@]}"

failed=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target"
  log="$build/logs/$target.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  before=$(find "$corpus" -type f | wc -l)
  # The keys Qt compares in uninstrumented code, which libFuzzer cannot learn by itself.
  dict=()
  [ -f "tests/fuzz/dictionaries/$target.dict" ] && dict=(-dict="tests/fuzz/dictionaries/$target.dict")
  status=0
  # New inputs go to the first directory (the working corpus); the seeds are read only.
  # Leaks are checked per input (libFuzzer's default with ASan).
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" "$corpus" \
    "$build/seeds/$target" >"$log" 2>&1 || status=$?
  after=$(find "$corpus" -type f | wc -l)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 || true)
  line="fuzz_$target: ${runs:-?} runs (${rate:-?} exec/s), ${coverage:-cov: ?}, corpus $before -> $after files"
  if [ "$status" -eq 0 ]; then
    echo "$line, no crash"
  else
    failed=1
    # libFuzzer names the input it saved: "Test unit written to <path>".
    unit=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
    kind=$(grep -m 1 -oE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [^(]+' "$log" \
      | sed 's/ on address.*//; s/ *$//' || true)
    # An uncaught exception ends in "deadly signal"; libstdc++ names it just before.
    thrown=$(grep -m 1 -oE "terminate called after throwing an instance of '[^']+'" "$log" || true)
    [ -z "$thrown" ] || kind="$kind, ${thrown#terminate called after }"
    [ -n "$kind" ] || kind=$(grep -m 1 -oE 'runtime error: .*' "$log" || true)
    echo "$line, FAILED (exit $status${kind:+: $kind})"
    echo "  input: ${unit:-see $log}"
    echo "  copy it to tests/fuzz/regressions/$target/, fix the app, and replay it with" \
         "lbm_fuzz_regression_tests; full report in $log"
  fi
done
exit "$failed"
