#!/usr/bin/env bash
# Installs whatever is missing (scripts/setup.sh), then builds the app in release mode (wasm-opt on) and
# serves it on http://127.0.0.1:8080 (Trunk.toml [serve]). Stop with Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
# The npm binaryen's wasm-opt (version 132) must come before any other wasm-opt on PATH: Debian's builds a
# wasm that fails at run time. Trunk.toml's pin makes any other version a build error.
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
echo "Reshard Lens will be on http://127.0.0.1:8080/ once built (the first build takes a few minutes)."
exec trunk serve --release "$@"
