#!/bin/sh
# Runs a test executable in a fresh user + network + mount namespace: the only interface is
# a loopback that is down and there is no route, so a host-name lookup fails locally. The
# mount namespace also points /etc/resolv.conf at 127.0.0.1, so the resolver is never even
# asked to reach the machine's name server. Exit 77 (CTest: skipped) when namespaces are not
# permitted here.
set -u
exe=$1
shift
if ! unshare -rn true 2>/dev/null; then
  echo "SKIPPED: 'unshare -rn' is not permitted here (user namespaces disabled?); the DNS" \
       "cells did not run." >&2
  exit 77
fi
resolv=$(mktemp)
trap 'rm -f "$resolv"' EXIT
echo "nameserver 127.0.0.1" > "$resolv"
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -rnm sh -c 'mount --bind "$0" /etc/resolv.conf 2>/dev/null || true; shift; exec "$@"' \
  "$resolv" -- "$exe" "$@"
