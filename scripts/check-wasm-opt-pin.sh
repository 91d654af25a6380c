#!/usr/bin/env bash
# Proves that a wrong wasm-opt fails the build loudly instead of shipping a blank page: puts a fake wasm-opt
# that reports binaryen 108 (Debian's, which builds a wasm that fails at run time) first on PATH, runs
# `trunk build --release` into a scratch dir, and expects trunk to refuse it with an error naming the pinned
# version (Trunk.toml [tools] wasm_opt). Needs a prepared machine (scripts/setup.sh); quick after a build.
set -uo pipefail
cd "$(dirname "$0")/.."

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bin"
cat >"$scratch/bin/wasm-opt" <<'FAKE'
#!/bin/sh
echo "wasm-opt version 108"
FAKE
chmod +x "$scratch/bin/wasm-opt"

output=$(PATH="$scratch/bin:$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH" \
  trunk build --release --dist "$scratch/dist" 2>&1)
status=$?
printf '%s\n' "$output" | tail -n 5

if [ "$status" -eq 0 ]; then
  echo "check-wasm-opt-pin: FAILED: trunk built with wasm-opt 108 instead of refusing it."
  exit 1
fi
if ! printf '%s\n' "$output" | grep -q "required version (version_132) of the application wasm-opt (found: version_108)"; then
  echo "check-wasm-opt-pin: FAILED: trunk failed, but not with the expected wasm-opt version error."
  exit 1
fi
echo "check-wasm-opt-pin: ok: trunk refuses wasm-opt 108 (pinned: version_132)."
