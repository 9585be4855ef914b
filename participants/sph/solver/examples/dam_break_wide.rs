//! Code-to-code check of the dam-break front: the wide dam break of Marrone et al. (2011),
//! "δ-SPH model for simulating violent impact flows" (water H = 0.6 m high and W = 2H wide at
//! the left end of a tank 5.366 H long), which TrixiParticles.jl runs as its 2D validation case
//! with the same family of model (weakly compressible SPH, Wendland C2, Adami-type free-slip
//! walls, artificial viscosity α = 0.02, δ-SPH δ = 0.1, c0 = 20 √(g H)). It prints the front,
//! the rightmost particle's centre as TrixiParticles records it, at t √(g/H) = 0.25 … 2.4
//! (when the front reaches the far wall), and, given that project's reference result file,
//! the difference (docs/sph.md, "Dam break").
//!
//! `cargo run --release -p tidelink-sph-solver --example dam_break_wide -- H_OVER_DP
//!  [h=RATIO] [wall_viscosity=false] [reference=FILE.json]`
//!
//! `wall_viscosity=false` switches off artificial viscosity between fluid and wall markers, as
//! TrixiParticles' walls have none (ours have it by default, as DualSPHysics').
//!
//! `FILE.json`: a `validation/dam_break_2d/validation_reference_wcsph_*.json` of a
//! TrixiParticles.jl checkout (its `max_x_coord_fluid_1` series: time in s, front x in m).
//! Nothing of it is stored here; it is read when given.

#[path = "../tests/support/mod.rs"]
mod support;

use nalgebra::Point3;
use support::{add_tank, at, G};
use tidelink_sph_solver::{Dimension, Parameters, Scene};

/// The instants printed, t √(g/H).
const INSTANTS: [f64; 10] = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.4];

/// Reads another code's front history, (t √(g/H), x/H), from its JSON result file.
fn reference(path: &str, h0: f64) -> Result<Vec<(f64, f64)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let series = &json["max_x_coord_fluid_1"];
    let list = |key: &str| -> Result<Vec<f64>, String> {
        series[key]
            .as_array()
            .ok_or_else(|| format!("{path}: no max_x_coord_fluid_1.{key} array"))?
            .iter()
            .map(|v| v.as_f64().ok_or_else(|| format!("{path}: a non-number in max_x_coord_fluid_1.{key}")))
            .collect()
    };
    let (t, x) = (list("time")?, list("values")?);
    if t.len() != x.len() || t.len() < 2 {
        return Err(format!("{path}: max_x_coord_fluid_1 has {} times and {} values", t.len(), x.len()));
    }
    let scale = (G / h0).sqrt();
    Ok(t.iter().zip(&x).map(|(t, x)| (t * scale, x / h0)).collect())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: H_OVER_DP [h=RATIO] [wall_viscosity=false] [reference=FILE.json]";
    let res: f64 = args.first().ok_or(usage)?.parse().map_err(|e| format!("H_OVER_DP: {e}"))?;
    let h0 = 0.6;
    let dp = h0 / res;
    let mut params = Parameters::new(Dimension::Two, dp, Parameters::sound_speed_for_depth(h0, G));
    let mut other = None;
    for o in &args[1..] {
        match o.split_once('=') {
            Some(("h", v)) => params.smoothing_ratio = v.parse().map_err(|e| format!("{o}: {e}"))?,
            Some(("wall_viscosity", v)) => {
                params.boundary.artificial_viscosity = v.parse().map_err(|e| format!("{o}: {e}"))?
            }
            Some(("reference", file)) => other = Some(reference(file, h0)?),
            _ => return Err(format!("unknown option {o}; {usage}")),
        }
    }
    let (ratio, wall) = (params.smoothing_ratio, params.boundary.artificial_viscosity);
    let thick = params.marker_layers() as f64 * dp;
    let mut scene = Scene::new(params);
    scene.add_fluid_box(Point3::origin(), Point3::new(2.0 * h0, 0.0, h0));
    scene.set_hydrostatic_surface(h0);
    let length = (5.366 * h0 / dp).floor() * dp;
    add_tank(&mut scene, [length, 0.0, 2.0 * h0], thick);
    let mut sim = scene.build().map_err(|e| e.to_string())?;
    let scale = (G / h0).sqrt();
    println!(
        "wide dam break, H/dp = {res}, h = {ratio:.2} dp, artificial viscosity at walls {wall}, {} particles",
        sim.fluid_count()
    );
    for s in INSTANTS {
        sim.advance(s / scale - sim.time()).map_err(|e| e.to_string())?;
        let x = sim.fluid_positions().iter().map(|p| p.x).fold(f64::MIN, f64::max) / h0;
        match &other {
            Some(r) => {
                let y = at(r, s);
                println!(
                    "  t √(g/H) = {s:.2}: x/H = {x:.4}, reference {y:.4} ({:+.2} % of the distance run)",
                    100.0 * (x - y) / (y - 2.0)
                );
            }
            None => println!("  t √(g/H) = {s:.2}: x/H = {x:.4}"),
        }
    }
    println!("{} steps", sim.steps());
    Ok(())
}
