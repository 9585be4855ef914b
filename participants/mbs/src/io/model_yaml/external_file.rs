//! The two other ways of writing an external power take-off, beside the `external_ptos` list:
//! `external_pto_file:` (a path, relative to the model file, to a file holding one entry) and an
//! inline `external_pto:` map (one entry, for small one-offs). Setting both is an error at the
//! second key's line. Every entry keeps where it is written, so later errors name that file and
//! line; relative `.py` paths of a module file's `command` are still looked up from the model
//! file's folder, as for the other two forms.

use super::schema::{ExternalPtoEntry, ModelSection};
use std::path::Path;
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::spec::{self, YamlLines};

/// An entry of an external PTO with the file it is written in and its node there.
pub(super) struct Placed<'a> {
    /// The entry as written.
    pub(super) entry: &'a ExternalPtoEntry,
    /// Its file's key lines.
    pub(super) lines: &'a YamlLines,
    /// Its node in that file (`model.external_ptos[2]`, `model.external_pto`, or the root).
    pub(super) node: String,
}

impl Placed<'_> {
    /// Where key `k` (`.link`, `.command`, …, or "" for the entry) of the entry is.
    pub(super) fn at(&self, k: &str) -> Location {
        self.lines.loc(&format!("{}{k}", self.node))
    }
}

/// The entry of `external_pto_file`, read (unknown keys and syntax errors named at its lines),
/// or None with the reason in `errors`; None without error when the key is absent.
pub(super) fn load(
    m: &ModelSection,
    lines: &YamlLines,
    dir: &Path,
    errors: &mut Diagnostics,
) -> Option<(ExternalPtoEntry, YamlLines)> {
    let name = m.external_pto_file.as_ref()?;
    let at = lines.loc("model.external_pto_file");
    if m.external_pto.is_some() {
        errors.error(
            lines.loc("model.external_pto"),
            format!(
                "`external_pto` and `external_pto_file` (line {}) are both set; keep one: the file for a module \
                 entry of its own, the inline map for a small one-off (more links: list them under `external_ptos`)",
                at.line
            ),
        );
        return None;
    }
    if name.trim().is_empty() {
        errors.error(at, "`external_pto_file` is empty; name a YAML file with the module's entry (link, command, …)");
        return None;
    }
    let path = dir.join(name);
    if !path.is_file() {
        errors.error(
            at,
            format!(
                "the module file `{name}` does not exist (looked for at {}: relative to this file's folder)",
                path.display()
            ),
        );
        return None;
    }
    match spec::load_yaml_with_lines::<ExternalPtoEntry>(&path) {
        Ok(read) => Some(read),
        Err(d) => {
            errors.error(at, format!("the module file `{name}` has errors (below)"));
            errors.extend(d);
            None
        }
    }
}

/// Every external PTO entry of the model with where it is written: the list first, then the
/// inline map or the file's entry.
pub(super) fn placed<'a>(
    m: &'a ModelSection,
    lines: &'a YamlLines,
    from_file: Option<&'a (ExternalPtoEntry, YamlLines)>,
) -> Vec<Placed<'a>> {
    let mut all: Vec<Placed> = m
        .external_ptos
        .iter()
        .enumerate()
        .map(|(i, entry)| Placed { entry, lines, node: format!("model.external_ptos[{i}]") })
        .collect();
    if let (Some(entry), None) = (&m.external_pto, &m.external_pto_file) {
        all.push(Placed { entry, lines, node: "model.external_pto".into() });
    }
    if let Some((entry, file_lines)) = from_file {
        all.push(Placed { entry, lines: file_lines, node: String::new() });
    }
    all
}

#[cfg(test)]
mod tests {
    use crate::io::model_yaml;
    use nalgebra::Vector3;
    use std::path::Path;
    use tidelink_mbs_solver::ExternalLink;

    /// A float on a slider above a fixed plate with a TSDA `pto` between them, then `extra`
    /// under `model:`.
    fn model(extra: &str) -> String {
        format!(
            "model:
  bodies:
    - {{name: plate, location: [0, 0, -5], fixed: true}}
    - {{name: float, location: [0, 0, 0], mass: 1000, inertia: {{moments: [1, 1, 1]}}}}
  joints:
    - {{name: guide, type: PRISMATIC, body1: plate, body2: float, location: [0, 0, 0], axis: [0, 0, 1]}}
  tsdas:
    - {{name: pto, body1: plate, body2: float, point1: [0, 0, -5], point2: [0, 0, 0]}}
{extra}"
        )
    }

    fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn an_inline_map_puts_a_module_on_its_link() {
        let text = model("  external_pto: {link: pto, command: [sh], rich_state: false}\n");
        let (mut m, _) = model_yaml::parse_str(&text, Path::new("m.yaml"), Vector3::zeros()).unwrap();
        let link = m.forces.find_mut::<ExternalLink>("pto").expect("the inline map's module on `pto`");
        assert!(!link.rich());
    }

    #[test]
    fn a_module_file_relative_to_the_model_puts_its_module_on_its_link() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("ptos")).unwrap();
        write(dir.path(), "ptos/damper.yaml", "link: pto\ncommand: [sh]\nrich_state: false\nconfig: {damping: 1}\n");
        let path = write(dir.path(), "model.yaml", &model("  external_pto_file: ptos/damper.yaml\n"));
        let (mut m, _) = model_yaml::load(&path, Vector3::zeros()).unwrap();
        let link = m.forces.find_mut::<ExternalLink>("pto").expect("the file's module on `pto`");
        assert!(!link.rich());
    }

    #[test]
    fn both_forms_at_once_are_an_error_at_the_inline_maps_line() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "pto.yaml", "link: pto\ncommand: [sh]\n");
        let text = model("  external_pto_file: pto.yaml\n  external_pto: {link: pto, command: [sh]}\n");
        let path = write(dir.path(), "model.yaml", &text);
        let e = model_yaml::load(&path, Vector3::zeros()).unwrap_err().to_string();
        // Lines 9 and 10 of `model(..)`: the file key, then the map.
        assert!(
            e.contains("model.yaml:10: error: `external_pto` and `external_pto_file` (line 9) are both set; keep one"),
            "{e}"
        );
    }

    #[test]
    fn a_module_files_own_errors_name_its_lines_and_a_missing_one_the_models() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "typo.yaml", "link: pto\ncommand: [sh]\nrich_sate: false\n");
        write(dir.path(), "wrong_link.yaml", "command: [sh]\nlink: ptp\n");
        let case = |extra: &str| {
            let path = write(dir.path(), "model.yaml", &model(extra));
            model_yaml::load(&path, Vector3::zeros()).unwrap_err().to_string()
        };
        let e = case("  external_pto_file: typo.yaml\n");
        assert!(e.contains("typo.yaml:3: error:") && e.contains("rich_sate"), "{e}");
        assert!(e.contains("model.yaml:9: error: the module file `typo.yaml` has errors"), "{e}");
        let e = case("  external_pto_file: wrong_link.yaml\n");
        assert!(e.contains("wrong_link.yaml:2: error: no TSDA or RSDA named `ptp`; the model's links: `pto`"), "{e}");
        let e = case("  external_pto_file: gone.yaml\n");
        assert!(e.contains("model.yaml:9: error: the module file `gone.yaml` does not exist"), "{e}");
    }

    #[test]
    fn the_same_link_through_the_list_and_the_map_is_refused() {
        let text =
            model("  external_ptos:\n    - {link: pto, command: [sh]}\n  external_pto: {link: pto, command: [sh]}\n");
        let e = model_yaml::parse_str(&text, Path::new("m.yaml"), Vector3::zeros()).unwrap_err().to_string();
        assert!(e.contains("m.yaml:11: error: link `pto` already has an external module"), "{e}");
    }
}
