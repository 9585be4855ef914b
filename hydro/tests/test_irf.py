"""Radiation and excitation impulse response functions against closed-form cosine/sine transforms.

The IRFs are trapezoidal sums over a uniform grid (BEMIO's recipe, irf.py).  Two kinds of cases:

* Gaussian-type spectra, with the BEM grid equal to the uniform grid (so the interpolation is exact):
  the integrands are even in w, so every odd derivative vanishes at w = 0, and at the end of the band
  (w = 8) they are below exp(-64).  By the Euler-Maclaurin formula the trapezoidal error is then only
  the aliasing term, of the order of the transform at 2 pi / h = 785 rad/s away, i.e. nothing: the
  sums equal the integrals to rounding, and 1e-12 of the peak is a safe tolerance.
* A damping linear in w on a coarse, non-uniform BEM grid: linear interpolation reproduces it exactly,
  and the band is finite, so the reference is the closed-form truncated integral and the tolerance the
  classical trapezoidal bound (b - a) h^2 / 12 max |F''| with F'' bounded analytically.
"""

import math

import numpy as np
import pytest

from tidelink_hydro import irf

SQRT_PI = math.sqrt(math.pi)
W_GAUSS = np.linspace(0.0, 8.0, 1001)  # BEM frequencies = BEMIO's uniform grid of 1001 points


def test_uniform_grid_spans_the_bem_band():
    w = np.array([0.3, 0.5, 1.7, 2.0])
    wi = irf.uniform_grid(w, 11)
    assert wi[0] == 0.3 and wi[-1] == 2.0 and len(wi) == 11
    np.testing.assert_allclose(np.diff(wi), 0.17, rtol=1e-12)


def test_radiation_irf_of_a_gaussian_damping():
    # B(w) / rho = w^2 exp(-w^2), i.e. BEMIO's normalised B / (rho w) = w exp(-w^2).  Then
    # K(t) = (2/pi) int_0^inf w^2 exp(-w^2) cos(w t) dw = -(2/pi) d^2/dt^2 [(sqrt(pi)/2) exp(-t^2/4)]
    #      = (1/sqrt(pi)) (1/2 - t^2/4) exp(-t^2/4).
    b_norm = np.zeros((2, 3, len(W_GAUSS)))
    b_norm[1, 2] = W_GAUSS * np.exp(-(W_GAUSS**2))
    b_norm[0, 0] = 2.0 * b_norm[1, 2]  # linearity: twice the damping, twice the IRF
    k, t, wi = irf.radiation_irf(W_GAUSS, b_norm, t_end=12.0, nt=241)
    assert k.shape == (2, 3, 241) and t.shape == (241,) and wi.shape == (1001,)
    np.testing.assert_allclose(t, np.linspace(0.0, 12.0, 241), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(wi, W_GAUSS)
    exact = (0.5 - t**2 / 4) * np.exp(-(t**2) / 4) / SQRT_PI
    peak = exact[0]  # 1 / (2 sqrt(pi))
    np.testing.assert_allclose(k[1, 2], exact, rtol=0, atol=1e-12 * peak)
    np.testing.assert_allclose(k[0, 0], 2.0 * exact, rtol=0, atol=2e-12 * peak)
    assert np.all(k[0, 1:] == 0.0) and np.all(k[1, :2] == 0.0)
    # K(0) = (2/pi) int B / rho dw: the zero crossing of (1/2 - t^2/4) is at t = sqrt(2).
    assert np.all(k[1, 2][t < math.sqrt(2) - 0.05] > 0) and np.all(k[1, 2][(t > 1.5) & (t < 6)] < 0)


def test_radiation_irf_of_a_linear_damping_on_a_coarse_irregular_grid():
    # B / (rho w) = w on 0 .. W (B / rho = w^2), BEM frequencies irregular: interpolation is exact.
    big_w = 2.0
    w = np.array([0.0, 0.15, 0.4, 0.45, 1.1, 1.6, 2.0])
    nw = 1001
    k, t, wi = irf.radiation_irf(w, w[None, None, :], t_end=5.0, nt=51, nw=nw)

    def truncated(tt):
        """(2/pi) int_0^W w^2 cos(w t) dw in closed form (and W^3 / 3 at t = 0)."""
        if tt == 0.0:
            return 2 / math.pi * big_w**3 / 3
        s, c = math.sin(big_w * tt), math.cos(big_w * tt)
        return 2 / math.pi * (big_w**2 * s / tt + 2 * big_w * c / tt**2 - 2 * s / tt**3)

    exact = np.array([truncated(x) for x in t])
    # F(w) = w^2 cos(w t): |F''| = |2 cos - 4 w t sin - w^2 t^2 cos| <= 2 + 4 W t + W^2 t^2.
    h = big_w / (nw - 1)
    bound = 2 / math.pi * big_w * h**2 / 12 * (2 + 4 * big_w * t + big_w**2 * t**2)
    err = np.abs(k[0, 0] - exact)
    assert np.all(err <= bound + 1e-13), np.max(err / bound)


def test_excitation_irf_of_a_delayed_gaussian():
    # X(w) / (rho g) = exp(-w^2) exp(-i w tau) (BEMIO's exp(+i w t) convention: a pulse delayed by tau).
    # f(t) = (1/pi) int_0^inf (Re X cos wt - Im X sin wt) dw = (1/pi) int_0^inf exp(-w^2) cos(w (t - tau)) dw
    #      = exp(-(t - tau)^2 / 4) / (2 sqrt(pi)).
    tau = 3.0
    x = np.exp(-(W_GAUSS**2)) * np.exp(-1j * W_GAUSS * tau)
    re = np.stack([x.real, -x.real])[:, None, :]  # (2 rows, 1 heading, nf); the second row negated
    im = np.stack([x.imag, -x.imag])[:, None, :]
    f, t, wi = irf.excitation_irf(W_GAUSS, re, im, t_end=20.0, nt=401)
    assert f.shape == (2, 1, 401)
    np.testing.assert_allclose(t, np.linspace(-20.0, 20.0, 401), rtol=0, atol=1e-14)
    exact = np.exp(-((t - tau) ** 2) / 4) / (2 * SQRT_PI)
    peak = 1 / (2 * SQRT_PI)
    np.testing.assert_allclose(f[0, 0], exact, rtol=0, atol=1e-12 * peak)
    np.testing.assert_allclose(f[1, 0], -exact, rtol=0, atol=1e-12 * peak)
    assert t[np.argmax(f[0, 0])] == pytest.approx(tau)  # the sign of Im X decides the direction of the delay
