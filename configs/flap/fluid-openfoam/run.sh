#!/usr/bin/env bash
# The Fluid of the flap case: OpenFOAM's pimpleFoam with the OpenFOAM-preCICE adapter.
# Needs OpenFOAM's environment (v1912 or later; blockMesh and pimpleFoam on PATH), the
# adapter's libpreciceAdapterFunctionObject.so where OpenFOAM finds libraries
# ($FOAM_USER_LIBBIN or LD_LIBRARY_PATH) and libprecice 3.4. Start the Solid first, from
# the repository's root:  tidelink run configs/flap/openfoam  (see ../README.md).
set -e -u
cd "$(dirname "$0")"

blockMesh > log.blockMesh 2>&1 || { tail -n 20 log.blockMesh; exit 1; }
checkMesh > log.checkMesh 2>&1 || true
echo "mesh: $(grep -m1 'cells:' log.checkMesh || echo '?')"

echo "pimpleFoam: log in log.pimpleFoam"
pimpleFoam > log.pimpleFoam 2>&1 || { tail -n 30 log.pimpleFoam; exit 1; }
tail -n 3 log.pimpleFoam
