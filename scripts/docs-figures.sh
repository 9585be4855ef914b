#!/usr/bin/env bash
# Regenerates the figures of docs/reading-results.md: runs the rm3_reg_waves demo (with the
# WAMIT-derived hydrodynamic file of ../shared when it is there, so WEC-Sim's series is drawn
# too; otherwise with the file `tidelink hydro` generates) and draws its plots 800 pixels
# wide into docs/figures/ (the demo's closing table goes into the page by hand). Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -f ../shared/data/rm3/rm3.h5 ]]; then export RM3_HYDRO="${RM3_HYDRO:-shared}"; fi
bash demos/rm3_reg_waves/run.sh
reference=../shared/data/rm3/wecsim_rm3_regular_H2p5_T8_reference.csv
[[ -f "$reference" ]] || reference=-
tmp=$(mktemp -d)
cargo run --release -q -p tidelink --example rm3_plots -- demos/rm3_reg_waves "$reference" "$tmp" 800
# 256 colours make the files ten times smaller (apt-get install pngquant); plain copies otherwise.
for f in heave pto; do
  if command -v pngquant >/dev/null 2>&1; then
    pngquant --quality=60-90 --force --output "docs/figures/rm3-$f.png" "$tmp/$f.png"
  else
    cp "$tmp/$f.png" "docs/figures/rm3-$f.png"
  fi
done
rm -r "$tmp"
echo "written: docs/figures/rm3-heave.png, docs/figures/rm3-pto.png"
