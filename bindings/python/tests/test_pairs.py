"""Python participants as two processes: an explicit pair's data arrive where and when they
should; a partner's death and Ctrl-C stop the run with the right participant's name."""

import json
import os
import signal
import time
import unittest

import support


def long_oscillator(test):
    """The oscillator case running for 1000 s of simulated time (it never ends in a test)."""
    xml = support.oscillator_config().replace('<max-time value="1"/>', '<max-time value="1000"/>')
    assert 'value="1000"' in xml
    return support.Case(test, xml)


# B's vertices in scripts/gradient.py: none on one of A's, each nearest a different one.
B_POINTS = [(0.3, 0.4), (1.2, -0.3), (2.4, 0.1)]


def wait_for_line(proc, *fragments):
    """Reads the process's stderr until a line contains one of `fragments`; returns what was read."""
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if any(f in line for f in fragments):
            return "".join(seen)
    raise AssertionError(f"{proc.args} ended without printing any of {fragments}:\n{''.join(seen)}")


class ExplicitPair(unittest.TestCase):
    def test_b_reads_what_a_wrote_mapped_onto_its_own_vertices(self):
        case = support.Case(self, support.EXPLICIT_XML)
        out = case.path("b.jsonl")
        support.expect_success(
            self, support.finish(case.python("explicit.py", "A", case.config), case.python("explicit.py", "B", case.config, "--output", out))
        )
        with open(out) as f:
            rows = [json.loads(line) for line in f]
        self.assertEqual(len(rows), 10, "ten windows of 0.1 s")
        for k, r in enumerate(rows):
            t = 0.1 * (k + 1)
            self.assertAlmostEqual(r["t"], t, places=12)
            # B's vertex j is A's vertex 2 − j (nearest neighbour); serial-explicit: B, second,
            # reads A's values of the same window, sampled at the window's end.
            for j in range(3):
                i = 2 - j
                self.assertAlmostEqual(r["heat"][j], (i + 1) * t, places=12)
                self.assertEqual(r["flow"][j][1], -float(i))
                self.assertAlmostEqual(r["flow"][j][0], t, places=12)


    def test_with_gradients_b_reads_a_s_linear_fields_exactly_between_a_s_vertices(self):
        case = support.Case(self, support.GRADIENT_XML)
        out = case.path("b.jsonl")
        support.expect_success(
            self,
            support.finish(
                case.python("gradient.py", "A", case.config), case.python("gradient.py", "B", case.config, "--output", out)
            ),
        )
        with open(out) as f:
            rows = [json.loads(line) for line in f]
        self.assertEqual(len(rows), 10, "ten windows of 0.1 s")
        for k, r in enumerate(rows):
            t = 0.1 * (k + 1)
            for (x, y), heat, flow in zip(B_POINTS, r["heat"], r["flow"]):
                # Values of order 1: a few ulps of round-off in value + gradient · offset.
                self.assertAlmostEqual(heat, t * (1 + 2 * x - 3 * y), delta=1e-14)
                self.assertAlmostEqual(flow[0], t * x + y, delta=1e-14)
                self.assertAlmostEqual(flow[1], 2 * x - t * y, delta=1e-14)

    def test_a_watch_point_follows_the_nearest_vertex_in_libprecice_s_table_format(self):
        xml = support.EXPLICIT_XML.replace(
            '<mapping:nearest-neighbor direction="read"',
            '<watch-point name="End" mesh="B-Mesh" coordinate="2.1;0.0"/>\n    <mapping:nearest-neighbor direction="read"',
        )
        case = support.Case(self, xml)
        support.expect_success(
            self, support.finish(case.python("explicit.py", "A", case.config), case.python("explicit.py", "B", case.config))
        )
        with open(case.path("precice-B-watchpoint-End.log")) as f:
            text = f.read()
        lines = text.split("\n")
        self.assertEqual(lines[0], "  Time  Coordinate0  Coordinate1  Heat  Flow0  Flow1")
        self.assertFalse(text.endswith("\n"), "no newline after the last row, as libprecice")
        rows = [[float(x) for x in line.split()] for line in lines[1:]]
        self.assertEqual(len(rows), 11, "t = 0 and every window end")
        zero = " 0.00000000e+00"
        self.assertEqual(lines[1], "  ".join([zero, " 2.00000000e+00", zero, zero, zero, zero]))
        for k, r in enumerate(rows):
            t = 0.1 * k
            # The point (2.1, 0) is nearest B's vertex (2, 0), which maps A's vertex 2.
            self.assertAlmostEqual(r[0], t, places=7)
            self.assertEqual(r[1:3], [2.0, 0.0])
            if k > 0:
                self.assertAlmostEqual(r[3], 3 * t, places=7, msg="Heat = (i + 1) t of A's vertex 2")
                self.assertAlmostEqual(r[4], t, places=7)
                self.assertEqual(r[5], -2.0)
            else:
                self.assertEqual(r[3:], [0.0, 0.0, 0.0], "nothing received before the first window")


class Failures(unittest.TestCase):
    def test_a_killed_partner_stops_the_other_with_its_name(self):
        case = long_oscillator(self)
        left = case.python("oscillator.py", "Mass-Left", case.config, env={"RUST_LOG": "info"})
        right = case.python("oscillator.py", "Mass-Right", case.config)
        wait_for_line(left, "coupling initialized")  # the engine's info line once both are in
        time.sleep(0.5)
        right.kill()
        (code, _, err), _ = support.finish(left, right)
        self.assertNotEqual(code, 0)
        self.assertIn("CouplingError", err)
        self.assertIn('"Mass-Right"', err)
        self.assertIn("disconnected", err)

    def test_ctrl_c_while_waiting_for_a_partner_raises_keyboard_interrupt(self):
        case = long_oscillator(self)
        left = case.python("oscillator.py", "Mass-Left", case.config, env={"RUST_LOG": "info", "TIDELINK_HANDSHAKE_TIMEOUT": "300"})
        # The engine's info line as the connection is sought (Mass-Left connects, by the m2n roles).
        wait_for_line(left, "waiting for", "looking for")
        left.send_signal(signal.SIGINT)
        ((code, _, err),) = support.finish(left)
        self.assertNotEqual(code, 0)
        self.assertIn("KeyboardInterrupt", err)
        left_behind = [f for _, _, files in os.walk(case.path("precice-run")) for f in files]
        self.assertEqual(left_behind, [], "the interrupted participant leaves no connection file behind")

    def test_ctrl_c_during_the_run_stops_the_partner_with_the_reason(self):
        case = long_oscillator(self)
        left = case.python("oscillator.py", "Mass-Left", case.config, env={"RUST_LOG": "info"})
        right = case.python("oscillator.py", "Mass-Right", case.config)
        wait_for_line(left, "coupling initialized")
        time.sleep(0.5)
        left.send_signal(signal.SIGINT)
        (lcode, _, lerr), (rcode, _, rerr) = support.finish(left, right)
        self.assertNotEqual(lcode, 0)
        self.assertIn("KeyboardInterrupt", lerr)
        self.assertNotEqual(rcode, 0)
        self.assertIn('"Mass-Left"', rerr)


if __name__ == "__main__":
    unittest.main()
