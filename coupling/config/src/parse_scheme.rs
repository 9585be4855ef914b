//! `<coupling-scheme:*>` and its children (docs/design/coupling-semantics.md §9.3): participants, time, exchanges,
//! iteration limits and convergence measures. Accelerations are in `parse_acceleration`.
//! Single-tag rules of §9.4 there (value ranges, `method` on parallel schemes) are checked here,
//! where the offending tag's line is known.

use super::model::*;
use super::parse_acceleration::acceleration;
use super::schema::{check_count, known_children, Attrs, Ctx, Val};
use super::values::compact_number;
use super::xml::Element;

/// The smallest fixed window size preCICE accepts (its ε).
pub(crate) const MIN_WINDOW_SIZE: f64 = 1e-14;

const MEASURES: [&str; 4] = [
    "absolute-convergence-measure",
    "relative-convergence-measure",
    "residual-relative-convergence-measure",
    "absolute-or-relative-convergence-measure",
];
const ACCELERATIONS: [&str; 4] =
    ["acceleration:constant", "acceleration:aitken", "acceleration:IQN-ILS", "acceleration:IQN-IMVJ"];

fn kind_of(tag: &str) -> SchemeKind {
    match tag {
        "coupling-scheme:serial-explicit" => SchemeKind::SerialExplicit,
        "coupling-scheme:parallel-explicit" => SchemeKind::ParallelExplicit,
        "coupling-scheme:serial-implicit" => SchemeKind::SerialImplicit,
        "coupling-scheme:parallel-implicit" => SchemeKind::ParallelImplicit,
        _ => SchemeKind::Multi,
    }
}

/// Parses one coupling scheme and appends it to `cfg`.
pub(crate) fn scheme(ctx: &mut Ctx, el: &Element, cfg: &mut PreciceConfig) {
    let kind = kind_of(&el.name);
    let _ = Attrs::new(ctx, el, &[]);
    let mut allowed = vec!["max-time", "max-time-windows", "time-window-size", "exchange"];
    allowed.push(if kind == SchemeKind::Multi { "participant" } else { "participants" });
    if kind.is_implicit() {
        allowed.extend_from_slice(&["min-iterations", "max-iterations"]);
        allowed.extend_from_slice(&MEASURES);
        allowed.extend_from_slice(&ACCELERATIONS);
    }
    let mut s = CouplingSchemeDecl {
        kind,
        first: String::new(),
        second: String::new(),
        multi_participants: Vec::new(),
        max_time: None,
        max_time_windows: None,
        time_window_size: TimeWindowSize::Fixed(-1.0),
        exchanges: Vec::new(),
        min_iterations: None,
        max_iterations: None,
        convergence_measures: Vec::new(),
        acceleration: None,
        loc: ctx.loc(el.line),
    };
    for c in known_children(ctx, el, &allowed) {
        if !c.name.starts_with("acceleration:") {
            let _ = known_children(ctx, c, &[]);
        }
        match c.name.as_str() {
            "participants" => participants(ctx, c, &mut s),
            "participant" => {
                let a = Attrs::new(ctx, c, &["name", "control"]);
                if let Some(n) = a.required(ctx, "name") {
                    s.multi_participants.push((n.to_string(), a.bool_or(ctx, "control", false)));
                }
            }
            "max-time" => {
                let a = Attrs::new(ctx, c, &["value"]);
                let v = a.f64(ctx, "value", true);
                if let Val::Ok(t) = v {
                    if t <= 0.0 {
                        ctx.error(c.line, format!("Maximum time has to be larger than zero, but <max-time value=\"{}\"> was given. Set the simulated end time in seconds.", compact_number(t)));
                    }
                }
                // A placeholder keeps a broken value from also reading as "no termination condition".
                s.max_time = Some(v.ok().unwrap_or(0.0));
            }
            "max-time-windows" => {
                let a = Attrs::new(ctx, c, &["value"]);
                let v = a.int(ctx, "value", true);
                if let Val::Ok(n) = v {
                    if n <= 0 {
                        ctx.error(c.line, format!("Maximum number of time windows has to be larger than zero, but <max-time-windows value=\"{n}\"> was given."));
                    }
                }
                s.max_time_windows = Some(v.ok().map(|n| n.max(0) as u64).unwrap_or(0));
            }
            "time-window-size" => s.time_window_size = window_size(ctx, c, kind),
            "exchange" => {
                if let Some(x) = exchange(ctx, c, kind) {
                    s.exchanges.push(x);
                }
            }
            "min-iterations" => s.min_iterations = iterations(ctx, c),
            "max-iterations" => s.max_iterations = iterations(ctx, c),
            n if n.ends_with("-convergence-measure") => {
                if let Some(m) = measure(ctx, c) {
                    s.convergence_measures.push(m);
                }
            }
            _ => {
                let acc = acceleration(ctx, c);
                if s.acceleration.is_some() {
                    ctx.error(
                        c.line,
                        format!(
                            "You are trying to define multiple acceleration schemes for <{}> (line {}). Keep only one <acceleration:...> tag.",
                            el.name, el.line
                        ),
                    );
                } else {
                    s.acceleration = acc;
                }
            }
        }
    }
    if kind == SchemeKind::Multi {
        check_count(ctx, el, "participant", 1, None);
    } else {
        check_count(ctx, el, "participants", 1, Some(1));
    }
    check_count(ctx, el, "time-window-size", 1, Some(1));
    for once in ["max-time", "max-time-windows", "min-iterations", "max-iterations"] {
        check_count(ctx, el, once, 0, Some(1));
    }
    check_count(ctx, el, "exchange", 1, None);
    cfg.schemes.push(s);
}

fn participants(ctx: &mut Ctx, c: &Element, s: &mut CouplingSchemeDecl) {
    let a = Attrs::new(ctx, c, &["first", "second"]);
    let (f, sec) = (a.required(ctx, "first"), a.required(ctx, "second"));
    if let (Some(f), Some(sec)) = (f, sec) {
        if f == sec {
            ctx.error(
                c.line,
                format!(
                    "First and second participant in coupling scheme are the same (\"{f}\"). A coupling scheme couples two \
                     different participants: set second to the partner of \"{f}\"."
                ),
            );
        }
        s.first = f.to_string();
        s.second = sec.to_string();
    }
}

fn window_size(ctx: &mut Ctx, c: &Element, kind: SchemeKind) -> TimeWindowSize {
    let a = Attrs::new(ctx, c, &["value", "method"]);
    let value = a.f64(ctx, "value", false);
    if a.has("method") && !kind.is_serial() {
        ctx.error(
            a.line_of("method"),
            format!(
                "Tag <time-window-size> of <coupling-scheme:{}> contains the attribute \"method\". This feature is only \
                 available for serial coupling schemes. Remove the attribute (the window size is then the fixed value), \
                 or switch to a serial scheme.",
                kind.tag()
            ),
        );
    }
    let method = a.choice(ctx, "method", &["fixed", "first-participant"], Some("fixed"));
    if method == Val::Ok("first-participant") {
        if a.has("value") {
            ctx.warn(
                a.line_of("value"),
                "The given time-window-size will be ignored: with method=\"first-participant\" the first participant's \
                 steps define the windows. Remove value to silence this warning.",
            );
        }
        return TimeWindowSize::FirstParticipant;
    }
    match value {
        Val::Bad => TimeWindowSize::Fixed(MIN_WINDOW_SIZE),
        Val::Ok(v) if v >= MIN_WINDOW_SIZE => TimeWindowSize::Fixed(v),
        other => {
            let given = match other {
                Val::Ok(_) => format!("value=\"{}\" was given", a.str("value").unwrap_or_default()),
                _ => "no value was given".to_string(),
            };
            ctx.error(
                c.line,
                format!(
                    "The minimal time window size supported by preCICE is 1e-14, but {given} in <time-window-size>. \
                     Set value to the window size in seconds, e.g. value=\"0.01\"."
                ),
            );
            TimeWindowSize::Fixed(other.ok().unwrap_or(-1.0))
        }
    }
}

fn exchange(ctx: &mut Ctx, c: &Element, kind: SchemeKind) -> Option<ExchangeDecl> {
    let a = Attrs::new(ctx, c, &["data", "mesh", "from", "to", "initialize", "substeps"]);
    let (d, m, f, t) =
        (a.required(ctx, "data"), a.required(ctx, "mesh"), a.required(ctx, "from"), a.required(ctx, "to"));
    Some(ExchangeDecl {
        data: d?.to_string(),
        mesh: m?.to_string(),
        from: f?.to_string(),
        to: t?.to_string(),
        initialize: a.bool_or(ctx, "initialize", false),
        substeps: a.bool_or(ctx, "substeps", kind.is_implicit()),
        loc: ctx.loc(c.line),
    })
}

fn iterations(ctx: &mut Ctx, c: &Element) -> Option<u32> {
    let a = Attrs::new(ctx, c, &["value"]);
    match a.int(ctx, "value", true) {
        Val::Ok(n) if n <= 0 => {
            ctx.error(c.line, format!("The value of <{}> is {n}, but it has to be larger than zero.", c.name));
            None
        }
        Val::Ok(n) => Some(u32::try_from(n).unwrap_or(u32::MAX)),
        _ => None,
    }
}

fn measure(ctx: &mut Ctx, c: &Element) -> Option<ConvergenceMeasureDecl> {
    // The scheme passes only the four known tags.
    let kind = ConvergenceMeasureKind::from_tag(c.name.trim_end_matches("-convergence-measure"))?;
    let both = kind == ConvergenceMeasureKind::AbsoluteOrRelative;
    let limits: &[&str] = if both { &["abs-limit", "rel-limit"] } else { &["limit"] };
    let mut allowed = vec!["data", "mesh", "suffices", "strict"];
    allowed.extend_from_slice(limits);
    let a = Attrs::new(ctx, c, &allowed);
    let (d, m) = (a.required(ctx, "data"), a.required(ctx, "mesh"));
    let limit = if both { None } else { a.f64(ctx, "limit", true).ok() };
    let (abs_limit, rel_limit) =
        if both { (a.f64(ctx, "abs-limit", true).ok(), a.f64(ctx, "rel-limit", true).ok()) } else { (None, None) };
    Some(ConvergenceMeasureDecl {
        kind,
        data: d?.to_string(),
        mesh: m?.to_string(),
        limit,
        abs_limit,
        rel_limit,
        strict: a.bool_or(ctx, "strict", false),
        suffices: a.bool_or(ctx, "suffices", false),
        loc: ctx.loc(c.line),
    })
}
