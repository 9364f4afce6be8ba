# Sourced by the scripts that build (quickstart.sh, sanitizers.sh, fuzz.sh). ccache reuses
# objects from earlier builds. Where it has none (a fresh machine, CI's clean clone) it only
# adds hashing and storing every object of a cold build: 239 s against 210 s wall for the
# release tree (docs/reliability.md). Such a build goes without it.
if command -v ccache >/dev/null && [ -z "${CCACHE_DISABLE:-}" ]; then
  cache_dir=$(ccache -k cache_dir 2>/dev/null || true)
  if [ -z "$(find "$cache_dir" -type f -name '*[RM]' -print -quit 2>/dev/null)" ]; then
    echo "$(basename "$0"): ccache has nothing to reuse yet; this build goes without it"
    export CCACHE_DISABLE=1
  fi
fi
