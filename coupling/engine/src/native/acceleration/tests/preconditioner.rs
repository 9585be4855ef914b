//! Preconditioner weights against hand-computed values.

use crate::native::acceleration::preconditioner::Preconditioner;
use crate::native::acceleration::settings::{DataKey, PreconditionerSettings};
use nalgebra::DVector;
use std::ops::Range;
use tidelink_precice_config::PreconditionerKind;

fn keys() -> Vec<DataKey> {
    vec![DataKey::new("M", "X"), DataKey::new("M", "Y")]
}

const RANGES: [Range<usize>; 2] = [0..2, 2..4];

fn pre(kind: PreconditionerKind, update_on_threshold: bool, freeze_after: Option<usize>) -> Preconditioner {
    Preconditioner::new(PreconditionerSettings {
        kind,
        update_on_threshold,
        freeze_after,
        scaling: vec![(keys()[0].clone(), 2.0), (keys()[1].clone(), 4.0)],
    })
}

fn v(x: [f64; 4]) -> DVector<f64> {
    DVector::from_column_slice(&x)
}

fn iterate(p: &mut Preconditioner, values: [f64; 4], r: [f64; 4]) {
    p.iteration(&keys(), &RANGES, &v(values), &v(r));
}

fn complete(p: &mut Preconditioner, values: [f64; 4]) {
    p.window_complete(&keys(), &RANGES, &v(values));
}

fn near(w: &[f64], expected: &[f64]) {
    assert_eq!(w.len(), expected.len());
    for (a, b) in w.iter().zip(expected) {
        assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{w:?} vs {expected:?}");
    }
}

#[test]
fn constant_weights_are_one_over_scaling() {
    let mut p = pre(PreconditionerKind::Constant, true, None);
    iterate(&mut p, [1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0]);
    near(p.weights(), &[0.5, 0.25]);
    complete(&mut p, [5.0; 4]);
    iterate(&mut p, [9.0; 4], [7.0; 4]);
    near(p.weights(), &[0.5, 0.25]);
    // Applying scales each block.
    assert_eq!(p.apply(&RANGES, &v([2.0, 4.0, 4.0, 8.0])).as_slice(), [1.0, 2.0, 1.0, 2.0]);
}

#[test]
fn value_weights_are_set_once_then_refreshed_per_window() {
    let mut p = pre(PreconditionerKind::Value, true, None);
    // ‖(3, 4)‖ = 5, ‖(1, 0)‖ = 1.
    iterate(&mut p, [3.0, 4.0, 1.0, 0.0], [1.0; 4]);
    near(p.weights(), &[0.2, 1.0]);
    // Not within the window.
    iterate(&mut p, [6.0, 8.0, 0.0, 2.0], [1.0; 4]);
    near(p.weights(), &[0.2, 1.0]);
    // At its end: ‖(6, 8)‖ = 10, ‖(0, 2)‖ = 2.
    complete(&mut p, [6.0, 8.0, 0.0, 2.0]);
    near(p.weights(), &[0.1, 0.5]);
    // A zero block keeps its weight.
    complete(&mut p, [0.0, 0.0, 0.0, 4.0]);
    near(p.weights(), &[0.1, 0.25]);
}

#[test]
fn residual_weights_follow_every_iteration() {
    let mut p = pre(PreconditionerKind::Residual, true, None);
    iterate(&mut p, [0.0; 4], [3.0, 4.0, 0.0, 0.5]);
    near(p.weights(), &[0.2, 2.0]);
    iterate(&mut p, [0.0; 4], [0.0, 0.0, 1.0, 0.0]);
    near(p.weights(), &[0.2, 1.0]);
}

#[test]
fn residual_sum_weights_sum_the_shares_over_the_window_and_reset_on_a_factor_10() {
    let mut p = pre(PreconditionerKind::ResidualSum, true, None);
    // Norms 3 and 4 of 5: shares 0.6, 0.8.
    iterate(&mut p, [0.0; 4], [3.0, 0.0, 0.0, 4.0]);
    near(p.weights(), &[1.0 / 0.6, 1.0 / 0.8]);
    // Norms 4 and 3 of 5: sums 1.4, 1.4.
    iterate(&mut p, [0.0; 4], [0.0, 4.0, 3.0, 0.0]);
    near(p.weights(), &[1.0 / 1.4, 1.0 / 1.4]);
    complete(&mut p, [0.0; 4]);
    // Window 2: the sums restart (0.6, 0.8); candidates 1/0.6 and 1/0.8 differ from 1/1.4 by
    // factors 2.33 and 1.75 < 10: kept.
    iterate(&mut p, [0.0; 4], [3.0, 0.0, 0.0, 4.0]);
    near(p.weights(), &[1.0 / 1.4, 1.0 / 1.4]);
    complete(&mut p, [0.0; 4]);
    // Window 3: norms 1 and 100 of √10001: candidates √10001 and √10001/100; the first
    // differs by a factor 140 > 10, so both are taken.
    iterate(&mut p, [0.0; 4], [1.0, 0.0, 0.0, 100.0]);
    let t = 10001f64.sqrt();
    near(p.weights(), &[t, t / 100.0]);
}

#[test]
fn residual_sum_without_threshold_follows_every_iteration() {
    let mut p = pre(PreconditionerKind::ResidualSum, false, None);
    iterate(&mut p, [0.0; 4], [3.0, 0.0, 0.0, 4.0]);
    iterate(&mut p, [0.0; 4], [0.0, 4.0, 3.0, 0.0]);
    complete(&mut p, [0.0; 4]);
    iterate(&mut p, [0.0; 4], [3.0, 0.0, 0.0, 4.0]);
    near(p.weights(), &[1.0 / 0.6, 1.0 / 0.8]);
}

#[test]
fn residual_sum_with_a_zero_block_keeps_its_weight() {
    let mut p = pre(PreconditionerKind::ResidualSum, true, None);
    iterate(&mut p, [0.0; 4], [3.0, 4.0, 0.0, 0.0]);
    // X: share 1 → 1; Y: sum 0 → stays 1.
    near(p.weights(), &[1.0, 1.0]);
    // Norms 5 and 5 of √50: shares 1/√2 each; sums 1 + 1/√2 and 1/√2.
    iterate(&mut p, [0.0; 4], [3.0, 4.0, 0.0, 5.0]);
    let h = 0.5f64.sqrt();
    near(p.weights(), &[1.0 / (1.0 + h), 1.0 / h]);
    // An all-zero residual changes nothing.
    iterate(&mut p, [0.0; 4], [0.0; 4]);
    near(p.weights(), &[1.0 / (1.0 + h), 1.0 / h]);
}

#[test]
fn freeze_after_stops_the_updates() {
    let mut p = pre(PreconditionerKind::Residual, true, Some(1));
    iterate(&mut p, [0.0; 4], [3.0, 4.0, 0.0, 0.5]);
    near(p.weights(), &[0.2, 2.0]);
    complete(&mut p, [0.0; 4]);
    iterate(&mut p, [0.0; 4], [1.0, 0.0, 0.0, 1.0]);
    near(p.weights(), &[0.2, 2.0]);
    // freeze-after = 0: never updated.
    let mut p = pre(PreconditionerKind::Value, true, Some(0));
    iterate(&mut p, [3.0, 4.0, 1.0, 0.0], [1.0; 4]);
    near(p.weights(), &[1.0, 1.0]);
}

#[test]
fn generation_changes_with_the_weights_only() {
    let mut p = pre(PreconditionerKind::Value, true, None);
    iterate(&mut p, [3.0, 4.0, 1.0, 0.0], [1.0; 4]);
    let g = p.generation();
    iterate(&mut p, [6.0, 8.0, 0.0, 2.0], [1.0; 4]);
    assert_eq!(p.generation(), g);
    complete(&mut p, [6.0, 8.0, 0.0, 2.0]);
    assert_ne!(p.generation(), g);
}
