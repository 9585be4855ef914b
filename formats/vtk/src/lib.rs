//! VTK XML output for ParaView: unstructured grids (`.vtu`) of points, optional cells (vertices,
//! lines, triangles, polygons, volume cells) with point and cell data, and the `.pvd` index that
//! turns a series of them into one time-dependent data set.
//!
//! Arrays are written inline as base64 binary by default (about 4/3 of the raw bytes, read by
//! every ParaView and VTK since 5.x) or as ASCII for files meant to be read by eye. [`read_vtu`]
//! reads back what [`UnstructuredGrid::write`] writes, so tests can check a participant's output.
//!
//! ```
//! use tidelink_vtk::{CellType, UnstructuredGrid, VtuOptions};
//! let mut grid = UnstructuredGrid::new(vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
//! grid.add_cells(CellType::Triangle, &[0, 1, 2]).unwrap();
//! grid.add_point_scalars("pressure", vec![1.0, 2.0, 3.0]).unwrap();
//! let text = grid.to_xml(&VtuOptions::default());
//! assert!(text.contains("<UnstructuredGrid>"));
//! ```
#![warn(missing_docs)]

mod base64;
mod error;
mod grid;
mod pvd;
mod read;
mod write;

pub use error::VtkError;
pub use grid::{CellType, DataArray, UnstructuredGrid};
pub use pvd::{PvdEntry, PvdIndex};
pub use read::{read_vtu, read_vtu_str};
pub use write::{Encoding, FloatType, VtuOptions};
