//! The physics of the stand-in fluid: a sphere in still water with a flat free surface.
//! Pure functions of the sphere's state; no I/O and no coupling.
//!
//! With radius `R`, free surface at `z = water_level` and the sphere's centre at height `z`:
//!
//! - submerged cap height `h = clamp(water_level − (z − R), 0, 2R)`;
//! - submerged volume (spherical cap) `V(h) = π h² (3R − h) / 3`;
//! - buoyancy `F_b = −ρ V g`: the weight of the displaced water, opposite to gravity `g`;
//! - drag on the submerged part, quadratic in the velocity `v`:
//!   `F_d = −½ ρ C_d A |v| v`, with `A` the area of the submerged part projected on the
//!   horizontal plane: the cap's base disc `π (2Rh − h²)` while `h ≤ R`, the full disc
//!   `π R²` beyond; zero out of the water;
//! - no torque: both forces act through the centre (pressure on a sphere is radial).
//!
//! The vertical axis is `z`; gravity may point anywhere, but the free surface is the plane
//! `z = water_level`.

use nalgebra::Vector3;
use std::f64::consts::PI;
use thiserror::Error;

/// A parameter the formulas cannot work with; raised when the model is built.
#[derive(Debug, Error, PartialEq)]
pub enum ModelError {
    /// A parameter out of its range or not finite.
    #[error("{name} must be {rule}, got {value}")]
    InvalidParameter {
        /// The parameter, as the model file spells it.
        name: &'static str,
        /// What it must be ("a positive number").
        rule: &'static str,
        /// The value given.
        value: f64,
    },
}

/// A sphere in water: the fixed data of the buoyancy and drag formulas.
#[derive(Debug, Clone, PartialEq)]
pub struct SphereInWater {
    radius: f64,
    water_level: f64,
    fluid_density: f64,
    drag_coefficient: f64,
    gravity: Vector3<f64>,
}

impl SphereInWater {
    /// Checks the parameters (radius and density positive, drag coefficient non-negative,
    /// everything finite) so that the force functions never see nonsense.
    pub fn new(
        radius: f64,
        water_level: f64,
        fluid_density: f64,
        drag_coefficient: f64,
        gravity: Vector3<f64>,
    ) -> Result<Self, ModelError> {
        let check = |name, value: f64, ok: bool, rule| {
            if ok && value.is_finite() {
                Ok(())
            } else {
                Err(ModelError::InvalidParameter { name, rule, value })
            }
        };
        check("radius", radius, radius > 0.0, "a positive number")?;
        check("water_level", water_level, true, "a finite number")?;
        check("fluid_density", fluid_density, fluid_density > 0.0, "a positive number")?;
        check("drag_coefficient", drag_coefficient, drag_coefficient >= 0.0, "zero or positive")?;
        for (i, g) in gravity.iter().enumerate() {
            check(["gravity[0]", "gravity[1]", "gravity[2]"][i], *g, true, "a finite number")?;
        }
        Ok(SphereInWater { radius, water_level, fluid_density, drag_coefficient, gravity })
    }

    /// Sphere radius R (m).
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// The gravity the buoyancy opposes (m/s²); it must match the solid's.
    pub fn gravity(&self) -> Vector3<f64> {
        self.gravity
    }

    /// Height of the submerged cap for a centre at height `z`, in `[0, 2R]`.
    pub fn submerged_height(&self, z: f64) -> f64 {
        (self.water_level - (z - self.radius)).clamp(0.0, 2.0 * self.radius)
    }

    /// Submerged volume for a cap of height `h` (the spherical-cap formula).
    pub fn submerged_volume(&self, h: f64) -> f64 {
        PI * h * h * (3.0 * self.radius - h) / 3.0
    }

    /// Area of the submerged part projected on the horizontal plane, for a cap of height `h`.
    pub fn projected_area(&self, h: f64) -> f64 {
        let r = self.radius;
        if h <= 0.0 {
            0.0
        } else if h <= r {
            PI * (2.0 * r * h - h * h)
        } else {
            PI * r * r
        }
    }

    /// Buoyancy `−ρ V g` for a centre at `position`.
    pub fn buoyancy(&self, position: &Vector3<f64>) -> Vector3<f64> {
        let v = self.submerged_volume(self.submerged_height(position.z));
        -self.fluid_density * v * self.gravity
    }

    /// Quadratic drag `−½ ρ C_d A |v| v` for a centre at `position` moving at `velocity`.
    pub fn drag(&self, position: &Vector3<f64>, velocity: &Vector3<f64>) -> Vector3<f64> {
        let a = self.projected_area(self.submerged_height(position.z));
        -0.5 * self.fluid_density * self.drag_coefficient * a * velocity.norm() * velocity
    }

    /// Total hydrodynamic force (buoyancy + drag); the torque is always zero.
    pub fn force(&self, position: &Vector3<f64>, velocity: &Vector3<f64>) -> Vector3<f64> {
        self.buoyancy(position) + self.drag(position, velocity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: f64 = 0.12;
    const RHO: f64 = 1000.0;

    fn sphere(cd: f64) -> SphereInWater {
        SphereInWater::new(R, 0.0, RHO, cd, Vector3::new(0.0, 0.0, -9.81)).unwrap()
    }

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol * b.abs().max(1.0), "{a} vs {b}");
    }

    #[test]
    fn buoyancy_by_hand() {
        let s = sphere(0.0);
        // Fully submerged: ρ (4/3) π R³ |g| = 1000 · 7.238229e-3 m³ · 9.81 = 71.00703 N.
        let full = RHO * 4.0 / 3.0 * PI * R.powi(3) * 9.81;
        close(full, 71.00703, 1e-6);
        let f = s.buoyancy(&Vector3::new(0.0, 0.0, -1.0));
        close(f.z, full, 1e-12);
        assert_eq!((f.x, f.y), (0.0, 0.0));
        // Exactly touching from below counts as full, deeper stays full.
        close(s.buoyancy(&Vector3::new(0.0, 0.0, -R)).z, full, 1e-12);
        // Half: centre on the water line.
        close(s.buoyancy(&Vector3::new(0.3, -2.0, 0.0)).z, full / 2.0, 1e-12);
        // Out of the water (bottom at or above the surface): nothing.
        assert_eq!(s.buoyancy(&Vector3::new(0.0, 0.0, R)).z, 0.0);
        assert_eq!(s.buoyancy(&Vector3::new(0.0, 0.0, 5.0)).z, 0.0);
        // A cap of 3 cm: V = π 0.03² (0.36 − 0.03)/3 = 3.1101767e-4 m³ → 3.0510834 N.
        close(s.buoyancy(&Vector3::new(0.0, 0.0, R - 0.03)).z, 3.0510834, 1e-6);
    }

    #[test]
    fn buoyancy_opposes_any_gravity() {
        let s = SphereInWater::new(R, 0.0, RHO, 0.0, Vector3::new(1.0, 0.0, -9.0)).unwrap();
        let f = s.buoyancy(&Vector3::zeros());
        let v = 2.0 / 3.0 * PI * R.powi(3);
        close(f.x, -RHO * v, 1e-12);
        close(f.z, 9.0 * RHO * v, 1e-12);
    }

    #[test]
    fn drag_sign_and_magnitude() {
        let s = sphere(0.5);
        let deep = Vector3::new(0.0, 0.0, -1.0);
        // Falling at 2 m/s, fully submerged: ½ · 1000 · 0.5 · π 0.0144 · 2 · 2 = 45.2389 N up.
        let f = s.drag(&deep, &Vector3::new(0.0, 0.0, -2.0));
        close(f.z, 45.23893, 1e-6);
        // Quadratic and against the motion in any direction.
        let f = s.drag(&deep, &Vector3::new(3.0, 4.0, 0.0));
        close(f.norm(), 0.5 * RHO * 0.5 * PI * R * R * 25.0, 1e-12);
        close(f.x / f.y, 0.75, 1e-12);
        assert!(f.x < 0.0 && f.y < 0.0);
        // Half submerged: the projected area is already the full disc π R².
        let half = s.drag(&Vector3::zeros(), &Vector3::new(0.0, 0.0, 1.0));
        close(half.z, -0.5 * RHO * 0.5 * PI * R * R, 1e-12);
        // A 3 cm cap: A = π (2 · 0.12 · 0.03 − 0.0009) = 0.0197920 m².
        let cap = s.drag(&Vector3::new(0.0, 0.0, R - 0.03), &Vector3::new(0.0, 0.0, -1.0));
        close(cap.z, 0.5 * RHO * 0.5 * 0.019792034, 1e-6);
        // Out of the water: no drag.
        assert_eq!(s.drag(&Vector3::new(0.0, 0.0, 1.0), &Vector3::new(0.0, 0.0, -3.0)), Vector3::zeros());
    }

    #[test]
    fn force_is_the_sum_and_rejects_bad_parameters() {
        let s = sphere(0.5);
        let (p, v) = (Vector3::new(0.0, 0.0, -0.05), Vector3::new(0.1, 0.0, 0.7));
        assert_eq!(s.force(&p, &v), s.buoyancy(&p) + s.drag(&p, &v));
        let g = Vector3::new(0.0, 0.0, -9.81);
        assert!(SphereInWater::new(0.0, 0.0, RHO, 0.5, g).is_err());
        assert!(SphereInWater::new(R, 0.0, -1.0, 0.5, g).is_err());
        let e = SphereInWater::new(R, 0.0, RHO, -0.1, g).unwrap_err();
        assert_eq!(e.to_string(), "drag_coefficient must be zero or positive, got -0.1");
        assert!(SphereInWater::new(R, f64::NAN, RHO, 0.5, g).is_err());
    }
}
