//! Cross-checks of a participant file against the preCICE XML: the names in the YAML
//! must be the ones the XML declares for that participant, or the run would fail (or
//! hang) at start-up instead of here.

use super::model::*;
use crate::config::{self, DataUse, ParticipantDecl, PreciceConfig};
use crate::diagnostics::{nearest, Diagnostics, Location};

/// Reports every mismatch between `file` and `cfg` (see `spec::check_against`).
pub(crate) fn check_against(cfg: &PreciceConfig, file: &ParticipantFile) -> Diagnostics {
    let mut d = Diagnostics::default();
    let xml = cfg.path.display();
    let name = &file.adapter.participant_name;
    let Some(p) = cfg.participant(name) else {
        let names: Vec<&str> = cfg.participants.iter().map(|p| p.name.as_str()).collect();
        let hint = hint(name, &names, "participants");
        d.error(file.adapter.loc.clone(), format!("participant `{name}` is not a <participant> in {xml}; {hint}"));
        return d;
    };
    for iface in &file.adapter.interfaces {
        check_interface(cfg, p, iface, &mut d);
    }
    warn_unlisted(p, file, &mut d);
    let rdt = &file.adapter;
    d.extend(super::read_time::check_read_data_time(cfg, name, rdt.read_data_time, &rdt.read_data_time_loc));
    d
}

/// "did you mean `x`?" or the list of what exists.
fn hint(word: &str, candidates: &[&str], what: &str) -> String {
    match nearest(word, candidates.iter().copied()) {
        Some(n) => format!("did you mean `{n}`?"),
        None if candidates.is_empty() => format!("it declares no {what}"),
        None => format!("it declares {}", super::reader::backticked(candidates)),
    }
}

fn check_interface(cfg: &PreciceConfig, p: &ParticipantDecl, iface: &InterfaceSpec, d: &mut Diagnostics) {
    let mesh = &iface.mesh_name;
    let xml = cfg.path.display();
    if !p.uses_mesh(mesh) {
        let own: Vec<&str> = p
            .provide_meshes
            .iter()
            .map(|m| m.name.as_str())
            .chain(p.receive_meshes.iter().map(|m| m.name.as_str()))
            .collect();
        let what = if cfg.mesh(mesh).is_some() {
            "is not provided or received by"
        } else {
            "is not a <mesh> in the XML; nor used by"
        };
        let msg = format!("mesh `{mesh}` {what} participant `{}` in {xml}; {}", p.name, hint(mesh, &own, "meshes"));
        d.error(iface.loc.clone(), msg);
        return;
    }
    for data in &iface.write_data {
        check_data(p, mesh, data, true, d);
    }
    for data in &iface.read_data {
        check_data(p, mesh, data, false, d);
    }
}

fn check_data(p: &ParticipantDecl, mesh: &str, data: &DataSpec, write: bool, d: &mut Diagnostics) {
    let (same, other, tag, other_tag) = if write {
        (&p.write_data, &p.read_data, "<write-data>", "<read-data>")
    } else {
        (&p.read_data, &p.write_data, "<read-data>", "<write-data>")
    };
    let name = &data.name;
    if same.iter().any(|u| u.name == *name && u.mesh == mesh) {
        return;
    }
    let msg = if let Some(u) = same.iter().find(|u| u.name == *name) {
        format!("data `{name}` is a {tag} of participant `{}` on mesh `{}`, not on `{mesh}`", p.name, u.mesh)
    } else if other.iter().any(|u| u.name == *name && u.mesh == mesh) {
        let (here, there) = if write { ("write_data", "read_data") } else { ("read_data", "write_data") };
        format!(
            "data `{name}` is a {other_tag} of participant `{}` on `{mesh}`; move it from {here} to {there}",
            p.name
        )
    } else {
        let names: Vec<&str> = names_on(same, mesh);
        let h = hint(name, &names, &format!("{tag} on this mesh"));
        format!("data `{name}` is not a {tag} of participant `{}` on mesh `{mesh}`; {h}", p.name)
    };
    d.error(data.loc.clone(), msg);
}

fn names_on<'a>(uses: &'a [DataUse], mesh: &str) -> Vec<&'a str> {
    uses.iter().filter(|u| u.mesh == mesh).map(|u| u.name.as_str()).collect()
}

/// The XML exchanges data the YAML never mentions: the adapter would not write (or read) it.
fn warn_unlisted(p: &ParticipantDecl, file: &ParticipantFile, d: &mut Diagnostics) {
    let listed = |u: &DataUse, write: bool| {
        file.interface(&u.mesh).is_some_and(|i| {
            let list = if write { &i.write_data } else { &i.read_data };
            list.iter().any(|s| s.name == u.name)
        })
    };
    for (uses, write, key) in [(&p.write_data, true, "write_data"), (&p.read_data, false, "read_data")] {
        for u in uses.iter().filter(|u| !listed(u, write)) {
            // Only meshes the YAML couples: a received mesh read directly is the adapter's business.
            if file.interface(&u.mesh).is_none() && p.receives(&u.mesh).is_some() {
                continue;
            }
            // Added-mass meshes are set up by the adapter from the XML, not from `interfaces`.
            if file.interface(&u.mesh).is_none()
                && (config::is_solid_added_mass(&u.mesh) || config::is_fluid_added_mass(&u.mesh))
            {
                continue;
            }
            let loc = file.interface(&u.mesh).map(|i| i.loc.clone()).unwrap_or_else(|| file.adapter.loc.clone());
            let msg = format!(
                "the XML ({}) declares data `{}` on mesh `{}` for `{}`, but no {key} entry of the participant file lists it",
                Location::new(&u.loc.file, u.loc.line),
                u.name,
                u.mesh,
                p.name
            );
            d.warning(loc, msg);
        }
    }
}
