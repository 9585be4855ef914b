"""State-space fits of impulse responses of known low-order systems.

An IRF sum of damped modes exp(-s t)(a cos(w t) + b sin(w t)) is exactly C exp(A t) B with one complex pole
pair -s +- i w per mode, so its sampled Hankel matrix has exact rank 2 per mode: Kung's realisation of that
order reproduces it in exact arithmetic, and the poles and the reconstruction are only off by rounding
amplified by the conditioning of the SVD and the matrix logarithm.  The tolerances (1e-8 relative for
poles, 1e-9 of the peak for the IRF) leave orders of magnitude of margin over that and still catch a
wrong time step, a wrong branch of the logarithm or a transposed realisation, which are errors of order 1.
Sampling: BEMIO's radiation IRF grid, t = 0 .. 60 s in 1001 steps (dt = 0.06 s, w dt << pi).
"""

import numpy as np
import pytest
from scipy.linalg import expm

from tidelink_hydro import irf

T = np.linspace(0.0, 60.0, 1001)


def mode(s, w, a, b, t=T):
    return np.exp(-s * t) * (a * np.cos(w * t) + b * np.sin(w * t))


SECOND = [(0.4, 1.3, 1.0, 0.3)]
FOURTH = [(0.3, 0.8, 1.0, 0.2), (1.0, 2.5, 0.8, -0.5)]


def irf_of(modes, t=T):
    return sum(mode(*m, t=t) for m in modes)


def poles_of(modes):
    return np.sort_complex(np.array([p for s, w, _, _ in modes for p in (-s + 1j * w, -s - 1j * w)]))


def assert_poles(a, modes):
    found = np.sort_complex(np.linalg.eigvals(a))
    expected = poles_of(modes)
    assert len(found) == len(expected)
    np.testing.assert_allclose(found, expected, rtol=1e-8)


def r2_of(k, fit):
    return 1.0 - np.sum((k - fit) ** 2) / np.sum((k - np.mean(k)) ** 2)


def test_second_order_system_is_recovered_at_order_two():
    k = irf_of(SECOND)
    a, b, c, d, fit, order, r2, conv = irf.state_space_fit(k, T, o_max=10, r2_min=0.95)
    assert (order, conv, d) == (2, 1, 0.0)
    assert a.shape == (2, 2) and b.shape == (2, 1) and c.shape == (1, 2)
    assert_poles(a, SECOND)
    np.testing.assert_allclose(fit, k, rtol=0, atol=1e-9 * np.max(np.abs(k)))
    assert r2 == pytest.approx(r2_of(k, fit), abs=1e-12) and r2 > 1 - 1e-12
    # Continuous time: C exp(A t) B at times off the sampling grid matches the analytic IRF too.
    for t in (0.0, 0.0137, 1.234, 7.77):
        value = (c @ expm(a * t) @ b).item()
        assert value == pytest.approx(irf_of(SECOND, np.array([t]))[0], abs=1e-9)


def test_two_modes_need_order_four_for_a_strict_r2():
    k = irf_of(FOURTH)
    a, b, c, _, fit, order, r2, conv = irf.state_space_fit(k, T, o_max=10, r2_min=0.999999)
    assert (order, conv) == (4, 1)
    assert_poles(a, FOURTH)
    np.testing.assert_allclose(fit, k, rtol=0, atol=1e-9 * np.max(np.abs(k)))


def test_a_small_second_mode_is_left_out_at_bemios_r2():
    # A 2 % second mode: order 2 already gives R^2 >= 0.95 (BEMIO's default threshold), so the order
    # stays 2 and the two poles are close to the dominant pair.
    small = [SECOND[0], (1.5, 3.0, 0.02, 0.0)]
    k = irf_of(small)
    a, _, _, _, fit, order, r2, conv = irf.state_space_fit(k, T, o_max=10, r2_min=0.95)
    assert (order, conv) == (2, 1) and r2 >= 0.95
    assert r2 == pytest.approx(r2_of(k, fit), abs=1e-12)
    np.testing.assert_allclose(np.sort_complex(np.linalg.eigvals(a)), poles_of(SECOND), rtol=0.05)


def test_order_cap_reports_conv_two_and_the_best_fit():
    k = irf_of(FOURTH)
    a, _, _, _, fit, order, r2, conv = irf.state_space_fit(k, T, o_max=3, r2_min=0.999999)
    assert conv == 2 and 2 <= order <= 3 and r2 < 0.999999
    assert a.shape == (order, order)
    assert r2 == pytest.approx(r2_of(k, fit), abs=1e-12)


def test_zero_entry_is_order_zero_and_not_fitted():
    a, b, c, d, fit, order, r2, conv = irf.state_space_fit(np.zeros_like(T), T)
    assert (a, b, c) == (None, None, None)
    assert (order, conv, d) == (0, 0, 0.0)
    assert np.all(fit == 0.0)


def test_state_space_all_pads_to_the_maximum_order():
    o_max = 10
    k = np.zeros((2, 2, len(T)))
    k[0, 0] = irf_of(SECOND)
    k[1, 1] = irf_of(FOURTH)
    k[1, 0] = 1e-12 * irf_of(SECOND)  # numerically zero next to the others (a symmetry): not fitted
    out = irf.state_space_all(k, T, o_max=o_max, r2_min=0.999999)
    assert out["A"].shape == (2, 2, o_max, o_max)
    assert out["B"].shape == (2, 2, o_max, 1) and out["C"].shape == (2, 2, 1, o_max)
    for key in ("D", "it", "r2t", "conv"):
        assert out[key].shape == (2, 2), key
    assert out["K"].shape == k.shape
    np.testing.assert_array_equal(out["it"], [[2, 0], [0, 4]])
    np.testing.assert_array_equal(out["conv"], [[1, 0], [0, 1]])
    np.testing.assert_array_equal(out["D"], np.zeros((2, 2)))
    assert_poles(out["A"][0, 0, :2, :2], SECOND)
    assert_poles(out["A"][1, 1, :4, :4], FOURTH)
    # Beyond each entry's order everything is zero, and unfitted entries are zero throughout.
    assert np.all(out["A"][0, 0, 2:, :] == 0) and np.all(out["A"][0, 0, :, 2:] == 0)
    assert np.all(out["B"][1, 1, 4:] == 0) and np.all(out["C"][1, 1, :, 4:] == 0)
    for i, j in ((0, 1), (1, 0)):
        assert np.all(out["A"][i, j] == 0) and np.all(out["K"][i, j] == 0)
    np.testing.assert_allclose(out["K"][1, 1], k[1, 1], rtol=0, atol=1e-9 * np.max(np.abs(k[1, 1])))
