//! Builds the typed model from the element tree, tag by tag in document order (docs/design/coupling-semantics.md §9.1,
//! §9.3). This file holds the root and the global tags (log, profiling, data, mesh, m2n);
//! participants and coupling schemes have their own files. Checks that only need one tag
//! (syntax, value ranges) live here; checks across tags are in `validate`.

use super::model::*;
use super::schema::{check_count, known_children, solver_interface_error, Attrs, Ctx, Val};
use super::validate::{data_names, find_data, why_unresolved, Found};
use super::values::compact_number;
use super::xml::Element;
use super::{parse_participant, parse_scheme};

pub(crate) const SCHEME_TAGS: [&str; 5] = [
    "coupling-scheme:serial-explicit",
    "coupling-scheme:parallel-explicit",
    "coupling-scheme:serial-implicit",
    "coupling-scheme:parallel-implicit",
    "coupling-scheme:multi",
];

const ROOT_CHILDREN: [&str; 14] = [
    "log",
    "profiling",
    "data:scalar",
    "data:vector",
    "mesh",
    "participant",
    "m2n:sockets",
    "m2n:mpi",
    "m2n:mpi-multiple-ports",
    SCHEME_TAGS[0],
    SCHEME_TAGS[1],
    SCHEME_TAGS[2],
    SCHEME_TAGS[3],
    SCHEME_TAGS[4],
];

/// Fills `cfg` from the root element; problems go to `ctx`.
pub(crate) fn build(ctx: &mut Ctx, root: &Element, cfg: &mut PreciceConfig) {
    if root.name == "solver-interface" {
        solver_interface_error(ctx, root.line);
        return;
    }
    if root.name != "precice-configuration" {
        ctx.error(
            root.line,
            format!(
                "The configuration contains an unknown tag <{}> as its root. The root tag of a preCICE v3 \
                 configuration is <precice-configuration>.",
                root.name
            ),
        );
        return;
    }
    let a = Attrs::new(ctx, root, &["experimental", "allow-remeshing", "wait-in-finalize"]);
    cfg.experimental = a.bool_or(ctx, "experimental", false);
    cfg.allow_remeshing = a.bool_or(ctx, "allow-remeshing", false);
    cfg.wait_in_finalize = a.bool_or(ctx, "wait-in-finalize", false);
    if cfg.allow_remeshing && !cfg.experimental {
        ctx.error(
            a.line_of("allow-remeshing"),
            "Remeshing is considered an experimental feature. Set experimental=\"true\" on \
             <precice-configuration> to use allow-remeshing, or remove it.",
        );
    }
    for c in known_children(ctx, root, &ROOT_CHILDREN) {
        match c.name.as_str() {
            "log" => log(ctx, c),
            "profiling" => profiling(ctx, c),
            "data:scalar" => data(ctx, c, DataKind::Scalar, cfg),
            "data:vector" => data(ctx, c, DataKind::Vector, cfg),
            "mesh" => mesh(ctx, c, cfg),
            "participant" => parse_participant::participant(ctx, c, cfg),
            n if n.starts_with("m2n:") => m2n(ctx, c, cfg),
            _ => parse_scheme::scheme(ctx, c, cfg),
        }
    }
    check_count(ctx, root, "log", 0, Some(1));
    check_count(ctx, root, "profiling", 0, Some(1));
    check_count(ctx, root, "mesh", 1, None);
    check_count(ctx, root, "participant", 1, None);
    use_data(ctx, root, cfg);
}

/// `<use-data>` names resolve against the data tags above their mesh (coupling-semantics.md §9.1). Done on
/// the tree because the model does not keep the line of each use-data tag.
fn use_data(ctx: &mut Ctx, root: &Element, cfg: &PreciceConfig) {
    let names = data_names(cfg);
    for m in root.children.iter().filter(|c| c.name == "mesh") {
        let mesh = m.attr("name").map(|a| a.value.as_str()).unwrap_or("?");
        let at = ctx.loc(m.line);
        let mut seen: Vec<&str> = Vec::new();
        for u in m.children.iter().filter(|c| c.name == "use-data") {
            let Some(d) = u.attr("name").map(|a| a.value.as_str()) else { continue };
            if seen.contains(&d) {
                ctx.error(u.line, format!("Data \"{d}\" cannot be created twice for mesh \"{mesh}\". Remove the repeated <use-data name=\"{d}\"/>."));
                continue;
            }
            seen.push(d);
            let found = find_data(cfg, d, &at);
            if !matches!(found, Found::Yes(_)) {
                let why = why_unresolved(&found, d, &names, "<data:scalar>/<data:vector>");
                ctx.error(u.line, format!("Data with name \"{d}\" used by mesh \"{mesh}\" is not defined.{why}"));
            }
        }
    }
}

fn log(ctx: &mut Ctx, el: &Element) {
    let _ = Attrs::new(ctx, el, &["enabled"]);
    for sink in known_children(ctx, el, &["sink"]) {
        let a = Attrs::new(ctx, sink, &["type", "output", "filter", "format", "enabled"]);
        let _ = a.choice(ctx, "type", &["stream", "file"], Some("stream"));
    }
}

fn profiling(ctx: &mut Ctx, el: &Element) {
    let a = Attrs::new(ctx, el, &["mode", "flush-every", "directory", "synchronize"]);
    let _ = a.choice(ctx, "mode", &["fundamental", "api", "all", "off"], Some("fundamental"));
    if let Val::Ok(n) = a.int(ctx, "flush-every", false) {
        if n < 0 {
            ctx.error(a.line_of("flush-every"), "The flush-every value of <profiling> has to be zero or larger.");
        }
    }
    let _ = known_children(ctx, el, &[]);
}

fn data(ctx: &mut Ctx, el: &Element, kind: DataKind, cfg: &mut PreciceConfig) {
    let bounds: &[&str] = match kind {
        DataKind::Scalar => &["lower-bound", "upper-bound"],
        DataKind::Vector => {
            &["lower-bound-x", "lower-bound-y", "lower-bound-z", "upper-bound-x", "upper-bound-y", "upper-bound-z"]
        }
    };
    let mut allowed = vec!["name", "waveform-degree"];
    allowed.extend_from_slice(bounds);
    let a = Attrs::new(ctx, el, &allowed);
    let _ = known_children(ctx, el, &[]);
    let name = a.required(ctx, "name");
    let degree = match a.int(ctx, "waveform-degree", false) {
        Val::Ok(d) if d < 0 => {
            ctx.error(
                a.line_of("waveform-degree"),
                format!(
                    "The waveform-degree of data \"{}\" is {d}, but it has to be 0 or larger.",
                    name.unwrap_or("?")
                ),
            );
            1
        }
        Val::Ok(d) => u32::try_from(d).unwrap_or(u32::MAX),
        _ => 1,
    };
    let suffixes: &[&str] = match kind {
        DataKind::Scalar => &[""],
        DataKind::Vector => &["-x", "-y", "-z"],
    };
    for s in suffixes {
        let (lo, hi) = (format!("lower-bound{s}"), format!("upper-bound{s}"));
        if let (Val::Ok(l), Val::Ok(h)) = (a.f64(ctx, &lo, false), a.f64(ctx, &hi, false)) {
            if l > h {
                ctx.error(
                    a.line_of(&lo),
                    format!("{lo}=\"{}\" is larger than {hi}=\"{}\"; the lower bound has to be smaller or equal to the upper bound.", compact_number(l), compact_number(h)),
                );
            }
        }
    }
    if let Some(name) = name {
        cfg.data.push(DataDecl { name: name.to_string(), kind, waveform_degree: degree, loc: ctx.loc(el.line) });
    }
}

fn mesh(ctx: &mut Ctx, el: &Element, cfg: &mut PreciceConfig) {
    let a = Attrs::new(ctx, el, &["name", "dimensions"]);
    let name = a.required(ctx, "name");
    let dims = match a.int(ctx, "dimensions", true) {
        // Out-of-range values are reported by `validate`; negative ones cannot be stored.
        Val::Ok(d) => usize::try_from(d).unwrap_or(0),
        // Already reported; 3 avoids follow-up dimension errors.
        _ => 3,
    };
    let mut use_data = Vec::new();
    for u in known_children(ctx, el, &["use-data"]) {
        let ua = Attrs::new(ctx, u, &["name"]);
        if let Some(d) = ua.required(ctx, "name") {
            use_data.push(d.to_string());
        }
    }
    if let Some(name) = name {
        cfg.meshes.push(MeshDecl { name: name.to_string(), dimensions: dims, use_data, loc: ctx.loc(el.line) });
    }
}

fn m2n(ctx: &mut Ctx, el: &Element, cfg: &mut PreciceConfig) {
    let kind = match el.name.as_str() {
        "m2n:sockets" => M2nKind::Sockets,
        "m2n:mpi" => M2nKind::Mpi,
        _ => M2nKind::MpiMultiplePorts,
    };
    let common =
        ["acceptor", "connector", "exchange-directory", "enforce-gather-scatter", "use-two-level-initialization"];
    let mut allowed = common.to_vec();
    if kind == M2nKind::Sockets {
        allowed.extend_from_slice(&["port", "network"]);
    }
    let a = Attrs::new(ctx, el, &allowed);
    let _ = known_children(ctx, el, &[]);
    let acceptor = a.required(ctx, "acceptor");
    let connector = a.required(ctx, "connector");
    let port = match a.int(ctx, "port", false) {
        Val::Ok(p) => {
            match u16::try_from(p) {
                Ok(p) => p,
                Err(_) => {
                    ctx.error(
                    a.line_of("port"),
                    format!("The port \"{p}\" of <{}> is not a 16-bit unsigned integer. Use 0 (any free port) or 1..65535.", el.name),
                );
                    0
                }
            }
        }
        _ => 0,
    };
    let gather = a.bool_or(ctx, "enforce-gather-scatter", false);
    let two_level = a.bool_or(ctx, "use-two-level-initialization", false);
    if gather && two_level {
        ctx.error(
            el.line,
            "enforce-gather-scatter and use-two-level-initialization are mutually exclusive. Remove one of them.",
        );
    } else if two_level {
        ctx.warn(
            a.line_of("use-two-level-initialization"),
            "use-two-level-initialization only matters for parallel participants; it is ignored for serial runs.",
        );
    }
    if let (Some(acc), Some(con)) = (acceptor, connector) {
        cfg.m2ns.push(M2nDecl {
            kind,
            acceptor: acc.to_string(),
            connector: con.to_string(),
            port,
            network: a.string_or("network", "lo"),
            exchange_directory: a.string_or("exchange-directory", "."),
            enforce_gather_scatter: gather,
            use_two_level_initialization: two_level,
            loc: ctx.loc(el.line),
        });
    }
}
