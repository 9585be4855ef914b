"""The helper package: framing, dispatch, PtoState, run() over a real socket, and the three
worked modules against hand formulas. Runs under pytest or `python3 -m unittest`."""

import contextlib
import importlib.util
import io
import math
import os
import socket
import struct
import sys
import threading
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "examples"))

from tidelink_pto import (  # noqa: E402
    Dispatcher,
    ExternalForceModule,
    FrameError,
    PtoModule,
    PtoState,
    decode_frame,
    encode_frame,
    read_frame,
    run,
)


def load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def init(module, cfg, kind="pto", names=("displacement", "velocity"), dt=0.1):
    d = Dispatcher(module)
    reply = d.handle(
        {"op": "initialize", "protocol": 2, "kind": kind, "n_inputs": len(names), "n_outputs": 1,
         "dt": dt, "in_names": list(names), "config": cfg}
    )
    assert reply["status"] == "ok", reply
    return d


def evaluate(d, t, dt, inputs):
    reply = d.handle({"op": "evaluate", "t": t, "dt": dt, "in": list(inputs)})
    assert reply["status"] == "ok", reply
    return reply["out"][0]


class Framing(unittest.TestCase):
    def test_round_trip_and_errors(self):
        f = encode_frame({"op": "evaluate", "t": 1.5, "in": [0.25]})
        self.assertEqual(struct.unpack(">I", f[:4])[0], len(f) - 4)
        self.assertEqual(decode_frame(f + b"rest"), ({"op": "evaluate", "t": 1.5, "in": [0.25]}, len(f)))
        for bad, words in [(b"\x00\x00", "length prefix"), (f[:-1], "JSON body"),
                           (b"\xff\xff\xff\xff", "exceeds"), (b"\x00\x00\x00\x02\xc3\x28", "UTF-8")]:
            with self.assertRaises(FrameError) as e:
                decode_frame(bad)
            self.assertIn(words, str(e.exception))

    def test_same_bytes_as_the_reference_vectors(self):
        # The framing the Rust host and the MATLAB helper use (checked by pto/matlab/check_framing.py).
        self.assertEqual(encode_frame({"status": "ok"}), b'\x00\x00\x00\x0f{"status":"ok"}')


class Dispatch(unittest.TestCase):
    def test_initialize_reply_has_required_fields_and_names_are_kept(self):
        class M(PtoModule):
            def force(self, state):
                return state.get("rel_accel", 0.0)

        m = M()
        d = Dispatcher(m)
        r = d.handle({"op": "initialize", "protocol": 2, "kind": "pto_tsda", "n_inputs": 3, "n_outputs": 1,
                      "dt": 0.01, "in_names": ["displacement", "velocity", "rel_accel"], "config": {}})
        self.assertEqual((r["status"], r["name"], r["version"], r["n_states"]), ("ok", "M", "1.0", 0))
        self.assertEqual(m.in_names[2], "rel_accel")
        self.assertEqual(evaluate(d, 0.0, 0.01, [0.0, 0.0, 7.5]), 7.5)

    def test_errors_become_error_replies(self):
        class Boom(ExternalForceModule):
            def evaluate(self, t, dt, inputs):
                return [1.0 / inputs[0]]

        d = init(Boom(), {})
        r = d.handle({"op": "evaluate", "t": 0, "dt": 0.1, "in": [0.0, 0.0]})
        self.assertEqual(r["status"], "error")
        self.assertIn("ZeroDivisionError", r["message"])
        self.assertEqual(d.handle({"op": "nope"})["status"], "error")
        self.assertEqual(Dispatcher(Boom()).handle({"op": "initialize", "protocol": 1})["status"], "error")

    def test_a_stateful_module_that_reports_no_states_is_warned(self):
        class Forgetful(PtoModule):
            def force(self, state):
                return 0.0

            def rollback(self):
                pass

        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            init(Forgetful(), {})
        self.assertIn("overrides rollback but reports n_states 0", err.getvalue())
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            init(load("hydraulic_accumulator_pto").HydraulicAccumulator(), {})
            init(load("linear_damper_pto").LinearDamper(), {})
        self.assertEqual(err.getvalue(), "")

    def test_lifecycle_ops(self):
        d = init(load("linear_damper_pto").LinearDamper(), {"damping": 10.0})
        for op in ("reset", "commit", "rollback"):
            self.assertEqual(d.handle({"op": op}), {"status": "ok"})
        self.assertEqual(d.handle({"op": "shutdown"}), {"status": "ok"})
        self.assertTrue(d.done)


class State(unittest.TestCase):
    def test_named_channels(self):
        s = PtoState(1.0, 0.1, [0.5, -0.2, 5.5], ["displacement", "velocity", "length"])
        self.assertEqual((s.displacement, s.velocity, s.length, s.get("length")), (0.5, -0.2, 5.5, 5.5))
        self.assertIsNone(s.get("rel_accel"))
        with self.assertRaises(AttributeError):
            s.rel_accel  # noqa: B018
        self.assertEqual(PtoState(0, 0, [1, 2], []).names, ["displacement", "velocity"])


class PollTime(unittest.TestCase):
    def test_a_bad_poll_time_stops_with_the_variables_name(self):
        for bad in ("abc", "-5", "1.5", "2000000"):
            os.environ["TIDELINK_PTO_SPIN_US"] = bad
            try:
                with self.assertRaises(SystemExit) as e:
                    run(ExternalForceModule(), ["--tidelink-port", "1"])
                self.assertIn("TIDELINK_PTO_SPIN_US", str(e.exception.code))
            finally:
                del os.environ["TIDELINK_PTO_SPIN_US"]


class OverASocket(unittest.TestCase):
    def test_without_a_token_run_stops_with_the_variables_name(self):
        os.environ.pop("TIDELINK_PTO_TOKEN", None)
        with self.assertRaises(SystemExit) as e:
            run(ExternalForceModule(), ["--tidelink-port", "1"])
        self.assertIn("TIDELINK_PTO_TOKEN", str(e.exception.code))

    def test_run_serves_until_shutdown(self):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        os.environ["TIDELINK_PTO_TOKEN"] = "ab" * 32
        try:
            th = threading.Thread(target=run, args=(load("linear_damper_pto").LinearDamper(), ["--tidelink-port", str(port)]))
            th.start()
            conn, _ = listener.accept()
            # The first frame is the hello with the token the host put in the environment.
            self.assertEqual(read_frame(conn), {"op": "hello", "protocol": 2, "token": "ab" * 32})
        finally:
            del os.environ["TIDELINK_PTO_TOKEN"]
        conn.sendall(encode_frame({"op": "initialize", "protocol": 2, "kind": "pto", "n_inputs": 2, "n_outputs": 1,
                                   "dt": 0.01, "in_names": ["displacement", "velocity"], "config": {"damping": 3.0}}))
        self.assertEqual(read_frame(conn)["name"], "LinearDamper")
        conn.sendall(encode_frame({"op": "evaluate", "t": 0.0, "dt": 0.01, "in": [0.0, 2.0]}))
        self.assertEqual(read_frame(conn), {"status": "ok", "out": [-6.0]})
        conn.sendall(encode_frame({"op": "shutdown"}))
        self.assertEqual(read_frame(conn), {"status": "ok"})
        th.join(5)
        self.assertFalse(th.is_alive())
        conn.close()
        listener.close()


class WorkedModules(unittest.TestCase):
    """Each module against closed forms for a constant-velocity trace v (t_n = n dt)."""

    def test_linear_damper(self):
        d = init(load("linear_damper_pto").LinearDamper(), {"damping": 1.2e6})
        self.assertEqual(evaluate(d, 0.0, 0.1, [0.05, -0.12]), 144000.0)

    def test_adaptive_damping_grows_linearly_then_clamps_and_saturates(self):
        c0, gain, v_ref, c_max, f_max, dt, v = 100.0, 0.5, 1.0, 150.0, 250.0, 0.1, 2.0
        m = load("adaptive_damping_pto").AdaptiveDamping()
        d = init(m, {"damping": c0, "gain": gain, "v_ref": v_ref, "c_min": 50.0, "c_max": c_max, "f_max": f_max})
        # c_n = min(c_max, c0 + n dt gain c0 (|v| - v_ref)/v_ref) = min(150, 100 + 5 n); F_n = -min(c_n v, f_max).
        for n in range(15):
            c_n = min(c_max, c0 + n * dt * gain * c0 * (abs(v) - v_ref) / v_ref)
            self.assertAlmostEqual(evaluate(d, n * dt, dt, [0.0, v]), -min(c_n * v, f_max), places=9)
        # c v > 250 from c > 125, i.e. n >= 6: 9 saturated steps of 15.
        self.assertEqual(m.saturations, 9)
        d.handle({"op": "reset"})
        self.assertEqual((m.c, m.saturations), (c0, 0))

    def test_hydraulic_accumulator_closed_form_and_rollback(self):
        area, v0, p0, gamma, valve, dt, v = 0.01, 0.5, 1.0e6, 1.4, 2.0e3, 0.1, 0.3
        m = load("hydraulic_accumulator_pto").HydraulicAccumulator()
        d = init(m, {"area": area, "v0": v0, "p0": p0, "gamma": gamma, "valve": valve})

        def expected(n):
            volume = v0 - area * v * n * dt  # constant v: exact
            return -area * (p0 * (v0 / volume) ** gamma - p0) - valve * v

        for n in range(5):
            self.assertAlmostEqual(evaluate(d, n * dt, dt, [0.0, v]), expected(n), places=6)
        d.handle({"op": "commit"})
        after_commit = [evaluate(d, n * dt, dt, [0.0, v]) for n in range(5, 8)]
        d.handle({"op": "rollback"})
        again = [evaluate(d, n * dt, dt, [0.0, v]) for n in range(5, 8)]
        self.assertEqual(after_commit, again)
        self.assertAlmostEqual(again[-1], expected(7), places=6)
        # A repeated time does not advance the gas.
        self.assertEqual(evaluate(d, 0.7, dt, [0.0, v]), again[-1])
        self.assertTrue(math.isfinite(again[-1]))


class ReplayForceModule(unittest.TestCase):
    """The replay module against a CSV written here: linear interpolation, held ends, named columns."""

    def test_replays_the_named_columns_interpolated_in_time(self):
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "loads.csv"
            path.write_text("# a comment\ntime_s,fx,my\n0.0,10.0,-4.0\n1.0,20.0,0.0\n3.0,0.0,8.0\n")
            d = Dispatcher(load("replay_excitation_force").ReplayForce())
            names = [f"flap.{c}" for c in ("pos_x", "pos_y", "pos_z", "roll", "pitch", "yaw",
                                            "vel_x", "vel_y", "vel_z", "omega_x", "omega_y", "omega_z")]
            cfg = {"file": str(path), "bodies": [{"force_x": "fx", "moment_y": "my"}]}
            reply = d.handle({"op": "initialize", "protocol": 2, "kind": "body_force", "n_inputs": 12,
                              "n_outputs": 6, "dt": 0.1, "in_names": names, "config": cfg})
            self.assertEqual(reply["status"], "ok", reply)
            for t, fx, my in ((-1.0, 10.0, -4.0), (0.25, 12.5, -3.0), (2.0, 10.0, 4.0), (5.0, 0.0, 8.0)):
                out = d.handle({"op": "evaluate", "t": t, "dt": 0.1, "in": [0.0] * 12})["out"]
                for got, want in zip(out, [fx, 0.0, 0.0, 0.0, my, 0.0]):
                    self.assertAlmostEqual(got, want, places=12)
            # A column that is not there is named with the ones that are.
            bad = Dispatcher(load("replay_excitation_force").ReplayForce())
            cfg["bodies"] = [{"force_z": "fz"}]
            r = bad.handle({"op": "initialize", "protocol": 2, "kind": "body_force", "n_inputs": 12,
                            "n_outputs": 6, "dt": 0.1, "config": cfg})
            self.assertEqual(r["status"], "error")
            self.assertIn("no column fz (columns: time_s, fx, my)", r["message"])



if __name__ == "__main__":
    unittest.main()


class BodyForceModule(unittest.TestCase):
    """The 6-DOF linear mooring against its formula: two bodies, 12 inputs and 6 outputs each."""

    def test_linear_mooring_springs_to_the_first_pose_and_damps(self):
        m = load("linear_mooring_force").LinearMooring()
        names = [f"b{i}.{c}" for i in range(2) for c in ("pos_x", "pos_y", "pos_z", "roll", "pitch", "yaw",
                                                          "vel_x", "vel_y", "vel_z", "omega_x", "omega_y", "omega_z")]
        d = Dispatcher(m)
        cfg = {"stiffness": [1, 2, 3], "damping": [4, 5, 6], "rot_stiffness": [7, 8, 9], "rot_damping": [10, 11, 12]}
        reply = d.handle({"op": "initialize", "protocol": 2, "kind": "body_force", "n_inputs": 24, "n_outputs": 12,
                          "dt": 0.1, "in_names": names, "config": cfg})
        self.assertEqual(reply["status"], "ok", reply)
        start = [1.0, 2.0, 3.0, 0.1, 0.2, 0.3] + [0.0] * 6
        first = d.handle({"op": "evaluate", "t": 0.0, "dt": 0.1, "in": start + start})
        self.assertEqual(first["out"], [0.0] * 12)
        moved = [1.5, 2.0, 2.0, 0.1, 0.25, 0.3, 1.0, 0.0, -1.0, 0.0, 2.0, 0.0]
        out = d.handle({"op": "evaluate", "t": 0.1, "dt": 0.1, "in": start + moved})["out"]
        # Body 2: F = -K dx - C v, M = -Kr drpy - Cr omega, by hand.
        expected = [-1 * 0.5 - 4 * 1.0, 0.0, -3 * -1.0 - 6 * -1.0, 0.0, -8 * 0.05 - 11 * 2.0, 0.0]
        for got, want in zip(out[6:], expected):
            self.assertAlmostEqual(got, want, places=12)
        self.assertEqual(out[:6], [0.0] * 6)
        # A link's announcement is refused with a message.
        bad = Dispatcher(load("linear_mooring_force").LinearMooring())
        r = bad.handle({"op": "initialize", "protocol": 2, "kind": "pto", "n_inputs": 2, "n_outputs": 1,
                        "dt": 0.1, "config": {}})
        self.assertEqual(r["status"], "error")
        self.assertIn("body-force module", r["message"])


RSDA_NAMES = ["displacement", "velocity", "angle", "rest_angle", "rel_accel"] + [
    f"body{b}_{q}_{a}" for b in (1, 2) for q in ("pos", "vel") for a in "xyz"
]
TSDA_NAMES = ["displacement", "velocity", "length", "rest_length", "rel_accel"] + RSDA_NAMES[5:]


class SameModulesOnTsdaAndRsda(unittest.TestCase):
    """The worked modules read only channels 0 and 1 (displacement, velocity), which a TSDA (m, m/s)
    and an RSDA (rad, rad/s) both send first: fed the same numbers through the rich TSDA, the
    rich RSDA and the lean state, each answers the same force or torque, step by step."""

    MODULES = {
        "linear_damper_pto": ("LinearDamper", {"damping": 12000.0}),
        "adaptive_damping_pto": (
            "AdaptiveDamping",
            {"damping": 12000.0, "gain": 0.5, "v_ref": 0.1, "c_min": 3000.0, "c_max": 48000.0, "f_max": 2500.0},
        ),
        "hydraulic_accumulator_pto": ("HydraulicAccumulator", {"area": 0.08, "v0": 0.12, "p0": 1.0e7, "valve": 12000.0}),
    }

    def test_each_module_answers_alike_on_the_three_kinds(self):
        # A pitch-like trace: angle 0.3 sin(t), rate 0.3 cos(t); the other rich channels arbitrary.
        steps = [(0.02 * n, 0.3 * math.sin(0.02 * n), 0.3 * math.cos(0.02 * n)) for n in range(200)]
        for script, (cls, cfg) in self.MODULES.items():
            answers = []
            for kind, names in (("pto", ["displacement", "velocity"]), ("pto_tsda", TSDA_NAMES), ("pto_rsda", RSDA_NAMES)):
                d = init(getattr(load(script), cls)(), cfg, kind=kind, names=names, dt=0.02)
                rest = [1.0 + i for i in range(len(names) - 2)]
                answers.append([evaluate(d, t, 0.02, [x, v, *rest]) for t, x, v in steps])
            with self.subTest(module=script):
                self.assertEqual(answers[0], answers[1])
                self.assertEqual(answers[0], answers[2])
                self.assertTrue(any(a != 0.0 for a in answers[0]))


class Trace(unittest.TestCase):
    def test_every_evaluate_is_a_row_and_a_repeated_time_comes_again(self):
        out = io.StringIO()
        d = Dispatcher(load("linear_damper_pto").LinearDamper(), trace=out)
        d.handle({"op": "initialize", "protocol": 2, "kind": "pto_rsda", "n_inputs": 17, "n_outputs": 1,
                  "dt": 0.5, "in_names": RSDA_NAMES, "config": {"damping": 4.0}})
        rest = [0.0] * 15
        for t, v in ((0.5, 0.25), (1.0, -0.5), (1.0, -0.75)):  # the last: a repeated window's time
            d.handle({"op": "evaluate", "t": t, "dt": 0.5, "in": [0.125, v, *rest]})
        lines = out.getvalue().splitlines()
        self.assertTrue(lines[0].startswith("# "))
        self.assertEqual(lines[1:], ["time_s,displacement,velocity,force",
                                     "0.5,0.125,0.25,-1.0", "1.0,0.125,-0.5,2.0", "1.0,0.125,-0.75,3.0"])

    def test_a_body_force_module_traces_its_outputs(self):
        out = io.StringIO()
        d = Dispatcher(load("linear_mooring_force").LinearMooring(), trace=out)
        names = [f"b.{c}" for c in ("pos_x", "pos_y", "pos_z", "roll", "pitch", "yaw", "vel_x", "vel_y", "vel_z",
                                     "omega_x", "omega_y", "omega_z")]
        reply = d.handle({"op": "initialize", "protocol": 2, "kind": "body_force", "n_inputs": 12, "n_outputs": 6,
                          "dt": 0.1, "in_names": names, "config": {"damping": [1.0, 1.0, 1.0]}})
        self.assertEqual(reply["status"], "ok", reply)
        reply = d.handle({"op": "evaluate", "t": 0.0, "dt": 0.1, "in": [0.0] * 6 + [1.0, 2.0, 3.0, 0.1, 0.2, 0.3]})
        self.assertEqual(reply["status"], "ok", reply)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[1], "time_s,output_0,output_1,output_2,output_3,output_4,output_5")
        self.assertEqual([float(x) for x in lines[2].split(",")], [0.0, *reply["out"]])
        self.assertTrue(any(x != 0.0 for x in reply["out"]))
