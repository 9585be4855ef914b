//! The case manifest `tidelink.yaml`: which XML couples the case and how each participant
//! is started. Every path in it is relative to the case directory.

use crate::paths;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::spec::{self, YamlLines};

/// The manifest's file name inside a case directory.
pub const FILE_NAME: &str = "tidelink.yaml";

/// The whole manifest, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// A label for messages; the directory name when absent.
    #[serde(default)]
    pub name: Option<String>,
    /// The preCICE XML, relative to the case directory.
    pub precice_config: String,
    /// Coupling backend (`native` or `precice`) for every `tidelink-*` participant; an
    /// entry's own `backend` wins. Absent: the programs' default (native).
    #[serde(default)]
    pub backend: Option<String>,
    pub participants: Vec<ParticipantEntry>,
}

/// One participant of the case.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParticipantEntry {
    /// The preCICE participant name (and the spec's `participant_name`).
    pub name: String,
    /// How to start it; required unless `external`.
    #[serde(default)]
    pub command: Option<CommandLine>,
    /// Participant file, relative to the case directory; passed to the command.
    #[serde(default)]
    pub spec: Option<String>,
    /// Where the process runs, relative to the case directory (default ".").
    #[serde(default)]
    pub working_directory: Option<String>,
    /// Started by the user, not by `tidelink run` (e.g. a CFD code on another machine).
    #[serde(default)]
    pub external: bool,
    /// This participant's coupling backend (`native` or `precice`), passed as `--backend`.
    #[serde(default)]
    pub backend: Option<String>,
}

/// `command: prog` or `command: [prog, arg, ...]`.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandLine(pub Vec<String>);

impl CommandLine {
    pub fn program(&self) -> &str {
        &self.0[0]
    }
    pub fn args(&self) -> &[String] {
        &self.0[1..]
    }
}

impl<'de> Deserialize<'de> for CommandLine {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CommandLine;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a program name or a list [program, arg, ...]")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<CommandLine, E> {
                if s.trim().is_empty() {
                    return Err(E::custom("`command` is empty; give a program name"));
                }
                Ok(CommandLine(vec![s.to_string()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CommandLine, A::Error> {
                let mut argv = Vec::new();
                while let Some(arg) = seq.next_element::<ArgText>()? {
                    argv.push(arg.0);
                }
                if argv.first().is_none_or(|p| p.trim().is_empty()) {
                    return Err(de::Error::custom("`command` list needs a program as its first entry"));
                }
                Ok(CommandLine(argv))
            }
        }
        d.deserialize_any(V)
    }
}

/// A command-line argument: strings, and numbers/booleans as written (`[sleep, 30]`).
struct ArgText(String);

impl<'de> Deserialize<'de> for ArgText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = ArgText;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a command-line argument (a string)")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ArgText, E> {
                Ok(ArgText(s.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ArgText, E> {
                Ok(ArgText(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ArgText, E> {
                Ok(ArgText(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ArgText, E> {
                Ok(ArgText(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<ArgText, E> {
                Ok(ArgText(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// What to say of a folder without a manifest: a case needs one, and a preCICE XML found there
/// can be checked alone (as configs/oscillators, run by hand, is).
fn no_manifest_message(dir: &Path) -> String {
    let mut xmls: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")))
        .map(|p| paths::tidy(&p).display().to_string())
        .collect();
    xmls.sort();
    let mut msg = format!("no {FILE_NAME} here: a case folder needs this manifest (docs/user-guide.md)");
    if let Some(first) = xmls.first() {
        msg.push_str(&format!("; to check the preCICE configuration alone, give the file: `tidelink check {first}`"));
    }
    msg
}

/// A manifest read from disk, with where it lives and the lines of its keys.
pub struct Case {
    pub dir: PathBuf,
    pub manifest_path: PathBuf,
    pub manifest: Manifest,
    lines: YamlLines,
}

impl Case {
    /// Reads `<case>/tidelink.yaml` (or `case` itself when it names a file).
    pub fn load(case: &Path) -> Result<Case, Diagnostics> {
        if !case.exists() {
            let mut d = Diagnostics::default();
            d.error(Location::new(case, 0), "no such case directory (or manifest file)");
            return Err(d);
        }
        if case.is_dir() && !case.join(FILE_NAME).exists() {
            let mut d = Diagnostics::default();
            d.error(Location::new(case, 0), no_manifest_message(case));
            return Err(d);
        }
        let manifest_path = paths::tidy(&if case.is_dir() { case.join(FILE_NAME) } else { case.to_path_buf() });
        let dir = manifest_path.parent().map(Path::to_path_buf).unwrap_or_default();
        let (manifest, lines) = spec::load_yaml_with_lines::<Manifest>(&manifest_path)?;
        Ok(Case { dir, manifest_path, manifest, lines })
    }

    /// The case's display name.
    pub fn name(&self) -> String {
        self.manifest.name.clone().unwrap_or_else(|| {
            let dir = self.dir.canonicalize().unwrap_or_else(|_| self.dir.clone());
            dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "case".into())
        })
    }

    /// Location of a manifest key, e.g. `participants[1].name`.
    pub fn loc(&self, node: &str) -> Location {
        self.lines.loc(node)
    }

    pub fn xml_path(&self) -> PathBuf {
        paths::tidy(&self.dir.join(&self.manifest.precice_config))
    }

    pub fn working_dir(&self, p: &ParticipantEntry) -> PathBuf {
        paths::tidy(&self.dir.join(p.working_directory.as_deref().unwrap_or(".")))
    }

    pub fn spec_path(&self, p: &ParticipantEntry) -> Option<PathBuf> {
        p.spec.as_ref().map(|s| paths::tidy(&self.dir.join(s)))
    }

    /// The backend `run` passes to `p`: its own `backend`, else the manifest's; `None` when
    /// neither is set (the program's default).
    pub fn backend_for<'a>(&'a self, p: &'a ParticipantEntry) -> Option<&'a str> {
        p.backend.as_deref().or(self.manifest.backend.as_deref())
    }

    /// The entries `tidelink run` starts.
    pub fn launched(&self) -> impl Iterator<Item = (usize, &ParticipantEntry)> {
        self.manifest.participants.iter().enumerate().filter(|(_, p)| !p.external)
    }
}
