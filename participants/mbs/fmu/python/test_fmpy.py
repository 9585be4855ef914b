"""The MBS FMU checked by an independent FMI tool (FMPy): its model description validates, FMPy's
simulation with input signals gives the Rust side's trajectory bit for bit, its directional and
adjoint derivatives match central differences of fmi3DoStep taken through FMPy, and two instances
of the FMU run side by side in one process. Skipped, visibly, without fmpy or the built programs.

Run: python -m unittest discover -s participants/mbs/fmu/python (after
`cargo build -p tidelink-mbs-fmu`; the programs are looked up in $CARGO_TARGET_DIR/debug, else
target/debug, or given by TIDELINK_FMU_BIN).
"""

import csv
import io
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

try:
    import fmpy
    import numpy as np
    import fmpy.validation
    from fmpy.fmi3 import FMU3Slave
except ImportError:  # the test says so rather than passing
    fmpy = None

ROOT = Path(__file__).resolve().parents[4]
MODEL = Path(__file__).resolve().parents[1] / "tests" / "data" / "two_bodies.yaml"


def packer():
    if os.environ.get("TIDELINK_FMU_BIN"):
        return Path(os.environ["TIDELINK_FMU_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "debug" / "tidelink-mbs-fmu"


# Constant loads (inputs held over the whole run) and a parameter.
SETTINGS = {"float.fz": 3000.0, "buoy.fx": 20.0, "buoy.fy": -10.0, "buoy.tz": 5.0, "pto.damping": 5000.0}
INPUTS = [k for k in SETTINGS if k != "pto.damping"]
STEP, STEPS = 0.05, 20


@unittest.skipIf(fmpy is None, "fmpy is not installed (pip install fmpy): the FMU is not checked by FMPy")
@unittest.skipIf(not packer().exists(), f"{packer()} is not built (cargo build -p tidelink-mbs-fmu)")
class FmpyChecks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.fmu = str(Path(cls.tmp.name) / "two_bodies.fmu")
        subprocess.run([str(packer()), str(MODEL), "-o", cls.fmu], check=True, capture_output=True)
        cls.md = fmpy.read_model_description(cls.fmu)
        cls.vr = {v.name: v.valueReference for v in cls.md.modelVariables}
        cls.outputs = [v.name for v in cls.md.modelVariables if v.causality == "output"]
        cls.unzipped = fmpy.extract(cls.fmu, unzipdir=Path(cls.tmp.name) / "unzipped")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def reference(self):
        """The Rust side's trajectory (an Instance stepped directly): time and outputs by name."""
        args = [str(packer()), "trajectory", str(MODEL), repr(STEP), str(STEPS)]
        args += [f"{k}={v!r}" for k, v in SETTINGS.items()]
        text = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        rows = list(csv.reader(io.StringIO(text)))
        return {name: np.array([float(r[i]) for r in rows[1:]]) for i, name in enumerate(rows[0])}

    def test_model_description_validates(self):
        problems = fmpy.validation.validate_fmu(self.fmu)
        self.assertEqual(problems, [], "\n".join(problems))
        self.assertEqual(self.md.fmiVersion, "3.0")
        self.assertIn("pto.damping", self.vr)

    def test_simulation_with_input_signals_is_the_rust_trajectory(self):
        # Input signals as FMPy takes them: a structured array over time (constant levels).
        dtype = [("time", np.float64)] + [(k, np.float64) for k in INPUTS]
        signals = np.array([(0.0, *[SETTINGS[k] for k in INPUTS]), (1.0, *[SETTINGS[k] for k in INPUTS])], dtype=dtype)
        result = fmpy.simulate_fmu(
            self.fmu,
            start_time=0.0,
            stop_time=STEP * STEPS,
            output_interval=STEP,
            step_size=STEP,
            input=signals,
            start_values={"pto.damping": SETTINGS["pto.damping"]},
            output=self.outputs,
        )
        ref = self.reference()
        self.assertEqual(len(result), STEPS + 1)
        for name in self.outputs:
            # Bit for bit: the same steps (FMPy's grid k h, sizes (k+1) h - k h, which the
            # reference takes too: a constant h differs by round-off) with the same inputs.
            np.testing.assert_array_equal(result[name], ref[name], err_msg=name)
        self.assertGreater(np.ptp(result["float.z"]), 1e-3, "the float moves")

    def slave(self, name):
        s = FMU3Slave(
            guid=self.md.guid,
            unzipDirectory=self.unzipped,
            modelIdentifier=self.md.coSimulation.modelIdentifier,
            instanceName=name,
        )
        s.instantiate()
        s.enterInitializationMode(startTime=0.0)
        s.exitInitializationMode()
        return s

    def test_derivatives_match_central_differences_through_fmpy(self):
        # h = solver.time_step (one backward-Euler sub-step) and 5 of them: the FMU chains the
        # sub-steps' derivatives (derivative.step = 0: the last communication step's length).
        for h in (0.01, 0.05):
            with self.subTest(h=h):
                self.check_derivatives(h)

    def check_derivatives(self, h):
        s = self.slave(f"derivatives{h}")
        ins = [self.vr[k] for k in INPUTS]
        outs = [self.vr[k] for k in self.outputs]
        s.setFloat64(ins, [SETTINGS[k] for k in INPUTS])
        s.doStep(0.0, h)
        state = s.getFMUState()
        for j, vr in enumerate(ins):
            seed = [0.0] * len(ins)
            seed[j] = 1.0
            d = np.array(s.getDirectionalDerivative(outs, ins, seed))
            # Force steps of 10 N, torque 0.1 N m: far above Newton's residual tolerance (1e-10),
            # small enough for the O(eps^2) truncation. It is what limits the comparison: on the
            # 50 kg tumbling buoy over five sub-steps the difference is 1.6e-5, 1.6e-7, 1.6e-9 of
            # the column's largest entry at 100, 10, 1 N (measured), i.e. the derivative is right.
            eps = 0.1 if INPUTS[j].endswith(("tx", "ty", "tz")) else 10.0
            y = []
            for sign in (1.0, -1.0):
                s.setFloat64([vr], [SETTINGS[INPUTS[j]] + sign * eps])
                s.doStep(h, h)
                y.append(np.array(s.getFloat64(outs)))
                s.setFMUState(state)
            fd = (y[0] - y[1]) / (2 * eps)
            scale = np.abs(d).max()
            self.assertGreater(scale, 0.0)
            np.testing.assert_allclose(fd, d, rtol=0, atol=1e-6 * scale, err_msg=INPUTS[j])
        # Adjoint: the transpose of the forward derivative, to round-off.
        for i, vr in enumerate(outs[:6]):
            seed = [0.0] * len(outs)
            seed[i] = 1.0
            a = np.array(s.getAdjointDerivative(outs, ins, seed, nSensitivity=len(ins)))
            fwd = np.array([s.getDirectionalDerivative([vr], ins, list(np.eye(len(ins))[k]))[0] for k in range(len(ins))])
            np.testing.assert_allclose(a, fwd, rtol=0, atol=1e-12 * max(np.abs(fwd).max(), 1e-300))
        s.freeFMUState(state)
        s.terminate()
        s.freeInstance()

    def test_model_structure_declares_per_body_dependencies(self):
        # The float (sprung to the fixed plate) and the free buoy are not connected: each body's
        # outputs depend on its own inputs only, as FMPy reads the ModelStructure.
        fmpy.read_model_description(self.fmu, validate_model_structure=True)  # raises on an inconsistent one
        all_inputs = [v.name for v in self.md.modelVariables if v.causality == "input"]
        declared = {}
        for unknown in self.md.outputs:
            deps = [v.name for v in (unknown.dependencies or [])]
            body = unknown.variable.name.split(".")[0]
            self.assertEqual(sorted(deps), sorted(n for n in all_inputs if n.startswith(body + ".")), unknown.variable.name)
            declared[unknown.variable.name] = set(deps)
        self.assertEqual(len(declared), len(self.outputs))
        # Declared-independent pairs have exactly zero derivatives (over 5 sub-steps).
        s = self.slave("structure")
        s.setFloat64([self.vr[k] for k in INPUTS], [SETTINGS[k] for k in INPUTS])
        s.doStep(0.0, 0.05)
        outs = [self.vr[k] for k in self.outputs]
        for name in all_inputs:
            d = s.getDirectionalDerivative(outs, [self.vr[name]], [1.0])
            for out, value in zip(self.outputs, d):
                if name not in declared[out]:
                    self.assertEqual(value, 0.0, f"d {out} / d {name}")
        s.terminate()
        s.freeInstance()

    def test_two_instances_side_by_side(self):
        a, b = self.slave("a"), self.slave("b")
        ins = [self.vr[k] for k in INPUTS]
        outs = [self.vr[k] for k in self.outputs]
        a.setFloat64(ins, [SETTINGS[k] for k in INPUTS])
        a.setFloat64([self.vr["pto.damping"]], [SETTINGS["pto.damping"]])  # tunable: between steps too
        b.setFloat64(ins, [-2 * SETTINGS[k] for k in INPUTS])
        for k in range(STEPS):
            t0, t1 = k * STEP, (k + 1) * STEP  # the reference's grid (as FMPy's simulate_fmu)
            a.doStep(t0, t1 - t0)
            b.doStep(t0, t1 - t0)
        ref = self.reference()
        ya = dict(zip(self.outputs, a.getFloat64(outs)))
        for name in self.outputs:
            # `a`, stepped between `b`'s steps, is the Rust side's run on its own, bit for bit.
            self.assertEqual(ya[name], ref[name][-1], name)
        self.assertNotEqual(ya["buoy.x"], b.getFloat64([self.vr["buoy.x"]])[0])
        for s in (a, b):
            s.terminate()
            s.freeInstance()


if __name__ == "__main__":
    unittest.main()
