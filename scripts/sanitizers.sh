#!/usr/bin/env bash
# Builds a sanitizer preset and runs its test preset; any sanitizer report fails the run.
#   bash scripts/sanitizers.sh asan   # the whole suite under ASan + UBSan + LeakSanitizer
#   bash scripts/sanitizers.sh tsan   # session, decoder, playback, simulator and quality tests under TSan
# Needs the packages scripts/quickstart.sh installs (run it once first). Without a display
# the suite runs under xvfb-run, as the quick start's test command does.
set -euo pipefail
cd "$(dirname "$0")/.."

preset=${1:-}
case "$preset" in
  asan|tsan) ;;
  *) echo "usage: $0 asan|tsan" >&2; exit 2 ;;
esac

source scripts/skip_empty_ccache.sh
start=$(date +%s)
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --parallel "$(nproc)"
built=$(date +%s)
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1920x1080x24" ctest --preset "$preset" "${@:2}"
else
  ctest --preset "$preset" "${@:2}"
fi
echo "$preset: build $((built - start)) s, tests $(($(date +%s) - built)) s"
