#!/usr/bin/env bash
# Removes what run.sh and the adapter leave in this case: the mesh, the time folders,
# logs, postProcessing and preCICE's profiling.
set -e -u
cd "$(dirname "$0")"

rm -rf constant/polyMesh postProcessing precice-profiling processor*
rm -f log.* precice-*.log precice-*.json
# Every time folder but 0.
for d in [0-9]*; do
    if [ -d "$d" ] && [ "$d" != 0 ]; then rm -rf -- "$d"; fi
done
