"""What the Python suite's tests share: the repository's paths, temporary case folders, and
participants started as processes of their own (as users run them).

The processes get a generous hang guard (GUARD_S); it is no speed limit: a run that takes
longer is stuck, and the guard makes it fail with the participants' output instead of hanging
the suite.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import unittest

TESTS = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(TESTS, "scripts")
REPO = os.path.abspath(os.path.join(TESTS, "..", "..", ".."))
CONFIGS = os.path.join(REPO, "configs")
GUARD_S = 600


def target_dir():
    """Cargo's target folder (CARGO_TARGET_DIR, else the repository's)."""
    return os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))


_built = False


def rust_program(relative):
    """The Rust program at target/debug/`relative`, built if cargo is there; skips the test when
    it cannot be had. Built by `cargo test --workspace --no-run`, the build scripts/test.sh has
    just done, so that cargo finds everything up to date (a `cargo build -p …` resolves the
    dependencies' features otherwise and rebuilds most of them); the root tests do the same
    (tests/support: participant_programs)."""
    global _built
    path = os.path.join(target_dir(), "debug", relative)
    cargo = shutil.which("cargo")
    if cargo and not _built:
        args = ["test", "--workspace", "--no-run", "-q"]
        r = subprocess.run([cargo, *args], cwd=REPO, capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"cargo {' '.join(args)} failed:\n{r.stderr}")
        _built = True
    if not os.path.isfile(path):
        raise unittest.SkipTest(f"{path} is missing and cargo is not on PATH to build it")
    return path


def default_sigint():
    """In the child before it starts: Ctrl-C as at a terminal. A shell running the suite in the
    background starts it with SIGINT ignored, which the participants would inherit (and Python
    keeps an ignored SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Case:
    """A temporary folder holding a preCICE configuration; removed at the end of the test."""

    def __init__(self, test, xml):
        self.dir = tempfile.mkdtemp(prefix="tidelink-py-")
        test.addCleanup(shutil.rmtree, self.dir, True)
        self.config = os.path.join(self.dir, "precice-config.xml")
        with open(self.config, "w") as f:
            f.write(xml)

    def path(self, name):
        """A file of the case folder."""
        return os.path.join(self.dir, name)

    def start(self, argv, env=None):
        """Starts `argv` in the case folder; returns the Popen (stdout and stderr piped)."""
        full_env = dict(os.environ)
        # A participant started by hand: no run identity of an outer `tidelink run`.
        full_env.pop("TIDELINK_RUN_ID", None)
        full_env.update(env or {})
        return subprocess.Popen(
            argv,
            cwd=self.dir,
            env=full_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=default_sigint,
        )

    def python(self, script, *args, env=None):
        """Starts the suite's script `script` (in scripts/) with this interpreter."""
        return self.start([sys.executable, os.path.join(SCRIPTS, script), *args], env=env)


def finish(*procs):
    """Waits for every process (hang guard GUARD_S), reading all their pipes at once so that no
    participant blocks on a full pipe while another is waited for; returns
    [(returncode, stdout, stderr)]."""
    results = [None] * len(procs)

    def drain(i, p):
        try:
            o, e = p.communicate(timeout=GUARD_S)
        except subprocess.TimeoutExpired:
            p.kill()
            o, e = p.communicate()
            results[i] = (None, o, e)
            return
        results[i] = (p.returncode, o, e)

    threads = [threading.Thread(target=drain, args=(i, p)) for i, p in enumerate(procs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stuck = [(p.args, r) for p, r in zip(procs, results) if r[0] is None]
    if stuck:
        for q in procs:
            q.kill()
        raise AssertionError(f"still running after {GUARD_S} s (stuck): {stuck}")
    return results


def expect_success(test, results):
    """Asserts that every process exited 0, showing the output of those that did not."""
    for code, o, e in results:
        test.assertEqual(code, 0, f"exit code {code}\nstdout:\n{o}\nstderr:\n{e}")


def read_csv(path):
    """A CSV of numbers with a header (after `#` comment lines): {column: [values]}."""
    with open(path) as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
        header = lines[0].strip().split(",")
        rows = [[float(x) for x in line.split(",")] for line in lines[1:]]
    return {name: [r[i] for r in rows] for i, name in enumerate(header)}


def oscillator_config(window=None, exchange_dir="."):
    """configs/oscillators/precice-config.xml, with another window size if given."""
    with open(os.path.join(CONFIGS, "oscillators", "precice-config.xml")) as f:
        xml = f.read()
    if window is not None:
        old = '<time-window-size value="0.01"/>'
        assert old in xml, "configs/oscillators/precice-config.xml no longer has its 0.01 s window"
        xml = xml.replace(old, f'<time-window-size value="{window}"/>')
    return xml.replace('exchange-directory="."', f'exchange-directory="{exchange_dir}"')


# Two participants on 2D meshes, serial-explicit: A writes the scalar "Heat" and the vector
# "Flow" on its mesh; B receives A's mesh, maps both to its own (nearest-neighbor) and reads
# them. Windows of 0.1 s up to 1 s.
EXPLICIT_XML = """<?xml version="1.0"?>
<precice-configuration>
  <data:scalar name="Heat"/>
  <data:vector name="Flow"/>
  <mesh name="A-Mesh" dimensions="2"><use-data name="Heat"/><use-data name="Flow"/></mesh>
  <mesh name="B-Mesh" dimensions="2"><use-data name="Heat"/><use-data name="Flow"/></mesh>
  <participant name="A">
    <provide-mesh name="A-Mesh"/>
    <write-data name="Heat" mesh="A-Mesh"/>
    <write-data name="Flow" mesh="A-Mesh"/>
  </participant>
  <participant name="B">
    <provide-mesh name="B-Mesh"/>
    <receive-mesh name="A-Mesh" from="A"/>
    <read-data name="Heat" mesh="B-Mesh"/>
    <read-data name="Flow" mesh="B-Mesh"/>
    <mapping:nearest-neighbor direction="read" from="A-Mesh" to="B-Mesh" constraint="consistent"/>
  </participant>
  <m2n:sockets acceptor="A" connector="B" exchange-directory="."/>
  <coupling-scheme:serial-explicit>
    <participants first="A" second="B"/>
    <time-window-size value="0.1"/>
    <max-time value="1"/>
    <exchange data="Heat" mesh="A-Mesh" from="A" to="B"/>
    <exchange data="Flow" mesh="A-Mesh" from="A" to="B"/>
  </coupling-scheme:serial-explicit>
</precice-configuration>
"""


# EXPLICIT_XML with B mapping by nearest-neighbor-gradient (A is then asked for the gradients of
# Heat and Flow on A-Mesh); gradient writes are experimental API in preCICE.
GRADIENT_XML = EXPLICIT_XML.replace("<precice-configuration>", '<precice-configuration experimental="true">').replace(
    "mapping:nearest-neighbor ", "mapping:nearest-neighbor-gradient "
)
assert "nearest-neighbor-gradient" in GRADIENT_XML and 'experimental="true"' in GRADIENT_XML
