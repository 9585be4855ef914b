//! The YAML description of a `tidelink hydro` run: bodies, frequencies, headings, depth, ρ, g.
//!
//! Parsed strictly (unknown keys are errors with their line), checked per body kind, then turned into
//! the JSON the Python side reads. docs/hydro.md lists every key.

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A whole description file.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Description {
    /// Free text, only shown in messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default = "default_rho")]
    pub rho: f64,
    #[serde(default = "default_g")]
    pub g: f64,
    /// Metres, or the string `infinite` (the default).
    #[serde(default)]
    pub depth: Depth,
    pub frequencies: Frequencies,
    /// Wave headings in degrees (default: 0).
    #[serde(default = "default_headings")]
    pub headings: Vec<f64>,
    /// Angular sectors of the rotation-symmetric meshes (default 36).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sectors: Option<u32>,
    /// Radial panel size of the interior lids, m (default 1.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lid_panel: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irf: Option<IrfOptions>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excitation_irf: Option<IrfOptions>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_space: Option<StateSpaceOptions>,
    pub bodies: Vec<Body>,
    /// Where to copy the result, relative to the description file (else only the cache holds it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<PathBuf>,
}

fn default_rho() -> f64 {
    1000.0
}
fn default_g() -> f64 {
    9.81
}
fn default_headings() -> Vec<f64> {
    vec![0.0]
}

/// Water depth: BEMIO's "infinite" or a depth in metres.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Depth {
    #[default]
    Infinite,
    Finite(f64),
}

/// A number, or a string that must be "infinite".
#[derive(Deserialize)]
#[serde(untagged)]
enum RawDepth {
    Metres(f64),
    Text(String),
}

impl<'de> Deserialize<'de> for Depth {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match RawDepth::deserialize(d)? {
            RawDepth::Metres(m) => Ok(Depth::Finite(m)),
            RawDepth::Text(t) if t == "infinite" => Ok(Depth::Infinite),
            RawDepth::Text(t) => {
                Err(serde::de::Error::custom(format!("depth: expected metres or \"infinite\", found \"{t}\"")))
            }
        }
    }
}

impl Serialize for Depth {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Depth::Infinite => s.serialize_str("infinite"),
            Depth::Finite(m) => s.serialize_f64(*m),
        }
    }
}

/// `count` frequencies evenly spaced from `min` to `max` (rad/s), or the list `values`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Frequencies {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<f64>>,
}

impl Frequencies {
    /// Either `min`, `max`, `count` (0 < min <= max, max > min when count > 1) or ascending positive `values`.
    fn check(&self) -> Result<(), String> {
        match (self.min, self.max, self.count, &self.values) {
            (Some(lo), Some(hi), Some(n), None) => {
                if !(lo.is_finite() && hi.is_finite() && lo > 0.0 && hi > lo) {
                    return Err("frequencies need 0 < min < max".into());
                }
                count_in_range(n as usize)
            }
            (None, None, None, Some(v)) => {
                if !(v.iter().all(|w| w.is_finite() && *w > 0.0) && v.windows(2).all(|p| p[1] > p[0])) {
                    return Err("frequencies: `values` must be positive and strictly ascending".into());
                }
                count_in_range(v.len())
            }
            _ => Err("frequencies: give either `min`, `max` and `count`, or `values`".into()),
        }
    }
}

/// The most frequencies a description may ask for: each is one BEM solve per body and heading
/// (BEMIO files have tens to a few hundred; the IRF is interpolated in between).
pub const MAX_FREQUENCIES: usize = 5000;

/// At least two frequencies (one gives no impulse response: the radiation kernel K would be zero
/// everywhere) and at most [`MAX_FREQUENCIES`].
fn count_in_range(n: usize) -> Result<(), String> {
    if n < 2 {
        return Err(format!(
            "frequencies: {n} frequency given; the impulse response needs at least 2 (with one, K(t) is zero \
             everywhere), and BEMIO files use tens to hundreds"
        ));
    }
    if n > MAX_FREQUENCIES {
        return Err(format!(
            "frequencies: {n} frequencies would take {n} BEM solves per body and heading; use at most \
             {MAX_FREQUENCIES} (a few hundred resolve the coefficients)"
        ));
    }
    Ok(())
}

/// Length and sampling of an impulse response (BEMIO: 60 s / 157 s, 1001 samples).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IrfOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t_end: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u32>,
}

impl IrfOptions {
    /// A positive finite `t_end` and 2 to 1 000 000 `steps`.
    fn check(&self) -> Result<(), String> {
        if let Some(t) = self.t_end.filter(|t| !(t.is_finite() && *t > 0.0)) {
            return Err(format!("`t_end` must be a positive number of seconds, found {t}"));
        }
        match self.steps {
            Some(n) if n < 2 => {
                Err(format!("`steps` must be at least 2 (an impulse response needs samples), found {n}"))
            }
            Some(n) if n > 1_000_000 => Err(format!("`steps` must be at most 1000000, found {n}")),
            _ => Ok(()),
        }
    }
}

/// State-space fit limits (default order ≤ 24, R² ≥ 0.99999, as the TDPF's own identification; BEMIO's
/// are order ≤ 10, R² ≥ 0.95).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StateSpaceOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_max: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r2_min: Option<f64>,
}

/// The body kinds the Python side can mesh.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Rm3Float,
    Rm3Spar,
    Sphere,
    Cylinder,
    Mesh,
}

/// RM3 dimension sets: the published drawing, or what WAMIT meshed (docs/hydro.md).
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Rm3Dims {
    Published,
    Gdf,
}

/// One body: a flat set of keys so that an unknown key is reported at its own line; which keys
/// a kind takes is checked by [`Body::check`].
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Body {
    pub name: String,
    pub kind: Kind,
    /// Centre of gravity, also the rotation centre of the coefficients (m, global).
    pub cg: [f64; 3],
    /// kg; only checked against ρ·V (the coefficients do not depend on it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dims: Option<Rm3Dims>,
    /// Largest panel length along the profile, m.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub panel: Option<f64>,
    /// RM3 spar: radial panel length on the reaction plate, m (default 1.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plate_panel: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lid_panel: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// Sphere centre height (0: the floating hemisphere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub center_z: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft: Option<f64>,
    /// Closed mesh file (.stl, .obj, …), relative to the description file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// Mesh file: added to every vertex (m), for files written in body coordinates (e.g. about the CG).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<[f64; 3]>,
    /// Mesh file: heights (m, global) whose horizontal faces are not wetted (standing on the sea
    /// floor, or touching another body), left out of the BEM mesh but kept for the hydrostatics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_faces_at_z: Option<Vec<f64>>,
}

impl Body {
    /// The keys a kind takes beyond name, kind, cg, mass, panel and lid_panel: (required, optional).
    fn kind_keys(&self) -> (&'static [&'static str], &'static [&'static str]) {
        match self.kind {
            Kind::Rm3Float => (&[], &["dims"]),
            Kind::Rm3Spar => (&[], &["dims", "plate_panel"]),
            Kind::Sphere => (&["radius"], &["center_z"]),
            Kind::Cylinder => (&["radius", "draft"], &[]),
            Kind::Mesh => (&["file"], &["offset", "dry_faces_at_z"]),
        }
    }

    fn present(&self) -> Vec<&'static str> {
        let keys = [
            ("dims", self.dims.is_some()),
            ("plate_panel", self.plate_panel.is_some()),
            ("radius", self.radius.is_some()),
            ("center_z", self.center_z.is_some()),
            ("draft", self.draft.is_some()),
            ("file", self.file.is_some()),
            ("offset", self.offset.is_some()),
            ("dry_faces_at_z", self.dry_faces_at_z.is_some()),
        ];
        keys.iter().filter(|(_, p)| *p).map(|(k, _)| *k).collect()
    }

    /// The lowest z of the hull (m), for the kinds whose shape is known here; `None` for a mesh
    /// file. RM3: its dimension set (the float's draft, the plate's bottom; docs/hydro.md).
    fn lowest_z(&self) -> Option<f64> {
        let gdf = self.dims != Some(Rm3Dims::Published);
        match self.kind {
            Kind::Sphere => {
                let (c, r) = (self.center_z.unwrap_or(0.0), self.radius?);
                Some(c - r)
            }
            Kind::Cylinder => Some(-self.draft?),
            Kind::Rm3Float => Some(if gdf { -3.0 } else { -3.03 }),
            Kind::Rm3Spar => Some(if gdf { -29.0 } else { -30.0 }),
            Kind::Mesh => None,
        }
    }

    /// A hull that reaches below the sea floor, or lies entirely above the still water.
    fn check_in_water(&self, depth: Depth) -> Result<(), String> {
        let Some(low) = self.lowest_z() else { return Ok(()) };
        if low >= 0.0 {
            return Err(format!(
                "the body lies entirely above the water (its lowest point is at z = {low} m, the still water at \
                 z = 0): it has no wetted surface; lower center_z"
            ));
        }
        if let Depth::Finite(d) = depth {
            if low <= -d {
                return Err(format!(
                    "the body reaches z = {low} m, at or below the sea floor (depth {d} m): make `depth` larger than \
                     the body's draft"
                ));
            }
        }
        Ok(())
    }

    /// Missing or misplaced keys and non-positive sizes, as one message.
    fn check(&self) -> Result<(), String> {
        let (required, optional) = self.kind_keys();
        let present = self.present();
        let kind = serde_yaml::to_string(&self.kind).unwrap_or_default().trim().to_string();
        if let Some(k) = required.iter().find(|k| !present.contains(k)) {
            return Err(format!("kind `{kind}` needs the key `{k}`"));
        }
        if let Some(k) = present.iter().find(|k| !required.contains(k) && !optional.contains(k)) {
            return Err(format!("kind `{kind}` does not take the key `{k}`"));
        }
        let sizes = [("panel", self.panel), ("plate_panel", self.plate_panel), ("lid_panel", self.lid_panel)];
        let sizes = sizes.into_iter().chain([("radius", self.radius), ("draft", self.draft), ("mass", self.mass)]);
        for (key, value) in sizes {
            if let Some(v) = value.filter(|v| !(v.is_finite() && *v > 0.0)) {
                return Err(format!("`{key}` must be a positive number, found {v}"));
            }
        }
        if self.cg.iter().any(|v| !v.is_finite()) {
            return Err("`cg` must be three finite numbers".into());
        }
        if self.offset.is_some_and(|o| o.iter().any(|v| !v.is_finite())) {
            return Err("`offset` must be three finite numbers (metres added to the file's coordinates)".into());
        }
        if self.dry_faces_at_z.as_ref().is_some_and(|z| z.is_empty() || z.iter().any(|v| !v.is_finite())) {
            return Err("`dry_faces_at_z` must be a list of heights in metres, e.g. [-10.9]".into());
        }
        Ok(())
    }
}

impl Description {
    /// Reads and checks `path`; every error names `path:line`.
    pub fn load(path: &Path) -> Result<Description> {
        let text = tidelink_adapter_core::config::files::read_text(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Self::parse(&text, path)
    }

    /// Parses and checks `text` (read from `path`, used in messages and to resolve mesh files).
    pub fn parse(text: &str, path: &Path) -> Result<Description> {
        // The shared reader: nesting limit, syntax and type errors in the participant files' words.
        let mut desc: Description = tidelink_adapter_core::spec::parse_yaml_str(text, path)
            .map_err(|d| anyhow!("{}", d.errors().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")))?;
        let at = |line: usize, msg: String| anyhow!("{}:{line}: error: {msg}", path.display());
        let top = |key: &str| key_line(text, key, 0).unwrap_or(1);
        desc.frequencies.check().map_err(|m| at(top("frequencies"), m))?;
        if !(desc.rho > 0.0 && desc.g > 0.0) {
            bail!(at(top("rho").max(top("g")), "rho and g must be positive".into()));
        }
        if let Depth::Finite(d) = desc.depth {
            if !(d.is_finite() && d > 0.0) {
                bail!(at(top("depth"), format!("depth must be positive or \"infinite\", found {d}")));
            }
        }
        if desc.headings.is_empty() || desc.headings.iter().any(|h| !h.is_finite()) {
            bail!(at(top("headings"), "headings: give at least one finite direction in degrees".into()));
        }
        if desc.bodies.is_empty() {
            bail!(at(top("bodies"), "bodies: describe at least one body".into()));
        }
        if desc.headings.len() > 360 {
            bail!(at(top("headings"), format!("headings: {} directions; use at most 360", desc.headings.len())));
        }
        if let Some(n) = desc.sectors.filter(|n| !(3..=720).contains(n)) {
            bail!(at(top("sectors"), format!("sectors must be 3 to 720 (the mesh's angular divisions), found {n}")));
        }
        for (key, irf) in [("irf", &desc.irf), ("excitation_irf", &desc.excitation_irf)] {
            if let Some(e) = irf.as_ref().and_then(|o| o.check().err()) {
                bail!(at(top(key), format!("{key}: {e}")));
            }
        }
        let base = path.parent().unwrap_or(Path::new("."));
        let mut names = Vec::new();
        for (i, body) in desc.bodies.iter_mut().enumerate() {
            let line = body_line(text, i).unwrap_or_else(|| top("bodies"));
            body.check().map_err(|m| at(line, format!("body `{}`: {m}", body.name)))?;
            body.check_in_water(desc.depth).map_err(|m| at(line, format!("body `{}`: {m}", body.name)))?;
            if names.contains(&body.name) {
                bail!(at(line, format!("body name `{}` is used twice", body.name)));
            }
            names.push(body.name.clone());
            if let Some(file) = &body.file {
                let full = base.join(file);
                if !full.is_file() {
                    bail!(at(line, format!("body `{}`: mesh file {} not found", body.name, full.display())));
                }
                body.file = Some(full.canonicalize().unwrap_or(full));
            }
        }
        let rm3: Vec<Kind> =
            desc.bodies.iter().map(|b| b.kind).filter(|k| matches!(k, Kind::Rm3Float | Kind::Rm3Spar)).collect();
        let both = rm3.contains(&Kind::Rm3Float) && rm3.contains(&Kind::Rm3Spar);
        if !rm3.is_empty() && !both {
            bail!(at(top("bodies"), "rm3_float and rm3_spar close the gap between them: describe both".into()));
        }
        Ok(desc)
    }

    /// Where `output:` asks for the file (relative to the description's folder), if it does.
    pub fn output_path(&self, description: &Path) -> Option<PathBuf> {
        let base = description.parent().unwrap_or(Path::new("."));
        self.output.as_ref().map(|o| base.join(o))
    }

    /// The JSON the Python side reads (mesh files as absolute paths).
    pub fn to_json(&self) -> Result<String> {
        let mut copy = self.clone();
        copy.output = None;
        Ok(serde_json::to_string_pretty(&copy)?)
    }
}

/// 1-based line of a top-level `key:` at `indent` spaces.
fn key_line(text: &str, key: &str, indent: usize) -> Option<usize> {
    let prefix = format!("{}{key}:", " ".repeat(indent));
    text.lines().position(|l| l.starts_with(&prefix)).map(|i| i + 1)
}

/// 1-based line where the `index`-th entry of the top-level `bodies:` list starts.
fn body_line(text: &str, index: usize) -> Option<usize> {
    let start = key_line(text, "bodies", 0)?;
    let mut seen = 0;
    let mut item_indent = None;
    for (i, line) in text.lines().enumerate().skip(start) {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if indent == 0 && !trimmed.is_empty() && !trimmed.starts_with('#') && !trimmed.starts_with('-') {
            return None; // the next top-level key
        }
        if trimmed.starts_with("- ") || trimmed == "-" {
            if *item_indent.get_or_insert(indent) != indent {
                continue; // a list nested inside an entry
            }
            if seen == index {
                return Some(i + 1);
            }
            seen += 1;
        }
    }
    None
}
