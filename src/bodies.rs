//! Coupling bodies must agree between participants that exchange one-vertex-per-body meshes:
//! vertex i of a RIGID_BODY_REFS mesh is the i-th entry of each participant's
//! `precice_adapter_config.bodies`, so a body missing on one side, or the same bodies in
//! another order, would couple the wrong bodies without any error at run time (a body left
//! without its loads, or the loads of one body applied to another).

use tidelink_adapter_core::config::PreciceConfig;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::{MeshType, ParticipantFile};

/// An error for every pair of participants coupled through a RIGID_BODY_REFS mesh (one
/// receives the other's mesh) whose body lists differ in count, names or order (both must
/// list their bodies for the rule to apply).
pub fn check(cfg: &PreciceConfig, files: &[ParticipantFile]) -> Diagnostics {
    let mut d = Diagnostics::default();
    let refs_meshes = |f: &ParticipantFile| -> Vec<String> {
        f.adapter
            .interfaces
            .iter()
            .filter(|i| i.mesh_type == MeshType::RigidBodyRefs)
            .map(|i| i.mesh_name.clone())
            .collect()
    };
    for receiver in files {
        let name = &receiver.adapter.participant_name;
        let Some(decl) = cfg.participant(name) else { continue };
        if refs_meshes(receiver).is_empty() {
            continue;
        }
        for rm in &decl.receive_meshes {
            let Some(provider) = files.iter().find(|f| f.adapter.participant_name == rm.from) else { continue };
            if !refs_meshes(provider).contains(&rm.name) {
                continue;
            }
            let ours: Vec<&str> = receiver.adapter.bodies.iter().map(|b| b.name.as_str()).collect();
            let theirs: Vec<&str> = provider.adapter.bodies.iter().map(|b| b.name.as_str()).collect();
            // A participant without a `bodies` list (the buoyancy stand-in) defines its vertices
            // in its own model; only two lists can be compared.
            if ours == theirs || ours.is_empty() || theirs.is_empty() {
                continue;
            }
            let what = if ours.len() != theirs.len() {
                format!("{} bodies here, {} in `{}`", ours.len(), theirs.len(), rm.from)
            } else {
                let i = ours.iter().zip(&theirs).position(|(a, b)| a != b).unwrap_or(0);
                format!("body {i} is `{}` here and `{}` in `{}`", ours[i], theirs[i], rm.from)
            };
            let loc = receiver.adapter.bodies.first().map_or_else(|| receiver.adapter.loc.clone(), |b| b.loc.clone());
            let msg = format!(
                "the bodies of `{name}` [{}] and of `{}` [{}] ({}) must be the same list in the same order: \
                 vertex i of the RIGID_BODY_REFS mesh `{}` is body i on both sides ({what})",
                ours.join(", "),
                rm.from,
                theirs.join(", "),
                provider.adapter.bodies.first().map_or_else(|| provider.adapter.loc.clone(), |b| b.loc.clone()),
                rm.name,
            );
            d.error(loc, msg);
        }
    }
    d
}
