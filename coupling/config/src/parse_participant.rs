//! `<participant>` and its children (docs/design/coupling-semantics.md §9.3): meshes, data, mappings, actions, exports,
//! watch-points and intra-comm. Actions and watch-integrals are not part of the model, so
//! their cross-checks against the participant's meshes run here, at the end of the tag.

use super::model::*;
use super::schema::{check_count, known_children, Attrs, Ctx, Val};
use super::values::parse_vector;
use super::xml::Element;
use crate::diagnostics::suggestion;

const MAPPING_TYPES: [&str; 11] = [
    "nearest-neighbor",
    "nearest-projection",
    "nearest-neighbor-gradient",
    "linear-cell-interpolation",
    "rbf-global-direct",
    "rbf-global-iterative",
    "rbf-pum-direct",
    "rbf",
    "coarse-graining",
    "axial-geometric-multiscale",
    "radial-geometric-multiscale",
];
const ACTION_TYPES: [&str; 5] = ["multiply-by-area", "divide-by-area", "summation", "python", "recorder"];
const EXPORT_TYPES: [&str; 4] = ["vtk", "vtu", "vtp", "csv"];
const BASIS_FUNCTIONS: [&str; 11] = [
    "thin-plate-splines",
    "multiquadrics",
    "inverse-multiquadrics",
    "volume-splines",
    "gaussian",
    "compact-tps-c2",
    "compact-polynomial-c0",
    "compact-polynomial-c2",
    "compact-polynomial-c4",
    "compact-polynomial-c6",
    "compact-polynomial-c8",
];
const EXECUTORS: [&str; 5] = ["cpu", "cuda", "hip", "openmp", "sycl"];

fn prefixed(prefix: &str, names: &[&str]) -> Vec<String> {
    names.iter().map(|n| format!("{prefix}{n}")).collect()
}

/// An action or watch-integral, checked once the whole participant is known.
struct MeshUser {
    what: String,
    mesh: String,
    line: usize,
    /// (role, data name, line): "target", "source".
    data: Vec<(&'static str, String, usize)>,
    needs_provided: bool,
}

/// Parses one `<participant>` and appends it to `cfg`.
pub(crate) fn participant(ctx: &mut Ctx, el: &Element, cfg: &mut PreciceConfig) {
    let a = Attrs::new(ctx, el, &["name"]);
    let name = a.required(ctx, "name").unwrap_or("").to_string();
    let mut p = ParticipantDecl {
        name: name.clone(),
        provide_meshes: Vec::new(),
        receive_meshes: Vec::new(),
        write_data: Vec::new(),
        read_data: Vec::new(),
        mappings: Vec::new(),
        watch_points: Vec::new(),
        watch_integrals: Vec::new(),
        exports: Vec::new(),
        actions: Vec::new(),
        loc: ctx.loc(el.line),
    };
    let mut allowed: Vec<String> =
        ["provide-mesh", "receive-mesh", "write-data", "read-data", "watch-point", "watch-integral"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    allowed.extend(prefixed("mapping:", &MAPPING_TYPES));
    allowed.extend(prefixed("action:", &ACTION_TYPES));
    allowed.extend(prefixed("export:", &EXPORT_TYPES));
    allowed.extend(prefixed("intra-comm:", &["sockets", "mpi"]));
    let allowed: Vec<&str> = allowed.iter().map(String::as_str).collect();
    let mut users = Vec::new();
    for c in known_children(ctx, el, &allowed) {
        let loc = ctx.loc(c.line);
        match c.name.as_str() {
            "provide-mesh" => {
                let ca = Attrs::new(ctx, c, &["name"]);
                let _ = known_children(ctx, c, &[]);
                if let Some(m) = ca.required(ctx, "name") {
                    p.provide_meshes.push(ProvideMesh { name: m.to_string(), loc });
                }
            }
            "receive-mesh" => {
                if let Some(r) = receive_mesh(ctx, c) {
                    p.receive_meshes.push(r);
                }
            }
            "write-data" | "read-data" => {
                let ca = Attrs::new(ctx, c, &["name", "mesh"]);
                let _ = known_children(ctx, c, &[]);
                let (d, m) = (ca.required(ctx, "name"), ca.required(ctx, "mesh"));
                if let (Some(d), Some(m)) = (d, m) {
                    let u = DataUse { name: d.to_string(), mesh: m.to_string(), loc };
                    if c.name == "write-data" {
                        p.write_data.push(u);
                    } else {
                        p.read_data.push(u);
                    }
                }
            }
            "watch-point" => {
                if let Some(w) = watch_point(ctx, c) {
                    p.watch_points.push(w);
                }
            }
            "watch-integral" => {
                let ca = Attrs::new(ctx, c, &["name", "mesh", "scale-with-connectivity"]);
                let _ = known_children(ctx, c, &[]);
                let (n, m) = (ca.required(ctx, "name"), ca.required(ctx, "mesh"));
                let scale = ca.required(ctx, "scale-with-connectivity").is_some()
                    && ca.bool_or(ctx, "scale-with-connectivity", false);
                if let (Some(n), Some(m)) = (n, m) {
                    p.watch_integrals.push(WatchIntegralDecl {
                        name: n.to_string(),
                        mesh: m.to_string(),
                        scale_with_connectivity: scale,
                        loc,
                    });
                    users.push(MeshUser {
                        what: format!("Watch-integral \"{n}\" of participant \"{name}\""),
                        mesh: m.to_string(),
                        line: c.line,
                        data: Vec::new(),
                        needs_provided: true,
                    });
                }
            }
            n if n.starts_with("mapping:") => {
                if let Some(m) = mapping(ctx, c, &n["mapping:".len()..]) {
                    p.mappings.push(m);
                }
            }
            n if n.starts_with("action:") => {
                let kind = &n["action:".len()..];
                if let Some(u) = action(ctx, c, kind, &name) {
                    p.actions.push(ActionDecl { kind: kind.to_string(), mesh: u.mesh.clone(), loc });
                    users.push(u);
                }
            }
            n if n.starts_with("export:") => p.exports.push(export(ctx, c, &n["export:".len()..])),
            _ => {
                let _ = Attrs::new(ctx, c, &["port", "network", "exchange-directory"]);
                let _ = known_children(ctx, c, &[]);
            }
        }
    }
    let intra: Vec<&Element> = el.children.iter().filter(|c| c.name.starts_with("intra-comm:")).collect();
    for extra in intra.iter().skip(1) {
        ctx.error(extra.line, "Tag <intra-comm:...> is not allowed to occur multiple times in a participant.");
    }
    check_mesh_users(ctx, &p, &users, cfg);
    if !name.is_empty() {
        cfg.participants.push(p);
    }
}

fn receive_mesh(ctx: &mut Ctx, c: &Element) -> Option<ReceiveMesh> {
    let ca = Attrs::new(ctx, c, &["name", "from", "api-access", "direct-access", "geometric-filter", "safety-factor"]);
    let _ = known_children(ctx, c, &[]);
    let name = ca.required(ctx, "name");
    let _ = ca.choice(
        ctx,
        "geometric-filter",
        &["on-secondary-ranks", "on-primary-rank", "no-filter"],
        Some("on-secondary-ranks"),
    );
    if let Val::Ok(s) = ca.f64(ctx, "safety-factor", false) {
        if s < 0.0 {
            ctx.error(
                ca.line_of("safety-factor"),
                format!("The safety-factor {s} of <receive-mesh name=\"{}\"> is negative. Please use a positive or zero safety-factor.", name.unwrap_or("?")),
            );
        }
    }
    let mut api_access = ca.bool_or(ctx, "api-access", false);
    if ca.has("direct-access") {
        ctx.warn(
            ca.line_of("direct-access"),
            "The attribute \"direct-access\" of <receive-mesh> is deprecated; use api-access=\"true\" instead.",
        );
        api_access |= ca.bool_or(ctx, "direct-access", false);
    }
    Some(ReceiveMesh {
        name: name?.to_string(),
        // Missing `from` is reported by `validate` ("doesn't specify where from").
        from: ca.string_or("from", ""),
        api_access,
        loc: ctx.loc(c.line),
    })
}

fn watch_point(ctx: &mut Ctx, c: &Element) -> Option<WatchPointDecl> {
    let ca = Attrs::new(ctx, c, &["name", "mesh", "coordinate"]);
    let _ = known_children(ctx, c, &[]);
    let (n, m, coord) = (ca.required(ctx, "name"), ca.required(ctx, "mesh"), ca.required(ctx, "coordinate"));
    let coordinate = match parse_vector(coord?) {
        Some(v) => v,
        None => {
            ctx.error(
                ca.line_of("coordinate"),
                format!(
                    "Invalid value \"{}\" of attribute \"coordinate\" of tag <watch-point>: value must be numbers separated by \";\", e.g. \"0.0;1.0\".",
                    coord.unwrap_or("")
                ),
            );
            return None;
        }
    };
    Some(WatchPointDecl { name: n?.to_string(), mesh: m?.to_string(), coordinate, loc: ctx.loc(c.line) })
}

fn export(ctx: &mut Ctx, c: &Element, format: &str) -> ExportDecl {
    let ca = Attrs::new(ctx, c, &["directory", "every-n-time-windows", "every-iteration", "update-series"]);
    let _ = known_children(ctx, c, &[]);
    ExportDecl {
        format: format.to_string(),
        directory: ca.string_or("directory", "."),
        every_n_time_windows: ca.int(ctx, "every-n-time-windows", false).or(1).unwrap_or(1),
        every_iteration: ca.bool_or(ctx, "every-iteration", false),
        update_series: ca.bool_or(ctx, "update-series", false),
        loc: ctx.loc(c.line),
    }
}

fn method_of(t: &str) -> MappingMethod {
    match t {
        "nearest-neighbor" => MappingMethod::NearestNeighbor,
        "nearest-projection" => MappingMethod::NearestProjection,
        "nearest-neighbor-gradient" => MappingMethod::NearestNeighborGradient,
        "linear-cell-interpolation" => MappingMethod::LinearCellInterpolation,
        "rbf-global-direct" => MappingMethod::RbfGlobalDirect,
        "rbf-global-iterative" => MappingMethod::RbfGlobalIterative,
        "rbf-pum-direct" => MappingMethod::RbfPumDirect,
        "rbf" => MappingMethod::Rbf,
        other => MappingMethod::Other(other.to_string()),
    }
}

fn mapping(ctx: &mut Ctx, c: &Element, t: &str) -> Option<MappingDecl> {
    let method = method_of(t);
    let mut allowed = vec!["direction", "from", "to", "constraint"];
    let dead = ["x-dead", "y-dead", "z-dead"];
    let mut polynomial: &[&'static str] = &[];
    match method {
        MappingMethod::RbfGlobalDirect | MappingMethod::Rbf => {
            allowed.push("polynomial");
            allowed.extend_from_slice(&dead);
            polynomial = &["separate", "on", "off"];
        }
        MappingMethod::RbfGlobalIterative => {
            // libprecice 3.4 has no `max-iterations` (its attribute is commented out): refused as there.
            allowed.extend_from_slice(&["polynomial", "solver-rtol"]);
            allowed.extend_from_slice(&dead);
            polynomial = &["separate", "on", "off"];
        }
        MappingMethod::RbfPumDirect => {
            allowed.extend_from_slice(&["polynomial", "vertices-per-cluster", "relative-overlap", "project-to-input"]);
            polynomial = &["separate", "off"];
        }
        // Experimental methods we never run: accept their own attributes as written.
        MappingMethod::Other(_) => allowed.extend(c.attrs.iter().map(|a| a.name.as_str())),
        _ => {}
    }
    let ca = Attrs::new(ctx, c, &allowed);
    let mut rbf = RbfOptions::default();
    if !polynomial.is_empty() {
        rbf.polynomial = match ca.choice(ctx, "polynomial", polynomial, Some("separate")).ok() {
            Some("on") => Polynomial::On,
            Some("off") => Polynomial::Off,
            _ => Polynomial::Separate,
        };
    }
    for (k, axis) in dead.iter().enumerate() {
        if allowed.contains(axis) {
            rbf.dead_axes[k] = ca.bool_or(ctx, axis, false);
        }
    }
    if allowed.contains(&"solver-rtol") {
        rbf.solver_rtol = ca.f64(ctx, "solver-rtol", false).or(1e-9).unwrap_or(1e-9);
    }
    if allowed.contains(&"vertices-per-cluster") {
        rbf.vertices_per_cluster = ca.int(ctx, "vertices-per-cluster", false).or(50).unwrap_or(50);
        rbf.relative_overlap = ca.f64(ctx, "relative-overlap", false).or(0.15).unwrap_or(0.15);
        rbf.project_to_input = ca.bool_or(ctx, "project-to-input", true);
    }
    let direction = match ca.choice(ctx, "direction", &["read", "write"], None).ok() {
        Some("read") => Some(MappingDirection::Read),
        Some(_) => Some(MappingDirection::Write),
        None => None,
    };
    let constraint = match ca
        .choice(
            ctx,
            "constraint",
            &["consistent", "conservative", "scaled-consistent-surface", "scaled-consistent-volume"],
            None,
        )
        .ok()
    {
        Some("consistent") => Some(MappingConstraint::Consistent),
        Some("conservative") => Some(MappingConstraint::Conservative),
        Some("scaled-consistent-surface") => Some(MappingConstraint::ScaledConsistentSurface),
        Some(_) => Some(MappingConstraint::ScaledConsistentVolume),
        None => None,
    };
    let mut child_names = prefixed("basis-function:", &BASIS_FUNCTIONS);
    child_names.extend(prefixed("executor:", &EXECUTORS));
    let child_names: Vec<&str> = child_names.iter().map(String::as_str).collect();
    let mut basis_functions = Vec::new();
    for b in known_children(ctx, c, &child_names) {
        if let Some(bf) = b.name.strip_prefix("basis-function:") {
            basis_functions.push(basis_function(ctx, b, bf));
        } else {
            let ex = &b.name["executor:".len()..];
            rbf.executor = ex.to_string();
            let attrs: &[&str] = match ex {
                "cpu" => &[],
                "openmp" => &["n-threads"],
                _ => &["gpu-device-id"],
            };
            let _ = Attrs::new(ctx, b, attrs);
            let _ = known_children(ctx, b, &[]);
        }
    }
    let executors = c.children.iter().filter(|b| b.name.starts_with("executor:")).skip(1);
    for extra in executors {
        ctx.error(extra.line, "Tag <executor:...> is not allowed to occur multiple times in a mapping.");
    }
    Some(MappingDecl {
        method,
        direction: direction?,
        from: ca.string_or("from", ""),
        to: ca.string_or("to", ""),
        constraint: constraint?,
        basis_functions,
        rbf,
        loc: ctx.loc(c.line),
    })
}

fn basis_function(ctx: &mut Ctx, b: &Element, name: &str) -> BasisFunctionDecl {
    let (allowed, required): (&[&str], Option<&str>) = match name {
        "thin-plate-splines" | "volume-splines" => (&[], None),
        "multiquadrics" | "inverse-multiquadrics" => (&["shape-parameter"], Some("shape-parameter")),
        // Exactly one of the two; checked by `validate`.
        "gaussian" => (&["shape-parameter", "support-radius"], None),
        _ => (&["support-radius"], Some("support-radius")),
    };
    let ba = Attrs::new(ctx, b, allowed);
    let _ = known_children(ctx, b, &[]);
    let shape = ba.f64(ctx, "shape-parameter", required == Some("shape-parameter")).ok();
    let radius = ba.f64(ctx, "support-radius", required == Some("support-radius")).ok();
    BasisFunctionDecl { name: name.to_string(), shape_parameter: shape, support_radius: radius, loc: ctx.loc(b.line) }
}

fn action(ctx: &mut Ctx, c: &Element, t: &str, participant: &str) -> Option<MeshUser> {
    let ca = Attrs::new(ctx, c, &["timing", "mesh"]);
    let _ = ca.choice(ctx, "timing", &["write-mapping-post", "read-mapping-post"], None);
    let mesh = ca.required(ctx, "mesh");
    let children: &[&str] = match t {
        "multiply-by-area" | "divide-by-area" => &["target-data"],
        "summation" => &["source-data", "target-data"],
        "python" => &["path", "module", "source-data", "target-data"],
        _ => &[],
    };
    let mut data = Vec::new();
    for d in known_children(ctx, c, children) {
        let da = Attrs::new(ctx, d, &["name"]);
        let _ = known_children(ctx, d, &[]);
        if let Some(n) = da.required(ctx, "name") {
            match d.name.as_str() {
                "target-data" => data.push(("target", n.to_string(), d.line)),
                "source-data" => data.push(("source", n.to_string(), d.line)),
                _ => {}
            }
        }
    }
    match t {
        "multiply-by-area" | "divide-by-area" => check_count(ctx, c, "target-data", 1, Some(1)),
        "summation" => {
            check_count(ctx, c, "source-data", 1, None);
            check_count(ctx, c, "target-data", 1, Some(1));
        }
        "python" => {
            check_count(ctx, c, "module", 1, Some(1));
            check_count(ctx, c, "path", 0, Some(1));
            check_count(ctx, c, "source-data", 0, Some(1));
            check_count(ctx, c, "target-data", 0, Some(1));
        }
        _ => {}
    }
    Some(MeshUser {
        what: format!("Data action of participant \"{participant}\""),
        mesh: mesh?.to_string(),
        line: c.line,
        data,
        needs_provided: false,
    })
}

/// Actions must act on a mesh the participant uses, with data that mesh carries;
/// watch-integrals need a provided mesh.
fn check_mesh_users(ctx: &mut Ctx, p: &ParticipantDecl, users: &[MeshUser], cfg: &PreciceConfig) {
    for u in users {
        let used = if u.needs_provided { p.provides(&u.mesh) } else { p.uses_mesh(&u.mesh) };
        if !used {
            let names: Vec<&str> = p
                .provide_meshes
                .iter()
                .map(|m| m.name.as_str())
                .chain(p.receive_meshes.iter().map(|m| m.name.as_str()))
                .collect();
            let how = if u.needs_provided {
                "which is not provided by the participant"
            } else {
                "which is not used by the participant"
            };
            ctx.error(
                u.line,
                format!(
                    "{} uses mesh \"{}\", {how}. Add <provide-mesh name=\"{}\"/> to the participant or use one of its meshes.{}",
                    u.what,
                    u.mesh,
                    u.mesh,
                    suggestion(&u.mesh, &names)
                ),
            );
            continue;
        }
        let mesh_data: Vec<&str> =
            cfg.mesh(&u.mesh).map(|m| m.use_data.iter().map(String::as_str).collect()).unwrap_or_default();
        for (role, d, line) in &u.data {
            if !mesh_data.contains(&d.as_str()) {
                ctx.error(
                    *line,
                    format!(
                        "{} uses {role} data \"{d}\", which is not configured on mesh \"{}\". Add <use-data name=\"{d}\"/> to the mesh.{}",
                        u.what,
                        u.mesh,
                        suggestion(d, &mesh_data)
                    ),
                );
            }
        }
    }
}
