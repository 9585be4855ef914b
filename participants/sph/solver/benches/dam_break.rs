//! Throughput of the SPH step on dam breaks: a 3D one at ≥ 100 k fluid particles (cubic spline,
//! h = 1.73 dp) and a 2D one at ≥ 20 k (Wendland, h = 1.41 dp), with one thread and with all.
//! Prints particle-steps per second of wall time and per CPU-second (getrusage: robust on a
//! loaded machine), neighbours per particle and parallel efficiency.
//!
//! Run: `cargo bench -p tidelink-sph-solver --bench dam_break` (`-- 2d` or `-- 3d` for one case;
//! `SPH_BENCH_STEPS` to change the measured steps).

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Instant;
use tidelink_sph_solver::Simulation;

fn cpu_seconds() -> f64 {
    // SAFETY: rusage is plain integers, for which all-zero bytes are a valid value.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes the struct we pass and nothing else.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

struct Measure {
    wall: f64,
    cpu: f64,
    steps: usize,
}

fn measure(
    build: &(dyn Fn() -> Simulation + Sync),
    warm: usize,
    steps: usize,
    threads: usize,
) -> (Measure, usize, usize, f64) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
    pool.install(|| {
        let mut sim = build();
        for _ in 0..warm {
            let dt = sim.stable_time_step().unwrap();
            sim.step(dt).unwrap();
        }
        let neighbours = sim.mean_neighbours().unwrap();
        let (w0, c0) = (Instant::now(), cpu_seconds());
        for _ in 0..steps {
            let dt = sim.stable_time_step().unwrap();
            sim.step(dt).unwrap();
        }
        let m = Measure { wall: w0.elapsed().as_secs_f64(), cpu: cpu_seconds() - c0, steps };
        (m, sim.fluid_count(), sim.marker_count(), neighbours)
    })
}

fn case(name: &str, build: &(dyn Fn() -> Simulation + Sync), warm: usize, steps: usize) {
    let all = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!("\n{name}");
    let mut one = None;
    for threads in [1, all] {
        let (m, n, markers, nb) = measure(build, warm, steps, threads);
        let ps = (n * m.steps) as f64;
        println!(
            "  threads {threads}: {n} fluid + {markers} markers, {nb:.1} neighbours/particle, {} steps: \
             {:.3} M particle-steps/s wall, {:.3} M per CPU-s ({:.1} ms/step, CPU/wall {:.2})",
            m.steps,
            ps / m.wall / 1e6,
            ps / m.cpu / 1e6,
            1e3 * m.wall / m.steps as f64,
            m.cpu / m.wall
        );
        match one {
            None => one = Some(m.wall),
            Some(w1) if threads > 1 => {
                println!(
                    "  parallel efficiency on {threads} threads: {:.2} (speed-up {:.2})",
                    w1 / m.wall / threads as f64,
                    w1 / m.wall
                );
            }
            _ => {}
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let want = |c: &str| !args.iter().any(|a| a == "2d" || a == "3d") || args.iter().any(|a| a == c);
    let steps: usize = std::env::var("SPH_BENCH_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    if want("2d") {
        case(
            "2D dam break, a = 1 m, dp = a/100 (Wendland, h = 1.41 dp, α = 0.02, δ-SPH 0.1, symplectic, CFL 0.2)",
            &|| support::dam_break_2d(1.0, 100),
            20,
            if steps > 0 { steps } else { 100 },
        );
    }
    if want("3d") {
        case(
            "3D dam break, tank 1.6 × 0.67 × 0.4 m, dp = 9 mm (cubic spline, h = 1.73 dp, α = 0.02, δ-SPH 0.1, symplectic, CFL 0.2)",
            &|| support::dam_break_3d(0.009),
            5,
            if steps > 0 { steps } else { 10 },
        );
    }
}
