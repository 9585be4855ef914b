#!/usr/bin/env bash
# Runs the whole test suite from a fresh checkout: set-up, then every crate's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test --workspace "$@"
