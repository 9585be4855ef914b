"""One mass of the two-mass oscillator as a pyprecice participant.

The Python twin of coupling/engine/examples/oscillator.rs (docs/oscillators.md has the case
and its exact solution): the same integrators, step for step and in the same floating-point
order, so that a Python pair, a Rust pair and a mixed pair give the same numbers.

    python oscillator.py <Mass-Left|Mass-Right> <precice-config.xml>
        [--integrator generalized-alpha|runge-kutta-4] [--substeps N] [--output FILE.csv]

The CSV has one row per accepted window end (and t = 0): time, displacement, velocity,
iterations (0 at t = 0).
"""

import argparse
import math

import numpy as np
import precice

PARTICIPANTS = ("Mass-Left", "Mass-Right")
DATA = ("Displacement-Left", "Displacement-Right")
K = 4.0 * math.pi * math.pi
# m1 = m2 = 1, k1 = k2 = 4π², k12 = 16π², x(0) = (1, 0), v(0) = 0.
MASS, K_WALL, K12, X0, V0 = (1.0, 1.0), (K, K), 4.0 * K, (1.0, 0.0), (0.0, 0.0)


def step(integrator, m, k, s, dt, other):
    """One step of m ü + k u = k12 x_other(t) from s = (u, v, a); other(rel) reads the partner."""
    u, v, a = s
    if integrator == "generalized-alpha":
        rho_inf = 2.0 / 3.0
        am = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0)
        af = rho_inf / (rho_inf + 1.0)
        gamma = 0.5 - am + af
        beta = 0.25 * (1.0 - am + af) ** 2
        force = K12 * other((1.0 - af) * dt)
        u_pred = u + dt * v + dt * dt * (0.5 - beta) * a
        a_new = (force - m * am * a - k * af * u - k * (1.0 - af) * u_pred) / (
            m * (1.0 - am) + k * (1.0 - af) * beta * dt * dt
        )
        return (u_pred + beta * dt * dt * a_new, v + dt * ((1.0 - gamma) * a + gamma * a_new), a_new)
    x0, xh, x1 = other(0.0), other(0.5 * dt), other(dt)

    def f(uu, vv, x):
        return vv, (K12 * x - k * uu) / m

    k1 = f(u, v, x0)
    k2 = f(u + 0.5 * dt * k1[0], v + 0.5 * dt * k1[1], xh)
    k3 = f(u + 0.5 * dt * k2[0], v + 0.5 * dt * k2[1], xh)
    k4 = f(u + dt * k3[0], v + dt * k3[1], x1)
    u1 = u + dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0])
    v1 = v + dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1])
    return (u1, v1, (K12 * x1 - k * u1) / m)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("participant", choices=PARTICIPANTS)
    ap.add_argument("config")
    ap.add_argument("--integrator", default="generalized-alpha", choices=("generalized-alpha", "runge-kutta-4"))
    ap.add_argument("--substeps", type=int, default=4)
    ap.add_argument("--output")
    args = ap.parse_args()

    me = PARTICIPANTS.index(args.participant)
    mesh, write, read = args.participant + "-Mesh", DATA[me], DATA[1 - me]
    m, k = MASS[me], K_WALL[me] + K12
    participant = precice.Participant(args.participant, args.config, 0, 1)
    ids = participant.set_mesh_vertices(mesh, np.zeros((1, participant.get_mesh_dimensions(mesh))))

    def other(rel):
        return float(participant.read_data(mesh, read, ids, rel)[0])

    u, v = X0[me], V0[me]
    if participant.requires_initial_data():
        participant.write_data(mesh, write, ids, np.array([u]))
    participant.initialize()
    s = (u, v, (K12 * other(0.0) - k * u) / m)
    rows = [(0.0, s[0], s[1], 0)]
    start, window, substep, iteration, saved = 0.0, 0.0, 0, 1, s
    while participant.is_coupling_ongoing():
        if participant.requires_writing_checkpoint():
            saved = s
        left = participant.get_max_time_step_size()
        if substep == 0:
            window = left
        dt = left / max(args.substeps - substep, 1)
        s = step(args.integrator, m, k, s, dt, other)
        participant.write_data(mesh, write, ids, np.array([s[0]]))
        participant.advance(dt)
        substep += 1
        if participant.requires_reading_checkpoint():
            s, substep, iteration = saved, 0, iteration + 1
        elif participant.is_time_window_complete():
            start += window
            rows.append((start, s[0], s[1], iteration))
            substep, iteration = 0, 1
    participant.finalize()
    if args.output:
        with open(args.output, "w") as f:
            f.write("time,displacement,velocity,iterations\n")
            for t, uu, vv, it in rows:
                f.write(f"{t!r},{uu!r},{vv!r},{it}\n")


if __name__ == "__main__":
    main()
