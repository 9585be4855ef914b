"""The OSWEC flap's steady pitch in regular waves: frequency-domain solution of the hydrodynamic file against a run.

Usage: python hydro/scripts/oswec_pitch_fd.py <oswec.h5> [<solid/output/flap.csv> [t_from t_to]]

One degree of freedom, the pitch theta about the hinge 5 m below the flap CG (the CG moves 5 theta in surge):
  [-w^2 (I_h + A_h(w)) + i w (B_h(w) + c_pto) + K_h] Theta = X_h(w) a
with I_h = I_yy + m 5^2, A_h = A55 + 10 A15 + 25 A11 (B likewise), X_h = X5 + 5 X1 (flap block of the file, about
the CG), K_h = C55 + 5 g (rho V - m) (the file's pitch stiffness about the CG plus the net buoyancy, rho g V - m g,
acting at the CG as it swings 5 theta sideways), the coefficients interpolated linearly at w. With a run's flap
output it fits ry = Re{Theta e^{iwt}} over [t_from, t_to] (default 152-200 s, after the 100 s ramp) and prints
both. Parameters: WEC-Sim's OSWEC (configs/oswec), H 2.5 m, T 8 s.
"""

import sys

import h5py
import numpy as np

ARM, MASS, IYY, C_PTO = 5.0, 127000.0, 1.85e6, 12000.0
AMPLITUDE, PERIOD = 1.25, 8.0


def frequency_domain(path, w, amplitude):
    """Complex pitch amplitude (rad) about the hinge at w for a wave of `amplitude` (m), phase 0 at the origin."""
    with h5py.File(path, "r") as f:
        rho = f["simulation_parameters/rho"][0, 0]
        g = f["simulation_parameters/g"][0, 0]
        ws = f["simulation_parameters/w"][:, 0]
        hc = f["body1/hydro_coeffs"]
        a = hc["added_mass/all"][:] * rho
        b = hc["radiation_damping/all"][:] * rho * ws
        x = (hc["excitation/re"][:, 0, :] + 1j * hc["excitation/im"][:, 0, :]) * rho * g
        c55 = hc["linear_restoring_stiffness"][4, 4] * rho * g
        volume = f["body1/properties/disp_vol"][0, 0]
    at = lambda v: np.interp(w, ws, v.real) + (1j * np.interp(w, ws, v.imag) if np.iscomplexobj(v) else 0)  # noqa: E731
    a_h = at(a[4, 4] + 2 * ARM * a[0, 4] + ARM**2 * a[0, 0])
    b_h = at(b[4, 4] + 2 * ARM * b[0, 4] + ARM**2 * b[0, 0])
    x_h = at(x[4] + ARM * x[0])
    k_h = c55 + ARM * g * (rho * volume - MASS)
    i_h = IYY + MASS * ARM**2
    return x_h * amplitude / (-w * w * (i_h + a_h) + 1j * w * (b_h + C_PTO) + k_h)


def fitted(csv, w, t0, t1):
    """Complex amplitude of the flap's ry over [t0, t1] (least squares on cos, sin and a constant)."""
    data = np.genfromtxt(csv, delimiter=",", names=True, skip_header=1)
    t, ry = data["time_s"], data["ry_rad"]
    sel = (t >= t0) & (t <= t1)
    m = np.column_stack([np.cos(w * t[sel]), np.sin(w * t[sel]), np.ones(sel.sum())])
    (c, s, _), *_ = np.linalg.lstsq(m, ry[sel], rcond=None)
    return c - 1j * s


def main(argv):
    w = 2 * np.pi / PERIOD
    fd = frequency_domain(argv[1], w, AMPLITUDE)
    print(f"frequency domain: pitch {abs(fd):.5f} rad, phase {np.degrees(np.angle(fd)):+.2f} deg")
    if len(argv) > 2:
        t0, t1 = (float(argv[3]), float(argv[4])) if len(argv) > 4 else (152.0, 200.0)
        run = fitted(argv[2], w, t0, t1)
        print(f"run ({t0:g}-{t1:g} s): pitch {abs(run):.5f} rad, phase {np.degrees(np.angle(run)):+.2f} deg; "
              f"amplitude {100 * (abs(run) - abs(fd)) / abs(fd):+.2f} %, phase {np.degrees(np.angle(run / fd)):+.2f} deg")


if __name__ == "__main__":
    main(sys.argv)
