#!/usr/bin/env bash
# The sphere_drop demo: a ball dropped into still water. Builds the launcher and both
# participants in release mode, runs configs/sphere_drop, then summarizes the ball's
# trajectory from the Solid participant's CSV output. Run from anywhere.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# The launcher starts the participant binaries found next to itself (target/release).
cargo build --release -p tidelink -p tidelink-mbs -p tidelink-buoyancy
cargo run --release -p tidelink -- run configs/sphere_drop

csv=configs/sphere_drop/solid/output/ball.csv
if [[ ! -s "$csv" ]]; then
    echo "no output found at $csv" >&2
    exit 1
fi

echo
echo "trajectory of the ball (one row per 1 ms window): $csv"
echo "$(head -n 1 "$csv")"
echo "columns: $(sed -n 2p "$csv")"
# Line 1 says which case and run, line 2 names the columns (time_s, x_m, y_m, z_m, ...);
# column 1 is the time, column 4 the height z of the ball's centre (the water line is z = 0).
awk -F, '/^#/ || /^time_s/ { next }
         !seen { z0 = $4; min = $4; tmin = $1; seen = 1 }
         { if ($4 < min) { min = $4; tmin = $1 }; t = $1; z = $4; vz = $10 }
         END {
           printf "released at z = %.3f m; deepest point z = %.4f m at t = %.3f s\n", z0, min, tmin
           printf "at the end (t = %.3f s): z = %.4f m, vz = %.4f m/s\n", t, z, vz
           print  "equilibrium: z = 0 (the ball is half as dense as water); see demos/sphere_drop/README.md"
         }' "$csv"

# A PNG of the main channels (top: z, middle: v_z, bottom: F_z; title, units and legend on it).
cargo run --release -q -p tidelink-mbs --example plot_csv -- "$csv" "${csv%.csv}.png"
