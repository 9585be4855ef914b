//! The association "i-th model body <-> `/body{i+1}` of the file", checked by name.

use crate::BemioError;
use tidelink_hydro_data::HydroData;

/// Checks the index association "i-th model body ↔ `/body{i+1}`": fewer file bodies than ours is an
/// error, and so is a body the file holds at another index (a reordered list would run with
/// swapped coefficients); any other name mismatch is a warning (returned, for the caller to
/// report), or an error when `strict`.
pub fn check_body_names(data: &HydroData, ours: &[&str], strict: bool) -> Result<Vec<String>, BemioError> {
    if data.bodies.len() < ours.len() {
        return Err(BemioError::TooFewBodies {
            file: data.source.clone(),
            in_file: data.bodies.len(),
            ours: ours.len(),
        });
    }
    let mut warnings = Vec::new();
    for (i, (body, name)) in data.bodies.iter().zip(ours).enumerate() {
        if body.name == *name {
            continue;
        }
        if let Some(j) = data.bodies.iter().position(|b| b.name == *name) {
            let message = format!(
                "model body \"{name}\" (index {i}) is /body{} of the file, but bodies are matched by position, so it \
                 would take the coefficients of /body{} (\"{}\"); list the bodies in the file's order",
                j + 1,
                i + 1,
                body.name
            );
            return Err(BemioError::NameMismatch { file: data.source.clone(), message });
        }
        {
            let message = format!(
                "body index {i}: model body \"{name}\" takes the coefficients of /body{} named \"{}\" in the file",
                i + 1,
                body.name
            );
            if strict {
                return Err(BemioError::NameMismatch { file: data.source.clone(), message });
            }
            warnings.push(message);
        }
    }
    Ok(warnings)
}
