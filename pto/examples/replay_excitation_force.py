"""Replayed loads: a 6-DOF body-force module that applies a stored force/moment time series.

It reads a CSV file (a header line naming the columns; lines starting with ``#`` are comments)
and applies, per body, the columns named in its config, linearly interpolated in time, as a
force at the body's centre of mass and a moment about it (world axes). Before the first row
and after the last it holds the end values. Made to apply a recorded wave-excitation series
(WEC-Sim's ``forceExcitation`` of a run) to a body whose hydrodynamic model sees still water
(docs/oswec.md), but generic: any recorded load.

config:
  file: path of the CSV (relative paths: against the module's working directory, which under
        ``tidelink run`` is the case folder)
  time: name of the time column (s), default ``time_s``
  bodies: one entry per body of the ``external_forces`` entry, in its order, each a map of
          ``force_x, force_y, force_z`` (N) and ``moment_x, moment_y, moment_z`` (N m) to column
          names; a component left out is zero
  scale: a factor on every value (default 1)
"""

import csv
from bisect import bisect_right
from pathlib import Path

import _find_helper  # noqa: F401
from tidelink_pto import ExternalForceModule, run

COMPONENTS = ("force_x", "force_y", "force_z", "moment_x", "moment_y", "moment_z")


def read_columns(path, names):
    """The columns ``names`` of the CSV at ``path`` as lists of floats; a clear error otherwise."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"config file: {path.resolve()} is not a file (relative paths are against "
                         f"the module's working directory, the case folder under `tidelink run`)")
    with path.open(newline="") as fh:
        rows = [r for r in csv.reader(fh) if r and not r[0].lstrip().startswith("#")]
    if not rows:
        raise ValueError(f"{path}: no header line")
    header = [h.strip() for h in rows[0]]
    missing = [n for n in names if n not in header]
    if missing:
        raise ValueError(f"{path}: no column {', '.join(missing)} (columns: {', '.join(header)})")
    idx = [header.index(n) for n in names]
    out = {n: [] for n in names}
    for line, r in enumerate(rows[1:], start=2):
        for n, i in zip(names, idx):
            try:
                out[n].append(float(r[i]))
            except (IndexError, ValueError):
                raise ValueError(f"{path}: data line {line}: column {n} is not a number") from None
    return out


class ReplayForce(ExternalForceModule):
    def initialize(self, cfg):
        if self.kind != "body_force" or self.n_outputs % 6 or self.n_inputs != 2 * self.n_outputs:
            raise ValueError(f"a body-force module (12 inputs, 6 outputs per body), not {self.kind!r}")
        n_bodies = self.n_outputs // 6
        bodies = cfg.get("bodies")
        if not isinstance(bodies, list) or len(bodies) != n_bodies:
            raise ValueError(f"config bodies: one map of components to columns per body ({n_bodies}), "
                             f"not {bodies!r}")
        for b in bodies:
            unknown = set(b) - set(COMPONENTS)
            if unknown:
                raise ValueError(f"config bodies: unknown component(s) {sorted(unknown)}; known: {COMPONENTS}")
        if "file" not in cfg:
            raise ValueError("config file: the CSV of the loads is required")
        time = cfg.get("time", "time_s")
        names = [time] + sorted({c for b in bodies for c in b.values()})
        cols = read_columns(cfg["file"], names)
        self.t = cols[time]
        if len(self.t) < 2 or any(b <= a for a, b in zip(self.t, self.t[1:])):
            raise ValueError(f"{cfg['file']}: column {time} must have two or more increasing times")
        scale = float(cfg.get("scale", 1.0))
        self.series = [[[scale * v for v in cols[b[c]]] if c in b else None for c in COMPONENTS] for b in bodies]
        return {"name": "ReplayForce", "version": "1.0", "n_states": 0}

    def at(self, values, t):
        """``values`` linearly interpolated at ``t`` (held beyond the ends)."""
        ts = self.t
        if t <= ts[0]:
            return values[0]
        if t >= ts[-1]:
            return values[-1]
        k = bisect_right(ts, t) - 1
        s = (t - ts[k]) / (ts[k + 1] - ts[k])
        return values[k] * (1.0 - s) + values[k + 1] * s

    def evaluate(self, t, dt, inputs):
        out = []
        for body in self.series:
            out += [0.0 if v is None else self.at(v, t) for v in body]
        return out


if __name__ == "__main__":
    run(ReplayForce())
