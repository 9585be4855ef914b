"""Linear hydrostatic stiffness in WAMIT's "hydrostatic and gravitational" convention, as BEMIO stores it.

Rotations are about the rotation centre r (the body's centre of gravity here, as in WEC-Sim's RM3
WAMIT run).  With primes for coordinates relative to r, the non-zero terms are (WAMIT manual, 3.1):

    C33 = rho g Awp            C34 = rho g int y' dS        C35 = -rho g int x' dS
    C44 = rho g (int y'^2 dS + V z_b') - m g z_g'          C45 = -rho g int x' y' dS
    C55 = rho g (int x'^2 dS + V z_b') - m g z_g'
    C46 = -rho g V x_b' + m g x_g'                         C56 = -rho g V y_b' + m g y_g'

integrals over the waterplane; C43 = C34, C53 = C35, C54 = C45.  With r at the CG the mass terms
vanish, so the body's mass does not enter.  BEMIO divides the matrix by rho g.
"""

import numpy as np


def stiffness(h, rho, g, cg, mass=None, center=None):
    """The 6x6 stiffness matrix (SI) from hydrostatics `h` (see meshes.mesh_hydrostatics)."""
    r = np.asarray(cg if center is None else center, dtype=float)
    cg = np.asarray(cg, dtype=float)
    m = rho * h["volume"] if mass is None else float(mass)
    a = h["awp"]
    # Waterplane moments about (r_x, r_y).
    sx = h["wp_x"] - r[0] * a
    sy = h["wp_y"] - r[1] * a
    sxx = h["wp_xx"] - 2 * r[0] * h["wp_x"] + r[0] ** 2 * a
    syy = h["wp_yy"] - 2 * r[1] * h["wp_y"] + r[1] ** 2 * a
    sxy = h["wp_xy"] - r[0] * h["wp_y"] - r[1] * h["wp_x"] + r[0] * r[1] * a
    b = np.asarray(h["cb"]) - r
    gr = cg - r
    v = h["volume"]
    c = np.zeros((6, 6))
    c[2, 2] = rho * g * a
    c[2, 3] = c[3, 2] = rho * g * sy
    c[2, 4] = c[4, 2] = -rho * g * sx
    c[3, 3] = rho * g * (syy + v * b[2]) - m * g * gr[2]
    c[3, 4] = c[4, 3] = -rho * g * sxy
    c[4, 4] = rho * g * (sxx + v * b[2]) - m * g * gr[2]
    c[3, 5] = -rho * g * v * b[0] + m * g * gr[0]
    c[4, 5] = -rho * g * v * b[1] + m * g * gr[1]
    return c
