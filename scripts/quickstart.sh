#!/usr/bin/env bash
# The README's two commands: `gui` installs, builds and launches the monitor on the built-in
# simulator; `test` installs, builds and runs every test through CTest. Debian 12.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in
  gui|test) ;;
  *) echo "usage: $0 gui|test" >&2; exit 2 ;;
esac

# Packages the build, the tests and the GUI need; all from Debian 12's archive.
packages=(
  build-essential cmake ninja-build pkg-config ccache
  qt6-base-dev qt6-base-dev-tools qt6-websockets-dev qt6-charts-dev
  qt6-qpa-plugins libqt6opengl6-dev libgl-dev qt6-image-formats-plugins
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavfilter-dev libx264-dev ffmpeg
  catch2 xvfb xauth librsvg2-bin openssl
  libqrencode-dev chromium nginx
)
# The broadcast's viewer page vendors hls.js from the npm registry at build time. Debian's npm
# only when no npm is installed (a Node.js from elsewhere brings its own, which Debian's would
# conflict with).
command -v npm >/dev/null || packages+=(npm)
bash scripts/install_packages.sh "${packages[@]}"
# Each phase's wall time, so a slow run says where its time went (docs/reliability.md).
echo "quickstart: packages took $SECONDS s"
phase_start=$SECONDS

source scripts/skip_empty_ccache.sh
cmake --preset release
cmake --build --preset release --parallel "$(nproc)"
echo "quickstart: configure and build took $((SECONDS - phase_start)) s"

if [ "$mode" = gui ]; then
  exec ./build/release/lingbot-monitor "${@:2}"
fi
# Four or five cases a core: two that compute, two [paced] ones that mostly wait on a server
# paced like a real one, and a [timing] one for two cores; the resource slots of
# build/release/ctest_resources.json keep to that mix (tests/CMakeLists.txt).
jobs=$(($(nproc) * 5))
# The window tests render offscreen and the screenshot cases start an Xvfb of their own each
# (tests/own_display.h); the suite still runs under one, on a screen as large as the largest
# window they open, for anything that asks the display.
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  exec xvfb-run -a -s "-screen 0 1920x1080x24" ctest --preset release -j "$jobs" "${@:2}"
fi
exec ctest --preset release -j "$jobs" "${@:2}"
