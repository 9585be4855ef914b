//! `<acceleration:constant|aitken|IQN-ILS|IQN-IMVJ>` of implicit schemes (docs/design/coupling-semantics.md §11.5). The
//! model keeps kind, data and relaxation factors; the remaining children are parsed only to
//! check their attributes and value ranges.

use super::model::AccelerationDecl;
use super::schema::{check_count, known_children, Attrs, Ctx, Val};
use super::xml::Element;

/// Parses one acceleration tag (the scheme decides whether it is allowed).
pub(crate) fn acceleration(ctx: &mut Ctx, el: &Element) -> Option<AccelerationDecl> {
    let kind = el.name.trim_start_matches("acceleration:").to_string();
    let qn = kind.starts_with("IQN");
    let attrs: &[&str] = match kind.as_str() {
        "IQN-ILS" => &["reduced-time-grid", "on-bound-violation"],
        "IQN-IMVJ" => &["reduced-time-grid", "on-bound-violation", "always-build-jacobian"],
        _ => &[],
    };
    let a = Attrs::new(ctx, el, attrs);
    if qn {
        let _ = a.choice(ctx, "on-bound-violation", &["ignore", "clamp", "discard", "scale"], Some("ignore"));
    }
    let children: &[&str] = match kind.as_str() {
        "constant" => &["relaxation"],
        "aitken" => &["initial-relaxation", "data", "preconditioner"],
        "IQN-ILS" => {
            &["initial-relaxation", "max-used-iterations", "time-windows-reused", "data", "filter", "preconditioner"]
        }
        _ => &[
            "initial-relaxation",
            "max-used-iterations",
            "time-windows-reused",
            "data",
            "filter",
            "preconditioner",
            "imvj-restart-mode",
        ],
    };
    let mut acc = AccelerationDecl {
        kind: kind.clone(),
        data: Vec::new(),
        relaxation: None,
        initial_relaxation: None,
        loc: ctx.loc(el.line),
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
            }
            "max-used-iterations" => {
                let ca = Attrs::new(ctx, c, &["value"]);
                if let Val::Ok(n) = ca.int(ctx, "value", true) {
                    if n <= 0 {
                        ctx.error(
                            c.line,
                            format!("The number of max-used-iterations ({n}) has to be larger than zero."),
                        );
                    }
                }
            }
            "time-windows-reused" => {
                let ca = Attrs::new(ctx, c, &["value"]);
                if let Val::Ok(n) = ca.int(ctx, "value", true) {
                    if n < 0 {
                        ctx.error(
                            c.line,
                            format!("The number of time-windows-reused ({n}) has to be larger than or equal to zero."),
                        );
                    }
                }
            }
            "data" => {
                let ca = Attrs::new(ctx, c, &["name", "mesh", "scaling"]);
                let (d, m) = (ca.required(ctx, "name"), ca.required(ctx, "mesh"));
                let _ = ca.f64(ctx, "scaling", false);
                if let (Some(d), Some(m)) = (d, m) {
                    acc.data.push((d.to_string(), m.to_string()));
                }
            }
            "filter" => {
                let ca = Attrs::new(ctx, c, &["type", "limit"]);
                let _ = ca.choice(ctx, "type", &["QR1", "QR1-absolute", "QR2", "QR3"], None);
                if let Val::Ok(l) = ca.f64(ctx, "limit", false) {
                    if l <= 0.0 {
                        ctx.error(c.line, format!("The filter limit ({l}) has to be larger than zero."));
                    }
                }
            }
            "preconditioner" => {
                let ca = Attrs::new(ctx, c, &["type", "update-on-threshold", "freeze-after"]);
                let _ = ca.choice(ctx, "type", &["constant", "value", "residual", "residual-sum"], None);
                let _ = ca.int(ctx, "freeze-after", false);
            }
            _ => {
                let ca = Attrs::new(
                    ctx,
                    c,
                    &["type", "chunk-size", "reused-time-windows-at-restart", "truncation-threshold"],
                );
                let _ = ca.choice(ctx, "type", &["no-restart", "RS-0", "RS-LS", "RS-SVD", "RS-SLIDE"], None);
                let _ = ca.int(ctx, "chunk-size", false);
                let _ = ca.int(ctx, "reused-time-windows-at-restart", false);
                let _ = ca.f64(ctx, "truncation-threshold", false);
            }
        }
    }
    if kind == "constant" {
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
