//! What the demo's own files say: where the Solid's output and the hydrodynamic file are, the
//! wave, the bodies' masses and the PTO's damping, read from the participant and model files
//! so the reference is computed for the case as it was run.

use anyhow::{anyhow, bail, Context, Result};
use serde_yaml::Value;
use std::path::{Path, PathBuf};

/// The demo's settings that the reference needs.
#[derive(Debug, Clone)]
pub struct Rm3Case {
    /// The case's name (its folder).
    pub name: String,
    /// The Solid's `bodies.h5`.
    pub bodies_h5: PathBuf,
    /// The hydrodynamic file both participants read.
    pub hydro_h5: PathBuf,
    /// Wave height (m) and period (s).
    pub wave_height: f64,
    /// Wave period (s).
    pub wave_period: f64,
    /// Ramp time (s): the steady state is looked for after it.
    pub ramp_time: f64,
    /// The radiation terms between bodies, as the Fluid runs them.
    pub body_to_body: bool,
    /// Float and spar masses (kg); `None` for `mass: equilibrium` (ρ V of the file).
    pub masses: [Option<f64>; 2],
    /// The PTO's damping coefficient (N·s/m).
    pub pto_damping: f64,
}

fn yaml(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_yaml::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

fn num(v: &Value, path: &Path, key: &str) -> Result<f64> {
    v.as_f64().ok_or_else(|| anyhow!("{}: `{key}` is not a number", path.display()))
}

/// Reads the demo folder `dir` (tidelink.yaml's folder with `solid/` and `fluid/`).
pub fn read(dir: &Path) -> Result<Rm3Case> {
    let solid_file = dir.join("solid/participant.yaml");
    let solid = yaml(&solid_file)?;
    let model_rel = solid["model"].as_str().ok_or_else(|| anyhow!("{}: no `model`", solid_file.display()))?;
    let out_dir = solid["output"]["directory"].as_str().unwrap_or("output");
    if solid["output"]["format"].as_str().map(str::to_ascii_uppercase).as_deref() != Some("HDF5") {
        bail!("{}: the plots read HDF5 output; set `output.format: HDF5`", solid_file.display());
    }
    let model_file = dir.join("solid").join(model_rel);
    let model = yaml(&model_file)?;
    let bodies = model["model"]["bodies"].as_sequence().cloned().unwrap_or_default();
    let mass = |name: &str| -> Result<Option<f64>> {
        let b = bodies.iter().find(|b| b["name"].as_str() == Some(name));
        let b = b.ok_or_else(|| anyhow!("{}: no body `{name}`", model_file.display()))?;
        Ok(b["mass"].as_f64())
    };
    let tsdas = model["model"]["tsdas"].as_sequence().cloned().unwrap_or_default();
    let pto = tsdas
        .iter()
        .find(|t| t["name"].as_str() == Some("pto"))
        .ok_or_else(|| anyhow!("{}: no TSDA `pto`", model_file.display()))?;
    let fluid_file = dir.join("fluid/participant.yaml");
    let fluid = yaml(&fluid_file)?;
    let tdpf_rel = fluid["model"].as_str().ok_or_else(|| anyhow!("{}: no `model`", fluid_file.display()))?;
    let tdpf_file = dir.join("fluid").join(tdpf_rel);
    let tdpf = yaml(&tdpf_file)?;
    let m = &tdpf["model"];
    let root = m["data_path"]["root"].as_str().unwrap_or(".");
    let h5 = m["h5_file"].as_str().ok_or_else(|| anyhow!("{}: no `h5_file`", tdpf_file.display()))?;
    let waves = &m["waves"];
    Ok(Rm3Case {
        name: dir
            .canonicalize()
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default(),
        bodies_h5: dir.join("solid").join(out_dir).join("bodies.h5"),
        hydro_h5: tdpf_file.parent().unwrap_or(Path::new(".")).join(root).join(h5),
        wave_height: num(&waves["height"], &tdpf_file, "waves.height")?,
        wave_period: num(&waves["period"], &tdpf_file, "waves.period")?,
        ramp_time: waves["ramp_time"].as_f64().unwrap_or(0.0),
        body_to_body: m["body_to_body"].as_bool().unwrap_or(false),
        masses: [mass("float")?, mass("spar")?],
        pto_damping: num(&pto["damping_coefficient"], &model_file, "tsdas.pto.damping_coefficient")?,
    })
}
