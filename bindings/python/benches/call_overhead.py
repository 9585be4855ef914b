"""What each call of window_loop.py's loop costs on this module, in one process (docs/performance.md,
"Python participants"): the per-call half of the per-window overhead.

    python call_overhead.py [--vertices 1] [--number 200000] [--repeat 7]

Participants A and B of window_overhead.py's serial-explicit case run in this process, B in a
thread (its `initialize` waits for A's first window, which never comes); once A is initialized,
its calls are timed with `timeit` in a tight loop (without `advance`, so the coupling state does
not change): the minimum over `--repeat` runs of
`--number` calls, in ns per call. The floors beside them: a Python function that does nothing,
a method of a C type (`list.__len__`), and, when the module was built with the cargo feature
`bench-floor`, pyo3 methods that do nothing with the same arguments as the coupling calls.
"""

import argparse
import os
import sys
import tempfile
import threading
import timeit

import numpy as np
import precice

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import window_overhead  # noqa: E402  (the case's configuration)


def partner(config):
    """Participant B: connects A, then waits in `initialize` until A finalizes (which ends it
    with an error: A leaves before the first window)."""
    b = precice.Participant("B", config, 0, 1)
    b.set_mesh_vertices("B-Mesh", np.zeros((1, 3)))
    try:
        b.initialize()
    except RuntimeError:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vertices", type=int, default=1)
    ap.add_argument("--number", type=int, default=200000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()

    case = tempfile.TemporaryDirectory(prefix="tidelink-calls-")
    config = os.path.join(case.name, "precice-config.xml")
    with open(config, "w") as f:
        f.write(window_overhead.config("serial-explicit", 10))
    os.chdir(case.name)
    thread = threading.Thread(target=partner, args=(config,))
    thread.start()

    p = precice.Participant("A", config, 0, 1)
    mesh, write, read = "A-Mesh", "AToB", "BToA"
    positions = np.zeros((args.vertices, 3))
    positions[:, 0] = np.arange(args.vertices)
    ids = p.set_mesh_vertices(mesh, positions)
    p.initialize()
    dt = p.get_max_time_step_size()
    values = 0.5 * p.read_data(mesh, read, ids, dt) + 1.0
    ids_list = ids.tolist()

    def nothing(*_):
        return None

    names = {
        "p": p, "mesh": mesh, "write": write, "read": read, "ids": ids, "ids_list": ids_list,
        "dt": dt, "values": values, "nothing": nothing, "lst": [], "np": np,
    }
    calls = [
        ("floor: Python function, no arguments", "nothing()"),
        ("floor: Python function, 4 arguments", "nothing(mesh, read, ids, dt)"),
        ("floor: C method (list.__len__)", "lst.__len__()"),
    ]
    try:
        from tidelink_precice._native import _Floor as floor
    except ImportError:
        floor = None
    if floor is not None:
        names["f"] = floor()
        calls += [
            ("floor: pyo3 method, no arguments", "f.nothing()"),
            ("floor: pyo3 method, 4 arguments", "f.nothing4(mesh, read, ids, dt)"),
        ]
    calls += [
        ("is_coupling_ongoing()", "p.is_coupling_ongoing()"),
        ("requires_writing_checkpoint()", "p.requires_writing_checkpoint()"),
        ("get_max_time_step_size()", "p.get_max_time_step_size()"),
        ("requires_reading_checkpoint()", "p.requires_reading_checkpoint()"),
        ("is_time_window_complete()", "p.is_time_window_complete()"),
        ("read_data(ids int32 array)", "p.read_data(mesh, read, ids, dt)"),
        ("write_data(ids int32 array)", "p.write_data(mesh, write, ids, values)"),
        ("read_data(ids list)", "p.read_data(mesh, read, ids_list, dt)"),
        ("write_data(ids list)", "p.write_data(mesh, write, ids_list, values)"),
        ("numpy: 0.5 * array + 1.0", "0.5 * values + 1.0"),
        ("the loop's numpy line with read_data", "0.5 * p.read_data(mesh, read, ids, dt) + 1.0"),
    ]
    try:
        print(f"vertices={args.vertices} number={args.number} repeat={args.repeat} (ns per call, min of repeats)")
        for label, stmt in calls:
            best = min(timeit.repeat(stmt, globals=names, number=args.number, repeat=args.repeat))
            print(f"{label:45s} {best / args.number * 1e9:9.1f}", flush=True)
    finally:
        p.finalize()
        thread.join()
        case.cleanup()


if __name__ == "__main__":
    main()
