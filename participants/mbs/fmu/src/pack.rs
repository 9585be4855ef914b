//! Packs an FMU: `modelDescription.xml`, the shared library as
//! `binaries/x86_64-linux/<modelIdentifier>.so`, and under `resources/` what the model needs to
//! be read as `tidelink-mbs` reads it: the model file alone (`model.yaml`), or the participant
//! file (`participant.yaml`, rewritten to name its neighbours in `resources/` and to write no
//! output), its preCICE configuration (`precice-config.xml`), model and solver files and the
//! hydrodynamic file of its `added_mass` entry.

use crate::ffi::{CONFIG_FILE, MODEL_FILE, PARTICIPANT_FILE};
use crate::model_description::{self, MODEL_IDENTIFIER};
use crate::setup::{self, Source};
use crate::variables::Variables;
use serde_yaml::{Mapping, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;

/// The platform folder of `binaries/` this build produces (FMI 3.0 platform tuple).
pub const PLATFORM: &str = "x86_64-linux";
/// The solver file's name inside `resources/`.
pub const SOLVER_FILE: &str = "solver.yaml";

/// What [`pack`] wrote.
#[derive(Debug)]
pub struct Packed {
    /// The archive.
    pub fmu: PathBuf,
    /// Number of variables in the model description.
    pub variables: usize,
    /// What the FMU does differently from a `tidelink-mbs` run of the same files.
    pub notes: Vec<String>,
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The files of `resources/` for `source`: (name inside `resources/`, bytes).
pub fn resources(source: &Source) -> Result<Vec<(String, Vec<u8>)>, String> {
    let (participant, config) = match source {
        Source::Model(model) => return Ok(vec![(MODEL_FILE.to_string(), read(model)?)]),
        Source::Participant { participant, config } => (participant, config),
    };
    let (_, file) = tidelink_mbs::participant::build(participant, config)
        .map_err(|e| format!("cannot build the MBS participant {}: {e:#}", participant.display()))?;
    let text = String::from_utf8_lossy(&read(participant)?).into_owned();
    let mut yaml: Value =
        serde_yaml::from_str(&text).map_err(|e| format!("{}: not YAML: {e}", participant.display()))?;
    let top = yaml.as_mapping_mut().ok_or_else(|| format!("{}: not a YAML mapping", participant.display()))?;
    let mut out = Vec::new();
    let model = file.model.as_deref().ok_or_else(|| format!("{}: no `model` file", participant.display()))?;
    let solver = file.solver.as_deref().ok_or_else(|| format!("{}: no `solver` file", participant.display()))?;
    out.push((MODEL_FILE.to_string(), read(&file.dir().join(model))?));
    out.push((SOLVER_FILE.to_string(), read(&file.dir().join(solver))?));
    out.push((CONFIG_FILE.to_string(), read(config)?));
    top.insert("model".into(), MODEL_FILE.into());
    top.insert("solver".into(), SOLVER_FILE.into());
    let mut output = Mapping::new();
    output.insert("format".into(), "NONE".into());
    top.insert("output".into(), Value::Mapping(output));
    if let Some(adapter) = top.get_mut("precice_adapter_config").and_then(Value::as_mapping_mut) {
        let mut data_path = Mapping::new();
        data_path.insert("type".into(), "RELATIVE".into());
        data_path.insert("root".into(), ".".into());
        adapter.insert("data_path".into(), Value::Mapping(data_path));
        let h5 = adapter.get_mut("added_mass").and_then(Value::as_mapping_mut).and_then(|a| a.get_mut("h5_filename"));
        if let Some(h5) = h5 {
            let name = h5.as_str().unwrap_or_default().to_string();
            let path = file.data_file(&name);
            let base = Path::new(&name).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or(name);
            out.push((base.clone(), read(&path)?));
            *h5 = Value::String(base);
        }
    }
    let rewritten = serde_yaml::to_string(&yaml).map_err(|e| format!("cannot write the participant file: {e}"))?;
    let header = "# The participant file of this FMU, its neighbours in resources/ (written by tidelink-mbs-fmu).\n";
    out.push((PARTICIPANT_FILE.to_string(), format!("{header}{rewritten}").into_bytes()));
    Ok(out)
}

/// Reads `source` (checking it builds, as `tidelink-mbs` would), and writes the FMU `out` with
/// `library` as its binary.
pub fn pack(source: &Source, library: &Path, out: &Path) -> Result<Packed, String> {
    let mut setup = setup::load(source)?;
    let vars = Variables::of(&mut setup);
    let files = resources(source)?;
    // The token ties the description to the resources' content (FNV-1a of their bytes).
    let hash = files
        .iter()
        .flat_map(|(_, b)| b.iter())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3));
    let token = format!("{{tidelink-mbs-{}-{hash:016x}}}", setup.name);
    let xml = model_description::write(&vars, &setup.name, &token);
    let so = std::fs::read(library).map_err(|e| {
        format!(
            "cannot read the FMU library {}: {e} (build it with `cargo build -p tidelink-mbs-fmu`)",
            library.display()
        )
    })?;
    let file = std::fs::File::create(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let so_opts = opts.unix_permissions(0o755);
    let mut entries: Vec<(String, &[u8], SimpleFileOptions)> = vec![
        ("modelDescription.xml".into(), xml.as_bytes(), opts),
        (format!("binaries/{PLATFORM}/{MODEL_IDENTIFIER}.so"), &so, so_opts),
    ];
    for (name, bytes) in &files {
        entries.push((format!("resources/{name}"), bytes, opts));
    }
    for (path, bytes, o) in entries {
        zip.start_file(path.as_str(), o).map_err(|e| format!("{}: cannot add {path}: {e}", out.display()))?;
        zip.write_all(bytes).map_err(|e| format!("{}: cannot write {path}: {e}", out.display()))?;
    }
    zip.finish().map_err(|e| format!("{}: cannot finish the archive: {e}", out.display()))?;
    Ok(Packed { fmu: out.to_path_buf(), variables: vars.list.len(), notes: setup.notes })
}
