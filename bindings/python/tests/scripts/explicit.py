"""Participant A or B of support.EXPLICIT_XML (serial-explicit, A first).

A provides three vertices on a line and writes, after each step ending at time t,
Heat_i = (i + 1) t and Flow_i = (t, −i). B provides the same points in reverse order, reads
both at the end of each step and writes one JSON line per window to the file given with
--output: {"t": t, "heat": [...], "flow": [[...], ...]}.

    python explicit.py <A|B> <precice-config.xml> [--output FILE] [--substeps N]
"""

import argparse
import json

import numpy as np
import precice

POINTS = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("participant", choices=("A", "B"))
    ap.add_argument("config")
    ap.add_argument("--output")
    ap.add_argument("--substeps", type=int, default=1)
    args = ap.parse_args()
    p = precice.Participant(args.participant, args.config, 0, 1)
    mesh = args.participant + "-Mesh"
    ids = p.set_mesh_vertices(mesh, POINTS if args.participant == "A" else POINTS[::-1].copy())
    p.initialize()
    rows, t, step = [], 0.0, 0
    while p.is_coupling_ongoing():
        dt = p.get_max_time_step_size() / max(args.substeps - step, 1)
        if args.participant == "A":
            t_end = t + dt
            p.write_data(mesh, "Heat", ids, (np.arange(3) + 1.0) * t_end)
            p.write_data(mesh, "Flow", ids, np.column_stack([np.full(3, t_end), -np.arange(3.0)]))
        else:
            heat = p.read_data(mesh, "Heat", ids, dt)
            flow = p.read_data(mesh, "Flow", ids, dt)
            assert heat.shape == (3,) and heat.dtype == np.float64, (heat.shape, heat.dtype)
            assert flow.shape == (3, 2) and flow.dtype == np.float64, (flow.shape, flow.dtype)
        p.advance(dt)
        t += dt
        step += 1
        if p.is_time_window_complete():
            step = 0
            if args.participant == "B":
                rows.append({"t": t, "heat": heat.tolist(), "flow": flow.tolist()})
    p.finalize()
    if args.output:
        with open(args.output, "w") as f:
            f.write("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
