"""The Python twin of coupling/engine/examples/window_loop.rs: the per-window loop of a solver
that does no work, as a pyprecice participant (the same calls in the same order).

    python window_loop.py <A|B> <precice-config.xml>

`TL_VERTICES` vertices (environment, default 1) on a line; every step writes Out = ½·In + 1
with numpy (one vectorised operation, as a solver would). Prints one line
`windows=<n> iterations=<m> seconds=<s> cpu=<s>` (the time from after initialize to before
finalize, and the CPU time the thread ran meanwhile, from Linux's /proc/thread-self/schedstat as
the Rust twin reads it; nan elsewhere).
"""

import os
import sys
import time

import numpy as np
import precice

NAMES = {"A": ("A-Mesh", "AToB", "BToA"), "B": ("B-Mesh", "BToA", "AToB")}


def cpu_seconds():
    """The CPU time this thread has run, in seconds; NaN where Linux's schedstat is missing."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[0]) * 1e-9
    except (OSError, ValueError, IndexError):
        return float("nan")


def main():
    participant, config = sys.argv[1], sys.argv[2]
    mesh, write, read = NAMES[participant]
    n = int(os.environ.get("TL_VERTICES", "1"))
    p = precice.Participant(participant, config, 0, 1)
    dim = p.get_mesh_dimensions(mesh)
    positions = np.zeros((n, dim))
    positions[:, 0] = np.arange(n)
    ids = p.set_mesh_vertices(mesh, positions)
    components = p.get_data_dimensions(mesh, write)
    values = np.zeros((n, components)) if components > 1 else np.zeros(n)
    if p.requires_initial_data():
        p.write_data(mesh, write, ids, values)
    p.initialize()
    start, cpu_start = time.perf_counter(), cpu_seconds()
    windows = iterations = 0
    while p.is_coupling_ongoing():
        p.requires_writing_checkpoint()
        dt = p.get_max_time_step_size()
        values = 0.5 * p.read_data(mesh, read, ids, dt) + 1.0
        p.write_data(mesh, write, ids, values)
        p.advance(dt)
        iterations += 1
        p.requires_reading_checkpoint()
        if p.is_time_window_complete():
            windows += 1
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu_start
    p.finalize()
    print(f"windows={windows} iterations={iterations} seconds={seconds!r} cpu={cpu!r}", flush=True)


if __name__ == "__main__":
    main()
