#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (the repository's .clang-format)
# makes of it, and names the files; `clang-format -i FILE...` fixes them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_packages.sh clang-format
mapfile -t files < <(git ls-files '*.cpp' '*.h')
unformatted=()
for file in "${files[@]}"; do
  clang-format --dry-run --Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  echo "Not clang-formatted (fix with: clang-format -i ${unformatted[*]}):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "clang-format: ${#files[@]} files clean"
