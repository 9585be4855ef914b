#!/usr/bin/env bash
# Regenerates the figures of docs/reading-results.md: runs the rm3_reg_waves demo (with the
# WAMIT-derived hydrodynamic file of ../shared when it is there, so WEC-Sim's series is drawn
# too; otherwise with the file `tidelink hydro` generates) and draws its plots 800 pixels
# wide into docs/figures/. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -f ../shared/data/rm3/rm3.h5 ]]; then export RM3_HYDRO="${RM3_HYDRO:-shared}"; fi
bash demos/rm3_reg_waves/run.sh
reference=../shared/data/rm3/wecsim_rm3_regular_H2p5_T8_reference.csv
[[ -f "$reference" ]] || reference=-
tmp=$(mktemp -d)
cargo run --release -q -p tidelink --example rm3_plots -- demos/rm3_reg_waves "$reference" "$tmp" 800
cp "$tmp/heave.png" docs/figures/rm3-heave.png
cp "$tmp/pto.png" docs/figures/rm3-pto.png
rm -r "$tmp"
echo "written: docs/figures/rm3-heave.png, docs/figures/rm3-pto.png"
