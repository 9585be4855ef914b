//! Starting participant processes: program resolution, the appended
//! `<spec> --precice-config <xml>` (and `--backend <b>`) arguments, piped output in its own
//! process group, the run's identity in `TIDELINK_RUN_ID`, its secret in `TIDELINK_RUN_SECRET`
//! (docs/security.md) and the launcher's lifeline.

use crate::lifeline::Lifeline;
use crate::manifest::{Case, CommandLine, ParticipantEntry};
use crate::output::{self, Event, Stream};
use crate::paths;
use anyhow::{anyhow, Context, Result};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Sender;
use tidelink_adapter_core::coupling::native::settings::{RUN_SECRET_ENV, SECRET_FILE_ENV};
use tidelink_adapter_core::coupling::native::Secret;
use tidelink_adapter_core::launcher::{LAUNCHED_ENV, RUN_ID_ENV};

/// A started participant.
pub struct Running {
    pub name: String,
    pub child: Child,
    /// Kills the participant's process group if the launcher dies (`lifeline`).
    pub _guard: Option<Child>,
}

/// The command line `run` uses for `p` (paths in it are relative to its working directory).
pub fn command_for(case: &Case, p: &ParticipantEntry) -> Result<Command> {
    let cmd = p.command.as_ref().ok_or_else(|| anyhow!("participant `{}` has no `command`", p.name))?;
    let wd = case.working_dir(p);
    let program = paths::resolve_program(cmd.program(), &wd).unwrap_or_else(|| PathBuf::from(cmd.program()));
    let mut c = Command::new(program);
    c.args(cmd.args());
    if let Some(spec) = case.spec_path(p) {
        c.arg(paths::relative_to(&spec, &wd));
        c.arg("--precice-config");
        c.arg(paths::relative_to(&case.xml_path(), &wd));
    }
    if let Some(backend) = case.backend_for(p).filter(|_| takes_backend(cmd)) {
        c.arg("--backend");
        c.arg(backend);
    }
    c.current_dir(&wd).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // Own process group: Ctrl-C reaches only `tidelink`, which then stops the whole group.
    c.process_group(0);
    Ok(c)
}

/// Whether the manifest's `backend` is passed to `cmd`: Tidelink's own participant programs
/// only (other codes link preCICE themselves), and not when the command already chooses one.
pub fn takes_backend(cmd: &CommandLine) -> bool {
    let program = Path::new(cmd.program()).file_name().and_then(|n| n.to_str()).unwrap_or("");
    program.starts_with("tidelink-") && !cmd.args().iter().any(|a| a == "--backend" || a.starts_with("--backend="))
}

/// The secret the run's participants prove they hold to each other: a fresh one, handed to
/// each in its environment (private to the user, unlike a command line). `None` where a
/// participant of the case is external (started by hand, it could not know it: the pair then
/// uses the key file in the exchange directory) or where `TIDELINK_SECRET_FILE` names the
/// secret (the participants inherit it).
pub fn run_secret(case: &Case) -> Result<Option<Secret>> {
    if case.manifest.participants.iter().any(|p| p.external) || std::env::var_os(SECRET_FILE_ENV).is_some() {
        return Ok(None);
    }
    Secret::random().map(Some).context("cannot make the run's secret")
}

/// Starts `p` as participant number `who` of run `run` (with the run's `secret`, if any), tied
/// to `lifeline`; its output lines go to `tx`. Call from the main thread (see `lifeline`).
pub fn start(
    case: &Case,
    who: usize,
    p: &ParticipantEntry,
    tx: &Sender<Event>,
    run: &str,
    secret: Option<&Secret>,
    lifeline: &Lifeline,
) -> Result<Running> {
    let mut c = command_for(case, p)?;
    c.env(RUN_ID_ENV, run);
    // An outer run's secret is never passed on: this run's or none.
    c.env_remove(RUN_SECRET_ENV);
    if let Some(secret) = secret {
        c.env(RUN_SECRET_ENV, secret.to_hex());
    }
    // The launcher printed the check's warnings and reads the progress lines.
    c.env(LAUNCHED_ENV, "1");
    lifeline.attach(&mut c);
    let mut child = c.spawn().with_context(|| {
        let prog = p.command.as_ref().map(|c| c.program().to_string()).unwrap_or_default();
        format!("cannot start participant `{}` (program `{prog}`, in {})", p.name, case.working_dir(p).display())
    })?;
    if let Some(out) = child.stdout.take() {
        output::forward(who, Stream::Out, out, tx.clone());
    }
    if let Some(err) = child.stderr.take() {
        output::forward(who, Stream::Err, err, tx.clone());
    }
    let guard = lifeline.guard(&child);
    Ok(Running { name: p.name.clone(), child, _guard: guard })
}

#[cfg(test)]
mod tests {
    use super::command_for;
    use crate::manifest::Case;

    /// The arguments `run` gives each participant of a manifest with `body` as its entries.
    fn args_of(body: &str) -> Vec<Vec<String>> {
        let dir = tempfile::tempdir().expect("temporary case");
        std::fs::write(dir.path().join("tidelink.yaml"), format!("precice_config: p.xml\n{body}")).expect("manifest");
        let case = Case::load(dir.path()).unwrap_or_else(|d| panic!("{d}"));
        let cmd = |p| command_for(&case, p).expect("a command");
        let args = |c: std::process::Command| c.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        case.manifest.participants.iter().map(|p| args(cmd(p))).collect()
    }

    #[test]
    fn the_manifest_backend_reaches_tidelink_programs_only() {
        let got = args_of(concat!(
            "backend: precice\nparticipants:\n",
            "  - name: A\n    command: tidelink-mbs\n",
            "  - name: B\n    command: tidelink-mbs\n    backend: native\n",
            "  - name: C\n    command: [other-code, -v]\n",
            "  - name: D\n    command: [tidelink-flap, --backend, native]\n",
        ));
        assert_eq!(got[0], ["--backend", "precice"]);
        assert_eq!(got[1], ["--backend", "native"], "an entry's own key wins");
        assert_eq!(got[2], ["-v"], "other programs link preCICE themselves");
        assert_eq!(got[3], ["--backend", "native"], "a command choosing its backend is left alone");
    }
}
