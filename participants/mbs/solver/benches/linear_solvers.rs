//! Assembly and solve time of one Newton saddle system per linear solver, on a chain of N
//! bodies like a mooring line (docs/performance.md, "MBS linear solvers"): N bodies joined by
//! TSDA springs (`springs`: no joint rows) or by TSDAs and spherical joints (`joints`), the
//! backward-Euler Newton matrix `M − hC − h²K` with `Φ_q`. For each N and variant: the median
//! time to assemble (dense, as every integrator does) and to solve with each solver, and the
//! largest difference of the solutions from dense LU's.
//!
//! `cargo bench -p tidelink-mbs-solver --bench linear_solvers [-- REPS [N ...]]`
//! (defaults: 5 repetitions; N = 10 50 200 1000). Dense LU is skipped above 400 bodies (its
//! n³ cost would take minutes); N = 2000 is refused while the assembly is dense (several GB).

use nalgebra::{DMatrix, DVector};
use std::time::Instant;
use tidelink_mbs_solver::fixtures::chain;
use tidelink_mbs_solver::solver::assembly::{DofMap, System};
use tidelink_mbs_solver::solver::linear::{solve_saddle_with, LinearSolverKind};

/// Above this many bodies dense LU is not timed.
const DENSE_MAX_BODIES: usize = 400;
/// Above this many bodies the dense assembly alone needs several GB.
const ASSEMBLY_MAX_BODIES: usize = 1000;

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// Median seconds of `reps` runs of `f`, and its last result.
fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut ts = Vec::with_capacity(reps);
    let mut last = None;
    for _ in 0..reps {
        let t0 = Instant::now();
        last = Some(f());
        ts.push(t0.elapsed().as_secs_f64());
    }
    (median(ts), last.expect("at least one repetition"))
}

type Saddle = (DMatrix<f64>, DMatrix<f64>, DMatrix<f64>, DVector<f64>, DVector<f64>);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let reps = args.first().and_then(|a| a.parse().ok()).unwrap_or(5usize).max(1);
    let sizes: Vec<usize> = if args.len() > 1 {
        args[1..].iter().filter_map(|a| a.parse().ok()).collect()
    } else {
        vec![10, 50, 200, 1000]
    };
    println!("reps {reps}; times are medians in ms; diff = max |x - x_dense|");
    println!(
        "{:>5} {:>7} {:>6} {:>6} {:>10} {:>10} {:>10} {:>9}",
        "N", "variant", "dofs", "rows", "assemble", "dense", "sparse", "diff"
    );
    for &n in &sizes {
        if n > ASSEMBLY_MAX_BODIES {
            println!("{n:>5}: skipped, the dense assembly of {} DOFs needs several GB", 6 * n);
            continue;
        }
        for joints in [false, true] {
            let (bodies, js, forces) = chain(n, joints);
            let dofs = DofMap::new(&bodies);
            let sys = System { joints: &js, forces: &forces, force_numerical: false };
            let h = 1e-2;
            let (t_asm, saddle): (f64, Saddle) = time(reps, || {
                let asm = sys.assemble(&bodies, &dofs);
                let a = &asm.mass - &asm.damping * h - &asm.stiffness * (h * h);
                let bt = asm.phi_q.transpose();
                (a, bt, asm.phi_q, asm.forces, -asm.phi)
            });
            let (a, bt, c, f, g) = &saddle;
            let solve = |k| solve_saddle_with(k, a, bt, c, f, g).expect("the chain's saddle system is regular");
            let (t_sparse, xs) = time(reps, || solve(LinearSolverKind::SparseLu));
            let (t_dense, diff) = if n <= DENSE_MAX_BODIES {
                let (t, xd) = time(reps, || solve(LinearSolverKind::DenseLu));
                let d = (&xs.0 - &xd.0).amax().max((&xs.1 - &xd.1).amax());
                (format!("{:.3}", t * 1e3), format!("{d:.1e}"))
            } else {
                ("-".into(), "-".into())
            };
            println!(
                "{n:>5} {:>7} {:>6} {:>6} {:>10.3} {:>10} {:>10.3} {:>9}",
                if joints { "joints" } else { "springs" },
                dofs.n,
                c.nrows(),
                t_asm * 1e3,
                t_dense,
                t_sparse * 1e3,
                diff
            );
        }
    }
}
