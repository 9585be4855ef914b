"""Participant A or B of support.GRADIENT_XML (serial-explicit, A first; B maps by
nearest-neighbor-gradient).

A provides the three vertices (0, 0), (1, 0), (2, 0) and writes, after each step ending at time
t, the linear fields Heat = t (1 + 2x − 3y) and Flow = (t x + y, 2x − t y) with their exact
gradients, whenever they are required. B provides vertices off A's, reads both at the end of
each step and writes one JSON line per window to the file given with --output:
{"t": t, "heat": [...], "flow": [[...], ...]}.

    python gradient.py <A|B> <precice-config.xml> [--output FILE]
"""

import argparse
import json

import numpy as np
import precice

A_POINTS = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
B_POINTS = np.array([[0.3, 0.4], [1.2, -0.3], [2.4, 0.1]])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("participant", choices=("A", "B"))
    ap.add_argument("config")
    ap.add_argument("--output")
    args = ap.parse_args()
    p = precice.Participant(args.participant, args.config, 0, 1)
    mesh = args.participant + "-Mesh"
    ids = p.set_mesh_vertices(mesh, A_POINTS if args.participant == "A" else B_POINTS)
    p.initialize()
    rows, t = [], 0.0
    while p.is_coupling_ongoing():
        dt = p.get_max_time_step_size()
        if args.participant == "A":
            t_end = t + dt
            x, y = A_POINTS[:, 0], A_POINTS[:, 1]
            p.write_data(mesh, "Heat", ids, t_end * (1 + 2 * x - 3 * y))
            p.write_data(mesh, "Flow", ids, np.column_stack([t_end * x + y, 2 * x - t_end * y]))
            if p.requires_gradient_data_for(mesh, "Heat"):
                p.write_gradient_data(mesh, "Heat", ids, np.tile([2 * t_end, -3 * t_end], (3, 1)))
            if p.requires_gradient_data_for(mesh, "Flow"):
                # Per row: d(Flow0)/dx, d(Flow0)/dy, d(Flow1)/dx, d(Flow1)/dy.
                p.write_gradient_data(mesh, "Flow", ids, np.tile([t_end, 1.0, 2.0, -t_end], (3, 1)))
        else:
            heat = p.read_data(mesh, "Heat", ids, dt)
            flow = p.read_data(mesh, "Flow", ids, dt)
        p.advance(dt)
        t += dt
        if args.participant == "B" and p.is_time_window_complete():
            rows.append({"t": t, "heat": heat.tolist(), "flow": flow.tolist()})
    p.finalize()
    if args.output:
        with open(args.output, "w") as f:
            f.write("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
