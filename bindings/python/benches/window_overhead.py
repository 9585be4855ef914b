"""The per-window cost of a Python pair on Tidelink's module, against the same loop in Rust on
the native engine and against real pyprecice on libprecice (docs/performance.md, "Python
participants").

    python window_overhead.py [--repeats 7] [--explicit-windows 2000] [--implicit-windows 500]
                              [--vertices 1,1000] [--rust PATH] [--also LABEL=DIR ...] [--mixed]

Each pair is two processes (participants A and B of a 3D case with vector data both ways,
nearest-neighbor read and write mappings on B), running window_loop.py (Python) or
coupling/engine/examples/window_loop.rs (Rust, built with `cargo build --release -p
tidelink-coupling --example window_loop`; found under CARGO_TARGET_DIR or target/). Schemes:
serial-explicit, and serial-implicit with exactly 3 iterations per window (min- and
max-iterations 3). Each participant times its loop from after initialize() to before
finalize(), and the CPU time its thread ran meanwhile; a pair's per-window cost is the larger
of the two times divided by the windows, its CPU cost the sum of the two CPU times.

The interpreter running this script is the one with Tidelink's module; real pyprecice runs
under TIDELINK_PYPRECICE_PYTHON when it is set, and `--also` adds other builds of the module.
`--mixed` adds the pair of a Python A and a Rust B: its CPU less the Rust pair's is what one
Python participant adds.
The engines are interleaved within each repeat (the machine is noisy). Per engine, the table
gives the median per-window cost over the repeats, the best (least disturbed) one, and the
median CPU cost; then the ratios to the Rust pair: the median of the ratios within a repeat,
the ratio of the bests, and the median of the CPU ratios.

The row `floor` is what a Python pair would cost with a binding that costs nothing: the Rust
pair (median, best) plus the CPU time the two scripts take between their hand-offs on a
`precice` whose calls do nothing (window_floor.py: a stub pair handing a byte back and forth at
each advance, less the same pair without the script; the median over the repeats).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

CONFIG = """<?xml version="1.0"?>
<precice-configuration>
  <data:vector name="AToB"/>
  <data:vector name="BToA"/>
  <mesh name="A-Mesh" dimensions="3"><use-data name="AToB"/><use-data name="BToA"/></mesh>
  <mesh name="B-Mesh" dimensions="3"><use-data name="AToB"/><use-data name="BToA"/></mesh>
  <participant name="A">
    <provide-mesh name="A-Mesh"/>
    <write-data name="AToB" mesh="A-Mesh"/>
    <read-data name="BToA" mesh="A-Mesh"/>
  </participant>
  <participant name="B">
    <provide-mesh name="B-Mesh"/>
    <receive-mesh name="A-Mesh" from="A"/>
    <write-data name="BToA" mesh="B-Mesh"/>
    <read-data name="AToB" mesh="B-Mesh"/>
    <mapping:nearest-neighbor direction="read" from="A-Mesh" to="B-Mesh" constraint="consistent"/>
    <mapping:nearest-neighbor direction="write" from="B-Mesh" to="A-Mesh" constraint="consistent"/>
  </participant>
  <m2n:sockets acceptor="A" connector="B" exchange-directory="."/>
  <coupling-scheme:{scheme}>
    <participants first="A" second="B"/>
    <time-window-size value="0.01"/>
    <max-time-windows value="{windows}"/>
    {implicit}
    <exchange data="AToB" mesh="A-Mesh" from="A" to="B"/>
    <exchange data="BToA" mesh="A-Mesh" from="B" to="A"/>
  </coupling-scheme:{scheme}>
</precice-configuration>
"""
IMPLICIT = """<min-iterations value="3"/>
    <max-iterations value="3"/>
    <relative-convergence-measure data="BToA" mesh="A-Mesh" limit="1e-10"/>"""


def config(scheme, windows):
    implicit = IMPLICIT if scheme == "serial-implicit" else ""
    return CONFIG.format(scheme=scheme, windows=windows, implicit=implicit)


def rust_program(path):
    if path:
        return path
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
    path = os.path.join(target, "release", "examples", "window_loop")
    if not os.path.isfile(path):
        sys.exit(f"{path} is missing: cargo build --release -p tidelink-coupling --example window_loop")
    return path


def run_pair(argv_of, xml, vertices):
    """Runs A and B (argv_of(name)); returns (seconds per window, CPU seconds per window of A
    and B together, windows, iterations)."""
    with tempfile.TemporaryDirectory(prefix="tidelink-bench-") as case:
        path = os.path.join(case, "precice-config.xml")
        with open(path, "w") as f:
            f.write(xml)
        env = dict(os.environ, TL_VERTICES=str(vertices))
        env.pop("TIDELINK_RUN_ID", None)
        procs, outs = [], []
        for name in ("A", "B"):
            out = open(os.path.join(case, name + ".out"), "w+")
            outs.append(out)
            procs.append(subprocess.Popen(argv_of(name, path), cwd=case, env=env, stdout=out, stderr=subprocess.STDOUT))
        results = []
        for p, out in zip(procs, outs):
            p.wait(timeout=900)
            out.seek(0)
            text = out.read()
            out.close()
            if p.returncode != 0:
                raise RuntimeError(f"{p.args} exited {p.returncode}:\n{text[-3000:]}")
            results.append(fields_of(text))
    seconds = max(r["seconds"] for r in results)
    cpu = sum(r.get("cpu", float("nan")) for r in results)
    windows = int(results[0]["windows"])
    return seconds / windows, cpu / windows, windows, int(results[0]["iterations"])


def fields_of(text):
    """The numbers of the last `windows=… iterations=… seconds=… [cpu=…]` line of `text`."""
    line = [ln for ln in text.splitlines() if ln.startswith("windows=")][-1]
    return {k: float(v) for k, v in (kv.split("=") for kv in line.split())}


def run_floor(windows, iterations, vertices, *flags):
    """window_floor.py (window_loop.py on calls that do nothing) with `flags`: (seconds, CPU
    seconds of A and B together) per window."""
    env = dict(os.environ, TL_VERTICES=str(vertices), TL_FLOOR_WINDOWS=str(windows),
               TL_FLOOR_ITERATIONS=str(iterations))
    out = subprocess.run([sys.executable, os.path.join(HERE, "window_floor.py"), *flags], env=env, check=True,
                         capture_output=True, text=True).stdout
    f = fields_of(out)
    # The script prints A's figures; B does the same work.
    return f["seconds"] / f["windows"], 2 * f["cpu"] / f["windows"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--explicit-windows", type=int, default=2000)
    ap.add_argument("--implicit-windows", type=int, default=500)
    ap.add_argument("--vertices", default="1,1000")
    ap.add_argument("--rust")
    ap.add_argument("--also", action="append", default=[], metavar="LABEL=DIR",
                    help="one more Python engine: window_loop.py with DIR first on PYTHONPATH "
                         "(another build of tidelink_precice, e.g. an older one)")
    ap.add_argument("--mixed", action="store_true", help="also a pair of a Python A and a Rust B")
    args = ap.parse_args()

    script = os.path.join(HERE, "window_loop.py")
    rust = rust_program(args.rust)
    engines = {
        "rust": lambda name, cfg: [rust, name, cfg],
        "python": lambda name, cfg: [sys.executable, script, name, cfg],
    }
    if args.mixed:
        engines["python A, rust B"] = lambda name, cfg: (
            [sys.executable, script, name, cfg] if name == "A" else [rust, name, cfg])
    for spec in args.also:
        label, folder = spec.split("=", 1)
        engines[label] = (lambda folder: lambda name, cfg: [
            "env", f"PYTHONPATH={folder}", sys.executable, script, name, cfg])(folder)
    pyprecice = os.environ.get("TIDELINK_PYPRECICE_PYTHON")
    if pyprecice:
        engines["pyprecice"] = lambda name, cfg: [pyprecice, script, name, cfg]
    else:
        print("TIDELINK_PYPRECICE_PYTHON is not set: no pyprecice row", file=sys.stderr)

    cases = []
    for vertices in (int(v) for v in args.vertices.split(",")):
        cases.append(("serial-explicit", args.explicit_windows, vertices))
        cases.append(("serial-implicit", args.implicit_windows, vertices))

    print("| scheme | vertices | windows (iterations) | engine | µs/window | best µs/window | CPU µs/window "
          "| / rust | / rust, best | / rust, CPU |")
    print("|---" * 10 + "|")
    for scheme, windows, vertices in cases:
        xml = config(scheme, windows)
        wall = {e: [] for e in engines}
        cpu = {e: [] for e in engines}
        stubs, handoffs = [], []
        counts = None
        for _ in range(args.repeats):
            for engine, argv_of in engines.items():
                cost, cpu_cost, w, it = run_pair(argv_of, xml, vertices)
                if counts is None:
                    counts = (w, it)
                elif counts != (w, it):
                    raise RuntimeError(f"{engine}: {w} windows, {it} iterations, not {counts}")
                wall[engine].append(cost)
                cpu[engine].append(cpu_cost)
            # What the two scripts cost between the hand-offs, on calls that do nothing: a stub
            # pair with the script less the same pair without it.
            iterations = counts[1] // counts[0]
            stubs.append(run_floor(counts[0], iterations, vertices, "--pair"))
            handoffs.append(run_floor(counts[0], iterations, vertices, "--pair", "--bare"))
        for engine in wall:
            ratios = [e / r for e, r in zip(wall[engine], wall["rust"])]
            cpu_ratios = [e / r for e, r in zip(cpu[engine], cpu["rust"])]
            row(scheme, vertices, counts, engine, statistics.median(wall[engine]), min(wall[engine]),
                statistics.median(cpu[engine]), statistics.median(ratios),
                min(wall[engine]) / min(wall["rust"]), statistics.median(cpu_ratios))
        # The floor: the Rust pair plus the CPU time of the two scripts between hand-offs (the
        # stub pair's less its bare hand-offs'), which lies on a serial pair's critical path.
        # CPU times, not wall times: the difference of two short wall times on a shared machine
        # is mostly noise (it comes out negative), the CPU times' is stable.
        scripts = statistics.median(s[1] - h[1] for s, h in zip(stubs, handoffs))
        floor = statistics.median(wall["rust"]) + scripts
        floor_best = min(wall["rust"]) + scripts
        floor_cpu = statistics.median(cpu["rust"]) + scripts
        row(scheme, vertices, counts, "floor", floor, floor_best, floor_cpu, floor / statistics.median(wall["rust"]),
            floor_best / min(wall["rust"]), floor_cpu / statistics.median(cpu["rust"]))


def row(scheme, vertices, counts, engine, wall, best, cpu, ratio, best_ratio, cpu_ratio):
    """One line of the table (times in seconds per window)."""
    print(f"| {scheme} | {vertices} | {counts[0]} ({counts[1]}) | {engine} | {wall * 1e6:.1f} | {best * 1e6:.1f} "
          f"| {cpu * 1e6:.1f} | {ratio:.2f} | {best_ratio:.2f} | {cpu_ratio:.2f} |", flush=True)


if __name__ == "__main__":
    main()
