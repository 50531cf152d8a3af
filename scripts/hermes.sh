#!/usr/bin/env bash
# Quick start, command 1: install missing system packages, build hermes (release) and launch it.
# Arguments are passed to hermes, e.g. scripts/hermes.sh -z "list the files here".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
require_cargo
apt_install "${BUILD_PACKAGES[@]}"
cargo build --release --locked
exec target/release/hermes "$@"
