"""read_data and write_data with every form of argument a script may pass: the int32 ids of
set_mesh_vertices and the float64 arrays a solver holds (read in place), and everything else
(lists, tuples, other dtypes and layouts, numpy scalars) converted as pyprecice converts them,
with its errors. A pair of support.EXPLICIT_XML in one process: A here, B in a thread (the
waiting calls release the interpreter)."""

import threading
import unittest

import numpy as np
import precice

import support

# A's three vertices; B has the same points in reverse order, so B's vertex i is A's 2 − i
# (the nearest-neighbor read mapping on B is exact).
POINTS = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])


def heat(window):
    """What A writes as Heat in `window` (1-based) at its vertex i: distinct per window and vertex."""
    return np.array([10.0 * window + i for i in range(3)])


def flow(window):
    """What A writes as Flow in `window` at its vertex i."""
    return np.array([[window, -i] for i in range(3)], dtype=float)


def id_forms(ids):
    """The forms of the vertex ids `ids` (three) that the pair cycles through, one per window."""
    return [
        ("int32 array", np.array(ids, dtype=np.int32)),
        ("list", list(ids)),
        ("tuple", tuple(ids)),
        ("int64 array", np.array(ids, dtype=np.int64)),
        ("strided int32 view", np.repeat(np.array(ids, dtype=np.int32), 2)[::2]),
        ("list of numpy ints", [np.int32(ids[0]), np.int64(ids[1]), np.uint8(ids[2])]),
        ("uint16 array", np.array(ids, dtype=np.uint16)),
    ]



def value_forms(window):
    """The forms of A's values in `window` that the pair cycles through."""
    h, f = heat(window), flow(window)
    return [
        ("float64 arrays", h, f),
        ("lists", h.tolist(), f.tolist()),
        ("Fortran-ordered", h, np.asfortranarray(f)),
        ("float32", h.astype(np.float32), f.astype(np.float32)),
        ("strided views", np.repeat(h, 2)[::2], np.repeat(f, 2, axis=0)[::2]),
        ("int arrays", h.astype(np.int64), f.astype(np.int64)),
        ("tuples", tuple(h), tuple(map(tuple, f))),
    ]


class DataPath(unittest.TestCase):
    def setUp(self):
        self.case = support.Case(self, support.EXPLICIT_XML)

    def reader(self, seen, failures):
        """Participant B: reads Heat and Flow at the end of each window, with the window's form
        of its ids [2, 1, 0] (A's vertices 0, 1, 2) and with no ids, keeping what it read."""
        try:
            b = precice.Participant("B", self.case.config, 0, 1)
            b.set_mesh_vertices("B-Mesh", POINTS[::-1].copy())
            b.initialize()
            window = 0
            while b.is_coupling_ongoing():
                dt = b.get_max_time_step_size()
                forms = id_forms([2, 1, 0])
                label, ids = forms[window % len(forms)]
                seen.append((label, b.read_data("B-Mesh", "Heat", ids, dt), b.read_data("B-Mesh", "Flow", ids, dt)))
                seen.append(("no ids", b.read_data("B-Mesh", "Heat", [], dt), b.read_data("B-Mesh", "Flow", [], dt)))
                b.advance(dt)
                window += 1
            b.finalize()
        except Exception as e:  # reported by the test in the main thread
            failures.append(e)

    def test_every_argument_form_writes_and_reads_the_same_values(self):
        seen, failures = [], []
        thread = threading.Thread(target=self.reader, args=(seen, failures), daemon=True)
        thread.start()
        a = precice.Participant("A", self.case.config, 0, 1)
        a.set_mesh_vertices("A-Mesh", POINTS)
        a.initialize()
        written = []
        window = 0
        try:
            while a.is_coupling_ongoing():
                window += 1
                forms = id_forms([0, 1, 2])
                ids_label, ids = forms[(window - 1) % len(forms)]
                values = value_forms(window)
                values_label, h, f = values[(window - 1) % len(values)]
                a.write_data("A-Mesh", "Heat", ids, h)
                a.write_data("A-Mesh", "Flow", ids, f)
                written.append(f"ids as {ids_label}, values as {values_label}")
                a.advance(a.get_max_time_step_size())
            a.finalize()
        finally:
            thread.join(support.GUARD_S)
        self.assertEqual(failures, [])
        self.assertEqual(window, 10, "1 s of 0.1 s windows")
        windows = [s for s in seen if s[0] != "no ids"]
        self.assertEqual(len(windows), 10)
        for k, (label, h, f) in enumerate(windows):
            what = f"window {k + 1}: A wrote with {written[k]}, B read with ids as {label}"
            self.assertEqual((h.dtype, h.shape), (np.float64, (3,)), what)
            self.assertEqual((f.dtype, f.shape), (np.float64, (3, 2)), what)
            # B's vertices 2, 1, 0 are A's 0, 1, 2: what A wrote, in A's order (exact copies).
            np.testing.assert_array_equal(h, heat(k + 1), what)
            np.testing.assert_array_equal(f, flow(k + 1), what)
        for label, h, f in seen:
            if label == "no ids":
                self.assertEqual((h.shape, f.shape), ((0,), (0,)))

    def test_bad_ids_and_values_get_pyprecice_s_errors(self):
        a = precice.Participant("A", self.case.config, 0, 1)
        a.set_mesh_vertices("A-Mesh", POINTS)
        write = a.write_data
        # Writing before initialize is allowed (initial data), so every check is reachable here.
        write("A-Mesh", "Heat", [0, 1], [1.0, 2.0])
        for ids in ([True, False], [0.0, 1.0], np.array([0.0, 1.0]), [2**70, 1], ["0", "1"]):
            with self.subTest(ids=ids), self.assertRaises(TypeError):
                write("A-Mesh", "Heat", ids, [1.0, 2.0])
        for ids in ([2**40, 0], (0, -(2**40)), np.array([2**40, 0])):
            with self.subTest(ids=ids), self.assertRaisesRegex(OverflowError, "does not fit a C int"):
                write("A-Mesh", "Heat", ids, [1.0, 2.0])
        with self.assertRaisesRegex(TypeError, "requires array_like input for vertex_ids"):
            write("A-Mesh", "Heat", 0, [1.0])
        with self.assertRaisesRegex(TypeError, "requires array_like input for values"):
            write("A-Mesh", "Heat", [0], 1.0)
        with self.assertRaisesRegex(AssertionError, "Vertex IDs are of incorrect length"):
            write("A-Mesh", "Heat", np.array([0, 1, 2], dtype=np.int32), [1.0, 2.0])
        with self.assertRaisesRegex(TypeError, "Could not convert"):
            write(1, "Heat", [0], [1.0])
        with self.assertRaisesRegex(TypeError, "Could not convert"):
            write("A-Mesh", "\udc80", [0], [1.0])
        # bytes names are pyprecice's too.
        write(b"A-Mesh", b"Heat", [0], [1.0])


if __name__ == "__main__":
    unittest.main()
