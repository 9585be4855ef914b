//! Constant relaxation (scenario A12) and Aitken (scenario A13).

use super::*;
use crate::native::acceleration::build;
use crate::ErrorKind;

#[test]
fn constant_relaxation_reads_0_then_half_then_three_quarters() {
    // B writes 1.0 every iteration; A reads what is sent at the window end.
    let mut d = decl("constant", &[]);
    d.relaxation = Some(0.5);
    let mut acc = build(&d).unwrap();
    // Iteration 1: A read the window-start value 0; B's 1.0 is relaxed against it: 0.5.
    let mut data = vec![datum("X", false, 1, &[1.0], &[1.0], &[0.0])];
    acc.perform(&mut data).unwrap();
    assert_eq!(data[0].values, [0.5]);
    // Iteration 2: 0.5·1 + 0.5·0.5 = 0.75.
    let mut data = vec![datum("X", false, 1, &[1.0], &[1.0], &[0.5])];
    acc.perform(&mut data).unwrap();
    assert_eq!(data[0].values, [0.75]);
    // Forced convergence in iteration 3 changes nothing; window 2 relaxes against its own start.
    acc.converged(&[datum("X", false, 1, &[1.0], &[1.0], &[0.75])]);
    let mut data = vec![datum("X", false, 1, &[2.0], &[1.0], &[1.0])];
    acc.perform(&mut data).unwrap();
    assert_eq!(data[0].values, [1.0]);
    assert!(acc.qn_columns().is_none());
}

#[test]
fn constant_relaxation_is_sample_wise_and_applies_to_every_datum() {
    let mut d = decl("constant", &[]);
    d.relaxation = Some(0.5);
    let mut acc = build(&d).unwrap();
    // Sub-steps at 0.5 and 1: x̃ = (2, 4) against the window start 0 → (1, 2); a second
    // datum (2 values per sample) x̃ = (1, 3 | 5, 7) against (1, 1 | 1, 1) → (1, 2 | 3, 4).
    let mut data = vec![
        datum("X", false, 1, &[0.5, 1.0], &[2.0, 4.0], &[0.0, 0.0]),
        datum("Y", false, 2, &[0.5, 1.0], &[1.0, 3.0, 5.0, 7.0], &[1.0; 4]),
    ];
    acc.perform(&mut data).unwrap();
    assert_eq!(data[0].values, [1.0, 2.0]);
    assert_eq!(data[1].values, [1.0, 2.0, 3.0, 4.0]);
    // Iteration 2: x̃ = (1, 1) against the previous sampled values (1, 2) → (1, 1.5).
    let mut data = vec![datum("X", false, 1, &[0.5, 1.0], &[1.0, 1.0], &[1.0, 2.0])];
    acc.perform(&mut data).unwrap();
    assert_eq!(data[0].values, [1.0, 1.5]);
}

#[test]
fn constant_relaxation_needs_its_factor() {
    let e = build(&decl("constant", &[])).err().expect("no relaxation tag");
    assert_eq!(e.kind, ErrorKind::Config);
    assert!(e.message.contains("case/precice.xml:7") && e.message.contains("<relaxation"), "{}", e.message);
}

#[test]
fn aitken_with_initial_relaxation_0_1_sends_0_1_then_exactly_1() {
    let mut d = decl("aitken", &["X"]);
    d.initial_relaxation = Some(0.1);
    let mut acc = build(&d).unwrap();
    // Iteration 1: A writes 1.0, window start 0: ω = min(0.1, 0.1) → 0.1.
    let mut data = vec![datum("X", true, 1, &[1.0], &[1.0], &[0.0])];
    acc.perform(&mut data).unwrap();
    close(&data[0].values, &[0.1], 1e-15);
    // Iteration 2: r¹ = 1, r² = 0.9, ω = −0.1·(1·(−0.1))/0.01 = 1 → x = 1.0.
    let mut data = vec![datum("X", true, 1, &[1.0], &[1.0], &[0.1])];
    acc.perform(&mut data).unwrap();
    close(&data[0].values, &[1.0], 1e-12);
    // Converged in iteration 3 (r = 0). Window 2: ω = sign(1)·min(0.1, 1) = 0.1:
    // x = 1 + 0.1·(2 − 1) = 1.1.
    acc.converged(&[datum("X", true, 1, &[1.0], &[1.0], &[1.0])]);
    let mut data = vec![datum("X", true, 1, &[2.0], &[2.0], &[1.0])];
    acc.perform(&mut data).unwrap();
    close(&data[0].values, &[1.1], 1e-12);
}

#[test]
fn aitken_default_initial_relaxation_is_one_half() {
    let mut acc = build(&decl("aitken", &["X"])).unwrap();
    let mut data = vec![datum("X", true, 1, &[1.0], &[1.0], &[0.0])];
    acc.perform(&mut data).unwrap();
    assert_eq!(data[0].values, [0.5]);
}

#[test]
fn aitken_factor_uses_window_end_of_primary_data_and_relaxes_all_samples_of_all_data() {
    let mut acc = build(&decl("aitken", &["X"])).unwrap();
    // X has sub-steps; only its window-end sample enters the factor. S is secondary.
    let mut data =
        vec![datum("X", true, 1, &[0.5, 1.0], &[7.0, 2.0], &[0.0, 0.0]), datum("S", false, 1, &[1.0], &[4.0], &[0.0])];
    acc.perform(&mut data).unwrap();
    // ω = 0.5: (3.5, 1) and 2.
    assert_eq!(data[0].values, [3.5, 1.0]);
    assert_eq!(data[1].values, [2.0]);
    // Iteration 2: window-end r¹ = 2, r² = 1.5 − 1 = 0.5; Δ = −1.5:
    // ω = −0.5·(2·(−1.5))/2.25 = 2/3. Sample 0.5: x̃ = 9, x = 3.5 → 3.5 + (2/3)·5.5 = 7.1666…;
    // window end: 1 + (2/3)·0.5 = 4/3; S: 2 + (2/3)·(5 − 2) = 4.
    let mut data =
        vec![datum("X", true, 1, &[0.5, 1.0], &[9.0, 1.5], &[3.5, 1.0]), datum("S", false, 1, &[1.0], &[5.0], &[2.0])];
    acc.perform(&mut data).unwrap();
    close(&data[0].values, &[3.5 + 11.0 / 3.0, 4.0 / 3.0], 1e-12);
    close(&data[1].values, &[4.0], 1e-12);
}

#[test]
fn aitken_with_two_primary_data_weights_the_residual_blocks() {
    // Residual-sum weights: iteration 1 norms (3, 4) of total 5 → sums (0.6, 0.8); ω = 0.5.
    let mut acc = build(&decl("aitken", &["X", "Y"])).unwrap();
    let mut data = vec![datum("X", true, 1, &[1.0], &[3.0], &[0.0]), datum("Y", true, 1, &[1.0], &[4.0], &[0.0])];
    acc.perform(&mut data).unwrap();
    assert_eq!((data[0].values[0], data[1].values[0]), (1.5, 2.0));
    // Iteration 2: r² = (1, 2) (x̃ = (2.5, 4)); ‖r²‖ = √5, so the sums become 0.6 + 1/√5 and
    // 0.8 + 2/√5 and the weights w = 1/sums. Scaled r¹ = (3w₁, 4w₂), Δ = (−2w₁, −2w₂):
    // ω = −0.5·(−6w₁² − 8w₂²)/(4w₁² + 4w₂²) ≈ 0.8191 (0.875 unweighted).
    let (w1, w2) = (1.0 / (0.6 + 1.0 / 5f64.sqrt()), 1.0 / (0.8 + 2.0 / 5f64.sqrt()));
    let omega = (3.0 * w1 * w1 + 4.0 * w2 * w2) / (4.0 * (w1 * w1 + w2 * w2));
    assert!((omega - 0.875).abs() > 0.05);
    let mut data = vec![datum("X", true, 1, &[1.0], &[2.5], &[1.5]), datum("Y", true, 1, &[1.0], &[4.0], &[2.0])];
    acc.perform(&mut data).unwrap();
    close(&[data[0].values[0], data[1].values[0]], &[1.5 + omega, 2.0 + 2.0 * omega], 1e-12);
}

/// A datum with gradients: `datum` plus `gradients` and the previous iteration's `old`.
fn with_gradients(mut d: AccData, size: usize, gradients: &[f64], old: &[f64]) -> AccData {
    d.gradient_size = size;
    d.gradients = gradients.to_vec();
    d.old_gradients = old.to_vec();
    d
}

#[test]
fn relaxation_relaxes_gradients_with_the_values_and_the_quasi_newton_update_does_not() {
    // Constant relaxation ω = ½: two samples of one vertex with a 2D gradient each.
    let mut d = decl("constant", &[]);
    d.relaxation = Some(0.5);
    let mut acc = build(&d).unwrap();
    let x = datum("X", false, 1, &[0.5, 1.0], &[2.0, 4.0], &[0.0, 0.0]);
    let mut data = vec![with_gradients(x, 2, &[2.0, -2.0, 4.0, -4.0], &[1.0, 1.0, 0.0, 0.0])];
    acc.perform(&mut data).unwrap();
    assert_eq!(data[0].values, [1.0, 2.0]);
    assert_eq!(data[0].gradients, [1.5, -0.5, 2.0, -2.0]);
    // IQN-ILS (initial relaxation 0.1 in the first window): its first iteration relaxes the
    // gradients as the values; the quasi-Newton step of the second leaves them as received.
    let mut acc = build(&decl("IQN-ILS", &["X"])).unwrap();
    let x = datum("X", true, 1, &[1.0], &[1.0], &[0.0]);
    let mut data = vec![with_gradients(x, 2, &[1.0, 2.0], &[0.0, 0.0])];
    acc.perform(&mut data).unwrap();
    assert!((data[0].values[0] - 0.1).abs() <= 1e-12 && (data[0].gradients[0] - 0.1).abs() <= 1e-12, "{data:?}");
    assert!((data[0].gradients[1] - 0.2).abs() <= 1e-12, "{data:?}");
    let x = datum("X", true, 1, &[1.0], &[1.05], &[0.1]);
    let mut data = vec![with_gradients(x, 2, &[3.0, 4.0], &[0.1, 0.2])];
    acc.perform(&mut data).unwrap();
    assert!((data[0].values[0] - 2.0).abs() <= 1e-12, "the secant step of scenario A16: {data:?}");
    assert_eq!(data[0].gradients, [3.0, 4.0]);
}
