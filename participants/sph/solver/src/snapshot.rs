//! What output writers need of the walls and bodies: each marker's world position, velocity,
//! and the pressure and density the fluid gives it, at the current state.

use crate::error::Result;
use crate::pipeline::Simulation;
use nalgebra::{Point3, Vector3};

/// The markers at one instant (in the solver's current order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MarkerSnapshot {
    /// World position (m) (2D: y = 0).
    pub positions: Vec<Point3<f64>>,
    /// The wall's own velocity `v + ω × r` (m/s), world frame.
    pub velocities: Vec<Vector3<f64>>,
    /// Pressure extrapolated from the fluid (Pa); 0 for markers without fluid neighbours.
    pub pressures: Vec<f64>,
    /// Density from the equation of state at that pressure (kg/m³).
    pub densities: Vec<f64>,
    /// Index of the wall or body each marker belongs to (the order bodies were added).
    pub bodies: Vec<usize>,
}

impl Simulation {
    /// The markers now, with the pressure of the boundary pass at the current state (computed
    /// if no step needed it yet; the next step reuses it).
    pub fn marker_snapshot(&mut self) -> Result<MarkerSnapshot> {
        self.stable_time_step()?;
        let (x, v) = (&self.markers.x, &self.markers.vwall);
        let (rho, por) = self.marker_pressure_state();
        let n = self.markers.len();
        let mut out = MarkerSnapshot::default();
        for i in 0..n {
            let mut p = Point3::origin();
            let mut u = Vector3::zeros();
            for (k, &a) in self.params.dimension.axes().iter().enumerate() {
                p[a] = x[k][i];
                u[a] = v[k][i];
            }
            out.positions.push(p);
            out.velocities.push(u);
            out.densities.push(f64::from(rho[i]));
            out.pressures.push(f64::from(por[i]) * f64::from(rho[i]));
            out.bodies.push(self.markers.body[i] as usize);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::{BodySpec, Dimension, Parameters, Scene, Shape};
    use nalgebra::{Isometry3, Point3, Vector3};

    /// A still 2D column 0.4 m deep in a container: the first marker layer under the bottom, at
    /// z = −dp/2, carries the hydrostatic pressure ρ g (H + dp/2) extrapolated from the fluid
    /// (Adami), to the ~1.5 % the kernel's gradient error allows inside the fluid (docs/sph.md).
    #[test]
    fn bottom_markers_carry_the_hydrostatic_pressure() {
        let (dp, depth, g) = (0.02, 0.4, 9.81);
        let params = Parameters::new(Dimension::Two, dp, Parameters::sound_speed_for_depth(depth, g));
        let mut scene = Scene::new(params);
        scene.add_fluid_box(Point3::new(-0.2, 0.0, 0.0), Point3::new(0.2, 0.0, depth));
        scene.set_hydrostatic_surface(depth);
        let tank = Shape::Container { half_extents: Vector3::new(0.2, 0.2, 0.3), open_top: true };
        scene.add_body(BodySpec::new("tank", tank, Isometry3::translation(0.0, 0.0, 0.3)).without_loads());
        let eos = scene.parameters().eos();
        let mut sim = scene.build().unwrap();
        let snap = sim.marker_snapshot().unwrap();
        assert_eq!(snap.positions.len(), sim.marker_count());
        assert!(snap.bodies.iter().all(|&b| b == 0));
        assert!(snap.velocities.iter().all(|v| v.norm() == 0.0));
        let expected = 1000.0 * g * (depth + 0.5 * dp);
        let first_layer: Vec<usize> = (0..snap.positions.len())
            .filter(|&i| (snap.positions[i].z + 0.5 * dp).abs() < 1e-9 && snap.positions[i].x.abs() < 0.1)
            .collect();
        assert!(first_layer.len() >= 8, "{} markers in the first layer", first_layer.len());
        for i in first_layer {
            let p = snap.pressures[i];
            assert!((p / expected - 1.0).abs() < 0.03, "marker at {}: p = {p}, ρ g d = {expected}", snap.positions[i]);
            assert!((snap.densities[i] - eos.density(p)).abs() < 1e-3, "{} at p = {p}", snap.densities[i]);
        }
        // Markers above the water have no fluid neighbours: p = 0 at rest density.
        let dry = (0..snap.positions.len()).find(|&i| snap.positions[i].z > depth + 0.1).expect("a dry marker");
        assert_eq!((snap.pressures[dry], snap.densities[dry]), (0.0, 1000.0));
    }
}
