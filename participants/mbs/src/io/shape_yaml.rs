//! The `shapes` lists of Chrono's MBS model format (under a body's `visualization` and
//! `contact`), read into [`BodyShape`]s; unknown keys are errors like everywhere else.

use crate::io::model_yaml::rotation;
use nalgebra::{Isometry3, Translation3, Vector3};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::path::PathBuf;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::YamlLines;
use tidelink_mbs_solver::dynamics::body_set::BodyHandle;
use tidelink_mbs_solver::geometry::shape::{BodyShape, ShapeKind};

/// A body's `visualization` section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct VisualizationEntry {
    /// A whole-body visual model (a file); kept for viewers, not used here.
    model_file: Option<String>,
    #[serde(default)]
    shapes: Vec<ShapeEntry>,
}

/// A body's `contact` section (contact itself is not modelled; its shapes are kept).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ContactEntry {
    materials: Option<IgnoredAny>,
    #[serde(default)]
    shapes: Vec<ShapeEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShapeEntry {
    #[serde(rename = "type")]
    kind: String,
    location: Option<[f64; 3]>,
    orientation: Option<Vec<f64>>,
    dimensions: Option<[f64; 3]>,
    radius: Option<f64>,
    length: Option<f64>,
    axis: Option<[f64; 3]>,
    filename: Option<String>,
    scale: Option<f64>,
    color: Option<[f64; 3]>,
    /// Index into `contact.materials` (contact shapes only).
    material: Option<IgnoredAny>,
}

/// Shape types we read.
const SHAPE_TYPES: &str = "SPHERE, BOX, CYLINDER, HULL, MESH";

/// The shapes of body `name` (`handle`), `key` being its path in the file
/// (`model.bodies[i]`). Errors go to `errors`, with the line of the offending shape.
// The two shape sections, the body and the context for messages; a struct for one call site would add nothing.
#[allow(clippy::too_many_arguments)]
pub(crate) fn body_shapes(
    visualization: Option<&VisualizationEntry>,
    contact: Option<&ContactEntry>,
    name: &str,
    handle: BodyHandle,
    key: &str,
    lines: &YamlLines,
    degrees: bool,
    errors: &mut Diagnostics,
) -> Vec<BodyShape> {
    let _ = visualization.map(|v| &v.model_file);
    let _ = contact.map(|c| &c.materials);
    let lists = [
        (visualization.map(|v| v.shapes.as_slice()).unwrap_or(&[]), "visualization", false),
        (contact.map(|c| c.shapes.as_slice()).unwrap_or(&[]), "contact", true),
    ];
    let mut out = Vec::new();
    for (entries, section, is_contact) in lists {
        for (k, s) in entries.iter().enumerate() {
            let at = lines.loc(&format!("{key}.{section}.shapes[{k}]"));
            let _ = &s.material;
            match shape(s, degrees) {
                Ok((kind, pose)) => {
                    out.push(BodyShape { body: handle, kind, pose, color: s.color, contact: is_contact })
                }
                Err(msg) => errors.error(at, format!("body `{name}`, {section} shape {k}: {msg}")),
            }
        }
    }
    out
}

fn positive(v: Option<f64>, key: &str, kind: &str) -> Result<f64, String> {
    match v {
        Some(x) if x.is_finite() && x > 0.0 => Ok(x),
        Some(x) => Err(format!("`{key}` of a {kind} must be a positive number, not {x}")),
        None => Err(format!("a {kind} needs `{key}`")),
    }
}

fn shape(s: &ShapeEntry, degrees: bool) -> Result<(ShapeKind, Isometry3<f64>), String> {
    let rot = rotation(s.orientation.as_deref(), degrees)?;
    let pose = Isometry3::from_parts(Translation3::from(Vector3::from(s.location.unwrap_or([0.0; 3]))), rot);
    let kind = s.kind.to_ascii_uppercase();
    let shape = match kind.as_str() {
        "SPHERE" => ShapeKind::Sphere { radius: positive(s.radius, "radius", "SPHERE")? },
        "BOX" => {
            let d = s.dimensions.ok_or("a BOX needs `dimensions: [lx, ly, lz]`")?;
            if !d.iter().all(|x| x.is_finite() && *x > 0.0) {
                return Err(format!("the `dimensions` of a BOX must be positive, not {d:?}"));
            }
            ShapeKind::Box { dimensions: Vector3::from(d) }
        }
        "CYLINDER" => {
            let axis = Vector3::from(s.axis.unwrap_or([0.0, 0.0, 1.0]));
            let Some(axis) = axis.try_normalize(1e-12) else {
                return Err("the `axis` of a CYLINDER must not be zero".into());
            };
            ShapeKind::Cylinder {
                radius: positive(s.radius, "radius", "CYLINDER")?,
                length: positive(s.length, "length", "CYLINDER")?,
                axis,
            }
        }
        "HULL" | "MESH" => ShapeKind::Mesh {
            filename: PathBuf::from(s.filename.as_deref().ok_or(format!("a {kind} needs `filename`"))?),
            scale: positive(Some(s.scale.unwrap_or(1.0)), "scale", &kind)?,
            convex_hull: kind == "HULL",
        },
        other => return Err(format!("type `{other}` is not a shape type we read; use one of {SHAPE_TYPES}")),
    };
    Ok((shape, pose))
}
