#!/usr/bin/env bash
# The 2D dam-break demo: the SPH solver's Martin & Moyce column collapse at two resolutions
# (a/dp = 25 and 50), its surge front against the experiments of Martin & Moyce (1952) and
# Koshizuka & Oka (1996). Builds in release mode, then about 75 s of simulation on two cores.
# Writes demos/dam_break/results/: sph_dam_break_front.png and one CSV of (T, Z) per resolution.
# Run from anywhere.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

out=demos/dam_break/results
cargo run --release -p tidelink-sph-solver --example dam_break_2d -- "$out" 25 50

echo
echo "plot: $out/sph_dam_break_front.png (front position Z = x/a against T = t √(2g/a))"
echo "series: $out/sph_dam_break_front_25.csv, $out/sph_dam_break_front_50.csv"
