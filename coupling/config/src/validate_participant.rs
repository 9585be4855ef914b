//! Participant rules of docs/design/coupling-semantics.md §9.4: provided/received meshes, read/write data, mappings and
//! watch-points. Names of meshes and data resolve in document order; `from` of a
//! receive-mesh resolves against the whole file (preCICE checks it at the end).

use super::model::*;
use super::validate::{data_names, find_data, find_mesh, mesh_names, participant_names, why_unresolved, Found};
use super::values::compact_number;
use crate::diagnostics::{suggestion, Diagnostics, Location};

pub(crate) fn check(cfg: &PreciceConfig, out: &mut Diagnostics) {
    for p in &cfg.participants {
        meshes(cfg, p, out);
        data_uses(cfg, p, out);
        for m in &p.mappings {
            mapping(cfg, p, m, out);
        }
        mapping_duplicates(cfg, p, out);
        for w in &p.watch_points {
            watch_point(cfg, p, w, out);
        }
    }
}

/// Looks a mesh up and reports it when unresolved; returns it when found.
fn known_mesh<'a>(
    cfg: &'a PreciceConfig,
    name: &str,
    at: &Location,
    what: String,
    out: &mut Diagnostics,
) -> Option<&'a MeshDecl> {
    let found = find_mesh(cfg, name, at);
    match found {
        Found::Yes(m) => Some(m),
        _ => {
            out.error(at.clone(), format!("{what}.{}", why_unresolved(&found, name, &mesh_names(cfg), "<mesh>")));
            None
        }
    }
}

fn meshes(cfg: &PreciceConfig, p: &ParticipantDecl, out: &mut Diagnostics) {
    let all: Vec<(&str, &Location)> = p
        .provide_meshes
        .iter()
        .map(|m| (m.name.as_str(), &m.loc))
        .chain(p.receive_meshes.iter().map(|m| (m.name.as_str(), &m.loc)))
        .collect();
    for (i, (name, loc)) in all.iter().enumerate() {
        if let Some((_, first)) = all[..i].iter().find(|(n, _)| n == name) {
            out.error(
                (*loc).clone(),
                format!(
                    "Mesh \"{name}\" cannot be used twice by participant \"{}\" (it is already used at line {}). A participant \
                     either provides or receives a mesh, once.",
                    p.name, first.line
                ),
            );
        }
    }
    for pm in &p.provide_meshes {
        known_mesh(
            cfg,
            &pm.name,
            &pm.loc,
            format!("Participant \"{}\" attempts to provide an unknown mesh \"{}\"", p.name, pm.name),
            out,
        );
    }
    let names = participant_names(cfg);
    for rm in &p.receive_meshes {
        known_mesh(
            cfg,
            &rm.name,
            &rm.loc,
            format!("Participant \"{}\" attempts to receive an unknown mesh \"{}\"", p.name, rm.name),
            out,
        );
        let provider = cfg.participants.iter().find(|q| q.provides(&rm.name)).map(|q| q.name.as_str());
        if rm.from.is_empty() {
            let hint = provider.map(|q| format!(" It is provided by \"{q}\": add from=\"{q}\".")).unwrap_or_default();
            out.error(
                rm.loc.clone(),
                format!(
                    "Participant \"{}\" receives mesh \"{}\", but the <receive-mesh> doesn't specify where from. Add \
                     from=\"<providing participant>\".{hint}",
                    p.name, rm.name
                ),
            );
            continue;
        }
        if rm.from == p.name {
            out.error(rm.loc.clone(), format!("Participant \"{}\" cannot receive mesh \"{}\" from itself. Set from to the participant that provides it.", p.name, rm.name));
            continue;
        }
        let Some(q) = cfg.participant(&rm.from) else {
            out.error(
                rm.loc.clone(),
                format!(
                    "Participant \"{}\" receives mesh \"{}\" from an unknown participant \"{}\".{}",
                    p.name,
                    rm.name,
                    rm.from,
                    suggestion(&rm.from, &names)
                ),
            );
            continue;
        };
        if cfg.mesh(&rm.name).is_some() && !q.provides(&rm.name) {
            let hint = match provider {
                Some(o) => format!(" It is provided by \"{o}\"; set from=\"{o}\"."),
                None => format!(" Add <provide-mesh name=\"{}\"/> to participant \"{}\".", rm.name, q.name),
            };
            out.error(
                rm.loc.clone(),
                format!(
                    "Participant \"{}\" receives mesh \"{}\" from \"{}\", but \"{}\" does not provide it.{hint}",
                    p.name, rm.name, q.name, q.name
                ),
            );
        }
        let share_scheme = cfg.schemes.iter().any(|s| s.involves(&p.name) && s.involves(&q.name));
        if !share_scheme && cfg.m2n_between(&p.name, &q.name).is_none() {
            out.error(
                rm.loc.clone(),
                format!(
                    "There is no m2n communication configured between participants \"{}\" and \"{}\", but \"{}\" receives mesh \
                     \"{}\" from \"{}\". Please add an appropriate \"<m2n />\" tag, e.g. <m2n:sockets acceptor=\"{}\" connector=\"{}\" \
                     exchange-directory=\".\"/>.",
                    p.name, q.name, p.name, rm.name, q.name, p.name, q.name
                ),
            );
        }
    }
}

fn data_uses(cfg: &PreciceConfig, p: &ParticipantDecl, out: &mut Diagnostics) {
    let uses: Vec<(&DataUse, &str)> =
        p.write_data.iter().map(|u| (u, "write")).chain(p.read_data.iter().map(|u| (u, "read"))).collect();
    for (i, (u, verb)) in uses.iter().enumerate() {
        if let Some((first, _)) = uses[..i].iter().find(|(o, _)| o.name == u.name && o.mesh == u.mesh) {
            out.error(
                u.loc.clone(),
                format!(
                    "Participant \"{}\" can read/write data \"{}\" from/to mesh \"{}\" only once (already at line {}). Remove one \
                     of the <read-data>/<write-data> tags.",
                    p.name, u.name, u.mesh, first.loc.line
                ),
            );
            continue;
        }
        let what = format!(
            "Participant \"{}\" defines <{verb}-data name=\"{}\" mesh=\"{}\"> for an unknown mesh \"{}\"",
            p.name, u.name, u.mesh, u.mesh
        );
        let mesh = known_mesh(cfg, &u.mesh, &u.loc, what, out);
        let found = find_data(cfg, &u.name, &u.loc);
        if !matches!(found, Found::Yes(_)) {
            out.error(
                u.loc.clone(),
                format!(
                    "Participant \"{}\" wants to {verb} data \"{}\", which is not defined.{}",
                    p.name,
                    u.name,
                    why_unresolved(&found, &u.name, &data_names(cfg), "<data:scalar>/<data:vector>")
                ),
            );
            continue;
        }
        let Some(mesh) = mesh else { continue };
        if !p.uses_mesh(&u.mesh) {
            out.error(
                u.loc.clone(),
                format!(
                    "Participant \"{}\" has to use mesh \"{}\" in order to {verb} data \"{}\" on it. Add <provide-mesh name=\"{}\"/> \
                     or <receive-mesh name=\"{}\" from=\"...\"/> to the participant.",
                    p.name, u.mesh, u.name, u.mesh, u.mesh
                ),
            );
        } else if !mesh.use_data.contains(&u.name) {
            out.error(
                u.loc.clone(),
                format!(
                    "Participant \"{}\" wants to {verb} data \"{}\" on mesh \"{}\", but this mesh does not use such data. Please add \
                     a use-data tag <use-data name=\"{}\"/> to mesh \"{}\".",
                    p.name, u.name, u.mesh, u.name, u.mesh
                ),
            );
        }
    }
}

fn mapping(cfg: &PreciceConfig, p: &ParticipantDecl, m: &MappingDecl, out: &mut Diagnostics) {
    let tag = format!("<mapping:{}>", m.method.tag());
    let err = |out: &mut Diagnostics, msg: String| out.error(m.loc.clone(), msg);
    if let MappingMethod::Other(_) = m.method {
        if !cfg.experimental {
            err(out, format!("{tag} is experimental and the configuration can change. Set experimental=\"true\" on <precice-configuration> to use it."));
        }
        return;
    }
    basis_functions(m, &tag, out);
    if m.method == MappingMethod::NearestNeighborGradient && m.constraint == MappingConstraint::Conservative {
        // libprecice's words (MappingConfiguration.cpp), its stray space included.
        err(out, "Nearest-neighbor-gradient mapping is not implemented using a \"conservative\" constraint. Please select constraint=\" consistent\" or a different mapping method.".into());
    }
    if m.method == MappingMethod::NearestNeighborGradient
        && matches!(
            m.constraint,
            MappingConstraint::ScaledConsistentSurface | MappingConstraint::ScaledConsistentVolume
        )
    {
        out.warning(m.loc.clone(), "The scaled-consistent mapping hasn't been specifically tested with nearest-neighbor-gradient. Please avoid using it or choose another mapping method.");
    }
    if m.method == MappingMethod::NearestProjection && m.constraint == MappingConstraint::ScaledConsistentVolume {
        err(out, "The constraint \"scaled-consistent-volume\" is not available for nearest-projection mapping. Use scaled-consistent-surface or another method.".into());
    }
    let mut meshes = Vec::new();
    for name in [&m.from, &m.to] {
        if name.is_empty() {
            meshes.push(None);
            continue;
        }
        let what = format!("Mesh \"{name}\" was not found while creating a mapping for participant \"{}\"", p.name);
        meshes.push(known_mesh(cfg, name, &m.loc, what, out));
    }
    let dir = match m.direction {
        MappingDirection::Read => "read",
        MappingDirection::Write => "write",
    };
    if m.from.is_empty() || m.to.is_empty() {
        just_in_time(cfg, p, m, &tag, out);
        return;
    }
    let (Some(from), Some(to)) = (meshes[0], meshes[1]) else { return };
    // (from must be, to must be): read maps received → provided, write maps provided → received.
    let received = |n: &str| p.receives(n).is_some();
    let (from_ok, to_ok, from_need, to_need) = match m.direction {
        MappingDirection::Read => (received(&m.from), p.provides(&m.to), "receiving", "providing"),
        MappingDirection::Write => (p.provides(&m.from), received(&m.to), "providing", "receiving"),
    };
    if !from_ok {
        err(out, format!("Participant \"{}\" has a {dir} mapping from mesh \"{}\" without {from_need} it. A {dir} mapping maps {}.", p.name, m.from, flow(m.direction)));
    }
    if !to_ok {
        err(
            out,
            format!(
                "Participant \"{}\" has a {dir} mapping to mesh \"{}\" without {to_need} it. A {dir} mapping maps {}.",
                p.name,
                m.to,
                flow(m.direction)
            ),
        );
    }
    if from.dimensions != to.dimensions {
        err(
            out,
            format!(
                "Mapping between meshes of different dimensions is not allowed yet: \"{}\" has {} and \"{}\" has {} dimensions.",
                from.name, from.dimensions, to.name, to.dimensions
            ),
        );
    }
    // The mapping needs a matching data flow (coupling-semantics.md §7.1).
    let (uses, on, other) = match m.direction {
        MappingDirection::Read => (&p.read_data, to, from),
        MappingDirection::Write => (&p.write_data, from, to),
    };
    if !uses.iter().any(|u| u.mesh == on.name && other.use_data.contains(&u.name)) {
        err(
            out,
            format!(
                "Participant \"{}\" has a {dir} mapping from \"{}\" to \"{}\", but there is either no corresponding {dir}-data tag \
                 or the meshes used by this participant lack the necessary use-data tags. Add <{dir}-data name=\"...\" mesh=\"{}\"/> \
                 for a datum that both meshes use.",
                p.name, m.from, m.to, on.name
            ),
        );
    }
}

fn flow(d: MappingDirection) -> &'static str {
    match d {
        MappingDirection::Read => "from a received mesh to a provided mesh",
        MappingDirection::Write => "from a provided mesh to a received mesh",
    }
}

fn just_in_time(cfg: &PreciceConfig, p: &ParticipantDecl, m: &MappingDecl, tag: &str, out: &mut Diagnostics) {
    if m.from.is_empty() && m.to.is_empty() {
        out.error(
            m.loc.clone(),
            format!("{tag} of participant \"{}\" has neither from nor to. Give both meshes.", p.name),
        );
        return;
    }
    if !cfg.experimental {
        out.error(
            m.loc.clone(),
            format!(
                "{tag} without {} is a just-in-time mapping, which is experimental and the configuration can change. Set \
                 experimental=\"true\" on <precice-configuration>, or give both from and to.",
                if m.from.is_empty() { "from" } else { "to" }
            ),
        );
    }
    let ok_kind = match m.direction {
        MappingDirection::Read => m.to.is_empty() && m.constraint == MappingConstraint::Consistent,
        MappingDirection::Write => m.from.is_empty() && m.constraint == MappingConstraint::Conservative,
    };
    if !ok_kind {
        out.error(
            m.loc.clone(),
            "For just-in-time mapping, only read-consistent (without \"to\") and write-conservative (without \"from\") \
             are implemented."
                .to_string(),
        );
    }
    if !matches!(m.method, MappingMethod::NearestNeighbor | MappingMethod::RbfPumDirect | MappingMethod::Rbf) {
        out.error(
            m.loc.clone(),
            format!("Just-in-time mapping is only available for nearest-neighbor, rbf-pum-direct and rbf, not {tag}."),
        );
    }
    let remote = if m.from.is_empty() { &m.to } else { &m.from };
    if let Some(r) = p.receives(remote) {
        if !r.api_access {
            out.error(
                m.loc.clone(),
                format!("Just-in-time mapping on mesh \"{remote}\" needs api-access=\"true\" on its <receive-mesh>."),
            );
        }
    } else if cfg.mesh(remote).is_some() {
        out.error(
            m.loc.clone(),
            format!("Just-in-time mapping on mesh \"{remote}\" needs participant \"{}\" to receive that mesh.", p.name),
        );
    }
}

fn basis_functions(m: &MappingDecl, tag: &str, out: &mut Diagnostics) {
    if m.method.is_rbf() {
        if m.basis_functions.is_empty() {
            out.error(m.loc.clone(), format!("No basis-function was defined for {tag}. Add one inside it, e.g. <basis-function:thin-plate-splines/>."));
        }
        for extra in m.basis_functions.iter().skip(1) {
            out.error(
                extra.loc.clone(),
                format!("More than one basis-function was defined for {tag}. Keep exactly one."),
            );
        }
    } else {
        for b in &m.basis_functions {
            out.error(b.loc.clone(), format!("<basis-function:{}> given, but no basis-function is required for this mapping type ({tag}). Remove it.", b.name));
        }
        return;
    }
    for b in &m.basis_functions {
        if b.name == "gaussian" && b.shape_parameter.is_some() == b.support_radius.is_some() {
            out.error(b.loc.clone(), "Please specify either a \"shape-parameter\" or a \"support-radius\" for <basis-function:gaussian> (exactly one of them).");
        }
        for (attr, v) in [("shape-parameter", b.shape_parameter), ("support-radius", b.support_radius)] {
            if let Some(v) = v.filter(|v| *v <= 0.0) {
                out.error(
                    b.loc.clone(),
                    format!(
                        "The {attr} of <basis-function:{}> is {}, but it has to be larger than zero.",
                        b.name,
                        compact_number(v)
                    ),
                );
            }
        }
    }
}

fn mapping_duplicates(cfg: &PreciceConfig, p: &ParticipantDecl, out: &mut Diagnostics) {
    let ms: Vec<&MappingDecl> = p.mappings.iter().filter(|m| !m.from.is_empty() && !m.to.is_empty()).collect();
    for (i, m) in ms.iter().enumerate() {
        for o in &ms[..i] {
            if o.from == m.from && o.to == m.to {
                out.error(
                    m.loc.clone(),
                    format!(
                        "There cannot be two mappings from mesh \"{}\" to mesh \"{}\" (the first is at line {}).",
                        m.from, m.to, o.loc.line
                    ),
                );
                break;
            }
            if o.to == m.to && o.direction == m.direction {
                let shared = |a: &str, b: &str| -> Option<String> {
                    let (a, b, t) = (cfg.mesh(a)?, cfg.mesh(b)?, cfg.mesh(&m.to)?);
                    a.use_data.iter().find(|d| b.use_data.contains(d) && t.use_data.contains(d)).cloned()
                };
                if let Some(d) = shared(&o.from, &m.from) {
                    out.error(
                        m.loc.clone(),
                        format!(
                            "There cannot be two mappings to mesh \"{}\" that both carry data \"{d}\" (from \"{}\" at line {} and from \
                             \"{}\"). Map each datum onto a mesh only once.",
                            m.to, o.from, o.loc.line, m.from
                        ),
                    );
                    break;
                }
            }
        }
    }
}

fn watch_point(cfg: &PreciceConfig, p: &ParticipantDecl, w: &WatchPointDecl, out: &mut Diagnostics) {
    let what = format!("Watch-point \"{}\" of participant \"{}\" uses an unknown mesh \"{}\"", w.name, p.name, w.mesh);
    let Some(mesh) = known_mesh(cfg, &w.mesh, &w.loc, what, out) else { return };
    if p.receives(&w.mesh).is_some() {
        out.error(
            w.loc.clone(),
            format!(
                "Participant \"{}\" defines watch-point \"{}\" for the received mesh \"{}\", which is not allowed. Define it in \
                 the participant that provides the mesh.",
                p.name, w.name, w.mesh
            ),
        );
    } else if !p.provides(&w.mesh) {
        out.error(
            w.loc.clone(),
            format!(
                "Participant \"{}\" defines watch-point \"{}\" for mesh \"{}\", which is not provided by the participant. Add \
                 <provide-mesh name=\"{}\"/> or move the watch-point.",
                p.name, w.name, w.mesh, w.mesh
            ),
        );
    }
    if w.coordinate.len() != mesh.dimensions {
        out.error(
            w.loc.clone(),
            format!(
                "The coordinate of watch-point \"{}\" has {} components, which does not match the dimension of mesh \"{}\" ({}). \
                 Give one value per dimension, separated by \";\".",
                w.name,
                w.coordinate.len(),
                w.mesh,
                mesh.dimensions
            ),
        );
    }
}
