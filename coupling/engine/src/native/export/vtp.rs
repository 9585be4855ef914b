//! `<export:vtp>`: VTK XML poly data, as libprecice writes it: edges as `Lines`, triangles as
//! `Polys`; tetrahedra have no place in poly data and are left out, as libprecice does.

use super::xml::{self, int_array};
use super::Snapshot;

/// The whole file for `s`.
pub(super) fn render(s: &Snapshot) -> String {
    let c = s.cells;
    let attributes = format!(
        "NumberOfPoints=\"{}\" NumberOfLines=\"{}\" NumberOfPolys=\"{}\"",
        s.vertex_count(),
        c.edges.len(),
        c.triangles.len()
    );
    let mut cells = String::from("         <Lines>\n");
    int_array(&mut cells, "Int32", "connectivity", c.edges.iter().flatten().copied(), " ");
    int_array(&mut cells, "Int32", "offsets", (1..=c.edges.len()).map(|i| 2 * i), "");
    cells.push_str("         </Lines>\n         <Polys>\n");
    int_array(&mut cells, "Int32", "connectivity", c.triangles.iter().flatten().copied(), " ");
    int_array(&mut cells, "Int32", "offsets", (1..=c.triangles.len()).map(|i| 3 * i), "");
    cells.push_str("         </Polys>\n");
    xml::render("PolyData", &attributes, &cells, s)
}

#[cfg(test)]
mod tests {
    use super::super::tests::flap;
    use super::render;

    // Written by hand from libprecice's VTP exporter, not produced by this code.
    #[test]
    fn edges_are_lines_and_triangles_polys() {
        let expected = r#"<?xml version="1.0"?>
<VTKFile type="PolyData" version="0.1" byte_order="LittleEndian">
   <PolyData>
      <Piece NumberOfPoints="3" NumberOfLines="2" NumberOfPolys="1"> 
         <Points> 
            <DataArray type="Float64" Name="Position" NumberOfComponents="3" format="ascii"> 
               0  0  0  
               1  0  0  
               1  0.5  0  
            </DataArray>
         </Points> 

         <Lines>
            <DataArray type="Int32" Name="connectivity" NumberOfComponents="1" format="ascii">
               0  1  1  2  
            </DataArray> 
            <DataArray type="Int32" Name="offsets" NumberOfComponents="1" format="ascii">
               2  4  
            </DataArray>
         </Lines>
         <Polys>
            <DataArray type="Int32" Name="connectivity" NumberOfComponents="1" format="ascii">
               0  1  2  
            </DataArray> 
            <DataArray type="Int32" Name="offsets" NumberOfComponents="1" format="ascii">
               3  
            </DataArray>
         </Polys>
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
   </PolyData> 
</VTKFile>
"#;
        assert_eq!(render(&flap().snapshot()), expected);
    }
}
