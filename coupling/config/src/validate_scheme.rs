//! Coupling-scheme rules of docs/design/coupling-semantics.md §9.4 (and §4.7, §5.4): participants, m2n, termination,
//! exchanges, degree vs sub-steps. Implicit-only rules (iterations, measures,
//! acceleration) are in `validate_implicit`.

use super::model::*;
use super::validate::{
    defined_before, find_data, find_mesh, find_participant, mesh_names, participant_names, why_unresolved, Found,
};
use super::validate_implicit;
use crate::diagnostics::{suggestion, Diagnostics};

pub(crate) fn check(cfg: &PreciceConfig, out: &mut Diagnostics) {
    for s in &cfg.schemes {
        let tag = format!("<coupling-scheme:{}>", s.kind.tag());
        participants(cfg, s, &tag, out);
        if s.max_time.is_none() && s.max_time_windows.is_none() {
            out.error(
                s.loc.clone(),
                format!("At least one termination condition is required: add <max-time value=\"...\"/> or <max-time-windows value=\"...\"/> to {tag}."),
            );
        }
        m2n(cfg, s, &tag, out);
        for x in &s.exchanges {
            exchange(cfg, s, x, &tag, out);
        }
        exchange_pairs(s, out);
        if s.kind.is_implicit() {
            validate_implicit::check(cfg, s, &tag, out);
        }
    }
    received_once(cfg, out);
    read_data_reached(cfg, out);
    validate_implicit::one_implicit_scheme(cfg, out);
}

/// Every `<read-data>` must get values: an `<exchange>` of that datum to the participant, on the
/// mesh it reads or on a mesh its read mapping maps from. Otherwise preCICE stops at the first
/// read ("contains no samples"), after the participants have connected; found here instead.
/// Only on a file without other errors: a broken exchange would otherwise be reported twice.
fn read_data_reached(cfg: &PreciceConfig, out: &mut Diagnostics) {
    if cfg.schemes.is_empty() || out.has_errors() {
        return;
    }
    for p in &cfg.participants {
        for r in &p.read_data {
            let sources: Vec<&str> = std::iter::once(r.mesh.as_str())
                .chain(
                    p.mappings
                        .iter()
                        .filter(|m| m.direction == MappingDirection::Read && (m.to == r.mesh || m.to.is_empty()))
                        .map(|m| m.from.as_str()),
                )
                .collect();
            let reached = cfg.schemes.iter().flat_map(|s| &s.exchanges).any(|x| {
                x.to == p.name && x.data == r.name && (sources.contains(&x.mesh.as_str()) || sources.contains(&""))
            });
            if !reached {
                out.error(
                    r.loc.clone(),
                    format!(
                        "participant \"{}\" reads data \"{}\" on mesh \"{}\", but no <exchange> sends \"{}\" to it (on \"{}\" \
                         or on a mesh mapped to it), so every read would fail with no values: add <exchange data=\"{}\" \
                         mesh=\"...\" from=\"...\" to=\"{}\"/> to a coupling scheme, or remove this <read-data>.",
                        p.name, r.name, r.mesh, r.name, r.mesh, r.name, p.name
                    ),
                );
            }
        }
    }
}

fn participants(cfg: &PreciceConfig, s: &CouplingSchemeDecl, tag: &str, out: &mut Diagnostics) {
    let names = participant_names(cfg);
    let unknown = |who: &str, label: String, out: &mut Diagnostics| {
        let found = find_participant(cfg, who, &s.loc);
        if !matches!(found, Found::Yes(_)) {
            out.error(
                s.loc.clone(),
                format!(
                    "{label}: \"{who}\" is not a participant defined before it.{}",
                    why_unresolved(&found, who, &names, "<participant>")
                ),
            );
        }
    };
    if s.kind != SchemeKind::Multi {
        if !s.first.is_empty() {
            unknown(&s.first, format!("First participant in coupling-scheme {tag} is unknown"), out);
        }
        if !s.second.is_empty() {
            unknown(&s.second, format!("Second participant in coupling-scheme {tag} is unknown"), out);
        }
        return;
    }
    for (i, (n, _)) in s.multi_participants.iter().enumerate() {
        if s.multi_participants[..i].iter().any(|(m, _)| m == n) {
            out.error(s.loc.clone(), format!("Participant \"{n}\" is provided multiple times to multi coupling scheme {tag}. List each participant once."));
        } else {
            unknown(n, format!("Participant \"{n}\" in {tag} is unknown"), out);
        }
    }
    let controllers: Vec<&str> = s.multi_participants.iter().filter(|(_, c)| *c).map(|(n, _)| n.as_str()).collect();
    if controllers.is_empty() && !s.multi_participants.is_empty() {
        out.error(s.loc.clone(), "One controller per MultiCoupling needs to be defined. Set control=\"yes\" on exactly one <participant> of the scheme.");
    } else if controllers.len() > 1 {
        out.error(
            s.loc.clone(),
            format!("Only one controller per MultiCouplingScheme can be defined, but {} have control=\"yes\". Keep it on one.", controllers.join(", ")),
        );
    }
    if s.multi_participants.len() == 1 {
        out.error(s.loc.clone(), format!("{tag} needs at least two participants."));
    }
}

/// The participant pairs that need an m2n for this scheme.
fn pairs(s: &CouplingSchemeDecl) -> Vec<(&str, &str)> {
    let mut v: Vec<(&str, &str)> = Vec::new();
    if s.kind != SchemeKind::Multi {
        v.push((&s.first, &s.second));
    }
    v.extend(s.exchanges.iter().map(|x| (x.from.as_str(), x.to.as_str())));
    let mut out: Vec<(&str, &str)> = Vec::new();
    for (a, b) in v {
        if !a.is_empty() && !b.is_empty() && a != b && !out.iter().any(|&(c, d)| (c, d) == (a, b) || (c, d) == (b, a)) {
            out.push((a, b));
        }
    }
    out
}

fn m2n(cfg: &PreciceConfig, s: &CouplingSchemeDecl, tag: &str, out: &mut Diagnostics) {
    for (a, b) in pairs(s) {
        if !s.involves(a) || !s.involves(b) || cfg.participant(a).is_none() || cfg.participant(b).is_none() {
            continue; // reported elsewhere
        }
        let all: Vec<&M2nDecl> = cfg.m2ns.iter().filter(|m| m.connects(a, b)).collect();
        if all.iter().any(|m| defined_before(&m.loc, &s.loc)) {
            continue;
        }
        let why = match all.first() {
            Some(m) => format!(
                " The <m2n> at line {} comes after this coupling scheme: preCICE builds the scheme when it reads {tag} and only \
                 knows the m2n tags above it, so move the m2n tag before the coupling scheme.",
                m.loc.line
            ),
            None => format!(" Please add an appropriate \"<m2n />\" tag before {tag}, e.g. <m2n:sockets acceptor=\"{a}\" connector=\"{b}\" exchange-directory=\".\"/>."),
        };
        out.error(
            s.loc.clone(),
            format!("There is no m2n communication configured between participants \"{a}\" and \"{b}\".{why}"),
        );
    }
}

fn exchange(cfg: &PreciceConfig, s: &CouplingSchemeDecl, x: &ExchangeDecl, tag: &str, out: &mut Diagnostics) {
    let err = |out: &mut Diagnostics, msg: String| out.error(x.loc.clone(), msg);
    let mesh = find_mesh(cfg, &x.mesh, &x.loc);
    let data = find_data(cfg, &x.data, &x.loc);
    let base = format!("Mesh \"{}\" with data \"{}\" not defined", x.mesh, x.data);
    match (&mesh, &data) {
        (Found::Yes(m), Found::Yes(_)) if !m.use_data.contains(&x.data) => err(
            out,
            format!(
                "{base}: mesh \"{}\" does not use data \"{}\". Add <use-data name=\"{}\"/> to the mesh.",
                x.mesh, x.data, x.data
            ),
        ),
        (Found::Yes(_), Found::Yes(_)) => {}
        (Found::Yes(_), _) => {
            let names: Vec<&str> = cfg.data.iter().map(|d| d.name.as_str()).collect();
            err(
                out,
                format!(
                    "{base}: there is no data \"{}\".{}",
                    x.data,
                    why_unresolved(&data, &x.data, &names, "<data:...>")
                ),
            );
        }
        _ => err(
            out,
            format!(
                "{base}: there is no mesh \"{}\".{}",
                x.mesh,
                why_unresolved(&mesh, &x.mesh, &mesh_names(cfg), "<mesh>")
            ),
        ),
    }
    if x.from == x.to {
        err(out, format!("You cannot define an exchange from and to the same participant (\"{}\"). Set to=\"...\" to its partner.", x.from));
    }
    let members = s.participant_names();
    // An unknown scheme participant is reported once; do not repeat it for every exchange.
    let members_known = members.iter().all(|m| m.is_empty() || cfg.participant(m).is_some());
    for who in [&x.from, &x.to] {
        if !s.involves(who) {
            if !members_known {
                continue;
            }
            err(
                out,
                format!(
                    "Participant \"{who}\" is not configured for coupling scheme {tag} (line {}).{}",
                    s.loc.line,
                    suggestion(who, &members)
                ),
            );
        } else if let Some(p) = cfg.participant(who) {
            if cfg.mesh(&x.mesh).is_some() && !p.uses_mesh(&x.mesh) {
                err(
                    out,
                    format!(
                        "Participant \"{who}\" needs to use the mesh \"{}\" to be able to use it in the coupling scheme. Add \
                         <provide-mesh name=\"{}\"/> or <receive-mesh name=\"{}\" from=\"...\"/> to it.",
                        x.mesh, x.mesh, x.mesh
                    ),
                );
            }
        }
    }
    if x.initialize {
        if let Some(r) = cfg.participant(&x.from).and_then(|p| p.receives(&x.mesh)).filter(|r| r.api_access) {
            err(
                out,
                format!(
                    "Participant \"{}\" cannot initialize data of the directly-accessed mesh \"{}\" (api-access=\"true\" at line {}). \
                     Remove initialize or exchange the data on a provided mesh.",
                    x.from, x.mesh, r.loc.line
                ),
            );
        }
    }
    degree_vs_substeps(cfg, s, x, out);
}

/// coupling-semantics.md §4.7: the receiver's waveform degree decides whether sub-steps must be exchanged.
fn degree_vs_substeps(cfg: &PreciceConfig, s: &CouplingSchemeDecl, x: &ExchangeDecl, out: &mut Diagnostics) {
    if x.substeps && s.kind == SchemeKind::ParallelExplicit {
        out.warning(x.loc.clone(), format!("Sub-steps of \"{}\" are exchanged in a parallel-explicit scheme, where they are never read. Set substeps=\"false\".", x.data));
    } else if x.substeps && s.kind == SchemeKind::SerialExplicit && x.from == s.second {
        out.warning(
            x.loc.clone(),
            format!("Sub-steps of \"{}\" from the second to the first participant of a serial-explicit scheme are never read. Set substeps=\"false\".", x.data),
        );
    }
    if s.kind == SchemeKind::Multi {
        return;
    }
    let (Some(d), Some(to)) = (cfg.data(&x.data), cfg.participant(&x.to)) else { return };
    if !to.read_data.iter().any(|r| r.name == x.data) {
        out.warning(
            x.loc.clone(),
            format!(
                "Participant \"{}\" receives data \"{}\" but has no corresponding <read-data name=\"{}\" .../>.",
                x.to, x.data, x.data
            ),
        );
        return;
    }
    if d.waveform_degree == 0 && x.substeps {
        out.error(
            x.loc.clone(),
            format!(
                "Data \"{}\" has waveform-degree=\"0\", which cannot use sub-steps. Please deactivate exchange of substeps by \
                 setting substeps=\"false\" in this exchange, or raise the waveform-degree.",
                x.data
            ),
        );
    } else if d.waveform_degree >= 2 && !x.substeps {
        out.error(
            x.loc.clone(),
            format!(
                "Data \"{}\" has waveform-degree=\"{}\", which needs the sub-steps of the sender. Please activate exchange of \
                 substeps by setting substeps=\"true\" in this exchange, or lower the waveform-degree to 1.",
                x.data, d.waveform_degree
            ),
        );
    }
}

/// Duplicate exchanges, send-and-receive of one datum, inconsistent flags (one scheme).
fn exchange_pairs(s: &CouplingSchemeDecl, out: &mut Diagnostics) {
    for (i, x) in s.exchanges.iter().enumerate() {
        let earlier = &s.exchanges[..i];
        let same = |o: &&ExchangeDecl| o.data == x.data && o.mesh == x.mesh;
        if let Some(o) = earlier.iter().find(|o| same(o) && o.from == x.from && o.to == x.to) {
            out.error(
                x.loc.clone(),
                format!(
                    "Data \"{}\" of mesh \"{}\" cannot be exchanged multiple times between participants \"{}\" and \"{}\" (first at line {}). Remove one exchange.",
                    x.data, x.mesh, x.from, x.to, o.loc.line
                ),
            );
            continue;
        }
        if let Some(o) = earlier.iter().find(|o| same(o) && (o.to == x.from || o.from == x.to)) {
            let who = if o.to == x.from { &x.from } else { &x.to };
            out.error(
                x.loc.clone(),
                format!(
                    "Data \"{}\" of mesh \"{}\" cannot be added for sending and for receiving by participant \"{who}\" (see the exchange at line {}). Use a separate datum for each direction.",
                    x.data, x.mesh, o.loc.line
                ),
            );
            continue;
        }
        if let Some(o) = earlier.iter().find(|o| same(o) && o.from == x.from) {
            if o.substeps != x.substeps {
                out.error(x.loc.clone(), format!("Data \"{}\" is configured with substeps enabled and disabled at the same time (see line {}). Use the same substeps value in both exchanges.", x.data, o.loc.line));
            }
            if o.initialize != x.initialize {
                out.error(x.loc.clone(), format!("Data \"{}\" is configured with data initialization enabled and disabled at the same time (see line {}). Use the same initialize value in both exchanges.", x.data, o.loc.line));
            }
        }
    }
}

/// A datum arrives at a participant from one sender only (all schemes together).
fn received_once(cfg: &PreciceConfig, out: &mut Diagnostics) {
    let all: Vec<&ExchangeDecl> = cfg.schemes.iter().flat_map(|s| s.exchanges.iter()).collect();
    for (i, x) in all.iter().enumerate() {
        if let Some(o) =
            all[..i].iter().find(|o| o.to == x.to && o.data == x.data && o.mesh == x.mesh && o.from != x.from)
        {
            out.error(
                x.loc.clone(),
                format!(
                    "Data \"{}\" of mesh \"{}\" cannot be received from multiple sources: participant \"{}\" already receives it from \
                     \"{}\" (line {}) and here from \"{}\". Use one datum per sender.",
                    x.data, x.mesh, x.to, o.from, o.loc.line, x.from
                ),
            );
        }
    }
}
