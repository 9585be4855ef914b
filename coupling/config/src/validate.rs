//! The cross-tag validation catalogue (docs/design/coupling-semantics.md §9.4): this file holds the entry point, the
//! document-order name lookup shared by all checks, and the global rules (duplicate names,
//! mesh dimensions, use-data, m2n). Participant, scheme and added-mass rules have their own files.

use super::model::*;
use super::{added_mass, validate_participant, validate_scheme};
use crate::diagnostics::{suggestion, Diagnostics, Location};

/// Runs every cross-tag check and returns all findings, in file order.
pub(crate) fn run(cfg: &PreciceConfig) -> Diagnostics {
    let mut out = Diagnostics::default();
    duplicates(cfg, &mut out);
    meshes(cfg, &mut out);
    m2ns(cfg, &mut out);
    providers(cfg, &mut out);
    validate_participant::check(cfg, &mut out);
    validate_scheme::check(cfg, &mut out);
    added_mass::check(cfg, &mut out);
    out
}

/// True when `def` comes before `at` in the file (or either line is unknown): preCICE
/// resolves names only against tags it has already read (coupling-semantics.md §9.1).
pub(crate) fn defined_before(def: &Location, at: &Location) -> bool {
    def.line == 0 || at.line == 0 || def.line <= at.line
}

/// The result of looking a name up in document order.
pub(crate) enum Found<'a, T> {
    /// Defined before the use.
    Yes(&'a T),
    /// Defined only after the use, at this location.
    Later(&'a Location),
    No,
}

/// Looks up `name` among `items`, as seen from `at`.
pub(crate) fn lookup<'a, T>(
    items: &'a [T],
    name: &str,
    key: impl Fn(&T) -> (&str, &Location),
    at: &Location,
) -> Found<'a, T> {
    let mut later = None;
    for it in items {
        let (n, loc) = key(it);
        if n == name {
            if defined_before(loc, at) {
                return Found::Yes(it);
            }
            later.get_or_insert(loc);
        }
    }
    later.map(Found::Later).unwrap_or(Found::No)
}

pub(crate) fn find_data<'a>(cfg: &'a PreciceConfig, name: &str, at: &Location) -> Found<'a, DataDecl> {
    lookup(&cfg.data, name, |d| (d.name.as_str(), &d.loc), at)
}
pub(crate) fn find_mesh<'a>(cfg: &'a PreciceConfig, name: &str, at: &Location) -> Found<'a, MeshDecl> {
    lookup(&cfg.meshes, name, |m| (m.name.as_str(), &m.loc), at)
}
pub(crate) fn find_participant<'a>(cfg: &'a PreciceConfig, name: &str, at: &Location) -> Found<'a, ParticipantDecl> {
    lookup(&cfg.participants, name, |p| (p.name.as_str(), &p.loc), at)
}

pub(crate) fn data_names(cfg: &PreciceConfig) -> Vec<&str> {
    cfg.data.iter().map(|d| d.name.as_str()).collect()
}
pub(crate) fn mesh_names(cfg: &PreciceConfig) -> Vec<&str> {
    cfg.meshes.iter().map(|m| m.name.as_str()).collect()
}
pub(crate) fn participant_names(cfg: &PreciceConfig) -> Vec<&str> {
    cfg.participants.iter().map(|p| p.name.as_str()).collect()
}

/// The explanation that follows an unresolved name: a spelling hint, or the order fix.
pub(crate) fn why_unresolved<T>(found: &Found<'_, T>, name: &str, candidates: &[&str], tag: &str) -> String {
    match found {
        Found::Later(loc) => format!(
            " It is defined only later, at line {}: preCICE reads the configuration top to bottom and resolves \
             names against what it has already read, so move that {tag} above this line.",
            loc.line
        ),
        _ => {
            let s = suggestion(name, candidates);
            if s.is_empty() {
                format!(" Define it with a {tag} tag first.")
            } else {
                s
            }
        }
    }
}

fn duplicates(cfg: &PreciceConfig, out: &mut Diagnostics) {
    let mut dup = |what: &str, items: Vec<(&str, &Location)>| {
        for (i, (n, loc)) in items.iter().enumerate() {
            if let Some((_, first)) = items[..i].iter().find(|(m, _)| m == n) {
                out.error(
                    (*loc).clone(),
                    format!(
                        "{what} \"{n}\" has already been defined (line {}). Give each {what} a unique name.",
                        first.line
                    ),
                );
            }
        }
    };
    dup("Data", cfg.data.iter().map(|d| (d.name.as_str(), &d.loc)).collect());
    dup("Mesh", cfg.meshes.iter().map(|m| (m.name.as_str(), &m.loc)).collect());
    dup("Participant", cfg.participants.iter().map(|p| (p.name.as_str(), &p.loc)).collect());
}

/// Mesh dimensions; the `use-data` names are resolved by the parser, which knows their lines.
fn meshes(cfg: &PreciceConfig, out: &mut Diagnostics) {
    for m in &cfg.meshes {
        if m.dimensions != 2 && m.dimensions != 3 {
            out.error(
                m.loc.clone(),
                format!(
                    "Mesh \"{}\" has dimensions=\"{}\", but the dimensions of a mesh must be 2 or 3. Set dimensions=\"2\" \
                     or dimensions=\"3\".",
                    m.name, m.dimensions
                ),
            );
        }
    }
}

fn m2ns(cfg: &PreciceConfig, out: &mut Diagnostics) {
    let names = participant_names(cfg);
    let tag = |m: &M2nDecl| match m.kind {
        M2nKind::Sockets => "m2n:sockets",
        M2nKind::Mpi => "m2n:mpi",
        M2nKind::MpiMultiplePorts => "m2n:mpi-multiple-ports",
    };
    for (i, m) in cfg.m2ns.iter().enumerate() {
        for (role, who) in [("acceptor", &m.acceptor), ("connector", &m.connector)] {
            if cfg.participant(who).is_none() {
                out.error(
                    m.loc.clone(),
                    format!(
                        "The {role} in <{} {role}=\"{who}\"> is an unknown participant.{}",
                        tag(m),
                        suggestion(who, &names)
                    ),
                );
            }
        }
        if m.acceptor == m.connector {
            out.error(
                m.loc.clone(),
                format!(
                    "<{}> connects participant \"{}\" with itself; acceptor and connector have to be two different participants.",
                    tag(m),
                    m.acceptor
                ),
            );
        } else if let Some(first) = cfg.m2ns[..i].iter().find(|o| o.connects(&m.acceptor, &m.connector)) {
            out.error(
                m.loc.clone(),
                format!(
                    "Multiple m2n communications between participant \"{}\" and \"{}\" (the first is at line {}). Keep only one.",
                    m.acceptor, m.connector, first.loc.line
                ),
            );
        }
    }
}

/// Each mesh is provided by one participant only.
fn providers(cfg: &PreciceConfig, out: &mut Diagnostics) {
    let mut seen: Vec<(&str, &str, usize)> = Vec::new();
    for p in &cfg.participants {
        for pm in &p.provide_meshes {
            match seen.iter().find(|(m, q, _)| *m == pm.name && *q != p.name) {
                Some((_, q, line)) => out.error(
                    pm.loc.clone(),
                    format!(
                        "Mesh \"{}\" is provided by participant \"{q}\" (line {line}) and by participant \"{}\". Each mesh is \
                         provided by exactly one participant; the other one should use <receive-mesh name=\"{}\" from=\"{q}\"/>.",
                        pm.name, p.name, pm.name
                    ),
                ),
                None => seen.push((pm.name.as_str(), p.name.as_str(), pm.loc.line)),
            }
        }
    }
}
