//! `<export:vtu>`: a VTK XML unstructured grid, as libprecice writes it: every element is a
//! cell, triangles first (VTK type 5), then edges (3), then tetrahedra (10).

use super::xml::{self, int_array};
use super::Snapshot;

/// The whole file for `s`.
pub(super) fn render(s: &Snapshot) -> String {
    let c = s.cells;
    let (tris, edges, tets) = (c.triangles.len(), c.edges.len(), c.tetrahedra.len());
    let attributes = format!("NumberOfPoints=\"{}\" NumberOfCells=\"{}\" ", s.vertex_count(), tris + edges + tets);
    let mut cells = String::from("         <Cells>\n");
    let ids = c.triangles.iter().flatten().chain(c.edges.iter().flatten()).chain(c.tetrahedra.iter().flatten());
    int_array(&mut cells, "Int32", "connectivity", ids.copied(), " ");
    let offsets = (1..=tris)
        .map(|i| 3 * i)
        .chain((1..=edges).map(|i| 3 * tris + 2 * i))
        .chain((1..=tets).map(|i| 3 * tris + 2 * edges + 4 * i));
    int_array(&mut cells, "Int32", "offsets", offsets, "");
    let types = std::iter::repeat_n(5, tris).chain(std::iter::repeat_n(3, edges)).chain(std::iter::repeat_n(10, tets));
    int_array(&mut cells, "UInt8", "types", types, "");
    cells.push_str("         </Cells>\n");
    xml::render("UnstructuredGrid", &attributes, &cells, s)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{flap, tetra};
    use super::render;

    // Written by hand from libprecice's VTU exporter (its spacing, trailing blanks and the
    // six-digit numbers included), not produced by this code.
    #[test]
    fn a_2d_mesh_with_a_triangle_and_edges() {
        let expected = r#"<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">
   <UnstructuredGrid>
      <Piece NumberOfPoints="3" NumberOfCells="3" > 
         <Points> 
            <DataArray type="Float64" Name="Position" NumberOfComponents="3" format="ascii"> 
               0  0  0  
               1  0  0  
               1  0.5  0  
            </DataArray>
         </Points> 

         <Cells>
            <DataArray type="Int32" Name="connectivity" NumberOfComponents="1" format="ascii">
               0  1  2  0  1  1  2  
            </DataArray> 
            <DataArray type="Int32" Name="offsets" NumberOfComponents="1" format="ascii">
               3  5  7  
            </DataArray>
            <DataArray type="UInt8"  Name="types" NumberOfComponents="1" format="ascii">
               5  3  3  
            </DataArray>
         </Cells>
         <PointData Scalars="Rank T " Vectors="F ">
            <DataArray type="UInt32" Name="Rank" NumberOfComponents="1" format="ascii">
               0 0 0 
            </DataArray>
            <DataArray type="Float64" Name="T" NumberOfComponents="1" format="ascii">
               1 2 -0.25 
            </DataArray>
            <DataArray type="Float64" Name="F" NumberOfComponents="3" format="ascii">
               1 0 0.0  0 1 0.0  1.5 -1 0.0  
            </DataArray>
         </PointData> 
      </Piece>
   </UnstructuredGrid> 
</VTKFile>
"#;
        assert_eq!(render(&flap().snapshot()), expected);
    }

    #[test]
    fn a_3d_mesh_orders_triangles_edges_tetrahedra() {
        let expected = r#"<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">
   <UnstructuredGrid>
      <Piece NumberOfPoints="4" NumberOfCells="3" > 
         <Points> 
            <DataArray type="Float64" Name="Position" NumberOfComponents="3" format="ascii"> 
               0  0  0  
               1  0  0  
               0  1  0  
               0  0  1  
            </DataArray>
         </Points> 

         <Cells>
            <DataArray type="Int32" Name="connectivity" NumberOfComponents="1" format="ascii">
               0  1  2  0  3  0  1  2  3  
            </DataArray> 
            <DataArray type="Int32" Name="offsets" NumberOfComponents="1" format="ascii">
               3  5  9  
            </DataArray>
            <DataArray type="UInt8"  Name="types" NumberOfComponents="1" format="ascii">
               5  3  10  
            </DataArray>
         </Cells>
         <PointData Scalars="Rank " Vectors="V ">
            <DataArray type="UInt32" Name="Rank" NumberOfComponents="1" format="ascii">
               0 0 0 0 
            </DataArray>
            <DataArray type="Float64" Name="V" NumberOfComponents="3" format="ascii">
               1 2 3  0 0 0  0 0 0  0.1 0 -1  
            </DataArray>
         </PointData> 
      </Piece>
   </UnstructuredGrid> 
</VTKFile>
"#;
        assert_eq!(render(&tetra().snapshot()), expected);
    }
}
