#!/usr/bin/env bash
# Checks the README's quick start on a fresh Debian 12 root: debootstraps a minbase bookworm
# root into a folder, copies a clean clone of the committed HEAD into it and runs, inside the
# chroot as root, exactly the README's two commands:
#   bash scripts/quickstart.sh test   (must exit 0)
#   bash scripts/quickstart.sh gui    (on an Xvfb display; must still be running when the
#                                      timeout hits, and the screen must show the window)
# Nothing else is installed in the root: the screenshot is read from Xvfb's own framebuffer
# file (-fbdir) and converted with the ffmpeg the quick start installed.
#
# usage: sudo --preserve-env=NODE_EXTRA_CA_CERTS bash scripts/fresh_root_check.sh [--reuse] [DIR]
#   (sudo drops the environment; the one variable is kept for a network that inspects TLS,
#   see below. As root: bash scripts/fresh_root_check.sh ...)
#   DIR      the root folder (default /var/tmp/lbm-fresh-root); logs and the screenshot go to
#            DIR.out. An existing DIR made by this script is deleted first so the root is fresh.
#   --reuse  keep an existing DIR's debootstrapped system (faster, but packages installed by an
#            earlier run are already there, so it does not prove the quick start complete)
# env: GUI_SECONDS (default 90) is the timeout for the gui command.
set -euo pipefail

reuse=0
if [ "${1:-}" = --reuse ]; then reuse=1; shift; fi
root=${1:-/var/tmp/lbm-fresh-root}
root=$(realpath -m "$root")
out=$root.out
gui_seconds=${GUI_SECONDS:-90}
display_number=77
repo=$(cd "$(dirname "$0")/.." && pwd)
marker=.lbm-fresh-root

[ "$(id -u)" -eq 0 ] || { echo "run as root (debootstrap, mount and chroot need it)" >&2; exit 2; }
case "$root" in /|/var|/var/tmp|/tmp|/root|"$repo"|"$repo"/*)
  echo "refusing root folder $root" >&2; exit 2 ;; esac

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
mounted_under() { awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo; }

cleanup() {
  # Processes started in the root by this check (Xvfb, the gui), found by their root directory.
  local pid
  for pid in /proc/[0-9]*; do
    pid=${pid#/proc/}
    if [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$root" ]; then kill "$pid" 2>/dev/null || true; fi
  done
  sleep 1
  local target
  for target in $(mounted_under | sort -r); do
    umount "$target" 2>/dev/null || umount -l "$target" || true
  done
  if [ -n "$(mounted_under)" ]; then
    echo "WARNING: still mounted under $root:" >&2; mounted_under >&2
  fi
}

# --- debootstrap on the host -------------------------------------------------------------------
if ! command -v debootstrap >/dev/null; then
  log "installing debootstrap on the host"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
fi

# The mirror this machine's apt uses for bookworm (one-line sources.list or deb822 .sources).
mirror=$(
  {
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
      | awk '$1 == "deb" { u = ""; s = ""; for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) { u = $i; s = $(i + 1); break }
                           if (s == "bookworm") print u }'
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -e "$f" ] || continue
      awk 'BEGIN { RS = ""; FS = "\n" }
           { u = ""; s = ""; types = ""
             for (i = 1; i <= NF; i++) {
               if ($i ~ /^URIs:/) { u = $i; sub(/^URIs:[ \t]*/, "", u); split(u, a, /[ \t]+/); u = a[1] }
               if ($i ~ /^Suites:/) s = " " $i " "
               if ($i ~ /^Types:/) types = $i }
             if (types ~ /deb( |$)/ && s ~ / bookworm / && u != "") print u }' "$f"
    done
  } | head -n 1
)
mirror=${mirror:-http://deb.debian.org/debian}

mkdir -p "$out"
: >"$out/summary.txt"
if [ -n "$(mounted_under)" ]; then echo "something is mounted under $root; unmount it first" >&2; exit 2; fi
trap cleanup EXIT
trap 'exit 130' INT TERM

debootstrap_seconds=reused
if [ $reuse -eq 1 ] && [ -e "$root/$marker.complete" ]; then
  log "reusing the debootstrapped system in $root"
else
  if [ -e "$root" ]; then
    [ -e "$root/$marker" ] || { echo "$root exists and was not made by this script" >&2; exit 2; }
    log "removing the previous root $root"
    rm -rf --one-file-system "$root"
  fi
  mkdir -p "$root"
  touch "$root/$marker"   # lets a later run delete a root whose debootstrap failed half-way
  log "debootstrap --variant=minbase bookworm $root $mirror (log: $out/debootstrap.log)"
  start=$(date +%s)
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$out/debootstrap.log" 2>&1 \
    || { tail -n 30 "$out/debootstrap.log"; exit 1; }
  debootstrap_seconds=$(( $(date +%s) - start ))
  touch "$root/$marker.complete"
fi

# --- the chroot's mounts, DNS, the sources ---------------------------------------------------------
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --bind /dev "$root/dev"
mount --make-rslave "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount -t tmpfs -o mode=1777,nosuid,nodev shm "$root/dev/shm"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# No init runs in a chroot: keep package scripts from starting daemons (dbus) that would outlive it.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"

rm -rf "$root/root/lingbot-monitor"
git clone --quiet --no-hardlinks "$repo" "$root/root/lingbot-monitor"
commit=$(git -C "$root/root/lingbot-monitor" rev-parse --short HEAD)
log "cloned $repo at $commit into $root/root/lingbot-monitor"

# A network that inspects TLS (this host's does) is trusted through NODE_EXTRA_CA_CERTS; a fresh
# root has only Debian's CAs, so npm there could not reach the registry to vendor hls.js
# (SELF_SIGNED_CERT_IN_CHAIN). The host's extra CA file goes into the root, and that one
# variable with it: a machine on this network would be set up the same way.
extra_ca=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  cp -L "$NODE_EXTRA_CA_CERTS" "$root/etc/lbm-host-extra-ca.pem"
  extra_ca=(NODE_EXTRA_CA_CERTS=/etc/lbm-host-extra-ca.pem)
fi

# A fresh root shell: root's HOME and Debian's default root PATH, nothing of this host's
# environment but the extra CA above.
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" "${extra_ca[@]}" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# --- command 1: bash scripts/quickstart.sh test -----------------------------------------------------
log "running 'bash scripts/quickstart.sh test' in the root (log: $out/test.log)"
start=$(date +%s)
set +e
in_root bash -c 'cd /root/lingbot-monitor && bash scripts/quickstart.sh test' </dev/null >"$out/test.log" 2>&1
test_status=$?
set -e
test_seconds=$(( $(date +%s) - start ))
ctest_line=$(grep -E 'tests passed|tests failed' "$out/test.log" | tail -n 1 || true)
log "test: exit $test_status after ${test_seconds}s: ${ctest_line:-no ctest summary}"
if [ $test_status -ne 0 ]; then tail -n 40 "$out/test.log"; fi

# --- command 2: bash scripts/quickstart.sh gui, on an Xvfb display ----------------------------------
# Xvfb comes from the quick start (xvfb); -fbdir puts its screen in a file, read for the screenshot.
gui_status=not-run
shot=""
if in_root sh -c 'command -v Xvfb' >/dev/null; then
  rm -rf "$root/tmp/lbm-fb" "$root/tmp/.X11-unix/X$display_number" "$root/tmp/.X$display_number-lock"
  mkdir -p "$root/tmp/lbm-fb"
  in_root Xvfb ":$display_number" -screen 0 1920x1080x24 -nolisten tcp -fbdir /tmp/lbm-fb \
    </dev/null >"$out/xvfb.log" 2>&1 &
  xvfb_pid=$!
  for _ in $(seq 50); do [ -S "$root/tmp/.X11-unix/X$display_number" ] && break; sleep 0.2; done
  log "running 'timeout $gui_seconds bash scripts/quickstart.sh gui' with DISPLAY=:$display_number (log: $out/gui.log)"
  in_root DISPLAY=":$display_number" bash -c \
    "cd /root/lingbot-monitor && timeout $gui_seconds bash scripts/quickstart.sh gui" \
    </dev/null >"$out/gui.log" 2>&1 &
  gui_pid=$!
  # The screenshot: a while after the program started (the build is already done by `test`).
  shot_at=$(( gui_seconds * 2 / 3 ))
  sleep "$shot_at"
  if kill -0 "$gui_pid" 2>/dev/null; then
    cp "$root/tmp/lbm-fb/Xvfb_screen0" "$out/screen.xwd"
    cp "$out/screen.xwd" "$root/tmp/lbm-fb/shot.xwd"
    rm -f "$out/screenshot.png"
    if in_root ffmpeg -loglevel error -y -i /tmp/lbm-fb/shot.xwd -frames:v 1 /tmp/lbm-fb/shot.png; then
      cp "$root/tmp/lbm-fb/shot.png" "$out/screenshot.png"
    else
      ffmpeg -loglevel error -y -i "$out/screen.xwd" -frames:v 1 "$out/screenshot.png" || true
    fi
    [ -s "$out/screenshot.png" ] && shot=$out/screenshot.png
  fi
  set +e
  wait "$gui_pid"
  gui_status=$?
  set -e
  kill "$xvfb_pid" 2>/dev/null || true
  wait "$xvfb_pid" 2>/dev/null || true
fi

gui_verdict=FAIL
# An empty Xvfb screen is one colour and compresses to a few KB; a window does not.
if [ "$gui_status" = 124 ] && [ -n "$shot" ] && [ "$(stat -c %s "$shot")" -gt 20000 ]; then
  gui_verdict="ok (still running at the ${gui_seconds}s timeout; screenshot at ${shot_at}s)"
elif [ "$gui_status" = 124 ]; then
  gui_verdict="running at the timeout, but the screenshot looks empty or is missing"
else
  gui_verdict="FAIL (exit $gui_status before the ${gui_seconds}s timeout)"
fi
[ "$test_status" -eq 0 ] && test_verdict=ok || test_verdict="FAIL (exit $test_status)"

{
  echo "fresh Debian 12 root: $root (mirror $mirror), repo commit $commit"
  echo "debootstrap:      ${debootstrap_seconds}s"
  echo "quickstart test:  $test_verdict, wall ${test_seconds}s; ctest: ${ctest_line:-none}"
  echo "quickstart gui:   $gui_verdict"
  echo "screenshot:       ${shot:-none}"
  echo "logs:             $out/{debootstrap,test,gui,xvfb}.log"
} | tee "$out/summary.txt"

[ "$test_status" -eq 0 ] && [ "${gui_verdict#ok}" != "$gui_verdict" ]
