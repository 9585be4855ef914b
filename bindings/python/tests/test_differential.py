"""The same Python pair on both engines: the two-mass oscillator (scripts/oscillator.py, both
masses as processes of their own) once on this module (the interpreter running the suite) and
once on real pyprecice over libprecice (the interpreter named by TIDELINK_PYPRECICE_PYTHON,
docs/precice-backend.md "pyprecice on the same libprecice" builds one). Both runs must give
the same iteration count in every window and the same numbers to 1e-12.

Without TIDELINK_PYPRECICE_PYTHON, or when that interpreter cannot import a real pyprecice,
every test here is skipped with the reason.
"""

import math
import os
import subprocess
import sys
import unittest

import support

PYPRECICE_ENV = "TIDELINK_PYPRECICE_PYTHON"
ENGINE_BANNER = "Tidelink native engine"
PROBE = "import precice; v = precice.get_version_information(); print(v.decode() if isinstance(v, bytes) else v)"

# Both engines compute the same operations in the same order on IEEE doubles (docs/design/
# coupling-semantics.md: the native engine reproduces libprecice's waveform sampling, convergence
# measures and accelerations), so the values of a run may differ by round-off alone. 1e-12 on
# values of size ≤ 1 (the masses start at x = 1, v ≤ 2π·3) leaves room for a few ulps that
# accumulate over 100 windows, and nothing more.
TOLERANCE = 1e-12

DISPLACEMENT_RIGHT = '<data name="Displacement-Right" mesh="Mass-Left-Mesh"/>'
# The accelerations of coupling/engine/examples/oscillator.rs's acceleration_variants.
ACCELERATIONS = {
    "constant 0.5": '<acceleration:constant><relaxation value="0.5"/></acceleration:constant>',
    "Aitken": f"<acceleration:aitken>{DISPLACEMENT_RIGHT}</acceleration:aitken>",
    "IQN-ILS": f"<acceleration:IQN-ILS>{DISPLACEMENT_RIGHT}</acceleration:IQN-ILS>",
}


def probe(python):
    """What `import precice` reports as its version under `python`: (ok, text)."""
    try:
        r = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, timeout=120)
    except OSError as e:
        return False, f"cannot run {python}: {e}"
    if r.returncode != 0:
        return False, f"{python} cannot import precice: {r.stderr.strip().splitlines()[-1:]}"
    return True, r.stdout.strip()


def pyprecice_python():
    """The interpreter with real pyprecice, or SkipTest saying why there is none."""
    python = os.environ.get(PYPRECICE_ENV)
    if not python:
        raise unittest.SkipTest(f"{PYPRECICE_ENV} is not set (an interpreter with pyprecice on libprecice)")
    ok, text = probe(python)
    if not ok:
        raise unittest.SkipTest(f"{PYPRECICE_ENV}={python}: {text}")
    if ENGINE_BANNER in text:
        raise unittest.SkipTest(f"{PYPRECICE_ENV}={python} imports Tidelink's module, not pyprecice: {text}")
    return python, text


def config(acceleration="", degree=3):
    """configs/oscillators/precice-config.xml with `acceleration` inserted and `degree`."""
    xml = support.oscillator_config()
    for old, new in (
        ('waveform-degree="3"', f'waveform-degree="{degree}"'),
        ("</coupling-scheme:serial-implicit>", f"{acceleration}</coupling-scheme:serial-implicit>"),
    ):
        assert old in xml, f"configs/oscillators/precice-config.xml no longer contains {old}"
        xml = xml.replace(old, new)
    return xml


def run_pair(test, python, xml, extra):
    """Both masses under `python` on `xml`: their CSVs and their iterations logs' lines.

    The processes write their output to files of the case folder, not to pipes: libprecice
    logs every iteration, more than a pipe holds while support.finish waits on the other mass.
    """
    case = support.Case(test, xml)
    script = os.path.join(support.SCRIPTS, "oscillator.py")
    env = dict(os.environ)
    env.pop("TIDELINK_RUN_ID", None)  # started by hand, not by an outer `tidelink run`
    procs, logs_out = [], []
    for name in ("Mass-Left", "Mass-Right"):
        out = open(case.path(name + ".out"), "w")
        test.addCleanup(out.close)
        argv = [python, script, name, case.config, "--output", case.path(name + ".csv"), *extra]
        procs.append(subprocess.Popen(argv, cwd=case.dir, env=env, stdout=out, stderr=subprocess.STDOUT))
        logs_out.append(case.path(name + ".out"))
    for p in procs:
        try:
            p.wait(timeout=support.GUARD_S)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            raise AssertionError(f"{p.args} still ran after {support.GUARD_S} s (stuck)")
    for p, path in zip(procs, logs_out):
        if p.returncode != 0:
            with open(path) as f:
                test.fail(f"{p.args} exited {p.returncode}:\n{f.read()[-4000:]}")
    csvs = [support.read_csv(case.path(n + ".csv")) for n in ("Mass-Left", "Mass-Right")]
    logs = {}
    for name in ("Mass-Left", "Mass-Right"):
        path = case.path(f"precice-{name}-iterations.log")
        if os.path.isfile(path):
            with open(path) as f:
                logs[name] = [line.split() for line in f if line.strip()]
    return csvs, logs


class SameResultsAsPyprecice(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pyprecice, cls.version = pyprecice_python()
        ok, ours = probe(sys.executable)
        if not ok or ENGINE_BANNER not in ours:
            raise unittest.SkipTest(f"{sys.executable} does not import Tidelink's precice module: {ours}")

    def compare(self, xml, extra=(), tolerance=TOLERANCE):
        """Runs the pair on both engines; asserts equal iterations and values to `tolerance`."""
        ours, our_logs = run_pair(self, sys.executable, xml, list(extra))
        theirs, their_logs = run_pair(self, self.pyprecice, xml, list(extra))
        worst = 0.0
        for side, name in enumerate(("Mass-Left", "Mass-Right")):
            a, b = ours[side], theirs[side]
            self.assertEqual(len(a["time"]), len(b["time"]), f"{name}: number of windows")
            self.assertEqual(a["iterations"], b["iterations"], f"{name}: iterations per window")
            for col in ("time", "displacement", "velocity"):
                diff = max(abs(x - y) for x, y in zip(a[col], b[col]))
                self.assertLessEqual(diff, tolerance, f"{name} {col}: largest difference {diff:e}")
                worst = max(worst, diff)
        # libprecice writes the iterations log of the implicit scheme's participants; ours too.
        # Both hold the same columns (window, iterations, ...): integers must be equal, reals
        # agree to the digits the files print.
        for name, lines in their_logs.items():
            self.assertIn(name, our_logs, f"precice-{name}-iterations.log is missing on Tidelink's engine")
            self.assertEqual(len(our_logs[name]), len(lines), f"{name}: lines of the iterations log")
            self.assertEqual(our_logs[name][0], lines[0], f"{name}: header of the iterations log")
            for ours_row, theirs_row in zip(our_logs[name][1:], lines[1:]):
                for x, y in zip(ours_row, theirs_row):
                    if x.lstrip("-").isdigit():
                        self.assertEqual(x, y, f"{name}: iterations log rows {ours_row} / {theirs_row}")
                    else:
                        self.assertAlmostEqual(float(x), float(y), delta=1e-7 * max(1.0, abs(float(y))))
        print(f"\n  largest difference {worst:.3e} ({self.version.split(';')[0]})", file=sys.stderr)
        return worst

    def test_shipped_case_generalized_alpha(self):
        self.compare(config())

    def test_runge_kutta_4_linear_waveforms(self):
        self.compare(config(degree=1), ["--integrator", "runge-kutta-4"])

    def test_constant_relaxation(self):
        self.compare(config(ACCELERATIONS["constant 0.5"]))

    def test_aitken_agrees_until_libprecice_divides_zero_by_zero(self):
        # A known difference (docs/oscillators.md, "Aitken"): on this case libprecice's Aitken
        # factor becomes 0/0 in window 17, where two successive window-end residuals are the
        # same number, and that run goes on with NaN, every later window to max-iterations
        # (200); the native engine keeps the previous factor there. Before that the two agree:
        # the same iterations and values in windows 1-12 (window 13 parts by one iteration,
        # its factor being computed from residual differences near round-off).
        ours, _ = run_pair(self, sys.executable, config(ACCELERATIONS["Aitken"]), [])
        theirs, _ = run_pair(self, self.pyprecice, config(ACCELERATIONS["Aitken"]), [])
        for side in (0, 1):
            a, b = ours[side], theirs[side]
            self.assertEqual(a["iterations"][:13], b["iterations"][:13], f"mass {side}: windows 1-12")
            for col in ("displacement", "velocity"):
                diff = max(abs(x - y) for x, y in zip(a[col][:13], b[col][:13]))
                self.assertLessEqual(diff, TOLERANCE, f"mass {side} {col}, windows 1-12: {diff:e}")
            self.assertTrue(all(math.isfinite(x) for x in a["displacement"]), "native: every value finite")
            self.assertTrue(max(a["iterations"]) < 200, "native: every window converges")
            # If this fails, libprecice no longer breaks down here: update docs/oscillators.md
            # and compare the whole run.
            self.assertTrue(math.isnan(b["displacement"][17]), "libprecice: NaN from window 17 on")
            self.assertEqual(set(b["iterations"][17:]), {200.0}, "libprecice: max-iterations from window 17 on")

    def test_iqn_ils(self):
        self.compare(config(ACCELERATIONS["IQN-ILS"]))


if __name__ == "__main__":
    unittest.main()
