"""A BEMIO file from a Capytaine dataset saved as netCDF (`capytaine.io.xarray.separate_complex_values(ds).to_netcdf`),
without solving anything.

Reads `omega`, `wave_direction` (rad), `added_mass` and `radiation_damping` (omega x radiating x influenced dof),
`excitation_force`, `Froude_Krylov_force`, `diffraction_force` (complex x omega x direction x influenced dof, Capytaine's
e^{-i w t}: conjugated to BEMIO's e^{+i w t}), `hydrostatic_stiffness` and `inertia_matrix` (influenced x radiating),
`rho`, `g`, `water_depth` (inf or a depth), and the dof names `<body>__<Surge|...>` (6 per body, in order).

What the dataset does not hold is given or derived, and the provenance says which:
* each body's CG (the rotation centre of its dofs): `--cg name=x,y,z`, required;
* the displaced volume: inertia_matrix[surge, surge] / rho (Capytaine's rigid-body inertia of a floating body is rho V);
* the centre of buoyancy: the CG unless `--cb name=x,y,z` (the TDPF uses only its horizontal offset from the CG);
* A-infinity: the added mass at the highest frequency, as WEC-Sim's BEMIO does for Capytaine output.
Frequencies whose coefficients are not finite (NaN where the BEM run failed) are left out, and named in the provenance.

IRFs as a Capytaine run of `tidelink hydro` (irf.py: radiation over `--irf-t-end` s, default 30; excitation over
157 s), no state-space fit.

`python -m tidelink_hydro.capytaine_nc <in.nc> <out.h5> --cg NAME=x,y,z ... [--cb NAME=x,y,z] [--name NAME=NEW]`
"""

import argparse
import sys

import numpy as np
from scipy.io import netcdf_file

from . import bemio_writer, irf


class DatasetError(ValueError):
    """A dataset that cannot be imported, naming the file and what is wrong."""


def _names(var):
    """The dof names of a char array variable (n, len)."""
    return [b"".join(row).decode().strip("\x00 ") for row in var[:]]


def _points(items, what, bodies, path):
    out = {}
    for item in items or []:
        name, _, xyz = item.partition("=")
        try:
            out[name] = np.array([float(v) for v in xyz.split(",")])
            assert out[name].shape == (3,)
        except (ValueError, AssertionError):
            raise DatasetError(f"--{what} {item!r}: expected NAME=x,y,z") from None
    unknown = set(out) - set(bodies)
    if unknown:
        raise DatasetError(f"--{what}: no body {sorted(unknown)} in {path} (bodies: {', '.join(bodies)})")
    return out


def assemble(path, cgs, cbs=(), t_end=30.0, steps=1001, names=()):
    """The writer's dict for the dataset at `path`; `cgs`/`cbs` as `NAME=x,y,z`, `names` as `NAME=NEW` strings."""
    with netcdf_file(path, "r", mmap=False) as f:
        v = f.variables
        for key in ("omega", "added_mass", "radiation_damping", "excitation_force", "hydrostatic_stiffness",
                    "inertia_matrix", "wave_direction", "influenced_dof", "rho", "g", "water_depth"):
            if key not in v:
                raise DatasetError(f"{path}: no variable `{key}` (not a Capytaine dataset saved as netCDF?)")
        w = v["omega"][:].copy()
        if not np.all(np.diff(w) > 0):
            raise DatasetError(f"{path}: omega is not strictly ascending")
        dofs = _names(v["influenced_dof"])
        if len(dofs) % 6 or _names(v["radiating_dof"]) != dofs:
            raise DatasetError(f"{path}: expected 6 dofs per body, the same radiating and influenced: {dofs}")
        bodies = [dofs[6 * n].split("__")[0] for n in range(len(dofs) // 6)]
        rho, g, depth = float(v["rho"].getValue()), float(v["g"].getValue()), float(v["water_depth"].getValue())
        a = np.transpose(v["added_mass"][:], (2, 1, 0)).copy()
        b = np.transpose(v["radiation_damping"][:], (2, 1, 0)).copy()

        def complex_force(name):
            x = v[name][:]
            return np.conj(np.transpose(x[0] + 1j * x[1], (2, 1, 0)))

        x = complex_force("excitation_force")
        fk = complex_force("Froude_Krylov_force") if "Froude_Krylov_force" in v else np.zeros_like(x)
        sc = complex_force("diffraction_force") if "diffraction_force" in v else x - fk
        # Frequencies the BEM run could not solve are NaN in the dataset (Capytaine's finite-depth Green
        # function fails at the lowest kh): left out, and said so.
        keep = np.isfinite(a).all(axis=(0, 1)) & np.isfinite(b).all(axis=(0, 1)) & np.isfinite(x).all(axis=(0, 1))
        keep &= np.isfinite(fk).all(axis=(0, 1)) & np.isfinite(sc).all(axis=(0, 1))
        if keep.sum() < 2:
            raise DatasetError(f"{path}: fewer than two frequencies with finite coefficients")
        dropped = w[~keep]
        w, a, b, x, fk, sc = w[keep], a[..., keep], b[..., keep], x[..., keep], fk[..., keep], sc[..., keep]
        c = v["hydrostatic_stiffness"][:].copy()
        m = v["inertia_matrix"][:].copy()
        headings = np.degrees(v["wave_direction"][:].copy())
    cg = _points(cgs, "cg", bodies, path)
    missing = [n for n in bodies if n not in cg]
    if missing:
        raise DatasetError(f"{path}: give the CG (the dofs' rotation centre) of {', '.join(missing)} with --cg NAME=x,y,z")
    cb = _points(cbs, "cb", bodies, path)
    rename = dict(item.partition("=")[::2] for item in names or [])
    unknown = set(rename) - set(bodies)
    if unknown or not all(rename.values()):
        raise DatasetError(f"--name: expected NAME=NEW with NAME one of {', '.join(bodies)}, not {sorted(names)}")
    b_norm = b / (rho * w)
    k, kt, kw = irf.radiation_irf(w, b_norm, t_end, steps)
    x_norm = x / (rho * g)
    ke, ket, kew = irf.excitation_irf(w, x_norm.real, x_norm.imag)
    out_bodies = []
    for n, name in enumerate(bodies):
        rows = slice(6 * n, 6 * n + 6)
        out_bodies.append({"name": rename.get(name, name), "cg": cg[name], "cb": cb.get(name, cg[name]), "volume": m[6 * n, 6 * n] / rho,
                           "stiffness_norm": c[rows, rows] / (rho * g)})
    given_cb = ", ".join(sorted(cb)) or "none"
    provenance = (f"Imported by tidelink hydro from the Capytaine dataset {path}: excitation conjugated to exp(+i w t); "
                  f"volume = inertia_matrix/rho; A_inf = A at the highest frequency ({w[-1]:g} rad/s); CB given for "
                  f"{given_cb}, else the CG; frequencies left out (not finite): {np.round(dropped, 6).tolist()}; "
                  f"radiation IRF t_end={kt[-1]} s; no state space")
    return {
        "code": "CAPYTAINE", "rho": rho, "g": g, "depth": np.inf if not np.isfinite(depth) or depth <= 0 else depth,
        "w": w, "headings": headings, "provenance": provenance, "bodies": out_bodies,
        "A_norm": a / rho, "A_inf_norm": a[:, :, -1] / rho, "B_norm": b_norm, "K": k, "K_t": kt, "K_w": kw,
        "ss": None, "X_norm": x_norm, "FK_norm": fk / (rho * g), "SC_norm": sc / (rho * g),
        "Ke": ke, "Ke_t": ket, "Ke_w": kew,
    }


def main(argv):
    p = argparse.ArgumentParser(prog="python -m tidelink_hydro.capytaine_nc", description=__doc__.split("\n")[0])
    p.add_argument("dataset", help="the Capytaine dataset (netCDF)")
    p.add_argument("out", help="the BEMIO HDF5 file to write")
    p.add_argument("--cg", action="append", metavar="NAME=x,y,z", help="a body's CG (its dofs' rotation centre)")
    p.add_argument("--cb", action="append", metavar="NAME=x,y,z", help="a body's centre of buoyancy (default: its CG)")
    p.add_argument("--name", action="append", metavar="NAME=NEW", help="the name a body gets in the file")
    p.add_argument("--irf-t-end", type=float, default=30.0, help="radiation IRF length (s), default 30")
    args = p.parse_args(argv[1:])
    try:
        data = assemble(args.dataset, args.cg, args.cb, args.irf_t_end, names=args.name)
    except (OSError, DatasetError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    bemio_writer.write(args.out, data)
    print(f"wrote {args.out}: {len(data['bodies'])} bodies, {len(data['w'])} frequencies "
          f"{data['w'][0]:.4g}..{data['w'][-1]:.4g} rad/s, {len(data['headings'])} headings")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
