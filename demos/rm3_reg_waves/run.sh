#!/usr/bin/env bash
# The rm3_reg_waves demo: the RM3 point absorber in regular waves (H 2.5 m, T 8 s) for
# 400 s, tidelink-mbs coupled to tidelink-tdpf. Builds in release mode, makes the
# hydrodynamic file, runs the case, then writes results and plots to
# demos/rm3_reg_waves/results/ and prints how close the steady state is to the
# frequency-domain solution of the same file (and to WEC-Sim's, when ../shared is there).
# Run from anywhere.
#
# The hydrodynamic file (demos/rm3_reg_waves/hydro/rm3.h5) is generated with Capytaine by
# `tidelink hydro` from configs/rm3_reg_waves/hydro/rm3_gdf.yaml: a few minutes on first
# use (it installs its Python packages into a private environment), cached afterwards.
# RM3_HYDRO=shared uses the WAMIT-derived file in ../shared/data/rm3/ instead.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# The launcher starts the participant binaries found next to itself (target/release).
cargo build --release -p tidelink -p tidelink-mbs -p tidelink-tdpf

hydro=demos/rm3_reg_waves/hydro
mkdir -p "$hydro"
rm -f "$hydro/rm3.h5"
if [[ "${RM3_HYDRO:-generated}" == shared ]]; then
    shared=../shared/data/rm3/rm3.h5
    [[ -f "$shared" ]] || { echo "RM3_HYDRO=shared needs $shared" >&2; exit 1; }
    ln -s "$(cd "$(dirname "$shared")" && pwd)/rm3.h5" "$hydro/rm3.h5"
    echo "hydrodynamic file: $shared (WAMIT-derived)"
else
    target/release/tidelink hydro configs/rm3_reg_waves/hydro/rm3_gdf.yaml -o "$hydro/rm3.h5"
    echo "hydrodynamic file: $hydro/rm3.h5 (Capytaine, generated from configs/rm3_reg_waves/hydro/rm3_gdf.yaml)"
fi

target/release/tidelink run demos/rm3_reg_waves

reference=../shared/data/rm3/wecsim_rm3_regular_H2p5_T8_reference.csv
[[ -f "$reference" ]] || reference=-
out=demos/rm3_reg_waves/results
cargo run --release -q -p tidelink --example rm3_plots -- demos/rm3_reg_waves "$reference" "$out"
echo
echo "heave.png: float and spar heave against time (tidelink blue), the frequency-domain steady amplitude of the"
echo "           same hydrodynamic file (dashed), WEC-Sim's series (orange, 0-200 s, when ../shared is there) and"
echo "           tidelink minus WEC-Sim; pto.png: PTO force and absorbed power. How to read them: docs/reading-results.md"
