#!/usr/bin/env bash
# Runs the main demo from a fresh checkout: set-up, release build, then RM3 in regular
# waves (demos/rm3_reg_waves; its first run also generates the hydrodynamic file).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec bash demos/rm3_reg_waves/run.sh "$@"
