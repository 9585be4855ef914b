"""The interpreter's floor under window_loop.py: the same script with `precice` replaced by a
module whose calls do nothing (docs/performance.md, "Python participants").

    TL_VERTICES=1 TL_FLOOR_WINDOWS=2000 TL_FLOOR_ITERATIONS=1 python window_floor.py [--pair [--bare]]

What it times is what no binding can take away: the loop's bytecode, a Python call per
coupling call (a method that returns a constant), and the numpy line Out = ½·In + 1 (on an
array the stub's `read_data` hands back without making it). Prints window_loop.py's line
`windows=<n> iterations=<m> seconds=<s>`.

Alone, the participant never waits: its seconds per window, twice (a serial pair runs its two
participants one after the other), is the least a Python pair adds to a Rust pair when the
interpreter stays hot. With `--pair`, two such participants (A, and B in a forked process) hand
one byte to each other through a socket pair at each `advance`, as a serial coupling does
(A sends and waits for B's answer; B waits, then answers): a pair with the real pair's sleeps
and wake-ups, and no engine and no binding; it prints A's line. `--bare` leaves the script out:
the two processes only hand the byte back and forth, as often; the difference between the two
is what the script costs when it runs between a pair's hand-offs (caches cooled by the wait).
"""

import os
import socket
import sys
import time
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


class Participant:
    """pyprecice's calls of window_loop.py, doing nothing: `TL_FLOOR_WINDOWS` windows of
    `TL_FLOOR_ITERATIONS` iterations each."""

    # With --pair: this participant's end of the socket pair (set before the script runs).
    link = None

    def __init__(self, name, config, rank, size):
        self.name = name
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
        if self.link is not None and self.name == "B":
            self.link.recv(1)

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
        if self.link is not None:
            self.link.send(b"x")
            if self.name == "A" or self.is_coupling_ongoing():
                self.link.recv(1)

    def requires_reading_checkpoint(self):
        return False

    def is_time_window_complete(self):
        return self.complete

    def finalize(self):
        pass


def bare(link, name, cpu_seconds):
    """The hand-offs of a pair without the script: A's line, timed as window_loop.py times."""
    windows = int(os.environ.get("TL_FLOOR_WINDOWS", "2000"))
    steps = windows * int(os.environ.get("TL_FLOOR_ITERATIONS", "1"))
    if name == "B":
        link.recv(1)
    start, cpu_start = time.perf_counter(), cpu_seconds()
    for step in range(steps):
        link.send(b"x")
        if name == "A" or step < steps - 1:
            link.recv(1)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu_start
    if name == "A":
        print(f"windows={windows} iterations={steps} seconds={seconds!r} cpu={cpu!r}", flush=True)


def main():
    stub = types.ModuleType("precice")
    stub.Participant = Participant
    sys.modules["precice"] = stub
    sys.path.insert(0, HERE)
    import window_loop
    name = "A"
    if "--pair" in sys.argv[1:]:
        a, b = socket.socketpair()
        if os.fork() == 0:
            a.close()
            Participant.link, name = b, "B"
            sys.stdout = open(os.devnull, "w")
        else:
            b.close()
            Participant.link = a
    if "--bare" in sys.argv[1:] and Participant.link is not None:
        bare(Participant.link, name, window_loop.cpu_seconds)
    else:
        sys.argv = [os.path.join(HERE, "window_loop.py"), name, "no configuration"]
        window_loop.main()
    if name == "B":
        os._exit(0)
    if Participant.link is not None:
        os.wait()


if __name__ == "__main__":
    main()
