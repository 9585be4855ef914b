#!/usr/bin/env bash
# Wall time of RM3 with the power take-off as a Python module against the built-in damper
# (docs/performance.md, "External PTO module on RM3"): builds the release binaries, then runs
# the two cases alternately N times (default 5) and prints each case's times, the fastest of
# each, their ratio, the module's round trips and the load average. Alternating and taking the
# fastest run keeps other jobs on a shared machine out of the ratio as far as possible.
# Usage: scripts/external-pto-walltime.sh [N]. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-5}"
cargo build --release -q -p tidelink -p tidelink-mbs -p tidelink-tdpf
run() {  # run CASE LOG: prints the wall seconds
  local start end
  start=$(date +%s.%N)
  target/release/tidelink run "$1" >"$2" 2>&1 || { echo "tidelink run $1 failed: see $2" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
log=$(mktemp)
builtin=() module=()
for _ in $(seq "$n"); do
  builtin+=("$(run configs/rm3_reg_waves "$log")")
  module+=("$(run configs/rm3_reg_waves/external_pto "$log")")
done
fastest() { printf '%s\n' "$@" | sort -g | head -1; }
b=$(fastest "${builtin[@]}") m=$(fastest "${module[@]}")
echo "built-in damper, s: ${builtin[*]}"
echo "Python module,   s: ${module[*]}"
printf 'fastest: built-in %.2f s, module %.2f s, ratio %.2f\n' "$b" "$m" "$(echo "$m / $b" | bc -l)"
grep -o '[0-9]* evaluations ([0-9]* more answered as repeats), [0-9.]* µs per round trip' "$log" || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$log"
