//! `<watch-point>`: one point of a mesh followed through the run, a row per completed window in
//! `precice-<participant>-watchpoint-<name>.log` (docs/design/coupling-semantics.md §13).
//!
//! libprecice places the point on the mesh's stored elements when it has them and falls back to
//! the nearest vertex; it stores elements only where a mapping needs them (§2.13), and none of
//! the native engine's does, so the nearest vertex is what libprecice does for every
//! configuration this engine runs. The columns are libprecice's: `Time`, the coordinates of the
//! point used, then every datum of the mesh in `use-data` order (vector data one column per
//! component), in its table format; each row is flushed, so the file is complete whenever the
//! run stops.

use super::data::{DataKey, DataStore};
use super::txt_table::{data_columns, TxtTable};
use crate::{CouplingError, Result};
use std::path::Path;
use tidelink_precice_config::{PreciceConfig, WatchPointDecl};

/// One watch-point's file and where its values come from.
pub(crate) struct WatchPoint {
    table: TxtTable,
    /// The vertex followed and its coordinates.
    vertex: usize,
    coords: Vec<f64>,
    /// Every datum of the mesh, with its components.
    columns: Vec<(DataKey, usize)>,
}

impl WatchPoint {
    /// Places `w` on its mesh (known to `store`, with its vertices) at the vertex nearest the
    /// configured coordinate, creates the file in `dir` and writes the header.
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
        let n = mesh.vertex_count();
        if n == 0 {
            return Err(CouplingError::misuse(format!(
                "{}: watch-point \"{}\" is on mesh \"{}\", which has no vertices",
                w.loc, w.name, w.mesh
            )));
        }
        let distance = |i: usize| -> f64 {
            (0..d).map(|k| (mesh.coords[i * d + k] - w.coordinate.get(k).copied().unwrap_or(0.0)).powi(2)).sum()
        };
        let vertex = (0..n).fold(0, |best, i| if distance(i) < distance(best) { i } else { best });
        let coords = mesh.coords[vertex * d..(vertex + 1) * d].to_vec();
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
        Ok(WatchPoint { table, vertex, coords, columns })
    }

    /// Appends the row of time `t`: each datum's waveform sampled at `t` at the vertex, zeros
    /// for a datum without samples (as libprecice's zero-initialised values).
    pub fn row(&mut self, t: f64, store: &DataStore) -> Result<()> {
        let mut values = vec![t];
        values.extend_from_slice(&self.coords);
        for (key, c) in &self.columns {
            let sampled = store.data.get(key).and_then(|d| d.waveform.sample(t));
            match sampled {
                Some(all) if all.len() >= (self.vertex + 1) * c => {
                    values.extend_from_slice(&all[self.vertex * c..(self.vertex + 1) * c])
                }
                _ => values.extend(std::iter::repeat_n(0.0, *c)),
            }
        }
        self.table.row(&values)
    }
}
