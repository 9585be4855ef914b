//! Tests across both models: agreement, body-to-body coupling, ring-buffer wrap.

use super::*;
use nalgebra::DMatrix;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tidelink_hydro_data::{RadiationIrf, StateSpace, StateSpaceEntry};

fn zero_entry() -> StateSpaceEntry {
    StateSpaceEntry { a: DMatrix::zeros(0, 0), b: DMatrix::zeros(0, 1), c: DMatrix::zeros(1, 0), d: 0.0 }
}

fn first_order(a: f64, b: f64) -> StateSpaceEntry {
    StateSpaceEntry {
        a: DMatrix::from_element(1, 1, -b),
        b: DMatrix::from_element(1, 1, 1.0),
        c: DMatrix::from_element(1, 1, a),
        d: 0.0,
    }
}

/// `(row, col, a, b)`: nonzero entries `a e^{−bt}` of a `dofs × dofs` IRF.
type Exps = [(usize, usize, f64, f64)];

fn irf_of(dofs: usize, exps: &Exps, span: f64, samples: usize) -> Irf {
    let t: Vec<f64> = (0..samples).map(|i| span * i as f64 / (samples - 1) as f64).collect();
    let k = t
        .iter()
        .map(|&x| {
            let mut m = DMatrix::zeros(dofs, dofs);
            for &(r, c, a, b) in exps {
                m[(r, c)] = a * (-b * x).exp();
            }
            m
        })
        .collect();
    Irf::new(t, k).expect("valid IRF")
}

fn set_of(dofs: usize, exps: &Exps) -> StateSpaceSet {
    let mut entries: Vec<Vec<StateSpaceEntry>> = (0..dofs).map(|_| (0..dofs).map(|_| zero_entry()).collect()).collect();
    for &(r, c, a, b) in exps {
        entries[r][c] = first_order(a, b);
    }
    StateSpaceSet::new(entries).expect("set")
}

#[test]
fn state_space_and_convolution_agree_on_exponential_irf() {
    // Both discretise the same piecewise-linear velocity: the FOH exactly, the trapezoid with
    // O(dt²) error, so their gap is ~ (b² + ω²)·dt²/12 of the amplitude.
    let (a, b, w, dt) = (2.0, 1.0, 0.8, 0.01);
    let exps = [(0, 0, a, b)];
    let mut conv = DirectConvolution::new(&irf_of(1, &exps, 40.0, 4001), dt, None).expect("conv");
    let mut ss = StateSpaceModel::new(&set_of(1, &exps), dt, Feedthrough::Ignored).expect("ss");
    let amp = a / (b * b + w * w).sqrt();
    let mut worst: f64 = 0.0;
    let (mut fc, mut fs) = ([0.0], [0.0]);
    for k in 0..6000 {
        let v = [(w * k as f64 * dt).sin()];
        conv_step(&mut conv, &v, &mut fc);
        conv_step(&mut ss, &v, &mut fs);
        worst = worst.max((fc[0] - fs[0]).abs() / amp);
    }
    println!("state space vs convolution, sine: worst relative gap {worst:.2e}");
    assert!(worst < 2e-5, "relative gap {worst:e}");
}

fn conv_step(m: &mut dyn RadiationModel, v: &[f64], out: &mut [f64]) {
    m.push(v).expect("push");
    m.force(out).expect("force");
}

#[test]
fn off_diagonal_block_couples_body_two_into_body_one() {
    // Two bodies: body 1 heave (2) feels body 2 heave (8) through K_{2,8}; diagonals present too.
    let exps = [(2, 2, 5.0, 1.0), (8, 8, 7.0, 0.5), (2, 8, -1.5, 0.8), (8, 2, -1.5, 0.8)];
    let full = irf_of(12, &exps, 30.0, 3001);
    // Build it the way a file gives it: two 6 × 12 row blocks.
    let block = |i: usize| RadiationIrf {
        t: full.times().to_vec(),
        k: full.samples().iter().map(|m| m.rows(6 * i, 6).into_owned()).collect(),
    };
    let irf = Irf::from_irfs(&[&block(0), &block(1)]).expect("stacked");
    let set = set_of(12, &exps);
    let rows = |i: usize| StateSpace {
        entries: (6 * i..6 * i + 6)
            .map(|r| (0..12).map(|c| set.entry(r, c).cloned().expect("entry")).collect())
            .collect(),
    };
    let set = StateSpaceSet::from_state_spaces(&[&rows(0), &rows(1)]).expect("stacked set");
    let dt = 0.01;
    let mut conv = DirectConvolution::new(&irf, dt, None).expect("conv");
    let mut ss = StateSpaceModel::new(&set, dt, Feedthrough::Included).expect("ss");
    assert_eq!(conv.nonzero_entries(), 4);
    assert_eq!(ss.active_entries(), 4);
    let mut v = [0.0; 12];
    v[8] = 1.0; // only body 2 heaves, at constant speed
    let (mut fc, mut fs) = ([0.0; 12], [0.0; 12]);
    for _ in 0..2500 {
        conv_step(&mut conv, &v, &mut fc);
        conv_step(&mut ss, &v, &mut fs);
    }
    // t = 25 s: −∫_0^25 a e^{−bτ} dτ.
    let t: f64 = 24.99;
    let on_body1 = 1.5 / 0.8 * (1.0 - (-0.8 * t).exp());
    let on_body2 = -7.0 / 0.5 * (1.0 - (-0.5 * t).exp());
    for f in [&fc, &fs] {
        assert!((f[2] - on_body1).abs() < 1e-3, "body 1 heave {}", f[2]);
        assert!((f[8] - on_body2).abs() < 1e-3, "body 2 heave {}", f[8]);
        for (i, x) in f.iter().enumerate() {
            if i != 2 && i != 8 {
                assert_eq!(*x, 0.0, "dof {i}");
            }
        }
    }
}

#[test]
fn ring_buffer_wraps_like_a_naive_reference() {
    // n = 37 lags (T = 0.37 s, dt = 0.01), 3 DOFs, random velocities over 50·n steps.
    let exps = [(0, 0, 2.0, 3.0), (0, 2, -0.5, 1.0), (1, 1, 1.0, 2.0), (2, 0, 0.7, 4.0), (2, 2, 3.0, 0.5)];
    let irf = irf_of(3, &exps, 1.0, 77); // coarse grid: exercises the linear resampling too
    let dt = 0.01;
    let mut conv = DirectConvolution::new(&irf, dt, Some(0.37)).expect("conv");
    let n = conv.lags();
    assert_eq!(n, 37);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut past: Vec<[f64; 3]> = Vec::new();
    let mut f = [0.0; 3];
    for k in 0..50 * n {
        let v = [rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)];
        past.push(v);
        conv_step(&mut conv, &v, &mut f);
        // Naive O(n) per step (O(n²) overall): F_r = −Σ_s w_s K_rc(s dt) v_c(t_k − s dt).
        let mut reference = [0.0; 3];
        for s in 0..=n.min(k) {
            let w = if s == 0 || s == n { dt / 2.0 } else { dt };
            for (r, out) in reference.iter_mut().enumerate() {
                for (c, vc) in past[k - s].iter().enumerate() {
                    *out -= w * irf.entry_at(r, c, s as f64 * dt) * vc;
                }
            }
        }
        for r in 0..3 {
            assert!((f[r] - reference[r]).abs() < 1e-12, "k = {k}, dof {r}: {} vs {}", f[r], reference[r]);
        }
    }
    // After a reset the history is gone.
    conv.reset();
    conv_step(&mut conv, &[1.0, 0.0, 0.0], &mut f);
    assert!((f[0] + dt / 2.0 * 2.0).abs() < 1e-12 && (f[2] + dt / 2.0 * 0.7).abs() < 1e-12, "{f:?}");
}

#[test]
fn models_switch_behind_the_trait() {
    let exps = [(0, 0, 1.0, 1.0)];
    let models: Vec<Box<dyn RadiationModel>> = vec![
        Box::new(DirectConvolution::new(&irf_of(1, &exps, 10.0, 101), 0.1, None).expect("conv")),
        Box::new(StateSpaceModel::new(&set_of(1, &exps), 0.1, Feedthrough::Ignored).expect("ss")),
    ];
    for mut m in models {
        assert_eq!((m.dofs(), m.time()), (1, None));
        conv_step(m.as_mut(), &[1.0], &mut [0.0]);
        conv_step(m.as_mut(), &[1.0], &mut [0.0]);
        assert_eq!(m.time(), Some(0.1));
        assert_eq!(m.pushes(), 2);
    }
}

/// Pushes `steps` random velocities into `m`; the forces after each push, as bits.
fn forces_bits(m: &mut dyn RadiationModel, rng: &mut ChaCha8Rng, steps: usize) -> Vec<u64> {
    let dofs = m.dofs();
    let mut out = Vec::new();
    let mut f = vec![0.0; dofs];
    for _ in 0..steps {
        let v: Vec<f64> = (0..dofs).map(|_| rng.gen_range(-1.0..1.0)).collect();
        m.push(&v).expect("push");
        m.force(&mut f).expect("force");
        out.extend(f.iter().map(|x| x.to_bits()));
    }
    out
}

#[test]
fn a_restored_state_repeats_the_forces_bit_for_bit() {
    // Two coupled DOFs; a short IRF so the ring buffer wraps inside the repeated stretch.
    let exps = [(0, 0, 2.0, 1.0), (0, 1, 0.5, 2.0), (1, 0, 0.5, 2.0), (1, 1, 1.5, 0.7)];
    let conv = DirectConvolution::new(&irf_of(2, &exps, 0.3, 31), 0.01, None).expect("conv");
    let ss = StateSpaceModel::new(&set_of(2, &exps), 0.01, Feedthrough::Ignored).expect("ss");
    for mut m in [Box::new(conv) as Box<dyn RadiationModel>, Box::new(ss)] {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        forces_bits(m.as_mut(), &mut rng, 45);
        let saved = m.save_state();
        let after = rng.clone();
        let first = forces_bits(m.as_mut(), &mut rng, 50);
        m.restore_state(&saved).expect("restore");
        assert_eq!(m.pushes(), 45, "the push count is part of the state");
        let again = forces_bits(m.as_mut(), &mut after.clone(), 50);
        assert_eq!(first, again, "the repeated stretch differs");
        // And the stretch was not trivial: other velocities give other forces.
        m.restore_state(&saved).expect("restore");
        let other = forces_bits(m.as_mut(), &mut ChaCha8Rng::seed_from_u64(8), 50);
        assert_ne!(first, other);
    }
}

#[test]
fn a_state_of_another_model_is_refused() {
    let one = DirectConvolution::new(&irf_of(1, &[(0, 0, 1.0, 1.0)], 1.0, 11), 0.1, None).expect("conv");
    let mut two = DirectConvolution::new(&irf_of(2, &[(0, 0, 1.0, 1.0)], 1.0, 11), 0.1, None).expect("conv");
    let e = two.restore_state(&one.save_state()).unwrap_err();
    assert!(matches!(e, RadiationError::ForeignState { .. }), "{e}");
}
