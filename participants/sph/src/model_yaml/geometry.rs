//! The `bodies:` section of the SPH model file: each body's geometry (a shape or explicit
//! markers, in the body frame), checked entry by entry with the line of the key at fault.

use nalgebra::{Point3, Vector3};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::spec::YamlLines;
use tidelink_sph_solver::{Dimension, MarkerSource, Shape, TriMesh};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ShapeSection {
    #[serde(rename = "type")]
    kind: String,
    radius: Option<f64>,
    length: Option<f64>,
    dimensions: Option<[f64; 3]>,
    file: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BodySection {
    name: String,
    shape: Option<ShapeSection>,
    markers: Option<Vec<[f64; 3]>>,
    layers: Option<usize>,
}

/// One body's geometry, for the participant file's body of the same name.
#[derive(Debug, Clone)]
pub struct BodyGeometry {
    /// The body's name (as in `precice_adapter_config.bodies`).
    pub name: String,
    /// Shape or explicit markers, in the body frame.
    pub markers: MarkerSource,
    /// Marker layers, if set.
    pub layers: Option<usize>,
    /// Where the entry is, for messages.
    pub loc: Location,
}

/// The `bodies` entries as marker sources.
pub(super) fn bodies(
    sections: &[BodySection],
    path: &Path,
    dimension: Dimension,
    lines: &YamlLines,
    d: &mut Diagnostics,
) -> Vec<BodyGeometry> {
    let mut out: Vec<BodyGeometry> = Vec::new();
    for (i, b) in sections.iter().enumerate() {
        let at = |key: &str| lines.loc(&format!("bodies[{i}]{key}"));
        if out.iter().any(|o| o.name == b.name) {
            d.error(at(".name"), format!("body `{}` is listed twice", b.name));
            continue;
        }
        if b.layers == Some(0) {
            d.error(at(".layers"), "`layers` must be at least 1");
        }
        let markers = match (&b.shape, &b.markers) {
            (Some(s), None) => shape(s, path, dimension, &at(".shape"), d).map(MarkerSource::Shape),
            (None, Some(list)) if !list.is_empty() => {
                Some(MarkerSource::Points(list.iter().map(|p| Point3::from(*p)).collect()))
            }
            (None, Some(_)) => {
                d.error(at(".markers"), format!("body `{}`: the marker list is empty", b.name));
                None
            }
            (Some(_), Some(_)) => {
                d.error(at(".markers"), format!("body `{}`: give a `shape` or `markers`, not both", b.name));
                None
            }
            (None, None) => {
                d.error(
                    at(".name"),
                    format!("body `{}` needs a `shape` ({{type: SPHERE, radius: ...}}, ...) or `markers`", b.name),
                );
                None
            }
        };
        if let Some(markers) = markers {
            out.push(BodyGeometry { name: b.name.clone(), markers, layers: b.layers, loc: at("") });
        }
    }
    out
}

/// One `shape` entry.
fn shape(s: &ShapeSection, path: &Path, dimension: Dimension, at: &Location, d: &mut Diagnostics) -> Option<Shape> {
    let kind = s.kind.to_ascii_uppercase();
    let allowed: &[&str] = match kind.as_str() {
        "SPHERE" => &["radius"],
        "BOX" => &["dimensions"],
        "CYLINDER" => &["radius", "length"],
        "MESH" => &["file"],
        other => {
            d.error(at.clone(), format!("shape type `{other}`: use SPHERE, BOX, CYLINDER or MESH"));
            return None;
        }
    };
    let given =
        [("radius", s.radius.is_some()), ("length", s.length.is_some()), ("dimensions", s.dimensions.is_some())]
            .into_iter()
            .chain([("file", s.file.is_some())]);
    for (key, present) in given {
        if present && !allowed.contains(&key) {
            d.error(at.clone(), format!("a {kind} shape has no `{key}` (it takes {})", allowed.join(", ")));
            return None;
        }
        if !present && allowed.contains(&key) {
            d.error(at.clone(), format!("a {kind} shape needs `{key}`"));
            return None;
        }
    }
    let pos = |v: f64, key: &str, d: &mut Diagnostics| {
        let ok = v.is_finite() && v > 0.0;
        if !ok {
            d.error(at.clone(), format!("shape `{key}` must be finite and positive, got {v}"));
        }
        ok
    };
    match kind.as_str() {
        "SPHERE" => {
            let r = s.radius?;
            pos(r, "radius", d).then_some(Shape::Sphere { radius: r })
        }
        "BOX" => {
            let size = s.dimensions?;
            let ok = size.iter().all(|&v| pos(v, "dimensions", d));
            ok.then(|| Shape::Box { half_extents: Vector3::from(size) / 2.0 })
        }
        "CYLINDER" => {
            let (r, l) = (s.radius?, s.length?);
            (pos(r, "radius", d) && pos(l, "length", d)).then_some(Shape::Cylinder { radius: r, half_length: l / 2.0 })
        }
        _ => {
            let name = s.file.as_deref()?;
            let file: PathBuf = path.parent().unwrap_or(Path::new(".")).join(name);
            if dimension == Dimension::Two {
                log::info!("{at}: 2D: the mesh is cut by the body's y = 0 plane");
            }
            match TriMesh::read(&file) {
                Ok(m) => Some(Shape::Mesh(m)),
                Err(e) => {
                    // The error names the file.
                    d.error(at.clone(), format!("shape MESH: {e}"));
                    None
                }
            }
        }
    }
}
