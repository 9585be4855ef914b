"""Writes a BEMIO-layout HDF5 file (WEC-Sim's writeBEMIOH5 layout, as read through h5py / C order).

Per body the rows are its 6 DOFs, the columns all 6 * Nb DOFs (or the Nh headings), and frequency or
time is the LAST axis.  Vectors are stored as (n, 1) and scalars as (1, 1) doubles (MATLAB heritage);
strings are fixed-length scalars.  Normalisation as BEMIO's normalizeBEM: A / rho, B / (rho w),
X / (rho g), stiffness / (rho g); the IRFs and fits are of the normalised quantities.
"""

import h5py
import numpy as np


def _scalar(g, name, value, description=None):
    _put(g, name, np.array([[float(value)]]), description)


def _vector(g, name, values, description=None):
    _put(g, name, np.asarray(values, dtype=float).reshape(-1, 1), description)


def _string(g, name, text):
    g.create_dataset(name, data=np.bytes_(text))


def _put(g, name, data, description=None):
    ds = g.create_dataset(name, data=np.asarray(data, dtype=float))
    if description:
        ds.attrs["description"] = description


def _complex_group(g, name, values, what):
    """re, im, mag, phase (rad, atan2(im, re)) of a complex (6, Nh, Nf) array."""
    sub = g.require_group(name) if name else g
    _put(sub, "re", values.real, f"Real component of {what} (normalized by rho*g) [N]")
    _put(sub, "im", values.imag, f"Imaginary component of {what} (normalized by rho*g) [N]")
    _put(sub, "mag", np.abs(values), f"Magnitude of {what} (normalized by rho*g) [N]")
    _put(sub, "phase", np.angle(values), f"Phase angle of {what} [rad]")


def write(path, data):
    """Writes `data` (a dict, see __main__.assemble) to `path`."""
    rho, g = data["rho"], data["g"]
    w = np.asarray(data["w"])
    with h5py.File(path, "w") as f:
        f.attrs["provenance"] = data["provenance"]
        bem = f.require_group("bem_data")
        _string(bem, "code", data.get("code", "CAPYTAINE"))
        if data.get("X_norm") is None:
            # A radiation-only import: said here, and the excitation groups are left out.
            _string(bem, "excitation", "none: radiation and hydrostatics only (still water only)")
        sp = f.require_group("simulation_parameters")
        _scalar(sp, "rho", rho, "Water density [kg/m^3]")
        _scalar(sp, "g", g, "Gravitational acceleration [m/s^2]")
        if np.isinf(data["depth"]):
            _string(sp, "water_depth", "infinite")
        else:
            _scalar(sp, "water_depth", data["depth"], "Water depth [m]")
        _vector(sp, "w", w, "Wave frequencies [rad/s]")
        _vector(sp, "T", 2 * np.pi / w, "Wave periods [s]")
        _vector(sp, "wave_dir", data["headings"], "Wave direction [deg]")
        _scalar(sp, "scaled", 0.0)
        for n, body in enumerate(data["bodies"], start=1):
            _write_body(f.require_group(f"body{n}"), n, body, data)


def _write_body(grp, n, body, data):
    rows = slice(6 * (n - 1), 6 * n)
    p = grp.require_group("properties")
    _string(p, "name", body["name"])
    _scalar(p, "body_number", n, "Number of rigid body from the BEM simulation")
    _vector(p, "cg", body["cg"], "Center of gravity [m]")
    _vector(p, "cb", body["cb"], "Center of buoyancy [m]")
    _scalar(p, "disp_vol", body["volume"], "Displaced volume [m^3]")
    _scalar(p, "dof", 6, "Degrees of freedom")
    _scalar(p, "dof_start", 6 * (n - 1) + 1, "Degrees of freedom")
    _scalar(p, "dof_end", 6 * n, "Degrees of freedom")

    hc = grp.require_group("hydro_coeffs")
    _put(hc, "linear_restoring_stiffness", body["stiffness_norm"],
         "Hydrostatic stiffness matrix (normalized by rho*g) [N/m]")
    am = hc.require_group("added_mass")
    _put(am, "all", data["A_norm"][rows], "Added mass (normalized by rho) [kg]")
    _put(am, "inf_freq", data["A_inf_norm"][rows], "Infinite frequency added mass (normalized by rho) [kg]")

    rd = hc.require_group("radiation_damping")
    _put(rd, "all", data["B_norm"][rows], "Radiation damping (normalized by rho*w) [N-s/m]")
    irf = rd.require_group("impulse_response_fun")
    _put(irf, "K", data["K"][rows], "Impulse response function")
    _vector(irf, "t", data["K_t"], "Time vector for the impulse response function [s]")
    _vector(irf, "w", data["K_w"], "Interpolated frequencies used to compute the impulse response function [rad/s]")
    fit = data.get("ss")
    if fit is not None:
        _write_state_space(rd.require_group("state_space"), fit, rows)
    if data.get("X_norm") is not None:
        _write_excitation(hc.require_group("excitation"), data, rows)


def _write_state_space(ss, fit, rows):
    for m in ("A", "B", "C", "D"):
        _put(ss.require_group(m), "all", fit[m][rows], f"State Space {m} Coefficient")
    _put(ss.require_group("K"), "all", fit["K"][rows], "State Space K Coefficient")
    _put(ss, "it", fit["it"][rows], "Order of state space realization")
    _put(ss, "r2t", fit["r2t"][rows], "State space curve fitting R**2 value")
    _put(ss, "conv", fit["conv"][rows], "State space conversion status")


def _write_excitation(ex, data, rows):
    _complex_group(ex, None, data["X_norm"][rows], "excitation force")
    _complex_group(ex, "froude-krylov", data["FK_norm"][rows], "Froude-Krylov force")
    _complex_group(ex, "scattering", data["SC_norm"][rows], "scattering force")
    eirf = ex.require_group("impulse_response_fun")
    _put(eirf, "f", data["Ke"][rows], "Impulse response function")
    _vector(eirf, "t", data["Ke_t"], "Time vector for the impulse response function [s]")
    _vector(eirf, "w", data["Ke_w"], "Interpolated frequencies used to compute the impulse response function [rad/s]")
