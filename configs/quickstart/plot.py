#!/usr/bin/env python3
"""Flap angle and tip displacement of two quickstart runs: Tidelink's Solid and the tutorial's.

Usage: plot.py <quickstart folder> [output.png]

Reads, in the tutorial's `quickstart/` folder after both runs:
- solid-tidelink/solid-output/flap.csv (`rz`: the angle, rad, counter-clockwise positive) and
  solid-tidelink/precice-Solid-watchpoint-Flap-Tip.log (the tip's displacement);
- solid-cpp/solid-cpp.log (the tutorial solver's `Theta:` line per window; its angle turns
  the flap clockwise, so it is plotted as -Theta) and
  solid-cpp/precice-Solid-watchpoint-Flap-Tip.log.
Prints the table at 0.5, 1.0, 1.5, 2.0, 2.5 s and writes the PNG (needs matplotlib).
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


def tutorial_angle(path):
    """The tutorial prints `Theta: <value> ...` once per window, from the first window's end."""
    out = [(0.0, 0.0)]
    for line in Path(path).read_text().splitlines():
        if line.startswith("Theta: "):
            out.append((len(out) * WINDOW, -float(line.split()[1])))
    return out


def at(rows, t):
    return min(rows, key=lambda r: abs(r[0] - t))


def main():
    root = Path(sys.argv[1])
    png = sys.argv[2] if len(sys.argv) > 2 else "quickstart.png"
    ours = tidelink_angle(root / "solid-tidelink/solid-output/flap.csv")
    ours_tip = watchpoint(root / "solid-tidelink/precice-Solid-watchpoint-Flap-Tip.log")
    theirs = tutorial_angle(root / "solid-cpp/solid-cpp.log")
    theirs_tip = watchpoint(root / "solid-cpp/precice-Solid-watchpoint-Flap-Tip.log")

    print("| t (s) | angle, Tidelink (mrad) | angle, tutorial (mrad) | difference (mrad) "
          "| tip y, Tidelink (mm) | tip y, tutorial (mm) | difference (mm) |")
    print("|---|---|---|---|---|---|---|")
    for t in (0.5, 1.0, 1.5, 2.0, 2.5):
        a, b = at(ours, t)[1] * 1e3, at(theirs, t)[1] * 1e3
        ya, yb = at(ours_tip, t)[2] * 1e3, at(theirs_tip, t)[2] * 1e3
        print(f"| {t} | {a:.3f} | {b:.3f} | {a - b:.3f} | {ya:.4f} | {yb:.4f} | {ya - yb:.4f} |")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True)
    fig.suptitle("preCICE quickstart, OpenFOAM v1912 Fluid: flap motion with two Solids")
    ax1.plot([r[0] for r in ours], [r[1] * 1e3 for r in ours], label="tidelink-mbs (this case)")
    ax1.plot([r[0] for r in theirs], [r[1] * 1e3 for r in theirs], "--", label="tutorial's rigid_body_solver (−Theta)")
    ax1.set_ylabel("flap angle, counter-clockwise (mrad)")
    ax1.axvline(1.5, color="grey", lw=0.8, ls=":", label="spring stiffened ×8 (1.5 s)")
    ax1.legend(loc="best", fontsize=8)
    ax1.grid(alpha=0.3)
    ax2.plot([r[0] for r in ours_tip], [r[2] * 1e3 for r in ours_tip], label="tidelink-mbs (this case)")
    ax2.plot([r[0] for r in theirs_tip], [r[2] * 1e3 for r in theirs_tip], "--",
             label="tutorial's rigid_body_solver")
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
