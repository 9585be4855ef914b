//! `precice_adapter_config.added_mass` (docs/design/added-mass.md §5): either a hydrodynamic file
//! (`h5_filename`) or coefficients written out (`density`, `frame`, `blocks`), plus optional
//! `reference_points`, `body_to_body` (false drops the coupling between bodies) and, for a file,
//! `symmetry_tolerance`. Shapes are checked here, with the line of the offending row; whether
//! the blocks match the coupling bodies is the MBS participant's check.

use super::model::*;
use super::reader::{Node, Reader};

const SECTION: &str = "precice_adapter_config.added_mass";
const KEYS: &[&str] =
    &["h5_filename", "density", "frame", "blocks", "reference_points", "body_to_body", "symmetry_tolerance"];
const BLOCK: &[&str] = &["name", "data"];
const POINT: &[&str] = &["name", "point"];
const FRAMES: &[(&str, AddedMassFrame)] = &[("INERTIAL", AddedMassFrame::Inertial), ("BODY", AddedMassFrame::Body)];

/// Reads the `added_mass` mapping; `None` after an error (all of them reported).
pub(crate) fn read_added_mass(r: &mut Reader, node: &Node) -> Option<AddedMassSpec> {
    let loc = r.loc(&node.path);
    let Some(f) = r.fields(node, SECTION, KEYS, &[]) else {
        r.error(&node.path, format!("{SECTION} is empty; {}", how_to()));
        return None;
    };
    let reference_points = f.get("reference_points").map(|n| read_points(r, &n)).unwrap_or(Some(Vec::new()));
    let body_to_body = match f.get("body_to_body") {
        Some(n) => r.boolean(&n, "body_to_body"),
        None => Some(true),
    };
    let symmetry_tolerance = match f.get("symmetry_tolerance") {
        Some(n) => match r.number(&n, "symmetry_tolerance") {
            Some(v) if v > 0.0 && v < 1.0 && f.get("h5_filename").is_some() => Some(Some(v)),
            Some(v) if v > 0.0 && v < 1.0 => {
                let msg = "symmetry_tolerance applies to a BEMIO file's coefficients (h5_filename); inline \
                           blocks must be symmetric to 1e-2: remove the key or fix the blocks";
                r.error(&n.path, msg.to_string());
                None
            }
            Some(v) => {
                r.error(&n.path, format!("symmetry_tolerance {v} must lie between 0 and 1 (a relative difference)"));
                None
            }
            None => None,
        },
        None => Some(None),
    };
    let source = match (f.get("h5_filename"), f.get("blocks")) {
        (Some(h5), Some(blocks)) => {
            let msg = format!(
                "{SECTION} has both `h5_filename` and `blocks` (line {}); give one source of the coefficients",
                r.loc(&blocks.path).line
            );
            r.error(&h5.path, msg);
            None
        }
        (Some(h5), None) => {
            for key in ["density", "frame"] {
                if let Some(n) = f.get(key) {
                    refuse_with_file(r, &n, key);
                }
            }
            r.name(&h5, "h5_filename").map(|filename| AddedMassSource::H5 { filename, loc: r.loc(&h5.path) })
        }
        (None, Some(blocks)) => read_inline(r, &f, &blocks),
        (None, None) => {
            r.error(&node.path, format!("{SECTION} gives no coefficients; {}", how_to()));
            None
        }
    };
    Some(AddedMassSpec {
        source: source?,
        reference_points: reference_points?,
        body_to_body: body_to_body?,
        symmetry_tolerance: symmetry_tolerance?,
        loc,
    })
}

fn how_to() -> &'static str {
    "give `h5_filename: <BEMIO file>` or `density` and `blocks: [{name: <coupling body>, data: 6 rows of 6·Nb \
     values}]`"
}

/// `density` and `frame` belong to inline blocks; a file brings its own ρ and inertial axes.
fn refuse_with_file(r: &mut Reader, n: &Node, key: &str) {
    if key == "frame" && r.choice(n, "added_mass frame", FRAMES) != Some(AddedMassFrame::Body) {
        return; // INERTIAL is what a file's coefficients are anyway (an invalid value was reported).
    }
    let msg = match key {
        "density" => format!(
            "`density` in {SECTION} applies to inline `blocks`; the coefficients of `h5_filename` are scaled by the \
             file's own /simulation_parameters/rho: remove `density`"
        ),
        _ => format!(
            "`frame: BODY` in {SECTION} applies to inline `blocks`; coefficients read from `h5_filename` are always in \
             inertial axes: remove `frame` or give the blocks inline"
        ),
    };
    r.error(&n.path, msg);
}

fn read_inline(r: &mut Reader, f: &super::reader::Fields, blocks: &Node) -> Option<AddedMassSource> {
    let density = match r.require(f, "density", SECTION) {
        Some(n) => match r.number(&n, "density") {
            Some(d) if d.is_finite() && d > 0.0 => Some(d),
            Some(d) => {
                r.error(&n.path, format!("`density` must be a positive number (kg/m³, e.g. 1000 or 1025), not {d}"));
                None
            }
            None => None,
        },
        None => None,
    };
    let frame = f.get("frame").map(|n| r.choice(&n, "added_mass frame", FRAMES)).unwrap_or(Some(Default::default()));
    let items = r.list(blocks, "blocks");
    if items.is_empty() {
        r.error(&blocks.path, format!("`blocks` in {SECTION} is empty; give one block per coupling body"));
        return None;
    }
    let nb = items.len();
    let mut out: Vec<AddedMassBlockSpec> = Vec::new();
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        match read_block(r, item, i, nb) {
            Some(b) if out.iter().any(|o| o.name == b.name) => {
                r.error(&item.path, format!("added_mass.blocks: body `{}` has two blocks; give one per body", b.name));
                ok = false;
            }
            Some(b) => out.push(b),
            None => ok = false,
        }
    }
    if !ok {
        return None;
    }
    Some(AddedMassSource::Inline(InlineAddedMass { density: density?, frame: frame?, blocks: out }))
}

/// One block: 6 rows of `6 · nb` numbers (`nb` = number of blocks, one per body).
fn read_block(r: &mut Reader, item: &Node, i: usize, nb: usize) -> Option<AddedMassBlockSpec> {
    let section = format!("added_mass.blocks[{i}]");
    let Some(f) = r.fields(item, &section, BLOCK, &[]) else {
        r.error(&item.path, format!("{section} needs `name` and `data`"));
        return None;
    };
    let name = r.require(&f, "name", &section).and_then(|n| r.name(&n, "name"));
    let data = r.require(&f, "data", &section)?;
    let label = match &name {
        Some(n) => format!("{section} (`{n}`)"),
        None => section.clone(),
    };
    let rows = r.list(&data, "data");
    if rows.len() != 6 {
        let msg = format!("{label}: `data` has {} rows, expected 6 (one per degree of freedom)", rows.len());
        r.error(&data.path, msg);
        return None;
    }
    let cols = 6 * nb;
    let mut values = Vec::with_capacity(6);
    for (k, row) in rows.iter().enumerate() {
        let cells = r.list(row, "data row");
        if cells.len() != cols {
            let msg = format!(
                "{label}, row {k}: {} values, expected {cols} (6 columns per body, {nb} block(s) = {nb} bodies)",
                cells.len()
            );
            r.error(&row.path, msg);
            return None;
        }
        let row: Option<Vec<f64>> = cells.iter().map(|c| r.number(c, "added mass coefficient")).collect();
        values.push(row?);
    }
    Some(AddedMassBlockSpec { name: name?, data: values, loc: r.loc(&item.path) })
}

fn read_points(r: &mut Reader, node: &Node) -> Option<Vec<ReferencePointSpec>> {
    let mut out: Vec<ReferencePointSpec> = Vec::new();
    let mut ok = true;
    for (i, item) in r.list(node, "reference_points").into_iter().enumerate() {
        let section = format!("added_mass.reference_points[{i}]");
        let Some(f) = r.fields(&item, &section, POINT, &[]) else {
            r.error(&item.path, format!("{section} needs `name` and `point`"));
            ok = false;
            continue;
        };
        let name = r.require(&f, "name", &section).and_then(|n| r.name(&n, "name"));
        let point = r.require(&f, "point", &section).and_then(|n| r.vec3(&n, "point"));
        let (Some(name), Some(point)) = (name, point) else {
            ok = false;
            continue;
        };
        if out.iter().any(|o| o.name == name) {
            r.error(&item.path, format!("added_mass.reference_points: body `{name}` is listed twice"));
            ok = false;
        }
        out.push(ReferencePointSpec { name, point, loc: r.loc(&item.path) });
    }
    ok.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::super::parse_str;
    use super::*;
    use std::path::Path;

    fn file(added_mass: &str) -> String {
        format!(
            "type: MBS\nprecice_adapter_config:\n  participant_name: Solid\n  bodies:\n    - name: float\n    \
             - name: plate\n  added_mass:\n{added_mass}"
        )
    }

    fn parse(text: &str) -> Result<AddedMassSpec, String> {
        match parse_str(text, Path::new("p.yaml")) {
            Ok((f, _)) => f.adapter.added_mass.ok_or_else(|| "no added_mass".to_string()),
            Err(d) => Err(d.to_string()),
        }
    }

    fn line_of(text: &str, needle: &str) -> usize {
        text.lines().position(|l| l.contains(needle)).expect("needle") + 1
    }

    fn row(n: usize, v: f64) -> String {
        let vals: Vec<String> = (0..n).map(|k| if k == 0 { v.to_string() } else { "0".into() }).collect();
        format!("[{}]", vals.join(", "))
    }

    fn block(name: &str, cols: usize, short_row: Option<usize>) -> String {
        let mut s = format!("      - name: {name}\n        data:\n");
        for k in 0..6 {
            let n = if short_row == Some(k) { cols - 1 } else { cols };
            s += &format!("          - {}\n", row(n, 1.5));
        }
        s
    }

    #[test]
    fn spec_added_mass_from_an_h5_file() {
        let text = file("    h5_filename: rm3.h5\n    reference_points:\n      - {name: plate, point: [0, 0, 1]}\n");
        let am = parse(&text).unwrap();
        let AddedMassSource::H5 { filename, loc } = &am.source else { panic!("{am:?}") };
        assert_eq!(filename, "rm3.h5");
        assert_eq!(loc.line, line_of(&text, "h5_filename"));
        assert_eq!(am.reference_points.len(), 1);
        assert_eq!(am.reference_points[0].name, "plate");
        assert_eq!(am.reference_points[0].point, [0.0, 0.0, 1.0]);
        assert_eq!(am.loc.line, line_of(&text, "added_mass:"));
    }

    #[test]
    fn spec_added_mass_inline_blocks_times_density() {
        let text = file(&format!(
            "    density: 1000\n    frame: BODY\n    blocks:\n{}{}",
            block("float", 12, None),
            block("plate", 12, None)
        ));
        let am = parse(&text).unwrap();
        let AddedMassSource::Inline(inline) = &am.source else { panic!("{am:?}") };
        assert_eq!(inline.density, 1000.0);
        assert_eq!(inline.frame, AddedMassFrame::Body);
        assert_eq!(inline.blocks.len(), 2);
        assert_eq!(inline.blocks[1].name, "plate");
        assert_eq!(inline.blocks[1].data.len(), 6);
        assert_eq!(inline.blocks[1].data[0].len(), 12);
        assert_eq!(inline.block_si(0).unwrap()[3][0], 1500.0);
        assert!(am.reference_points.is_empty());
        // The frame defaults to INERTIAL.
        let text = file(&format!("    density: 1025\n    blocks:\n{}", block("float", 6, None)));
        let AddedMassSource::Inline(inline) = parse(&text).unwrap().source else { panic!() };
        assert_eq!(inline.frame, AddedMassFrame::Inertial);
    }

    #[test]
    fn spec_added_mass_unknown_key_names_key_file_and_line() {
        let text = file("    h5_filename: rm3.h5\n    h5_filenam: other.h5\n");
        let e = parse(&text).unwrap_err();
        let line = line_of(&text, "h5_filenam:");
        assert!(
            e.contains(&format!(
                "p.yaml:{line}: error: unknown key `h5_filenam` in precice_adapter_config.added_mass; did you mean `h5_filename`?"
            )),
            "{e}"
        );
        let text = file(&format!("    density: 1000\n    blocks:\n{}        dat: 1\n", block("float", 6, None)));
        let e = parse(&text).unwrap_err();
        let line = line_of(&text, "dat: 1");
        assert!(e.contains(&format!("p.yaml:{line}: error: unknown key `dat` in added_mass.blocks[0]")), "{e}");
    }

    #[test]
    fn spec_added_mass_wrong_row_length_names_block_row_and_expected_length() {
        let text = file(&format!(
            "    density: 1000\n    blocks:\n{}{}",
            block("float", 12, None),
            block("plate", 12, Some(4))
        ));
        let e = parse(&text).unwrap_err();
        // The block's name line (the last `name: plate`; the first is in `bodies`), `data:`, then the rows.
        let plate =
            text.lines().collect::<Vec<_>>().iter().rposition(|l| l.contains("name: plate")).expect("block") + 1;
        let line = plate + 2 + 4;
        assert!(
            e.contains(&format!(
                "p.yaml:{line}: error: added_mass.blocks[1] (`plate`), row 4: 11 values, expected 12 (6 columns per body, 2 block(s) = 2 bodies)"
            )),
            "{e}"
        );
        let text = file("    density: 1000\n    blocks:\n      - name: float\n        data: [[1, 0, 0, 0, 0, 0]]\n");
        let e = parse(&text).unwrap_err();
        assert!(e.contains("added_mass.blocks[0] (`float`): `data` has 1 rows, expected 6"), "{e}");
    }

    #[test]
    fn spec_added_mass_sources_are_exclusive_and_complete() {
        let e = parse(&file(&format!("    h5_filename: a.h5\n    blocks:\n{}", block("float", 6, None)))).unwrap_err();
        assert!(e.contains("has both `h5_filename` and `blocks`"), "{e}");
        let e = parse(&file("    h5_filename: a.h5\n    density: 1000\n")).unwrap_err();
        assert!(e.contains("`density` in precice_adapter_config.added_mass applies to inline `blocks`"), "{e}");
        let e = parse(&file("    h5_filename: a.h5\n    frame: BODY\n")).unwrap_err();
        assert!(e.contains("always in inertial axes"), "{e}");
        assert!(parse(&file("    h5_filename: a.h5\n    frame: INERTIAL\n")).is_ok());
        let e = parse(&file("    reference_points: []\n")).unwrap_err();
        assert!(e.contains("gives no coefficients; give `h5_filename"), "{e}");
        let e = parse(&file(&format!("    blocks:\n{}", block("float", 6, None)))).unwrap_err();
        assert!(e.contains("missing required key `density` in precice_adapter_config.added_mass"), "{e}");
        let e = parse(&file(&format!("    density: -1\n    blocks:\n{}", block("float", 6, None)))).unwrap_err();
        assert!(e.contains("`density` must be a positive number"), "{e}");
        let e = parse(&file(&format!("    density: 1\n    frame: BODYY\n    blocks:\n{}", block("float", 6, None))))
            .unwrap_err();
        assert!(e.contains("invalid added_mass frame `BODYY`; did you mean `BODY`?"), "{e}");
        let text = file("    h5_filename: a.h5\n    reference_points:\n      - {name: float, point: [0, 0]}\n");
        assert!(parse(&text).unwrap_err().contains("`point` needs 3 coordinates"));
    }
}
