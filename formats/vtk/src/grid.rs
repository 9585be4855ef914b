//! The in-memory grid: points, cells and the arrays attached to them, checked as they are added
//! so that a written file is always consistent.

use crate::VtkError;

/// VTK cell types (the numbers are VTK's `vtkCellType` codes, which the file stores).
#[allow(missing_docs)] // the names are VTK's own
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellType {
    Vertex,
    Line,
    Triangle,
    Quad,
    Tetra,
    Hexahedron,
    Wedge,
    /// A polygon of any number (≥ 3) of points; one cell per [`UnstructuredGrid::add_polygon`].
    Polygon,
    /// A polyline of any number (≥ 2) of points; one cell per [`UnstructuredGrid::add_polyline`].
    PolyLine,
}

impl CellType {
    /// The VTK type code written in the `types` array.
    pub fn code(self) -> u8 {
        match self {
            CellType::Vertex => 1,
            CellType::PolyLine => 4,
            CellType::Line => 3,
            CellType::Triangle => 5,
            CellType::Polygon => 7,
            CellType::Quad => 9,
            CellType::Tetra => 10,
            CellType::Hexahedron => 12,
            CellType::Wedge => 13,
        }
    }

    /// The type of a VTK code, `None` for codes this crate does not write.
    pub fn from_code(code: u8) -> Option<Self> {
        [
            CellType::Vertex,
            CellType::PolyLine,
            CellType::Line,
            CellType::Triangle,
            CellType::Polygon,
            CellType::Quad,
            CellType::Tetra,
            CellType::Hexahedron,
            CellType::Wedge,
        ]
        .into_iter()
        .find(|t| t.code() == code)
    }

    /// Points per cell for fixed-size types, `None` for polygons and polylines.
    pub fn fixed_size(self) -> Option<usize> {
        match self {
            CellType::Vertex => Some(1),
            CellType::Line => Some(2),
            CellType::Triangle => Some(3),
            CellType::Quad | CellType::Tetra => Some(4),
            CellType::Wedge => Some(6),
            CellType::Hexahedron => Some(8),
            CellType::Polygon | CellType::PolyLine => None,
        }
    }
}

/// A named array of `components` values per point (or per cell), stored flat, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct DataArray {
    /// The name ParaView shows.
    pub name: String,
    /// 1 for a scalar, 3 for a vector.
    pub components: usize,
    /// `components` values per entry, entry after entry.
    pub values: Vec<f64>,
}

/// A VTK unstructured grid: points, cells (connectivity, offsets, types) and data arrays.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnstructuredGrid {
    pub(crate) points: Vec<[f64; 3]>,
    pub(crate) connectivity: Vec<u64>,
    pub(crate) offsets: Vec<u64>,
    pub(crate) types: Vec<u8>,
    pub(crate) point_data: Vec<DataArray>,
    pub(crate) cell_data: Vec<DataArray>,
}

impl UnstructuredGrid {
    /// A grid of these points and no cells yet (ParaView shows cell-less points with the
    /// "Point Gaussian" representation; [`Self::add_vertex_cells`] makes them plain visible).
    pub fn new(points: Vec<[f64; 3]>) -> Self {
        Self { points, ..Self::default() }
    }

    /// A triangulated surface: `triangles` index into `points` (a body's shape for ParaView).
    pub fn triangles(points: Vec<[f64; 3]>, triangles: &[[usize; 3]]) -> Result<Self, VtkError> {
        let mut grid = Self::new(points);
        let flat: Vec<usize> = triangles.iter().flatten().copied().collect();
        grid.add_cells(CellType::Triangle, &flat)?;
        Ok(grid)
    }

    /// The points.
    pub fn points(&self) -> &[[f64; 3]] {
        &self.points
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.types.len()
    }

    /// The point indices of cell `k` (`None` past the last cell).
    pub fn cell(&self, k: usize) -> Option<(CellType, Vec<usize>)> {
        let end = *self.offsets.get(k)? as usize;
        let start = if k == 0 { 0 } else { self.offsets[k - 1] as usize };
        let cell_type = CellType::from_code(self.types[k])?;
        Some((cell_type, self.connectivity[start..end].iter().map(|&p| p as usize).collect()))
    }

    /// The point-data array named `name`.
    pub fn point_array(&self, name: &str) -> Option<&DataArray> {
        self.point_data.iter().find(|a| a.name == name)
    }

    /// The cell-data array named `name`.
    pub fn cell_array(&self, name: &str) -> Option<&DataArray> {
        self.cell_data.iter().find(|a| a.name == name)
    }

    /// All point-data arrays, in the order they were added.
    pub fn point_arrays(&self) -> &[DataArray] {
        &self.point_data
    }

    /// All cell-data arrays, in the order they were added.
    pub fn cell_arrays(&self) -> &[DataArray] {
        &self.cell_data
    }

    /// One vertex cell per point, so that every representation draws the points.
    pub fn add_vertex_cells(&mut self) {
        let n = self.points.len() as u64;
        let start = self.connectivity.len() as u64;
        self.connectivity.extend(0..n);
        self.offsets.extend((1..=n).map(|k| start + k));
        self.types.extend(std::iter::repeat_n(CellType::Vertex.code(), n as usize));
    }

    /// Cells of a fixed-size type from their point indices, cell after cell.
    pub fn add_cells(&mut self, cell_type: CellType, connectivity: &[usize]) -> Result<(), VtkError> {
        let Some(size) = cell_type.fixed_size() else {
            return Err(VtkError::Connectivity {
                cell_type,
                len: connectivity.len(),
                why: "polygons and polylines have no fixed size: add them one by one".into(),
            });
        };
        if !connectivity.len().is_multiple_of(size) {
            return Err(VtkError::Connectivity {
                cell_type,
                len: connectivity.len(),
                why: format!("not a multiple of {size}"),
            });
        }
        // All indices checked first: a refused call leaves the grid as it was.
        let n = self.points.len();
        if let Some(k) = connectivity.iter().position(|&p| p >= n) {
            let cell = self.types.len() + k / size;
            return Err(VtkError::PointIndex { cell, point: connectivity[k], points: n });
        }
        for cell in connectivity.chunks(size) {
            self.push_cell(cell_type, cell)?;
        }
        Ok(())
    }

    /// One polygon (≥ 3 points, in order around it).
    pub fn add_polygon(&mut self, points: &[usize]) -> Result<(), VtkError> {
        self.push_variable(CellType::Polygon, points, 3)
    }

    /// One polyline (≥ 2 points).
    pub fn add_polyline(&mut self, points: &[usize]) -> Result<(), VtkError> {
        self.push_variable(CellType::PolyLine, points, 2)
    }

    fn push_variable(&mut self, cell_type: CellType, points: &[usize], min: usize) -> Result<(), VtkError> {
        if points.len() < min {
            return Err(VtkError::Connectivity {
                cell_type,
                len: points.len(),
                why: format!("needs at least {min} points"),
            });
        }
        self.push_cell(cell_type, points)
    }

    fn push_cell(&mut self, cell_type: CellType, cell: &[usize]) -> Result<(), VtkError> {
        let n = self.points.len();
        if let Some(&point) = cell.iter().find(|&&p| p >= n) {
            return Err(VtkError::PointIndex { cell: self.types.len(), point, points: n });
        }
        self.connectivity.extend(cell.iter().map(|&p| p as u64));
        self.offsets.push(self.connectivity.len() as u64);
        self.types.push(cell_type.code());
        Ok(())
    }

    /// A scalar per point.
    pub fn add_point_scalars(&mut self, name: &str, values: Vec<f64>) -> Result<(), VtkError> {
        let expected = self.points.len();
        push_array(&mut self.point_data, "point data", name, 1, values, expected, "one per point")
    }

    /// A 3-vector per point (velocity, force).
    pub fn add_point_vectors(&mut self, name: &str, values: &[[f64; 3]]) -> Result<(), VtkError> {
        let expected = self.points.len() * 3;
        let flat = values.iter().flatten().copied().collect();
        push_array(&mut self.point_data, "point data", name, 3, flat, expected, "three per point")
    }

    /// A scalar per cell (e.g. which body a triangle belongs to).
    pub fn add_cell_scalars(&mut self, name: &str, values: Vec<f64>) -> Result<(), VtkError> {
        let expected = self.cell_count();
        push_array(&mut self.cell_data, "cell data", name, 1, values, expected, "one per cell")
    }

    /// A 3-vector per cell.
    pub fn add_cell_vectors(&mut self, name: &str, values: &[[f64; 3]]) -> Result<(), VtkError> {
        let expected = self.cell_count() * 3;
        let flat = values.iter().flatten().copied().collect();
        push_array(&mut self.cell_data, "cell data", name, 3, flat, expected, "three per cell")
    }
}

fn push_array(
    arrays: &mut Vec<DataArray>,
    section: &'static str,
    name: &str,
    components: usize,
    values: Vec<f64>,
    expected: usize,
    what: &str,
) -> Result<(), VtkError> {
    if values.len() != expected {
        return Err(VtkError::Length { name: name.into(), got: values.len(), expected, what: what.into() });
    }
    if arrays.iter().any(|a| a.name == name) {
        return Err(VtkError::DuplicateName { section, name: name.into() });
    }
    arrays.push(DataArray { name: name.into(), components, values });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> UnstructuredGrid {
        UnstructuredGrid::new(vec![[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]])
    }

    #[test]
    fn offsets_count_points_to_each_cells_end() {
        let mut g = square();
        g.add_cells(CellType::Triangle, &[0, 1, 2, 0, 2, 3]).unwrap();
        g.add_polygon(&[0, 1, 2, 3]).unwrap();
        g.add_vertex_cells();
        assert_eq!(g.offsets, vec![3, 6, 10, 11, 12, 13, 14]);
        assert_eq!(g.types, vec![5, 5, 7, 1, 1, 1, 1]);
        assert_eq!(g.connectivity.len(), 14);
    }

    #[test]
    fn inconsistent_input_is_refused_with_what_is_wrong() {
        let mut g = square();
        let e = g.add_cells(CellType::Triangle, &[0, 1]).unwrap_err();
        assert!(e.to_string().contains("not a multiple of 3"), "{e}");
        let e = g.add_cells(CellType::Triangle, &[0, 1, 4]).unwrap_err();
        assert!(e.to_string().contains("refers to point 4, but the grid has 4 points"), "{e}");
        let e = g.add_polygon(&[0, 1]).unwrap_err();
        assert!(e.to_string().contains("at least 3"), "{e}");
        let e = g.add_point_scalars("p", vec![1.0; 3]).unwrap_err();
        assert!(e.to_string().contains("`p` has 3 values, expected 4"), "{e}");
        g.add_point_scalars("p", vec![1.0; 4]).unwrap();
        let e = g.add_point_scalars("p", vec![1.0; 4]).unwrap_err();
        assert!(matches!(e, VtkError::DuplicateName { .. }), "{e}");
        let e = g.add_cell_scalars("c", vec![1.0]).unwrap_err();
        assert!(e.to_string().contains("expected 0"), "{e}");
        // Nothing of the refused calls was kept.
        assert_eq!(g.cell_count(), 0);
        assert!(g.connectivity.is_empty());
    }

    #[test]
    fn every_code_maps_back_to_its_type() {
        for code in 0..=20u8 {
            if let Some(t) = CellType::from_code(code) {
                assert_eq!(t.code(), code);
            }
        }
        assert_eq!(CellType::from_code(5), Some(CellType::Triangle));
        assert_eq!(CellType::from_code(2), None);
    }
}
