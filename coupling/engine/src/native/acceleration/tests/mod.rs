//! Unit tests of the acceleration methods, driven the way an implicit scheme drives them:
//! `perform` after every unconverged iteration, `converged` once per accepted window.
//! Expected values are computed by hand (in the comments) or from the analytic fixed point.

mod config;
mod filter;
mod ils;
mod imvj;
mod layout;
mod preconditioner;
mod relaxation;

use super::{AccData, Acceleration};
use crate::Result;
use tidelink_precice_config::diagnostics::Location;
use tidelink_precice_config::{AccelerationDecl, AccelerationKind, DataKey};

/// The location every hand-built declaration claims.
fn loc() -> Location {
    Location::new("case/precice.xml", 7)
}

/// A declaration of `kind` with one primary datum per name in `primary` (mesh "M").
fn decl(kind: &str, primary: &[&str]) -> AccelerationDecl {
    let mut d = AccelerationDecl::new(AccelerationKind::from_tag(kind).expect("a known kind"), loc());
    for p in primary {
        d.data.push(DataKey::new("M", *p));
        d.scaling.push(None);
    }
    d
}

/// One datum on mesh "M".
fn datum(name: &str, primary: bool, size: usize, times: &[f64], values: &[f64], old: &[f64]) -> AccData {
    AccData {
        key: DataKey::new("M", name),
        primary,
        size,
        times: times.to_vec(),
        values: values.to_vec(),
        old: old.to_vec(),
        gradient_size: 0,
        gradients: vec![],
        old_gradients: vec![],
    }
}

/// Data blocks of a fixed-point problem: (name, primary, values per sample, samples).
type Spec = [(&'static str, bool, usize, usize)];

/// One iteration as the scheme records it: what was sent (x) and what came back (x̃).
#[derive(Debug, Clone)]
struct Iterate {
    x: Vec<f64>,
    xt: Vec<f64>,
}

/// What one window of [`run_window`] did.
#[derive(Debug, Clone)]
struct Window {
    /// Iterations including the converged one.
    iterations: usize,
    /// The accepted values.
    result: Vec<f64>,
    /// Every iteration's x and x̃.
    trace: Vec<Iterate>,
}

/// Iterates x ← H(x) on the window (t_end − 1, t_end] like an implicit scheme with `acc`:
/// `start` (all blocks concatenated, sample-major) is the window-start value repeated over
/// the samples in the first iteration; converged when ‖x̃ − x‖ ≤ tol·‖x̃‖, as preCICE's
/// relative measure (a negative `tol` never converges); at most `max` iterations (then forced).
fn run_window(
    acc: &mut dyn Acceleration,
    spec: &Spec,
    t_end: f64,
    start: &[f64],
    h: &dyn Fn(&[f64]) -> Vec<f64>,
    tol: f64,
    max: usize,
) -> Result<Window> {
    let mut x = start.to_vec();
    let mut trace = Vec::new();
    for k in 1..=max {
        let xt = h(&x);
        trace.push(Iterate { x: x.clone(), xt: xt.clone() });
        let res: f64 = xt.iter().zip(&x).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
        let norm: f64 = xt.iter().map(|a| a * a).sum::<f64>().sqrt();
        let mut data = split(spec, t_end, &xt, &x);
        if res <= tol * norm || k == max {
            acc.converged(&data);
            return Ok(Window { iterations: k, result: xt, trace });
        }
        acc.perform(&mut data)?;
        x = data.iter().flat_map(|d| d.values.iter().copied()).collect();
    }
    unreachable!("the loop returns at k == max")
}

/// The concatenated vectors as the scheme's data (samples evenly spaced in the window).
fn split(spec: &Spec, t_end: f64, values: &[f64], old: &[f64]) -> Vec<AccData> {
    let mut at = 0;
    spec.iter()
        .map(|&(name, primary, size, samples)| {
            let n = size * samples;
            let times: Vec<f64> = (1..=samples).map(|i| t_end - 1.0 + i as f64 / samples as f64).collect();
            let d = datum(name, primary, size, &times, &values[at..at + n], &old[at..at + n]);
            at += n;
            d
        })
        .collect()
}

/// |a − b| ≤ tol, elementwise, with a readable failure.
fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len(), "{a:?} vs {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= tol, "{a:?} vs {b:?} (tol {tol})");
    }
}
