//! `<acceleration:constant|aitken|IQN-ILS|IQN-IMVJ>` of implicit schemes (docs/design/coupling-semantics.md §11.5).
//! Every attribute and child is checked and kept as written (absent stays `None`); the
//! defaults are resolved by the acceleration methods (`coupling::native::acceleration::settings`).

use super::model::{
    AccelerationDecl, AccelerationKind, BoundViolation, DataKey, FilterDecl, FilterKind, ImvjRestartDecl,
    ImvjRestartKind, PreconditionerDecl, PreconditionerKind,
};
use super::schema::{check_count, known_children, Attrs, Ctx, Val};
use super::values::compact_number;
use super::xml::Element;

/// Parses one acceleration tag (the scheme decides whether it is allowed).
pub(crate) fn acceleration(ctx: &mut Ctx, el: &Element) -> Option<AccelerationDecl> {
    // The scheme passes only the four known tags.
    let kind = AccelerationKind::from_tag(el.name.trim_start_matches("acceleration:"))?;
    let qn = kind.is_quasi_newton();
    let attrs: &[&str] = match kind {
        AccelerationKind::IqnIls => &["reduced-time-grid", "on-bound-violation"],
        AccelerationKind::IqnImvj => &["reduced-time-grid", "on-bound-violation", "always-build-jacobian"],
        _ => &[],
    };
    let a = Attrs::new(ctx, el, attrs);
    let mut acc = AccelerationDecl::new(kind, ctx.loc(el.line));
    if qn {
        if a.has("on-bound-violation") {
            acc.on_bound_violation =
                match a.choice(ctx, "on-bound-violation", &["ignore", "clamp", "discard", "scale"], None).ok() {
                    Some("ignore") => Some(BoundViolation::Ignore),
                    Some("clamp") => Some(BoundViolation::Clamp),
                    Some("discard") => Some(BoundViolation::Discard),
                    Some("scale") => Some(BoundViolation::Scale),
                    _ => None,
                };
        }
        if a.has("reduced-time-grid") {
            acc.reduced_time_grid = Some(a.bool_or(ctx, "reduced-time-grid", true));
        }
        if kind == AccelerationKind::IqnImvj && a.has("always-build-jacobian") {
            acc.always_build_jacobian = Some(a.bool_or(ctx, "always-build-jacobian", false));
        }
    }
    let children: &[&str] = match kind {
        AccelerationKind::Constant => &["relaxation"],
        AccelerationKind::Aitken => &["initial-relaxation", "data", "preconditioner"],
        AccelerationKind::IqnIls => {
            &["initial-relaxation", "max-used-iterations", "time-windows-reused", "data", "filter", "preconditioner"]
        }
        AccelerationKind::IqnImvj => &[
            "initial-relaxation",
            "max-used-iterations",
            "time-windows-reused",
            "data",
            "filter",
            "preconditioner",
            "imvj-restart-mode",
        ],
    };
    for c in known_children(ctx, el, children) {
        let _ = known_children(ctx, c, &[]);
        match c.name.as_str() {
            "relaxation" => {
                let ca = Attrs::new(ctx, c, &["value"]);
                let v = ca.f64(ctx, "value", true);
                acc.relaxation = factor(ctx, c, v, "to one");
            }
            "initial-relaxation" => {
                let allowed: &[&str] = if qn { &["value", "enforce"] } else { &["value"] };
                let ca = Attrs::new(ctx, c, allowed);
                let v = ca.f64(ctx, "value", true);
                acc.initial_relaxation = factor(ctx, c, v, "than one");
                if qn && ca.has("enforce") {
                    acc.enforce_initial_relaxation = Some(ca.bool_or(ctx, "enforce", false));
                }
            }
            "max-used-iterations" => acc.max_used_iterations = value_count(ctx, c, 1),
            "time-windows-reused" => acc.time_windows_reused = value_count(ctx, c, 0),
            "data" => {
                let ca = Attrs::new(ctx, c, &["name", "mesh", "scaling"]);
                let (d, m) = (ca.required(ctx, "name"), ca.required(ctx, "mesh"));
                let scaling = ca.f64(ctx, "scaling", false).ok();
                if let (Some(d), Some(m)) = (d, m) {
                    acc.data.push(DataKey::new(m, d));
                    acc.scaling.push(scaling);
                }
            }
            "filter" => {
                let ca = Attrs::new(ctx, c, &["type", "limit"]);
                let kind = match ca.choice(ctx, "type", &["QR1", "QR1-absolute", "QR2", "QR3"], None).ok() {
                    Some("QR1") => Some(FilterKind::Qr1),
                    Some("QR1-absolute") => Some(FilterKind::Qr1Absolute),
                    Some("QR2") => Some(FilterKind::Qr2),
                    Some("QR3") => Some(FilterKind::Qr3),
                    _ => None,
                };
                let mut limit = None;
                let mut bad = false;
                match ca.f64(ctx, "limit", false) {
                    Val::Ok(l) if l <= 0.0 => {
                        ctx.error(
                            c.line,
                            format!("The filter limit ({}) has to be larger than zero.", compact_number(l)),
                        );
                        bad = true;
                    }
                    Val::Ok(l) => limit = Some(l),
                    Val::Bad => bad = true,
                    Val::Absent => {}
                }
                if let (Some(kind), false) = (kind, bad) {
                    acc.filter = Some(FilterDecl { kind, limit });
                }
            }
            "preconditioner" => {
                let ca = Attrs::new(ctx, c, &["type", "update-on-threshold", "freeze-after"]);
                let kind = match ca.choice(ctx, "type", &["constant", "value", "residual", "residual-sum"], None).ok() {
                    Some("constant") => Some(PreconditionerKind::Constant),
                    Some("value") => Some(PreconditionerKind::Value),
                    Some("residual") => Some(PreconditionerKind::Residual),
                    Some("residual-sum") => Some(PreconditionerKind::ResidualSum),
                    _ => None,
                };
                let update_on_threshold =
                    ca.has("update-on-threshold").then(|| ca.bool_or(ctx, "update-on-threshold", true));
                let freeze_after = ca.int(ctx, "freeze-after", false).ok();
                if let Some(kind) = kind {
                    acc.preconditioner = Some(PreconditionerDecl { kind, update_on_threshold, freeze_after });
                }
            }
            _ => {
                let ca = Attrs::new(
                    ctx,
                    c,
                    &["type", "chunk-size", "reused-time-windows-at-restart", "truncation-threshold"],
                );
                let kind =
                    match ca.choice(ctx, "type", &["no-restart", "RS-0", "RS-LS", "RS-SVD", "RS-SLIDE"], None).ok() {
                        Some("no-restart") => Some(ImvjRestartKind::NoRestart),
                        Some("RS-0") => Some(ImvjRestartKind::Rs0),
                        Some("RS-LS") => Some(ImvjRestartKind::RsLs),
                        Some("RS-SVD") => Some(ImvjRestartKind::RsSvd),
                        Some("RS-SLIDE") => Some(ImvjRestartKind::RsSlide),
                        _ => None,
                    };
                let chunk = ca.int(ctx, "chunk-size", false);
                let chunk_size = count(ctx, c, chunk, "chunk-size", 1);
                let reused = ca.int(ctx, "reused-time-windows-at-restart", false);
                let reused = count(ctx, c, reused, "reused-time-windows-at-restart", 0);
                let truncation_threshold = match ca.f64(ctx, "truncation-threshold", false) {
                    Val::Ok(t) if t <= 0.0 => {
                        ctx.error(
                            c.line,
                            format!("The truncation-threshold ({}) has to be larger than zero.", compact_number(t)),
                        );
                        None
                    }
                    v => v.ok(),
                };
                if let Some(kind) = kind {
                    acc.imvj_restart = Some(ImvjRestartDecl {
                        kind,
                        chunk_size,
                        reused_time_windows_at_restart: reused,
                        truncation_threshold,
                    });
                }
            }
        }
    }
    if kind == AccelerationKind::Constant {
        check_count(ctx, el, "relaxation", 1, Some(1));
    } else {
        check_count(ctx, el, "data", 1, None);
    }
    for once in [
        "initial-relaxation",
        "max-used-iterations",
        "time-windows-reused",
        "filter",
        "preconditioner",
        "imvj-restart-mode",
    ] {
        check_count(ctx, el, once, 0, Some(1));
    }
    Some(acc)
}

/// A count attribute of `<imvj-restart-mode>` that has to be at least `min`.
fn count(ctx: &mut Ctx, c: &Element, v: Val<i64>, name: &str, min: i64) -> Option<usize> {
    let n = v.ok()?;
    if n < min {
        ctx.error(c.line, format!("The {name} ({n}) of <{}> has to be {}.", c.name, bound(min)));
        return None;
    }
    Some(n as usize)
}

/// `<max-used-iterations value>` or `<time-windows-reused value>`: a count of at least `min`.
fn value_count(ctx: &mut Ctx, c: &Element, min: i64) -> Option<usize> {
    let ca = Attrs::new(ctx, c, &["value"]);
    let n = ca.int(ctx, "value", true).ok()?;
    if n < min {
        ctx.error(c.line, format!("The number of {} ({n}) has to be {}.", c.name, bound(min)));
        return None;
    }
    Some(n as usize)
}

/// The wording of a count's lower bound (0 or 1).
fn bound(min: i64) -> &'static str {
    if min == 0 {
        "larger than or equal to zero"
    } else {
        "larger than zero"
    }
}

/// A relaxation factor in (0, 1].
fn factor(ctx: &mut Ctx, c: &Element, v: Val<f64>, wording: &str) -> Option<f64> {
    let v = v.ok()?;
    if v <= 0.0 || v > 1.0 {
        ctx.error(
            c.line,
            format!(
                "The factor of <{}> is {v}, but it has to be larger than zero and smaller or equal {wording}.",
                c.name
            ),
        );
    }
    Some(v)
}
