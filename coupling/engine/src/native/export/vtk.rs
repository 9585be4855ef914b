//! `<export:vtk>`: the legacy ASCII VTK format (`DATASET UNSTRUCTURED_GRID`), as libprecice
//! writes it: numbers in scientific notation with 17 decimals (round-trip exact), points padded
//! to three coordinates, cells (2D meshes: their edges only; 3D meshes: tetrahedra, triangles,
//! then edges), then point data: `Rank`, every datum with samples (vectors padded to three
//! components with `0`).

use super::Snapshot;
use crate::native::cxx_format::scientific;
use std::fmt::Write;

/// A number as libprecice's VTK stream writes it (`std::scientific`, 17 digits).
fn num(x: f64) -> String {
    scientific(x, 17)
}

/// The whole file for `s`.
pub(super) fn render(s: &Snapshot) -> String {
    let n = s.vertex_count();
    let mut out = String::from("# vtk DataFile Version 2.0\n\nASCII\n\nDATASET UNSTRUCTURED_GRID\n\n");
    let _ = write!(out, "POINTS {n} double \n\n");
    for v in 0..n {
        let x = s.vertex(v);
        let z = x.get(2).copied().unwrap_or(0.0);
        let _ = writeln!(out, "{}  {}  {}", num(x[0]), num(x[1]), num(z));
    }
    out.push('\n');
    let c = s.cells;
    // (VTK cell type, vertex ids) in libprecice's order.
    let cells: Vec<(u8, &[usize])> = if s.dim == 2 {
        c.edges.iter().map(|e| (3, &e[..])).collect()
    } else {
        let tets = c.tetrahedra.iter().map(|t| (10, &t[..]));
        let tris = c.triangles.iter().map(|t| (5, &t[..]));
        tets.chain(tris).chain(c.edges.iter().map(|e| (3, &e[..]))).collect()
    };
    let size: usize = cells.iter().map(|(_, ids)| ids.len() + 1).sum();
    let _ = write!(out, "CELLS {} {size}\n\n", cells.len());
    for (_, ids) in &cells {
        let _ = write!(out, "{} ", ids.len());
        ids.iter().for_each(|i| {
            let _ = write!(out, "{i} ");
        });
        out.push('\n');
    }
    let _ = write!(out, "\nCELL_TYPES {}\n\n", cells.len());
    cells.iter().for_each(|(t, _)| {
        let _ = writeln!(out, "{t}");
    });
    out.push('\n');
    let _ = write!(out, "POINT_DATA {n}\n\nSCALARS Rank unsigned_int\nLOOKUP_TABLE default\n");
    out.push_str(&"0 ".repeat(n));
    out.push_str("\n\n");
    for f in &s.fields {
        if f.components > 1 {
            let _ = writeln!(out, "VECTORS {} double", f.name);
            for v in f.values.chunks(f.components) {
                v.iter().for_each(|x| {
                    let _ = write!(out, "{} ", num(*x));
                });
                if v.len() < 3 {
                    out.push('0');
                }
                out.push('\n');
            }
        } else {
            let _ = write!(out, "SCALARS {} double\nLOOKUP_TABLE default\n", f.name);
            f.values.iter().for_each(|x| {
                let _ = writeln!(out, "{}", num(*x));
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

    // Expected files written by hand from libprecice's VTK exporter (header, POINTS, CELLS,
    // CELL_TYPES, POINT_DATA with Rank, then each datum), not produced by this code.
    #[test]
    fn a_2d_mesh_writes_its_edges_only_and_pads_vectors() {
        let expected = "# vtk DataFile Version 2.0\n\nASCII\n\nDATASET UNSTRUCTURED_GRID\n\n\
POINTS 3 double \n\n\
0.00000000000000000e+00  0.00000000000000000e+00  0.00000000000000000e+00\n\
1.00000000000000000e+00  0.00000000000000000e+00  0.00000000000000000e+00\n\
1.00000000000000000e+00  5.00000000000000000e-01  0.00000000000000000e+00\n\
\n\
CELLS 2 6\n\n\
2 0 1 \n\
2 1 2 \n\
\nCELL_TYPES 2\n\n\
3\n3\n\
\n\
POINT_DATA 3\n\n\
SCALARS Rank unsigned_int\nLOOKUP_TABLE default\n\
0 0 0 \n\n\
SCALARS T double\nLOOKUP_TABLE default\n\
1.00000000000000000e+00\n2.00000000000000000e+00\n-2.50000000000000000e-01\n\n\
VECTORS F double\n\
1.00000000000000000e+00 0.00000000000000000e+00 0\n\
0.00000000000000000e+00 1.00000000000000000e+00 0\n\
1.50000000000000000e+00 -1.00000000000000000e+00 0\n\n";
        assert_eq!(render(&flap().snapshot()), expected);
    }

    #[test]
    fn a_3d_mesh_writes_tetrahedra_then_triangles_then_edges() {
        let expected = "# vtk DataFile Version 2.0\n\nASCII\n\nDATASET UNSTRUCTURED_GRID\n\n\
POINTS 4 double \n\n\
0.00000000000000000e+00  0.00000000000000000e+00  0.00000000000000000e+00\n\
1.00000000000000000e+00  0.00000000000000000e+00  0.00000000000000000e+00\n\
0.00000000000000000e+00  1.00000000000000000e+00  0.00000000000000000e+00\n\
0.00000000000000000e+00  0.00000000000000000e+00  1.00000000000000000e+00\n\
\n\
CELLS 3 12\n\n\
4 0 1 2 3 \n\
3 0 1 2 \n\
2 0 3 \n\
\nCELL_TYPES 3\n\n\
10\n5\n3\n\
\n\
POINT_DATA 4\n\n\
SCALARS Rank unsigned_int\nLOOKUP_TABLE default\n\
0 0 0 0 \n\n\
VECTORS V double\n\
1.00000000000000000e+00 2.00000000000000000e+00 3.00000000000000000e+00 \n\
0.00000000000000000e+00 0.00000000000000000e+00 0.00000000000000000e+00 \n\
0.00000000000000000e+00 0.00000000000000000e+00 0.00000000000000000e+00 \n\
1.00000000000000006e-01 0.00000000000000000e+00 -1.00000000000000000e+00 \n\n";
        assert_eq!(render(&tetra().snapshot()), expected);
    }
}
