//! Assembly and solve time of one Newton saddle system per linear solver, on a chain of N
//! bodies like a mooring line (docs/performance.md, "MBS linear solvers"): N bodies joined by
//! TSDA springs (`springs`: no joint rows) or by TSDAs and spherical joints (`joints`), the
//! backward-Euler Newton matrix `[M − hC − h²K, Φ_qᵀ; Φ_q, 0]` at h = 0.01 s.
//!
//! Per N and variant: the median time to assemble densely (what dense LU needs) and as
//! entries (what every other solver takes), and to solve with each solver, each as a ratio
//! to the baseline measured in the same run (dense assembly; sparse LU's solve, the one
//! method that runs at every size), and the largest difference of each solution from sparse
//! LU's. Dense assembly and dense LU are skipped where they would take too long or need
//! gigabytes (printed as `-`, and said so below the table).
//!
//! `cargo bench -p tidelink-mbs-solver --bench linear_solvers [-- REPS [N ...]]`
//! (defaults: 5 repetitions, 3 above 300 bodies; N = 10 30 100 300 1000 2000).

use std::time::Instant;
use tidelink_mbs_solver::fixtures::chain;
use tidelink_mbs_solver::solver::assembly::{DofMap, System};
use tidelink_mbs_solver::solver::jacobian::JacobianPolicy;
use tidelink_mbs_solver::solver::linear::{solve_saddle, LinearError, LinearSolverKind, Saddle};
use tidelink_mbs_solver::solver::topology::structure;

/// Above this many bodies the dense assembly is not timed (three 6N × 6N arrays: 2.6 GB at N = 1000).
const DENSE_ASSEMBLY_MAX_BODIES: usize = 300;
/// Above this many bodies dense LU is not timed (n³: about a minute per solve at N = 1000).
const DENSE_LU_MAX_BODIES: usize = 300;

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

const SOLVERS: [LinearSolverKind; 5] = [
    LinearSolverKind::DenseLu,
    LinearSolverKind::Banded,
    LinearSolverKind::BlockTridiagonal,
    LinearSolverKind::SparseLu,
    LinearSolverKind::BlockGaussSeidel,
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let reps_arg: Option<usize> = args.first().and_then(|a| a.parse().ok());
    let sizes: Vec<usize> = if args.len() > 1 {
        args[1..].iter().filter_map(|a| a.parse().ok()).collect()
    } else {
        vec![10, 30, 100, 300, 1000, 2000]
    };
    println!("times: medians in ms; (x) = ratio to the baseline of the same row (assembly: dense; solve: sparse LU)");
    println!("diff = max |x - x_sparseLU| over the solution; auto = what `auto` picks");
    println!(
        "{:>5} {:>7} {:>6} | {:>9} {:>16} | {:>18} {:>18} {:>18} {:>9} {:>22} | {:>9} {:>17}",
        "N",
        "variant",
        "unkn",
        "asm dense",
        "asm sparse",
        "dense LU",
        "banded",
        "block-tridiag",
        "sparse LU",
        "block GS (sweeps)",
        "max diff",
        "auto"
    );
    let h = 1e-2;
    let mut skipped = Vec::new();
    for &n in &sizes {
        let reps = reps_arg.unwrap_or(if n > 300 { 3 } else { 5 }).max(1);
        for joints in [false, true] {
            let (bodies, js, forces) = chain(n, joints);
            let dofs = DofMap::new(&bodies);
            let sys = System { joints: &js, forces: &forces, force_numerical: false };
            let st = structure(&sys, &bodies, &dofs, None);
            let variant = if joints { "joints" } else { "springs" };
            let t_dense_asm = (n <= DENSE_ASSEMBLY_MAX_BODIES).then(|| {
                time(reps, || {
                    let asm = sys.assemble_full(&bodies, &dofs, None, JacobianPolicy::Auto).expect("assembles");
                    let a = &asm.mass - &asm.damping * h - &asm.stiffness * (h * h);
                    (a, asm.phi_q.transpose(), asm.phi_q)
                })
                .0
            });
            let (t_sparse_asm, (k, f, g)) = time(reps, || {
                let asm = sys.assemble_sparse(&bodies, &dofs, None, JacobianPolicy::Auto).expect("assembles");
                (asm.newton(h, h * h, 1.0), asm.forces, -asm.phi)
            });
            let unknowns = k.dim();
            let solve = |kind| solve_saddle(kind, Saddle::Sparse(&k), Some(&st), &f, &g);
            let (t_base, base) = time(reps, || solve(LinearSolverKind::SparseLu).expect("sparse LU solves the chain"));
            let xb = base.x.iter().chain(base.y.iter()).copied().collect::<Vec<f64>>();
            let mut cells = Vec::new();
            let mut worst: f64 = 0.0;
            for kind in SOLVERS {
                if kind == LinearSolverKind::DenseLu && n > DENSE_LU_MAX_BODIES {
                    cells.push("-".to_string());
                    continue;
                }
                let (t, sol) = time(reps, || solve(kind));
                match sol {
                    Ok(s) => {
                        let d = s.x.iter().chain(s.y.iter()).zip(&xb).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
                        worst = worst.max(d);
                        let sweeps = if s.sweeps > 0 { format!(" ({})", s.sweeps) } else { String::new() };
                        cells.push(format!("{:.3} ({:.2}){sweeps}", t * 1e3, t / t_base));
                    }
                    Err(LinearError::NotConverged { sweeps, .. }) => cells.push(format!("no conv. ({sweeps})")),
                    Err(e) => {
                        println!("N = {n} {variant}: {kind} failed: {e}");
                        cells.push("failed".into());
                    }
                }
            }
            let asm_dense = t_dense_asm.map_or("-".to_string(), |t| format!("{:.3}", t * 1e3));
            let asm_sparse = match t_dense_asm {
                Some(td) => format!("{:.3} ({:.2})", t_sparse_asm * 1e3, t_sparse_asm / td),
                None => format!("{:.3}", t_sparse_asm * 1e3),
            };
            let auto = LinearSolverKind::Auto.choose(unknowns, &st);
            println!(
                "{n:>5} {variant:>7} {unknowns:>6} | {asm_dense:>9} {asm_sparse:>16} | {:>18} {:>18} {:>18} {:>9.3} {:>22} | {:>9.1e} {:>17}",
                cells[0], cells[1], cells[2], t_base * 1e3, cells[4], worst, auto.to_string()
            );
            if n > DENSE_ASSEMBLY_MAX_BODIES {
                skipped.push(n);
            }
        }
    }
    skipped.dedup();
    if !skipped.is_empty() {
        println!(
            "skipped (-): dense assembly above {DENSE_ASSEMBLY_MAX_BODIES} bodies and dense LU above {DENSE_LU_MAX_BODIES} bodies \
             (N = {skipped:?}): gigabytes of arrays and n³ time"
        );
    }
}
