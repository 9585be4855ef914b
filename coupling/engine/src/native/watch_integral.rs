//! `<watch-integral>`: the integral of every datum of a provided mesh followed through the run,
//! a row per completed window (and one at `initialize`) in
//! `precice-<participant>-watchintegral-<name>.log`, in libprecice's table format.
//!
//! The columns are libprecice's: `Time`, then every datum of the mesh in `use-data` order (a
//! vector datum one column per component), then `SurfaceArea` when the mesh has elements. A
//! datum's value is the plain sum over the vertices, or, with `scale-with-connectivity="true"`
//! on a mesh with elements, its integral over the surface: the trapezoidal rule over the edges of
//! a 2D mesh, a third of each triangle's area per corner on a 3D mesh. `SurfaceArea` is the total
//! length of the edges (2D) or area of the triangles (3D). The mesh keeps elements only where a
//! mapping needs them, as libprecice does, so without such a mapping the sum is what both write.

use super::data::{DataKey, DataStore, MeshState};
use super::txt_table::{data_columns, TxtTable};
use crate::{CouplingError, Result};
use nalgebra::Vector3;
use std::path::Path;
use tidelink_precice_config::{PreciceConfig, WatchIntegralDecl};

/// One watch-integral's file and what it sums.
pub(crate) struct WatchIntegral {
    table: TxtTable,
    mesh: String,
    /// Integrate over the elements (scaling asked for and the mesh has elements).
    scaled: bool,
    /// Write the `SurfaceArea` column (the mesh has elements).
    area_column: bool,
    /// Every datum of the mesh, with its components.
    columns: Vec<(DataKey, usize)>,
}

impl WatchIntegral {
    /// Creates the file of `w` in `dir` and writes its header; the mesh (provided, known to
    /// `store`) is complete by now, so whether it has elements is known.
    pub fn open(
        w: &WatchIntegralDecl,
        participant: &str,
        cfg: &PreciceConfig,
        store: &DataStore,
        dir: &Path,
    ) -> Result<Self> {
        let mesh = store.meshes.get(&w.mesh).ok_or_else(|| {
            CouplingError::config(format!("{}: watch-integral \"{}\": unknown mesh \"{}\"", w.loc, w.name, w.mesh))
        })?;
        let has_elements = !mesh.connectivity.is_empty();
        if w.scale_with_connectivity && !has_elements {
            log::warn!(
                "Watch-integral \"{}\" is configured with scaling option on; however, mesh \"{}\" does not contain \
                 connectivity information. Therefore, the integral will be calculated without scaling.",
                w.name,
                w.mesh
            );
        }
        let uses = cfg.mesh(&w.mesh).map(|m| m.use_data.clone()).unwrap_or_default();
        let columns: Vec<(DataKey, usize)> =
            uses.iter().map(|u| (DataKey::new(&w.mesh, u), cfg.data_dimensions(&w.mesh, u).unwrap_or(1))).collect();
        let mut header = vec!["Time".to_string()];
        for (key, c) in &columns {
            header.extend(data_columns(&key.data, *c));
        }
        if has_elements {
            header.push("SurfaceArea".into());
        }
        let path = dir.join(format!("precice-{participant}-watchintegral-{}.log", w.name));
        let table = TxtTable::create(path, "watch-integral", &header)?;
        Ok(WatchIntegral {
            table,
            mesh: w.mesh.clone(),
            scaled: w.scale_with_connectivity && has_elements,
            area_column: has_elements,
            columns,
        })
    }

    /// Appends the row of time `t`: each datum's waveform sampled at `t`, integrated; zeros for
    /// a datum without samples (libprecice's zero-initialised values).
    pub fn row(&mut self, t: f64, store: &DataStore) -> Result<()> {
        let mesh = &store.meshes[&self.mesh];
        let mut values = vec![t];
        for (key, c) in &self.columns {
            let sample = store.data.get(key).and_then(|d| d.waveform.sample(t));
            match sample {
                Some(v) if v.len() == mesh.vertex_count() * c => values.extend(integral(mesh, &v, *c, self.scaled)),
                _ => values.extend(std::iter::repeat_n(0.0, *c)),
            }
        }
        if self.area_column {
            values.push(surface_area(mesh));
        }
        self.table.row(&values)
    }
}

/// The integral of `values` (`components` per vertex) over `mesh`: the plain vertex sum, or with
/// `scaled` the trapezoidal rule over edges (2D) or triangles (3D).
fn integral(mesh: &MeshState, values: &[f64], components: usize, scaled: bool) -> Vec<f64> {
    let mut sum = vec![0.0; components];
    let mut add = |vertex: usize, weight: f64| {
        for (k, s) in sum.iter_mut().enumerate() {
            *s += weight * values[vertex * components + k];
        }
    };
    if !scaled {
        (0..mesh.vertex_count()).for_each(|v| add(v, 1.0));
    } else if mesh.dim == 2 {
        for &[a, b] in &mesh.connectivity.edges {
            let half = 0.5 * length(mesh, a, b);
            add(a, half);
            add(b, half);
        }
    } else {
        for &[a, b, c] in &mesh.connectivity.triangles {
            let third = area(mesh, a, b, c) / 3.0;
            [a, b, c].into_iter().for_each(|v| add(v, third));
        }
    }
    sum
}

/// Total edge length (2D) or triangle area (3D) of `mesh`.
fn surface_area(mesh: &MeshState) -> f64 {
    let cells = &mesh.connectivity;
    match mesh.dim {
        2 => cells.edges.iter().map(|&[a, b]| length(mesh, a, b)).sum(),
        _ => cells.triangles.iter().map(|&[a, b, c]| area(mesh, a, b, c)).sum(),
    }
}

/// A vertex as a 3-vector (z = 0 on 2D meshes).
fn point(mesh: &MeshState, v: usize) -> Vector3<f64> {
    let x = mesh.vertex(v);
    Vector3::new(x[0], x[1], x.get(2).copied().unwrap_or(0.0))
}

fn length(mesh: &MeshState, a: usize, b: usize) -> f64 {
    (point(mesh, b) - point(mesh, a)).norm()
}

fn area(mesh: &MeshState, a: usize, b: usize, c: usize) -> f64 {
    let (pa, pb, pc) = (point(mesh, a), point(mesh, b), point(mesh, c));
    0.5 * (pb - pa).cross(&(pc - pa)).norm()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::native::mesh::Connectivity;

    /// The unit square in 3D, split into two triangles, with its four boundary edges.
    fn square() -> MeshState {
        let mut m = MeshState::new(3, true);
        m.coords = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0];
        m.connectivity = Connectivity {
            edges: vec![[0, 1], [1, 2], [2, 3], [3, 0]],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
            tetrahedra: vec![],
        };
        m
    }

    #[test]
    fn unscaled_integrals_are_vertex_sums() {
        let m = square();
        // Vector data, two components: sums (1+2+3+4, 0+0+0+-1).
        let v = [1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 4.0, -1.0];
        assert_eq!(integral(&m, &v, 2, false), vec![10.0, -1.0]);
    }

    #[test]
    fn scaled_integrals_are_exact_for_linear_fields_and_areas_add_up() {
        let m = square();
        // f = 1 + x + 2y over the unit square: ∫ = 1 + 1/2 + 1 = 2.5, exact for the linear
        // element rule up to round-off (a few ulps of sums of O(1) terms: 1e-14).
        let f: Vec<f64> = (0..4).map(|i| 1.0 + m.vertex(i)[0] + 2.0 * m.vertex(i)[1]).collect();
        let got = integral(&m, &f, 1, true)[0];
        assert!((got - 2.5).abs() < 1e-14, "{got}");
        assert!((surface_area(&m) - 1.0).abs() < 1e-14);
    }

    #[test]
    fn two_dimensional_meshes_integrate_over_their_edges() {
        // A polyline (0,0)-(3,0)-(3,4): lengths 3 and 4. f = y: ∫ = 0·3 + (0+4)/2·4 = 8.
        let mut m = MeshState::new(2, true);
        m.coords = vec![0.0, 0.0, 3.0, 0.0, 3.0, 4.0];
        m.connectivity.edges = vec![[0, 1], [1, 2]];
        let f = [0.0, 0.0, 4.0];
        assert_eq!(integral(&m, &f, 1, true), vec![8.0]);
        assert_eq!(surface_area(&m), 7.0);
    }
}
