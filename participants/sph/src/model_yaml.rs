//! The SPH fluid model file (`model:` of an SPH participant file). For example:
//!
//! ```yaml
//! sph:
//!   dimension: 3              # 2 (the vertical x–z plane) or 3
//!   spacing: 0.02             # m, initial particle spacing dp
//!   # depth: 0.3              # 2D only, required there: m along y that the per-metre loads are multiplied by
//!   # sound_speed: 40         # m/s; default 20 √(g d), d the water depth of the fluid blocks
//!   # rest_density: 1000      # kg/m³
//!   # smoothing_ratio: 1.5    # h/dp; default 1.41 (2D), 1.5 (3D)
//!   # kernel: WENDLAND_C2     # or CUBIC_SPLINE
//!   # viscosity: {type: ARTIFICIAL, alpha: 0.02}    # or {type: LAMINAR, kinematic: 1e-6}
//!   # density_diffusion: 0.1  # δ of δ-SPH; 0 switches it off
//!   # cfl: 0.2
//!   # shifting: 0.5           # XSPH ε; default off
//!   # no_slip: false          # walls and bodies free-slip by default
//!   # wall_viscosity: true    # artificial viscosity also between fluid and walls or bodies (a numerical
//!   #                         # friction, as DualSPHysics); false: free-slip walls are frictionless
//!   # time_step: 1e-4         # s, a cap on the solver's own step (default: the stability limit only)
//! tank:                       # optional: walls around the box [min, max], open at the top by default
//!   min: [-0.4, -0.4, -0.3]
//!   max: [0.4, 0.4, 0.2]
//!   # open_top: true
//! fluid:                      # boxes filled with water at rest, hydrostatic below water_level
//!   - min: [-0.4, -0.4, -0.3]
//!     max: [0.4, 0.4, 0.0]
//! # water_level: 0.0          # m; default the top of the highest fluid box
//! bodies:                     # the geometry of each body of precice_adapter_config.bodies, by name
//!   - name: ball
//!     shape: {type: SPHERE, radius: 0.12}
//!     # or {type: BOX, dimensions: [lx, ly, lz]}, {type: CYLINDER, radius: r, length: l} (along body z),
//!     # {type: MESH, file: hull.obj} (closed .obj or .stl, body frame, next to this file);
//!     # or markers: [[x, y, z], ...] (body frame) instead of a shape
//!     # layers: 3             # marker layers; default enough for one kernel support
//! ```
//!
//! Every shape is centred on the body's reference point (the point the solid sends as its
//! position, normally its centre of mass). Unknown keys and bad values are errors naming the
//! file, the line and the key.

use crate::model_checks;

mod geometry;

pub use geometry::BodyGeometry;
use geometry::{bodies, BodySection};
use nalgebra::{Point3, Vector3};
use serde::Deserialize;
use std::path::Path;
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::spec::{self, YamlLines};
use tidelink_sph_solver::{DensityDiffusion, Dimension, KernelKind, Parameters, Viscosity};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(rename = "chrono-version")]
    _chrono_version: Option<serde::de::IgnoredAny>,
    sph: SphSection,
    tank: Option<TankSection>,
    fluid: Vec<BlockSection>,
    water_level: Option<f64>,
    #[serde(default)]
    bodies: Vec<BodySection>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SphSection {
    dimension: u8,
    spacing: f64,
    depth: Option<f64>,
    sound_speed: Option<f64>,
    rest_density: Option<f64>,
    smoothing_ratio: Option<f64>,
    kernel: Option<String>,
    viscosity: Option<ViscositySection>,
    density_diffusion: Option<f64>,
    cfl: Option<f64>,
    shifting: Option<f64>,
    no_slip: Option<bool>,
    wall_viscosity: Option<bool>,
    time_step: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ViscositySection {
    #[serde(rename = "type")]
    kind: String,
    alpha: Option<f64>,
    kinematic: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TankSection {
    min: [f64; 3],
    max: [f64; 3],
    open_top: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockSection {
    min: [f64; 3],
    max: [f64; 3],
}

/// The tank: walls around the box `[min, max]` (world frame).
#[derive(Debug, Clone, PartialEq)]
pub struct Tank {
    /// Lower corner of the water space (m).
    pub min: Point3<f64>,
    /// Upper corner (m).
    pub max: Point3<f64>,
    /// No lid (the default).
    pub open_top: bool,
}

/// What the model file describes, checked.
#[derive(Debug, Clone)]
pub struct SphModel {
    /// The solver's parameters (gravity from the participant file).
    pub params: Parameters,
    /// 2D: the depth along y (m) that per-metre loads are multiplied by; 1 in 3D.
    pub depth: f64,
    /// Cap on the solver's own step (s).
    pub time_step: Option<f64>,
    /// Walls around the water, if any.
    pub tank: Option<Tank>,
    /// Fluid boxes (min, max).
    pub blocks: Vec<(Point3<f64>, Point3<f64>)>,
    /// Free-surface height of the initial hydrostatic pressure (m).
    pub water_level: f64,
    /// Body geometries, in the model file's order.
    pub bodies: Vec<BodyGeometry>,
    /// Where `sph.dimension` is, for messages about the dimension.
    pub dimension_loc: Location,
}

/// Reads and checks `path` under `gravity` (the participant file's); every error names the
/// file, the line and the key.
pub fn load(path: &Path, gravity: Vector3<f64>) -> Result<SphModel, Diagnostics> {
    let (file, lines) = spec::load_yaml_with_lines::<File>(path)?;
    let mut d = Diagnostics::default();
    let s = &file.sph;
    let dimension = match s.dimension {
        2 => Dimension::Two,
        3 => Dimension::Three,
        n => {
            d.error(lines.loc("sph.dimension"), format!("dimension {n}: use 2 (the x–z plane) or 3"));
            Dimension::Three
        }
    };
    let spacing_ok = positive(&mut d, &lines, "sph.spacing", Some(s.spacing));
    let depth = match (dimension, s.depth) {
        (Dimension::Two, None) => {
            d.error(
                lines.loc("sph.dimension"),
                "a 2D model needs `sph.depth`: the bodies' extent along y (m), which multiplies the per-metre loads \
                 sent to the solid",
            );
            1.0
        }
        (Dimension::Two, Some(v)) => {
            positive(&mut d, &lines, "sph.depth", Some(v));
            v
        }
        (Dimension::Three, Some(_)) => {
            d.error(lines.loc("sph.depth"), "`depth` is for 2D models only (dimension: 2); remove it");
            1.0
        }
        (Dimension::Three, None) => 1.0,
    };
    if file.fluid.is_empty() {
        d.error(lines.loc("fluid"), "no fluid box: give at least one `{min: [x, y, z], max: [x, y, z]}`");
    }
    let mut blocks = Vec::new();
    for (i, b) in file.fluid.iter().enumerate() {
        if let Some(bx) = corners(&mut d, &lines, &format!("fluid[{i}]"), b.min, b.max, dimension) {
            blocks.push(bx);
        }
    }
    let top = blocks.iter().map(|(_, hi)| hi.z).fold(f64::NEG_INFINITY, f64::max);
    let bottom = blocks.iter().map(|(lo, _)| lo.z).fold(f64::INFINITY, f64::min);
    let water_level = file.water_level.unwrap_or(top);
    let tank = file.tank.as_ref().and_then(|t| {
        let (min, max) = corners(&mut d, &lines, "tank", t.min, t.max, dimension)?;
        Some(Tank { min, max, open_top: t.open_top.unwrap_or(true) })
    });
    let g = gravity.norm();
    let sound_speed = match s.sound_speed {
        Some(c) => c,
        None if top > bottom => Parameters::sound_speed_for_depth(water_level.max(top) - bottom, g.max(1e-9)),
        None => 1.0,
    };
    let mut params = Parameters::new(dimension, s.spacing, sound_speed);
    params.gravity = gravity;
    if let Some(v) = s.rest_density {
        params.rest_density = v;
    }
    if let Some(v) = s.smoothing_ratio {
        params.smoothing_ratio = v;
    }
    if let Some(k) = &s.kernel {
        match k.to_ascii_uppercase().as_str() {
            "WENDLAND_C2" | "WENDLAND" => params.kernel = KernelKind::WendlandC2,
            "CUBIC_SPLINE" | "CUBIC" => params.kernel = KernelKind::CubicSpline,
            other => d.error(lines.loc("sph.kernel"), format!("kernel `{other}`: use WENDLAND_C2 or CUBIC_SPLINE")),
        }
    }
    if let Some(v) = &s.viscosity {
        match (v.kind.to_ascii_uppercase().as_str(), v.alpha, v.kinematic) {
            ("ARTIFICIAL", alpha, None) => {
                params.viscosity = Viscosity::Artificial { alpha: alpha.unwrap_or(0.02) };
            }
            ("LAMINAR", None, Some(nu)) => params.viscosity = Viscosity::Laminar { kinematic: nu },
            ("ARTIFICIAL", _, Some(_)) | ("LAMINAR", Some(_), _) => d.error(
                lines.loc("sph.viscosity"),
                "ARTIFICIAL viscosity takes `alpha`, LAMINAR takes `kinematic` (m²/s); not the other",
            ),
            ("LAMINAR", None, None) => {
                d.error(lines.loc("sph.viscosity"), "LAMINAR viscosity needs `kinematic` (m²/s, water: 1e-6)")
            }
            (other, _, _) => {
                d.error(lines.loc("sph.viscosity.type"), format!("viscosity type `{other}`: use ARTIFICIAL or LAMINAR"))
            }
        }
    }
    if let Some(delta) = s.density_diffusion {
        params.density_diffusion = (delta != 0.0).then_some(DensityDiffusion { delta, hydrostatic_correction: true });
    }
    if let Some(v) = s.cfl {
        params.cfl = v;
    }
    params.shifting = s.shifting;
    if let Some(v) = s.no_slip {
        params.boundary.no_slip = v;
    }
    if let Some(v) = s.wall_viscosity {
        params.boundary.artificial_viscosity = v;
    }
    if let Some(t) = &tank {
        // Fluid thrown far out of the tank is dropped rather than growing the grid: the domain
        // is the tank with a margin, and as much again above an open top.
        let margin = 4.0 * params.h() + params.marker_layers() as f64 * s.spacing;
        let rise = if t.open_top { t.max.z - t.min.z } else { 0.0 };
        let lo = t.min - Vector3::repeat(margin);
        let hi = t.max + Vector3::repeat(margin) + Vector3::new(0.0, 0.0, rise);
        params.domain = Some((lo, hi));
    }
    let valid = params.validate();
    if let Err(e) = valid.as_ref() {
        let key = match e {
            tidelink_sph_solver::SphError::InvalidParameter { name, .. } => *name,
            _ => "",
        };
        let at = match key {
            "gravity" => lines.loc("sph"),
            "domain" => lines.loc("tank"),
            "" => lines.loc("sph"),
            k => lines.loc(&format!("sph.{k}")),
        };
        // A bad spacing is said once, in the words of `positive` above.
        if key != "spacing" || spacing_ok {
            d.error(at, e.to_string());
        }
    }
    if valid.is_ok() {
        sizes_and_speeds(
            &mut d,
            &lines,
            &params,
            &blocks,
            tank.as_ref(),
            s.sound_speed,
            water_level.max(top) - bottom,
            g,
        );
    }
    positive(&mut d, &lines, "sph.time_step", s.time_step);
    let bodies = bodies(&file.bodies, path, dimension, &lines, &mut d);
    if d.has_errors() {
        return Err(d);
    }
    Ok(SphModel {
        params,
        depth,
        time_step: s.time_step,
        tank,
        blocks,
        water_level,
        bodies,
        dimension_loc: lines.loc("sph.dimension"),
    })
}

/// An error at `key` unless `value` is absent or finite and positive; whether it is fine.
fn positive(d: &mut Diagnostics, lines: &YamlLines, key: &str, value: Option<f64>) -> bool {
    match value.filter(|v| !(v.is_finite() && *v > 0.0)) {
        Some(v) => {
            d.error(lines.loc(key), format!("`{key}` must be finite and positive, got {v}"));
            false
        }
        None => true,
    }
}

/// What valid parameters may still describe and never run (see [`crate::model_checks`]): the
/// particles' memory, the sound speed for the water's `depth`, fluid boxes outside the tank.
#[allow(clippy::too_many_arguments)]
fn sizes_and_speeds(
    d: &mut Diagnostics,
    lines: &YamlLines,
    params: &Parameters,
    blocks: &[(Point3<f64>, Point3<f64>)],
    tank: Option<&Tank>,
    sound_speed: Option<f64>,
    depth: f64,
    gravity: f64,
) {
    let (dp, dim) = (params.spacing, params.dimension);
    let fluid: f64 = blocks.iter().map(|(lo, hi)| model_checks::lattice_count(lo, hi, dp, dim)).sum();
    let walls = tank.map_or(0.0, |t| model_checks::tank_markers(&t.min, &t.max, dp, params.marker_layers(), dim));
    let memory = model_checks::physical_memory();
    model_checks::particle_budget(d, lines.loc("sph.spacing"), params, fluid, walls, memory);
    if let Some(c) = sound_speed {
        model_checks::sound_speed(d, lines.loc("sph.sound_speed"), c, depth, gravity);
    }
    let Some(t) = tank else { return };
    let axes: &[usize] = if dim == Dimension::Two { &[0, 2] } else { &[0, 1, 2] };
    // Rounding of corners written in decimal: a millionth of a spacing.
    let tol = 1e-6 * dp;
    for (i, (lo, hi)) in blocks.iter().enumerate() {
        let out = axes.iter().find_map(|&k| {
            let axis = ["x", "y", "z"][k];
            if lo[k] < t.min[k] - tol {
                Some(format!("reaches {axis} = {} m, below the tank's min {axis} = {} m", lo[k], t.min[k]))
            } else if hi[k] > t.max[k] + tol {
                Some(format!("reaches {axis} = {} m, beyond the tank's max {axis} = {} m", hi[k], t.max[k]))
            } else {
                None
            }
        });
        if let Some(out) = out {
            d.error(
                lines.loc(&format!("fluid[{i}]")),
                format!(
                    "fluid box {i} {out}: the water outside the walls would fall out of the domain and be lost in \
                     the first steps; make the tank enclose every fluid box"
                ),
            );
        }
    }
}

/// The box `[min, max]` of `key`, checked (in 2D the y extent is not used).
fn corners(
    d: &mut Diagnostics,
    lines: &YamlLines,
    key: &str,
    min: [f64; 3],
    max: [f64; 3],
    dimension: Dimension,
) -> Option<(Point3<f64>, Point3<f64>)> {
    let axes: &[usize] = if dimension == Dimension::Two { &[0, 2] } else { &[0, 1, 2] };
    for (corner, values) in [("min", min), ("max", max)] {
        if let Some(&k) = axes.iter().find(|&&k| !values[k].is_finite()) {
            let axis = ["x", "y", "z"][k];
            d.error(
                lines.loc(&format!("{key}.{corner}")),
                format!("`{key}.{corner}`: {axis} is {}, not a finite number; give metres", values[k]),
            );
            return None;
        }
    }
    if let Some(&k) = axes.iter().find(|&&k| min[k] >= max[k]) {
        let axis = ["x", "y", "z"][k];
        d.error(lines.loc(&format!("{key}.max")), format!("`{key}`: min {axis} must be below max {axis}"));
        return None;
    }
    Some((Point3::from(min), Point3::from(max)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tidelink_sph_solver::{MarkerSource, Shape};

    const G: [f64; 3] = [0.0, 0.0, -9.81];

    fn load_text(text: &str) -> Result<SphModel, Diagnostics> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sph.yaml");
        std::fs::write(&p, text).unwrap();
        load(&p, Vector3::from(G))
    }

    const GOOD: &str =
        "sph:\n  dimension: 2\n  spacing: 0.01\n  depth: 0.3\ntank:\n  min: [-0.3, 0, -0.2]\n  max: [0.3, 0, \
                        0.1]\nfluid:\n  - min: [-0.3, 0, -0.2]\n    max: [0.3, 0, 0]\nbodies:\n  - name: box\n    \
                        shape: {type: BOX, dimensions: [0.2, 0.3, 0.1]}\n";

    #[test]
    fn a_2d_tank_with_a_box() {
        let m = load_text(GOOD).unwrap();
        assert_eq!(m.params.dimension, Dimension::Two);
        assert_eq!(m.depth, 0.3);
        assert_eq!(m.water_level, 0.0);
        // 20 √(g d) for the 0.2 m deep water.
        assert!((m.params.sound_speed - 20.0 * (9.81f64 * 0.2).sqrt()).abs() < 1e-12);
        assert!(m.params.domain.is_some());
        assert_eq!(m.bodies.len(), 1);
        assert!(
            matches!(&m.bodies[0].markers, MarkerSource::Shape(Shape::Box { half_extents }) if half_extents.x == 0.1)
        );
    }

    #[test]
    fn wall_keys_reach_the_boundary_options() {
        let m = load_text(GOOD).unwrap();
        assert!(!m.params.boundary.no_slip && m.params.boundary.artificial_viscosity);
        let keys = GOOD.replace("  depth: 0.3\n", "  depth: 0.3\n  no_slip: true\n  wall_viscosity: false\n");
        let m = load_text(&keys).unwrap();
        assert!(m.params.boundary.no_slip && !m.params.boundary.artificial_viscosity);
    }

    fn first_error(text: &str) -> String {
        let e = load_text(text).unwrap_err();
        let first = e.errors().next().map(|d| d.to_string()).unwrap_or_default();
        first
    }

    #[test]
    fn errors_name_the_line_and_the_key() {
        let e = first_error(&GOOD.replace("spacing: 0.01", "spacing: -1"));
        assert!(e.contains(":3:") && e.contains("sph.spacing"), "{e}");
        let e = first_error(&GOOD.replace("  depth: 0.3\n", ""));
        assert!(e.contains(":2:") && e.contains("sph.depth"), "{e}");
        let e = first_error(&GOOD.replace("type: BOX", "type: CONE"));
        assert!(e.contains(":13:") && e.contains("SPHERE, BOX, CYLINDER or MESH"), "{e}");
        let e = first_error(&GOOD.replace("dimensions: [0.2, 0.3, 0.1]", "radius: 0.1"));
        assert!(e.contains("has no `radius`"), "{e}");
        let e = first_error(&GOOD.replace("max: [0.3, 0, 0]", "max: [-0.4, 0, 0]"));
        assert!(e.contains(":10:") && e.contains("min x must be below max x"), "{e}");
        let e = first_error(&GOOD.replace("min: [-0.3, 0, -0.2]\n  max", "min: [.nan, 0, -0.2]\n  max"));
        assert!(e.contains(":6:") && e.contains("`tank.min`: x is NaN, not a finite number"), "{e}");
        let e = first_error(&GOOD.replace("spacing:", "spaceing:"));
        assert!(e.contains("spaceing"), "{e}");
        let e = first_error(&GOOD.replace("  depth: 0.3\n", "  depth: 0.3\n  cfl: 0.9\n"));
        assert!(e.contains(":5:") && e.contains("cfl"), "{e}");
        let e = first_error(&GOOD.replace("dimension: 2", "dimension: 3"));
        assert!(e.contains(":4:") && e.contains("2D models only"), "{e}");
        let e = first_error(&GOOD.replace("shape: {type: BOX, dimensions: [0.2, 0.3, 0.1]}", "layers: 2"));
        assert!(e.contains(":12:") && e.contains("needs a `shape`"), "{e}");
        let e = first_error(&GOOD.replace("type: BOX, dimensions: [0.2, 0.3, 0.1]", "type: MESH, file: nope.obj"));
        assert!(e.contains(":13:") && e.contains("nope.obj"), "{e}");
    }

    #[test]
    fn a_bad_spacing_is_said_once() {
        let e = load_text(&GOOD.replace("spacing: 0.01", "spacing: -1")).unwrap_err();
        let spacing: Vec<String> = e.errors().map(|d| d.to_string()).filter(|m| m.contains("spacing")).collect();
        assert_eq!(spacing.len(), 1, "{spacing:?}");
    }

    #[test]
    fn a_hostile_spacing_is_refused_with_its_memory_before_anything_is_allocated() {
        // 0.6 × 0.2 m at 3e-6 m: 1.33e10 particles (4 TB), past the 32-bit particle indices on
        // any machine.
        let e = first_error(&GOOD.replace("spacing: 0.01", "spacing: 3e-6"));
        assert!(e.contains(":3:") && e.contains("1.33e10 particles") && e.contains("raise `sph.spacing`"), "{e}");
    }

    #[test]
    fn a_sound_speed_that_dies_at_t0_is_refused_at_its_line() {
        let e = first_error(&GOOD.replace("  depth: 0.3\n", "  depth: 0.3\n  sound_speed: 0.05\n"));
        assert!(e.contains(":5:") && e.contains("sound speed 0.05 m/s is too low for water 0.2 m deep"), "{e}");
    }

    #[test]
    fn fluid_outside_the_tank_is_refused() {
        let e = first_error(&GOOD.replace("max: [0.3, 0, 0.1]", "max: [0.2, 0, 0.1]"));
        assert!(
            e.contains(":9:") && e.contains("fluid box 0 reaches x = 0.3 m, beyond the tank's max x = 0.2 m"),
            "{e}"
        );
    }
}
