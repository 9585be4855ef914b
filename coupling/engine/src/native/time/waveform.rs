//! A datum's time-stamped samples and their interpolation (docs/design/coupling-semantics.md §4): degree 0 is
//! right-continuous piecewise constant, degree ≥ 1 an interpolating B-spline through
//! all samples (degree 1 = piecewise linear), clamped to the sample range.
//!
//! A sample may carry the gradients of its values (preCICE's `Sample::gradients`, for a
//! nearest-neighbor-gradient mapping): they travel with the sample through every change of
//! the waveform, and are sampled in time with degree 0 whatever the values' degree, as
//! libprecice's `Waveform::sampleGradients` does.

use super::bspline::Spline;
use super::tolerance;
use std::cell::RefCell;

/// Samples `(t, values)` with strictly increasing times, each with its gradients.
#[derive(Debug, Clone, Default)]
pub struct Waveform {
    degree: u32,
    samples: Vec<(f64, Vec<f64>)>,
    /// The gradients of each sample (row layout, spatial dimensions per value); empty where a
    /// sample has none. Always as long as `samples`.
    gradients: Vec<Vec<f64>>,
    /// Degree ≥ 2: the spline of the last read, kept while the sample times stay the same.
    spline: RefCell<Option<Spline>>,
    /// Its control points for the current sample values; cleared by every change of samples.
    control: RefCell<Option<Vec<Vec<f64>>>>,
}

/// Two waveforms are equal when their degree, samples and gradients are (the caches do not count).
impl PartialEq for Waveform {
    fn eq(&self, other: &Self) -> bool {
        self.degree == other.degree && self.samples == other.samples && self.gradients == other.gradients
    }
}

impl Waveform {
    /// An empty waveform of `waveform-degree` `degree` (0 constant, 1 linear, ≥ 2 B-spline).
    pub fn new(degree: u32) -> Self {
        Waveform { degree, ..Default::default() }
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
    /// Inserts a sample without gradients in time order; a sample at an existing time (±ε) is overwritten.
    pub fn set(&mut self, t: f64, values: Vec<f64>) {
        self.set_with_gradients(t, values, Vec::new());
    }
    /// Inserts a sample with its `gradients` (empty: none) in time order; a sample at an
    /// existing time (±ε) is overwritten, its gradients too.
    pub fn set_with_gradients(&mut self, t: f64, values: Vec<f64>, gradients: Vec<f64>) {
        self.control.take();
        match self.samples.iter().position(|(s, _)| *s >= t - tolerance(t)) {
            Some(i) if (self.samples[i].0 - t).abs() <= tolerance(t) => {
                self.samples[i] = (t, values);
                self.gradients[i] = gradients;
            }
            Some(i) => {
                self.samples.insert(i, (t, values));
                self.gradients.insert(i, gradients);
            }
            None => {
                self.samples.push((t, values));
                self.gradients.push(gradients);
            }
        }
    }
    /// Replaces all samples (sub-step exchange: the receiver adopts the sender's waveform);
    /// they carry no gradients.
    pub fn replace(&mut self, samples: Vec<(f64, Vec<f64>)>) {
        let n = samples.len();
        self.replace_with_gradients(samples, vec![Vec::new(); n]);
    }
    /// Replaces all samples and their gradients (one entry per sample, empty: none).
    pub fn replace_with_gradients(&mut self, samples: Vec<(f64, Vec<f64>)>, mut gradients: Vec<Vec<f64>>) {
        self.control.take();
        gradients.resize(samples.len(), Vec::new());
        self.samples = samples;
        self.gradients = gradients;
    }
    /// Keeps only the last sample: it becomes the start sample of the next window.
    pub fn move_to_next_window(&mut self) {
        self.control.take();
        if self.samples.len() > 1 {
            let last = self.samples.pop();
            self.samples.clear();
            self.samples.extend(last);
            let last = self.gradients.pop();
            self.gradients.clear();
            self.gradients.extend(last);
        }
    }
    /// Keeps the samples (and their gradients) whose time passes `keep`.
    fn retain_times(&mut self, keep: impl Fn(f64) -> bool) {
        self.control.take();
        let kept: Vec<bool> = self.samples.iter().map(|(s, _)| keep(*s)).collect();
        let mut k = kept.iter();
        self.samples.retain(|_| *k.next().expect("one flag per sample"));
        let mut k = kept.iter();
        self.gradients.retain(|_| *k.next().expect("one flag per sample"));
    }
    /// Drops samples older than `t` (−ε).
    pub fn trim_before(&mut self, t: f64) {
        self.retain_times(|s| s >= t - tolerance(t));
    }
    /// Drops samples newer than `t` (+ε): a repeated implicit window starts again from `t`.
    pub fn trim_after(&mut self, t: f64) {
        self.retain_times(|s| s <= t + tolerance(t));
    }
    /// Samples with time in `[from, to]` (±ε).
    pub fn samples_between(&self, from: f64, to: f64) -> Vec<(f64, Vec<f64>)> {
        self.samples.iter().filter(|(s, _)| *s >= from - tolerance(from) && *s <= to + tolerance(to)).cloned().collect()
    }
    /// The gradients of the samples [`samples_between`](Self::samples_between) returns, in the same order.
    pub fn gradients_between(&self, from: f64, to: f64) -> Vec<Vec<f64>> {
        self.samples
            .iter()
            .zip(&self.gradients)
            .filter(|((s, _), _)| *s >= from - tolerance(from) && *s <= to + tolerance(to))
            .map(|(_, g)| g.clone())
            .collect()
    }
    /// The gradients of every sample, oldest first (empty entries: none).
    pub fn gradients(&self) -> &[Vec<f64>] {
        &self.gradients
    }
    /// The gradients at `t`, sampled with degree 0 (the first sample at or after `t`, the last
    /// one past the end) whatever the waveform's degree; `None` without samples.
    pub fn sample_gradients(&self, t: f64) -> Option<&[f64]> {
        let n = self.samples.len();
        if n == 0 {
            return None;
        }
        let i = self.samples.iter().position(|(s, _)| *s >= t - tolerance(t)).unwrap_or(n - 1);
        Some(&self.gradients[i])
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
        Some(self.spline_at(p, t))
    }

    /// The degree-`p` interpolating B-spline at `t`. Its factorised collocation matrix is kept
    /// while the sample times stay (across the iterations of a window), its control points
    /// while the samples do (across the reads of one iteration).
    fn spline_at(&self, p: usize, t: f64) -> Vec<f64> {
        let mut spline = self.spline.borrow_mut();
        let times = self.samples.iter().map(|(ti, _)| *ti);
        if !spline.as_ref().is_some_and(|s| s.fits(times.clone(), p)) {
            *spline = Some(Spline::new(&times.collect::<Vec<_>>(), p));
            self.control.take();
        }
        let spline = spline.as_ref().expect("built above");
        let mut control = self.control.borrow_mut();
        let control = control.get_or_insert_with(|| spline.control_points(self.samples.iter().map(|(_, v)| &v[..])));
        spline.evaluate(control, t)
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

    /// The spline and its control points are kept between reads; every change of the samples
    /// must reach the next read exactly as a waveform built afresh from them would.
    #[test]
    fn a_kept_spline_follows_every_change_of_the_samples() {
        let fresh = |w: &Waveform, t: f64| {
            let mut c = Waveform::new(w.degree());
            c.replace(w.samples().to_vec());
            c.sample(t).unwrap()
        };
        let mut w = a19(3);
        let check = |w: &Waveform| {
            for t in [0.1, 0.375, 0.6, 0.9, 1.3, 1.9] {
                assert_eq!(w.sample(t).unwrap(), fresh(w, t), "t = {t}, samples {:?}", w.samples());
            }
        };
        check(&w);
        w.set(0.5, vec![2.0]); // same times, a new value (the next iteration of a window)
        check(&w);
        w.trim_after(0.5); // a repeated window: fewer samples, then another time grid
        check(&w);
        w.set(0.8, vec![1.5]);
        w.set(1.0, vec![0.5]);
        check(&w);
        w.move_to_next_window();
        for (t, v) in [(1.25, 1.0), (1.5, 3.0), (2.0, 0.0)] {
            w.set(t, vec![v]);
        }
        check(&w);
        w.trim_before(1.5);
        check(&w);
        w.replace(vec![(0.0, vec![1.0, 2.0]), (0.5, vec![0.0, 1.0]), (1.0, vec![1.0, 0.0])]);
        check(&w);
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
    fn gradients_follow_their_samples_and_are_sampled_with_degree_zero() {
        let mut w = Waveform::new(2);
        for (t, g) in [(0.0, 1.0), (0.5, 2.0), (1.0, 3.0)] {
            w.set_with_gradients(t, vec![t], vec![g, -g]);
        }
        // Degree 0 at or after t, whatever the values' degree (2 here).
        assert_eq!(w.sample_gradients(0.2), Some(&[2.0, -2.0][..]));
        assert_eq!(w.sample_gradients(0.5), Some(&[2.0, -2.0][..]));
        assert_eq!(w.sample_gradients(7.0), Some(&[3.0, -3.0][..]));
        w.set(0.25, vec![0.1]);
        assert_eq!(w.gradients_between(0.0, 0.5), vec![vec![1.0, -1.0], vec![], vec![2.0, -2.0]]);
        w.trim_after(0.5);
        w.trim_before(0.25);
        assert_eq!(w.gradients(), &[vec![], vec![2.0, -2.0]]);
        w.set_with_gradients(0.5, vec![0.7], vec![9.0, 9.0]);
        w.move_to_next_window();
        assert_eq!((w.samples(), w.gradients()), (&[(0.5, vec![0.7])][..], &[vec![9.0, 9.0]][..]));
        w.replace(vec![(1.0, vec![0.0]), (2.0, vec![1.0])]);
        assert_eq!(w.gradients(), &[Vec::<f64>::new(), Vec::new()]);
    }

    #[test]
    fn moving_keeps_the_last_sample() {
        let mut w = a19(1);
        w.move_to_next_window();
        assert_eq!(w.samples(), &[(1.0, vec![0.0])]);
    }
}
