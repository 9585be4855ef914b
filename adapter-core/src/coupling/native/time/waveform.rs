//! A datum's time-stamped samples and their interpolation (docs/design/coupling-semantics.md §4): degree 0 is
//! right-continuous piecewise constant, degree ≥ 1 an interpolating B-spline through
//! all samples (degree 1 = piecewise linear), clamped to the sample range.

use super::tolerance;

/// Samples `(t, values)` with strictly increasing times.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Waveform {
    degree: u32,
    samples: Vec<(f64, Vec<f64>)>,
}

impl Waveform {
    /// An empty waveform of `waveform-degree` `degree` (0 constant, 1 linear, ≥ 2 B-spline).
    pub fn new(degree: u32) -> Self {
        Waveform { degree, samples: Vec::new() }
    }
    /// The interpolation degree it was declared with (the effective one is capped by the sample count).
    pub fn degree(&self) -> u32 {
        self.degree
    }
    /// All samples, oldest first (a read mapping maps them one by one).
    pub fn samples(&self) -> &[(f64, Vec<f64>)] {
        &self.samples
    }
    /// True before the first sample: nothing can be read yet.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }
    /// The newest sample's values.
    pub fn last(&self) -> Option<&(f64, Vec<f64>)> {
        self.samples.last()
    }
    /// Inserts a sample in time order; a sample at an existing time (±ε) is overwritten.
    pub fn set(&mut self, t: f64, values: Vec<f64>) {
        match self.samples.iter().position(|(s, _)| *s >= t - tolerance(t)) {
            Some(i) if (self.samples[i].0 - t).abs() <= tolerance(t) => self.samples[i] = (t, values),
            Some(i) => self.samples.insert(i, (t, values)),
            None => self.samples.push((t, values)),
        }
    }
    /// Replaces all samples (sub-step exchange: the receiver adopts the sender's waveform).
    pub fn replace(&mut self, samples: Vec<(f64, Vec<f64>)>) {
        self.samples = samples;
    }
    /// Keeps only the last sample: it becomes the start sample of the next window.
    pub fn move_to_next_window(&mut self) {
        if self.samples.len() > 1 {
            let last = self.samples.pop();
            self.samples.clear();
            self.samples.extend(last);
        }
    }
    /// Drops samples older than `t` (−ε).
    pub fn trim_before(&mut self, t: f64) {
        self.samples.retain(|(s, _)| *s >= t - tolerance(t));
    }
    /// Drops samples newer than `t` (+ε): a repeated implicit window starts again from `t`.
    pub fn trim_after(&mut self, t: f64) {
        self.samples.retain(|(s, _)| *s <= t + tolerance(t));
    }
    /// Samples with time in `[from, to]` (±ε).
    pub fn samples_between(&self, from: f64, to: f64) -> Vec<(f64, Vec<f64>)> {
        self.samples.iter().filter(|(s, _)| *s >= from - tolerance(from) && *s <= to + tolerance(to)).cloned().collect()
    }

    /// The interpolated values at `t`; `None` without samples.
    pub fn sample(&self, t: f64) -> Option<Vec<f64>> {
        let n = self.samples.len();
        if n == 0 {
            return None;
        }
        if n == 1 {
            return Some(self.samples[0].1.clone());
        }
        let p = (self.degree as usize).min(n - 1);
        if p == 0 {
            let i = self.samples.iter().position(|(s, _)| *s >= t - tolerance(t)).unwrap_or(n - 1);
            return Some(self.samples[i].1.clone());
        }
        if let Some((_, v)) = self.samples.iter().find(|(s, _)| (s - t).abs() <= tolerance(t)) {
            return Some(v.clone());
        }
        if p == 1 {
            return Some(self.linear(t));
        }
        Some(bspline::interpolate(&self.samples, p, t))
    }

    fn linear(&self, t: f64) -> Vec<f64> {
        let s = &self.samples;
        let n = s.len();
        if t <= s[0].0 {
            return s[0].1.clone();
        }
        if t >= s[n - 1].0 {
            return s[n - 1].1.clone();
        }
        let i = s.iter().position(|(ti, _)| *ti > t).unwrap_or(n - 1);
        let (t0, v0) = &s[i - 1];
        let (t1, v1) = &s[i];
        let w = (t - t0) / (t1 - t0);
        v0.iter().zip(v1).map(|(a, b)| a + w * (b - a)).collect()
    }
}

/// Interpolating B-splines with knot averaging, as preCICE builds them (coupling-semantics.md §4.3).
mod bspline {
    /// Evaluates the degree-`p` B-spline interpolating `samples` at `t` (clamped).
    pub fn interpolate(samples: &[(f64, Vec<f64>)], p: usize, t: f64) -> Vec<f64> {
        let n = samples.len();
        let t0 = samples[0].0;
        let span = samples[n - 1].0 - t0;
        let u: Vec<f64> = samples.iter().map(|(ti, _)| (ti - t0) / span).collect();
        let knots = knot_averaging(&u, p);
        // Collocation matrix N(u_i)_j, solved for each component.
        let mut a = vec![vec![0.0; n]; n];
        for (i, ui) in u.iter().enumerate() {
            for (j, aij) in a[i].iter_mut().enumerate() {
                *aij = basis(&knots, j, p, *ui);
            }
        }
        let x = ((t - t0) / span).clamp(0.0, 1.0);
        let weights: Vec<f64> = (0..n).map(|j| basis(&knots, j, p, x)).collect();
        let dim = samples[0].1.len();
        let lu = Lu::new(a);
        (0..dim)
            .map(|c| {
                let rhs: Vec<f64> = samples.iter().map(|(_, v)| v[c]).collect();
                let ctrl = lu.solve(rhs);
                ctrl.iter().zip(&weights).map(|(c, w)| c * w).sum()
            })
            .collect()
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a19(degree: u32) -> Waveform {
        let mut w = Waveform::new(degree);
        for (t, v) in [(0.0, 0.0), (0.25, 1.0), (0.5, 0.0), (0.75, 1.0), (1.0, 0.0)] {
            w.set(t, vec![v]);
        }
        w
    }

    #[test]
    fn scenario_a19_bspline_values() {
        let table = [(1, [0.5, 0.5, 0.4, 0.4]), (2, [0.85, 0.45, 0.288, 0.736]), (3, [1.125, 0.375, 0.256, 1.024])];
        for (deg, expect) in table {
            let w = a19(deg);
            for (t, e) in [0.125, 0.375, 0.6, 0.9].iter().zip(expect) {
                let v = w.sample(*t).unwrap()[0];
                assert!((v - e).abs() < 1e-12, "degree {deg} t {t}: {v} vs {e}");
            }
        }
    }

    #[test]
    fn degree_two_reproduces_a_parabola() {
        let mut w = Waveform::new(2);
        for t in [0.0, 0.5, 1.0] {
            w.set(t, vec![t * t]);
        }
        assert!((w.sample(0.25).unwrap()[0] - 0.0625).abs() < 1e-12);
    }

    #[test]
    fn degree_zero_is_right_continuous() {
        let mut w = Waveform::new(0);
        w.set(0.0, vec![1.0]);
        w.set(1.0, vec![2.0]);
        assert_eq!(w.sample(0.0).unwrap(), vec![1.0]);
        assert_eq!(w.sample(0.3).unwrap(), vec![2.0]);
    }

    #[test]
    fn moving_keeps_the_last_sample() {
        let mut w = a19(1);
        w.move_to_next_window();
        assert_eq!(w.samples(), &[(1.0, vec![0.0])]);
    }
}
