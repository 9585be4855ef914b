"""Compares a generated floating-hemisphere BEMIO file with Hulme (1982)'s heave coefficients.

Usage: python check_hemisphere.py <hemisphere.h5> [radius, default 5]
Hulme, A. (1982) The wave forces acting on a floating hemisphere undergoing forced periodic
oscillations. J. Fluid Mech. 121, 443-463, table of heave coefficients: with K = w^2 a / g,
  A33 / (rho 2/3 pi a^3)  and  B33 / (rho w 2/3 pi a^3).
The values below are the heave table as transcribed in the test suite of MarineHydro.jl
(symbiotic-engineering/MarineHydro.jl), first columns K <= 3.
"""

import sys

import h5py
import numpy as np

HULME_K = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.5, 3.0]
HULME_A = [0.8627, 0.7938, 0.7157, 0.6452, 0.5861, 0.5381, 0.4999, 0.4698, 0.4464, 0.4284, 0.4047, 0.3924,
           0.3871, 0.3864, 0.3884, 0.3988, 0.4111]
HULME_B = [0.1816, 0.2793, 0.3254, 0.3410, 0.3391, 0.3271, 0.3098, 0.2899, 0.2691, 0.2484, 0.2096, 0.1756,
           0.1469, 0.1229, 0.1031, 0.0674, 0.0452]


def main(argv):
    a = float(argv[2]) if len(argv) > 2 else 5.0
    with h5py.File(argv[1], "r") as f:
        g = f["simulation_parameters/g"][0, 0]
        w = f["simulation_parameters/w"][:, 0]
        # Normalised by rho (A) and rho w (B) in the file: divide by the displaced volume only.
        a33 = f["body1/hydro_coeffs/added_mass/all"][2, 2, :]
        b33 = f["body1/hydro_coeffs/radiation_damping/all"][2, 2, :]
    vol = 2.0 / 3.0 * np.pi * a**3
    k = w**2 * a / g
    print("| K = w^2 a/g | Hulme A | Capytaine A | diff | Hulme B | Capytaine B | diff |")
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    for kk, ha, hb in zip(HULME_K, HULME_A, HULME_B):
        i = int(np.argmin(np.abs(k - kk)))
        if abs(k[i] - kk) > 1e-3 * kk:
            continue
        ca, cb = a33[i] / vol, b33[i] / vol
        da, db = 100 * (ca - ha) / ha, 100 * (cb - hb) / hb
        worst = max(worst, abs(da), abs(db))
        print(f"| {kk:.1f} | {ha:.4f} | {ca:.4f} | {da:+.2f} % | {hb:.4f} | {cb:.4f} | {db:+.2f} % |")
    print(f"largest difference: {worst:.2f} %")


if __name__ == "__main__":
    main(sys.argv)
