#!/usr/bin/env bash
# Runs the whole test suite from a fresh checkout: set-up, the Python tests of hydro/ (pytest in a
# pinned virtual environment under target/, reused while its stamp matches: hydro/test.sh), then every
# crate's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash hydro/test.sh
cargo test --workspace "$@"
