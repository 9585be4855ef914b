"""The per-window cost of a Python pair on Tidelink's module, against the same loop in Rust on
the native engine and against real pyprecice on libprecice (docs/performance.md, "Python
participants").

    python window_overhead.py [--repeats 7] [--explicit-windows 2000] [--implicit-windows 500]
                              [--vertices 1,1000] [--rust PATH]

Each pair is two processes (participants A and B of a 3D case with vector data both ways,
nearest-neighbor read and write mappings on B), running window_loop.py (Python) or
coupling/engine/examples/window_loop.rs (Rust, built with `cargo build --release -p
tidelink-coupling --example window_loop`; found under CARGO_TARGET_DIR or target/). Schemes:
serial-explicit, and serial-implicit with exactly 3 iterations per window (min- and
max-iterations 3). Each participant times its loop from after initialize() to before
finalize(); a pair's per-window cost is the larger of the two divided by the windows.

The interpreter running this script is the one with Tidelink's module; real pyprecice runs
under TIDELINK_PYPRECICE_PYTHON when it is set. The engines are interleaved within each
repeat (the machine is noisy), and the table gives medians over the repeats of the per-window
cost and of the ratios measured within the same repeat.

The floor columns: window_floor.py, the same script on a `precice` whose calls do nothing, per
window of one participant, and the ratio a Python pair would reach with bindings that cost
nothing, (rust + 2 × floor) / rust (a serial pair runs its two participants in turn).
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
    """Runs A and B (argv_of(name)); returns (seconds per window, windows, iterations)."""
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
            line = [ln for ln in text.splitlines() if ln.startswith("windows=")][-1]
            fields = dict(kv.split("=") for kv in line.split())
            results.append((float(fields["seconds"]), int(fields["windows"]), int(fields["iterations"])))
    seconds = max(r[0] for r in results)
    return seconds / results[0][1], results[0][1], results[0][2]


def run_floor(windows, iterations, vertices):
    """window_floor.py (window_loop.py with calls that do nothing): seconds per window of one
    participant."""
    env = dict(os.environ, TL_VERTICES=str(vertices), TL_FLOOR_WINDOWS=str(windows),
               TL_FLOOR_ITERATIONS=str(iterations))
    out = subprocess.run([sys.executable, os.path.join(HERE, "window_floor.py")], env=env, check=True,
                         capture_output=True, text=True).stdout
    line = [ln for ln in out.splitlines() if ln.startswith("windows=")][-1]
    fields = dict(kv.split("=") for kv in line.split())
    return float(fields["seconds"]) / int(fields["windows"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--explicit-windows", type=int, default=2000)
    ap.add_argument("--implicit-windows", type=int, default=500)
    ap.add_argument("--vertices", default="1,1000")
    ap.add_argument("--rust")
    args = ap.parse_args()

    script = os.path.join(HERE, "window_loop.py")
    rust = rust_program(args.rust)
    engines = {
        "rust": lambda name, cfg: [rust, name, cfg],
        "python": lambda name, cfg: [sys.executable, script, name, cfg],
    }
    pyprecice = os.environ.get("TIDELINK_PYPRECICE_PYTHON")
    if pyprecice:
        engines["pyprecice"] = lambda name, cfg: [pyprecice, script, name, cfg]
    else:
        print("TIDELINK_PYPRECICE_PYTHON is not set: no pyprecice column", file=sys.stderr)

    cases = []
    for vertices in (int(v) for v in args.vertices.split(",")):
        cases.append(("serial-explicit", args.explicit_windows, vertices))
        cases.append(("serial-implicit", args.implicit_windows, vertices))

    print(f"| scheme | vertices | windows (iterations) | {' | '.join(e + ' µs/window' for e in engines)} "
          f"| python / rust | pyprecice / rust | python / pyprecice | floor µs/window | floor bound |")
    print("|---" * (3 + len(engines) + 5) + "|")
    for scheme, windows, vertices in cases:
        xml = config(scheme, windows)
        per = {e: [] for e in engines}
        ratios = {"python/rust": [], "pyprecice/rust": [], "python/pyprecice": [], "bound": []}
        floors = []
        counts = None
        for _ in range(args.repeats):
            now = {}
            for engine, argv_of in engines.items():
                cost, w, it = run_pair(argv_of, xml, vertices)
                if counts is None:
                    counts = (w, it)
                elif counts != (w, it):
                    raise RuntimeError(f"{engine}: {w} windows, {it} iterations, not {counts}")
                now[engine] = cost
                per[engine].append(cost)
            ratios["python/rust"].append(now["python"] / now["rust"])
            # A serial pair runs its participants one after the other: twice one's floor.
            floor = run_floor(counts[0], counts[1] // counts[0], vertices)
            floors.append(floor)
            ratios["bound"].append((now["rust"] + 2 * floor) / now["rust"])
            if "pyprecice" in now:
                ratios["pyprecice/rust"].append(now["pyprecice"] / now["rust"])
                ratios["python/pyprecice"].append(now["python"] / now["pyprecice"])
        med = {e: statistics.median(v) * 1e6 for e, v in per.items()}
        rat = {k: f"{statistics.median(v):.2f}" if v else "—" for k, v in ratios.items()}
        print(f"| {scheme} | {vertices} | {counts[0]} ({counts[1]}) | "
              + " | ".join(f"{med[e]:.1f}" for e in engines)
              + f" | {rat['python/rust']} | {rat['pyprecice/rust']} | {rat['python/pyprecice']}"
              + f" | {statistics.median(floors) * 1e6:.1f} | {rat['bound']} |", flush=True)


if __name__ == "__main__":
    main()
