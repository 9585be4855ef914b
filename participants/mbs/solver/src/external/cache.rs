//! One evaluation per time level: the model is asked only when time advances; a repeated or
//! earlier time gets the output of the last call.

use super::law::{ExternalLaw, ExternalLawError};

/// The last output of a law and the time it was asked at.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimeCache {
    last_time: Option<f64>,
    output: Vec<f64>,
    round_trips: u64,
    hits: u64,
}

impl TimeCache {
    /// An empty cache: the first evaluation asks the law.
    pub fn new() -> Self {
        Self::default()
    }

    /// The output at `t`: from `law` if `t` is later than the last time asked (or nothing was
    /// asked yet), else the cached output (Newton re-evaluations, a time that went back).
    pub fn evaluate(
        &mut self,
        law: &mut dyn ExternalLaw,
        t: f64,
        dt: f64,
        inputs: &[f64],
    ) -> Result<&[f64], ExternalLawError> {
        match self.last_time {
            Some(last) if t <= last => self.hits += 1,
            _ => {
                self.output = law.evaluate(t, dt, inputs)?;
                self.last_time = Some(t);
                self.round_trips += 1;
            }
        }
        Ok(&self.output)
    }

    /// The time of the last call to the law, if any.
    pub fn last_time(&self) -> Option<f64> {
        self.last_time
    }
    /// The last output (empty before the first call).
    pub fn output(&self) -> &[f64] {
        &self.output
    }
    /// Calls that reached the law.
    pub fn round_trips(&self) -> u64 {
        self.round_trips
    }
    /// Calls answered from the cache.
    pub fn hits(&self) -> u64 {
        self.hits
    }
    /// Forgets the last output, so the next evaluation asks the law whatever its time.
    pub fn clear(&mut self) {
        self.last_time = None;
        self.output.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::law::FnLaw;
    use std::sync::{Arc, Mutex};

    #[test]
    fn asks_only_when_time_advances() {
        // `−2 · input 1`, keeping the times it was asked at.
        let calls = Arc::new(Mutex::new(Vec::new()));
        let seen = calls.clone();
        let mut law = FnLaw(move |t: f64, _: f64, i: &[f64]| {
            seen.lock().unwrap().push(t);
            Ok(vec![-2.0 * i[1]])
        });
        let mut c = TimeCache::new();
        assert_eq!(c.evaluate(&mut law, 0.0, 0.1, &[0.0, 1.0]).unwrap(), &[-2.0]);
        // Same time, other inputs (a Newton iteration): the cached output.
        assert_eq!(c.evaluate(&mut law, 0.0, 0.1, &[0.0, 5.0]).unwrap(), &[-2.0]);
        assert_eq!(c.evaluate(&mut law, 0.1, 0.1, &[0.0, 3.0]).unwrap(), &[-6.0]);
        // Backward: cached too.
        assert_eq!(c.evaluate(&mut law, 0.05, 0.1, &[0.0, 9.0]).unwrap(), &[-6.0]);
        assert_eq!(*calls.lock().unwrap(), vec![0.0, 0.1]);
        assert_eq!((c.round_trips(), c.hits()), (2, 2));
        c.clear();
        assert_eq!(c.evaluate(&mut law, 0.05, 0.1, &[0.0, 1.0]).unwrap(), &[-2.0]);
        assert_eq!(calls.lock().unwrap().len(), 3);
    }
}
