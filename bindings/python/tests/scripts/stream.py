"""The Fluid of configs/flap in Python: a uniform stream's pressure drag on the flap's points.

The same physics and the same sequence of calls as Tidelink's `tidelink-stream` stand-in
(participants/buoyancy: each point carries A/n of the plate's area and gets
F = ½ ρ C_d (A/n) |w| w n, with n the normal of the line fitted through the points and
w = (U − v)·n; the velocities are estimated from the last two reads, read at the window's
end), so that the flap moves identically whichever of the two is the Fluid.

    python stream.py <precice-config.xml> <flap_points.txt>
"""

import sys

import numpy as np
import precice

U = np.array([0.0, 0.5])  # the stream (m/s), crossing the flap broadside
RHO, CD, AREA = 1000.0, 2.0, 0.2  # water, a flat plate's drag coefficient, 0.2 m × 1 m of span


def normal(points):
    """Unit normal of the line through the points: the covariance's direction of least spread."""
    d = points - points.mean(axis=0)
    values, vectors = np.linalg.eigh(d.T @ d)
    return vectors[:, np.argmin(values)]


def main():
    config, points_file = sys.argv[1:3]
    with open(points_file) as f:
        n = int(f.readline())
        initial = np.array([[float(x) for x in f.readline().split()][:2] for _ in range(n)])
    p = precice.Participant("Fluid", config, 0, 1)
    ids = p.set_mesh_vertices("FluidMesh", initial)
    p.initialize()
    time, last, velocities = 0.0, None, np.zeros_like(initial)
    share = 0.5 * RHO * CD * AREA / n
    while p.is_coupling_ongoing():
        dt = p.get_max_time_step_size()
        points = initial + p.read_data("FluidMesh", "Displacement", ids, dt)
        t = time + dt
        if last is not None and t > last[0]:
            velocities = (points - last[1]) / (t - last[0])
        last = (t, points)
        nrm = normal(points)
        w = (U - velocities) @ nrm
        p.write_data("FluidMesh", "Force", ids, np.outer(share * np.abs(w) * w, nrm))
        p.advance(dt)
        time += dt
    p.finalize()


if __name__ == "__main__":
    main()
