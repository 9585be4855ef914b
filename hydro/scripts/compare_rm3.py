"""Compares a generated RM3 BEMIO file with the WAMIT-derived one: heave terms at T = 8 s and RMS over a band.

Usage: python compare_rm3.py <generated.h5> <reference rm3.h5> [w_min w_max]
Prints a Markdown table (docs/hydro.md has the output of the last run).
"""

import sys

import h5py
import numpy as np


def load(path):
    """Heave A, B, A_inf (float 3, spar 9, coupling 3-9) and heave excitation of both bodies, SI units."""
    with h5py.File(path, "r") as f:
        rho = f["simulation_parameters/rho"][0, 0]
        g = f["simulation_parameters/g"][0, 0]
        w = f["simulation_parameters/w"][:, 0]
        out = {"w": w}
        for name, (b, col) in {"33": (1, 2), "99": (2, 8), "39": (1, 8)}.items():
            hc = f[f"body{b}/hydro_coeffs"]
            out["A" + name] = hc["added_mass/all"][2, col, :] * rho
            out["B" + name] = hc["radiation_damping/all"][2, col, :] * rho * w
            out["Ainf" + name] = hc["added_mass/inf_freq"][2, col] * rho
        for name, b in {"3": 1, "9": 2}.items():
            ex = f[f"body{b}/hydro_coeffs/excitation"]
            out["X" + name] = (ex["re"][2, 0, :] + 1j * ex["im"][2, 0, :]) * rho * g
    return out


def at(w, values, w0):
    return np.interp(w0, w, values.real) + 1j * np.interp(w0, w, values.imag) if np.iscomplexobj(values) \
        else np.interp(w0, w, values)


def main(argv):
    gen, ref = load(argv[1]), load(argv[2])
    lo, hi = (float(argv[3]), float(argv[4])) if len(argv) > 4 else (0.02, 3.0)
    w0 = 2 * np.pi / 8
    band = ref["w"][(ref["w"] >= lo - 1e-9) & (ref["w"] <= hi + 1e-9)]
    print(f"| quantity | WAMIT-derived | Capytaine | diff at T = 8 s | nRMS {lo}-{hi} rad/s |")
    print("|---|---|---|---|---|")
    for key in ["A33", "A99", "A39", "B33", "B99", "B39", "X3", "X9", "Ainf33", "Ainf99", "Ainf39"]:
        if key.startswith("Ainf"):
            r, c = ref[key], gen[key]
            rms = ""
        else:
            r, c = at(ref["w"], ref[key], w0), at(gen["w"], gen[key], w0)
            rr = np.abs(at(ref["w"], ref[key], band)) if key.startswith("X") else at(ref["w"], ref[key], band)
            cc = np.abs(at(gen["w"], gen[key], band)) if key.startswith("X") else at(gen["w"], gen[key], band)
            rms = f"{100 * np.sqrt(np.mean((cc - rr) ** 2)) / np.max(np.abs(rr)):.2f} %"
        if key.startswith("X"):
            text_r = f"{abs(r):.4g} N/m, {np.degrees(np.angle(r)):+.1f} deg"
            text_c = f"{abs(c):.4g} N/m, {np.degrees(np.angle(c)):+.1f} deg"
            diff = 100 * (abs(c) - abs(r)) / abs(r)
            name = f"abs(X{key[1:]})"
        else:
            text_r, text_c, diff, name = f"{r:.4g}", f"{c:.4g}", 100 * (c - r) / abs(r), key
        print(f"| {name} | {text_r} | {text_c} | {diff:+.2f} % | {rms} |")


if __name__ == "__main__":
    main(sys.argv)
