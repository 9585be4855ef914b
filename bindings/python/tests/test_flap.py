"""A Python Fluid against Tidelink's MBS: the flap of configs/flap (`tidelink-flap`, the
multibody solver's flap built in code) in a stream computed by scripts/stream.py, against
the same flap with Tidelink's own stream participant (`tidelink-stream`) as the Fluid."""

import os
import shutil
import unittest

import support


def flap_case(test):
    """A copy of configs/flap in a temporary folder."""
    case = support.Case(test, "")
    shutil.rmtree(case.dir)
    shutil.copytree(os.path.join(support.CONFIGS, "flap"), case.dir)
    return case


def programs():
    """tidelink-flap and tidelink-stream, built."""
    return support.rust_program("tidelink-flap"), support.rust_program("tidelink-stream")


class PythonFluid(unittest.TestCase):
    def run_flap(self, python_fluid):
        flap, stream = programs()
        case = flap_case(self)
        solid = case.start([flap, "--precice-config", "precice-config.xml", "--output", "solid-output"])
        if python_fluid:
            fluid = case.python("stream.py", "precice-config.xml", "flap_points.txt")
        else:
            fluid = case.start([stream, "--precice-config", "precice-config.xml", "fluid/participant.yaml"])
        support.expect_success(self, support.finish(solid, fluid))
        return support.read_csv(case.path(os.path.join("solid-output", "flap.csv")))

    def test_the_flap_moves_as_with_tidelink_s_own_stream(self):
        ours, theirs = self.run_flap(True), self.run_flap(False)
        self.assertEqual(len(ours["time_s"]), len(theirs["time_s"]))
        self.assertGreater(len(ours["time_s"]), 90, "2.5 s of 25 ms windows")
        self.assertGreater(max(abs(x) for x in ours["rz_rad"]), 0.1, "the stream turns the flap")
        # The same drag law evaluated in numpy instead of nalgebra: the plate's normal comes from
        # another eigen-solver and sums in another order, differences of a few ulp that the
        # coupled motion carries along but does not amplify over 100 windows.
        worst = max(abs(a - b) for a, b in zip(ours["rz_rad"], theirs["rz_rad"]))
        self.assertLess(worst, 1e-10, f"largest difference of the flap angle: {worst:e} rad")


if __name__ == "__main__":
    unittest.main()
