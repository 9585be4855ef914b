//! `<export:csv>`: one row per vertex, `;`-separated, as libprecice writes it: the header
//! `PosX;PosY[;PosZ];Rank` then each datum with samples (a vector as `<name>X;<name>Y[;<name>Z]`),
//! numbers as a C++ stream writes them by default (six significant digits). No elements: a CSV
//! file holds the vertices and their data only.

use super::Snapshot;
use crate::native::cxx_format::general;
use std::fmt::Write;

/// The whole file for `s`.
pub(super) fn render(s: &Snapshot) -> String {
    let mut out = String::from(if s.dim == 3 { "PosX;PosY;PosZ;Rank" } else { "PosX;PosY;Rank" });
    for f in &s.fields {
        match f.components {
            1 => {
                let _ = write!(out, ";{}", f.name);
            }
            c => "XYZ".chars().take(c).for_each(|axis| {
                let _ = write!(out, ";{}{axis}", f.name);
            }),
        }
    }
    out.push('\n');
    for v in 0..s.vertex_count() {
        let coords: Vec<String> = s.vertex(v).iter().map(|x| general(*x)).collect();
        out.push_str(&coords.join(";"));
        out.push_str(";0");
        for f in &s.fields {
            f.values[v * f.components..(v + 1) * f.components].iter().for_each(|x| {
                let _ = write!(out, ";{}", general(*x));
            });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::{flap, tetra};
    use super::render;

    // Written by hand from libprecice's CSV exporter, not produced by this code.
    #[test]
    fn header_and_rows_are_libprecice_s() {
        let expected = "PosX;PosY;Rank;T;FX;FY\n0;0;0;1;1;0\n1;0;0;2;0;1\n1;0.5;0;-0.25;1.5;-1\n";
        assert_eq!(render(&flap().snapshot()), expected);
        let expected = "PosX;PosY;PosZ;Rank;VX;VY;VZ\n0;0;0;0;1;2;3\n1;0;0;0;0;0;0\n0;1;0;0;0;0;0\n0;0;1;0;0.1;0;-1\n";
        assert_eq!(render(&tetra().snapshot()), expected);
    }
}
