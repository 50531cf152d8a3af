# Shared helpers for scripts/*.sh: install missing Debian/Ubuntu packages, and the real Python
# Hermes Agent the cross-program tests run (tests/suite/hermes_compat). Sourced, not run.

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
# whisper test model, python3-venv makes the Python Hermes virtualenv (install_python_hermes).
TEST_PACKAGES=(tmux espeak-ng sox xvfb xauth python3 python3-pip python3-numpy python3-venv)

require_cargo() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust from https://rustup.rs first" >&2
    exit 1
  fi
}

# The Python Hermes Agent release the compatibility tests (tests/suite/hermes_compat) run against.
PYTHON_HERMES_VERSION=0.19.0

# install_python_hermes: a virtualenv with hermes-agent==$PYTHON_HERMES_VERSION from PyPI, and
# its source distribution unpacked (the wheel has no skills/ or optional-skills/), cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/hermes-tests/. Idempotent: no network when both are present
# and complete (a marker file is written last, after a check); a broken or half-built copy is
# rebuilt. Exports HERMES_PY_VENV (the venv dir) and HERMES_SDIST (the unpacked sdist dir).
install_python_hermes() {
  local version="$PYTHON_HERMES_VERSION"
  local root="${XDG_CACHE_HOME:-$HOME/.cache}/hermes-tests/hermes-agent-$version"
  local venv="$root/venv" sdist="$root/sdist/hermes_agent-$version"
  mkdir -p "$root"
  if ! { [ -f "$venv/.hermes-tests-complete" ] && "$venv/bin/python" -c 'import hermes_cli, run_agent' 2>/dev/null; }; then
    echo "installing Python Hermes Agent $version into $venv" >&2
    # Built in place (a venv's scripts carry its absolute path, so it cannot be moved); the
    # marker written last tells a complete venv from one an interrupted run left behind.
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "hermes-agent==$version"
    "$venv/bin/python" -c 'import hermes_cli, run_agent'
    echo "$version" > "$venv/.hermes-tests-complete"
  fi
  if ! { [ -f "$sdist/.hermes-tests-complete" ] && [ -d "$sdist/skills" ] && [ -d "$sdist/optional-skills" ]; }; then
    echo "downloading the Python Hermes Agent $version source distribution into $root/sdist" >&2
    rm -rf "$root/sdist" "$root/sdist.partial"
    mkdir -p "$root/sdist.partial"
    "$venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-binary :all: --no-deps \
      --dest "$root/sdist.partial" "hermes-agent==$version"
    tar -xzf "$root/sdist.partial/hermes_agent-$version.tar.gz" -C "$root/sdist.partial"
    [ -d "$root/sdist.partial/hermes_agent-$version/skills" ]
    touch "$root/sdist.partial/hermes_agent-$version/.hermes-tests-complete"
    mv "$root/sdist.partial" "$root/sdist"
  fi
  export HERMES_PY_VENV="$venv" HERMES_SDIST="$sdist"
}
