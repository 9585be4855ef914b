"""The importers: WAMIT numeric output (tidelink_hydro.wamit: radiation and hydrostatics only) and a Capytaine dataset
(tidelink_hydro.capytaine_nc, with excitation), each a BEMIO file without a BEM run.

On a tiny synthetic run written here (every value known), and on WEC-Sim's OSWEC run (`wamit/oswec.1` and friends in
../shared/data/oswec; skipped without it), whose imported flap coefficients are checked against the independent
reader of hydro/scripts/compare_oswec.py and against the generated file's table (the figures of
test_oswec_reference.py, from the other side).
"""

import importlib.util
import os

import h5py
import numpy as np
import pytest

from tidelink_hydro import wamit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "..", "shared", "data", "oswec")
STEM = os.path.join(DATA, "wamit", "oswec")
needs_data = pytest.mark.skipif(not os.path.isdir(DATA), reason="needs ../shared/data/oswec (WAMIT run)")


def write_run(d, with_b=True):
    """A one-body WAMIT run at T = 10, 5, 2.5 s: Abar(i, j) = 10 i + j + T, Bbar = i j / T, C33/(rho g) = 7."""
    lines = ["header"]
    for per in (-1.0, 0.0, 10.0, 5.0, 2.5):
        for i in range(1, 7):
            for j in range(1, 7):
                a = 10 * i + j + max(per, 0)
                row = f"{per:.6E} {i} {j} {a:.6E}"
                if per > 0 and with_b:
                    row += f" {i * j / per:.6E}"
                lines.append(row)
    (d / "run.1").write_text("\n".join(lines) + "\n")
    (d / "run.hst").write_text("header\n 3 3 7.0\n 5 5 -2.5\n")
    (d / "run.mmx").write_text(" Gravity:     9.80665   Length scale: 1.0\n"
                               " Volumes (VOLX,VOLY,VOLZ):  12.0  12.1  12.5\n"
                               " Center of Buoyancy (Xb,Yb,Zb):  0.0  0.0  -0.5\n")
    (d / "run.pot").write_text("run.pot\n 30.0   HBOT\n 1 1\n 3\n 1 2 3\n 1\n 0 0\n 1\n hull.gdf\n 0.0 0.0 -2.0 0.0\n")
    return d / "run"


def test_a_synthetic_run_is_written_as_bemio_with_no_excitation(tmp_path):
    stem = write_run(tmp_path)
    out = tmp_path / "run.h5"
    assert wamit.main(["wamit", str(stem), str(out), "--rho", "1025", "--irf-t-end", "20", "--irf-steps", "5"]) == 0
    with h5py.File(out, "r") as f:
        w = f["simulation_parameters/w"][:, 0]
        np.testing.assert_allclose(w, 2 * np.pi / np.array([10.0, 5.0, 2.5]))
        assert f["simulation_parameters/rho"][0, 0] == 1025.0
        assert f["simulation_parameters/g"][0, 0] == 9.80665
        assert f["simulation_parameters/water_depth"][0, 0] == 30.0
        assert f["bem_data/code"][()] == b"WAMIT"
        assert f["bem_data/excitation"][()].startswith(b"none")
        b = f["body1"]
        assert b["properties/name"][()] == b"hull"
        np.testing.assert_allclose(b["properties/cg"][:, 0], [0, 0, -2.0])
        np.testing.assert_allclose(b["properties/cb"][:, 0], [0, 0, -2.5])
        assert b["properties/disp_vol"][0, 0] == 12.5
        hc = b["hydro_coeffs"]
        assert "excitation" not in hc and "state_space" not in hc["radiation_damping"]
        # Abar and Bbar stored as they are (BEMIO's normalisation is WAMIT's), frequency last.
        a = hc["added_mass/all"][:]
        assert a.shape == (6, 6, 3) and a[1, 2, 0] == 10 * 2 + 3 + 10.0 and a[1, 2, 2] == 23 + 2.5
        assert hc["radiation_damping/all"][3, 4, 1] == pytest.approx(4 * 5 / 5.0)
        assert hc["added_mass/inf_freq"][5, 5] == 66.0
        c = hc["linear_restoring_stiffness"][:]
        assert c[2, 2] == 7.0 and c[4, 4] == -2.5 and np.count_nonzero(c) == 2
        irf = hc["radiation_damping/impulse_response_fun"]
        np.testing.assert_allclose(irf["t"][:, 0], np.linspace(0, 20, 5))
        assert irf["K"].shape == (6, 6, 5)


def test_bad_input_is_named_with_file_and_line(tmp_path):
    stem = write_run(tmp_path)
    (tmp_path / "run.1").write_text("header\n 10.0 1 9 1.0 2.0\n")
    with pytest.raises(wamit.WamitError, match=r"run\.1:2: DOF pair \(1, 9\) outside 1\.\.6"):
        wamit.assemble(stem)
    (tmp_path / "run.1").write_text("header\n 10.0 1 1 x 2.0\n")
    with pytest.raises(wamit.WamitError, match=r"run\.1:2: not a row of numbers"):
        wamit.assemble(stem)
    (tmp_path / "run.1").write_text("header\n 10.0 1 1 1.0 2.0\n 5.0 1 1 1.0 2.0\n")
    with pytest.raises(wamit.WamitError, match="no infinite-frequency rows"):
        wamit.assemble(stem)
    assert wamit.main(["wamit", str(tmp_path / "absent"), str(tmp_path / "x.h5")]) == 1


def compare():
    spec = importlib.util.spec_from_file_location("compare_oswec", os.path.join(ROOT, "hydro", "scripts", "compare_oswec.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def oswec(tmp_path_factory):
    out = tmp_path_factory.mktemp("wamit") / "oswec_wamit.h5"
    assert wamit.main(["wamit", STEM, str(out)]) == 0
    return out


@needs_data
def test_the_oswec_run_imports_as_its_own_rows(oswec):
    """Every flap coefficient equals the .1 row read by compare_oswec.py's own reader (A = rho Abar, B = rho w Bbar),
    and the hydrostatics and volumes are WAMIT's: C33/(rho g) 32.40 m2, VOLZ 297.376 m3."""
    mod = compare()
    ww, ref = mod.wamit(STEM + ".1")
    with h5py.File(oswec, "r") as f:
        w = f["simulation_parameters/w"][:, 0]
        np.testing.assert_allclose(w, ww, rtol=1e-12)
        assert len(w) == 500 and w[0] == pytest.approx(0.04, rel=1e-6) and w[-1] == pytest.approx(20.0, rel=1e-5)
        assert f["simulation_parameters/water_depth"][0, 0] == 10.9
        hc = f["body1/hydro_coeffs"]
        for (i, j), (a, b) in ref.items():
            if i > 6 or j > 6:
                continue
            np.testing.assert_allclose(hc["added_mass/all"][i - 1, j - 1, :] * 1000.0, a, rtol=1e-12, atol=1e-9)
            np.testing.assert_allclose(hc["radiation_damping/all"][i - 1, j - 1, :] * 1000.0 * w, b, rtol=1e-12, atol=1e-9)
        assert hc["linear_restoring_stiffness"][2, 2] == pytest.approx(32.40002)
        assert f["body1/properties/disp_vol"][0, 0] == pytest.approx(297.376)
        np.testing.assert_allclose(f["body1/properties/cg"][:, 0], [0, 0, -3.9])
        np.testing.assert_allclose(f["body2/properties/cg"][:, 0], [0, 0, -10.9])
        np.testing.assert_allclose(f["body1/properties/cb"][:, 0], [0, 0, -3.9 - 0.691477])
        assert [f[f"body{n}/properties/name"][()] for n in (1, 2)] == [b"flap", b"base"]
        t = hc["radiation_damping/impulse_response_fun/t"][:, 0]
        assert t[0] == 0.0 and t[-1] == 30.0 and len(t) == 1001


@needs_data
def test_the_oswec_import_against_the_generated_files_table(oswec):
    """From the other side of test_oswec_reference.py: about the hinge, the generated file's A and B (its committed
    table) differ from the imported ones over 0.2-3 rad/s by at most 3.1 % and 4.6 % of the band's largest value
    (docs/oswec.md); the same tolerances as there (5 %, 7 %)."""
    mod = compare()
    t = np.genfromtxt(os.path.join(HERE, "data", "oswec_flap_coefficients.csv"), delimiter=",", names=True, skip_header=1)
    sel = (t["omega_rad_per_s"] >= 0.2 - 1e-9) & (t["omega_rad_per_s"] <= 3.0 + 1e-9)
    with h5py.File(oswec, "r") as f:
        w = f["simulation_parameters/w"][:, 0]
        hc = f["body1/hydro_coeffs"]
        m = [mod.nearest(w, x, "the import") for x in t["omega_rad_per_s"][sel]]
        a = hc["added_mass/all"][:, :, m] * 1000.0
        b = hc["radiation_damping/all"][:, :, m] * 1000.0 * w[m]
    for q, ours, tol in (("A", a, 0.05), ("B", b, 0.07)):
        imported = mod.hinge(ours[0, 0], ours[0, 4], ours[4, 4])
        generated = mod.hinge(t[q + "11"][sel], t[q + "15"][sel], t[q + "55"][sel])
        err = np.max(np.abs(generated - imported)) / np.max(np.abs(imported))
        assert err < tol, (q, err)


CAPY = os.path.join(DATA, "capytaine", "oswec_hydrodynamics.nc")
CAPY_ARGS = ["--cg", "oswec_flap=0,0,-3.9", "--cg", "oswec_base_shift=0,0,-10.9", "--name", "oswec_flap=flap"]


@needs_data
def test_the_capytaine_set_imports_with_its_excitation_conjugated(tmp_path):
    """tidelink_hydro.capytaine_nc on WEC-Sim's Capytaine set: the flap's excitation is compare_oswec.py's own
    reading of the dataset (conjugated to exp(+i w t)), A is the dataset's, the three NaN frequencies are left out."""
    from scipy.io import netcdf_file

    from tidelink_hydro import capytaine_nc

    out = tmp_path / "capy.h5"
    assert capytaine_nc.main(["capytaine_nc", CAPY, str(out)] + CAPY_ARGS) == 0
    cw, cx5, cx1 = compare().capytaine_x5(CAPY)
    with netcdf_file(CAPY, "r", mmap=False) as f:
        am = f.variables["added_mass"][:].copy()
    with h5py.File(out, "r") as f:
        w = f["simulation_parameters/w"][:, 0]
        np.testing.assert_allclose(w, cw[3:])
        assert [f[f"body{n}/properties/name"][()] for n in (1, 2)] == [b"flap", b"oswec_base_shift"]
        hc = f["body1/hydro_coeffs"]
        x = (hc["excitation/re"][:, 0, :] + 1j * hc["excitation/im"][:, 0, :]) * 1000.0 * 9.81
        np.testing.assert_allclose(x[4], cx5[3:], rtol=1e-12)
        np.testing.assert_allclose(x[0], cx1[3:], rtol=1e-12)
        np.testing.assert_allclose(hc["added_mass/all"][0, 4, :] * 1000.0, am[3:, 4, 0], rtol=1e-12)
        assert f["body1/properties/disp_vol"][0, 0] == pytest.approx(297.3767, rel=1e-6)
        assert "excitation/impulse_response_fun" in hc
    with pytest.raises(capytaine_nc.DatasetError, match="give the CG .* of oswec_base_shift"):
        capytaine_nc.assemble(CAPY, ["oswec_flap=0,0,-3.9"])
