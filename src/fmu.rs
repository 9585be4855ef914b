//! `tidelink fmu <case | participant file | model file> -o model.fmu`: an FMI 3.0 co-simulation
//! FMU of a case's MBS participant (docs/fmi.md). The launcher depends on no participant
//! (tests/layers.rs), so, as it starts participants, it runs the packer `tidelink-mbs-fmu` as a
//! process: for a case, with the MBS participant's file and the case's preCICE configuration.

use crate::manifest::{Case, FILE_NAME};
use crate::paths;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The packer program.
pub const PACKER: &str = "tidelink-mbs-fmu";
/// The MBS participant's program, by which a case's MBS participant is found.
const MBS: &str = "tidelink-mbs";

/// Whether `input` names a case: a folder, a `tidelink.yaml`, or a YAML mapping with `participants`.
fn is_case(input: &Path) -> bool {
    if input.is_dir() || input.file_name().is_some_and(|n| n == FILE_NAME) {
        return true;
    }
    let Ok(text) = std::fs::read_to_string(input) else { return false };
    matches!(serde_yaml::from_str::<serde_yaml::Value>(&text), Ok(serde_yaml::Value::Mapping(m)) if m.contains_key("participants"))
}

/// The packer's arguments for `input` (before `-o`): for a case, its MBS participant's file
/// and `--precice-config` with the case's XML.
fn packer_args(input: &Path, precice_config: Option<&Path>) -> Result<Vec<PathBuf>> {
    if !is_case(input) {
        let mut args = vec![input.to_path_buf()];
        if let Some(x) = precice_config {
            args.extend([PathBuf::from("--precice-config"), x.to_path_buf()]);
        }
        return Ok(args);
    }
    let case = Case::load(input).map_err(|d| anyhow::anyhow!("{d}"))?;
    let mbs: Vec<_> = case
        .manifest
        .participants
        .iter()
        .filter(|p| p.command.as_ref().is_some_and(|c| Path::new(c.program()).file_name().is_some_and(|n| n == MBS)))
        .collect();
    let p = match mbs.as_slice() {
        [p] => *p,
        [] => bail!(
            "{}: the case has no `{MBS}` participant: an FMU is made of an MBS model (give a model or participant \
             file instead)",
            case.manifest_path.display()
        ),
        many => bail!(
            "{}: the case has {} `{MBS}` participants ({}); give the participant file of the one to export with \
             --precice-config {}",
            case.manifest_path.display(),
            many.len(),
            many.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", "),
            case.xml_path().display()
        ),
    };
    let spec = case
        .spec_path(p)
        .with_context(|| format!("{}: participant `{}` has no `spec` file", case.manifest_path.display(), p.name))?;
    let xml = precice_config.map(Path::to_path_buf).unwrap_or_else(|| case.xml_path());
    Ok(vec![spec, PathBuf::from("--precice-config"), xml])
}

/// Packs the FMU; returns the packer's exit code.
pub fn export(input: &Path, output: &Path, precice_config: Option<&Path>) -> Result<u8> {
    let args = packer_args(input, precice_config)?;
    let program = paths::resolve_program(PACKER, Path::new(".")).with_context(|| {
        format!("cannot find `{PACKER}` next to `tidelink` or on PATH (build it: cargo build -p tidelink-mbs-fmu)")
    })?;
    let status = Command::new(&program)
        .args(&args)
        .arg("-o")
        .arg(output)
        .status()
        .with_context(|| format!("cannot start {}", program.display()))?;
    Ok(status.code().map_or(1, |c| u8::try_from(c).unwrap_or(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(p: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
    }

    #[test]
    fn a_case_gives_its_mbs_participant_and_its_configuration() {
        let args = packer_args(&repo("configs/rm3_reg_waves"), None).unwrap();
        assert_eq!(args.len(), 3, "{args:?}");
        assert!(args[0].ends_with("rm3_reg_waves/solid/participant.yaml"), "{args:?}");
        assert_eq!(args[1], PathBuf::from("--precice-config"));
        assert!(args[2].ends_with("rm3_reg_waves/precice-config.xml"), "{args:?}");
        // Its manifest file names the same case.
        assert_eq!(packer_args(&repo("configs/rm3_reg_waves/tidelink.yaml"), None).unwrap(), args);
    }

    #[test]
    fn a_participant_or_model_file_is_passed_on() {
        let model = repo("participants/mbs/fmu/tests/data/two_bodies.yaml");
        assert_eq!(packer_args(&model, None).unwrap(), vec![model.clone()]);
        let xml = Path::new("x.xml");
        let args = packer_args(&model, Some(xml)).unwrap();
        assert_eq!(args, vec![model, PathBuf::from("--precice-config"), xml.to_path_buf()]);
    }

    #[test]
    fn a_case_without_an_mbs_participant_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(FILE_NAME),
            "precice_config: p.xml\nparticipants:\n  - {name: Fluid, command: tidelink-tdpf, spec: f.yaml}\n",
        )
        .unwrap();
        let e = packer_args(dir.path(), None).unwrap_err().to_string();
        assert!(e.contains("no `tidelink-mbs` participant"), "{e}");
    }
}
