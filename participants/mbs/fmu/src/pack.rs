//! Packs an FMU: `modelDescription.xml`, the shared library as
//! `binaries/x86_64-linux/<modelIdentifier>.so`, and the model file as `resources/model.yaml`.

use crate::ffi::MODEL_FILE;
use crate::instance::GRAVITY;
use crate::model_description::{self, MODEL_IDENTIFIER};
use crate::variables::Variables;
use nalgebra::Vector3;
use std::io::Write;
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;

/// The platform folder of `binaries/` this build produces (FMI 3.0 platform tuple).
pub const PLATFORM: &str = "x86_64-linux";

/// What [`pack`] wrote.
#[derive(Debug)]
pub struct Packed {
    /// The archive.
    pub fmu: PathBuf,
    /// Number of variables in the model description.
    pub variables: usize,
}

/// Reads `model` (checking it builds), and writes the FMU `out` with `library` as its binary.
pub fn pack(model: &Path, library: &Path, out: &Path) -> Result<Packed, String> {
    let (mut parsed, _warnings) = tidelink_mbs::io::model_yaml::load(model, Vector3::from(GRAVITY))
        .map_err(|d| format!("cannot read the model file {}: {d}", model.display()))?;
    let vars = Variables::new(&mut parsed);
    if vars.bodies.is_empty() {
        return Err(format!("the model file {} has no free body: nothing to simulate", model.display()));
    }
    let text = std::fs::read(model).map_err(|e| format!("cannot read {}: {e}", model.display()))?;
    let name = parsed.name.clone().unwrap_or_else(|| "tidelink_mbs".into());
    // The token ties the description to this model file's content (FNV-1a of its bytes).
    let hash = text.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3));
    let token = format!("{{tidelink-mbs-{name}-{hash:016x}}}");
    let xml = model_description::write(&vars, &name, &token);
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
    let entries: [(String, &[u8], SimpleFileOptions); 3] = [
        ("modelDescription.xml".into(), xml.as_bytes(), opts),
        (format!("binaries/{PLATFORM}/{MODEL_IDENTIFIER}.so"), &so, so_opts),
        (format!("resources/{MODEL_FILE}"), &text, opts),
    ];
    for (path, bytes, o) in entries {
        zip.start_file(path.as_str(), o).map_err(|e| format!("{}: cannot add {path}: {e}", out.display()))?;
        zip.write_all(bytes).map_err(|e| format!("{}: cannot write {path}: {e}", out.display()))?;
    }
    zip.finish().map_err(|e| format!("{}: cannot finish the archive: {e}", out.display()))?;
    Ok(Packed { fmu: out.to_path_buf(), variables: vars.list.len() })
}
