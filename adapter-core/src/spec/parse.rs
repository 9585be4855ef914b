//! The participant-file schema: which keys exist (Chrono spellings), which are accepted
//! but ignored, and how each value becomes part of the typed `ParticipantFile`.

use super::model::*;
use super::reader::{Fields, Node, Reader};
use crate::diagnostics::{Diagnostics, Location};
use serde_yaml::Value;
use std::path::Path;

const TOP: &[&str] = &["chrono-version", "type", "model", "solver", "simulation", "output", "precice_adapter_config"];
const TOP_IGNORED: &[&str] = &["visualization"];
const SIMULATION: &[&str] = &["end_time", "enforce_realtime", "gravity"];
/// Keys of Chrono's simulation sections that the adapters never use.
const SIMULATION_IGNORED: &[&str] = &["time_step", "contact_method", "integrator", "solver", "visualization"];
const OUTPUT: &[&str] = &["format", "mode", "fps", "directory", "vtk"];
const ADAPTER: &[&str] =
    &["participant_name", "data_path", "angle_degrees", "bodies", "interfaces", "read_data_time", "added_mass"];
const ADAPTER_IGNORED: &[&str] = &["meshes"];
const DATA_PATH: &[&str] = &["type", "root"];
const BODY: &[&str] = &["name", "points", "location", "orientation"];
const BODY_IGNORED: &[&str] = &["shapes"];
const INTERFACE: &[&str] = &["mesh_name", "mesh_type", "write_data", "read_data"];
const DATA: &[&str] = &["name", "type"];

const MESH_TYPES: &[(&str, Option<MeshType>)] = &[
    ("RIGID_BODY_REFS", Some(MeshType::RigidBodyRefs)),
    ("RIGID_BODY_POINTS", Some(MeshType::RigidBodyPoints)),
    ("FEA_MESH_NODES", None),
    ("FEA_MESH_POINTS", None),
];
const READ_DATA_TIMES: &[(&str, ReadDataTime)] =
    &[("WINDOW_START", ReadDataTime::WindowStart), ("WINDOW_END", ReadDataTime::WindowEnd)];
const OUTPUT_FORMATS: &[(&str, &str)] = &[("NONE", "NONE"), ("ASCII", "ASCII"), ("CSV", "CSV"), ("HDF5", "HDF5")];
const OUTPUT_MODES: &[(&str, &str)] = &[("FRAMES", "FRAMES"), ("SERIES", "SERIES")];
const DATA_PATH_TYPES: &[(&str, bool)] = &[("RELATIVE", false), ("ABSOLUTE", true)];

/// Parses the text of a participant file; errors carry the warnings found so far too.
pub(crate) fn participant_file(text: &str, path: &Path) -> Result<(ParticipantFile, Diagnostics), Diagnostics> {
    super::nesting::check(text, path)?;
    let mut value: Value = serde_yaml::from_str(text).map_err(|e| malformed(&e, text, path))?;
    // Merge keys (`<<: *anchor`) behave as in Chrono's YAML reader; a bad merge stays as written.
    let _ = value.apply_merge();
    let mut r = Reader::new(path, text);
    let root = Node::root(&value);
    if value.is_null() {
        r.error(&[], "the file is empty; a participant file needs a `precice_adapter_config` section");
        return Err(r.diags);
    }
    let file = read_file(&mut r, &root, path);
    // Keys are checked before values are read; present the findings in file order.
    r.diags.0.sort_by_key(|d| d.location.line);
    match file {
        Some(f) if !r.diags.has_errors() => Ok((f, r.diags)),
        _ => Err(r.diags),
    }
}

/// A serde_yaml syntax error as a diagnostic with its line (`text` is the file's text).
pub(crate) fn malformed(e: &serde_yaml::Error, text: &str, path: &Path) -> Diagnostics {
    let mut line = e.location().map(|l| l.line()).unwrap_or(1);
    let raw = e.to_string();
    let mut msg = match raw.find(" at line ") {
        Some(i) => format!("{}{}", &raw[..i], strip_position(&raw[i..])),
        None => raw,
    };
    // serde_yaml points at the mapping; the user needs the line of the second spelling.
    if let Some(key) = msg.split("duplicate entry with key \"").nth(1).and_then(|k| k.split('"').next()) {
        if let Some(second) = second_occurrence(text, line, key) {
            msg = format!("{msg} (again at line {second}; each key may appear once per mapping)");
            line = second;
        }
    }
    let mut d = Diagnostics::default();
    d.error(Location::new(path, line), format!("malformed YAML: {msg}"));
    d
}

/// The line of the second `key:` at the indentation of its first use at or after `from`.
fn second_occurrence(text: &str, from: usize, key: &str) -> Option<usize> {
    let is_key = |l: &str| {
        let t = l.trim_start().trim_start_matches("- ").trim_start();
        let t = t.trim_start_matches(['"', '\'']);
        t.strip_prefix(key).is_some_and(|r| r.trim_start_matches(['"', '\'']).starts_with(':'))
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut first: Option<usize> = None;
    for (i, l) in text.lines().enumerate().skip(from.saturating_sub(1)) {
        if !is_key(l) {
            continue;
        }
        match first {
            None => first = Some(indent(l)),
            Some(col) if col == indent(l) => return Some(i + 1),
            Some(_) => {}
        }
    }
    None
}

/// Drops the first " at line L column C" of a serde_yaml message (the location says it).
fn strip_position(s: &str) -> &str {
    let rest = s.trim_start_matches(" at line ");
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = rest.trim_start_matches(" column ");
    rest.trim_start_matches(|c: char| c.is_ascii_digit())
}

fn read_file(r: &mut Reader, root: &Node, path: &Path) -> Option<ParticipantFile> {
    let top = r.fields(root, "the top level", TOP, TOP_IGNORED)?;
    if let Some(n) = top.get("chrono-version") {
        r.string(&n, "chrono-version");
    }
    let participant_type = top.get("type").and_then(|n| r.name(&n, "type"));
    let participant_type_loc = top.get("type").map_or_else(|| Location::new(path, 1), |n| r.loc(&n.path));
    let model = top.get("model").and_then(|n| r.name(&n, "model"));
    let solver = top.get("solver").and_then(|n| r.name(&n, "solver"));
    let simulation = top.get("simulation").map(|n| read_simulation(r, &n)).unwrap_or_default();
    let output = top.get("output").map(|n| read_output(r, &n)).unwrap_or_default();
    let adapter = match r.require(&top, "precice_adapter_config", "the top level") {
        Some(n) => read_adapter(r, &n),
        None => None,
    };
    Some(ParticipantFile {
        path: path.to_path_buf(),
        participant_type,
        participant_type_loc,
        model,
        solver,
        simulation,
        output,
        adapter: adapter?,
    })
}

fn read_simulation(r: &mut Reader, node: &Node) -> SimulationSpec {
    let mut sim = SimulationSpec::default();
    let Some(f) = r.fields(node, "simulation", SIMULATION, SIMULATION_IGNORED) else { return sim };
    if let Some(n) = f.get("end_time") {
        sim.end_time = r.number(&n, "end_time");
        if let Some(t) = sim.end_time.filter(|t| *t != -1.0) {
            let msg = format!(
                "simulation.end_time = {t} is ignored: the duration comes from max-time / max-time-windows \
                 in the preCICE XML (set it to -1 to silence this)"
            );
            r.warning(&n.path, msg);
        }
    }
    if let Some(n) = f.get("enforce_realtime") {
        sim.enforce_realtime = r.boolean(&n, "enforce_realtime").unwrap_or(false);
    }
    if let Some(n) = f.get("gravity") {
        sim.gravity = r.vec3(&n, "gravity");
        sim.gravity_loc = Some(r.loc(&n.path));
    }
    sim
}

fn read_output(r: &mut Reader, node: &Node) -> OutputSpec {
    let mut out = OutputSpec::default();
    let Some(f) = r.fields(node, "output", OUTPUT, &[]) else { return out };
    out.loc = Some(r.loc(&node.path));
    if let Some(n) = f.get("format") {
        out.format = r.choice(&n, "output format", OUTPUT_FORMATS).map(String::from);
    }
    if let Some(n) = f.get("mode") {
        out.mode = r.choice(&n, "output mode", OUTPUT_MODES).map(String::from);
    }
    if let Some(n) = f.get("fps") {
        out.fps = r.number(&n, "fps");
        if out.fps.is_some_and(|v| v <= 0.0) {
            r.error(&n.path, "`fps` must be greater than 0");
        }
    }
    if let Some(n) = f.get("directory") {
        out.directory = r.name(&n, "directory");
        out.loc = Some(r.loc(&n.path));
    }
    if let Some(n) = f.get("vtk") {
        out.vtk = r.boolean(&n, "vtk").unwrap_or(false);
    }
    out
}

fn read_adapter(r: &mut Reader, node: &Node) -> Option<AdapterConfig> {
    const SECTION: &str = "precice_adapter_config";
    let section_loc = r.loc(&node.path);
    let Some(f) = r.fields(node, SECTION, ADAPTER, ADAPTER_IGNORED) else {
        r.error(&node.path, format!("{SECTION} needs at least `participant_name`"));
        return None;
    };
    let name_node = r.require(&f, "participant_name", SECTION);
    let participant_name = name_node.as_ref().and_then(|n| r.name(n, "participant_name"));
    // `loc` points at participant_name: that is the line a "no such participant" message needs.
    let loc = name_node.as_ref().map(|n| r.loc(&n.path)).unwrap_or_else(|| section_loc.clone());
    let data_path = f.get("data_path").and_then(|n| read_data_path(r, &n));
    let angle_degrees = f.get("angle_degrees").and_then(|n| r.boolean(&n, "angle_degrees"));
    let bodies = read_bodies(r, &f);
    let interfaces = read_interfaces(r, &f);
    let added_mass = f.get("added_mass").and_then(|n| super::parse_added_mass::read_added_mass(r, &n));
    let (read_data_time, read_data_time_loc) = match f.get("read_data_time") {
        Some(n) => {
            let t = r.choice(&n, "read_data_time", READ_DATA_TIMES).unwrap_or_default();
            (t, r.loc(&n.path))
        }
        None => (ReadDataTime::default(), section_loc),
    };
    Some(AdapterConfig {
        participant_name: participant_name?,
        data_path,
        angle_degrees,
        bodies,
        interfaces,
        read_data_time,
        read_data_time_loc,
        added_mass,
        loc,
    })
}

fn read_data_path(r: &mut Reader, node: &Node) -> Option<DataPath> {
    let f = r.fields(node, "data_path", DATA_PATH, &[])?;
    let absolute = match f.get("type") {
        Some(n) => r.choice(&n, "data_path type", DATA_PATH_TYPES)?,
        None => false,
    };
    let root = r.require(&f, "root", "data_path").and_then(|n| r.name(&n, "root"))?;
    Some(DataPath { absolute, root })
}

fn read_bodies(r: &mut Reader, f: &Fields) -> Vec<CouplingBodySpec> {
    let Some(list) = f.get("bodies") else { return Vec::new() };
    let mut bodies: Vec<CouplingBodySpec> = Vec::new();
    for (i, item) in r.list(&list, "bodies").into_iter().enumerate() {
        let section = format!("precice_adapter_config.bodies[{i}]");
        let Some(b) = r.fields(&item, &section, BODY, BODY_IGNORED) else {
            r.error(&item.path, format!("{section} needs at least a `name`"));
            continue;
        };
        let name = r.require(&b, "name", &section).and_then(|n| r.name(&n, "name"));
        let points = b.get("points").and_then(|n| read_points(r, &n));
        let location = b.get("location").and_then(|n| r.vec3(&n, "location"));
        let orientation = b.get("orientation").and_then(|n| r.vec3(&n, "orientation"));
        let Some(name) = name else { continue };
        if bodies.iter().any(|o| o.name == name) {
            r.error(&item.path, format!("body `{name}` is listed twice in bodies"));
        }
        bodies.push(CouplingBodySpec { name, points, location, orientation, loc: r.loc(&item.path) });
    }
    bodies
}

fn read_points(r: &mut Reader, node: &Node) -> Option<PointsSpec> {
    match node.value {
        Value::String(s) if !s.trim().is_empty() => Some(PointsSpec::File(s.clone())),
        Value::Sequence(_) => {
            let items = r.list(node, "points");
            if items.is_empty() {
                r.error(&node.path, "`points` is an empty list; give [x, y, z] entries or leave the key out");
                return None;
            }
            let pts: Vec<Option<[f64; 3]>> = items.iter().map(|p| r.vec3(p, "point")).collect();
            pts.into_iter().collect::<Option<Vec<_>>>().map(PointsSpec::Inline)
        }
        other => {
            let msg = format!(
                "`points` must be a list of [x, y, z] or a file name (text, .obj or .stl), found {}",
                super::reader::describe(other)
            );
            r.error(&node.path, msg);
            None
        }
    }
}

fn read_interfaces(r: &mut Reader, f: &Fields) -> Vec<InterfaceSpec> {
    let Some(list) = f.get("interfaces") else { return Vec::new() };
    let mut out: Vec<InterfaceSpec> = Vec::new();
    for (i, item) in r.list(&list, "interfaces").into_iter().enumerate() {
        let section = format!("precice_adapter_config.interfaces[{i}]");
        let Some(fi) = r.fields(&item, &section, INTERFACE, &[]) else {
            r.error(&item.path, format!("{section} needs `mesh_name` and `mesh_type`"));
            continue;
        };
        let mesh_name = r.require(&fi, "mesh_name", &section).and_then(|n| r.name(&n, "mesh_name"));
        let mesh_type = r.require(&fi, "mesh_type", &section).and_then(|n| {
            let t = r.choice(&n, "mesh_type", MESH_TYPES)?;
            Some(t.unwrap_or_else(|| MeshType::Fea(r.string(&n, "mesh_type").unwrap_or_default())))
        });
        let write_data = read_data_list(r, &fi, "write_data", &section);
        let read_data = read_data_list(r, &fi, "read_data", &section);
        let (Some(mesh_name), Some(mesh_type)) = (mesh_name, mesh_type) else { continue };
        if out.iter().any(|o| o.mesh_name == mesh_name) {
            r.error(&item.path, format!("mesh `{mesh_name}` has two entries in interfaces; merge them into one"));
        }
        out.push(InterfaceSpec { mesh_name, mesh_type, write_data, read_data, loc: r.loc(&item.path) });
    }
    out
}

fn read_data_list(r: &mut Reader, fi: &Fields, key: &str, parent: &str) -> Vec<DataSpec> {
    let Some(list) = fi.get(key) else { return Vec::new() };
    let mut out: Vec<DataSpec> = Vec::new();
    for (i, item) in r.list(&list, key).into_iter().enumerate() {
        let section = format!("{parent}.{key}[{i}]");
        let Some(fd) = r.fields(&item, &section, DATA, &[]) else {
            r.error(&item.path, format!("{section} needs `name` and `type`"));
            continue;
        };
        let name = r.require(&fd, "name", &section).and_then(|n| r.name(&n, "name"));
        let data_type = r.require(&fd, "type", &section).and_then(|n| r.choice(&n, "data type", &DataType::ALL));
        let (Some(name), Some(data_type)) = (name, data_type) else { continue };
        if out.iter().any(|o| o.name == name) {
            r.error(&item.path, format!("data `{name}` is listed twice in {key}"));
        }
        out.push(DataSpec { name, data_type, loc: r.loc(&item.path) });
    }
    out
}
