//! IQN-IMVJ: the Jacobian across windows, its secant conditions, the restart modes.

use super::*;
use crate::native::acceleration::imvj_restart::truncated;
use crate::native::acceleration::iqn_imvj::IqnImvj;
use crate::native::acceleration::{build, settings};
use nalgebra::{DMatrix, DVector};
use tidelink_precice_config::{FilterDecl, FilterKind, ImvjRestartDecl, ImvjRestartKind};

/// Two primary data of three values: x = M x + b_w, M fixed and of full rank, b_w changing
/// with the window w; the fixed point x*_w = (I − M)⁻¹ b_w is solved independently.
struct Problem {
    m: DMatrix<f64>,
}

impl Problem {
    const SPEC: &'static Spec = &[("A", true, 3, 1), ("B", true, 3, 1)];

    fn new() -> Self {
        // Entries from a linear congruential sequence in [−0.6, 0.6): full rank (smallest
        // singular value about 0.22).
        let mut seed: u64 = 12345;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1.2
        };
        let values: Vec<f64> = (0..36).map(|_| next()).collect();
        Problem { m: DMatrix::from_row_slice(6, 6, &values) }
    }
    fn b(&self, w: usize) -> DVector<f64> {
        DVector::from_fn(6, |i, _| 1.0 + (i as f64) * 0.3 + (w as f64 * 0.7 + i as f64).cos())
    }
    fn h(&self, w: usize) -> impl Fn(&[f64]) -> Vec<f64> + '_ {
        move |x: &[f64]| (&self.m * DVector::from_column_slice(x) + self.b(w)).as_slice().to_vec()
    }
    fn star(&self, w: usize) -> Vec<f64> {
        let a = DMatrix::identity(6, 6) - &self.m;
        a.lu().solve(&self.b(w)).unwrap().as_slice().to_vec()
    }
    /// Runs `windows` windows (relative tolerance 1e-10, at most 40 iterations), checking each
    /// result against x*; the iterations of each window.
    fn run(&self, acc: &mut dyn Acceleration, windows: usize) -> Vec<Window> {
        let mut start = vec![0.0; 6];
        (0..windows)
            .map(|w| {
                let win = run_window(acc, Self::SPEC, w as f64 + 1.0, &start, &self.h(w), 1e-10, 40).unwrap();
                assert!(win.iterations < 40, "window {w} did not converge");
                close(&win.result, &self.star(w), 1e-7);
                start = win.result.clone();
                win
            })
            .collect()
    }
}

fn imvj(d: &AccelerationDecl) -> IqnImvj {
    IqnImvj::new(settings::qn(d).unwrap(), settings::imvj(d), "t: acceleration:IQN-IMVJ".into())
}

fn restart(kind: ImvjRestartKind, chunk: usize) -> AccelerationDecl {
    let mut d = decl("IQN-IMVJ", &["A", "B"]);
    d.imvj_restart = Some(ImvjRestartDecl {
        kind,
        chunk_size: Some(chunk),
        reused_time_windows_at_restart: Some(1),
        truncation_threshold: None,
    });
    d.filter = Some(FilterDecl { kind: FilterKind::Qr2, limit: Some(1e-10) });
    d
}

/// The secant pairs (Δr, Δx̃) of a window's iterations, from the scheme's own record.
fn pairs(w: &Window) -> Vec<(DVector<f64>, DVector<f64>)> {
    let r = |it: &Iterate| DVector::from_iterator(6, it.xt.iter().zip(&it.x).map(|(a, b)| a - b));
    w.trace
        .windows(2)
        .map(|p| (r(&p[1]) - r(&p[0]), DVector::from_column_slice(&p[1].xt) - DVector::from_column_slice(&p[0].xt)))
        .collect()
}

#[test]
fn imvj_needs_fewer_iterations_than_ils_without_reuse_in_later_windows() {
    let p = Problem::new();
    let mut ils_decl = decl("IQN-ILS", &["A", "B"]);
    ils_decl.time_windows_reused = Some(0);
    let mut ils = build(&ils_decl).unwrap();
    let mut imvj = build(&decl("IQN-IMVJ", &["A", "B"])).unwrap();
    let windows = 8;
    let ils_its: Vec<usize> = p.run(ils.as_mut(), windows).iter().map(|w| w.iterations).collect();
    let imvj_its: Vec<usize> = p.run(imvj.as_mut(), windows).iter().map(|w| w.iterations).collect();
    let later = |v: &[usize]| v[3..].iter().sum::<usize>();
    assert!(later(&imvj_its) < later(&ils_its), "IMVJ {imvj_its:?} vs ILS {ils_its:?}");
    // The Jacobian is exact for a linear problem once it has seen every direction: the last
    // windows take one update and the converged check.
    assert!(imvj_its[windows - 1] <= 3, "IMVJ {imvj_its:?}");
}

#[test]
fn the_jacobian_satisfies_the_secant_conditions_of_the_last_window() {
    let p = Problem::new();
    let mut d = decl("IQN-IMVJ", &["A", "B"]);
    d.filter = Some(FilterDecl { kind: FilterKind::Qr2, limit: Some(1e-10) });
    d.imvj_restart = Some(ImvjRestartDecl {
        kind: ImvjRestartKind::NoRestart,
        chunk_size: None,
        reused_time_windows_at_restart: None,
        truncation_threshold: None,
    });
    let mut acc = imvj(&d);
    let wins = p.run(&mut acc, 3);
    // J maps a residual difference to the difference of new values: J Δr = Δx̃.
    for (v, w) in pairs(&wins[2]) {
        let err = (acc.jacobian() * &v - &w).norm();
        assert!(err <= 1e-8 * w.norm().max(1e-3), "{err}");
    }
}

#[test]
fn always_build_jacobian_sends_the_same_values() {
    let p = Problem::new();
    let mut a = build(&decl("IQN-IMVJ", &["A", "B"])).unwrap();
    let mut d = decl("IQN-IMVJ", &["A", "B"]);
    d.always_build_jacobian = Some(true);
    let mut b = build(&d).unwrap();
    let (wa, wb) = (p.run(a.as_mut(), 4), p.run(b.as_mut(), 4));
    for (x, y) in wa.iter().zip(&wb) {
        assert_eq!(x.iterations, y.iterations);
        for (i, j) in x.trace.iter().zip(&y.trace) {
            close(&i.x, &j.x, 1e-9);
        }
    }
}

#[test]
fn every_restart_mode_runs_and_converges() {
    // With a tight filter the first window gathers all six directions (relaxation, six
    // columns), after which J V = W for a square invertible V makes J the exact inverse
    // Jacobian: windows after it take one update and the converged check, unless a restart
    // (chunk 2) has removed what J knew.
    let p = Problem::new();
    for kind in [
        ImvjRestartKind::NoRestart,
        ImvjRestartKind::Rs0,
        ImvjRestartKind::RsLs,
        ImvjRestartKind::RsSvd,
        ImvjRestartKind::RsSlide,
    ] {
        let mut acc = build(&restart(kind, 2)).unwrap();
        let its: Vec<usize> = p.run(acc.as_mut(), 7).iter().map(|w| w.iterations).collect();
        assert!(its[0] <= 8 && its[1] == 2, "{kind:?}: {its:?}");
        match kind {
            // Nothing forgotten (RS-SVD: no singular value of the exact J is below 1e-4·σ_max).
            ImvjRestartKind::NoRestart | ImvjRestartKind::RsSvd => {
                assert!(its[1..].iter().all(|&n| n == 2), "{kind:?}: {its:?}")
            }
            // Reset after windows 2, 4, 6, or rebuilt from window 2's single column.
            ImvjRestartKind::Rs0 | ImvjRestartKind::RsLs => assert!(its[2] > 2 && its[4] > 2, "{kind:?}: {its:?}"),
            // Rebuilt from the last two windows: window 3 still sees window 1's columns, window 4 not.
            ImvjRestartKind::RsSlide => assert!(its[2] == 2 && its[3] > 2, "{kind:?}: {its:?}"),
        }
        assert!(acc.qn_columns().is_some());
    }
}

#[test]
fn rs0_resets_the_jacobian_every_chunk_so_the_next_window_relaxes() {
    let p = Problem::new();
    let mut acc = imvj(&restart(ImvjRestartKind::Rs0, 2));
    p.run(&mut acc, 1);
    assert!(acc.jacobian().norm() > 0.0);
    let w2 = p.run_from(&mut acc, 1, 1);
    assert!(acc.jacobian().iter().all(|x| *x == 0.0), "RS-0 after window 2");
    // Window 3, iteration 1: nothing known, so relaxation 0.1 from the window start.
    let start = w2.result.clone();
    let xt = p.h(2)(&start);
    let mut data = split(Problem::SPEC, 3.0, &xt, &start);
    acc.perform(&mut data).unwrap();
    let sent: Vec<f64> = data.iter().flat_map(|d| d.values.clone()).collect();
    let relaxed: Vec<f64> = xt.iter().zip(&start).map(|(a, b)| 0.1 * a + 0.9 * b).collect();
    close(&sent, &relaxed, 1e-14);
}

#[test]
fn rs_ls_and_rs_slide_rebuild_from_the_last_windows_columns() {
    // RS-LS with one reused window (chunk 2) and RS-SLIDE (chunk 2): after window 2 the
    // Jacobian satisfies window 2's secant conditions.
    let p = Problem::new();
    for kind in [ImvjRestartKind::RsLs, ImvjRestartKind::RsSlide] {
        let mut acc = imvj(&restart(kind, 2));
        let wins = p.run(&mut acc, 2);
        for (v, w) in pairs(&wins[1]) {
            let err = (acc.jacobian() * &v - &w).norm();
            assert!(err <= 1e-8 * w.norm().max(1e-3), "{kind:?}: {err}");
        }
    }
    // RS-LS rebuilds from window 2 alone: window 1's conditions are not kept in general.
    let mut acc = imvj(&restart(ImvjRestartKind::RsLs, 2));
    let wins = p.run(&mut acc, 2);
    let worst = pairs(&wins[0]).iter().map(|(v, w)| (acc.jacobian() * v - w).norm()).fold(0.0, f64::max);
    assert!(worst > 1e-6, "{worst}");
}

#[test]
fn rs_svd_truncates_small_singular_values() {
    // diag(1, 1e-6) in a rotated basis: the 1e-6 direction is below 1e-4·σ_max.
    let (c, s) = (0.6, 0.8);
    let q = DMatrix::from_row_slice(2, 2, &[c, -s, s, c]);
    let j = &q * DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, 1e-6])) * q.transpose();
    let t = truncated(&j, 1e-4);
    let expected = &q * DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, 0.0])) * q.transpose();
    assert!((t - expected).norm() < 1e-12);
    // Above the threshold nothing changes.
    assert!((truncated(&j, 1e-7) - &j).norm() < 1e-12);
}

impl Problem {
    /// Runs `windows` windows starting at window index `first` from x*_{first−1}.
    fn run_from(&self, acc: &mut dyn Acceleration, first: usize, windows: usize) -> Window {
        let mut start = self.star(first - 1);
        let mut last = None;
        for w in first..first + windows {
            let win = run_window(acc, Self::SPEC, w as f64 + 1.0, &start, &self.h(w), 1e-10, 40).unwrap();
            start = win.result.clone();
            last = Some(win);
        }
        last.unwrap()
    }
}
