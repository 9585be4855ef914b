//! The smallest coupled participant: the per-window loop of a solver that does no work, for
//! measuring what a coupling window costs (bindings/python/benches/window_overhead.py runs it
//! against its Python twin, bindings/python/benches/window_loop.py; docs/performance.md,
//! "Python participants").
//!
//! ```text
//! window_loop <A|B> <precice-config.xml> [--backend native|precice]
//! ```
//!
//! Participant `A` provides `A-Mesh`, `B` provides `B-Mesh`, each with `TL_VERTICES` vertices
//! (environment, default 1) on a line, in the mesh's dimension. Every step writes `Out` = ½·`In` + 1 (read at the end of
//! the step) on its mesh; implicit windows restore nothing (the solver has no state). Prints
//! one line `windows=<n> iterations=<m> seconds=<s> cpu=<s>`: the windows completed, the
//! advances that ended an iteration, the time from after `initialize` to before `finalize`, and
//! the CPU time its thread spent meanwhile (Linux's /proc/thread-self/schedstat; `cpu=nan`
//! elsewhere), as the Python twin measures it.

use std::time::Instant;
use tidelink_coupling::{self as coupling, Backend, Coupling, CouplingError};

/// The names of the participant's mesh and of the data it writes and reads.
fn names(participant: &str) -> Result<(String, &'static str, &'static str), String> {
    match participant {
        "A" => Ok(("A-Mesh".into(), "AToB", "BToA")),
        "B" => Ok(("B-Mesh".into(), "BToA", "AToB")),
        other => Err(format!("unknown participant \"{other}\"; use A or B")),
    }
}

/// Runs the loop; returns (windows, iterations, seconds, CPU seconds).
/// The CPU time this thread has run, in seconds (the first field of Linux's
/// /proc/thread-self/schedstat, in ns); NaN where there is no such file.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()))
        .map_or(f64::NAN, |ns| ns * 1e-9)
}

fn run(
    participant: &str,
    config: &std::path::Path,
    backend: Backend,
    n: usize,
) -> Result<(u64, u64, f64, f64), String> {
    let (mesh, write, read) = names(participant)?;
    let err = |e: CouplingError| e.to_string();
    let settings = coupling::native::Settings::from_env().map_err(err)?;
    let mut c: Box<dyn Coupling> = coupling::open_with(backend, participant, config, settings).map_err(err)?;
    let dim = c.get_mesh_dimensions(&mesh).map_err(err)?;
    let positions: Vec<f64> = (0..n).flat_map(|i| (0..dim).map(move |d| if d == 0 { i as f64 } else { 0.0 })).collect();
    let mut ids = vec![0; n];
    c.set_mesh_vertices(&mesh, &positions, &mut ids).map_err(err)?;
    let components = c.get_data_dimensions(&mesh, write).map_err(err)?;
    let mut values = vec![0.0; n * components];
    let mut input = vec![0.0; n * components];
    if c.requires_initial_data().map_err(err)? {
        c.write_data(&mesh, write, &ids, &values).map_err(err)?;
    }
    c.initialize().map_err(err)?;
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    let (mut windows, mut iterations) = (0u64, 0u64);
    while c.is_coupling_ongoing().map_err(err)? {
        c.requires_writing_checkpoint().map_err(err)?;
        let dt = c.get_max_time_step_size().map_err(err)?;
        c.read_data(&mesh, read, &ids, dt, &mut input).map_err(err)?;
        for (v, x) in values.iter_mut().zip(&input) {
            *v = 0.5 * x + 1.0;
        }
        c.write_data(&mesh, write, &ids, &values).map_err(err)?;
        c.advance(dt).map_err(err)?;
        iterations += 1;
        c.requires_reading_checkpoint().map_err(err)?;
        if c.is_time_window_complete().map_err(err)? {
            windows += 1;
        }
    }
    let (seconds, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu_start);
    c.finalize().map_err(err)?;
    Ok((windows, iterations, seconds, cpu))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: window_loop <A|B> <precice-config.xml> [--backend native|precice]";
    let (participant, config, backend) = match args.as_slice() {
        [p, c] => (p, c, Ok(Backend::Native)),
        [p, c, flag, b] if flag == "--backend" => (p, c, b.parse::<Backend>().map_err(|e| e.to_string())),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let vertices = std::env::var("TL_VERTICES").ok().map(|v| v.parse::<usize>());
    let outcome = match (backend, vertices) {
        (Err(e), _) => Err(e),
        (_, Some(Err(e))) => Err(format!("TL_VERTICES: {e}")),
        (Ok(backend), v) => run(participant, std::path::Path::new(config), backend, v.map_or(1, |v| v.unwrap_or(1))),
    };
    match outcome {
        Ok((windows, iterations, seconds, cpu)) => {
            println!("windows={windows} iterations={iterations} seconds={seconds} cpu={cpu}")
        }
        Err(e) => {
            eprintln!("window_loop: {e}");
            std::process::exit(1);
        }
    }
}
