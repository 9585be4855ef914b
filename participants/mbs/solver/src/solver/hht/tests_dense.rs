//! The dense step in kept buffers against the general path, step by step.

use super::Hht;
use crate::dynamics::body_set::BodySet;
use crate::fixtures::{chain, two_body_heave};
use crate::solver::linear::LinearSolverKind;
use crate::system::MultibodySystem;
use nalgebra::Vector3;

/// Loads like waves: a heave force on every free body, varying in time, plus a side load
/// and a torque so that the joints carry something.
fn load(bodies: &mut BodySet, t: f64) {
    for (i, (_, b)) in bodies.iter_mut().enumerate() {
        if b.is_fixed() {
            continue;
        }
        let k = i as f64;
        b.clear_accumulators();
        b.add_force(Vector3::new(30.0 * (0.7 * t).cos(), -20.0 * k, b.mass() * (9.81 + (1.3 * t + k).sin())));
        b.add_torque(Vector3::new(5.0 * (0.4 * t).sin(), 2.0 * k, 1.0));
    }
}

/// `steps` steps of 20 ms of `system` with the dense step of `fast` and with the general path; the
/// largest difference of positions, velocities and HHT's accelerations over the run, each
/// relative to the run's largest magnitude of that quantity.
fn run_both(system: &MultibodySystem, steps: usize, mut fast: Hht) -> (f64, Hht) {
    let (mut fast_sys, mut slow_sys) = (system.clone(), system.clone());
    let mut slow = Hht { dense_in_place: false, ..Hht::default() };
    let mut worst: f64 = 0.0;
    for k in 0..steps {
        let t = 0.02 * k as f64;
        load(&mut fast_sys.bodies, t);
        load(&mut slow_sys.bodies, t);
        fast_sys.step(&mut fast, 0.02).unwrap();
        slow_sys.step(&mut slow, 0.02).unwrap();
        for ((_, f), (_, s)) in fast_sys.bodies.iter().zip(slow_sys.bodies.iter()) {
            let d = |a: Vector3<f64>, b: Vector3<f64>| (a - b).amax() / a.amax().max(b.amax()).max(1.0);
            worst = worst.max(d(f.com_position(), s.com_position())).max(d(f.linvel(), s.linvel()));
            worst = worst.max(d(f.angvel(), s.angvel()));
        }
        let (hf, hs) = (fast.history.accelerations.clone(), slow.history.accelerations.clone());
        let scale = hs.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        worst = worst.max(hf.iter().zip(&hs).fold(0.0f64, |m, (a, b)| m.max((a - b).abs())) / scale);
    }
    (worst, fast)
}

fn systems() -> Vec<(&'static str, MultibodySystem)> {
    let mut systems = vec![("two-body heave with A∞", two_body_heave())];
    for (n, joints) in [(3, true), (2, false)] {
        let (bodies, joints_set, forces) = chain(n, joints);
        systems.push(("chain", MultibodySystem::from_parts(bodies, joints_set, forces)));
    }
    systems
}

/// Full Newton: each iterate equals the general path's bit for bit; the velocity projection
/// takes `M⁻¹` body by body and sums its products in another order than the general path's
/// LU inverse and blocked products, so the states part by round-off (1e-16 relative per step)
/// that these stable, damped systems carry for 300 steps: 1e-11 relative bounds it.
#[test]
fn with_full_newton_the_dense_step_follows_the_general_path_to_round_off() {
    for (name, system) in &systems() {
        let (worst, fast) = run_both(system, 300, Hht { keep_newton_matrix: false, ..Hht::default() });
        let (made, kept) = fast.newton_factorisations();
        println!("{name}: largest relative difference {worst:.2e}, {made} factorisations, {kept} kept");
        assert!(worst < 1e-11, "{name}: {worst:e}");
        assert!(made > 0, "{name}: the dense step ran");
    }
}

/// Modified Newton within steps (factors made afresh in each step): one factorisation per step
/// where the line search takes full steps. Both runs stop when the position update is below 1e-10 m, i.e. the accelerations
/// within 1e-10 / (β h²) ≈ 7e-7 m/s² of the root; the two roots found may differ by that, so
/// the chain (stiff springs, a nonlinear step) agrees within 1e-6 relative (accelerations of
/// order 10 m/s², carried over 300 steps); the two-body heave (a linear damper along its
/// joints' axis: the Newton matrix changes only in the constrained directions) to round-off.
#[test]
fn with_modified_newton_the_dense_step_meets_the_general_paths_tolerance() {
    for (name, system) in &systems() {
        let per_step = Hht { keep_factors_across_steps: false, ..Hht::default() };
        let (worst, fast) = run_both(system, 300, per_step);
        let (made, kept) = fast.newton_factorisations();
        println!("{name}: largest relative difference {worst:.2e}, {made} factorisations, {kept} kept");
        let bound = if *name == "chain" { 1e-6 } else { 1e-11 };
        assert!(worst < bound, "{name}: {worst:e}");
        assert!(made <= 300, "{name}: one factorisation per step at most ({made})");
    }
}

/// A solver file that asks for another linear solver keeps the general path.
#[test]
fn other_linear_solvers_take_the_general_path() {
    let mut system = two_body_heave();
    let mut hht = Hht { linear_solver: LinearSolverKind::SparseLu, ..Hht::default() };
    for k in 0..5 {
        load(&mut system.bodies, 0.02 * k as f64);
        system.step(&mut hht, 0.02).unwrap();
    }
    assert_eq!(hht.newton_factorisations(), (0, 0));
}

/// The two-body heave and its default integrator after ten loaded 20 ms steps: a state with a
/// history and kept factors, where the checkpoint tests start.
fn two_body_heave_after_ten_steps() -> (MultibodySystem, Hht) {
    let mut system = two_body_heave();
    let mut hht = Hht::default();
    for k in 0..10 {
        load(&mut system.bodies, 0.02 * k as f64);
        system.step(&mut hht, 0.02).unwrap();
    }
    (system, hht)
}

/// Restored from a checkpoint, the dense step repeats a step bit for bit (kept factors
/// included).
#[test]
fn a_repeated_step_is_the_same_bit_for_bit() {
    use crate::solver::integrator::Integrator;
    let (mut system, mut hht) = two_body_heave_after_ten_steps();
    let (bodies, history) = (system.bodies.save_state(), hht.save_history());
    system.step(&mut hht, 0.02).unwrap();
    let first = (system.bodies.save_state().to_bits(), hht.save_history().to_bits());
    system.bodies.restore_state(&bodies).unwrap();
    hht.restore_history(&history);
    system.step(&mut hht, 0.02).unwrap();
    assert_eq!(first, (system.bodies.save_state().to_bits(), hht.save_history().to_bits()));
}

/// A coupling window repeated after a checkpoint restore starts from the factors saved with the
/// history, not from whatever the tries in between left: a try at another step size (its own
/// factors) between the two does not change the repeat by a bit.
#[test]
fn a_repeated_window_starts_from_the_saved_factors() {
    use crate::solver::integrator::Integrator;
    let (mut system, mut hht) = two_body_heave_after_ten_steps();
    let (bodies, history) = (system.bodies.save_state(), hht.save_history());
    assert!(!history.newton.lu.is_empty(), "the history carries the factors");
    let made = hht.newton_factorisations().0;
    system.step(&mut hht, 0.02).unwrap();
    assert_eq!(hht.newton_factorisations().0, made, "the step solved with the factors carried over");
    let first = (system.bodies.save_state().to_bits(), hht.save_history().to_bits());
    system.bodies.restore_state(&bodies).unwrap();
    hht.restore_history(&history);
    system.step(&mut hht, 0.01).unwrap();
    assert!(hht.newton_factorisations().0 > made, "another step size factors its own matrix");
    system.bodies.restore_state(&bodies).unwrap();
    hht.restore_history(&history);
    system.step(&mut hht, 0.02).unwrap();
    assert_eq!(first, (system.bodies.save_state().to_bits(), hht.save_history().to_bits()));
}

/// Factors kept across steps: the two-body heave (a linear damper along its joints' axis) is
/// factored once in 300 steps and follows the general path to round-off (the bound of
/// `with_full_newton_...`). The chain (stiff springs) is measured step by step below.
#[test]
fn factors_kept_across_steps_follow_the_general_path_on_the_two_body_heave() {
    let (worst, fast) = run_both(&two_body_heave(), 300, Hht::default());
    let (made, kept) = fast.newton_factorisations();
    println!("two-body heave: largest relative difference {worst:.2e}, {made} factorisations, {kept} kept");
    assert!(worst < 1e-11, "{worst:e}");
    assert!(made <= 10, "{made} factorisations in 300 steps");
}

/// Each step with factors kept across steps against full Newton from the same state and
/// history, on the stiff chain (its Newton matrix changes from step to step): both stop when
/// the position update is at most `abs_tolerance` (1e-10 m); full Newton then sits far closer
/// to the root (quadratic convergence), modified Newton within `update·ρ/(1−ρ)` of it, a third
/// of the tolerance with the contraction `ρ ≤ 1/4` it keeps to. So the end positions agree
/// within the tolerance, and the accelerations within it over `β h²` (the position they move).
#[test]
fn factors_kept_across_steps_give_each_step_to_the_newton_tolerance() {
    for (name, system) in &systems() {
        let mut system = system.clone();
        let mut hht = Hht::default();
        let (mut worst_q, mut worst_a): (f64, f64) = (0.0, 0.0);
        for k in 0..300 {
            load(&mut system.bodies, 0.02 * k as f64);
            let (mut other, mut full) = (system.clone(), hht.clone());
            full.keep_newton_matrix = false;
            system.step(&mut hht, 0.02).unwrap();
            other.step(&mut full, 0.02).unwrap();
            for ((_, a), (_, b)) in system.bodies.iter().zip(other.bodies.iter()) {
                worst_q = worst_q.max((a.com_position() - b.com_position()).amax());
            }
            let (ha, hb) = (&hht.history.accelerations, &full.history.accelerations);
            worst_a = worst_a.max(ha.iter().zip(hb).fold(0.0f64, |m, (x, y)| m.max((x - y).abs())));
        }
        let (_, beta) = hht.coefficients();
        let (made, _) = hht.newton_factorisations();
        println!("{name}: positions within {worst_q:.2e} m, accelerations {worst_a:.2e} m/s², {made} factorisations");
        assert!(worst_q <= hht.abs_tolerance, "{name}: {worst_q:e} m");
        assert!(worst_a * beta * 0.02 * 0.02 <= hht.abs_tolerance, "{name}: {worst_a:e} m/s²");
        assert!(made < 300, "{name}: {made} factorisations in 300 steps");
    }
}
