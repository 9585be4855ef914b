"""Mean absorbed power of a link in two runs (links.csv files), and their relative difference.

    python3 pto/examples/compare_absorbed_power.py BUILTIN/links.csv MODULE/links.csv [--link pto] [--from 50]

The mean is over the rows from --from seconds on (the start-up transient left out); the rows are
the output's (fps) samples, the same times in both runs. A links.csv starts with a comment line
(`# case ..., participant ..., run at ...`), then the columns `time_s,<link>_power_W,...`.
"""

import argparse
import csv


def mean_power(path, link, t0):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#")) if float(r["time_s"]) >= t0]
    if not rows:
        raise SystemExit(f"{path}: no rows from t = {t0} s")
    column = f"{link}_power_W"
    if column not in rows[0]:
        raise SystemExit(f"{path}: no column {column} (columns: {', '.join(rows[0])})")
    return sum(float(r[column]) for r in rows) / len(rows), len(rows)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("builtin")
    p.add_argument("module")
    p.add_argument("--link", default="pto")
    p.add_argument("--from", dest="t0", type=float, default=50.0)
    a = p.parse_args()
    pb, n = mean_power(a.builtin, a.link, a.t0)
    pm, m = mean_power(a.module, a.link, a.t0)
    print(f"built-in: {pb:.6e} W ({n} rows), module: {pm:.6e} W ({m} rows), difference {100 * (pm - pb) / pb:+.3f} %")


if __name__ == "__main__":
    main()
