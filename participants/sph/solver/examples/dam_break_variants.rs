//! The 2D dam break under variations of the model, to find where the surge front's lead over
//! the experiments comes from (docs/sph.md, "Dam break"). Prints, at the experiments' instants,
//! the front as the test defines it (rightmost particle + dp/2) and the rightmost particle that
//! still has at least `k` fluid neighbours within 2h (what a camera sees as water, not spray),
//! or the rightmost place where the water is at least a given depth.
//!
//! `cargo run --release -p tidelink-sph-solver --example dam_break_variants -- A_OVER_DP [option ...]`
//!
//! Options: `no_slip` (walls), `no_wall_viscosity` (no artificial viscosity between fluid and
//! walls: a frictionless free-slip floor), `alpha=X` (artificial viscosity), `gate=V` (a gate at x = a,
//! lifted at V m/s from t = 0, for a = 1 m), `no_hydrostatic` (start at uniform density),
//! `sound=F` (sound speed F √(g 2a) instead of 20 √(g 2a)), `delta=X` (δ-SPH), `k=N`
//! (neighbours for the second front, default 4), `depth=D` (the second front is instead where
//! the water is at least D a deep).

#[path = "../tests/support/mod.rs"]
mod support;

use nalgebra::{Point3, Vector3};
use support::{add_tank, at, slab, G, KOSHIZUKA_OKA};
use tidelink_sph_solver::{DensityDiffusion, Dimension, Parameters, Scene, Simulation, Viscosity};

/// The rightmost particle with at least `k` fluid neighbours within `radius`, plus dp/2.
fn dense_front(sim: &Simulation, radius: f64, k: usize) -> f64 {
    let mut x: Vec<Point3<f64>> = sim.fluid_positions();
    x.sort_by(|p, q| p.x.total_cmp(&q.x));
    let r2 = radius * radius;
    for i in (0..x.len()).rev() {
        let near = x.iter().filter(|q| (q.x - x[i].x).abs() < radius && (*q - x[i]).norm_squared() < r2).count() - 1;
        if near >= k {
            return x[i].x + 0.5 * sim.parameters().spacing;
        }
    }
    f64::NAN
}

/// The rightmost x (plus dp/2) where the water is at least `depth` deep: particles are counted
/// in columns one spacing wide, each standing for dp of depth.
fn deep_front(sim: &Simulation, depth: f64) -> f64 {
    let dp = sim.parameters().spacing;
    let mut columns = std::collections::BTreeMap::<i64, usize>::new();
    for p in sim.fluid_positions() {
        *columns.entry((p.x / dp).floor() as i64).or_default() += 1;
    }
    let need = (depth / dp).ceil().max(1.0) as usize;
    columns.iter().rev().find(|(_, &n)| n >= need).map_or(f64::NAN, |(&c, _)| (c as f64 + 1.0) * dp)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let res: usize = args.first().ok_or("usage: A_OVER_DP [option ...]")?.parse().map_err(|e| format!("{e}"))?;
    let a = 1.0;
    let dp = a / res as f64;
    let mut params = Parameters::new(Dimension::Two, dp, Parameters::sound_speed_for_depth(2.0 * a, G));
    let (mut gate, mut k, mut hydrostatic, mut depth) = (None, 4usize, true, None);
    let num = |s: &str| s.parse::<f64>().map_err(|e| format!("{s}: {e}"));
    for o in &args[1..] {
        match o.split_once('=') {
            None if o == "no_slip" => params.boundary.no_slip = true,
            None if o == "no_wall_viscosity" => params.boundary.artificial_viscosity = false,
            None if o == "no_hydrostatic" => hydrostatic = false,
            Some(("alpha", v)) => params.viscosity = Viscosity::Artificial { alpha: num(v)? },
            Some(("gate", v)) => gate = Some(num(v)?),
            Some(("delta", v)) => {
                params.density_diffusion = Some(DensityDiffusion { delta: num(v)?, hydrostatic_correction: true })
            }
            Some(("sound", v)) => params.sound_speed = num(v)? * (G * 2.0 * a).sqrt(),
            Some(("k", v)) => k = num(v)? as usize,
            Some(("depth", v)) => depth = Some(num(v)? * a),
            _ => return Err(format!("unknown option {o}")),
        }
    }
    let t = params.marker_layers() as f64 * dp;
    let support = 2.0 * params.h();
    let mut scene = Scene::new(params);
    scene.add_fluid_box(Point3::origin(), Point3::new(a, 0.0, 2.0 * a));
    if hydrostatic {
        scene.set_hydrostatic_surface(2.0 * a);
    }
    add_tank(&mut scene, [4.0 * a, 0.0, 2.2 * a], t);
    let gate_id = gate.map(|_| scene.add_body(slab("gate", [a, 0.0, 0.0], [a + t, 0.0, 2.2 * a])));
    let mut sim = scene.build().map_err(|e| e.to_string())?;
    if let (Some(id), Some(v)) = (gate_id, gate) {
        let mut m = sim.body_motion(id).map_err(|e| e.to_string())?;
        m.linvel = Vector3::new(0.0, 0.0, v);
        sim.set_body_motion(id, m).map_err(|e| e.to_string())?;
    }
    let scale = (2.0 * G / a).sqrt();
    let (mut plain, mut dense) = (vec![], vec![]);
    let samples = 120;
    for s in 0..=samples {
        let target = 3.2 * s as f64 / samples as f64 / scale;
        if s > 0 {
            sim.advance(target - sim.time()).map_err(|e| e.to_string())?;
        }
        plain.push((sim.time() * scale, support::front(&sim) / a));
        let second = match depth {
            Some(d) => deep_front(&sim, d),
            None => dense_front(&sim, support, k),
        };
        dense.push((sim.time() * scale, second / a));
    }
    println!("a/dp = {res}, options {:?}: {} particles, {} steps", &args[1..], sim.fluid_count(), sim.steps());
    let second = match depth {
        Some(d) => format!("front where ≥ {:.3} a deep", d / a),
        None => format!("front with ≥ {k} neighbours"),
    };
    let mut worst = (0.0f64, 0.0f64);
    for &(t, z) in KOSHIZUKA_OKA.iter().filter(|p| p.0 <= 3.0) {
        let (r, d) = (at(&plain, t), at(&dense, t));
        println!(
            "  T = {t:.2}: K&O {z:.2}, front {r:.3} ({:+.1} %), {second} {d:.3} ({:+.1} %)",
            100.0 * (r / z - 1.0),
            100.0 * (d / z - 1.0)
        );
        if t >= 1.0 {
            worst = (worst.0.max((r / z - 1.0).abs()), worst.1.max((d / z - 1.0).abs()));
        }
    }
    println!("  largest difference for 1 ≤ T ≤ 3: {:.1} % ({:.1} %, {second})", 100.0 * worst.0, 100.0 * worst.1);
    Ok(())
}
