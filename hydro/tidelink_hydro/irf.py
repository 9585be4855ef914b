"""Impulse response functions and state-space fits, following WEC-Sim BEMIO's recipes.

All inputs are BEMIO-normalised (B/(rho w), X/(rho g)), so the outputs are too:

* radiation IRF  K(t) = (2/pi) int B(w) w cos(w t) dw, t in [0, t_end]   (radiationIRF)
* excitation IRF f(t) = (1/pi) int (Re X cos(w t) - Im X sin(w t)) dw, t in [-t_end, t_end]   (excitationIRF)

both by the trapezoidal rule on B or X linearly interpolated onto a uniform grid of `nw` frequencies
between the first and last BEM frequency.

The state-space fit is our own (not BEMIO's code): per DOF pair, Kung's Hankel-SVD realisation of the
sampled K(t), order raised from 2 until R^2 >= r2_min or o_max, converted to continuous time with the
matrix logarithm, so K_ss(t) = C exp(A t) B and D = 0. Only stable realisations are kept (every
eigenvalue of the discrete A inside the unit circle, so the continuous A's are in the left half plane).
The defaults (order <= 24, R^2 >= 0.99999) and the quality measure are those of the TDPF's own
identification (participants/tdpf/solver/src/radiation/identify.rs): for an off-diagonal entry the
squared error is divided by max(its own variance, 1e-6 sqrt(S_ii S_jj)), S the diagonal entries' sums of
squares, so that BEM noise in an entry that symmetry makes zero is judged at the scale at which it could
enter the force, not against its own tiny variance.
"""

import numpy as np
from scipy.linalg import expm, logm


def uniform_grid(w, nw):
    """`nw` frequencies evenly spaced over the BEM band, as BEMIO interpolates."""
    return np.linspace(w[0], w[-1], nw)


def _trapezoid_weights(x):
    """Weights q with sum(q * f) = the trapezoidal rule of f over x."""
    q = np.zeros_like(x)
    d = np.diff(x)
    q[:-1] += d / 2
    q[1:] += d / 2
    return q


def _interp_last_axis(w, values, wi):
    """Linear interpolation of values[..., f] from w onto wi."""
    flat = values.reshape(-1, values.shape[-1])
    return np.array([np.interp(wi, w, row) for row in flat]).reshape(values.shape[:-1] + (len(wi),))


def radiation_irf(w, b_norm, t_end=60.0, nt=1001, nw=1001):
    """K(t) (rows x cols x nt), t (nt,), the interpolated w (nw,), from B/(rho w) of shape (rows, cols, nf)."""
    t = np.linspace(0.0, t_end, nt)
    wi = uniform_grid(w, nw)
    bw = _interp_last_axis(w, b_norm, wi) * wi  # = B / rho
    k = (2.0 / np.pi) * (bw * _trapezoid_weights(wi)) @ np.cos(np.outer(wi, t))
    return k, t, wi


def excitation_irf(w, re, im, t_end=157.0, nt=1001, nw=1001):
    """f(t) (rows x nh x nt), t (nt,), the interpolated w (nw,), from X/(rho g) parts (rows, nh, nf)."""
    t = np.linspace(-t_end, t_end, nt)
    wi = uniform_grid(w, nw)
    rei, imi = _interp_last_axis(w, re, wi), _interp_last_axis(w, im, wi)
    wt, q = np.outer(wi, t), _trapezoid_weights(wi)
    f = (1.0 / np.pi) * ((rei * q) @ np.cos(wt) - (imi * q) @ np.sin(wt))
    return f, t, wi


def _r2(k, fit, scale=0.0):
    ss_tot = max(np.sum((k - k.mean()) ** 2), scale)
    return 1.0 - np.sum((k - fit) ** 2) / ss_tot if ss_tot > 0 else 1.0


def _realise(u, s, vt, order, k, dt):
    """Continuous (A, B, C) of `order` from the SVD of the Hankel matrix of k[0], k[1], ... (Kung)."""
    sq = np.sqrt(s[:order])
    obs = u[:, :order] * sq  # observability matrix, rows C Ad^i
    ctr = (vt[:order, :].T * sq).T  # controllability matrix, columns Ad^j B
    ad = np.linalg.lstsq(obs[:-1], obs[1:], rcond=None)[0]
    if np.max(np.abs(np.linalg.eigvals(ad))) >= 1.0:
        return None  # unstable at this order: not a realisation of a decaying IRF
    c = obs[:1, :]
    b = ctr[:, :1]
    a = logm(ad) / dt
    if np.max(np.abs(np.imag(a))) > 1e-8 * max(1.0, np.max(np.abs(a))):
        return None  # a negative real eigenvalue of Ad: no real continuous equivalent at this order
    return np.real(a), b, c


def state_space_fit(k, t, o_max=24, r2_min=0.99999, hankel=200, scale=0.0):
    """The fit of one IRF entry: (A, B, C, D, K_ss, order, R^2, conv).

    `scale` floors the denominator of R^2 (the noise scale of an off-diagonal entry, see the module docs).

    conv is 1 when R^2 >= r2_min was reached, 2 when o_max was hit first (BEMIO's codes), and 0 for an
    entry that is zero (order 0, nothing fitted).
    """
    nt = len(t)
    if not np.any(np.abs(k) > 0):
        return None, None, None, 0.0, np.zeros(nt), 0, 1.0, 0
    dt = t[1] - t[0]
    m = min(hankel, (nt - 1) // 2)
    h = np.array([k[i : i + m] for i in range(m)])
    u, s, vt = np.linalg.svd(h)
    best = None
    for order in range(2, o_max + 1):
        abc = _realise(u, s, vt, order, k, dt)
        if abc is None:
            continue
        a, b, c = abc
        fit = _impulse(a, b, c, t)
        r2 = _r2(k, fit, scale)
        if best is None or r2 > best[6]:
            best = (a, b, c, 0.0, fit, order, r2, 1 if r2 >= r2_min else 2)
        if r2 >= r2_min:
            return a, b, c, 0.0, fit, order, r2, 1
    if best is None:
        return None, None, None, 0.0, np.zeros(nt), 0, 0.0, 2
    return best[:7] + (2,)


def _impulse(a, b, c, t):
    """C exp(A t) B on a uniform t, by powers of exp(A dt)."""
    step = expm(a * (t[1] - t[0]))
    x = expm(a * t[0]) @ b
    out = np.empty(len(t))
    for i in range(len(t)):
        out[i] = (c @ x).item()
        x = step @ x
    return out


def state_space_all(k, t, o_max=24, r2_min=0.99999):
    """Fits of every entry of K (rows x cols x nt), zero-padded to o_max as BEMIO stores them."""
    rows, cols, nt = k.shape
    out = {
        "A": np.zeros((rows, cols, o_max, o_max)),
        "B": np.zeros((rows, cols, o_max, 1)),
        "C": np.zeros((rows, cols, 1, o_max)),
        "D": np.zeros((rows, cols)),
        "K": np.zeros((rows, cols, nt)),
        "it": np.zeros((rows, cols)),
        "r2t": np.zeros((rows, cols)),
        "conv": np.zeros((rows, cols)),
    }
    scale = np.max(np.abs(k)) if k.size else 0.0
    diag = [np.sum(k[i, i] ** 2) if i < cols else 0.0 for i in range(rows)]
    for i in range(rows):
        for j in range(cols):
            kij = k[i, j]
            if scale == 0.0 or np.max(np.abs(kij)) < 1e-9 * scale:
                kij = np.zeros_like(kij)  # numerically zero (a symmetry): not fitted
            elif i != j and j < rows and np.max(np.abs(kij)) <= 1e-3 * np.sqrt(
                    np.max(np.abs(k[i, i])) * np.max(np.abs(k[j, j]))):
                kij = np.zeros_like(kij)  # BEM noise in a symmetry zero: left out, as the TDPF does
            noise = 1e-6 * np.sqrt(diag[i] * diag[j]) if i != j and j < rows else 0.0
            a, b, c, d, fit, order, r2, conv = state_space_fit(kij, t, o_max, r2_min, scale=noise)
            if order:
                out["A"][i, j, :order, :order] = a
                out["B"][i, j, :order, :] = b
                out["C"][i, j, :, :order] = c
            out["D"][i, j], out["K"][i, j], out["it"][i, j] = d, fit, order
            out["r2t"][i, j], out["conv"][i, j] = r2, conv
    return out
