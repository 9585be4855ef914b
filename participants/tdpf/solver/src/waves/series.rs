//! A measured (or otherwise imported) elevation record at the origin, as WEC-Sim's
//! `elevationImport` wave type takes it: samples η(t_i), read between them linearly, and zero
//! outside the record, so the non-causal excitation convolution sees still water there.

use super::elevation::Elevation;
use super::error::WaveError;

/// η(0, t) sampled at strictly increasing times; linear in between, 0 before the first and after
/// the last sample (WEC-Sim pads the record with zeros in its convolution the same way).
#[derive(Debug, Clone, PartialEq)]
pub struct ElevationSeries {
    times: Vec<f64>,
    values: Vec<f64>,
}

impl ElevationSeries {
    /// Checks that there are at least two samples, as many times as values, all finite, and the
    /// times strictly increasing; an error names the first offending sample (0-based).
    pub fn new(times: Vec<f64>, values: Vec<f64>) -> Result<Self, WaveError> {
        let bad = |index: usize, reason: &'static str| Err(WaveError::Series { index, reason });
        if times.len() != values.len() {
            return bad(times.len().min(values.len()), "as many times as elevations are needed");
        }
        if times.len() < 2 {
            return bad(times.len(), "an elevation record needs at least two samples");
        }
        for (i, (t, v)) in times.iter().zip(&values).enumerate() {
            if !t.is_finite() || !v.is_finite() {
                return bad(i, "time and elevation must be finite");
            }
            if i > 0 && *t <= times[i - 1] {
                return bad(i, "times must increase strictly");
            }
        }
        Ok(ElevationSeries { times, values })
    }

    /// The record's first and last time (s).
    pub fn span(&self) -> (f64, f64) {
        (self.times[0], self.times[self.times.len() - 1])
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Never true: a series holds at least two samples.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }
}

impl Elevation for ElevationSeries {
    fn elevation(&self, t: f64) -> f64 {
        let (first, last) = self.span();
        if !(t >= first && t <= last) {
            return 0.0;
        }
        // First sample strictly after t (≥ 1 since t ≥ times[0]); t == last falls on the last pair.
        let hi = self.times.partition_point(|&x| x <= t).min(self.times.len() - 1);
        let lo = hi - 1;
        let w = (t - self.times[lo]) / (self.times[hi] - self.times[lo]);
        (1.0 - w) * self.values[lo] + w * self.values[hi]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_between_samples_and_zero_outside() {
        let s = ElevationSeries::new(vec![0.0, 1.0, 3.0], vec![1.0, 3.0, -1.0]).unwrap();
        assert_eq!(s.elevation(-0.1), 0.0);
        assert_eq!(s.elevation(3.1), 0.0);
        assert_eq!(s.elevation(0.0), 1.0);
        assert_eq!(s.elevation(0.5), 2.0);
        assert_eq!(s.elevation(1.0), 3.0);
        assert_eq!(s.elevation(2.0), 1.0);
        assert_eq!(s.elevation(3.0), -1.0);
        assert_eq!(s.elevation(f64::NAN), 0.0);
        assert_eq!((s.span(), s.len()), ((0.0, 3.0), 3));
    }

    #[test]
    fn rejects_bad_records() {
        let err = |t: Vec<f64>, v: Vec<f64>| ElevationSeries::new(t, v).unwrap_err();
        assert!(matches!(err(vec![0.0], vec![1.0]), WaveError::Series { index: 1, .. }));
        assert!(matches!(err(vec![0.0, 1.0], vec![1.0]), WaveError::Series { index: 1, .. }));
        assert!(matches!(err(vec![0.0, 1.0, 1.0], vec![0.0; 3]), WaveError::Series { index: 2, .. }));
        assert!(matches!(err(vec![0.0, 1.0], vec![0.0, f64::INFINITY]), WaveError::Series { index: 1, .. }));
    }
}
