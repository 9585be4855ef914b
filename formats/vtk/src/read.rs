//! Reads back the `.vtu` files this crate writes (inline base64 or ASCII, one piece), so that
//! tests of a participant can check its output file rather than its internals.

use std::path::{Path, PathBuf};

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::{base64, DataArray, UnstructuredGrid, VtkError};

/// Reads the `.vtu` file at `path`.
pub fn read_vtu(path: &Path) -> Result<UnstructuredGrid, VtkError> {
    let text = std::fs::read_to_string(path).map_err(|source| VtkError::Io { path: path.into(), source })?;
    parse(&text, path)
}

/// Reads `.vtu` text.
pub fn read_vtu_str(text: &str) -> Result<UnstructuredGrid, VtkError> {
    parse(text, Path::new(""))
}

/// One `<DataArray>` being read: where it is and how it is stored.
struct Open {
    section: String,
    name: String,
    components: usize,
    kind: String,
    binary: bool,
    text: String,
}

fn parse(text: &str, path: &Path) -> Result<UnstructuredGrid, VtkError> {
    let fail = |why: String| VtkError::Parse { path: PathBuf::from(path), why };
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut grid = UnstructuredGrid::default();
    let mut stack: Vec<String> = Vec::new();
    let mut header64 = false;
    let mut counts: Option<(usize, usize)> = None;
    let mut open: Option<Open> = None;
    loop {
        match reader.read_event().map_err(|e| fail(format!("malformed XML: {e}")))? {
            Event::Start(e) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                match tag.as_str() {
                    "VTKFile" => {
                        if attr(&e, "type").as_deref() != Some("UnstructuredGrid") {
                            return Err(fail("the VTKFile type is not UnstructuredGrid".into()));
                        }
                        if attr(&e, "byte_order").as_deref() == Some("BigEndian") {
                            return Err(fail("big-endian data are not read".into()));
                        }
                        header64 = attr(&e, "header_type").as_deref() == Some("UInt64");
                    }
                    "Piece" => {
                        if counts.is_some() {
                            return Err(fail("more than one Piece".into()));
                        }
                        let number = |key: &str| {
                            attr(&e, key)
                                .and_then(|v| v.parse::<usize>().ok())
                                .ok_or_else(|| fail(format!("Piece without a valid {key}")))
                        };
                        counts = Some((number("NumberOfPoints")?, number("NumberOfCells")?));
                    }
                    "DataArray" => {
                        let format = attr(&e, "format").unwrap_or_default();
                        if format != "binary" && format != "ascii" {
                            return Err(fail(format!("DataArray format `{format}` (only binary and ascii are read)")));
                        }
                        open = Some(Open {
                            section: stack.last().cloned().unwrap_or_default(),
                            name: attr(&e, "Name").unwrap_or_default(),
                            components: attr(&e, "NumberOfComponents").and_then(|v| v.parse().ok()).unwrap_or(1),
                            kind: attr(&e, "type").unwrap_or_default(),
                            binary: format == "binary",
                            text: String::new(),
                        });
                    }
                    _ => {}
                }
                stack.push(tag);
            }
            Event::Text(t) => {
                if let Some(o) = open.as_mut() {
                    o.text.push_str(&t.unescape().map_err(|e| fail(format!("array text: {e}")))?);
                }
            }
            Event::End(_) => {
                let closed = stack.pop();
                if closed.as_deref() == Some("DataArray") {
                    let o = open.take().ok_or_else(|| fail("DataArray closed twice".into()))?;
                    store(&mut grid, o, header64).map_err(fail)?;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let (points, cells) = counts.ok_or_else(|| fail("no Piece".into()))?;
    if grid.points.len() != points || grid.types.len() != cells || grid.offsets.len() != cells {
        return Err(fail(format!(
            "Piece says {points} points and {cells} cells; the arrays hold {} points, {} types, {} offsets",
            grid.points.len(),
            grid.types.len(),
            grid.offsets.len()
        )));
    }
    Ok(grid)
}

fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key.as_bytes())
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

/// Decodes one array and puts it where its section says.
fn store(grid: &mut UnstructuredGrid, o: Open, header64: bool) -> Result<(), String> {
    let values = decode(&o, header64)?;
    let components = o.components.max(1);
    if !values.len().is_multiple_of(components) {
        return Err(format!("array `{}`: {} values for {components} components", o.name, values.len()));
    }
    match (o.section.as_str(), o.name.as_str()) {
        ("Points", _) => {
            if components != 3 {
                return Err("Points with other than 3 components".into());
            }
            grid.points = values.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
        }
        ("Cells", "connectivity") => grid.connectivity = values.iter().map(|&v| v as u64).collect(),
        ("Cells", "offsets") => grid.offsets = values.iter().map(|&v| v as u64).collect(),
        ("Cells", "types") => grid.types = values.iter().map(|&v| v as u8).collect(),
        ("PointData", name) => grid.point_data.push(DataArray { name: name.into(), components, values }),
        ("CellData", name) => grid.cell_data.push(DataArray { name: name.into(), components, values }),
        (section, name) => return Err(format!("array `{name}` in an unexpected place <{section}>")),
    }
    Ok(())
}

/// The numbers of an array, as f64 (every integer this crate writes fits exactly).
fn decode(o: &Open, header64: bool) -> Result<Vec<f64>, String> {
    let width = match o.kind.as_str() {
        "Float32" | "Int32" | "UInt32" => 4,
        "Float64" | "Int64" | "UInt64" => 8,
        "UInt8" | "Int8" => 1,
        other => return Err(format!("array `{}` of type `{other}` is not read", o.name)),
    };
    if !o.binary {
        // Float32 text is read as f32, as VTK does, so both encodings give the same numbers.
        let single = o.kind == "Float32";
        return o
            .text
            .split_ascii_whitespace()
            .map(|w| {
                let v = if single { w.parse::<f32>().map(f64::from) } else { w.parse::<f64>() };
                v.map_err(|_| format!("array `{}`: `{w}` is not a number", o.name))
            })
            .collect();
    }
    let raw = base64::decode(&o.text).ok_or_else(|| format!("array `{}`: invalid base64", o.name))?;
    let header = if header64 { 8 } else { 4 };
    if raw.len() < header {
        return Err(format!("array `{}`: no byte-count header", o.name));
    }
    let count = if header64 {
        u64::from_le_bytes(raw[..8].try_into().expect("8 bytes")) as usize
    } else {
        u32::from_le_bytes(raw[..4].try_into().expect("4 bytes")) as usize
    };
    let data = &raw[header..];
    if count != data.len() || !count.is_multiple_of(width) {
        return Err(format!("array `{}`: header says {count} bytes, {} follow", o.name, data.len()));
    }
    Ok(data
        .chunks(width)
        .map(|b| match (o.kind.as_str(), b.len()) {
            ("Float32", _) => f64::from(f32::from_le_bytes(b.try_into().expect("4"))),
            ("Int32", _) => f64::from(i32::from_le_bytes(b.try_into().expect("4"))),
            ("UInt32", _) => f64::from(u32::from_le_bytes(b.try_into().expect("4"))),
            ("Float64", _) => f64::from_le_bytes(b.try_into().expect("8")),
            ("Int64", _) => i64::from_le_bytes(b.try_into().expect("8")) as f64,
            ("UInt64", _) => u64::from_le_bytes(b.try_into().expect("8")) as f64,
            ("Int8", _) => f64::from(b[0] as i8),
            _ => f64::from(b[0]),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CellType, Encoding, FloatType, VtuOptions};

    /// Particles with a scalar and a vector, and a triangulated surface with a cell scalar.
    fn sample() -> UnstructuredGrid {
        let points = vec![[0.1, -2.5, 3.0], [1.0e-7, 4.25, -0.0], [7.0, 8.0, 9.5], [1.5, 1.5, 1.5]];
        let mut g = UnstructuredGrid::triangles(points, &[[0, 1, 2], [0, 2, 3]]).unwrap();
        g.add_polygon(&[0, 1, 2, 3]).unwrap();
        g.add_point_scalars("pressure", vec![1000.5, -3.0, 0.0, 2.0e5]).unwrap();
        g.add_point_vectors("velocity", &[[1.0, 2.0, 3.0], [0.0; 3], [-1.0, 0.5, 0.25], [9.0, 9.0, 9.0]]).unwrap();
        g.add_cell_scalars("body <id> & \"name\"", vec![0.0, 1.0, 2.0]).unwrap();
        g
    }

    #[test]
    fn float64_files_read_back_exactly_in_both_encodings() {
        for encoding in [Encoding::Base64, Encoding::Ascii] {
            let g = sample();
            let text = g.to_xml(&VtuOptions { encoding, float: FloatType::F64 });
            let back = read_vtu_str(&text).unwrap();
            assert_eq!(back, g, "{encoding:?}:\n{text}");
            assert_eq!(back.cell(2), Some((CellType::Polygon, vec![0, 1, 2, 3])));
        }
    }

    #[test]
    fn float32_files_hold_the_values_rounded_to_f32() {
        for encoding in [Encoding::Base64, Encoding::Ascii] {
            let g = sample();
            let back = read_vtu_str(&g.to_xml(&VtuOptions { encoding, float: FloatType::F32 })).unwrap();
            let p = back.point_array("pressure").unwrap();
            let expected: Vec<f64> = [1000.5f32, -3.0, 0.0, 2.0e5].iter().map(|&x| f64::from(x)).collect();
            assert_eq!(p.values, expected);
            assert_eq!(back.points()[1][0], f64::from(1.0e-7f32));
            assert_eq!(back.point_array("velocity").unwrap().components, 3);
        }
    }

    #[test]
    fn the_binary_layout_is_vtk_inline_base64_with_a_uint64_byte_count() {
        // One Float32 scalar 1.0: 8-byte count (4) then 00 00 80 3F, base64 of all 12 bytes.
        let mut g = UnstructuredGrid::new(vec![[0.0; 3]]);
        g.add_point_scalars("s", vec![1.0]).unwrap();
        let text = g.to_xml(&VtuOptions::default());
        assert!(text.contains("header_type=\"UInt64\""));
        assert!(text.contains("<DataArray type=\"Float32\" Name=\"s\" NumberOfComponents=\"1\" format=\"binary\">"));
        assert!(text.contains("BAAAAAAAAAAAAIA/"), "{text}");
    }

    #[test]
    fn points_without_cells_and_an_empty_grid_round_trip() {
        let mut g = UnstructuredGrid::new(vec![[1.0, 2.0, 3.0]; 5]);
        g.add_vertex_cells();
        let back = read_vtu_str(&g.to_xml(&VtuOptions::default())).unwrap();
        assert_eq!(back.cell_count(), 5);
        assert_eq!(back.cell(4), Some((CellType::Vertex, vec![4])));
        let empty = UnstructuredGrid::new(Vec::new());
        assert_eq!(read_vtu_str(&empty.to_xml(&VtuOptions::default())).unwrap(), empty);
    }

    #[test]
    fn damaged_files_are_refused_saying_why() {
        let text = sample().to_xml(&VtuOptions::default());
        let e = read_vtu_str(&text.replace("NumberOfPoints=\"4\"", "NumberOfPoints=\"5\"")).unwrap_err();
        assert!(e.to_string().contains("Piece says 5 points"), "{e}");
        let e = read_vtu_str(&text.replace("format=\"binary\"", "format=\"appended\"")).unwrap_err();
        assert!(e.to_string().contains("only binary and ascii"), "{e}");
        let e = read_vtu_str("<VTKFile type=\"PolyData\"></VTKFile>").unwrap_err();
        assert!(e.to_string().contains("not UnstructuredGrid"), "{e}");
        let e = read_vtu_str(&text.replace("</Piece>", "")).unwrap_err();
        assert!(e.to_string().contains("malformed XML"), "{e}");
    }
}
