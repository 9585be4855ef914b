//! `external_ptos`: each entry puts an external module on the TSDA or RSDA it names (the kind
//! is found from the link), replacing its spring-damper law or, with `combine_native`, added to
//! it. Nothing is started here (`--check` builds the model too); the adapter starts the
//! modules before the first step.

use super::schema::ExternalPtoEntry;
use crate::external::{ModuleClient, ModuleSpec};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::YamlLines;
use tidelink_mbs_solver::dynamics::force_element::ForceElementSet;
use tidelink_mbs_solver::external::LinkKind;
use tidelink_mbs_solver::{ExternalLink, Rsda, SharedLaw, Tsda};

/// The reply timeout when `timeout_ms` is not given.
pub const DEFAULT_TIMEOUT_MS: u64 = 20_000;

pub(super) fn attach(
    entries: &[ExternalPtoEntry],
    lines: &YamlLines,
    dir: &Path,
    forces: &mut ForceElementSet,
    warnings: &mut Diagnostics,
    errors: &mut Diagnostics,
) {
    let mut used: Vec<&str> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let at = |k: &str| lines.loc(&format!("model.external_ptos[{i}]{k}"));
        if used.contains(&e.link.as_str()) {
            errors.error(at(".link"), format!("link `{}` already has an external module", e.link));
            continue;
        }
        used.push(&e.link);
        if e.command.is_empty() || e.command[0].is_empty() {
            errors.error(at(".command"), "`command` must name the program to start, e.g. [python3, my_pto.py]");
            continue;
        }
        if e.timeout_ms == Some(0) {
            errors.error(at(".timeout_ms"), "`timeout_ms` must be positive");
            continue;
        }
        let config = match e.config.as_ref().map(serde_json::to_value).transpose() {
            Ok(v) => v.unwrap_or_else(|| serde_json::json!({})),
            Err(err) => {
                errors.error(at(".config"), format!("`config` cannot be sent as JSON: {err}"));
                continue;
            }
        };
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
        let what = match kind {
            LinkKind::Tsda => "TSDA",
            LinkKind::Rsda => "RSDA",
        };
        let spec = ModuleSpec {
            label: format!("{what} `{}`", e.link),
            command: e.command.clone(),
            dir: dir.to_path_buf(),
            kind: kind.wire_kind(rich).into(),
            in_names: kind.channels(rich).iter().map(|s| s.to_string()).collect(),
            n_outputs: 1,
            timeout: Duration::from_millis(e.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS)),
            config,
        };
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
