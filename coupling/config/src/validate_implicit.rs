//! Implicit-scheme rules of docs/design/coupling-semantics.md §9.4 and §11: send data, iteration limits, convergence
//! measures, acceleration data and the one-implicit-scheme-per-participant rule.

use super::model::*;
use super::validate::{find_data, find_mesh, Found};
use crate::diagnostics::{Diagnostics, Location};
use crate::values::compact_number;

pub(crate) fn check(cfg: &PreciceConfig, s: &CouplingSchemeDecl, tag: &str, out: &mut Diagnostics) {
    for p in s.participant_names() {
        if !p.is_empty() && !s.exchanges.iter().any(|x| x.from == p) {
            out.error(
                s.loc.clone(),
                format!(
                    "Participant \"{p}\" sends nothing in {tag}. No send data configured. Use explicit scheme for one-way coupling. \
                     (Or add an <exchange from=\"{p}\" .../> if the coupling is two-way.)"
                ),
            );
        }
    }
    if let (Some(min), Some(max)) = (s.min_iterations, s.max_iterations) {
        if max < min {
            out.error(
                s.loc.clone(),
                format!(
                    "Maximum iteration limit {max} has to be larger or equal than the minimum iteration limit {min}."
                ),
            );
        }
    }
    if s.convergence_measures.is_empty() && s.max_iterations.is_none() {
        out.error(
            s.loc.clone(),
            format!(
                "Not defining convergence measures without providing a maximum iteration limit is forbidden: {tag} would iterate \
                 forever. Add <max-iterations value=\"...\"/> or a convergence measure."
            ),
        );
    }
    let measurer = measuring_participant(s);
    for m in &s.convergence_measures {
        measure_limits(m, out);
        if m.strict && s.max_iterations.is_none() {
            // libprecice asserts `max-iterations` here in debug builds; release builds end the run in the
            // first iteration the measure does not converge. Refused at check instead.
            out.error(
                m.loc.clone(),
                format!(
                    "The convergence measure for data \"{}\" is strict, but {tag} has no <max-iterations>: libprecice would \
                     terminate the simulation in the first iteration where it does not converge. Add <max-iterations \
                     value=\"...\"/> or drop strict=\"true\".",
                    m.data
                ),
            );
        }
        datum(cfg, s, &m.data, &m.mesh, &m.loc, measurer, "convergence measure", out);
    }
    if let Some(a) = &s.acceleration {
        acceleration(cfg, s, a, measurer, out);
    }
}

/// The second participant, or the controller of a multi scheme.
fn measuring_participant(s: &CouplingSchemeDecl) -> Option<&str> {
    if s.kind == SchemeKind::Multi {
        s.multi_participants.iter().find(|(_, c)| *c).map(|(n, _)| n.as_str())
    } else {
        Some(s.second.as_str()).filter(|n| !n.is_empty())
    }
}

fn measure_limits(m: &ConvergenceMeasureDecl, out: &mut Diagnostics) {
    let tag = format!("<{}-convergence-measure>", m.kind);
    let relative = |name: &str, v: Option<f64>, out: &mut Diagnostics| {
        if let Some(v) = v {
            if v <= 0.0 || v > 1.0 {
                out.error(
                    m.loc.clone(),
                    format!(
                        "The {name} {} of {tag} has to be larger than zero and smaller or equal to one.",
                        compact_number(v)
                    ),
                );
            } else if v < 10.0 * 1e-14 {
                out.warning(m.loc.clone(), format!("The {name} {} of {tag} is below 10 times the machine tolerance 1e-14 and may never be reached.", compact_number(v)));
            }
        }
    };
    let absolute = |name: &str, v: Option<f64>, out: &mut Diagnostics| {
        if let Some(v) = v.filter(|v| *v <= 0.0) {
            out.error(m.loc.clone(), format!("The {name} {} of {tag} has to be larger than zero.", compact_number(v)));
        }
    };
    match m.kind {
        ConvergenceMeasureKind::Absolute => absolute("limit", m.limit, out),
        ConvergenceMeasureKind::AbsoluteOrRelative => {
            absolute("abs-limit", m.abs_limit, out);
            relative("rel-limit", m.rel_limit, out);
        }
        _ => relative("limit", m.limit, out),
    }
}

/// A measured or accelerated datum: on its mesh, exchanged with the measuring participant.
#[allow(clippy::too_many_arguments)]
fn datum(
    cfg: &PreciceConfig,
    s: &CouplingSchemeDecl,
    data: &str,
    mesh: &str,
    loc: &Location,
    measurer: Option<&str>,
    what: &str,
    out: &mut Diagnostics,
) {
    let on_mesh = match (find_mesh(cfg, mesh, loc), find_data(cfg, data, loc)) {
        (Found::Yes(m), Found::Yes(_)) => m.use_data.iter().any(|d| d == data),
        _ => false,
    };
    if !on_mesh {
        let extra = if what == "acceleration" { " (not found on configuration of acceleration)" } else { "" };
        out.error(
            loc.clone(),
            format!(
                "Data \"{data}\" used by mesh \"{mesh}\" is not configured{extra}. The {what} needs a mesh defined above it that has \
                 <use-data name=\"{data}\"/>."
            ),
        );
        return;
    }
    let exchanged = s.exchanges.iter().any(|x| {
        x.data == data
            && x.mesh == mesh
            && match measurer {
                Some(p) => x.from == p || x.to == p,
                None => true,
            }
    });
    if !exchanged {
        out.error(
            loc.clone(),
            format!(
                "Data \"{data}\" on mesh \"{mesh}\" is used by a {what} but not exchanged in this scheme. You need to exchange every \
                 data that you use for convergence measures and/or the iteration acceleration."
            ),
        );
        return;
    }
    if let Some(p) = measurer {
        if let Some(pd) = cfg.participant(p) {
            if !pd.uses_mesh(mesh) {
                out.error(loc.clone(), format!("Participant \"{p}\" needs to use the mesh \"{mesh}\" to be able to use it in the coupling scheme ({what})."));
            }
        }
    }
}

fn acceleration(
    cfg: &PreciceConfig,
    s: &CouplingSchemeDecl,
    a: &AccelerationDecl,
    measurer: Option<&str>,
    out: &mut Diagnostics,
) {
    for DataKey { mesh: m, data: d } in &a.data {
        datum(cfg, s, d, m, &a.loc, measurer, "acceleration", out);
        if s.kind == SchemeKind::SerialImplicit {
            let ok = s.exchanges.iter().any(|x| &x.data == d && &x.mesh == m && x.from == s.second && x.to == s.first);
            let exchanged = s.exchanges.iter().any(|x| &x.data == d && &x.mesh == m);
            if exchanged && !ok {
                out.error(
                    a.loc.clone(),
                    format!(
                        "Data \"{d}\" on mesh \"{m}\" goes from \"{}\" to \"{}\": for serial implicit coupling schemes, only data \
                         exchanged from the second to the first participant can be used for acceleration.",
                        s.first, s.second
                    ),
                );
            }
        }
    }
    if a.kind == AccelerationKind::Aitken && s.kind != SchemeKind::SerialImplicit {
        out.warning(
            a.loc.clone(),
            "Aitken acceleration is known to perform bad in parallel coupling schemes. Consider IQN-ILS instead.",
        );
    }
}

/// A participant takes part in at most one implicit scheme (coupling-semantics.md §5.5).
pub(crate) fn one_implicit_scheme(cfg: &PreciceConfig, out: &mut Diagnostics) {
    let implicit: Vec<&CouplingSchemeDecl> = cfg.schemes.iter().filter(|s| s.kind.is_implicit()).collect();
    for (i, s) in implicit.iter().enumerate() {
        for p in s.participant_names() {
            if let Some(first) = implicit[..i].iter().find(|o| !p.is_empty() && o.involves(p)) {
                out.error(
                    s.loc.clone(),
                    format!(
                        "Participant \"{p}\" is already part of the implicit <coupling-scheme:{}> at line {}; you attempted to define \
                         a second implicit coupling-scheme for the participant. Use one <coupling-scheme:multi> to couple more than \
                         two participants implicitly.",
                        first.kind.tag(),
                        first.loc.line
                    ),
                );
            }
        }
    }
}
