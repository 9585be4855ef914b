#!/usr/bin/env bash
# Runs the Python tests (pytest on hydro/tests) in a virtual environment with the pinned packages:
# target/hydro-test-venv (ignored), made with `python3 -m venv` and
#   pip install -c hydro/constraints.txt -e 'hydro[test]'
# i.e. the pins of hydro/pyproject.toml, every transitive version from hydro/constraints.txt (the same
# file the private environment of `tidelink hydro` is installed with) and pytest.  The environment is
# reused while its stamp (a SHA-256 of the interpreter's version, pyproject.toml and constraints.txt)
# matches, and rebuilt otherwise.  TIDELINK_PYTHON picks the interpreter, as for `tidelink hydro`;
# TIDELINK_HYDRO_TEST_VENV the folder.  Extra arguments go to pytest.  Needs PyPI when it (re)builds.
set -euo pipefail
cd "$(dirname "$0")/.."

python="${TIDELINK_PYTHON:-python3}"
venv="${TIDELINK_HYDRO_TEST_VENV:-target/hydro-test-venv}"
stamp_file="$venv/tidelink-test-stamp"

if ! command -v "$python" >/dev/null 2>&1; then
  echo "hydro tests: \`$python\` not found: Python 3.11+ with venv is needed (scripts/setup.sh installs it on Debian)" >&2
  exit 1
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "hydro tests: $("$python" -V 2>&1) is too old: capytaine 3.0.0 needs Python 3.11+ (set TIDELINK_PYTHON)" >&2
  exit 1
fi

stamp="$( { "$python" -VV; cat hydro/pyproject.toml hydro/constraints.txt; } | sha256sum | cut -d' ' -f1)"
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp_file" 2>/dev/null)" = "$stamp" ]; then
  echo "hydro tests: reusing $venv (stamp matches)"
else
  echo "hydro tests: creating $venv (pip install -c hydro/constraints.txt -e hydro[test])"
  start=$SECONDS
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  if ! "$python" -m venv "$venv"; then
    rm -rf "$venv"
    echo "hydro tests: \`$python -m venv\` failed (on Debian/Ubuntu install python3-venv: scripts/setup.sh)" >&2
    exit 1
  fi
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off -q \
    -c hydro/constraints.txt -e 'hydro[test]'
  echo "$stamp" > "$stamp_file"
  echo "hydro tests: environment ready in $((SECONDS - start)) s"
fi

set +e
"$venv/bin/python" -m pytest hydro/tests "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "hydro tests: pytest collected no tests (exit code 5): hydro/tests is missing or broken" >&2
fi
exit "$rc"
