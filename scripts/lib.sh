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

# Packages the build needs today (later features add ALSA headers for audio, cmake and clang for whisper),
# plus git, which file checkpoints (/rollback) run at runtime.
BUILD_PACKAGES=(pkg-config build-essential git)
# Packages the test suite needs on top (tmux drives the real binary in end-to-end tests).
TEST_PACKAGES=(tmux)

require_cargo() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust from https://rustup.rs first" >&2
    exit 1
  fi
}
