"""A BEMIO file from WAMIT numeric output, without solving anything: radiation and hydrostatics only.

Reads, for a run named `<stem>`:

* `<stem>.1`   added mass and damping, rows `PER I J Abar [Bbar]` (PER the period in s; -1 is omega = 0 and 0 is
  omega = infinity, which carry Abar only), Abar = A/rho, Bbar = B/(rho omega), L = 1;
* `<stem>.hst` the hydrostatic matrix C/(rho g), rows `I J C` over all 6 Nb DOFs;
* `<stem>.mmx` per body the volumes (VOLX, VOLY, VOLZ) and the centre of buoyancy, relative to the body origin;
* `<stem>.pot` the water depth (HBOT, negative or 0 = infinite), the body files (their stems name the bodies) and the
  body origins XBODY, which are the points the coefficients refer to (taken as each body's CG, as WAMIT's VCG = 0
  runs have it).

The excitation files (`.2`/`.3`) are not read: the file has no excitation group and says so (`bem_data/excitation`),
and the TDPF accepts it only in still water (`waves: {type: NO_WAVE}`), e.g. with an excitation applied another way.
The radiation IRF is BEMIO's (irf.radiation_irf on the normalised damping, t_end 30 s by default as WEC-Sim's OSWEC
BEMIO step), without a state-space fit (a convolution case needs none).

`python -m tidelink_hydro.wamit <stem> <out.h5> [--rho 1000] [--irf-t-end 30] [--irf-steps 1001]`
"""

import argparse
import re
import sys
from pathlib import Path

import numpy as np

from . import bemio_writer, irf


class WamitError(ValueError):
    """A WAMIT file that cannot be read, naming the file and line."""


def _numbers(path, skip_header=True):
    """The whitespace-separated numeric rows of `path` (a first header line skipped)."""
    rows = []
    with open(path) as fh:
        for n, line in enumerate(fh, start=1):
            if (skip_header and n == 1) or not line.strip():
                continue
            try:
                rows.append([float(v) for v in line.split()])
            except ValueError:
                raise WamitError(f"{path}:{n}: not a row of numbers: {line.strip()!r}") from None
    return rows


def read_radiation(path, ndof):
    """(omega ascending (nf,), A/rho (ndof, ndof, nf), B/(rho omega) (same), A_inf/rho (ndof, ndof)) from a `.1`."""
    per = {}
    for n, r in enumerate(_numbers(path), start=2):
        if len(r) not in (4, 5):
            raise WamitError(f"{path}:{n}: expected `PER I J Abar [Bbar]`, found {len(r)} values")
        i, j = int(r[1]) - 1, int(r[2]) - 1
        if not (0 <= i < ndof and 0 <= j < ndof):
            raise WamitError(f"{path}:{n}: DOF pair ({i + 1}, {j + 1}) outside 1..{ndof} (the .mmx's bodies)")
        per.setdefault(r[0], {})[(i, j)] = (r[3], r[4] if len(r) == 5 else None)
    if 0.0 not in per:
        raise WamitError(f"{path}: no infinite-frequency rows (PER = 0)")
    periods = sorted((p for p in per if p > 0), reverse=True)  # ascending omega
    if len(periods) < 2:
        raise WamitError(f"{path}: fewer than two wave periods")
    w = 2 * np.pi / np.array(periods)
    a = np.zeros((ndof, ndof, len(w)))
    b = np.zeros_like(a)
    for f, p in enumerate(periods):
        for (i, j), (av, bv) in per[p].items():
            a[i, j, f] = av
            b[i, j, f] = 0.0 if bv is None else bv
    a_inf = np.zeros((ndof, ndof))
    for (i, j), (av, _) in per[0.0].items():
        a_inf[i, j] = av
    return w, a, b, a_inf


def read_hydrostatics(path, ndof):
    """C/(rho g) (ndof, ndof) from a `.hst`."""
    c = np.zeros((ndof, ndof))
    for n, r in enumerate(_numbers(path), start=2):
        i, j = int(r[0]) - 1, int(r[1]) - 1
        if len(r) != 3 or not (0 <= i < ndof and 0 <= j < ndof):
            raise WamitError(f"{path}:{n}: expected `I J C` with I, J in 1..{ndof}")
        c[i, j] = r[2]
    return c


def read_mmx(path):
    """Per body: (volume, centre of buoyancy relative to the body origin) from a `.mmx`."""
    text = Path(path).read_text()
    vols = re.findall(r"Volumes \(VOLX,VOLY,VOLZ\):\s*(\S+)\s+(\S+)\s+(\S+)", text)
    cbs = re.findall(r"Center of Buoyancy \(Xb,Yb,Zb\):\s*(\S+)\s+(\S+)\s+(\S+)", text)
    if not vols or len(vols) != len(cbs):
        raise WamitError(f"{path}: no `Volumes (VOLX,VOLY,VOLZ):` / `Center of Buoyancy (Xb,Yb,Zb):` lines per body")
    # WAMIT's VOLZ (the vertical integral) is the displaced volume BEMIO takes.
    return [(float(v[2]), np.array([float(x) for x in c])) for v, c in zip(vols, cbs)]


def read_pot(path, nbody):
    """(depth (inf for HBOT <= 0), [(name, origin xyz)] per body) from a `.pot`."""
    lines = [ln.split() for ln in Path(path).read_text().splitlines()]
    try:
        hbot = float(lines[1][0])
        bodies = []
        for k, ln in enumerate(lines):
            if ln and re.search(r"\.(gdf|GDF)$", ln[0]) and k + 1 < len(lines):
                bodies.append((Path(ln[0]).stem, np.array([float(x) for x in lines[k + 1][:3]])))
    except (IndexError, ValueError):
        raise WamitError(f"{path}: not a WAMIT .pot file (HBOT on line 2, a `.gdf` line then XBODY per body)") from None
    if len(bodies) != nbody:
        raise WamitError(f"{path}: {len(bodies)} bodies but the .mmx has {nbody}")
    return (np.inf if hbot <= 0 else hbot), bodies


def assemble(stem, rho=1000.0, g=None, t_end=30.0, steps=1001):
    """The writer's dict for the WAMIT run `stem` (a path without extension)."""
    stem = Path(stem)
    mmx = read_mmx(stem.with_suffix(".mmx"))
    nb = len(mmx)
    ndof = 6 * nb
    depth, bodies = read_pot(stem.with_suffix(".pot"), nb)
    if g is None:
        found = re.search(r"Gravity:\s*(\S+)", stem.with_suffix(".mmx").read_text())
        g = float(found.group(1)) if found else 9.81
    w, a, b, a_inf = read_radiation(stem.with_suffix(".1"), ndof)
    c = read_hydrostatics(stem.with_suffix(".hst"), ndof)
    k, kt, kw = irf.radiation_irf(w, b, t_end, steps)
    out_bodies = []
    for n, ((name, origin), (volume, cb)) in enumerate(zip(bodies, mmx)):
        rows = slice(6 * n, 6 * n + 6)
        out_bodies.append({"name": name, "cg": origin, "cb": origin + cb, "volume": volume,
                           "stiffness_norm": c[rows, rows]})
    provenance = (f"Imported by tidelink hydro from WAMIT numeric output {stem.name}.1/.hst/.mmx/.pot: radiation "
                  f"and hydrostatics only, NO excitation (TDPF: NO_WAVE only); radiation IRF t_end={kt[-1]} s, "
                  f"{steps} steps, no state space")
    return {
        "code": "WAMIT", "rho": rho, "g": g, "depth": depth, "w": w, "headings": [0.0],
        "provenance": provenance, "bodies": out_bodies,
        "A_norm": a, "A_inf_norm": a_inf, "B_norm": b, "K": k, "K_t": kt, "K_w": kw,
        "ss": None, "X_norm": None,
    }


def main(argv):
    p = argparse.ArgumentParser(prog="python -m tidelink_hydro.wamit", description=__doc__.split("\n")[0])
    p.add_argument("stem", help="the WAMIT run without extension, e.g. wamit/oswec")
    p.add_argument("out", help="the BEMIO HDF5 file to write")
    p.add_argument("--rho", type=float, default=1000.0, help="water density (kg/m3), default 1000")
    p.add_argument("--irf-t-end", type=float, default=30.0, help="radiation IRF length (s), default 30")
    p.add_argument("--irf-steps", type=int, default=1001, help="radiation IRF samples, default 1001")
    args = p.parse_args(argv[1:])
    try:
        data = assemble(args.stem, args.rho, None, args.irf_t_end, args.irf_steps)
    except (OSError, WamitError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    bemio_writer.write(args.out, data)
    print(f"wrote {args.out}: {len(data['bodies'])} bodies, {len(data['w'])} frequencies "
          f"{data['w'][0]:.4g}..{data['w'][-1]:.4g} rad/s, no excitation")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
