//! Windows an implicit scheme accepted only because `max-iterations` was reached (preCICE writes
//! `Convergence 0` into the iterations log and goes on). So that such a run does not pass
//! silently: a throttled warning per window and a summary at finalize. `strict="true"` on a
//! measure makes it an error instead (docs/design/coupling-semantics.md §11.2).

use std::collections::BTreeMap;

/// Warned about individually: the first this many unconverged windows, then every `EVERY`-th.
const FIRST: usize = 5;
/// After the first [`FIRST`], every this-many-th unconverged window is warned about.
const EVERY: usize = 100;
/// The summary lists at most this many ranges of window numbers.
const RANGES_SHOWN: usize = 20;

/// The unconverged windows of one scheme on its measuring participant.
#[derive(Debug, Default)]
pub struct Unconverged {
    scheme: String,
    windows: Vec<u64>,
    /// Unmet measure (with its limit) → in how many windows.
    measures: BTreeMap<String, usize>,
    accepted: u64,
}

impl Unconverged {
    /// For the scheme described as `scheme` ("<coupling-scheme:…> at file:line").
    pub fn new(scheme: &str) -> Unconverged {
        Unconverged { scheme: scheme.to_string(), ..Unconverged::default() }
    }

    /// Counts one accepted window (converged or not), for the summary's "N of M".
    pub fn count_accepted(&mut self) {
        self.accepted += 1;
    }

    /// Window `window` (ending at `end`) is accepted unconverged after `iterations`; `unmet`
    /// holds (measure with its limit, its residual against the limit). Warns unless throttled.
    pub fn record(&mut self, window: u64, end: f64, iterations: u32, unmet: &[(String, String)]) {
        self.windows.push(window);
        for (m, _) in unmet {
            *self.measures.entry(m.clone()).or_default() += 1;
        }
        let n = self.windows.len();
        if n > FIRST && !n.is_multiple_of(EVERY) {
            return;
        }
        let details: Vec<&str> = unmet.iter().map(|(_, d)| d.as_str()).collect();
        let throttle = match n {
            _ if n < FIRST => String::new(),
            FIRST => {
                format!(" Further unconverged windows are reported every {EVERY}th; a summary follows at finalize.")
            }
            _ => format!(" ({n} unconverged windows so far.)"),
        };
        log::warn!(
            "Time window {window} (ending at t = {end}) of the {} did not converge within max-iterations ({iterations} \
             iterations): {}. Its results are accepted as they are (mark the measure strict=\"true\" to stop the run \
             instead).{throttle}",
            self.scheme,
            details.join("; ")
        );
    }

    /// The finalize summary; `None` when every window converged.
    pub fn summary(&self) -> Option<String> {
        if self.windows.is_empty() {
            return None;
        }
        let measures: Vec<String> = self.measures.iter().map(|(m, n)| format!("{m} in {n}")).collect();
        Some(format!(
            "{} of {} time windows of the {} ended unconverged at max-iterations: windows {}; unmet measures: {}. \
             Raise max-iterations or loosen the limits, or mark a measure strict=\"true\" to make this an error.",
            self.windows.len(),
            self.accepted.max(self.windows.len() as u64),
            self.scheme,
            ranges(&self.windows),
            measures.join(", ")
        ))
    }
}

/// `1–3, 7, 9–10` for ascending numbers; at most [`RANGES_SHOWN`] ranges, then how many more.
fn ranges(numbers: &[u64]) -> String {
    let mut spans: Vec<(u64, u64)> = Vec::new();
    for &n in numbers {
        match spans.last_mut() {
            Some((_, hi)) if *hi + 1 == n => *hi = n,
            _ => spans.push((n, n)),
        }
    }
    let text = |&(lo, hi): &(u64, u64)| if lo == hi { lo.to_string() } else { format!("{lo}\u{2013}{hi}") };
    let mut shown: Vec<String> = spans.iter().take(RANGES_SHOWN).map(text).collect();
    if spans.len() > RANGES_SHOWN {
        shown.push(format!("and {} more ranges", spans.len() - RANGES_SHOWN));
    }
    shown.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_numbers_are_listed_as_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1\u{2013}3, 7, 9\u{2013}10");
        assert_eq!(ranges(&[4]), "4");
        let every_other: Vec<u64> = (1..=50).map(|k| 2 * k).collect();
        let text = ranges(&every_other);
        assert!(text.ends_with("40, and 30 more ranges"), "{text}");
    }

    #[test]
    fn summary_counts_windows_and_measures() {
        let mut u = Unconverged::new("S");
        assert_eq!(u.summary(), None, "nothing unconverged: no summary");
        for w in 1..=4 {
            u.count_accepted();
            if w != 3 {
                u.record(w, w as f64, 2, &[("m (limit 1e-300)".into(), "m: 1 > 1e-300".into())]);
            }
        }
        let s = u.summary().unwrap();
        assert!(s.starts_with("3 of 4 time windows of the S ended unconverged"), "{s}");
        assert!(s.contains("windows 1\u{2013}2, 4; unmet measures: m (limit 1e-300) in 3."), "{s}");
        assert_eq!(u.windows, [1, 2, 4]);
    }
}
