"""The pins: pyproject.toml's exact versions are in constraints.txt, and this environment has them.

(src/hydro/venv.rs has the Rust half: its REQUIREMENTS equal pyproject.toml's dependencies.)
"""

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

HYDRO = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)$")


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def constraints():
    """{canonical name: version} of constraints.txt; every non-comment line must be name==version."""
    pins = {}
    for line in (HYDRO / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = PIN.match(line)
        assert m, f"constraints.txt: `{line}` is not name==version"
        assert canonical(m[1]) not in pins, f"constraints.txt: {m[1]} twice"
        pins[canonical(m[1])] = m[2]
    return pins


def project():
    return tomllib.loads((HYDRO / "pyproject.toml").read_text())["project"]


def exact(requirement):
    m = PIN.match(requirement)
    assert m, f"pyproject.toml: `{requirement}` is not pinned with =="
    return canonical(m[1]), m[2]


def test_direct_and_test_pins_are_in_the_constraints():
    pins = constraints()
    p = project()
    assert p["name"] == "tidelink-hydro"
    direct = [exact(r) for r in p["dependencies"]]
    assert [name for name, _ in direct] == ["capytaine", "h5py", "scipy"]
    for name, version in direct + [exact(r) for r in p["optional-dependencies"]["test"]]:
        assert pins.get(name) == version, f"{name}=={version} (pyproject.toml) vs constraints.txt {pins.get(name)}"
    assert "numpy" in pins  # imported directly by the package; pinned here, pulled in by all three


def test_this_environment_has_the_constrained_versions():
    """Whatever of constraints.txt is installed here has exactly that version (hydro/test.sh installs
    with -c constraints.txt; a package absent on this Python's markers is skipped)."""
    pins = constraints()
    wrong = {}
    for name, version in pins.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        if installed != version:
            wrong[name] = (installed, version)
    assert not wrong, f"installed vs constraints.txt: {wrong}"
    for name in ("capytaine", "h5py", "scipy", "numpy", "pytest"):
        assert metadata.version(name) == pins[name], name


@pytest.mark.parametrize("module, dist", [("capytaine", "capytaine"), ("h5py", "h5py"), ("scipy", "scipy")])
def test_imported_modules_are_the_pinned_ones(module, dist):
    mod = __import__(module)
    assert mod.__version__ == constraints()[dist]
