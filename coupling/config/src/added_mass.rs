//! Added-mass mesh rules (docs/design/added-mass.md §6). Added-mass coefficients travel on meshes recognised by
//! name: a fluid participant writes them on its own `FluidAddedMass...` mesh, the solid
//! participant reads them on a `SolidAddedMass...` mesh it provides.

use super::model::*;
use crate::diagnostics::{Diagnostics, Location};

/// Name prefix of the meshes a fluid participant writes added mass on.
pub const FLUID_ADDED_MASS_PREFIX: &str = "FluidAddedMass";
/// Name prefix of the meshes the solid participant reads added mass on.
pub const SOLID_ADDED_MASS_PREFIX: &str = "SolidAddedMass";

/// Whether `mesh` carries added mass written by a fluid participant.
pub fn is_fluid_added_mass(mesh: &str) -> bool {
    mesh.starts_with(FLUID_ADDED_MASS_PREFIX)
}

/// Whether `mesh` carries added mass read by the solid participant.
pub fn is_solid_added_mass(mesh: &str) -> bool {
    mesh.starts_with(SOLID_ADDED_MASS_PREFIX)
}

fn is_added_mass(mesh: &str) -> bool {
    is_fluid_added_mass(mesh) || is_solid_added_mass(mesh)
}

pub(crate) fn check(cfg: &PreciceConfig, out: &mut Diagnostics) {
    scalar_only(cfg, out);
    both_kinds(cfg, out);
    roles(cfg, out);
}

/// Data exchanged, read or written on an added-mass mesh must be scalar.
fn scalar_only(cfg: &PreciceConfig, out: &mut Diagnostics) {
    let mut uses: Vec<(&str, &str, &Location)> = Vec::new();
    for p in &cfg.participants {
        for u in p.write_data.iter().chain(p.read_data.iter()) {
            uses.push((u.mesh.as_str(), u.name.as_str(), &u.loc));
        }
    }
    for s in &cfg.schemes {
        for x in &s.exchanges {
            uses.push((x.mesh.as_str(), x.data.as_str(), &x.loc));
        }
    }
    uses.sort_by_key(|(_, _, loc)| loc.line);
    let mut reported: Vec<(&str, &str)> = Vec::new();
    for (mesh, data, loc) in uses {
        if !is_added_mass(mesh) || reported.contains(&(mesh, data)) {
            continue;
        }
        if cfg.data(data).is_some_and(|d| d.kind == DataKind::Vector) {
            reported.push((mesh, data));
            out.error(
                loc.clone(),
                format!(
                    "Data \"{data}\" on the added-mass mesh \"{mesh}\" is vector data, but added-mass coefficients are exchanged as \
                     scalar data (one value per coefficient). Declare it with <data:scalar name=\"{data}\"/>."
                ),
            );
        }
    }
}

/// Added mass needs both a FluidAddedMass and a SolidAddedMass mesh.
fn both_kinds(cfg: &PreciceConfig, out: &mut Diagnostics) {
    let fluid = cfg.meshes.iter().find(|m| is_fluid_added_mass(&m.name));
    let solid = cfg.meshes.iter().find(|m| is_solid_added_mass(&m.name));
    let (present, missing) = match (fluid, solid) {
        (Some(f), None) => (f, SOLID_ADDED_MASS_PREFIX),
        (None, Some(s)) => (s, FLUID_ADDED_MASS_PREFIX),
        _ => return,
    };
    out.error(
        present.loc.clone(),
        format!(
            "Mesh \"{}\" declares added mass, but there is no {missing}... mesh. Added mass needs both kinds: a FluidAddedMass... \
             mesh that a fluid participant provides and writes on, and a SolidAddedMass... mesh that the solid participant \
             provides and reads on (with a read mapping from the fluid mesh). Declare the missing mesh, or rename this one if \
             it does not carry added mass.",
            present.name
        ),
    );
}

/// Senders write on their own FluidAddedMass mesh, receivers read on their own
/// SolidAddedMass mesh, and nobody does both.
fn roles(cfg: &PreciceConfig, out: &mut Diagnostics) {
    let mut writers: Vec<(&str, &str, usize)> = Vec::new();
    for p in &cfg.participants {
        let sends = p.write_data.iter().find(|u| is_fluid_added_mass(&u.mesh));
        let receives = p.read_data.iter().find(|u| is_solid_added_mass(&u.mesh));
        if let (Some(w), Some(r)) = (sends, receives) {
            out.error(
                p.loc.clone(),
                format!(
                    "Participant \"{}\" both sends added mass (writes \"{}\" on \"{}\", line {}) and receives it (reads \"{}\" on \"{}\", \
                     line {}). A participant either sends or receives added mass, not both.",
                    p.name, w.name, w.mesh, w.loc.line, r.name, r.mesh, r.loc.line
                ),
            );
        }
        for w in p.write_data.iter().filter(|u| is_fluid_added_mass(&u.mesh)) {
            if !p.provides(&w.mesh) {
                out.error(
                    w.loc.clone(),
                    format!(
                        "Participant \"{}\" writes added mass on \"{}\" without providing it. A FluidAddedMass... mesh must be provided \
                         by the participant that writes on it: add <provide-mesh name=\"{}\"/>.",
                        p.name, w.mesh, w.mesh
                    ),
                );
            }
            match writers.iter().find(|(m, q, _)| *m == w.mesh && *q != p.name) {
                Some((_, q, line)) => out.error(
                    w.loc.clone(),
                    format!(
                        "Participants \"{q}\" (line {line}) and \"{}\" both write added mass on mesh \"{}\". Each sending participant \
                         provides its own FluidAddedMass... mesh (e.g. \"{FLUID_ADDED_MASS_PREFIX}_{}\") and writes on it.",
                        p.name, w.mesh, p.name
                    ),
                ),
                None => writers.push((w.mesh.as_str(), p.name.as_str(), w.loc.line)),
            }
        }
        for r in p.read_data.iter().filter(|u| is_solid_added_mass(&u.mesh)) {
            if !p.provides(&r.mesh) {
                out.error(
                    r.loc.clone(),
                    format!(
                        "Participant \"{}\" reads added mass on \"{}\" without providing it. A SolidAddedMass... mesh must be provided \
                         by the participant that reads on it: add <provide-mesh name=\"{}\"/> and a read mapping from the fluid's mesh.",
                        p.name, r.mesh, r.mesh
                    ),
                );
            }
        }
    }
}
