//! One window's exchange: loads read into the coupling bodies (replacing the last window's) and
//! the added-mass increments read with them; the bodies' motion written back.

use super::interfaces::{axes, is_rotational};
use super::MbsAdapter;
use nalgebra::Vector3;
use tidelink_adapter_core::spec::DataType;
use tidelink_adapter_core::{AdapterResult, CouplingData};

impl MbsAdapter {
    /// Reads the loads (and added-mass increments) of the window that starts at `time`, sampled
    /// `relative_read_time` after it.
    pub(super) fn read_loads(
        &mut self,
        coupling: &mut dyn CouplingData,
        time: f64,
        relative_read_time: f64,
    ) -> AdapterResult<()> {
        // Loads replace the previous window's: empty the accumulators once, then add.
        for c in &self.coupled {
            if let Some(b) = self.system.bodies.get_mut(c.handle) {
                b.clear_accumulators();
            }
        }
        for mesh in &self.meshes {
            for d in &mesh.reads {
                let mut values = vec![0.0; mesh.ids.len() * d.components];
                coupling.read_data(&mesh.name, &d.name, &mesh.ids, relative_read_time, &mut values)?;
                let comps = axes(d.components, is_rotational(d.kind));
                for (k, vertex) in mesh.vertices.iter().enumerate() {
                    let mut v = Vector3::zeros();
                    for (j, &c) in comps.iter().enumerate() {
                        v[c] = values[k * d.components + j];
                    }
                    let at = self.vertex_position(vertex);
                    let Some(b) = self.system.bodies.get_mut(self.coupled[vertex.body].handle) else { continue };
                    match d.kind {
                        DataType::Forces => b.add_force_at_point(v, &at),
                        DataType::Torques => b.add_torque(v),
                        _ => {}
                    }
                }
            }
        }
        // Same read time as the forces: a force and the added mass it was evaluated with
        // refer to the same instant.
        self.added_mass.read(coupling, relative_read_time, &mut self.system, time)?;
        Ok(())
    }

    /// Writes the motion data of every mesh.
    pub(super) fn write_motion(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        for mesh in &self.meshes {
            for d in &mesh.writes {
                let comps = axes(d.components, is_rotational(d.kind));
                let mut values = Vec::with_capacity(mesh.ids.len() * d.components);
                for vertex in &mesh.vertices {
                    let v = self.value(vertex, d.kind);
                    values.extend(comps.iter().map(|&c| v[c]));
                }
                coupling.write_data(&mesh.name, &d.name, &mesh.ids, &values)?;
            }
        }
        Ok(())
    }
}
