"""PTO-damping sensitivity of RM3's linear model (docs/derivatives.md, worked example).

Reads the state-space model that `tidelink-mbs linearize ... --hydro rm3.h5` wrote (states
float.z, spar.z, float.vz, spar.vz), and at the frequency `omega` gives

- X: the float's heave amplitude per unit heave force amplitude on the float,
- P: the mean power the PTO damper absorbs per unit force amplitude squared, 1/2 c w^2 |X_f - X_s|^2,

with their derivatives with respect to the PTO damping c, analytically:
dA/dc = [[0, 0], [0, -M^-1 D]] with D = [[1, -1], [-1, 1]] (the damper's heave matrix) and M^-1
read from B (the velocity rows under the heave forces), so dG/dc = C (jwI - A)^-1 dA/dc (jwI - A)^-1 B.
Given two more linear models at c - dc and c + dc, it compares with central differences.

    python pto_sensitivity.py rm3_linear --damping 1.2e6 [--fd rm3_minus rm3_plus --dc 1.2e4] [--period 8]
"""

import argparse
import csv
import sys
from pathlib import Path

import numpy as np


def load(folder):
    """A, B, C as arrays with their column names, and the state names."""
    out = {}
    for m in "ABC":
        with open(Path(folder) / f"{m}.csv") as f:
            rows = list(csv.reader(f))
        out[m] = (np.array([[float(x) for x in r] for r in rows[1:]]), rows[0])
    return out


def response(lin, c, omega):
    """X (float heave per unit float heave force), P (PTO power per unit force^2) and their c-derivatives."""
    a, states = lin["A"]
    b, inputs = lin["B"]
    n = a.shape[0]
    zf, zs = states.index("float.z"), states.index("spar.z")
    vf, vs = states.index("float.vz"), states.index("spar.vz")
    fz, sz = inputs.index("float.fz"), inputs.index("spar.fz")
    # M^-1 in the heave coordinates: how the heave forces reach the heave accelerations.
    minv = b[np.ix_([vf, vs], [fz, sz])]
    da = np.zeros((n, n))
    da[np.ix_([vf, vs], [vf, vs])] = -minv @ np.array([[1.0, -1.0], [-1.0, 1.0]])
    resolvent = np.linalg.inv(1j * omega * np.eye(n) - a)
    x = resolvent @ b[:, fz]
    dx = resolvent @ da @ x
    xf, dxf = x[zf], dx[zf]
    rel, drel = x[zf] - x[zs], dx[zf] - dx[zs]
    amp = abs(xf)
    damp = np.real(np.conj(xf) * dxf) / amp
    power = 0.5 * c * omega**2 * abs(rel) ** 2
    dpower = 0.5 * omega**2 * abs(rel) ** 2 + c * omega**2 * np.real(np.conj(rel) * drel)
    return amp, damp, power, dpower


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model", help="folder of A.csv, B.csv, C.csv at damping c")
    p.add_argument("--damping", type=float, required=True, help="c of that model (N s/m)")
    p.add_argument("--period", type=float, default=8.0, help="wave period (s), default 8")
    p.add_argument("--fd", nargs=2, metavar=("MINUS", "PLUS"), help="the models at c - dc and c + dc")
    p.add_argument("--dc", type=float, help="dc of --fd (N s/m)")
    a = p.parse_args(argv)
    omega = 2 * np.pi / a.period
    amp, damp, power, dpower = response(load(a.model), a.damping, omega)
    print(f"c = {a.damping:.6g} N s/m, omega = {omega:.6f} rad/s (T = {a.period} s)")
    print(f"float heave per unit float force |X| = {amp:.6e} m/N, d|X|/dc = {damp:.6e} m/N per N s/m")
    print(f"PTO power per unit force^2      P   = {power:.6e} W/N^2, dP/dc = {dpower:.6e} W/N^2 per N s/m")
    if a.fd:
        if not a.dc:
            p.error("--fd needs --dc")
        lo = response(load(a.fd[0]), a.damping - a.dc, omega)
        hi = response(load(a.fd[1]), a.damping + a.dc, omega)
        fd_amp = (hi[0] - lo[0]) / (2 * a.dc)
        fd_pow = (hi[2] - lo[2]) / (2 * a.dc)
        print(f"central differences (dc = {a.dc:.3g}): d|X|/dc = {fd_amp:.6e} (relative difference "
              f"{abs(fd_amp - damp) / abs(damp):.1e}), dP/dc = {fd_pow:.6e} (relative difference "
              f"{abs(fd_pow - dpower) / abs(dpower):.1e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
