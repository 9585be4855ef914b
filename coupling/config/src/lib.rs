//! The preCICE XML configuration: model, parser and validation catalogue, and the file-and-line
//! [`diagnostics`] every reader of the project's files reports with. It knows nothing of the
//! engine, the participants' YAML or any command line: the engine, the adapter layer and the
//! launcher all read the XML through it.
//!
//! Reading happens in three steps, each reporting with file and line: the XML is read into
//! an element tree (`xml`), the tags are checked and turned into the typed model in document
//! order (`parse*`), and the cross-tag rules of docs/design/coupling-semantics.md §9.4 plus the added-mass rules run on
//! the model (`validate*`, `added_mass`).

#![warn(missing_docs)]

pub mod diagnostics;
pub mod files;
pub mod model;
pub use model::*;

mod added_mass;
mod parse;
mod parse_acceleration;
mod parse_participant;
mod parse_scheme;
mod schema;
mod validate;
mod validate_implicit;
mod validate_participant;
mod validate_scheme;
mod values;
mod xml;

#[cfg(any(test, feature = "testing"))]
pub mod testing;
#[cfg(test)]
mod tests;

pub use added_mass::{is_fluid_added_mass, is_solid_added_mass, FLUID_ADDED_MASS_PREFIX, SOLID_ADDED_MASS_PREFIX};
pub use values::compact_number;

use crate::diagnostics::{Diagnostic, Diagnostics, Location};
use std::path::Path;

/// Reads, parses and validates a preCICE XML file. Ok carries the warnings.
pub fn load(path: &Path) -> Result<(PreciceConfig, Diagnostics), Diagnostics> {
    let bytes = files::read_bounded(path, files::MAX_TEXT_FILE).map_err(|e| {
        Diagnostics(vec![Diagnostic::error(
            Location::new(path, 0),
            format!("Cannot read the preCICE configuration file: {e}. Check the path given for it."),
        )])
    })?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|b| **b == b'\n').count() + 1;
        Diagnostics(vec![Diagnostic::error(
            Location::new(path, line),
            "The preCICE configuration is not valid UTF-8 text. Save it as UTF-8.",
        )])
    })?;
    parse_str(text, path)
}

/// Same, from text (path is used for messages and `PreciceConfig::path`).
pub fn parse_str(text: &str, path: &Path) -> Result<(PreciceConfig, Diagnostics), Diagnostics> {
    let mut cfg = PreciceConfig { path: path.to_path_buf(), hash: content_hash(text.as_bytes()), ..Default::default() };
    let root = xml::parse_tree(text, path).map_err(|d| Diagnostics(vec![d]))?;
    let mut ctx = schema::Ctx::new(path);
    parse::build(&mut ctx, &root, &mut cfg);
    let mut diags = ctx.diags;
    if root.name == "precice-configuration" {
        diags.extend(validate(&cfg));
    }
    diags.0.sort_by_key(|d| d.location.line);
    if diags.has_errors() {
        Err(diags)
    } else {
        Ok((cfg, diags))
    }
}

/// The catalogue of coupling-semantics.md §9.4 plus the added-mass mesh rules; reports ALL problems, not the first.
pub fn validate(cfg: &PreciceConfig) -> Diagnostics {
    validate::run(cfg)
}

/// Hex digest of the raw file bytes, compared between partners at connection time (coupling-semantics.md §8.4).
pub fn content_hash(bytes: &[u8]) -> String {
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, bytes).simple().to_string()
}
