//! Dynamic added mass over the coupling interface (docs/design/added-mass.md §6).
//!
//! Each `SolidAddedMass...` mesh the Solid provides is a pseudo-mesh of `36·Nb` vertices:
//! vertex `k = 36·b + 6·r + c` sits at coordinates `(b, r, c)` (3D), `b` the coupling-body
//! index, `r, c` a row and column of that body's 6 × 6 self block. A fluid participant provides
//! a `FluidAddedMass...` mesh with the same vertices and writes on it; the Solid maps it onto
//! its own mesh and reads one scalar per vertex: the increment of that coefficient relative to
//! the baseline. Every window the applied self blocks are the baseline plus the sum of all
//! senders' increments (replacing the previous window's); body-to-body coupling blocks keep
//! their baseline values. The increments are in the axes and about the reference points of
//! the baseline.

use super::SetupError;
use nalgebra::DMatrix;
use tidelink_adapter_core::{AdapterError, AdapterResult, CouplingData, VertexId};
use tidelink_mbs_solver::added_mass::AddedMass;
use tidelink_mbs_solver::system::MultibodySystem;

/// Coefficients per body on an added-mass mesh (a 6 × 6 self block).
pub const PER_BODY: usize = 36;

/// One `SolidAddedMass...` mesh: the datum read on it (`None`: registered, never read).
#[derive(Debug, Clone)]
struct Channel {
    mesh: String,
    data: Option<String>,
    ids: Vec<VertexId>,
}

/// The added-mass meshes of the Solid and the baseline their increments are added to.
#[derive(Debug, Clone, Default)]
pub struct AddedMassExchange {
    channels: Vec<Channel>,
    /// The baseline (the coefficients set before the run), captured at registration.
    baseline: Option<AddedMass>,
    /// Hydrodynamic index of every coupling body, in coupling-body order.
    hydro: Vec<usize>,
}

impl AddedMassExchange {
    /// Adds mesh `mesh`, reading the increments in `data` (or only registering its vertices).
    pub fn add(&mut self, mesh: &str, data: Option<&str>) -> AdapterResult<()> {
        if self.channels.iter().any(|c| c.mesh == mesh) {
            return Err(AdapterError::config(format!("added-mass mesh `{mesh}` is given twice")));
        }
        self.channels.push(Channel { mesh: mesh.to_string(), data: data.map(str::to_string), ids: Vec::new() });
        Ok(())
    }

    /// Whether there is any mesh to register.
    pub fn is_empty(&self) -> bool {
        self.channels.is_empty()
    }

    /// The vertex coordinates `(b, r, c)` of `bodies` coupling bodies, flat (3 per vertex).
    pub fn coordinates(bodies: usize) -> Vec<f64> {
        let mut coords = Vec::with_capacity(3 * PER_BODY * bodies);
        for b in 0..bodies {
            for r in 0..6 {
                for c in 0..6 {
                    coords.extend_from_slice(&[b as f64, r as f64, c as f64]);
                }
            }
        }
        coords
    }

    /// Checks the meshes (3D, scalar data), registers their vertices and captures the
    /// baseline: the added mass of `system`, whose bodies must include every coupling body
    /// (`coupled`: their handles in coupling-body order).
    pub fn register(
        &mut self,
        coupling: &mut dyn CouplingData,
        system: &MultibodySystem,
        coupled: &[(String, tidelink_mbs_solver::dynamics::body_set::BodyHandle)],
    ) -> AdapterResult<()> {
        let Some(am) = system.added_mass.clone() else {
            return Err(AdapterError::config(
                "added-mass meshes are coupled but the system has no added mass to update; set a baseline (zero \
                 coefficients will do) before the run",
            ));
        };
        self.hydro.clear();
        for (name, h) in coupled {
            let i = am.hydro_index(*h).ok_or_else(|| {
                AdapterError::config(format!(
                    "coupling body `{name}` has no added mass, so the increments on the added-mass meshes cannot be \
                     applied to it; give every coupling body a block"
                ))
            })?;
            self.hydro.push(i);
        }
        let coords = Self::coordinates(coupled.len());
        for ch in &mut self.channels {
            let dims = coupling.get_mesh_dimensions(&ch.mesh)?;
            if dims != 3 {
                return Err(AdapterError::config(format!(
                    "added-mass mesh `{}` has {dims} dimensions; its vertices are (body, row, column) triples: declare \
                     it with dimensions=\"3\"",
                    ch.mesh
                )));
            }
            if let Some(data) = &ch.data {
                let n = coupling.get_data_dimensions(&ch.mesh, data)?;
                if n != 1 {
                    return Err(AdapterError::config(format!(
                        "data `{data}` on added-mass mesh `{}` has {n} components; added-mass increments are one \
                         value per coefficient: declare it <data:scalar name=\"{data}\"/>",
                        ch.mesh
                    )));
                }
            }
            ch.ids = vec![0; coords.len() / 3];
            coupling.set_mesh_vertices(&ch.mesh, &coords, &mut ch.ids)?;
        }
        self.baseline = Some(am);
        Ok(())
    }

    /// Reads every sender's increments at `relative_read_time` and applies baseline self
    /// blocks plus their sum to `system` (coupling blocks at baseline), then checks the result
    /// (`M + A` positive definite); `time` is for messages.
    pub fn read(
        &self,
        coupling: &mut dyn CouplingData,
        relative_read_time: f64,
        system: &mut MultibodySystem,
        time: f64,
    ) -> AdapterResult<()> {
        let Some(baseline) = &self.baseline else { return Ok(()) };
        let nb = self.hydro.len();
        let mut sum = vec![0.0; PER_BODY * nb];
        let mut any = false;
        for ch in &self.channels {
            let Some(data) = &ch.data else { continue };
            let mut values = vec![0.0; ch.ids.len()];
            coupling.read_data(&ch.mesh, data, &ch.ids, relative_read_time, &mut values)?;
            for (s, v) in sum.iter_mut().zip(&values) {
                *s += v;
            }
            any = true;
        }
        if !any {
            return Ok(());
        }
        let mut updates = Vec::with_capacity(nb);
        for (b, &i) in self.hydro.iter().enumerate() {
            let mut block: DMatrix<f64> = baseline.blocks()[i].clone();
            for r in 0..6 {
                for c in 0..6 {
                    block[(r, 6 * i + c)] += sum[PER_BODY * b + 6 * r + c];
                }
            }
            updates.push((baseline.bodies()[i], block));
        }
        system
            .update_added_mass(&updates)
            .map_err(|source| SetupError::Increments { time, senders: self.senders(), source }.into())
    }

    fn senders(&self) -> String {
        let list: Vec<String> =
            self.channels.iter().filter_map(|c| c.data.as_ref().map(|d| format!("`{d}` on `{}`", c.mesh))).collect();
        list.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertex_k_sits_at_body_row_column() {
        let coords = AddedMassExchange::coordinates(2);
        assert_eq!(coords.len(), 3 * 72);
        let k = PER_BODY + 6 * 4 + 5;
        assert_eq!(&coords[3 * k..3 * k + 3], &[1.0, 4.0, 5.0]);
    }
}
