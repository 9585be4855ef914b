#!/usr/bin/env python3
"""Flap angle and tip displacement of two quickstart runs: Tidelink's Solid and the tutorial's.

Usage: plot.py <quickstart folder> [output.png]

Reads, in the tutorial's `quickstart/` folder after both runs:
- solid-tidelink/solid-output/flap.csv (`rz`: the angle, rad, counter-clockwise positive) and
  solid-tidelink/precice-Solid-watchpoint-Flap-Tip.log (the tip's displacement);
- solid-cpp/solid-cpp.log (the tutorial solver's `Theta:` line per window; its angle turns
  the flap clockwise, so it is plotted as -Theta) and
  solid-cpp/precice-Solid-watchpoint-Flap-Tip.log.
Optionally, solid-cpp-signfix/ (the same files): a run of the tutorial's solver with its
vertex rotation's sign corrected, so that Theta turns the flap counter-clockwise (plotted as
+Theta).
Prints the tables at 0.5, 1.0, 1.5, 2.0, 2.5 s and writes the PNG (needs matplotlib).
"""

import csv
import sys
from pathlib import Path

WINDOW = 0.025


def watchpoint(path):
    """(time, tip x displacement, tip y displacement) rows of a preCICE watch-point log."""
    rows = []
    for line in Path(path).read_text().splitlines()[1:]:
        v = [float(x) for x in line.split()]
        rows.append((v[0], v[3], v[4]))
    return rows


def tidelink_angle(path):
    with open(path) as f:
        return [(float(r["time"]), float(r["rz"])) for r in csv.DictReader(f)]


def tutorial_angle(path, sign=-1.0):
    """The tutorial prints `Theta: <value> ...` once per window, from the first window's end."""
    out = [(0.0, 0.0)]
    for line in Path(path).read_text().splitlines():
        if line.startswith("Theta: "):
            out.append((len(out) * WINDOW, sign * float(line.split()[1])))
    return out


def at(rows, t):
    return min(rows, key=lambda r: abs(r[0] - t))


def main():
    root = Path(sys.argv[1])
    png = sys.argv[2] if len(sys.argv) > 2 else "quickstart.png"
    ours = tidelink_angle(root / "solid-tidelink/solid-output/flap.csv")
    ours_tip = watchpoint(root / "solid-tidelink/precice-Solid-watchpoint-Flap-Tip.log")
    runs = [
        ("tidelink-mbs (this case)", ours, ours_tip, "-"),
        (
            "tutorial's rigid_body_solver (−Theta)",
            tutorial_angle(root / "solid-cpp/solid-cpp.log"),
            watchpoint(root / "solid-cpp/precice-Solid-watchpoint-Flap-Tip.log"),
            "--",
        ),
    ]
    fixed = root / "solid-cpp-signfix"
    if fixed.exists():
        runs.append(
            (
                "tutorial's solver, rotation sign corrected (+Theta)",
                tutorial_angle(fixed / "solid-cpp.log", 1.0),
                watchpoint(fixed / "precice-Solid-watchpoint-Flap-Tip.log"),
                ":",
            )
        )

    for what, unit, scale, pick in (("angle", "mrad", 1e3, lambda r: r[1]), ("tip y", "mm", 1e3, lambda r: r[2])):
        head = f"| t (s) | {what}, Tidelink ({unit}) |"
        for short in ("tutorial", "tutorial, sign corrected")[: len(runs) - 1]:
            head += f" {what}, {short} ({unit}) | Tidelink − {short} ({unit}) |"
        print(head)
        print("|---" * (2 + 2 * (len(runs) - 1)) + "|")
        for t in (0.5, 1.0, 1.5, 2.0, 2.5):
            series = [r[1] if what == "angle" else r[2] for r in runs]
            values = [pick(at(s_, t)) * scale for s_ in series]
            line = f"| {t} | {values[0]:.3f} |"
            for v in values[1:]:
                line += f" {v:.3f} | {values[0] - v:.3f} |"
            print(line)
        print()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True)
    fig.suptitle("preCICE quickstart, OpenFOAM v1912 Fluid: flap motion with Tidelink's and the tutorial's Solid")
    for name, angle, _, style in runs:
        ax1.plot([r[0] for r in angle], [r[1] * 1e3 for r in angle], style, label=name)
    ax1.set_ylabel("flap angle, counter-clockwise (mrad)")
    ax1.axvline(1.5, color="grey", lw=0.8, ls=":", label="spring stiffened ×8 (1.5 s)")
    ax1.legend(loc="best", fontsize=8)
    ax1.grid(alpha=0.3)
    for name, _, tip, style in runs:
        ax2.plot([r[0] for r in tip], [r[2] * 1e3 for r in tip], style, label=name)
    ax2.axvline(1.5, color="grey", lw=0.8, ls=":", label="spring stiffened ×8 (1.5 s)")
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("tip displacement y (mm)")
    ax2.legend(loc="best", fontsize=8)
    ax2.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=80)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
