#!/usr/bin/env bash
# Builds the Debian package from an existing release build and checks it the way CI does:
# lintian without errors, the desktop entry and AppStream metainfo validate, dpkg -i installs
# it, and the installed program answers --version, --help and a headless simulated bench.
# Run after `cmake --build --preset release`: bash scripts/package_check.sh [BUILD_DIR]
# Needs: lintian desktop-file-utils appstream dpkg-dev file (and root or sudo for dpkg -i).
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${1:-build/release}
app_id=io.github.lingbot_monitor.LingBotMonitor
if [ ! -f "$build_dir/CPackConfig.cmake" ]; then
  echo "error: $build_dir/CPackConfig.cmake not found; configure and build first:" >&2
  echo "  cmake --preset release && cmake --build --preset release" >&2
  exit 2
fi
for tool in lintian desktop-file-validate appstreamcli dpkg-shlibdeps file; do
  command -v "$tool" >/dev/null || {
    echo "error: $tool is missing; install: apt-get install lintian desktop-file-utils" \
      "appstream dpkg-dev file" >&2
    exit 2
  }
done
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

step() { printf '\n== %s\n' "$*"; }

step "building the package"
cmake --build "$build_dir" -j2
package_dir="$build_dir/package"
rm -rf "$package_dir"
cpack --config "$build_dir/CPackConfig.cmake" -B "$package_dir"
debs=("$package_dir"/lingbot-monitor_*.deb)
if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then
  echo "error: expected exactly one lingbot-monitor_*.deb in $package_dir" >&2
  exit 1
fi
deb=${debs[0]}
echo "package: $deb"
dpkg-deb --info "$deb"
dpkg-deb --contents "$deb"

step "checking the package's contents"
contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
for path in ./usr/bin/lingbot-monitor \
  "./usr/share/applications/$app_id.desktop" \
  "./usr/share/icons/hicolor/scalable/apps/$app_id.svg" \
  "./usr/share/metainfo/$app_id.metainfo.xml" \
  ./usr/share/man/man1/lingbot-monitor.1.gz \
  ./usr/share/doc/lingbot-monitor/copyright \
  ./usr/share/lingbot-monitor/first_frame.png; do
  grep -qxF "$path" <<<"$contents" || { echo "error: $path is not in the package" >&2; exit 1; }
done
for size in 16 24 32 48 64 128 256; do
  path="./usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png"
  grep -qxF "$path" <<<"$contents" || { echo "error: $path is not in the package" >&2; exit 1; }
done
grep -q '^\./usr/share/lingbot-monitor/examples/.*\.json$' <<<"$contents" \
  || { echo "error: no example workloads in the package" >&2; exit 1; }
echo "all expected files present"

step "lintian (fails on errors only)"
lintian_out=$(lintian "$deb" 2>&1) || true
if [ -n "$lintian_out" ]; then echo "$lintian_out"; else echo "lintian: clean"; fi
if grep -q '^E:' <<<"$lintian_out"; then
  echo "error: lintian reported errors" >&2
  exit 1
fi

step "desktop-file-validate and appstreamcli validate"
extract_dir=$(mktemp -d)
trap 'rm -rf "$extract_dir"' EXIT
dpkg-deb --extract "$deb" "$extract_dir"
desktop-file-validate "$extract_dir/usr/share/applications/$app_id.desktop"
echo "desktop-file-validate: ok"
appstreamcli validate --no-net "$extract_dir/usr/share/metainfo/$app_id.metainfo.xml"

step "installing with dpkg -i"
if ! "${sudo_cmd[@]}" dpkg -i "$deb"; then
  echo "dpkg -i left dependencies unmet; resolving them with apt-get install -f"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -f -y --no-install-recommends
fi
dpkg-query -W -f='${Status} ${Version}\n' lingbot-monitor | grep -q '^install ok installed' \
  || { echo "error: lingbot-monitor is not installed after dpkg -i" >&2; exit 1; }

step "smoke run of the installed program (headless)"
installed=/usr/bin/lingbot-monitor
run() { echo "\$ $*"; env -u DISPLAY -u WAYLAND_DISPLAY "$@"; }
run "$installed" --version | tee "$extract_dir/version.txt"
grep -Eq '^lingbot-monitor [0-9]+\.[0-9]+\.[0-9]+ \(Qt [0-9.]+, FFmpeg ' "$extract_dir/version.txt" \
  || { echo "error: --version does not name the version, Qt and FFmpeg" >&2; exit 1; }
run "$installed" --help >/dev/null
for command in bench report simulate; do
  run "$installed" "$command" --help >/dev/null
done
echo "--help and each command's --help: ok"
run timeout 300 "$installed" bench --simulate --num-chunks 3
run timeout 300 "$installed" bench --simulate --warmup-chunks 1 \
  --workload /usr/share/lingbot-monitor/examples/hold.json >/dev/null
echo "installed example workload runs: ok"

# The window needs the xcb platform plugin and the media backend, which are dlopen'd plugins
# shlibdeps cannot see: prove the installed dependencies load them by keeping a session
# running on a virtual display until timeout stops it (exit 124 means it was still alive).
if command -v xvfb-run >/dev/null; then
  step "installed window on a virtual display (8 s)"
  gui_status=0
  xvfb-run -a timeout -s INT 8 "$installed" --start \
    --workload /usr/share/lingbot-monitor/examples/hold.json >"$extract_dir/gui.log" 2>&1 \
    || gui_status=$?
  cat "$extract_dir/gui.log"
  if [ "$gui_status" -ne 124 ] || grep -qi 'could not load the qt platform plugin' \
    "$extract_dir/gui.log"; then
    echo "error: the installed window did not stay up (exit $gui_status)" >&2
    exit 1
  fi
  echo "installed window ran until stopped: ok"
else
  echo "xvfb-run not found (package xvfb): skipping the installed window check"
fi

printf '\npackage check passed: %s\n' "$deb"
