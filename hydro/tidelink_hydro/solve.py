"""Runs Capytaine: radiation and diffraction at every frequency, and the infinite-frequency added mass.

Settings (see docs/hydro.md for why): the direct (potential) boundary integral formulation, and
Delhommeau's Green function with the finer tabulation (1352 x 744; a one-off ~2 min, cached by
Capytaine on disk).  All bodies are solved together, so the body-to-body terms exist.

Capytaine's complex amplitudes are Re{X exp(-i w t)}; WAMIT and BEMIO use Re{X exp(+i w t)}.
Excitation forces are conjugated here, once, so everything returned is in BEMIO's convention.
"""

import logging
import time

import numpy as np
import capytaine as cpt
from capytaine.bem.airy_waves import froude_krylov_force


class _MeshResolutionOnce(logging.Filter):
    """Capytaine warns at every frequency above about 3 rad/s that panels exceed a wavelength
    over 8 (known and harmless there, docs/hydro.md): keep the first such warning, count the rest."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def filter(self, record):
        if "Mesh resolution" not in record.getMessage():
            return True
        self.count += 1
        return self.count == 1


MESH_WARNINGS = _MeshResolutionOnce()
for _handler in logging.getLogger().handlers:  # Capytaine's log handler sits on the root logger
    _handler.addFilter(MESH_WARNINGS)

TABULATION = {"tabulation_nr": 1352, "tabulation_nz": 744}
METHOD = "direct"


def progress(done, total, text):
    """One progress line for the Rust front end: `progress <done> <total> <text>`."""
    print(f"progress {done} {total} {text}", flush=True)


def solver():
    """The BEM solver with the settings this tool relies on."""
    return cpt.BEMSolver(green_function=cpt.Delhommeau(**TABULATION), method=METHOD)


def _row(forces, dofs):
    return np.array([forces[d] for d in dofs])


def run(together, omegas, headings_deg, depth, rho, g):
    """All coefficients in SI units and BEMIO's phase convention.

    Returns a dict: A, B (N x N x Nf), A_inf (N x N), X, FK, SC (N x Nh x Nf complex) with
    N = 6 * number of bodies, and `seconds` (wall time of the solves).
    """
    dofs = list(together.dofs)
    n, nf, nh = len(dofs), len(omegas), len(headings_deg)
    env = {"water_depth": depth, "rho": rho, "g": g}
    total = nf + 1
    progress(0, total, "Green function table (one-off, cached on disk) and infinite frequency")
    bem = solver()
    A = np.zeros((n, n, nf))
    B = np.zeros((n, n, nf))
    FK = np.zeros((n, nh, nf), dtype=complex)
    SC = np.zeros((n, nh, nf), dtype=complex)
    start = time.time()
    A_inf = np.zeros((n, n))
    for j, dof in enumerate(dofs):
        res = bem.solve(cpt.RadiationProblem(body=together, radiating_dof=dof, omega=np.inf, **env), keep_details=False)
        A_inf[:, j] = _row(res.added_mass, dofs)
    for f, w in enumerate(omegas):
        progress(f + 1, total, f"omega = {w:.4f} rad/s")
        for j, dof in enumerate(dofs):
            pb = cpt.RadiationProblem(body=together, radiating_dof=dof, omega=w, **env)
            res = bem.solve(pb, keep_details=False)
            A[:, j, f] = _row(res.added_mass, dofs)
            B[:, j, f] = _row(res.radiation_damping, dofs)
        for h, beta in enumerate(headings_deg):
            pb = cpt.DiffractionProblem(body=together, wave_direction=np.radians(beta), omega=w, **env)
            res = bem.solve(pb, keep_details=False)
            # Conjugate: exp(-i w t) (Capytaine) -> exp(+i w t) (WAMIT/BEMIO).
            SC[:, h, f] = np.conj(_row(res.forces, dofs))
            FK[:, h, f] = np.conj(_row(froude_krylov_force(pb), dofs))
    if MESH_WARNINGS.count > 1:
        print(f"note: {MESH_WARNINGS.count - 1} more mesh-resolution warnings of Capytaine not shown", flush=True)
    return {"A": A, "B": B, "A_inf": A_inf, "FK": FK, "SC": SC, "X": FK + SC, "seconds": time.time() - start}
