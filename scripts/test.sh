#!/usr/bin/env bash
# Runs the whole test suite from a fresh checkout: set-up, the Python tests of hydro/ (pytest in a
# pinned virtual environment under target/, reused while its stamp matches: hydro/test.sh), then every
# crate's tests; after them the Python tests of pto/ (unittest, standard library only) and of the
# Python module `precice` (bindings/python/tests, in .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash hydro/test.sh
# The MATLAB helper: its self-test where Octave is installed, else its framing against Python's.
# (--no-history: Octave 7.3 otherwise ends with "error: ignoring const execution_exception" when
# it has no history folder.) tests/octave_module.rs runs a whole RM3 case through it there.
if command -v octave-cli >/dev/null 2>&1; then
  octave-cli --no-gui --quiet --no-history --eval "addpath('pto/matlab'); tidelink_pto_selftest"
fi
"${TIDELINK_PYTHON:-python3}" pto/matlab/check_framing.py
cargo test --workspace "$@"
# The external-module helper (pure standard library, no venv): tidelink_pto, the worked modules and
# the trios' visual-verification script, whose charts tidelink-plot draws (built here for it).
cargo build -p tidelink-plot
"${TIDELINK_PYTHON:-python3}" -m unittest discover -s pto/python/tests
# The Python module `precice` (built into the project's environment by setup.sh): its unittest
# suite, after the crates' tests so that the Rust programs it pairs with are built.
"${TIDELINK_VENV:-.venv}/bin/python" -m unittest discover -s bindings/python/tests -t bindings/python/tests
# The MBS FMU checked by FMPy, and coupled as RM3's Solid with tidelink-tdpf through its Python master
# (docs/fmi.md): packs the FMUs with the programs built here.
cargo build -p tidelink-mbs-fmu
"${TIDELINK_VENV:-.venv}/bin/python" -m unittest discover -s participants/mbs/fmu/python
