//! The linear solvers against dense LU: the same saddle solution and the same integrator
//! steps, on a chain of bodies joined by springs and spherical joints.

use super::*;
use crate::dynamics::body_set::BodySet;
use crate::fixtures::chain;
use crate::solver::assembly::{DofMap, System};
use crate::solver::bdf::Bdf;
use crate::solver::euler_implicit::LinearizedImplicitEuler;
use crate::solver::hht::Hht;
use crate::solver::integrator::Integrator;

/// The BDF-like Newton matrix `M − h C − h² K` and `Φ_q` of a `n`-body chain with joints,
/// with the constraint residual and forces as right-hand sides.
fn chain_saddle(n: usize) -> (DMatrix<f64>, DMatrix<f64>, DVector<f64>, DVector<f64>) {
    let (bodies, joints, forces) = chain(n, true);
    let dofs = DofMap::new(&bodies);
    let sys = System { joints: &joints, forces: &forces, force_numerical: false };
    let asm = sys.assemble(&bodies, &dofs);
    let h = 1e-2;
    let a = &asm.mass - &asm.damping * h - &asm.stiffness * (h * h);
    (a, asm.phi_q.clone(), asm.forces.clone(), -&asm.phi)
}

#[test]
fn sparse_lu_gives_dense_lu_solution_on_a_jointed_chain() {
    // 30 bodies: 180 DOFs and 90 joint rows, above the `auto` threshold.
    let (a, c, f, g) = chain_saddle(30);
    let bt = c.transpose();
    let (xd, yd) = solve_saddle_with(LinearSolverKind::DenseLu, &a, &bt, &c, &f, &g).expect("dense solves");
    let (xs, ys) = solve_saddle_with(LinearSolverKind::SparseLu, &a, &bt, &c, &f, &g).expect("sparse solves");
    // Both are backward-stable LU solves of a system whose condition number is about 1e6
    // (masses 10 kg against h²K and unit-scaled joint rows): agreement to 1e-9 of the
    // solution's size is round-off, far below any physical difference.
    let scale = xd.amax().max(yd.amax());
    assert!((&xs - &xd).amax() <= 1e-9 * scale, "x differs by {}", (&xs - &xd).amax());
    assert!((&ys - &yd).amax() <= 1e-9 * scale, "y differs by {}", (&ys - &yd).amax());
    // And it is a solution, not merely the same one: the residual is round-off too.
    let r = &a * &xs + &bt * &ys - &f;
    assert!(r.amax() <= 1e-9 * f.amax().max(1.0), "residual {}", r.amax());
}

#[test]
fn a_singular_saddle_system_is_none_for_every_solver() {
    // Two joints imposing the same equations: Φ_q has dependent rows.
    let (a, c, f, g) = chain_saddle(3);
    let c2 = DMatrix::from_fn(c.nrows() + 1, c.ncols(), |i, j| c[(i.min(c.nrows() - 1), j)]);
    let g2 = DVector::from_fn(g.len() + 1, |i, _| g[i.min(g.len() - 1)]);
    for kind in [LinearSolverKind::DenseLu, LinearSolverKind::SparseLu] {
        assert!(solve_saddle_with(kind, &a, &c2.transpose(), &c2, &f, &g2).is_none(), "{kind} solved it");
    }
}

#[test]
fn auto_without_structure_is_dense_below_the_threshold_and_sparse_above() {
    assert_eq!(LinearSolverKind::Auto.resolve(AUTO_DENSE_BELOW - 1), LinearSolverKind::DenseLu);
    assert_eq!(LinearSolverKind::Auto.resolve(AUTO_DENSE_BELOW), LinearSolverKind::SparseLu);
    assert_eq!(LinearSolverKind::DenseLu.resolve(10_000), LinearSolverKind::DenseLu);
    assert_eq!(LinearSolverKind::default(), LinearSolverKind::Auto);
}

#[test]
fn names_parse_case_insensitively_and_print_back() {
    for name in LinearSolverKind::NAMES {
        let k = LinearSolverKind::parse(&name.to_uppercase()).expect("our own name");
        assert_eq!(k.to_string(), *name);
    }
    assert_eq!(LinearSolverKind::parse("sparse_lu"), Some(LinearSolverKind::SparseLu));
    assert_eq!(LinearSolverKind::parse("pardiso"), None);
}

/// The body positions after `steps` steps of `make(kind)` on a 12-body chain (with `joints`).
fn run(mut integrator: Box<dyn Integrator>, steps: usize, joints: bool) -> Vec<f64> {
    let (mut bodies, joints, forces): (BodySet, _, _) = chain(12, joints);
    for _ in 0..steps {
        integrator.step_system(&mut bodies, &joints, &forces, 1e-2).expect("the chain steps");
    }
    bodies.iter().flat_map(|(_, b)| b.position.iter().copied().collect::<Vec<_>>()).collect()
}

#[test]
fn every_integrator_takes_the_same_steps_with_sparse_and_dense_lu() {
    // 12 bodies: 72 DOFs + 36 joint rows, so `auto` would pick sparse; both named explicitly.
    let make: [fn(LinearSolverKind) -> Box<dyn Integrator>; 3] = [
        |k| {
            let mut i = Hht::default();
            i.linear_solver = k;
            Box::new(i)
        },
        |k| {
            let mut i = Bdf::new(2).expect("order 2");
            i.linear_solver = k;
            Box::new(i)
        },
        |k| {
            let mut i = LinearizedImplicitEuler::new();
            i.linear_solver = k;
            Box::new(i)
        },
    ];
    for m in make {
        // Every other method runs on the sparse assembly (and, for HHT and linearized Euler,
        // the sparse projections). Block Gauss–Seidel on the chain of springs only: with joints
        // it needs more sweeps than its limit at this length (tests_block.rs).
        for (kind, joints) in [
            (LinearSolverKind::SparseLu, true),
            (LinearSolverKind::Banded, true),
            (LinearSolverKind::BlockTridiagonal, true),
            (LinearSolverKind::Auto, true),
            (LinearSolverKind::BlockGaussSeidel, false),
        ] {
            let dense = run(m(LinearSolverKind::DenseLu), 5, joints);
            let other = run(m(kind), 5, joints);
            // Newton stops at a 1e-10 m update; the factorisations differ by round-off (block
            // Gauss–Seidel by its 1e-12 relative residual), which can shift where it stops by
            // about that much per step: 1e-8 m over 5 steps.
            let diff = dense.iter().zip(&other).map(|(d, s)| (d - s).abs()).fold(0.0, f64::max);
            assert!(diff <= 1e-8, "{} with {kind} differs by {diff} m", m(LinearSolverKind::Auto).name());
        }
    }
}

#[test]
fn the_integrators_report_the_method_auto_picked() {
    // A 12-body jointed chain (108 unknowns): `auto` takes block-tridiagonal LU.
    let (mut bodies, joints, forces): (BodySet, _, _) = chain(12, true);
    let mut bdf = Bdf::new(2).expect("order 2");
    bdf.step_system(&mut bodies, &joints, &forces, 1e-2).expect("the chain steps");
    let stats = bdf.linear_stats().copied().expect("a Newton system was solved");
    assert_eq!(
        (stats.requested, stats.method, stats.unknowns),
        (LinearSolverKind::Auto, LinearSolverKind::BlockTridiagonal, 108)
    );
    assert!(stats.to_string().contains("`block_tridiagonal` on 108 unknowns"), "{stats}");
    // A 2-body chain stays dense.
    let (mut bodies, joints, forces): (BodySet, _, _) = chain(2, true);
    let mut bdf = Bdf::new(2).expect("order 2");
    bdf.step_system(&mut bodies, &joints, &forces, 1e-2).expect("the chain steps");
    assert_eq!(bdf.linear_stats().map(|s| s.method), Some(LinearSolverKind::DenseLu));
}

#[test]
fn an_empty_system_solves_to_nothing_with_every_solver() {
    let (e, v) = (DMatrix::zeros(0, 0), DVector::zeros(0));
    for kind in [LinearSolverKind::DenseLu, LinearSolverKind::SparseLu, LinearSolverKind::Auto] {
        let (x, y) = solve_saddle_with(kind, &e, &e, &e, &v, &v).expect("an empty system");
        assert_eq!((x.len(), y.len()), (0, 0), "{kind}");
    }
}
