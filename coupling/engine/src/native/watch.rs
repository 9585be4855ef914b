//! `<watch-point>`: one point of a mesh followed through the run, a row per completed window in
//! `precice-<participant>-watchpoint-<name>.log` (docs/design/coupling-semantics.md §13).
//!
//! The point is placed once, at `initialize`, with the elements the mesh has, as libprecice
//! does: inside the enclosing cell (triangle in 2D, tetrahedron in 3D), else projected onto the
//! nearest triangle or edge, else at the nearest vertex; its values are then the element's
//! linear interpolation with those fixed weights. A mesh without elements gives the nearest
//! vertex. The columns are libprecice's: `Time`, the coordinates of the point used (the
//! projected point), then every datum of the mesh in `use-data` order (vector data one column
//! per component), in its table format; each row is flushed, so the file is complete whenever
//! the run stops.

use super::data::{DataKey, DataStore};
use super::mapping::geometry;
use super::mapping::index::{MeshIndex, Polation};
use super::mesh::MeshState;
use super::txt_table::{data_columns, TxtTable};
use crate::{CouplingError, Result};
use std::path::Path;
use tidelink_precice_config::{PreciceConfig, WatchPointDecl};

/// One watch-point's file and where its values come from.
pub(crate) struct WatchPoint {
    table: TxtTable,
    /// The vertices interpolated with their weights, and the coordinates of the point used.
    weights: Vec<(usize, f64)>,
    coords: Vec<f64>,
    /// Every datum of the mesh, with its components.
    columns: Vec<(DataKey, usize)>,
}

/// Places `coordinate` on `mesh` (named `name`): the interpolation weights of its vertices and
/// the point they give (enclosing cell, else nearest projection, else nearest vertex).
fn place(mesh: &MeshState, name: &str, coordinate: &[f64]) -> Result<(Polation, Vec<f64>)> {
    let index = MeshIndex::new(mesh, name)?;
    let polation = index
        .cell_or_projection(&geometry::point(coordinate))
        .ok_or_else(|| CouplingError::misuse(format!("mesh \"{name}\" has no vertices to place a watch-point on")))?;
    let vertices: Vec<_> = polation.weights.iter().map(|&(v, _)| geometry::point(mesh.vertex(v))).collect();
    let w: Vec<f64> = polation.weights.iter().map(|&(_, w)| w).collect();
    let at = geometry::combine(&vertices, &w);
    Ok((polation, at.as_slice()[..mesh.dim].to_vec()))
}

/// The `c` components at the watched point of one sample `all` of a datum; `None` when the
/// sample does not cover the vertices interpolated.
fn interpolate(weights: &[(usize, f64)], all: &[f64], c: usize) -> Option<Vec<f64>> {
    let mut value = vec![0.0; c];
    for &(v, w) in weights {
        let at = all.get(v * c..(v + 1) * c)?;
        value.iter_mut().zip(at).for_each(|(x, a)| *x += w * a);
    }
    Some(value)
}

impl WatchPoint {
    /// Places `w` on its mesh (known to `store`, with its vertices and elements) as libprecice
    /// does, creates the file in `dir` and writes the header.
    pub fn open(
        w: &WatchPointDecl,
        participant: &str,
        cfg: &PreciceConfig,
        store: &DataStore,
        dir: &Path,
    ) -> Result<Self> {
        let mesh = store.meshes.get(&w.mesh).ok_or_else(|| {
            CouplingError::config(format!("{}: watch-point \"{}\": unknown mesh \"{}\"", w.loc, w.name, w.mesh))
        })?;
        let d = mesh.dim;
        if mesh.vertex_count() == 0 {
            return Err(CouplingError::misuse(format!(
                "{}: watch-point \"{}\" is on mesh \"{}\", which has no vertices",
                w.loc, w.name, w.mesh
            )));
        }
        let (polation, coords) = place(mesh, &w.mesh, &w.coordinate)?;
        let weights = polation.weights;
        let uses = cfg.mesh(&w.mesh).map(|m| m.use_data.clone()).unwrap_or_default();
        let columns: Vec<(DataKey, usize)> =
            uses.iter().map(|u| (DataKey::new(&w.mesh, u), cfg.data_dimensions(&w.mesh, u).unwrap_or(1))).collect();
        let path = dir.join(format!("precice-{participant}-watchpoint-{}.log", w.name));
        let mut header = vec!["Time".to_string()];
        header.extend((0..d).map(|k| format!("Coordinate{k}")));
        for (key, c) in &columns {
            header.extend(data_columns(&key.data, *c));
        }
        let table = TxtTable::create(path, "watch-point", &header)?;
        Ok(WatchPoint { table, weights, coords, columns })
    }

    /// Appends the row of time `t`: each datum's waveform sampled at `t`, interpolated, zeros
    /// for a datum without samples (as libprecice's zero-initialised values).
    pub fn row(&mut self, t: f64, store: &DataStore) -> Result<()> {
        let mut values = vec![t];
        values.extend_from_slice(&self.coords);
        for (key, c) in &self.columns {
            let sampled = store.data.get(key).and_then(|d| d.waveform.sample(t));
            match sampled.and_then(|all| interpolate(&self.weights, &all, *c)) {
                Some(value) => values.extend(value),
                None => values.extend(std::iter::repeat_n(0.0, *c)),
            }
        }
        self.table.row(&values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::native::mesh::Connectivity;

    #[test]
    fn a_watch_point_on_a_triangle_mesh_interpolates_a_linear_field_exactly() {
        // A bent 3D surface of two triangles; the point above the second one is projected onto
        // it, and a linear field takes there its value at the projected point (round-off of a
        // few O(1) products: 1e-14).
        let mut m = MeshState::new(3, true);
        m.coords = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.5, 0.0, 1.0, 1.0];
        m.connectivity = Connectivity { triangles: vec![[0, 1, 2], [0, 2, 3]], ..Default::default() };
        let (Polation { weights, .. }, at) = place(&m, "Surface", &[0.25, 0.75, 0.9]).unwrap();
        assert_eq!(weights.len(), 3);
        let f = |p: &[f64]| [1.0 + 2.0 * p[0] - p[1] + 3.0 * p[2], p[0]];
        let all: Vec<f64> = (0..4).flat_map(|i| f(m.vertex(i))).collect();
        let value = interpolate(&weights, &all, 2).unwrap();
        let expected = f(&at);
        assert!((value[0] - expected[0]).abs() < 1e-14 && (value[1] - expected[1]).abs() < 1e-14);
        // The projected point lies on the plane z = y - x / 2 of the second triangle, along its
        // normal (0.5, -1, 1) from the watched point.
        assert!((at[2] - (at[1] - at[0] / 2.0)).abs() < 1e-15, "{at:?}");
        let t = (0.25 - at[0]) / 0.5;
        assert!((0.75 - at[1] + t).abs() < 1e-15 && (0.9 - at[2] - t).abs() < 1e-15, "{at:?}");
        // Without elements: the nearest vertex, weight one.
        m.connectivity = Connectivity::default();
        let (Polation { weights, .. }, at) = place(&m, "Surface", &[0.9, 0.1, 0.0]).unwrap();
        assert_eq!((weights, at), (vec![(1, 1.0)], vec![1.0, 0.0, 0.0]));
        // A sample too short for the vertices interpolated gives no value.
        assert_eq!(interpolate(&[(3, 1.0)], &[1.0, 2.0], 1), None);
    }

    #[test]
    fn a_2d_watch_point_inside_a_triangle_keeps_its_coordinates() {
        let mut m = MeshState::new(2, true);
        m.coords = vec![0.0, 0.0, 2.0, 0.0, 0.0, 2.0];
        m.connectivity = Connectivity { triangles: vec![[0, 1, 2]], ..Default::default() };
        let (Polation { weights, .. }, at) = place(&m, "M", &[0.5, 0.5]).unwrap();
        assert_eq!(at, vec![0.5, 0.5]);
        assert_eq!(interpolate(&weights, &[0.0, 2.0, 4.0], 1).unwrap(), vec![1.5]);
    }
}
