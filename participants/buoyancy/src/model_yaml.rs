//! The buoyancy participant's model file (`model:` of its participant file), e.g.
//!
//! ```yaml
//! buoyancy:
//!   radius: 0.12          # m
//!   water_level: 0.0      # m, height of the free surface
//!   fluid_density: 1000   # kg/m³
//!   drag_coefficient: 0.5
//!   location: [0, 0, 0.18]  # optional: initial centre, when the participant file has no body location
//! ```
//!
//! Gravity is not here: it comes from the participant file's `simulation.gravity`, the one
//! place the launcher compares between participants.

use nalgebra::Vector3;
use serde::Deserialize;
use std::path::Path;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec;
use tidelink_buoyancy_solver::SphereInWater;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelFile {
    #[serde(rename = "chrono-version")]
    _chrono_version: Option<serde::de::IgnoredAny>,
    buoyancy: BuoyancySection,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BuoyancySection {
    radius: f64,
    water_level: f64,
    fluid_density: f64,
    drag_coefficient: f64,
    location: Option<[f64; 3]>,
}

/// What the model file describes: the sphere and, optionally, where it starts.
#[derive(Debug, Clone)]
pub struct BuoyancyModel {
    /// The checked sphere and water, under the participant file's gravity.
    pub sphere: SphereInWater,
    /// Initial centre (m), used when the participant file gives no body location.
    pub location: Option<Vector3<f64>>,
}

/// Reads and checks `path`; errors name the file, the line and the key.
pub fn load(path: &Path, gravity: Vector3<f64>) -> Result<BuoyancyModel, Diagnostics> {
    let (file, lines) = spec::load_yaml_with_lines::<ModelFile>(path)?;
    let b = file.buoyancy;
    let sphere =
        SphereInWater::new(b.radius, b.water_level, b.fluid_density, b.drag_coefficient, gravity).map_err(|e| {
            let key = match &e {
                tidelink_buoyancy_solver::ModelError::InvalidParameter { name, .. } => *name,
            };
            let mut d = Diagnostics::default();
            let at =
                if key.starts_with("gravity") { lines.loc("buoyancy") } else { lines.loc(&format!("buoyancy.{key}")) };
            d.error(at, format!("invalid `{key}`: {e}"));
            d
        })?;
    Ok(BuoyancyModel { sphere, location: b.location.map(Vector3::from) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_model() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.yaml");
        std::fs::write(
            &p,
            "buoyancy:\n  radius: 0.1\n  water_level: 0.5\n  fluid_density: 1025\n  drag_coefficient: 0\n",
        )
        .unwrap();
        let m = load(&p, Vector3::new(0.0, 0.0, -9.81)).unwrap();
        assert_eq!(m.sphere.radius(), 0.1);
        assert!(m.location.is_none());
        assert!((m.sphere.submerged_height(0.5) - 0.1).abs() < 1e-15);
    }
}
