//! The stream participant's model file (`model:` of its participant file), e.g.
//!
//! ```yaml
//! stream:
//!   velocity: [0, 0.5, 0]   # m/s, uniform
//!   fluid_density: 1000     # kg/m³
//!   drag_coefficient: 2.0   # a flat plate broadside
//!   area: 0.2               # m² (per metre of span for a 2D case)
//! ```

use nalgebra::Vector3;
use serde::Deserialize;
use std::path::Path;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec;
use tidelink_buoyancy_solver::ModelError;
use tidelink_buoyancy_solver::PlateInStream;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelFile {
    stream: StreamSection,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StreamSection {
    velocity: [f64; 3],
    fluid_density: f64,
    drag_coefficient: f64,
    area: f64,
}

/// Reads and checks `path`; errors name the file, the line and the key.
pub fn load(path: &Path) -> Result<PlateInStream, Diagnostics> {
    let (file, lines) = spec::load_yaml_with_lines::<ModelFile>(path)?;
    let s = file.stream;
    PlateInStream::new(Vector3::from(s.velocity), s.fluid_density, s.drag_coefficient, s.area).map_err(|e| {
        let ModelError::InvalidParameter { name, .. } = &e;
        let key = name.split('[').next().unwrap_or(name);
        let mut d = Diagnostics::default();
        d.error(lines.loc(&format!("stream.{key}")), format!("invalid `{name}`: {e}"));
        d
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_model_and_names_a_bad_key() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.yaml");
        std::fs::write(
            &p,
            "stream:\n  velocity: [0, 1, 0]\n  fluid_density: 1000\n  drag_coefficient: 2\n  area: 0.2\n",
        )
        .unwrap();
        assert_eq!(load(&p).unwrap().velocity(), Vector3::new(0.0, 1.0, 0.0));
        std::fs::write(&p, "stream:\n  velocity: [0, 1, 0]\n  fluid_density: -1\n  drag_coefficient: 2\n  area: 0.2\n")
            .unwrap();
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("m.yaml:3: error: invalid `fluid_density`: fluid_density must be a positive number"), "{e}");
    }
}
