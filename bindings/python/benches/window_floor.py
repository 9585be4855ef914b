"""The interpreter's floor under window_loop.py: the same script, in one process, with `precice`
replaced by a module whose calls do nothing (docs/performance.md, "Python participants").

    TL_VERTICES=1 TL_FLOOR_WINDOWS=2000 TL_FLOOR_ITERATIONS=1 python window_floor.py

What it times is what no binding can take away: the loop's bytecode, a Python call per
coupling call (a method that returns a constant), and the numpy line Out = ½·In + 1 (on an
array the stub's `read_data` hands back without making it). Prints window_loop.py's line
`windows=<n> iterations=<m> seconds=<s>`; its seconds per window, twice (a serial pair runs its
two participants one after the other), is the least a Python pair can add to the Rust pair.
"""

import os
import sys
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


class Participant:
    """pyprecice's calls of window_loop.py, doing nothing: `TL_FLOOR_WINDOWS` windows of
    `TL_FLOOR_ITERATIONS` iterations each."""

    def __init__(self, name, config, rank, size):
        self.windows = int(os.environ.get("TL_FLOOR_WINDOWS", "2000"))
        self.iterations = int(os.environ.get("TL_FLOOR_ITERATIONS", "1"))
        self.step = 0
        self.complete = False
        self.values = None

    def get_mesh_dimensions(self, mesh):
        return 3

    def get_data_dimensions(self, mesh, data):
        return 3

    def set_mesh_vertices(self, mesh, positions):
        self.values = np.zeros(positions.shape)
        return np.arange(len(positions), dtype=np.int32)

    def requires_initial_data(self):
        return False

    def initialize(self):
        pass

    def is_coupling_ongoing(self):
        return self.step < self.windows * self.iterations

    def requires_writing_checkpoint(self):
        return False

    def get_max_time_step_size(self):
        return 0.01

    def read_data(self, mesh, data, ids, dt):
        return self.values

    def write_data(self, mesh, data, ids, values):
        pass

    def advance(self, dt):
        self.step += 1
        self.complete = self.step % self.iterations == 0

    def requires_reading_checkpoint(self):
        return False

    def is_time_window_complete(self):
        return self.complete

    def finalize(self):
        pass


def main():
    stub = types.ModuleType("precice")
    stub.Participant = Participant
    sys.modules["precice"] = stub
    sys.path.insert(0, HERE)
    import window_loop

    sys.argv = [os.path.join(HERE, "window_loop.py"), "A", "no configuration"]
    window_loop.main()


if __name__ == "__main__":
    main()
