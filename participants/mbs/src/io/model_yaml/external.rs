//! `external_ptos`: each entry puts an external module on the TSDA or RSDA it names (the kind
//! is found from the link), replacing its spring-damper law or, with `combine_native`, added to
//! it. `external_forces`: each entry puts a 6-DOF force-and-moment module on a list of bodies.
//! Nothing is started here (`--check` builds the model too); the adapter starts the
//! modules before the first step.

use super::external_file::Placed;
use super::schema::{ExternalForceEntry, ExternalPtoEntry};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::YamlLines;
use tidelink_mbs_solver::dynamics::body_set::{BodyHandle, BodySet};
use tidelink_mbs_solver::dynamics::force_element::ForceElementSet;
use tidelink_mbs_solver::external::body_force::{BODY_FORCE_KIND, BODY_OUTPUTS};
use tidelink_mbs_solver::external::LinkKind;
use tidelink_mbs_solver::{ExternalBodyForce, ExternalLink, Rsda, SharedLaw, Tsda};
use tidelink_pto::{ModuleClient, ModuleSpec};

/// The reply timeout when `timeout_ms` is not given.
pub const DEFAULT_TIMEOUT_MS: u64 = 20_000;

pub(super) fn attach(
    entries: &[Placed],
    dir: &Path,
    forces: &mut ForceElementSet,
    warnings: &mut Diagnostics,
    errors: &mut Diagnostics,
) {
    let mut used: Vec<&str> = Vec::new();
    for placed in entries {
        let e = placed.entry;
        let at = |k: &str| placed.at(k);
        if used.contains(&e.link.as_str()) {
            errors.error(at(".link"), format!("link `{}` already has an external module", e.link));
            continue;
        }
        used.push(&e.link);
        let Some(config) = common(&e.command, e.timeout_ms, e.config.as_ref(), dir, &at, errors) else { continue };
        let Some(slot) = forces.iter_mut().find(|f| f.name() == e.link) else {
            let links: Vec<String> = forces.iter().map(|f| format!("`{}`", f.name())).collect();
            errors.error(
                at(".link"),
                format!(
                    "no TSDA or RSDA named `{}`; the model's links: {}",
                    e.link,
                    if links.is_empty() { "none".into() } else { links.join(", ") }
                ),
            );
            continue;
        };
        let any = slot.as_any_mut();
        let (kind, native) = if let Some(t) = any.downcast_ref::<Tsda>() {
            (LinkKind::Tsda, [t.stiffness, t.damping])
        } else if let Some(r) = any.downcast_ref::<Rsda>() {
            if !r.stiffness_schedule.is_empty() {
                errors.error(
                    at(".link"),
                    format!(
                        "RSDA `{}` has a spring_schedule, which an external module on it would not follow; \
                         drop the schedule and let the module change its law in time",
                        e.link
                    ),
                );
                continue;
            }
            (LinkKind::Rsda, [r.stiffness, r.damping])
        } else {
            errors.error(at(".link"), format!("`{}` is not a TSDA or RSDA", e.link));
            continue;
        };
        if !e.combine_native && native.iter().any(|x| *x != 0.0) {
            warnings.warning(
                at(".link"),
                format!(
                    "link `{}` has spring_coefficient {} and damping_coefficient {}, which the external module \
                     replaces; set combine_native: true to keep them as well",
                    e.link, native[0], native[1]
                ),
            );
        }
        let rich = e.rich_state.unwrap_or(true);
        let spec = link_spec(e, kind, dir, config);
        let law: SharedLaw = Arc::new(Mutex::new(ModuleClient::new(spec)));
        let link = match kind {
            LinkKind::Tsda => {
                any.downcast_ref::<Tsda>().cloned().map(|t| ExternalLink::on_tsda(t, law, e.combine_native, rich))
            }
            LinkKind::Rsda => {
                any.downcast_ref::<Rsda>().cloned().map(|r| ExternalLink::on_rsda(r, law, e.combine_native, rich))
            }
        };
        if let Some(link) = link {
            *slot = Box::new(link);
        }
    }
}

/// What starts and initializes the module of entry `e` on a link of `kind`: the rich state
/// unless `rich_state: false`, [`DEFAULT_TIMEOUT_MS`] unless `timeout_ms` is given.
fn link_spec(e: &ExternalPtoEntry, kind: LinkKind, dir: &Path, config: serde_json::Value) -> ModuleSpec {
    let rich = e.rich_state.unwrap_or(true);
    let what = match kind {
        LinkKind::Tsda => "TSDA",
        LinkKind::Rsda => "RSDA",
    };
    ModuleSpec {
        label: format!("{what} `{}`", e.link),
        command: e.command.clone(),
        dir: dir.to_path_buf(),
        kind: kind.wire_kind(rich).into(),
        in_names: kind.channels(rich).iter().map(|s| s.to_string()).collect(),
        n_outputs: 1,
        timeout: Duration::from_millis(e.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS)),
        config,
    }
}

/// The model's bodies, for `external_forces` to look names up in.
pub(super) struct Bodies<'a> {
    pub(super) set: &'a BodySet,
    pub(super) names: &'a [(String, BodyHandle)],
}

/// Checks the settings common to both kinds of entry; the module's JSON config if they hold.
fn common(
    command: &[String],
    timeout_ms: Option<u64>,
    config: Option<&serde_yaml::Value>,
    dir: &Path,
    at: &dyn Fn(&str) -> tidelink_adapter_core::diagnostics::Location,
    errors: &mut Diagnostics,
) -> Option<serde_json::Value> {
    if command.is_empty() || command[0].is_empty() {
        errors.error(at(".command"), "`command` must name the program to start, e.g. [python3, my_model.py]");
        return None;
    }
    if let Some(why) = super::module_command::problem(command, dir) {
        errors.error(at(".command"), format!("the module cannot start: {why}"));
        return None;
    }
    if timeout_ms == Some(0) {
        errors.error(at(".timeout_ms"), "`timeout_ms` must be positive");
        return None;
    }
    match config.map(serde_json::to_value).transpose() {
        Ok(v) => Some(v.unwrap_or_else(|| serde_json::json!({}))),
        Err(err) => {
            errors.error(at(".config"), format!("`config` cannot be sent as JSON: {err}"));
            None
        }
    }
}

pub(super) fn attach_body_forces(
    entries: &[ExternalForceEntry],
    model: &Bodies,
    lines: &YamlLines,
    dir: &Path,
    forces: &mut ForceElementSet,
    errors: &mut Diagnostics,
) {
    let mut used: Vec<&str> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let at = |k: &str| lines.loc(&format!("model.external_forces[{i}]{k}"));
        if e.name.is_empty() || used.contains(&e.name.as_str()) {
            errors.error(at(".name"), format!("external force names must be unique and non-empty (`{}`)", e.name));
            continue;
        }
        used.push(&e.name);
        let Some(config) = common(&e.command, e.timeout_ms, e.config.as_ref(), dir, &at, errors) else { continue };
        if e.bodies.is_empty() {
            errors.error(at(".bodies"), "list the bodies the module pushes, e.g. bodies: [float]");
            continue;
        }
        let mut group: Vec<(String, BodyHandle)> = Vec::new();
        for (j, name) in e.bodies.iter().enumerate() {
            let at_body = at(&format!(".bodies[{j}]"));
            match model.names.iter().find(|(n, _)| n == name) {
                None => {
                    let all: Vec<&str> = model.names.iter().map(|(n, _)| n.as_str()).collect();
                    errors.error(at_body, format!("no body named `{name}`; the model's bodies: {}", all.join(", ")));
                }
                Some((_, h)) if model.set.get(*h).is_some_and(|b| b.is_fixed()) => {
                    errors.error(at_body, format!("body `{name}` is fixed: a force on it does nothing"));
                }
                Some(_) if group.iter().any(|(n, _)| n == name) => {
                    errors.error(at_body, format!("body `{name}` is listed twice"));
                }
                Some((_, h)) => group.push((name.clone(), *h)),
            }
        }
        if group.len() != e.bodies.len() {
            continue;
        }
        let spec = ModuleSpec {
            label: format!("external force `{}`", e.name),
            command: e.command.clone(),
            dir: dir.to_path_buf(),
            kind: BODY_FORCE_KIND.into(),
            in_names: ExternalBodyForce::in_names(&group),
            n_outputs: BODY_OUTPUTS.len() * group.len(),
            timeout: Duration::from_millis(e.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS)),
            config,
        };
        let deps = match &e.depends_on {
            None => None,
            Some(list) => {
                let what = format!("external force `{}`", e.name);
                let loc = |j: usize| at(&format!(".depends_on[{j}]"));
                match super::dependencies::parse(list, model.names, &what, &loc, errors) {
                    Some(d) => Some(d),
                    None => continue,
                }
            }
        };
        let law: SharedLaw = Arc::new(Mutex::new(ModuleClient::new(spec)));
        for element in ExternalBodyForce::group(&e.name, law, &group) {
            let i = forces.insert(Box::new(element));
            if let Some(d) = &deps {
                forces.set_dependencies(i, d.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(yaml: &str) -> ExternalPtoEntry {
        serde_yaml::from_str(yaml).unwrap()
    }

    /// The documented defaults (docs/external-modules.md): replies within 20 s, the rich
    /// 17-channel state; `rich_state: false` gives the lean displacement and velocity.
    #[test]
    fn timeout_and_state_defaults_and_the_lean_state() {
        let dir = Path::new(".");
        let s = link_spec(&entry("{link: pto, command: [sh]}"), LinkKind::Tsda, dir, serde_json::json!({}));
        assert_eq!(s.timeout, Duration::from_secs(20));
        assert_eq!((s.kind.as_str(), s.in_names.len()), ("pto_tsda", 17));
        let s = link_spec(
            &entry("{link: pto, command: [sh], timeout_ms: 150}"),
            LinkKind::Rsda,
            dir,
            serde_json::json!({}),
        );
        assert_eq!(s.timeout, Duration::from_millis(150));
        assert_eq!((s.kind.as_str(), s.in_names.len()), ("pto_rsda", 17));
        let s = link_spec(
            &entry("{link: pto, command: [sh], rich_state: false}"),
            LinkKind::Tsda,
            dir,
            serde_json::json!({}),
        );
        assert_eq!(s.kind, "pto");
        assert_eq!(s.in_names, ["displacement", "velocity"]);
    }
}
