//! Participant YAML files (Chrono-compatible keys): reading them with file-and-line
//! diagnostics, cross-checking them against the preCICE XML, and a schema-checked YAML
//! reader for the participants' own model and solver files.
//!
//! **`precice_adapter_config.added_mass`** (MBS; docs/design/added-mass.md §5) is the baseline added
//! mass of the coupling bodies, in the order of `bodies` (coupling body `i` ↔ block `i` ↔ the
//! `i`-th group of six columns ↔ `/body{i+1}` of a file). Either
//!
//! ```yaml
//! added_mass:
//!   h5_filename: rm3.h5            # BEMIO file through data_path; A∞ × rho, inertial axes
//!   reference_points:              # optional, body reference frame; default: the body's COM
//!     - {name: float, point: [0, 0, 0]}
//! ```
//!
//! or the coefficients written out, every value multiplied by `density`:
//!
//! ```yaml
//! added_mass:
//!   density: 1000
//!   frame: INERTIAL                # or BODY (axes turning with the body); default INERTIAL
//!   blocks:                        # one per coupling body: 6 rows of 6·Nb values
//!     - name: ball
//!       data: [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0],
//!              [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]
//! ```
//!
//! Unknown keys, a row of the wrong length or a missing `density` are errors with file and
//! line ([`AddedMassSpec`]). The entry is used only when the preCICE XML declares
//! `SolidAddedMass...`/`FluidAddedMass...` meshes; its blocks are then checked against the
//! coupling bodies by the MBS participant.

pub(crate) mod body_refs;
mod check;
mod lines;
pub mod nesting;
mod output_folder;
mod parse;
mod parse_added_mass;
mod read_time;
mod reader;
mod typed;

pub mod model;
pub use body_refs::{BodyRefs, MOTION};
pub use model::*;
pub use output_folder::output_folder;
pub use typed::{load_yaml, load_yaml_with_lines, parse_yaml_str, YamlLines};

use crate::config::PreciceConfig;
use crate::diagnostics::{Diagnostics, Location};
use std::path::Path;

/// Reads a participant file. Ok carries warnings (ignored keys, end_time != -1); Err carries
/// every error found (and the warnings before them). Also checks that the files the
/// participant file names (model, solver, points files) exist.
pub fn load(path: &Path) -> Result<(ParticipantFile, Diagnostics), Diagnostics> {
    let text = crate::config::files::read_text(path).map_err(|e| {
        let mut d = Diagnostics::default();
        d.error(Location::new(path, 0), format!("cannot read the participant file: {e}"));
        d
    })?;
    let (file, mut diags) = parse_str(&text, path)?;
    check_files_exist(&file, &lines::LineIndex::build(&text), &mut diags);
    if diags.has_errors() {
        return Err(diags);
    }
    Ok((file, diags))
}

/// Parses participant-file text; `path` names the file in messages and anchors relative paths.
pub fn parse_str(text: &str, path: &Path) -> Result<(ParticipantFile, Diagnostics), Diagnostics> {
    parse::participant_file(text, path)
}

/// Cross-checks one participant file against the XML: participant_name is a `<participant>`;
/// every interface mesh_name is a mesh the participant provides (or receives); every
/// write_data/read_data name is a `<write-data>`/`<read-data>` of that participant on that
/// mesh (with nearest-spelling hints); read_data_time suits the coupling schemes. Reports
/// all problems, plus warnings for XML data that no interface lists.
pub fn check_against(cfg: &PreciceConfig, file: &ParticipantFile) -> Diagnostics {
    check::check_against(cfg, file)
}

/// Missing model/solver/points files are reported now rather than when a solver starts.
fn check_files_exist(file: &ParticipantFile, lines: &lines::LineIndex, diags: &mut Diagnostics) {
    for (key, name) in [("model", &file.model), ("solver", &file.solver)] {
        if let Some(name) = name {
            let p = file.dir().join(name);
            if !p.is_file() {
                let loc = Location::new(&file.path, lines.line(&[lines::Seg::Key(key.to_string())]));
                diags.error(loc, format!("{key} file `{name}` not found (looked for {})", p.display()));
            }
        }
    }
    for body in &file.adapter.bodies {
        if let Some(PointsSpec::File(name)) = &body.points {
            let p = file.data_file(name);
            if !p.is_file() {
                let msg = format!(
                    "points file `{name}` of body `{}` not found (looked for {}, through data_path)",
                    body.name,
                    p.display()
                );
                diags.error(body.loc.clone(), msg);
            }
        }
    }
}

/// Gravity of a participant file that sets none (−z, as in the shipped cases).
pub const DEFAULT_GRAVITY: [f64; 3] = [0.0, 0.0, -9.81];

/// What every participant binary reads before it starts: its file and the XML, each
/// loaded and validated, cross-checked against each other. Warnings are logged; errors
/// (all of them) are returned.
pub fn load_for_run(
    participant_file: &Path,
    precice_config: &Path,
) -> Result<(ParticipantFile, PreciceConfig), Diagnostics> {
    let (file, cfg, warnings) = load_checked(participant_file, precice_config)?;
    crate::launcher::log_warnings(&warnings);
    Ok((file, cfg))
}

/// As [`load_for_run`], returning the warnings instead of logging them (`--check`).
pub fn load_checked(
    participant_file: &Path,
    precice_config: &Path,
) -> Result<(ParticipantFile, PreciceConfig, Diagnostics), Diagnostics> {
    let (file, mut warnings) = load(participant_file)?;
    let (cfg, xml_warnings) = crate::config::load(precice_config)?;
    warnings.extend(xml_warnings);
    let cross = check_against(&cfg, &file);
    if cross.has_errors() {
        return Err(Diagnostics(cross.errors().cloned().collect()));
    }
    warnings.extend(cross);
    Ok((file, cfg, warnings))
}
