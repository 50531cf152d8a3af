# Shared helpers for scripts/*.sh: install missing Debian/Ubuntu packages, nothing else.
# Sourced, not run.

# apt_install PKG...: installs the packages that are not installed yet (no-op, and no network,
# when everything is present). Uses sudo when not root.
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing system packages: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Packages the build needs: ALSA headers for audio (cpal, rodio), cmake and clang for whisper.cpp
# (whisper-rs), plus git, which file checkpoints (/rollback) run at runtime.
BUILD_PACKAGES=(pkg-config build-essential git libasound2-dev cmake clang libclang-dev)
# Packages the test suite needs on top: tmux drives the real binary in end-to-end tests, espeak-ng
# and sox make speech fixtures, Xvfb gives clipboard tests a display, python3-numpy builds the
# whisper test model.
TEST_PACKAGES=(tmux espeak-ng sox xvfb xauth python3 python3-pip python3-numpy)

require_cargo() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust from https://rustup.rs first" >&2
    exit 1
  fi
}
