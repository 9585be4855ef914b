//! Banded, block-tridiagonal and block Gauss–Seidel against dense LU, their refusals, and
//! what `auto` picks.

use super::*;
use crate::fixtures::chain;
use crate::solver::assembly::{DofMap, System};
use crate::solver::topology::structure;

/// A reproducible stream of numbers in [−1, 1) (a linear congruential generator: the tests
/// need variety, not statistical quality).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// The chain's backward-Euler saddle matrix (`h` = 0.01 s), right-hand side and structure.
fn chain_system(n: usize, joints: bool) -> (SparseSaddle, DVector<f64>, Structure) {
    let (bodies, js, forces) = chain(n, joints);
    let dofs = DofMap::new(&bodies);
    let sys = System { joints: &js, forces: &forces, force_numerical: false };
    let asm = sys.assemble(&bodies, &dofs);
    let h = 1e-2;
    let a = &asm.mass - &asm.damping * h - &asm.stiffness * (h * h);
    let k = SparseSaddle::from_dense(&a, &asm.phi_q.transpose(), &asm.phi_q);
    let rhs = dense::stack(&asm.forces, &-&asm.phi);
    (k, rhs, structure(&sys, &bodies, &dofs, None))
}

/// `|x − x_dense|∞` relative to `|x_dense|∞`.
fn error_vs_dense(k: &SparseSaddle, rhs: &DVector<f64>, x: &DVector<f64>) -> f64 {
    let xd = k.to_dense().lu().solve(rhs).expect("regular");
    (x - &xd).amax() / xd.amax()
}

// Tolerances: every method here is a backward-stable factorisation (or, for Gauss–Seidel, an
// iteration stopped at a 1e-12 relative residual) of matrices whose condition numbers are
// below about 1e6 (the chain: 10 kg masses against h²K and unit joint rows; the random
// systems: diagonally weighted); 1e-8 relative leaves two orders above round-off times the
// condition number and is still far below any physical difference.
const TOL: f64 = 1e-8;

#[test]
fn banded_and_block_tridiagonal_match_dense_lu_on_chains() {
    for joints in [false, true] {
        let (k, rhs, s) = chain_system(20, joints);
        let xb = solve_banded(&k, &rhs).expect("banded");
        assert!(error_vs_dense(&k, &rhs, &xb) < TOL, "banded, joints {joints}");
        let blocks = s.blocks(&s.chain().expect("a chain"), k.n);
        let xt = solve_block_tridiagonal(&k, &blocks, &rhs).expect("block tridiagonal");
        assert!(error_vs_dense(&k, &rhs, &xt) < TOL, "block tridiagonal, joints {joints}");
    }
}

#[test]
fn the_reordering_makes_a_chain_narrow_banded() {
    // The saddle matrix as assembled (all DOFs, then all joint rows) has joint rows n columns
    // away from their bodies; after reverse Cuthill–McKee the band spans about two bodies
    // (12 DOFs plus their joint rows), whatever the length.
    let (k, _, _) = chain_system(40, true);
    let (_, kl, ku) = band_ordering(&k);
    assert!(kl <= 30 && ku <= 30, "kl {kl}, ku {ku} for {} unknowns", k.dim());
}

#[test]
fn banded_matches_dense_lu_on_random_systems() {
    let mut rng = Lcg(7);
    for trial in 0..5 {
        let (n, m) = (40 + 7 * trial, 5 + trial);
        let mut k = SparseSaddle::new(n, m);
        for i in 0..n {
            k.entries.push((i, i, 4.0 + rng.next()));
            for _ in 0..3 {
                let j = ((rng.next() + 1.0) * 0.5 * n as f64) as usize % n;
                k.entries.push((i, j, rng.next()));
            }
        }
        for r in 0..m {
            for _ in 0..3 {
                let j = ((rng.next() + 1.0) * 0.5 * n as f64) as usize % n;
                let v = rng.next() + 2.0;
                k.entries.push((n + r, j, v));
                k.entries.push((j, n + r, v));
            }
        }
        let rhs = DVector::from_fn(n + m, |_, _| rng.next());
        let x = solve_banded(&k, &rhs).expect("regular");
        assert!(error_vs_dense(&k, &rhs, &x) < TOL, "trial {trial}");
        let r = &rhs - k.mul(&x);
        assert!(r.amax() < 1e-10, "trial {trial}: residual {}", r.amax());
    }
}

#[test]
fn banded_refuses_a_singular_matrix() {
    let mut k = SparseSaddle::new(3, 0);
    k.entries.extend([(0, 0, 1.0), (0, 1, 2.0), (1, 0, 2.0), (1, 1, 4.0), (2, 2, 1.0)]);
    let rhs = DVector::from_element(3, 1.0);
    assert_eq!(solve_banded(&k, &rhs), Err(LinearError::Singular));
}

#[test]
fn block_tridiagonal_refuses_bodies_that_form_no_chain() {
    // A star: body 0 coupled to bodies 1, 2 and 3.
    let s = Structure {
        bodies: (0..4).map(|b| (format!("body {b}"), 6 * b..6 * b + 6)).collect(),
        rows: Vec::new(),
        links: vec![(0, 1), (0, 2), (0, 3)],
    };
    let e = s.chain().unwrap_err();
    assert!(e.contains("body 0 is coupled to 3 bodies"), "{e}");
    let mut k = SparseSaddle::new(24, 0);
    k.entries.extend((0..24).map(|i| (i, i, 1.0)));
    let f = DVector::from_element(24, 1.0);
    let err = solve_saddle(LinearSolverKind::BlockTridiagonal, Saddle::Sparse(&k), Some(&s), &f, &DVector::zeros(0))
        .unwrap_err();
    assert!(err.to_string().contains("needs the bodies to form a chain"), "{err}");
    // A loop of three bodies is no chain either.
    let ring = Structure { links: vec![(0, 1), (1, 2), (2, 0)], bodies: s.bodies[..3].to_vec(), rows: Vec::new() };
    assert!(ring.chain().unwrap_err().contains("closed loop"));
    // And a matrix entry that couples blocks which are not neighbours is refused too.
    let (mut k, rhs, s) = chain_system(5, false);
    k.entries.push((0, 29, 1.0));
    let blocks = s.blocks(&s.chain().unwrap(), k.n);
    assert!(matches!(solve_block_tridiagonal(&k, &blocks, &rhs), Err(LinearError::NotChain(_))));
}

#[test]
fn block_gauss_seidel_converges_to_dense_lu_on_chains() {
    for joints in [false, true] {
        let (k, rhs, s) = chain_system(20, joints);
        let f = rhs.rows(0, k.n).into_owned();
        let g = rhs.rows(k.n, k.m).into_owned();
        let sol =
            solve_saddle(LinearSolverKind::BlockGaussSeidel, Saddle::Sparse(&k), Some(&s), &f, &g).expect("converges");
        let x = dense::stack(&sol.x, &sol.y);
        assert!(error_vs_dense(&k, &rhs, &x) < TOL, "joints {joints}: {}", error_vs_dense(&k, &rhs, &x));
        assert!(sol.sweeps > 1, "an iteration, {} sweeps", sol.sweeps);
    }
}

#[test]
fn block_gauss_seidel_says_when_it_does_not_converge() {
    // Two one-unknown blocks coupled more strongly than each is to itself: the sweep's
    // amplification factor is 4, so it diverges.
    let mut k = SparseSaddle::new(2, 0);
    k.entries.extend([(0, 0, 1.0), (0, 1, 2.0), (1, 0, 2.0), (1, 1, 1.0)]);
    let s = Structure { bodies: vec![("a".into(), 0..1), ("b".into(), 1..2)], rows: Vec::new(), links: vec![(0, 1)] };
    let f = DVector::from_element(2, 1.0);
    let e = solve_saddle(LinearSolverKind::BlockGaussSeidel, Saddle::Sparse(&k), Some(&s), &f, &DVector::zeros(0))
        .unwrap_err();
    assert!(matches!(e, LinearError::NotConverged { .. }), "{e:?}");
    assert!(e.to_string().contains("did not converge"), "{e}");
}

#[test]
fn auto_picks_dense_for_small_block_tridiagonal_for_chains_and_sparse_otherwise() {
    let (_, _, small) = chain_system(2, true);
    assert_eq!(LinearSolverKind::Auto.choose(18, &small), LinearSolverKind::DenseLu);
    let (k, _, chain30) = chain_system(30, true);
    assert_eq!(LinearSolverKind::Auto.choose(k.dim(), &chain30), LinearSolverKind::BlockTridiagonal);
    // A general sparse system: 60 bodies, each coupled to three others far apart in the order.
    let bodies: Vec<(String, std::ops::Range<usize>)> =
        (0..60).map(|b| (format!("body {b}"), 6 * b..6 * b + 6)).collect();
    let links = (0..60).flat_map(|b| [(b, (b + 1) % 60), (b, (b + 17) % 60)]).collect();
    let general = Structure { bodies, rows: Vec::new(), links };
    assert_eq!(LinearSolverKind::Auto.choose(360, &general), LinearSolverKind::SparseLu);
    // A ladder (two chains joined rung by rung) is no chain but keeps a narrow band.
    let bodies: Vec<(String, std::ops::Range<usize>)> =
        (0..20).map(|b| (format!("body {b}"), 6 * b..6 * b + 6)).collect();
    let mut links: Vec<(usize, usize)> = (0..9).flat_map(|i| [(i, i + 1), (10 + i, 11 + i)]).collect();
    links.extend((0..10).map(|i| (i, 10 + i)));
    let ladder = Structure { bodies, rows: Vec::new(), links };
    assert_eq!(LinearSolverKind::Auto.choose(120, &ladder), LinearSolverKind::Banded);
    // A named method is kept whatever the structure.
    assert_eq!(LinearSolverKind::SparseLu.choose(10, &small), LinearSolverKind::SparseLu);
}

#[test]
fn every_method_solves_a_jointed_chain_through_solve_saddle() {
    let (k, rhs, s) = chain_system(12, true);
    let f = rhs.rows(0, k.n).into_owned();
    let g = rhs.rows(k.n, k.m).into_owned();
    for kind in [
        LinearSolverKind::DenseLu,
        LinearSolverKind::Banded,
        LinearSolverKind::BlockTridiagonal,
        LinearSolverKind::SparseLu,
        LinearSolverKind::BlockGaussSeidel,
        LinearSolverKind::Auto,
    ] {
        let sol = solve_saddle(kind, Saddle::Sparse(&k), Some(&s), &f, &g).unwrap_or_else(|e| panic!("{kind}: {e}"));
        let x = dense::stack(&sol.x, &sol.y);
        assert!(error_vs_dense(&k, &rhs, &x) < TOL, "{kind}");
        if kind != LinearSolverKind::Auto {
            assert_eq!(sol.method, kind);
        }
    }
    // Without the structure the block methods say what they miss.
    let e = solve_saddle(LinearSolverKind::BlockTridiagonal, Saddle::Sparse(&k), None, &f, &g).unwrap_err();
    assert_eq!(e, LinearError::NoStructure(LinearSolverKind::BlockTridiagonal));
}
