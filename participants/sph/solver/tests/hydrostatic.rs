//! Still water in a tank: interior pressure against ρ g d, the force on the bottom against the
//! weight of the water, and a free surface that stays put. 2D and 3D, coarse.

use nalgebra::{Isometry3, Point3, Vector3};
use tidelink_sph_solver::{BodyId, BodySpec, Dimension, Parameters, Scene, Shape, Simulation};

const G: f64 = 9.81;
const RHO: f64 = 1000.0;

/// A wall slab `[lo, hi]` as a box body.
fn slab(name: &str, lo: [f64; 3], hi: [f64; 3]) -> BodySpec {
    let c = Vector3::new(lo[0] + hi[0], lo[1] + hi[1], lo[2] + hi[2]) / 2.0;
    let e = Vector3::new(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2.0;
    BodySpec::new(name, Shape::Box { half_extents: e }, Isometry3::translation(c.x, c.y, c.z))
}

/// Water `width` wide (and deep in 3D) and `depth` high on a bottom slab, side walls without
/// loads; returns the simulation and the bottom's id.
pub fn column(dim: Dimension, width: f64, depth: f64, dp: f64) -> (Simulation, BodyId) {
    let params = Parameters::new(dim, dp, Parameters::sound_speed_for_depth(depth, G));
    let t = params.marker_layers() as f64 * dp;
    let three = dim == Dimension::Three;
    let (ylo, yhi) = if three { (-t, width + t) } else { (0.0, 0.0) };
    let top = depth + 4.0 * dp;
    let mut scene = Scene::new(params);
    scene.add_fluid_box(Point3::new(0.0, 0.0, 0.0), Point3::new(width, width, depth));
    scene.set_hydrostatic_surface(depth);
    let bottom = scene.add_body(slab("bottom", [-t, ylo, -t], [width + t, yhi, 0.0]));
    scene.add_body(slab("left", [-t, ylo, 0.0], [0.0, yhi, top]).without_loads());
    scene.add_body(slab("right", [width, ylo, 0.0], [width + t, yhi, top]).without_loads());
    if three {
        scene.add_body(slab("front", [0.0, -t, 0.0], [width, 0.0, top]).without_loads());
        scene.add_body(slab("back", [0.0, width, 0.0], [width, width + t, top]).without_loads());
    }
    (scene.build().unwrap(), bottom)
}

/// Runs to `settle`, then averages over `window`; returns (worst relative interior pressure
/// error, bottom force / weight − 1, surface drift / dp).
fn check(dim: Dimension, width: f64, depth: f64, dp: f64, settle: f64, window: f64) -> (f64, f64, f64) {
    let (mut sim, bottom) = column(dim, width, depth, dp);
    let top0 = sim.fluid_positions().iter().map(|p| p.z).fold(f64::MIN, f64::max);
    sim.advance(settle).unwrap();
    sim.start_load_window();
    // Time-averaged pressure per particle is not defined (particles move); average the error
    // over a few samples within the window instead.
    let h = sim.parameters().h();
    let samples = 4;
    let mut worst: f64 = 0.0;
    for _ in 0..samples {
        sim.advance(window / samples as f64).unwrap();
        // Interior: below a quarter of the depth, two smoothing lengths from the side walls.
        let mut band_err: Vec<(f64, f64)> = Vec::new();
        for (x, p) in sim.fluid_positions().iter().zip(sim.fluid_pressures()) {
            let d = depth - x.z;
            let inside = (0..3)
                .filter(|&k| k != 2 && (k == 0 || dim == Dimension::Three))
                .all(|k| x[k] > 2.0 * h && x[k] < width - 2.0 * h);
            if d > 0.25 * depth && x.z > 2.0 * h && inside {
                band_err.push((d, p / (RHO * G * d) - 1.0));
            }
        }
        let mean = band_err.iter().map(|e| e.1).sum::<f64>() / band_err.len() as f64;
        let max = band_err.iter().map(|e| e.1.abs()).fold(0.0, f64::max);
        eprintln!(
            "{dim:?}: t = {:.3}: {} interior particles, mean p error {mean:+.4}, worst {max:.4}",
            sim.time(),
            band_err.len()
        );
        worst = worst.max(max);
    }
    let area = if dim == Dimension::Three { width * width } else { width };
    let weight = RHO * G * depth * area;
    let f = sim.body_loads(bottom).unwrap();
    // The water pushes the bottom down.
    let force_err = -f.force.z / weight - 1.0;
    let top = sim.fluid_positions().iter().map(|p| p.z).fold(f64::MIN, f64::max);
    let drift = (top - top0) / dp;
    eprintln!("{dim:?}: bottom force {:.2} N vs weight {weight:.2} N ({force_err:+.4}), lateral {:.3e}, torque y {:.3e}; surface drift {drift:+.3} dp; KE {:.3e}",
        f.force.z, f.force.x, f.torque.y, sim.kinetic_energy());
    (worst, force_err, drift)
}

#[test]
fn hydrostatic_column_2d() {
    let (p, f, s) = check(Dimension::Two, 1.0, 1.0, 0.04, 1.0, 0.2);
    assert!(p < 0.02, "interior pressure off by up to {p}");
    assert!(f.abs() < 0.01, "bottom force off by {f}");
    assert!(s.abs() < 0.5, "surface moved {s} dp");
}

#[test]
fn hydrostatic_column_3d() {
    let (p, f, s) = check(Dimension::Three, 0.4, 0.4, 0.04, 0.5, 0.1);
    assert!(p < 0.02, "interior pressure off by up to {p}");
    assert!(f.abs() < 0.01, "bottom force off by {f}");
    assert!(s.abs() < 0.5, "surface moved {s} dp");
}
