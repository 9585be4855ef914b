"""pto/examples/run_visual_verification.py on small synthetic outputs (the real trio runs take
minutes each): merging a body CSV, links.csv and a module trace, the figures, and the charts
when the `tidelink-plot` program is built (visibly skipped otherwise)."""

import importlib.util
import math
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
spec = importlib.util.spec_from_file_location("rvv", ROOT / "pto" / "examples" / "run_visual_verification.py")
rvv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rvv)

BODY_HEADER = ("time_s,x_m,y_m,z_m,rx_rad,ry_rad,rz_rad,vx_m_s,vy_m_s,vz_m_s,wx_rad_s,wy_rad_s,wz_rad_s,"
               "fx_N,fy_N,fz_N,tx_Nm,ty_Nm,tz_Nm")


def write_case(folder, body, c, n=41, dt=0.1):
    """A damper c on a motion z = z0 + 0.5 sin(t) (heave) or pitch 0.5 sin(t) rad: the body CSV,
    links.csv (power c v^2) and a trace at 5 steps per row with a repeated time (a rolled back
    window) whose first answer was wrong."""
    folder.mkdir(parents=True)
    body_lines, link_lines = ["# case x", BODY_HEADER], ["# case x", "time_s,pto_power_W"]
    trace = ["# tidelink_pto trace", "time_s,displacement,velocity,force"]
    for i in range(n):
        t = i * dt
        z, ry = (-0.72 + 0.5 * math.sin(t), 0.0) if body == "float" else (-3.9, 0.5 * math.sin(t))
        body_lines.append(",".join(repr(x) for x in [t, 0.0, 0.0, z, 0.0, ry, 0.0] + [0.0] * 12))
        v = 0.5 * math.cos(t)
        link_lines.append(f"{t!r},{c * v * v!r}")
    for k in range(1, 5 * (n - 1) + 1):
        t = k * dt / 5
        v = 0.5 * math.cos(t)
        trace.append(f"{t!r},0,{v!r},{-1e9!r}")  # a first iteration's answer, then the kept one
        trace.append(f"{t!r},0,{v!r},{-c * v!r}")
    for name, lines in ((f"{body}.csv", body_lines), ("links.csv", link_lines), ("pto_trace.csv", trace)):
        (folder / name).write_text("\n".join(lines) + "\n")


class Merge(unittest.TestCase):
    def test_the_kept_force_the_power_and_the_energy_on_the_output_times(self):
        with tempfile.TemporaryDirectory() as d:
            write_case(Path(d) / "linear", "float", 2.0)
            folder = Path(d) / "linear"
            merged = rvv.merge(rvv.rows(folder / "float.csv"), rvv.rows(folder / "links.csv"),
                               rvv.rows(folder / "pto_trace.csv"), rvv.PLATFORMS["rm3"]["motion"][1])
        self.assertEqual(len(merged), 41)
        t, z, f, p, e = merged[10]
        self.assertAlmostEqual(t, 1.0)
        self.assertAlmostEqual(z, 0.5 * math.sin(1.0), places=12)  # heave about the first row's z
        self.assertAlmostEqual(f, -2.0 * 0.5 * math.cos(1.0), places=12)  # the last answer at t, not -1e9
        self.assertAlmostEqual(p, 2.0 * 0.25 * math.cos(1.0) ** 2, places=12)
        self.assertEqual(merged[0][2], 0.0)  # no module was asked at t = 0
        # Energy: the trapezoidal sum of c v^2 over [0, 4] s in kWh, against the integral
        # c 0.25 (4 + sin(8)/2) / 2 J; the trapezoid rule at 0.1 s errs by about 1e-3 of it.
        exact = 2.0 * 0.25 * 0.5 * (4.0 + math.sin(8.0) / 2) / 3.6e6
        self.assertAlmostEqual(merged[-1][4] / exact, 1.0, delta=2e-3)

    def test_figures_over_the_span(self):
        with tempfile.TemporaryDirectory() as d:
            write_case(Path(d) / "a", "flap", 1.0, n=64)
            folder = Path(d) / "a"
            merged = rvv.merge(rvv.rows(folder / "flap.csv"), rvv.rows(folder / "links.csv"),
                               rvv.rows(folder / "pto_trace.csv"), rvv.PLATFORMS["oswec"]["motion"][1])
        s = rvv.figures(merged, 0.0)
        # Over [0, 6.3] s (about one period of v^2 = 0.25 cos^2 t, mean 0.125 over whole periods).
        self.assertAlmostEqual(s["mean_power_W"], 0.125, delta=2e-3)
        # The largest |c v| on the output times after t = 0 (no force at t = 0): t = 6.3 s.
        self.assertAlmostEqual(s["max_abs_force"], max(0.5 * abs(math.cos(0.1 * i)) for i in range(1, 64)), places=12)
        self.assertAlmostEqual(max(m[1] for m in merged), math.degrees(0.5 * math.sin(math.pi / 2)), delta=0.1)
        with self.assertRaises(SystemExit):
            rvv.figures(merged, 100.0)

    def test_a_missing_time_in_links_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            write_case(Path(d) / "a", "float", 1.0, n=5)
            folder = Path(d) / "a"
            links = rvv.rows(folder / "links.csv")[:-1]
            with self.assertRaises(SystemExit) as e:
                rvv.merge(rvv.rows(folder / "float.csv"), links, rvv.rows(folder / "pto_trace.csv"),
                          rvv.PLATFORMS["rm3"]["motion"][1])
            self.assertIn("links.csv has no row", str(e.exception))


def plot_program():
    try:
        return rvv.find_program("tidelink-plot", None)
    except SystemExit:
        return None


class Charts(unittest.TestCase):
    @unittest.skipIf(plot_program() is None, "needs the tidelink-plot program (cargo build -p tidelink-plot)")
    def test_skip_run_draws_both_charts_and_the_summary(self):
        with tempfile.TemporaryDirectory() as d:
            out = Path(d)
            for m, c in zip(rvv.MODULES, (1.0, 2.0, 3.0)):
                write_case(out / m, "float", c)
            self.assertEqual(rvv.main(["--platform", "rm3", "--skip-run", "-o", str(out), "--from", "0",
                                       "--zoom", "1", "2", "--bin", str(Path(plot_program()).parent)]), 0)
            for png in ("rm3_trio.png", "rm3_trio_zoom.png"):
                data = (out / png).read_bytes()
                self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
                self.assertGreater(len(data), 10_000)  # a drawn chart, not an empty image
            lines = (out / "summary.csv").read_text().splitlines()
            self.assertEqual(lines[1], "module,mean_power_W,motion_rms,max_abs_force,energy_kWh")
            # The mean power scales with c (1, 2, 3): the same motion in each synthetic case.
            powers = [float(line.split(",")[1]) for line in lines[2:]]
            self.assertAlmostEqual(powers[1] / powers[0], 2.0, places=4)
            self.assertAlmostEqual(powers[2] / powers[0], 3.0, places=4)
            self.assertTrue((out / "linear" / "trio.csv").is_file())


if __name__ == "__main__":
    unittest.main()

