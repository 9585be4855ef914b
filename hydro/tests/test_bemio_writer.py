"""The BEMIO HDF5 layout: a synthetic data set written and read back with h5py.

What is checked is what the Rust reader (participants/tdpf/src/bemio/reader.rs) and docs/hydro.md expect:
dataset names, C-order shapes with frequency or time last, per-body row blocks of the 6 * Nb columns,
(n, 1) vectors and (1, 1) scalars, string datasets, and BEMIO's normalisation (A / rho, B / (rho w),
X / (rho g), stiffness / (rho g)), the latter through `assemble`, which turns SI coefficients into the
normalised set the writer stores.
"""

import math
import types

import h5py
import numpy as np
import pytest

from tidelink_hydro import __main__ as cli
from tidelink_hydro import bemio_writer, shapes
from tidelink_hydro.profiles import axisymmetric_hydrostatics

NB, NF, NH, NT, NTE, NW, ORDER = 2, 4, 3, 5, 7, 9, 3
N = 6 * NB


def pattern(shape, offset=0.0):
    """Distinct values (offset + 0, 1, 2, ... in C order), so a mixed-up axis or row block shows."""
    return offset + np.arange(int(np.prod(shape)), dtype=float).reshape(shape)


def synthetic(depth=np.inf):
    w = np.array([0.25, 0.5, 1.0, 2.0])
    x = pattern((N, NH, NF), 1.0) * np.exp(1j * pattern((N, NH, NF)) / 7.0)
    fk = 0.25 * x
    ss = {
        "A": pattern((N, N, ORDER, ORDER), 0.5), "B": pattern((N, N, ORDER, 1), 0.25),
        "C": pattern((N, N, 1, ORDER), 0.125), "D": np.zeros((N, N)), "K": pattern((N, N, NT), 3.0),
        "it": np.full((N, N), 2.0), "r2t": np.full((N, N), 0.97), "conv": np.ones((N, N)),
    }
    bodies = [
        {"name": f"b{n}", "cg": [0.0, n, -0.5 * n], "cb": [0.1, n, -1.0 * n], "volume": 100.0 * n,
         "stiffness_norm": pattern((6, 6), 1000.0 * n)}
        for n in range(1, NB + 1)
    ]
    return {
        "rho": 1025.0, "g": 9.81, "depth": depth, "w": w, "headings": [0.0, 30.0, 90.0],
        "provenance": "synthetic test data", "bodies": bodies,
        "A_norm": pattern((N, N, NF), 10.0), "A_inf_norm": pattern((N, N), 20.0),
        "B_norm": pattern((N, N, NF), 30.0),
        "K": pattern((N, N, NT), 40.0), "K_t": np.linspace(0.0, 4.0, NT), "K_w": np.linspace(0.25, 2.0, NW),
        "ss": ss,
        "X_norm": x, "FK_norm": fk, "SC_norm": x - fk,
        "Ke": pattern((N, NH, NTE), 50.0), "Ke_t": np.linspace(-3.0, 3.0, NTE), "Ke_w": np.linspace(0.25, 2.0, NW),
    }


def string(ds):
    value = ds[()]
    return value.decode() if isinstance(value, bytes) else str(value)


@pytest.fixture()
def written(tmp_path):
    data = synthetic()
    path = tmp_path / "synthetic.h5"
    bemio_writer.write(path, data)
    with h5py.File(path, "r") as f:
        yield f, data


def test_simulation_parameters_and_code(written):
    f, data = written
    sp = f["simulation_parameters"]
    assert sp["rho"].shape == (1, 1) and sp["rho"][0, 0] == 1025.0
    assert sp["g"].shape == (1, 1) and sp["g"][0, 0] == 9.81
    assert string(sp["water_depth"]) == "infinite"
    assert sp["w"].shape == (NF, 1)
    np.testing.assert_array_equal(sp["w"][:, 0], data["w"])
    np.testing.assert_allclose(sp["T"][:, 0], [2 * math.pi / w for w in data["w"]], rtol=1e-15)
    assert sp["wave_dir"].shape == (NH, 1)
    np.testing.assert_array_equal(sp["wave_dir"][:, 0], [0.0, 30.0, 90.0])
    assert string(f["bem_data/code"]) == "CAPYTAINE"
    assert f.attrs["provenance"] == "synthetic test data"
    assert sorted(k for k in f.keys() if k.startswith("body")) == [f"body{n}" for n in range(1, NB + 1)]


def test_finite_depth_is_a_scalar(tmp_path):
    path = tmp_path / "finite.h5"
    bemio_writer.write(path, synthetic(depth=70.0))
    with h5py.File(path, "r") as f:
        d = f["simulation_parameters/water_depth"]
        assert d.shape == (1, 1) and d.dtype == np.float64 and d[0, 0] == 70.0


@pytest.mark.parametrize("n", range(1, NB + 1))
def test_body_properties(written, n):
    f, data = written
    p = f[f"body{n}/properties"]
    body = data["bodies"][n - 1]
    assert string(p["name"]) == body["name"]
    assert p["cg"].shape == (3, 1) and p["cb"].shape == (3, 1)
    np.testing.assert_array_equal(p["cg"][:, 0], body["cg"])
    np.testing.assert_array_equal(p["cb"][:, 0], body["cb"])
    for key, value in [("disp_vol", body["volume"]), ("body_number", n), ("dof", 6),
                       ("dof_start", 6 * (n - 1) + 1), ("dof_end", 6 * n)]:
        assert p[key].shape == (1, 1) and p[key][0, 0] == value, key


@pytest.mark.parametrize("n", range(1, NB + 1))
def test_body_coefficients_are_the_body_row_block_with_frequency_last(written, n):
    f, data = written
    rows = slice(6 * (n - 1), 6 * n)
    hc = f[f"body{n}/hydro_coeffs"]
    expect = {
        "linear_restoring_stiffness": ((6, 6), data["bodies"][n - 1]["stiffness_norm"]),
        "added_mass/all": ((6, N, NF), data["A_norm"][rows]),
        "added_mass/inf_freq": ((6, N), data["A_inf_norm"][rows]),
        "radiation_damping/all": ((6, N, NF), data["B_norm"][rows]),
        "radiation_damping/impulse_response_fun/K": ((6, N, NT), data["K"][rows]),
        "radiation_damping/impulse_response_fun/t": ((NT, 1), data["K_t"][:, None]),
        "radiation_damping/impulse_response_fun/w": ((NW, 1), data["K_w"][:, None]),
        "radiation_damping/state_space/A/all": ((6, N, ORDER, ORDER), data["ss"]["A"][rows]),
        "radiation_damping/state_space/B/all": ((6, N, ORDER, 1), data["ss"]["B"][rows]),
        "radiation_damping/state_space/C/all": ((6, N, 1, ORDER), data["ss"]["C"][rows]),
        "radiation_damping/state_space/D/all": ((6, N), data["ss"]["D"][rows]),
        "radiation_damping/state_space/K/all": ((6, N, NT), data["ss"]["K"][rows]),
        "radiation_damping/state_space/it": ((6, N), data["ss"]["it"][rows]),
        "radiation_damping/state_space/r2t": ((6, N), data["ss"]["r2t"][rows]),
        "radiation_damping/state_space/conv": ((6, N), data["ss"]["conv"][rows]),
        "excitation/impulse_response_fun/f": ((6, NH, NTE), data["Ke"][rows]),
        "excitation/impulse_response_fun/t": ((NTE, 1), data["Ke_t"][:, None]),
    }
    for path, (shape, values) in expect.items():
        ds = hc[path]
        assert ds.shape == shape, path
        assert ds.dtype == np.float64, path
        np.testing.assert_array_equal(ds[()], values, err_msg=path)


@pytest.mark.parametrize("group, key", [("excitation", "X_norm"), ("excitation/froude-krylov", "FK_norm"),
                                        ("excitation/scattering", "SC_norm")])
def test_complex_forces_as_re_im_mag_phase(written, group, key):
    f, data = written
    for n in range(1, NB + 1):
        z = data[key][6 * (n - 1) : 6 * n]
        g = f[f"body{n}/hydro_coeffs/{group}"]
        for part in ("re", "im", "mag", "phase"):
            assert g[part].shape == (6, NH, NF), part
        np.testing.assert_array_equal(g["re"][()], z.real)
        np.testing.assert_array_equal(g["im"][()], z.imag)
        # |z| = sqrt(re^2 + im^2) and the phase is atan2(im, re), in radians.
        np.testing.assert_allclose(g["mag"][()], np.sqrt(z.real**2 + z.imag**2), rtol=1e-15)
        phase = np.vectorize(math.atan2)(z.imag, z.real)
        np.testing.assert_allclose(g["phase"][()], phase, rtol=0, atol=1e-15)


def test_assemble_normalises_as_bemio():
    """SI coefficients in, the file's normalised values out: A / rho, B / (rho w), X / (rho g), C / (rho g)."""
    rho, g = 1025.0, 9.81
    radius, draft = 2.0, 3.0
    w = np.linspace(0.2, 3.0, 15)
    nf = len(w)
    rng = np.random.default_rng(1)
    b = np.zeros((6, 6, nf))
    b[2, 2] = rho * w**2 * np.exp(-(w**2))  # B33 > 0; every other entry zero (no fit needed there)
    res = {
        "A": rng.normal(size=(6, 6, nf)) * 1e5, "A_inf": rng.normal(size=(6, 6)) * 1e5, "B": b,
        "FK": (rng.normal(size=(6, 1, nf)) + 1j * rng.normal(size=(6, 1, nf))) * 1e4,
        "SC": (rng.normal(size=(6, 1, nf)) + 1j * rng.normal(size=(6, 1, nf))) * 1e4,
    }
    res["X"] = res["FK"] + res["SC"]
    shape = shapes.vertical_cylinder(radius, draft)
    cg = np.array([0.0, 0.0, -0.5])
    built = [types.SimpleNamespace(name="can", cg=cg, mass=None, hydro=axisymmetric_hydrostatics(shape))]
    desc = {"rho": rho, "g": g, "depth": 40.0, "headings": [0.0],
            "irf": {"t_end": 20.0, "steps": 201}, "excitation_irf": {"t_end": 20.0, "steps": 201}}

    data = cli.assemble(desc, built, res, w)

    np.testing.assert_allclose(data["A_norm"] * rho, res["A"], rtol=1e-14)
    np.testing.assert_allclose(data["A_inf_norm"] * rho, res["A_inf"], rtol=1e-14)
    np.testing.assert_allclose(data["B_norm"] * rho * w, res["B"], rtol=1e-14, atol=0)
    for k in ("X", "FK", "SC"):
        np.testing.assert_allclose(data[f"{k}_norm"] * rho * g, res[k], rtol=1e-14)
    assert data["K_t"][-1] == 20.0 and len(data["K_t"]) == 201 and len(data["Ke_t"]) == 201
    # Cylinder stiffness about the CG (WAMIT's convention): C33 = rho g pi R^2,
    # C44 = C55 = rho g (pi R^4 / 4 + V (z_b - z_g)) with V = pi R^2 d and z_b = -d / 2.
    c = data["bodies"][0]["stiffness_norm"]
    v = math.pi * radius**2 * draft
    assert c[2, 2] == pytest.approx(math.pi * radius**2, rel=1e-12)
    for i in (3, 4):
        assert c[i, i] == pytest.approx(math.pi * radius**4 / 4 + v * (-draft / 2 - cg[2]), rel=1e-12)
    off = c.copy()
    off[2, 2] = off[3, 3] = off[4, 4] = 0.0
    assert np.max(np.abs(off)) < 1e-12 * c[2, 2]
    # The fit: one entry (heave) fitted, the zero entries left at order 0 (BEMIO's conv 0).
    assert data["ss"]["it"][2, 2] >= 2 and data["ss"]["conv"][2, 2] in (1, 2)
    assert np.count_nonzero(data["ss"]["it"]) == 1
    assert data["depth"] == 40.0
