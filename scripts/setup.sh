#!/usr/bin/env bash
# Installs whatever the app and its tests need and is missing; quick when everything is present.
# Pinned versions; each must change together with the places named beside it.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pins. TRUNK_VERSION: Trunk.toml has no trunk pin. WASM_BINDGEN_VERSION: Cargo.toml (wasm-bindgen =…),
# Trunk.toml [tools] wasm_bindgen. binaryen: package.json / package-lock.json, Trunk.toml [tools] wasm_opt.
TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130

step() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'setup: %s\n' "$*" >&2; exit 1; }
# Runs a long install with its output kept in a log ($log), so that a failure ends in one line, not pages.
quietly() {
  log=$(mktemp "${TMPDIR:-/tmp}/reshard-setup.XXXXXX")
  if "$@" >"$log" 2>&1; then rm -f "$log"; else return 1; fi
}

# The npm wasm-opt first: any other (Debian's, a cargo-installed one) would fail the version check below.
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

command -v cargo >/dev/null || die "cargo is missing: install Rust with rustup (https://rustup.rs), then rerun."
command -v rustup >/dev/null || die "rustup is missing: the wasm32 target is added with rustup; install Rust with rustup."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown target"
  quietly rustup target add wasm32-unknown-unknown \
    || die "could not add the wasm32-unknown-unknown target with rustup (output: $log)."
fi
for component in clippy rustfmt; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    step "adding the $component component"
    quietly rustup component add "$component" || die "could not add the rustup component $component (output: $log)."
  fi
done

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  step "installing trunk $TRUNK_VERSION (about 6 minutes on 2 cores)"
  quietly cargo install trunk --version "$TRUNK_VERSION" --locked \
    || die "could not install trunk $TRUNK_VERSION from crates.io (is it reachable? output: $log)."
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 4 minutes)"
  # Without --locked: the CLI's own lock file names a webpki-roots release that crates.io lacks.
  quietly cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" \
    || die "could not install wasm-bindgen-cli $WASM_BINDGEN_VERSION from crates.io (is it reachable? output: $log)."
fi

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v chromedriver >/dev/null || need_apt+=(chromium-driver)
command -v node >/dev/null || need_apt+=(nodejs npm)
command -v python3 >/dev/null || need_apt+=(python3)  # serves dist/ for the end-to-end tests
if [ ${#need_apt[@]} -gt 0 ]; then
  step "installing ${need_apt[*]} from Debian"
  command -v apt-get >/dev/null || die "${need_apt[*]} missing and no apt-get: install them with your package manager."
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  [ -z "$SUDO" ] || command -v sudo >/dev/null || die "${need_apt[*]} missing: run as root or install sudo."
  quietly $SUDO sh -c "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${need_apt[*]}" \
    || die "apt-get could not install ${need_apt[*]} (is the Debian mirror reachable? output: $log)."
fi

# npm packages (binaryen's wasm-opt, Playwright) from the committed lock; reinstall only when it changed.
if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.lock-stamp 2>/dev/null; then
  step "installing npm packages from package-lock.json"
  quietly npm ci --no-audit --no-fund || die "npm ci failed (is the npm registry reachable? output: $log)."
  cp package-lock.json node_modules/.lock-stamp
fi
[ -x node_modules/.bin/wasm-opt ] || die "node_modules/.bin/wasm-opt missing after npm ci (binaryen)."
case "$(wasm-opt --version)" in
  *"version 132"*) ;;
  *) die "wasm-opt on PATH is not binaryen 132 ($(wasm-opt --version)); Debian's binaryen builds a broken app." ;;
esac
