//! IQN-ILS: the secant step of scenario A16, finite termination on linear problems, column
//! lifetime, NaN, changing time grids.

use super::*;
use crate::native::acceleration::iqn_ils::IqnIls;
use crate::native::acceleration::{build, settings, QnColumns};
use crate::ErrorKind;
use nalgebra::{DMatrix, DVector};
use tidelink_precice_config::{FilterDecl, FilterKind};

fn ils(d: &AccelerationDecl) -> IqnIls {
    IqnIls::new(settings::qn(d).unwrap(), "t: acceleration:IQN-ILS".into())
}

/// IQN-ILS on X with a QR2 filter of limit 1e-12, which removes no column here, and `edit`.
fn ils_without_filtering(edit: impl FnOnce(&mut AccelerationDecl)) -> IqnIls {
    let mut d = decl("IQN-ILS", &["X"]);
    edit(&mut d);
    d.filter = Some(FilterDecl { kind: FilterKind::Qr2, limit: Some(1e-12) });
    ils(&d)
}

fn x(v: f64) -> Vec<AccData> {
    vec![datum("X", true, 1, &[1.0], &[v], &[0.0])]
}

/// One iteration of A16's B on a single window-end sample: sends what `perform` returns.
fn step(acc: &mut dyn Acceleration, t: f64, xt: f64, old: f64) -> f64 {
    let mut data = vec![datum("X", true, 1, &[t], &[xt], &[old])];
    acc.perform(&mut data).unwrap();
    data[0].values[0]
}

#[test]
fn a16_secant_step_reads_0_then_0_1_then_2() {
    // B writes x̃ = 0.5·y + 1 where y is what A read (what was sent last).
    let mut acc = build(&decl("IQN-ILS", &["X"])).unwrap();
    let h = |y: f64| 0.5 * y + 1.0;
    // Iteration 1: y = 0, x̃ = 1; first window: relaxation 0.1 → 0.1.
    let y2 = step(acc.as_mut(), 1.0, h(0.0), 0.0);
    assert!((y2 - 0.1).abs() <= 1e-12, "{y2}");
    // Iteration 2: x̃ = 1.05, r = 0.95; column ΔR = −0.05, ΔX̃ = 0.05; α = −0.95/−0.05 = 19;
    // x = 1.05 + 0.05·19 = 2.0.
    let y3 = step(acc.as_mut(), 1.0, h(y2), y2);
    assert!((y3 - 2.0).abs() <= 1e-12, "{y3}");
    // Iteration 3: x̃ = 2 = y: converged. Its column (−0.95, 0.95) joins: as in preCICE, a
    // column is added while the count does not exceed the unknowns, so one unknown holds two
    // (libprecice 3.4.1 logs 2 columns, none dropped: differential test a16_iqn_ils_defaults).
    acc.converged(&[datum("X", true, 1, &[1.0], &[h(y3)], &[y3])]);
    assert_eq!(acc.qn_columns(), Some(QnColumns { columns: 2, deleted: 0, dropped: 0 }));
}

#[test]
fn a16_window_two_first_iteration_uses_the_kept_column_not_relaxation() {
    let mut acc = build(&decl("IQN-ILS", &["X"])).unwrap();
    let y2 = step(acc.as_mut(), 1.0, 1.0, 0.0);
    let y3 = step(acc.as_mut(), 1.0, 0.5 * y2 + 1.0, y2);
    acc.converged(&[datum("X", true, 1, &[1.0], &[0.5 * y3 + 1.0], &[y3])]);
    // Window 2 with another forcing, x̃ = 0.5·y + 2, from y = 2: x̃ = 3, r = 1. The kept column
    // (−0.95, 0.95) gives α = −1/−0.95 and x = 3 + 0.95/0.95 = 4, the new fixed point;
    // relaxation would have sent 2.1.
    let y = step(acc.as_mut(), 2.0, 3.0, 2.0);
    assert!((y - 4.0).abs() <= 1e-12, "{y}");
}

#[test]
fn window_converged_in_its_first_iteration_leaves_no_columns_so_the_next_one_relaxes() {
    let mut acc = build(&decl("IQN-ILS", &["X"])).unwrap();
    acc.converged(&x(1.0));
    assert_eq!(acc.qn_columns(), Some(QnColumns::default()));
    let mut data = vec![datum("X", true, 1, &[2.0], &[3.0], &[1.0])];
    acc.perform(&mut data).unwrap();
    // 0.1·3 + 0.9·1.
    assert!((data[0].values[0] - 1.2).abs() <= 1e-15);
}

/// x = M x + b on two primary data of two values each (plus a secondary datum with two
/// samples, s = C x + d), with the fixed point x* = (1, −2, 0.5, 3) chosen first and
/// b = x* − M x*. M is not a contraction (plain fixed-point iteration diverges).
struct Linear {
    m: DMatrix<f64>,
    b: DVector<f64>,
    c: DMatrix<f64>,
    d: DVector<f64>,
    star: DVector<f64>,
}

impl Linear {
    fn new() -> Self {
        #[rustfmt::skip]
        let m = DMatrix::from_row_slice(4, 4, &[
            0.5, 0.8, 0.0, 0.3,
            -0.4, 1.2, 0.1, 0.0,
            0.2, 0.0, -1.5, 0.6,
            0.0, 0.3, 0.2, 0.9,
        ]);
        let star = DVector::from_vec(vec![1.0, -2.0, 0.5, 3.0]);
        let b = &star - &m * &star;
        let c = DMatrix::from_row_slice(2, 4, &[1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]);
        let d = DVector::from_vec(vec![0.25, -0.25]);
        Linear { m, b, c, d, star }
    }
    const SPEC: &'static Spec = &[("A", true, 2, 1), ("B", true, 2, 1), ("S", false, 1, 2)];
    fn h(&self, x: &[f64]) -> Vec<f64> {
        let p = DVector::from_column_slice(&x[..4]);
        let xp = &self.m * &p + &self.b;
        let s = &self.c * &p + &self.d;
        xp.iter().chain(s.iter()).copied().collect()
    }
    fn solution(&self) -> Vec<f64> {
        let s = &self.c * &self.star + &self.d;
        self.star.iter().chain(s.iter()).copied().collect()
    }
}

#[test]
fn linear_two_datum_problem_converges_to_the_fixed_point_within_n_plus_2_iterations() {
    let p = Linear::new();
    assert!(p.m.clone().symmetric_eigenvalues().iter().any(|e| e.abs() > 1.0) || p.m.norm() > 1.0);
    // n = 4 primary unknowns: relaxation, 4 secant columns, then x̃ = x at iteration 6, as
    // long as the filter keeps every column (a tight QR2 limit); the convergence adds a fifth
    // column (one beyond the unknowns, as preCICE allows).
    let mut d = decl("IQN-ILS", &["A", "B"]);
    d.filter = Some(FilterDecl { kind: FilterKind::Qr2, limit: Some(1e-10) });
    let mut acc = build(&d).unwrap();
    let w = run_window(acc.as_mut(), Linear::SPEC, 1.0, &[0.0; 6], &|x| p.h(x), 1e-13, 30).unwrap();
    assert!(w.iterations <= 6, "{} iterations", w.iterations);
    close(&w.result, &p.solution(), 1e-10);
    assert_eq!(acc.qn_columns().map(|c| (c.columns, c.deleted)), Some((5, 0)));
    // What was sent last (the fifth update) is the fixed point for the secondary datum too:
    // its update W_S α is that of a map affine in the primary data.
    close(&w.trace.last().unwrap().x, &p.solution(), 1e-9);
    // The default filter (QR3, 1e-2) deletes one nearly dependent column here, which costs
    // one iteration.
    let mut acc = build(&decl("IQN-ILS", &["A", "B"])).unwrap();
    let w = run_window(acc.as_mut(), Linear::SPEC, 1.0, &[0.0; 6], &|x| p.h(x), 1e-13, 30).unwrap();
    assert!(w.iterations <= 7, "{} iterations", w.iterations);
    close(&w.result, &p.solution(), 1e-10);
    // The next window with the same problem: every column is kept, the first update is exact.
    let w2 = run_window(acc.as_mut(), Linear::SPEC, 2.0, &w.result, &|x| p.h(x), 1e-13, 30).unwrap();
    assert!(w2.iterations <= 2, "{} iterations", w2.iterations);
}

#[test]
fn linear_problem_with_all_samples_in_the_residual() {
    // reduced-time-grid="false": the secondary datum is still secondary, the primary data
    // have one sample each, so the unknowns and the result are the same as above.
    let p = Linear::new();
    let mut d = decl("IQN-ILS", &["A", "B"]);
    d.reduced_time_grid = Some(false);
    d.filter = Some(FilterDecl { kind: FilterKind::Qr2, limit: Some(1e-10) });
    let mut acc = build(&d).unwrap();
    let w = run_window(acc.as_mut(), Linear::SPEC, 1.0, &[0.0; 6], &|x| p.h(x), 1e-13, 30).unwrap();
    assert!(w.iterations <= 6, "{} iterations", w.iterations);
    close(&w.result, &p.solution(), 1e-10);
}

#[test]
fn reduced_time_grid_false_uses_every_sample_of_primary_data() {
    // One primary datum with samples at 0.5 and 1: two unknowns, so three columns fit (one
    // beyond the unknowns, as preCICE); with the reduced grid (one unknown) only two do.
    for (reduced, cols) in [(true, 2), (false, 3)] {
        let mut d = decl("IQN-ILS", &["X"]);
        d.reduced_time_grid = Some(reduced);
        let mut acc = ils(&d);
        let spec: &Spec = &[("X", true, 1, 2)];
        let h = |x: &[f64]| vec![0.5 * x[0] + 0.1 * x[1] + 1.0, 0.2 * x[0] - 0.3 * x[1] + 2.0];
        // Four forced iterations: three columns (iterations 2, 3 and the convergence).
        run_window(&mut acc, spec, 1.0, &[0.0, 0.0], &h, -1.0, 4).unwrap();
        assert_eq!(acc.columns().len(), cols, "reduced {reduced}");
    }
}

#[test]
fn nan_in_the_update_is_an_error() {
    let mut acc = build(&decl("IQN-ILS", &["X"])).unwrap();
    step(acc.as_mut(), 1.0, 1.0, 0.0);
    let mut data = vec![datum("X", true, 1, &[1.0], &[f64::NAN], &[0.1])];
    let e = acc.perform(&mut data).expect_err("NaN");
    assert_eq!(e.kind, ErrorKind::Config);
    assert!(e.message.contains("The quasi-Newton update contains NaN values"), "{}", e.message);
}

#[test]
fn no_primary_datum_is_an_error() {
    let mut acc = build(&decl("IQN-ILS", &["X"])).unwrap();
    let mut data = vec![datum("X", false, 1, &[1.0], &[1.0], &[0.0])];
    let e = acc.perform(&mut data).expect_err("no primary data");
    assert_eq!(e.kind, ErrorKind::Config);
    assert!(e.message.contains("no residual"), "{}", e.message);
}

/// Three iterations of x̃ = 0.5·y + 1 + w (w the window number), window ends at w + 1.
fn scalar_windows(acc: &mut dyn Acceleration, windows: usize) -> Vec<Window> {
    let spec: &Spec = &[("X", true, 1, 1)];
    let mut start = vec![0.0];
    (0..windows)
        .map(|w| {
            let h = move |y: &[f64]| vec![0.5 * y[0] + 1.0 + w as f64];
            let win = run_window(acc, spec, w as f64 + 1.0, &start, &h, -1.0, 3).unwrap();
            start = win.result.clone();
            win
        })
        .collect()
}

#[test]
fn time_windows_reused_zero_uses_the_previous_columns_once() {
    let mut d = decl("IQN-ILS", &["X"]);
    d.time_windows_reused = Some(0);
    let mut acc = ils(&d);
    // Window 1 is A16 with its iteration 3 forced: accepted value 2.
    let y0 = scalar_windows(&mut acc, 1)[0].result[0];
    assert!((y0 - 2.0).abs() <= 1e-12);
    // It ends with both its columns (one unknown holds two, as in preCICE).
    assert_eq!(acc.columns().iter().map(|c| c.window).collect::<Vec<_>>(), [0, 0]);
    assert_eq!(acc.qn_columns(), Some(QnColumns { columns: 2, deleted: 0, dropped: 0 }));
    // Window 2, iteration 1: x̃ = 0.5·y + 2 = 3; the kept column makes it the exact secant
    // step to the fixed point 4.
    let mut data = vec![datum("X", true, 1, &[2.0], &[0.5 * y0 + 2.0], &[y0])];
    acc.perform(&mut data).unwrap();
    assert!((data[0].values[0] - 4.0).abs() <= 1e-12, "{:?}", data[0].values);
    // Iteration 2: window 1's column goes, the new one comes.
    let y1 = data[0].values[0];
    let mut data = vec![datum("X", true, 1, &[2.0], &[0.5 * y1 + 2.1], &[y1])];
    acc.perform(&mut data).unwrap();
    assert_eq!(acc.columns().iter().map(|c| c.window).collect::<Vec<_>>(), [1]);
}

/// x = M x + b_w on one primary datum of `n` values, with a full-rank M of norm < 1 and a
/// forcing b_w whose direction changes with the window w.
fn contraction(n: usize, w: usize) -> impl Fn(&[f64]) -> Vec<f64> {
    let m = DMatrix::from_fn(n, n, |i, j| if i == j { 0.3 } else { 0.02 * ((i * i + 3 * j) as f64).cos() });
    let b = DVector::from_fn(n, |i, _| 1.0 + ((i + 1) as f64 * (w + 1) as f64).sin());
    move |y: &[f64]| (&m * DVector::from_column_slice(y) + &b).as_slice().to_vec()
}

#[test]
fn time_windows_reused_keeps_that_many_past_windows() {
    // Eight unknowns, three iterations per window: two columns per window (iteration 2 and
    // the convergence); with time-windows-reused = 2 exactly the last two windows' stay.
    let mut acc = ils_without_filtering(|d| d.time_windows_reused = Some(2));
    let spec: &Spec = &[("X", true, 8, 1)];
    let mut start = vec![0.0; 8];
    for w in 0..4 {
        let win = run_window(&mut acc, spec, w as f64 + 1.0, &start, &contraction(8, w), -1.0, 3).unwrap();
        start = win.result;
        let windows: Vec<usize> = acc.columns().iter().map(|c| c.window).collect();
        let expected: Vec<usize> = if w == 0 { vec![0, 0] } else { vec![w, w, w - 1, w - 1] };
        assert_eq!(windows, expected, "after window {w}");
        let dropped = if w >= 2 { 2 } else { 0 };
        assert_eq!(acc.qn_columns(), Some(QnColumns { columns: expected.len(), deleted: 0, dropped }));
    }
}

#[test]
fn max_used_iterations_drops_the_oldest_columns() {
    let mut acc = ils_without_filtering(|d| d.max_used_iterations = Some(2));
    let spec: &Spec = &[("X", true, 3, 1)];
    #[rustfmt::skip]
    let m = DMatrix::from_row_slice(3, 3, &[0.9, 0.3, 0.0, -0.2, 0.7, 0.4, 0.1, 0.0, 1.1]);
    let h = |y: &[f64]| (&m * DVector::from_column_slice(y) + DVector::from_element(3, 1.0)).as_slice().to_vec();
    // Five iterations: columns at iterations 2, 3, 4 and the convergence (4 columns), two kept.
    run_window(&mut acc, spec, 1.0, &[0.0; 3], &h, -1.0, 5).unwrap();
    assert_eq!(acc.columns().len(), 2);
    assert_eq!(acc.qn_columns(), Some(QnColumns { columns: 2, deleted: 0, dropped: 2 }));
}

#[test]
fn enforce_relaxes_the_first_iteration_of_every_window() {
    let mut d = decl("IQN-ILS", &["X"]);
    d.enforce_initial_relaxation = Some(true);
    let mut acc = ils(&d);
    scalar_windows(&mut acc, 1);
    let mut data = vec![datum("X", true, 1, &[2.0], &[3.0], &[2.0])];
    acc.perform(&mut data).unwrap();
    // 0.1·3 + 0.9·2, although a column is kept.
    assert!((data[0].values[0] - 2.1).abs() <= 1e-15);
    assert_eq!(acc.columns().len(), 2, "window 1's two columns are kept");
}

#[test]
fn more_samples_in_the_next_window_resample_the_columns() {
    // Window 1: the secondary datum S has samples at τ = 0.5, 1; window 2 at τ = 0.25, 0.5,
    // 0.75, 1. The primary update does not depend on S; S's update W_S α uses the column
    // resampled linearly in τ (0 at the window start): with Δ the update on the 2-sample grid,
    // the 4-sample one is (Δ₀/2, Δ₀, (Δ₀ + Δ₁)/2, Δ₁).
    let p = Linear::new();
    let run = |samples: usize| {
        let mut acc = build(&decl("IQN-ILS", &["A", "B"])).unwrap();
        let w = run_window(acc.as_mut(), Linear::SPEC, 1.0, &[0.0; 6], &|x| p.h(x), -1.0, 4).unwrap();
        let spec = [("A", true, 2, 1), ("B", true, 2, 1), ("S", false, 1, samples)];
        let mut start = w.result[..4].to_vec();
        start.extend(std::iter::repeat_n(w.result[5], samples));
        let mut xt = p.h(&start)[..4].to_vec();
        xt.extend((1..=samples).map(|i| i as f64 / samples as f64));
        let mut data = split(&spec, 2.0, &xt, &start);
        acc.perform(&mut data).unwrap();
        let delta: Vec<f64> = data[2].values.iter().zip(&xt[4..]).map(|(a, b)| a - b).collect();
        (data, delta)
    };
    let ((same, d2), (more, d4)) = (run(2), run(4));
    close(&same[0].values, &more[0].values, 1e-12);
    close(&same[1].values, &more[1].values, 1e-12);
    assert!(d2.iter().any(|d| d.abs() > 1e-6), "S is updated: {d2:?}");
    close(&d4, &[d2[0] / 2.0, d2[0], (d2[0] + d2[1]) / 2.0, d2[1]], 1e-12);
}

#[test]
fn a_time_grid_change_within_a_window_drops_that_windows_columns() {
    let mut acc = ils(&decl("IQN-ILS", &["X"]));
    let spec2: &Spec = &[("X", true, 1, 1), ("S", false, 1, 2)];
    // Iterations 1 and 2 on one grid: one column.
    let mut data = split(spec2, 1.0, &[1.0, 1.0, 1.0], &[0.0; 3]);
    acc.perform(&mut data).unwrap();
    let sent: Vec<f64> = data.iter().flat_map(|d| d.values.clone()).collect();
    let mut data = split(spec2, 1.0, &[1.5, 2.0, 2.0], &sent);
    acc.perform(&mut data).unwrap();
    assert_eq!(acc.columns().len(), 1);
    // Iteration 3: S now has 3 samples; the column goes, none is added, relaxation follows.
    let spec3: &Spec = &[("X", true, 1, 1), ("S", false, 1, 3)];
    let old = vec![data[0].values[0], 2.0, 2.0, 2.0];
    let mut data3 = split(spec3, 1.0, &[3.0, 1.0, 1.0, 1.0], &old);
    acc.perform(&mut data3).unwrap();
    assert!(acc.columns().is_empty());
    close(&data3[0].values, &[0.1 * 3.0 + 0.9 * old[0]], 1e-15);
    acc.converged(&data3);
    assert_eq!(acc.qn_columns().unwrap().dropped, 1);
}

#[test]
fn the_initial_relaxation_leaves_the_residual_sum_weights_alone() {
    // As libprecice 3.4.1 (differential test iqn_ils_parallel_qr2): the weights follow the
    // quasi-Newton iterations only, so the relaxed first iteration adds no share to the sums.
    let mut d = decl("IQN-ILS", &["A", "B"]);
    d.preconditioner = Some(tidelink_precice_config::PreconditionerDecl {
        kind: tidelink_precice_config::PreconditionerKind::ResidualSum,
        update_on_threshold: None,
        freeze_after: None,
    });
    let mut acc = ils(&d);
    let data = |a: f64, b: f64, old: [f64; 2]| {
        vec![datum("A", true, 1, &[1.0], &[a], &[old[0]]), datum("B", true, 1, &[1.0], &[b], &[old[1]])]
    };
    // Iteration 1: residuals (3, 4): a share of 3/5 and 4/5 if it counted.
    let mut it1 = data(3.0, 4.0, [0.0, 0.0]);
    acc.perform(&mut it1).unwrap();
    assert!(acc.weights().iter().all(|w| *w == 1.0), "{:?}", acc.weights());
    // Iteration 2: residuals (1, 0) relative to what was sent: the sums are (1, 0) alone, so
    // A's weight is 1/1 and B (zero share) keeps its weight 1.
    let (a2, b2) = (it1[0].values[0], it1[1].values[0]);
    let mut it2 = data(a2 + 1.0, b2, [a2, b2]);
    acc.perform(&mut it2).unwrap();
    assert_eq!(acc.weights(), &[1.0, 1.0]);
    // Iteration 3: residuals (0, 2): shares (0, 1) added: A 1/1, B 1/1 — had iteration 1
    // counted, A would be 1/(0.6 + 1) and B 1/(0.8 + 1).
    let (a3, b3) = (it2[0].values[0], it2[1].values[0]);
    let mut it3 = data(a3, b3 + 2.0, [a3, b3]);
    acc.perform(&mut it3).unwrap();
    assert_eq!(acc.weights(), &[1.0, 1.0]);
}
