"""The two-mass oscillator (docs/oscillators.md) as two Python processes on the serial-implicit
shipped case (waveform degree 3, 4 sub-steps per window): against the exact solution, at the
order of its time integrator, and against the Rust participant of the same algorithm."""

import math
import os
import unittest

import support


def exact(t):
    """x1, x2 of m1 = m2 = 1, k1 = k2 = 4π², k12 = 16π², x(0) = (1, 0): the modes 1 and 3 Hz."""
    c1, c3 = math.cos(2 * math.pi * t), math.cos(6 * math.pi * t)
    return 0.5 * (c1 + c3), 0.5 * (c1 - c3)


def run_pair(test, window, left, right):
    """Both masses of the case at `window`; `left`/`right` are "python" or "rust". Returns the
    two CSVs (time, displacement, velocity, ...) read back."""
    case = support.Case(test, support.oscillator_config(window))
    procs = []
    for name, kind in (("Mass-Left", left), ("Mass-Right", right)):
        out = case.path(name + ".csv")
        if kind == "python":
            procs.append(case.python("oscillator.py", name, case.config, "--output", out))
        else:
            procs.append(case.start([rust_oscillator(), name, case.config, "--output", out]))
    support.expect_success(test, support.finish(*procs))
    return [support.read_csv(case.path(n + ".csv")) for n in ("Mass-Left", "Mass-Right")]


def rust_oscillator():
    """coupling/engine/examples/oscillator.rs, built."""
    return support.rust_program(os.path.join("examples", "oscillator"))


def max_error(csvs):
    """The largest |x − x_exact| of either mass over the window ends."""
    worst = 0.0
    for side, csv in enumerate(csvs):
        for t, x in zip(csv["time"], csv["displacement"]):
            worst = max(worst, abs(x - exact(t)[side]))
    return worst


class OscillatorPair(unittest.TestCase):
    def test_python_pair_converges_at_second_order_to_the_exact_solution(self):
        coarse, fine = run_pair(self, 0.01, "python", "python"), run_pair(self, 0.005, "python", "python")
        for csvs, windows in ((coarse, 100), (fine, 200)):
            left, right = csvs
            self.assertEqual(len(left["time"]), windows + 1, "one row per window end and t = 0")
            self.assertAlmostEqual(left["time"][-1], 1.0, places=12)
            # Serial-implicit without acceleration: every window iterates, both count alike.
            self.assertEqual(left["iterations"], right["iterations"])
            self.assertTrue(all(i >= 2 for i in left["iterations"][1:]), left["iterations"])
        e1, e2 = max_error(coarse), max_error(fine)
        # Generalized-α (second order) with cubic waveforms: the coupled error at Δ = 0.01 lies
        # where the engine's own test finds it (1e-4 … 2e-3), and halving Δ divides it by 4.
        self.assertTrue(1e-4 < e1 < 2e-3, f"error at Δ = 0.01: {e1:e}")
        order = math.log2(e1 / e2)
        self.assertLess(abs(order - 2.0), 0.3, f"errors {e1:e}, {e2:e}: order {order:.2f}")

    def test_python_and_rust_participants_give_the_same_numbers(self):
        py = run_pair(self, 0.01, "python", "python")
        rust = run_pair(self, 0.01, "rust", "rust")
        mixed = run_pair(self, 0.01, "python", "rust")
        for other, what in ((rust, "Rust pair"), (mixed, "Python left, Rust right")):
            for side in (0, 1):
                self.assertEqual(py[side]["time"], other[side]["time"], what)
                for col in ("displacement", "velocity"):
                    # The same operations in the same order on IEEE doubles: equal to round-off.
                    worst = max(abs(a - b) for a, b in zip(py[side][col], other[side][col]))
                    self.assertLess(worst, 1e-12, f"{what}, mass {side}, {col}: {worst:e}")


if __name__ == "__main__":
    unittest.main()
