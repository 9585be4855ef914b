#!/usr/bin/env python3
"""Runs a platform's trio of PTO modules in its irregular sea and draws them side by side.

    python3 pto/examples/run_visual_verification.py --platform rm3|oswec [--skip-run] [-o DIR]
                                                    [--bin DIR] [--from T] [--zoom A B]

The trio is configs/<platform>_pto_trio/{linear,adaptive,accumulator}: the same platform and sea
(the trio's fluid/tdpf_model.yaml), a different external module on its PTO (a TSDA in heave on
RM3, an RSDA in pitch at the OSWEC's hinge). Each case is run by `tidelink run` (unless
--skip-run), with TIDELINK_PTO_TRACE set so the module writes the force or torque it applied;
its outputs (the Solid's body CSV, links.csv, the module's trace) are copied to DIR/<case>/ and
merged there into trio.csv: time, motion, PTO force, absorbed power, cumulative energy.

Charts (PNG, drawn by `tidelink-plot`, the project's plotting program; no matplotlib needed):
  DIR/<platform>_trio.png       the whole run, four panels: motion (RM3: float heave, m;
                                OSWEC: flap pitch, deg), PTO force (N) or torque (N m),
                                absorbed power (kW), cumulative absorbed energy (kWh); one
                                line per module
  DIR/<platform>_trio_zoom.png  the same over --zoom (default 300 to 360 s), where the lines
                                can be told apart wave by wave
and DIR/summary.csv: per module the mean absorbed power from --from (default 100 s, after the
sea's ramp), the motion's RMS, the largest |force| and the energy at the end. --skip-run redraws
from DIR without running anything.
"""

import argparse
import csv
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = ("linear", "adaptive", "accumulator")
LEGENDS = {
    "linear": "linear damper",
    "adaptive": "adaptive damper",
    "accumulator": "hydraulic accumulator",
}
# Per platform: the case folder, the moving body, how its motion is drawn, and the PTO's units.
PLATFORMS = {
    "rm3": {
        "folder": "configs/rm3_pto_trio",
        "title": "RM3 (TSDA, heave)",
        "body": "float",
        "motion": ("float heave z - z0 [m]", lambda row, first: float(row["z_m"]) - float(first["z_m"])),
        "force": "PTO force F [N]",
    },
    "oswec": {
        "folder": "configs/oswec_pto_trio",
        "title": "OSWEC (RSDA, pitch)",
        "body": "flap",
        # Pitch about the hinge's y axis: the rotation vector's y component for a pure pitch.
        "motion": ("flap pitch [deg]", lambda row, first: math.degrees(float(row["ry_rad"]) - float(first["ry_rad"]))),
        "force": "PTO torque T [N m]",
    },
}
SEA = "JONSWAP Hs 2 m, Tp 8 s, seed 42"


def rows(path):
    """The rows of a Tidelink CSV file (`#` comment lines, a header, numbers) as dicts."""
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def kept_forces(trace_rows):
    """time -> force of a module trace: the last row of each time (a repeated window asks again
    at the same time, and its last answer is the one the solver kept)."""
    kept = {}
    for r in trace_rows:
        kept[round(float(r["time_s"]), 9)] = float(r["force"])
    return kept


def merge(body_rows, link_rows, trace_rows, motion, link="pto"):
    """The merged series on the body's output times: (time, motion, force, power W, energy kWh).
    The force at an output time is the module's answer at that time (held over the step that
    ends there); the power is links.csv's -F v; the energy its trapezoidal integral."""
    forces = kept_forces(trace_rows)
    power = {round(float(r["time_s"]), 9): float(r[f"{link}_power_W"]) for r in link_rows}
    out, energy, last = [], 0.0, None
    first = body_rows[0]
    for r in body_rows:
        t = round(float(r["time_s"]), 9)
        if t not in power:
            raise SystemExit(f"links.csv has no row at t = {t} s (the body's output has one)")
        p = power[t]
        if last is not None:
            energy += 0.5 * (p + last[1]) * (t - last[0])
        last = (t, p)
        # Before the first step (t = 0) no module was asked: no force yet.
        f = forces.get(t, math.nan if t > 0 else 0.0)
        out.append((t, motion(r, first), f, p, energy / 3.6e6))
    return out


def figures(merged, t0):
    """Mean absorbed power (W, trapezoidal from t0), motion RMS about its mean, largest |force|
    and the energy at the end (kWh), over t >= t0."""
    span = [m for m in merged if m[0] >= t0]
    if len(span) < 2:
        raise SystemExit(f"no output after t = {t0} s: run longer or lower --from")
    duration = span[-1][0] - span[0][0]
    mean_power = sum(0.5 * (a[3] + b[3]) * (b[0] - a[0]) for a, b in zip(span, span[1:])) / duration
    mean_motion = sum(m[1] for m in span) / len(span)
    rms = math.sqrt(sum((m[1] - mean_motion) ** 2 for m in span) / len(span))
    peak_force = max(abs(m[2]) for m in span if not math.isnan(m[2]))
    return {"mean_power_W": mean_power, "motion_rms": rms, "max_abs_force": peak_force, "energy_kWh": merged[-1][4]}


def write_merged(path, merged):
    with open(path, "w", newline="") as f:
        f.write("# merged by run_visual_verification.py: motion (m or deg), PTO force (N or N m), power, energy\n")
        f.write("time_s,motion,force,power_kW,energy_kWh\n")
        for t, m, fo, p, e in merged:
            f.write(f"{t!r},{m!r},{fo!r},{p / 1e3!r},{e!r}\n")


def find_program(name, bin_dir):
    """`name` in --bin, else the release build of this checkout, else PATH."""
    target = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    for d in ([Path(bin_dir)] if bin_dir else []) + [target / "release", target / "debug"]:
        if (d / name).is_file():
            return str(d / name)
    found = shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: build it (cargo build --release -p tidelink -p tidelink-mbs "
                         "-p tidelink-tdpf -p tidelink-plot) or give its folder with --bin")
    return found


def run_case(tidelink, case, out):
    """`tidelink run` of one case; the Solid's output and the module's trace copied to `out`."""
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TIDELINK_PTO_TRACE=str((out / "pto_trace.csv").resolve()))
    with open(out / "run.log", "w") as log:
        print(f"running {case.relative_to(ROOT)} (log: {out / 'run.log'}) ...", flush=True)
        status = subprocess.run([tidelink, "run", str(case)], stdout=log, stderr=subprocess.STDOUT, env=env).returncode
    if status != 0:
        raise SystemExit(f"tidelink run {case} failed (exit {status}): see {out / 'run.log'}")
    for f in (case / "solid" / "output").glob("*.csv"):
        shutil.copy(f, out / f.name)


def draw(plot, out, name, title, spec, merged_files, zoom=None):
    cmd = [plot, "-o", str(out / name), "--title", title, "--x", "time_s", "--x-label", "time t [s]",
           "--panel", f"{spec['motion'][0]}=motion", "--panel", f"{spec['force']}=force",
           "--panel", "absorbed power P = -F v [kW]=power_kW", "--panel", "absorbed energy E [kWh]=energy_kWh"]
    if zoom:
        cmd += ["--from", str(zoom[0]), "--to", str(zoom[1])]
    cmd += [f"{path}={LEGENDS[m]}" for m, path in merged_files]
    subprocess.run(cmd, check=True)
    print(f"wrote {out / name}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--platform", choices=sorted(PLATFORMS), default="rm3")
    p.add_argument("--skip-run", action="store_true", help="draw from DIR's earlier outputs")
    p.add_argument("-o", "--output", type=Path, help="output folder (default visual-verification-<platform>)")
    p.add_argument("--bin", help="the folder of tidelink and tidelink-plot (default: this checkout's build)")
    p.add_argument("--from", dest="t0", type=float, default=100.0, help="average from this time, s (default 100)")
    p.add_argument("--zoom", type=float, nargs=2, default=(300.0, 360.0), metavar=("A", "B"))
    a = p.parse_args(argv)
    spec = PLATFORMS[a.platform]
    out = a.output or Path(f"visual-verification-{a.platform}")
    if not a.skip_run:
        tidelink = find_program("tidelink", a.bin)
        for m in MODULES:
            run_case(tidelink, ROOT / spec["folder"] / m, out / m)
    merged_files, summary = [], []
    for m in MODULES:
        d = out / m
        try:
            merged = merge(rows(d / f"{spec['body']}.csv"), rows(d / "links.csv"), rows(d / "pto_trace.csv"), spec["motion"][1])
        except FileNotFoundError as e:
            raise SystemExit(f"{e.filename}: missing; run without --skip-run first")
        write_merged(d / "trio.csv", merged)
        merged_files.append((m, d / "trio.csv"))
        summary.append((m, figures(merged, a.t0)))
    with open(out / "summary.csv", "w") as f:
        f.write(f"# {spec['title']}, {SEA}; figures over t >= {a.t0} s\n")
        f.write("module,mean_power_W,motion_rms,max_abs_force,energy_kWh\n")
        for m, s in summary:
            f.write(f"{m},{s['mean_power_W']:.6g},{s['motion_rms']:.6g},{s['max_abs_force']:.6g},{s['energy_kWh']:.6g}\n")
            print(f"{LEGENDS[m]:>22}: mean power {s['mean_power_W'] / 1e3:9.3f} kW, motion RMS {s['motion_rms']:.4g}, "
                  f"max |force| {s['max_abs_force']:.4g}, energy {s['energy_kWh']:.4g} kWh")
    plot = find_program("tidelink-plot", a.bin)
    title = f"{spec['title']}, three PTO modules, {SEA}"
    draw(plot, out, f"{a.platform}_trio.png", title, spec, merged_files)
    draw(plot, out, f"{a.platform}_trio_zoom.png", f"{title} ({a.zoom[0]:g} to {a.zoom[1]:g} s)", spec, merged_files, a.zoom)
    return 0


if __name__ == "__main__":
    sys.exit(main())
