#!/usr/bin/env bash
# Runs the main demo from a fresh checkout: set-up, release build, then the case.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec bash demos/sphere_drop/run.sh "$@"
