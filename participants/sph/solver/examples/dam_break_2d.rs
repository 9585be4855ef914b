//! The 2D dam break at finer resolutions than the test: runs each a/dp given (default 25 and
//! 50) to T = 3, prints the front against the experiments and writes
//! `<out>/sph_dam_break_front.png` and one CSV of (T, Z) per resolution.
//!
//! `cargo run --release -p tidelink-sph-solver --example dam_break_2d -- <out folder> [a/dp ...]`

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use support::{at, dam_break_2d, plot, run_dam_break, KOSHIZUKA_OKA};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = PathBuf::from(args.first().cloned().unwrap_or_else(|| ".".into()));
    let resolutions: Vec<usize> = if args.len() > 1 {
        args[1..].iter().map(|s| s.parse().map_err(|e| format!("{s}: {e}"))).collect::<Result<_, _>>()?
    } else {
        vec![25, 50]
    };
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let mut histories = Vec::new();
    for &r in &resolutions {
        let start = Instant::now();
        let mut sim = dam_break_2d(1.0, r);
        let n = sim.fluid_count();
        let h = run_dam_break(&mut sim, 1.0, 3.0, 60);
        println!("a/dp = {r}: {n} fluid particles, {} steps, {:.1} s wall", sim.steps(), start.elapsed().as_secs_f64());
        for &(t, z) in KOSHIZUKA_OKA.iter().filter(|p| p.0 <= 3.0) {
            let zs = at(&h, t);
            println!("  T = {t:.2}: K&O {z:.2}, SPH {zs:.3} ({:+.1} %)", 100.0 * (zs / z - 1.0));
        }
        let csv = out.join(format!("sph_dam_break_front_{r}.csv"));
        let mut f = std::fs::File::create(&csv).map_err(|e| e.to_string())?;
        writeln!(f, "T,Z").map_err(|e| e.to_string())?;
        for (t, z) in &h {
            writeln!(f, "{t},{z}").map_err(|e| e.to_string())?;
        }
        histories.push((r, n, h));
    }
    let runs: Vec<plot::Run> = histories
        .iter()
        .map(|(r, n, h)| plot::Run { label: format!("SPH, a/dp = {r} ({n} particles)"), points: h })
        .collect();
    let png = out.join("sph_dam_break_front.png");
    plot::front_png(&png, "2D dam break: surge front", &runs)?;
    println!("plot: {}", png.display());
    Ok(())
}
