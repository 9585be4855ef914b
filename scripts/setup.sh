#!/usr/bin/env bash
# Installs what Tidelink needs on a Debian machine that has a Rust toolchain:
# pkg-config and the HDF5 headers (libhdf5-dev), and Python 3 with its venv module
# (python3, python3-venv) for hydro/test.sh and `tidelink hydro`. Installs through apt-get
# as root; otherwise names the missing packages and stops.
set -euo pipefail

need=()
# (The plots need no font package: tidelink-plot embeds its font.)
for pkg in pkg-config libhdf5-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# Checked by what the interpreter can do, not by package name, so a python3 from elsewhere
# (pyenv, a container image) counts; Debian ships ensurepip, which venv needs, in python3-venv.
# With TIDELINK_PYTHON set, that interpreter is the user's business (hydro/test.sh checks it).
if [ -z "${TIDELINK_PYTHON:-}" ]; then
  if ! command -v python3 >/dev/null 2>&1; then
    need+=(python3 python3-venv)
  elif ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    need+=(python3-venv)
  fi
fi

if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing ${need[*]} with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "setup: installing ${need[*]} with sudo apt-get" >&2
    sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "setup: missing Debian packages: ${need[*]}" >&2
    echo "setup: install them as root:  apt-get install ${need[*]}" >&2
    exit 1
  fi
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found: install a Rust toolchain (https://rustup.rs) first" >&2
  exit 1
fi

# The project's Python environment (.venv, or TIDELINK_VENV): the module `precice` on the native
# engine (bindings/python, docs/python.md), built from this checkout with maturin and installed
# with numpy; `source .venv/bin/activate` and pyprecice scripts run on Tidelink's engine. meshio
# is there for the engine's export tests (they read the VTK files back with it, docs/testing.md),
# fmpy for the FMU's test (an independent FMI importer, docs/fmi.md).
# TIDELINK_SKIP_PYTHON_MODULE=1 skips it (the wheel takes a few minutes to build the first time).
if [ "${TIDELINK_SKIP_PYTHON_MODULE:-0}" != 1 ]; then
  cd "$(dirname "$0")/.."
  venv="${TIDELINK_VENV:-.venv}"
  python="${TIDELINK_PYTHON:-python3}"
  if [ ! -x "$venv/bin/python" ]; then
    echo "setup: creating the Python environment $venv" >&2
    "$python" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off -q \
    -c bindings/python/constraints.txt numpy maturin meshio fmpy
  echo "setup: building the Python module precice (bindings/python) into $venv" >&2
  # Without build isolation (no second download of maturin): the backend calls `maturin` by name.
  PATH="$(cd "$venv/bin" && pwd):$PATH" "$venv/bin/python" -m pip install --disable-pip-version-check --no-input \
    --progress-bar off -q --no-build-isolation --force-reinstall --no-deps ./bindings/python
fi
