//! What `<export:vtu>` and `<export:vtp>` share: libprecice's VTK XML file in ASCII, its points
//! (padded to three coordinates) and point data (`Rank`, then every datum with samples, 2D
//! vectors padded to three components), numbers as a C++ stream writes them by default (six
//! significant digits). The cells differ per format ([`super::vtu`], [`super::vtp`]).

use super::Snapshot;
use crate::native::cxx_format::general;
use std::fmt::Write;

/// The byte order VTK readers are told (ASCII data: informative only).
fn byte_order() -> &'static str {
    if cfg!(target_endian = "big") {
        "BigEndian"
    } else {
        "LittleEndian"
    }
}

/// The whole file of `kind` (`UnstructuredGrid`, `PolyData`) for `s`, with the `<Piece>`
/// attributes and the cell sections of the format.
pub(super) fn render(kind: &str, piece_attributes: &str, cells: &str, s: &Snapshot) -> String {
    let mut out = String::from("<?xml version=\"1.0\"?>\n");
    let _ = writeln!(out, "<VTKFile type=\"{kind}\" version=\"0.1\" byte_order=\"{}\">", byte_order());
    let _ = writeln!(out, "   <{kind}>");
    let _ = writeln!(out, "      <Piece {piece_attributes}> ");
    points(&mut out, s);
    out.push_str(cells);
    point_data(&mut out, s);
    out.push_str("      </Piece>\n");
    let _ = writeln!(out, "   </{kind}> ");
    out.push_str("</VTKFile>\n");
    out
}

fn points(out: &mut String, s: &Snapshot) {
    out.push_str("         <Points> \n");
    out.push_str(
        "            <DataArray type=\"Float64\" Name=\"Position\" NumberOfComponents=\"3\" format=\"ascii\"> \n",
    );
    for v in 0..s.vertex_count() {
        out.push_str("               ");
        s.vertex(v).iter().for_each(|x| {
            let _ = write!(out, "{}  ", general(*x));
        });
        if s.dim == 2 {
            out.push_str("0  ");
        }
        out.push('\n');
    }
    out.push_str("            </DataArray>\n");
    out.push_str("         </Points> \n\n");
}

/// One `Int32`/`UInt8` cell array: `indent`ed ids each followed by two spaces.
pub(super) fn int_array(out: &mut String, kind: &str, name: &str, values: impl Iterator<Item = usize>, tail: &str) {
    let pad = if kind == "UInt8" { "  " } else { " " };
    let _ = writeln!(
        out,
        "            <DataArray type=\"{kind}\"{pad}Name=\"{name}\" NumberOfComponents=\"1\" format=\"ascii\">"
    );
    out.push_str("               ");
    values.for_each(|v| {
        let _ = write!(out, "{v}  ");
    });
    out.push('\n');
    let _ = writeln!(out, "            </DataArray>{tail}");
}

fn point_data(out: &mut String, s: &Snapshot) {
    let scalars: String = s.fields.iter().filter(|f| f.components == 1).map(|f| format!("{} ", f.name)).collect();
    let vectors: String = s.fields.iter().filter(|f| f.components > 1).map(|f| format!("{} ", f.name)).collect();
    let _ = writeln!(out, "         <PointData Scalars=\"Rank {scalars}\" Vectors=\"{vectors}\">");
    out.push_str("            <DataArray type=\"UInt32\" Name=\"Rank\" NumberOfComponents=\"1\" format=\"ascii\">\n");
    out.push_str("               ");
    out.push_str(&"0 ".repeat(s.vertex_count()));
    out.push_str("\n            </DataArray>\n");
    for f in &s.fields {
        let components = if f.components == 2 { 3 } else { f.components };
        let _ = writeln!(
            out,
            "            <DataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"{components}\" format=\"ascii\">",
            f.name
        );
        out.push_str("               ");
        if f.components > 1 {
            for v in f.values.chunks(f.components) {
                v.iter().for_each(|x| {
                    let _ = write!(out, "{} ", general(*x));
                });
                if v.len() == 2 {
                    out.push_str("0.0 ");
                }
                out.push(' ');
            }
        } else {
            f.values.iter().for_each(|x| {
                let _ = write!(out, "{} ", general(*x));
            });
        }
        out.push_str("\n            </DataArray>\n");
    }
    out.push_str("         </PointData> \n");
}
