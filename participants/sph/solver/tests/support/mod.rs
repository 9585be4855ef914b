//! Shared by the validation tests, the benchmark and the example: dam-break scenes, the surge
//! front, the experimental data, and the PNG of front against data.

#![allow(dead_code)]

pub mod plot;

use nalgebra::{Isometry3, Point3, Vector3};
use tidelink_sph_solver::{BodySpec, Dimension, KernelKind, Parameters, Scene, Shape, Simulation};

/// Gravity [m/s²].
pub const G: f64 = 9.81;

/// A wall slab `[lo, hi]` (world frame) as a box body without loads.
pub fn slab(name: &str, lo: [f64; 3], hi: [f64; 3]) -> BodySpec {
    let c = Vector3::new(lo[0] + hi[0], lo[1] + hi[1], lo[2] + hi[2]) / 2.0;
    let e = Vector3::new(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2.0;
    BodySpec::new(name, Shape::Box { half_extents: e }, Isometry3::translation(c.x, c.y, c.z)).without_loads()
}

/// Walls (bottom, the four or two sides, no lid) around the space `[0, size]`, `t` thick.
pub fn add_tank(scene: &mut Scene, size: [f64; 3], t: f64) {
    let three = scene.parameters().dimension == Dimension::Three;
    let (ylo, yhi) = if three { (-t, size[1] + t) } else { (0.0, 0.0) };
    let [l, w, hgt] = size;
    scene.add_body(slab("bottom", [-t, ylo, -t], [l + t, yhi, 0.0]));
    scene.add_body(slab("left", [-t, ylo, 0.0], [0.0, yhi, hgt]));
    scene.add_body(slab("right", [l, ylo, 0.0], [l + t, yhi, hgt]));
    if three {
        scene.add_body(slab("front", [0.0, -t, 0.0], [l, 0.0, hgt]));
        scene.add_body(slab("back", [0.0, w, 0.0], [l, w + t, hgt]));
    }
}

/// Martin & Moyce's 2D dam break: a water column `a` wide and `2a` high at the left end of a
/// dry tank `4a` long, released at t = 0; spacing `a / resolution`. Defaults otherwise.
pub fn dam_break_2d(a: f64, resolution: usize) -> Simulation {
    let dp = a / resolution as f64;
    let params = Parameters::new(Dimension::Two, dp, Parameters::sound_speed_for_depth(2.0 * a, G));
    let t = params.marker_layers() as f64 * dp;
    let mut scene = Scene::new(params);
    scene.add_fluid_box(Point3::origin(), Point3::new(a, 0.0, 2.0 * a));
    scene.set_hydrostatic_surface(2.0 * a);
    add_tank(&mut scene, [4.0 * a, 0.0, 2.2 * a], t);
    scene.build().expect("dam break scene")
}

/// A 3D dam break of the kind DualSPHysics ships as its first example: tank 1.6 × 0.67 × 0.4 m,
/// water column 0.4 × 0.67 × 0.3 m at one end; cubic spline with h = 1.73 dp (about 160
/// neighbours), as in that example.
pub fn dam_break_3d(dp: f64) -> Simulation {
    let mut params = Parameters::new(Dimension::Three, dp, Parameters::sound_speed_for_depth(0.3, G));
    params.kernel = KernelKind::CubicSpline;
    params.smoothing_ratio = 3f64.sqrt();
    let t = params.marker_layers() as f64 * dp;
    let mut scene = Scene::new(params);
    let w = (0.67 / dp).round() * dp;
    scene.add_fluid_box(Point3::origin(), Point3::new(0.4, w, 0.3));
    scene.set_hydrostatic_surface(0.3);
    add_tank(&mut scene, [1.6, w, 0.4], t);
    scene.build().expect("3D dam break scene")
}

/// The surge front: the rightmost fluid particle's x plus half a spacing (a particle stands
/// for the cell of side dp around it, so at t = 0 this is exactly the column's face).
pub fn front(sim: &Simulation) -> f64 {
    let dp = sim.parameters().spacing;
    sim.fluid_positions().iter().map(|p| p.x).fold(f64::MIN, f64::max) + 0.5 * dp
}

/// Koshizuka & Oka (1996), experiment, n² = 2: (T = t √(2g/a), Z = x/a).
pub const KOSHIZUKA_OKA: [(f64, f64); 15] = [
    (0.41, 1.13),
    (0.85, 1.24),
    (1.18, 1.46),
    (1.43, 1.70),
    (1.63, 1.90),
    (1.83, 2.12),
    (1.98, 2.37),
    (2.20, 2.58),
    (2.31, 2.80),
    (2.50, 3.03),
    (2.63, 3.22),
    (2.82, 3.46),
    (2.96, 3.70),
    (3.11, 3.90),
    (3.33, 4.13),
];

/// Martin & Moyce (1952), n² = 2, a = 2.25 in: (T, Z).
pub const MARTIN_MOYCE: [(f64, f64); 5] = [(0.83, 1.22), (1.22, 1.47), (2.00, 2.29), (2.55, 3.00), (3.35, 4.13)];

/// Martin & Moyce (1952), n² = 2, a = 1.125 in: (T, Z).
pub const MARTIN_MOYCE_SMALL: [(f64, f64); 3] = [(0.85, 1.25), (1.60, 1.88), (2.95, 3.73)];

/// Runs the 2D dam break to `t_end` (dimensionless T) and returns the front history (T, Z).
pub fn run_dam_break(sim: &mut Simulation, a: f64, t_end: f64, samples: usize) -> Vec<(f64, f64)> {
    let scale = (2.0 * G / a).sqrt();
    let mut out = vec![(0.0, front(sim) / a)];
    for s in 1..=samples {
        let t = t_end * s as f64 / samples as f64 / scale;
        sim.advance(t - sim.time()).expect("dam break step");
        out.push((sim.time() * scale, front(sim) / a));
    }
    out
}

/// Linear interpolation of a history at T.
pub fn at(history: &[(f64, f64)], t: f64) -> f64 {
    let i = history.partition_point(|p| p.0 < t).clamp(1, history.len() - 1);
    let (a, b) = (history[i - 1], history[i]);
    a.1 + (b.1 - a.1) * (t - a.0) / (b.0 - a.0)
}

/// The 12 triangles of the cube `[-e, e]³`, outward normals.
pub fn cube_mesh(e: f64) -> tidelink_sph_solver::TriMesh {
    let v = |i: usize| {
        Point3::new(if i & 1 == 1 { e } else { -e }, if i & 2 == 2 { e } else { -e }, if i & 4 == 4 { e } else { -e })
    };
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let mut t = Vec::new();
    for q in quads {
        t.push([v(q[0]), v(q[1]), v(q[2])]);
        t.push([v(q[0]), v(q[2]), v(q[3])]);
    }
    tidelink_sph_solver::TriMesh::new(t).expect("cube")
}
