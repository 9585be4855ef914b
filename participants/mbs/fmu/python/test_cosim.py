"""The MBS FMU in a coupled run: RM3 in regular waves (configs/rm3_reg_waves), the Solid played by
the FMU of its own participant file through a small master (cosim_master.py: FMPy + the `precice`
module on the native engine), the Fluid by `tidelink-tdpf`; compared with the same case run by
`tidelink-mbs` (with the FMU's integrator, backward Euler) — equal within the coupling
tolerance — and with the case's HHT, within the integrators' difference.

Skipped, visibly, without fmpy, the `precice` module, the built programs or the RM3 data.

Run: python -m unittest participants/mbs/fmu/python/test_cosim.py (after
`cargo build -p tidelink-mbs-fmu -p tidelink-mbs -p tidelink-tdpf`; programs in
$CARGO_TARGET_DIR/debug, else target/debug, or the folder TIDELINK_BIN_DIR).
"""

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

try:
    import fmpy  # noqa: F401
    import numpy as np
except ImportError:
    fmpy = None
try:
    import precice  # noqa: F401
except ImportError:
    precice = None

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
CASE = ROOT / "configs" / "rm3_reg_waves"
SHARED = Path(os.environ.get("TIDELINK_SHARED", ROOT.parent / "shared"))
H5_DIR = SHARED / "data" / "rm3"
# Simulated time: 12 s of the case's 40 ms windows, the waves ramped up over 4 s (the case: 200 s,
# 100 s).
END, RAMP = 12.0, 4.0


def bin_dir():
    if os.environ.get("TIDELINK_BIN_DIR"):
        return Path(os.environ["TIDELINK_BIN_DIR"])
    return Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug"


PROGRAMS = ["tidelink-mbs-fmu", "tidelink-mbs", "tidelink-tdpf"]
MISSING = [p for p in PROGRAMS if not (bin_dir() / p).exists()]


def make_case(dest, integrator):
    """A copy of the RM3 case with absolute data paths, a short run and `integrator` (solver file text)."""
    shutil.copytree(CASE / "fluid", dest / "fluid")
    shutil.copytree(CASE / "solid", dest / "solid")
    rel = "../../../../shared/data/rm3"
    for f in ["fluid/tdpf_model.yaml", "solid/participant.yaml"]:
        p = dest / f
        text = p.read_text()
        assert rel in text, f"{f} no longer names {rel}"
        text = text.replace("type: RELATIVE\n    root: " + rel, f"type: ABSOLUTE\n    root: {H5_DIR}")
        text = text.replace(f"root: {rel}", f"root: {H5_DIR}")
        p.write_text(text.replace("ramp_time: 100", f"ramp_time: {RAMP}"))
    (dest / "solid" / "solver.yaml").write_text(integrator)
    xml = (CASE / "precice-config.xml").read_text().replace('<max-time value="200" />', f'<max-time value="{END}" />')
    assert f'<max-time value="{END}" />' in xml
    (dest / "precice-config.xml").write_text(xml)


def run_pair(case, solid_cmd):
    """Runs the Fluid (tidelink-tdpf) and `solid_cmd` in `case`; both must succeed."""
    fluid = subprocess.Popen([str(bin_dir() / "tidelink-tdpf"), "fluid/participant.yaml", "--precice-config",
                              "precice-config.xml"], cwd=case, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    solid = subprocess.run(solid_cmd, cwd=case, capture_output=True, text=True)
    out, _ = fluid.communicate()
    assert solid.returncode == 0, solid.stdout + solid.stderr
    assert fluid.returncode == 0, out


def mbs_series(path):
    """time -> (z, vz) of a tidelink-mbs body CSV."""
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    head = rows[0]
    t, z, vz = head.index("time_s"), head.index("z_m"), head.index("vz_m_s")
    return {round(float(r[t]), 6): (float(r[z]), float(r[vz])) for r in rows[1:]}


def fmu_series(path, body):
    with open(path) as f:
        rows = list(csv.reader(f))
    head = rows[0]
    t, z, vz = head.index("time"), head.index(f"{body}.z"), head.index(f"{body}.vz")
    return {round(float(r[t]), 6): (float(r[z]), float(r[vz])) for r in rows[1:]}


# One backward-Euler step per 40 ms window, as the case's HHT.
BDF1 = "integrator:\n  type: BDF\n  order: 1\n  time_step: 0.04\n"


@unittest.skipIf(fmpy is None, "fmpy is not installed (pip install fmpy)")
@unittest.skipIf(precice is None, "the precice module is not installed (pip install ./bindings/python)")
@unittest.skipIf(bool(MISSING), f"not built in {bin_dir()}: {MISSING} (cargo build -p ...)")
@unittest.skipIf(not (H5_DIR / "rm3.h5").exists(), f"needs {H5_DIR / 'rm3.h5'} (reference data beside the repository)")
class CoupledRm3(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        base = Path(cls.tmp.name)
        cls.results = {}
        # The FMU run and the tidelink-mbs run with the FMU's integrator.
        for name in ["fmu", "mbs"]:
            case = base / name
            case.mkdir()
            make_case(case, BDF1)
            if name == "fmu":
                fmu = case / "rm3.fmu"
                cls.fmu = fmu
                subprocess.run([str(bin_dir() / "tidelink-mbs-fmu"), "solid/participant.yaml", "--precice-config",
                                "precice-config.xml", "-o", str(fmu)], cwd=case, check=True, capture_output=True)
                run_pair(case, [sys.executable, str(HERE / "cosim_master.py"), str(fmu), "--participant", "Solid",
                                "--config", "precice-config.xml", "--mesh", "SolidMesh", "--output", "fmu.csv"])
                cls.results[name] = {b: fmu_series(case / "fmu.csv", b) for b in ["float", "spar"]}
            else:
                run_pair(case, [str(bin_dir() / "tidelink-mbs"), "solid/participant.yaml", "--precice-config",
                                "precice-config.xml"])
                cls.results[name] = {b: mbs_series(case / "solid" / "output" / f"{b}.csv") for b in ["float", "spar"]}
        # The case's own integrator (HHT), for the size of the integrator difference.
        case = base / "hht"
        case.mkdir()
        make_case(case, (CASE / "solid" / "solver.yaml").read_text())
        run_pair(case, [str(bin_dir() / "tidelink-mbs"), "solid/participant.yaml", "--precice-config",
                        "precice-config.xml"])
        cls.results["hht"] = {b: mbs_series(case / "solid" / "output" / f"{b}.csv") for b in ["float", "spar"]}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_rm3_fmu_validates(self):
        import fmpy.validation

        problems = fmpy.validation.validate_fmu(str(self.fmu))
        self.assertEqual(problems, [], "\n".join(problems))
        md = fmpy.read_model_description(str(self.fmu), validate_model_structure=True)
        names = {v.name for v in md.modelVariables}
        self.assertTrue({"float.fz", "spar.tz", "float.z", "spar.wz", "pto.damping"} <= names)
        # Float and spar share the joint and the PTO: each output depends on all 12 inputs.
        self.assertTrue(all(len(u.dependencies) == 12 for u in md.outputs))

    def differences(self, a, b):
        """Largest |Δz| and |Δvz| over the common output times, and the heave range of `b`."""
        worst = [0.0, 0.0]
        times = sorted(set(a) & set(b))
        self.assertGreater(len(times), 50)
        for t in times:
            for k in range(2):
                worst[k] = max(worst[k], abs(a[t][k] - b[t][k]))
        zs = [b[t][0] for t in times]
        return worst, max(zs) - min(zs), times[-1]

    def test_fmu_equals_tidelink_mbs_within_the_coupling_tolerance(self):
        for body in ["float", "spar"]:
            (dz, dvz), span, last = self.differences(self.results["fmu"][body], self.results["mbs"][body])
            print(f"\n{body}: FMU vs tidelink-mbs (BDF1), outputs every 0.2 s to t = {last}: max |dz| {dz:.3e} m, "
                  f"max |dvz| {dvz:.3e} m/s "
                  f"(heave range {span:.3f} m)")
            # The scheme stops iterating when velocities change by < 1e-5 relative (or 1e-6 m/s):
            # two runs of the same model differ by at most what each
            # converged window leaves, accumulated over the run; 1e-4 m/s and 1e-4 m bound it.
            self.assertLess(dvz, 1e-4)
            self.assertLess(dz, 1e-4)
            self.assertGreater(span, 0.01, "the waves moved the body")

    def test_the_integrator_difference_to_the_cases_hht(self):
        for body in ["float", "spar"]:
            (dz, dvz), span, last = self.differences(self.results["fmu"][body], self.results["hht"][body])
            print(f"\n{body}: FMU (backward Euler) vs tidelink-mbs (HHT) to t = {last}: max |dz| {dz:.3e} m, "
                  f"max |dvz| {dvz:.3e} m/s (heave range {span:.3f} m)")
            # First-order backward Euler damps the 8 s wave response at 40 ms steps by about
            # ω h / 2 ≈ 1.6 % per period: a few percent of the heave range after 12 s.
            self.assertLess(dz, 0.05 * span + 1e-3)


if __name__ == "__main__":
    unittest.main()
