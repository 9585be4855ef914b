//! Interpolating B-splines with knot averaging, as preCICE builds them
//! (docs/design/coupling-semantics.md §4.3). A [`Spline`] depends on the sample times only, so
//! a waveform keeps it while its values change (every iteration of an implicit window) and
//! rebuilds it only when its time grid does.

/// The knots and the factorised collocation matrix of one sample grid and degree.
#[derive(Debug, Clone)]
pub(super) struct Spline {
    /// The absolute sample times it was built for.
    times: Vec<f64>,
    degree: usize,
    knots: Vec<f64>,
    lu: Lu,
}

impl Spline {
    /// The degree-`p` spline through samples at `times` (at least `p + 1` of them, increasing).
    pub(super) fn new(times: &[f64], p: usize) -> Spline {
        let u = normalised(times);
        let knots = knot_averaging(&u, p);
        let n = u.len();
        // Collocation matrix N_j(u_i).
        let a = (0..n).map(|i| (0..n).map(|j| basis(&knots, j, p, u[i])).collect()).collect();
        Spline { times: times.to_vec(), degree: p, knots, lu: Lu::new(a) }
    }

    /// Built for exactly these times and this degree.
    pub(super) fn fits(&self, times: impl ExactSizeIterator<Item = f64>, p: usize) -> bool {
        self.degree == p && times.len() == self.times.len() && times.zip(&self.times).all(|(a, b)| a == *b)
    }

    /// The control points of each component (`values[i]` is the sample at `times[i]`).
    pub(super) fn control_points<'a>(&self, values: impl Iterator<Item = &'a [f64]> + Clone) -> Vec<Vec<f64>> {
        let dim = values.clone().next().map_or(0, <[f64]>::len);
        (0..dim).map(|c| self.lu.solve(values.clone().map(|v| v[c]).collect())).collect()
    }

    /// The spline with `control` points (one list per component) at `t`, clamped to the grid.
    pub(super) fn evaluate(&self, control: &[Vec<f64>], t: f64) -> Vec<f64> {
        let (t0, t1) = (self.times[0], self.times[self.times.len() - 1]);
        let x = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
        let weights: Vec<f64> = (0..self.times.len()).map(|j| basis(&self.knots, j, self.degree, x)).collect();
        control.iter().map(|ctrl| ctrl.iter().zip(&weights).map(|(c, w)| c * w).sum()).collect()
    }
}

/// Sample times mapped onto [0, 1].
fn normalised(times: &[f64]) -> Vec<f64> {
    let t0 = times[0];
    let span = times[times.len() - 1] - t0;
    times.iter().map(|ti| (ti - t0) / span).collect()
}

fn knot_averaging(u: &[f64], p: usize) -> Vec<f64> {
    let n = u.len();
    let mut k = vec![0.0; p + 1];
    for j in 1..n - p {
        k.push(u[j..j + p].iter().sum::<f64>() / p as f64);
    }
    k.extend(std::iter::repeat_n(1.0, p + 1));
    k
}

/// Cox–de Boor recursion; the last basis function is 1 at u = 1.
fn basis(k: &[f64], j: usize, p: usize, u: f64) -> f64 {
    if p == 0 {
        if u >= 1.0 {
            // Closed last span: the last non-empty knot interval owns u = 1.
            let last = (0..k.len() - 1).rev().find(|&i| k[i] < k[i + 1]);
            return if last == Some(j) { 1.0 } else { 0.0 };
        }
        return if k[j] <= u && u < k[j + 1] { 1.0 } else { 0.0 };
    }
    let mut v = 0.0;
    let d1 = k[j + p] - k[j];
    if d1 > 0.0 {
        v += (u - k[j]) / d1 * basis(k, j, p - 1, u);
    }
    let d2 = k[j + p + 1] - k[j + 1];
    if d2 > 0.0 {
        v += (k[j + p + 1] - u) / d2 * basis(k, j + 1, p - 1, u);
    }
    v
}

/// Dense LU with partial pivoting (the systems are tiny: one row per sample).
#[derive(Debug, Clone)]
struct Lu {
    a: Vec<Vec<f64>>,
    perm: Vec<usize>,
}

impl Lu {
    fn new(mut a: Vec<Vec<f64>>) -> Self {
        let n = a.len();
        let mut perm: Vec<usize> = (0..n).collect();
        for c in 0..n {
            let piv = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs())).unwrap_or(c);
            a.swap(c, piv);
            perm.swap(c, piv);
            let d = a[c][c];
            if d == 0.0 {
                continue;
            }
            for r in c + 1..n {
                let (upper, lower) = a.split_at_mut(r);
                let (pivot, row) = (&upper[c], &mut lower[0]);
                let f = row[c] / d;
                row[c] = f;
                for (x, p) in row[c + 1..].iter_mut().zip(&pivot[c + 1..]) {
                    *x -= f * p;
                }
            }
        }
        Lu { a, perm }
    }

    fn solve(&self, b: Vec<f64>) -> Vec<f64> {
        let n = self.a.len();
        let mut y: Vec<f64> = self.perm.iter().map(|&p| b[p]).collect();
        for r in 0..n {
            for k in 0..r {
                y[r] -= self.a[r][k] * y[k];
            }
        }
        for r in (0..n).rev() {
            for k in r + 1..n {
                y[r] -= self.a[r][k] * y[k];
            }
            y[r] /= self.a[r][r];
        }
        y
    }
}
